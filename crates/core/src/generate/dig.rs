//! Complete grids and puzzles dug from them: [`random_solution`] (a random
//! valid grid), [`dig`] (blank cells at random), and [`minimize_unique`] /
//! [`minimize_by_orbits`] (remove givens while exactly one solution stays),
//! the steps the [`Generator`](super::Generator) is built from.

use super::{Orbits, Symmetry};
use crate::canon::Transform;
use crate::engine::Engine;
use crate::grid::{Grid, CELLS, UNITS};
use crate::rng::Rng;
use crate::solver::Solver;

/// A fixed valid grid, used only if completing random diagonal boxes were
/// ever to fail (it cannot: any three diagonal boxes extend to a grid).
const FALLBACK_SOLUTION: [u8; CELLS] = {
    let line = b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let mut cells = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        cells[i] = line[i] - b'0';
        i += 1;
    }
    cells
};

/// A random complete valid grid, deterministic given the state of `rng`.
///
/// The three diagonal boxes (which share no unit) are filled with random
/// permutations of 1..=9, the bitmask `solver` completes the grid (its
/// first solution), and the result is then shuffled by a uniformly random
/// validity-preserving [`Transform`] (digit relabelling, band/stack and
/// row/column permutations, optional transpose). The distribution is broad
/// but not uniform over all grids.
pub fn random_solution(rng: &mut Rng, solver: &mut Solver) -> Grid {
    let mut seed = Grid::empty();
    for b in [0usize, 4, 8] {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (&cell, &d) in UNITS[18 + b].iter().zip(digits.iter()) {
            seed.set(usize::from(cell), d);
        }
    }
    let completed = match solver.solve_first(&seed) {
        Ok(outcome) => outcome.solution,
        Err(_) => None,
    };
    let base = completed
        .or_else(|| Grid::from_cells(FALLBACK_SOLUTION))
        .unwrap_or_default();
    Transform::random(rng).apply(&base)
}

/// `solution` with random cells blanked so that exactly `givens` remain
/// (all of them when `givens >= 81`). Uniqueness is not checked. Works on
/// any grid: blank cells of `solution` count as already removed, so fewer
/// than `givens` may remain if `solution` had fewer.
#[cfg_attr(not(test), allow(dead_code))]
pub fn dig(rng: &mut Rng, solution: &Grid, givens: usize) -> Grid {
    let mut order = all_cells();
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut left = puzzle.given_count();
    for &cell in &order {
        if left <= givens {
            break;
        }
        if puzzle.get(usize::from(cell)) != 0 {
            puzzle.set(usize::from(cell), 0);
            left -= 1;
        }
    }
    puzzle
}

/// The cells 0..81 in order.
pub(crate) fn all_cells() -> [u8; CELLS] {
    let mut cells = [0u8; CELLS];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = i as u8;
    }
    cells
}

/// True when `puzzle` has exactly one solution according to `solver`.
fn is_unique(solver: &mut Solver, puzzle: &Grid) -> bool {
    matches!(solver.count_solutions_only(puzzle, 2), Ok(o) if o.solutions == 1)
}

/// Removes givens of `puzzle` one by one in random order, keeping a removal
/// only if the puzzle still has exactly one solution; stops once
/// `min_givens` givens are left or every given has been tried (the result
/// is then minimal: no single given can go). A `puzzle` that does not have
/// exactly one solution is returned unchanged.
#[cfg_attr(not(test), allow(dead_code))]
pub fn minimize_unique(
    rng: &mut Rng,
    solver: &mut Solver,
    puzzle: &Grid,
    min_givens: usize,
) -> Grid {
    minimize_by_orbits(rng, solver, puzzle, &Symmetry::None.orbits(), min_givens)
}

