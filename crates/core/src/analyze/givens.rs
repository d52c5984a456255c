//! Redundant givens: a given is redundant when the puzzle without it still
//! has exactly one solution; a puzzle is minimal when none is.
//!
//! Without given `g` the puzzle keeps its solution `S`, so it stays unique
//! exactly when it has no solution with another digit than `S[g]` in
//! `g`. That is one first-solution search of the solver's loop with a
//! [`Visitor`] ([`Another`]) that removes `S[g]` from `g` at the root:
//! about half the work of counting to two, which would find `S` too.

use crate::grid::{Grid, CELLS};
use crate::solver::{Flow, Node, Solver, Visitor};

/// Looks for a solution with another digit than `digit` in `cell`.
struct Another {
    cell: usize,
    digit: u8,
    /// The root has been narrowed (after which every node goes on).
    narrowed: bool,
    /// A solution with another digit was found.
    found: bool,
}

impl Visitor for Another {
    fn enter(&mut self, node: &mut Node) -> Flow {
        if self.narrowed {
            return Flow::Continue;
        }
        self.narrowed = true;
        if node.value(self.cell) != 0 {
            // The other givens force the cell: only `digit` fits it.
            return Flow::Stop;
        }
        node.eliminate(self.cell, self.digit);
        Flow::Narrowed
    }

    fn solution(&mut self, _node: &Node) -> Flow {
        self.found = true;
        Flow::Stop
    }
}

/// Whether the puzzle `puzzle` (whose one solution is `solution`) without
/// its given in `cell` still has exactly one solution.
fn is_redundant(solver: &mut Solver, puzzle: &Grid, solution: &Grid, cell: usize) -> bool {
    let mut without = *puzzle;
    without.set(cell, 0);
    let mut another = Another {
        cell,
        digit: solution.get(cell),
        narrowed: false,
        found: false,
    };
    // Fewer givens than a puzzle with a solution: no conflict possible.
    solver.search(&without, &mut another).is_ok() && !another.found
}

/// The redundant givens of a puzzle with one solution, `solution`: how
/// many there are, or with `stop_at_first` 0 or 1 (enough to say whether
/// the puzzle is minimal).
pub(crate) fn redundant_givens(
    solver: &mut Solver,
    puzzle: &Grid,
    solution: &Grid,
    stop_at_first: bool,
) -> u8 {
    let mut redundant = 0;
    for cell in 0..CELLS {
        if puzzle.get(cell) != 0 && is_redundant(solver, puzzle, solution, cell) {
            redundant += 1;
            if stop_at_first {
                break;
            }
        }
    }
    redundant
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::DlxSolver;
    use crate::engine::Engine;
    use crate::generate::{minimize_unique, random_solution};
    use crate::rng::Rng;
    use crate::testdata::corpus::mixed_corpus;

    /// Redundant givens counted with the dancing-links engine, which
    /// shares no code with the solver: each given removed in turn, the
    /// solutions counted up to two.
    fn by_dlx(dlx: &mut DlxSolver, puzzle: &Grid) -> u8 {
        let mut n = 0;
        for cell in (0..CELLS).filter(|&c| puzzle.get(c) != 0) {
            let mut without = *puzzle;
            without.set(cell, 0);
            if dlx.count_solutions_up_to(&without, 2).unwrap().solutions == 1 {
                n += 1;
            }
        }
        n
    }

    #[test]
    fn counts_agree_with_dancing_links() {
        let (mut solver, mut dlx) = (Solver::new(), DlxSolver::new());
        let mut minimal = 0;
        let mut compared = 0;
        for p in mixed_corpus(17, 160) {
            let Ok(out) = solver.count_solutions_up_to(&p, 2) else {
                continue;
            };
            if out.solutions != 1 {
                continue;
            }
            let s = out.solution.unwrap();
            let n = redundant_givens(&mut solver, &p, &s, false);
            assert_eq!(n, by_dlx(&mut dlx, &p), "{p}");
            assert_eq!(redundant_givens(&mut solver, &p, &s, true), n.min(1));
            minimal += usize::from(n == 0);
            compared += 1;
        }
        assert!(
            minimal > 3 && compared - minimal > 3,
            "{minimal} of {compared}"
        );
    }

    /// Against dancing links on every puzzle of top1465.
    #[test]
    #[ignore = "reads ../shared/data; cargo test --release -p batchdoku-core -- --ignored redundant_agrees"]
    fn redundant_agrees_with_dancing_links_on_top1465() {
        let (mut solver, mut dlx) = (Solver::new(), DlxSolver::new());
        let puzzles = crate::testdata::shared_set("puzzles3_magictour_top1465.txt");
        let mut with_redundant = 0;
        for p in &puzzles {
            let s = solver.solve_first(p).unwrap().solution.unwrap();
            let n = redundant_givens(&mut solver, p, &s, false);
            assert_eq!(n, by_dlx(&mut dlx, p), "{p}");
            with_redundant += usize::from(n > 0);
        }
        eprintln!("redundant givens agree with dancing links on {} puzzles ({with_redundant} not minimal)", puzzles.len());
    }

    /// A complete grid: every given can go alone; a minimised puzzle: none.
    #[test]
    fn complete_grids_are_all_redundant_minimised_puzzles_none() {
        let mut solver = Solver::new();
        let mut rng = Rng::new(3);
        let grid = random_solution(&mut rng, &mut solver);
        assert_eq!(redundant_givens(&mut solver, &grid, &grid, false), 81);
        let puzzle = minimize_unique(&mut rng, &mut solver, &grid, 0);
        assert_eq!(redundant_givens(&mut solver, &puzzle, &grid, false), 0);
    }
}
