//! Singles backdoors: the fewest cells whose solution digits, given as
//! extra clues, let naked and hidden singles alone solve a puzzle (the
//! puzzle forum's "backdoor size" for singles).
//!
//! Sets are tried by size, smallest first. Adding clues to a puzzle or to
//! its singles fixpoint gives the same fixpoint, so the search starts from
//! the fixpoint and adds one cell at a time to a copy, each time from the
//! fixpoint of the cells so far: a set is tried as its cells in
//! increasing order, each one still empty after the earlier ones (a cell
//! the earlier ones already fill adds nothing, so that set is a smaller
//! one, tried before). Solution digits never meet a contradiction.

use crate::grid::{Grid, CELLS};
use crate::singles::Board;

/// The backdoor size of a puzzle with one solution, `solution`, whose
/// singles fixpoint is `start`: 0 when `start` is solved, else the
/// smallest size in `1..=max` that has a backdoor, else `max + 1` (more
/// than `max`).
pub(crate) fn backdoor_size(start: &Board, solution: &Grid, max: u8) -> u8 {
    if start.is_solved() {
        return 0;
    }
    (1..=max)
        .find(|&size| solves_with(start, solution, size, 0))
        .unwrap_or(max + 1)
}

/// Whether some `size` more cells from `first` on, each empty when it is
/// added, complete `state` by singles.
fn solves_with(state: &Board, solution: &Grid, size: u8, first: usize) -> bool {
    for cell in first..CELLS {
        if state.value(cell) != 0 {
            continue;
        }
        let mut next = *state;
        if next.assume(cell, solution.get(cell)).is_err() {
            continue; // only when `solution` does not solve the puzzle
        }
        let done = if size == 1 {
            next.is_solved()
        } else {
            solves_with(&next, solution, size - 1, cell + 1)
        };
        if done {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::solver::Solver;
    use crate::testdata::corpus::mixed_corpus;
    use crate::testdata::{grid, plain_singles, EASY, HARD, PLATINUM};

    /// The backdoor size by brute force, with the plain singles loop of
    /// the test data: every set of `size` empty cells of the puzzle (not of
    /// its fixpoint), as clues, for size = 0, 1, ... up to `max`.
    fn brute_force(puzzle: &Grid, solution: &Grid, max: u8) -> u8 {
        let empty: Vec<usize> = (0..CELLS).filter(|&c| puzzle.get(c) == 0).collect();
        for size in 0..=max {
            let mut chosen = Vec::new();
            if any_set(puzzle, solution, &empty, usize::from(size), &mut chosen) {
                return size;
            }
        }
        max + 1
    }

    /// Whether a set of `left` more cells of `cells`, added to `chosen`,
    /// lets singles complete the puzzle.
    fn any_set(
        puzzle: &Grid,
        solution: &Grid,
        cells: &[usize],
        left: usize,
        chosen: &mut Vec<usize>,
    ) -> bool {
        if left == 0 {
            let mut g = *puzzle;
            for &c in chosen.iter() {
                g.set(c, solution.get(c));
            }
            return plain_singles(&g).is_some_and(|f| f.is_complete());
        }
        for (i, &c) in cells.iter().enumerate() {
            chosen.push(c);
            let found = any_set(puzzle, solution, &cells[i + 1..], left - 1, chosen);
            chosen.pop();
            if found {
                return true;
            }
        }
        false
    }

    fn unique(solver: &mut Solver, p: &Grid) -> Option<Grid> {
        let out = solver.count_solutions_up_to(p, 2).ok()?;
        (out.solutions == 1).then_some(out.solution?)
    }

    #[test]
    fn easy_puzzles_need_none_and_hard_ones_some() {
        let mut solver = Solver::new();
        let easy = grid(EASY);
        let s = unique(&mut solver, &easy).unwrap();
        assert_eq!(backdoor_size(&Board::load(&easy).unwrap(), &s, 3), 0);
        let hard = grid(HARD);
        let s = unique(&mut solver, &hard).unwrap();
        let size = backdoor_size(&Board::load(&hard).unwrap(), &s, 2);
        assert!(size >= 1);
        assert_eq!(size, brute_force(&hard, &s, 2));
    }

    /// Sizes up to 2 against the brute force on the unique puzzles of a
    /// seeded corpus; the corpus has puzzles of each size.
    #[test]
    fn sizes_agree_with_a_brute_force() {
        let mut solver = Solver::new();
        let mut seen = [0usize; 4];
        for p in mixed_corpus(13, 160) {
            let Some(solution) = unique(&mut solver, &p) else {
                continue;
            };
            let fast = backdoor_size(&Board::load(&p).unwrap(), &solution, 2);
            assert_eq!(fast, brute_force(&p, &solution, 2), "{p}");
            seen[usize::from(fast)] += 1;
        }
        assert!(seen[0] > 5 && seen[1] > 5, "sizes seen: {seen:?}");
    }

    /// Sizes up to 2 against the brute force on public sets: top95 and the
    /// first 300 of top1465.
    #[test]
    #[ignore = "reads ../shared/data; cargo test --release -p batchdoku-core -- --ignored backdoor_agrees"]
    fn backdoor_agrees_with_a_brute_force_on_public_sets() {
        let mut solver = Solver::new();
        let puzzles = crate::testdata::shared_hard_sample();
        let mut seen = [0usize; 4];
        for p in &puzzles {
            let solution = unique(&mut solver, p).unwrap();
            let fast = backdoor_size(&Board::load(p).unwrap(), &solution, 2);
            assert_eq!(fast, brute_force(p, &solution, 2), "{p}");
            seen[usize::from(fast)] += 1;
        }
        eprintln!(
            "backdoor agrees with the brute force on {} puzzles (size 0/1/2/more: {seen:?})",
            puzzles.len()
        );
    }

    /// Size 3 against the brute force (tens of thousands of plain singles
    /// loops): a top1465 puzzle (#169) with no backdoor of 2 cells, and
    /// the first of the forum's hardest list.
    #[test]
    fn size_three_agrees_with_a_brute_force() {
        let mut solver = Solver::new();
        let top1465_169 =
            ".8..9....3......6....3...4.....1...5..2...9....7...8..65....1.....2.7........4...";
        for (p, want) in [(grid(top1465_169), 3), (grid(PLATINUM), 0)] {
            let solution = unique(&mut solver, &p).unwrap();
            let fast = backdoor_size(&Board::load(&p).unwrap(), &solution, 3);
            assert_eq!(fast, brute_force(&p, &solution, 3), "{p}");
            if want > 0 {
                assert_eq!(fast, want);
            }
        }
    }
}