/// [`minimize_unique`] a whole orbit at a time: removes the givens of each
/// orbit of `orbits` (in random order) together, keeping a removal only if
/// the puzzle still has exactly one solution and at least `min_givens`
/// givens (an orbit too big for that is skipped). A symmetric puzzle stays
/// symmetric, and no orbit of the result can go: it is minimal among the
/// puzzles with that symmetry. A `puzzle` that does not have exactly one
/// solution is returned unchanged.
pub fn minimize_by_orbits(
    rng: &mut Rng,
    solver: &mut Solver,
    puzzle: &Grid,
    orbits: &Orbits,
    min_givens: usize,
) -> Grid {
    let mut current = *puzzle;
    if !is_unique(solver, &current) {
        return current;
    }
    let mut order = all_cells();
    let order = &mut order[..orbits.len()];
    rng.shuffle(order);
    let mut left = current.given_count();
    for &k in order.iter() {
        if left <= min_givens {
            break;
        }
        let orbit = orbits.get(usize::from(k));
        let givens = orbit
            .iter()
            .filter(|&&c| current.get(usize::from(c)) != 0)
            .count();
        if givens == 0 || left - givens < min_givens {
            continue;
        }
        let before = current;
        for &c in orbit {
            current.set(usize::from(c), 0);
        }
        if is_unique(solver, &current) {
            left -= givens;
        } else {
            current = before;
        }
    }
    current
}

/// A random puzzle with exactly one solution: a [`random_solution`] reduced
/// by [`minimize_unique`] down to `min_givens` givens, or to a minimal
/// puzzle if that comes first (random minimal puzzles have about 20 to 26
/// givens, so a `min_givens` below that yields minimal puzzles).
#[cfg_attr(not(test), allow(dead_code))]
pub fn unique_puzzle(rng: &mut Rng, solver: &mut Solver, min_givens: usize) -> Grid {
    let solution = random_solution(rng, solver);
    minimize_unique(rng, solver, &solution, min_givens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(solver: &mut Solver, p: &Grid, limit: u64) -> Option<u64> {
        solver
            .count_solutions_up_to(p, limit)
            .ok()
            .map(|o| o.solutions)
    }

    #[test]
    fn random_solutions_are_valid_varied_and_reproducible() {
        let mut solver = Solver::new();
        let mut grids = Vec::new();
        for seed in 0..20 {
            let g = random_solution(&mut Rng::new(seed), &mut solver);
            assert!(g.is_valid_solution(), "{g}");
            assert_eq!(random_solution(&mut Rng::new(seed), &mut solver), g);
            grids.push(g);
        }
        grids.sort_unstable();
        grids.dedup();
        assert_eq!(grids.len(), 20);
    }

    #[test]
    fn dig_leaves_exactly_the_asked_givens() {
        let mut solver = Solver::new();
        let mut rng = Rng::new(5);
        let solution = random_solution(&mut rng, &mut solver);
        for givens in [0, 17, 30, 80, 81, 100] {
            let p = dig(&mut rng, &solution, givens);
            assert_eq!(p.given_count(), givens.min(81));
            assert!(solution.solves(&p));
        }
    }

    #[test]
    fn unique_puzzles_are_unique_and_minimal() {
        let mut solver = Solver::new();
        for seed in 0..10 {
            let mut rng = Rng::new(seed);
            let p = unique_puzzle(&mut rng, &mut solver, 0);
            assert_eq!(count(&mut solver, &p, 2), Some(1), "{p}");
            assert!(p.given_count() >= 17 && p.given_count() < 40, "{p}");
            // Minimal: removing any single given breaks uniqueness.
            for cell in 0..81 {
                if p.get(cell) != 0 {
                    let mut q = p;
                    q.set(cell, 0);
                    assert_eq!(count(&mut solver, &q, 2), Some(2), "{p} cell {cell}");
                }
            }
            assert_eq!(unique_puzzle(&mut Rng::new(seed), &mut solver, 0), p);
        }
    }

    #[test]
    fn unique_puzzle_stops_at_target() {
        let mut solver = Solver::new();
        let p = unique_puzzle(&mut Rng::new(9), &mut solver, 40);
        assert_eq!(p.given_count(), 40);
        assert_eq!(count(&mut solver, &p, 2), Some(1));
    }

    #[test]
    fn minimize_leaves_non_unique_input_alone() {
        let mut solver = Solver::new();
        let mut rng = Rng::new(3);
        let solution = random_solution(&mut rng, &mut solver);
        let p = dig(&mut rng, &solution, 10);
        assert_eq!(minimize_unique(&mut rng, &mut solver, &p, 0), p);
    }
}
