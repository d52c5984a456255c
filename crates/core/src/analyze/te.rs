//! Trial-and-error depth, in Berthier's sense (D. Berthier, "The Hidden
//! Logic of Sudoku" and "Pattern-Based Constraint Satisfaction": the
//! T&E(T) procedure and its levels).
//!
//! Level 0 is the basic propagation: naked and hidden singles with the
//! elimination of a placed digit from its peers ([`Board`]). Level `n`
//! repeats, until nothing changes: for each candidate of each empty cell,
//! assume it on a copy of the grid and apply level `n - 1` to the copy;
//! if the copy meets a contradiction, eliminate the candidate (and apply
//! singles). A puzzle's depth is the smallest level that solves it.
//!
//! Level `n` only removes candidates, each removal justified by level
//! `n - 1`, which also justifies it at level `n`; so the state level `n`
//! ends in does not depend on the order candidates are tried in, and
//! starting level `n` from where level `n - 1` stopped changes nothing
//! but the time it takes. Two shortcuts, neither of which changes a
//! result: on the puzzle itself (not on a hypothesis) the solution's
//! digits are never tried, since an assumption that holds in the solution
//! never meets a contradiction; and a hypothesis stops at its first
//! contradiction.

use crate::grid::{Grid, CELLS};
use crate::singles::{Board, Contradiction};

/// The trial-and-error depth of a puzzle with one solution, `solution`,
/// whose singles fixpoint is `start`: 0 when `start` is solved, else the
/// smallest level in `1..=max` that solves it, else `max + 1` (more than
/// `max`).
pub(crate) fn te_depth(start: &Board, solution: &Grid, max: u8) -> u8 {
    if start.is_solved() {
        return 0;
    }
    let mut state = *start;
    for depth in 1..=max {
        // The puzzle has a solution, so its own state never contradicts.
        if apply(&mut state, depth, Some(solution)).is_err() {
            break;
        }
        if state.is_solved() {
            return depth;
        }
    }
    max + 1
}

/// Applies level `depth` (at least 1) to `state` until it changes no more,
/// or until a contradiction, which is `Err`. `truth`, when given, is a
/// solution `state` agrees with: its digits are not tried.
fn apply(state: &mut Board, depth: u8, truth: Option<&Grid>) -> Result<(), Contradiction> {
    loop {
        let mut changed = false;
        for cell in 0..CELLS {
            let mut candidates = state.candidates(cell);
            while candidates != 0 {
                let digit = candidates.trailing_zeros() as u8;
                candidates &= candidates - 1;
                // An earlier elimination may have decided this cell.
                if state.candidates(cell) & 1 << digit == 0
                    || truth.is_some_and(|t| t.get(cell) == digit)
                {
                    continue;
                }
                if contradicts(state, cell, digit, depth) {
                    state.eliminate(cell, digit)?;
                    changed = true;
                    if state.is_solved() {
                        return Ok(());
                    }
                }
            }
        }
        if !changed {
            return Ok(());
        }
    }
}

/// Whether assuming `digit` in `cell` and applying level `depth - 1` to
/// the copy meets a contradiction.
fn contradicts(state: &Board, cell: usize, digit: u8, depth: u8) -> bool {
    let mut copy = *state;
    copy.assume(cell, digit).is_err() || (depth > 1 && apply(&mut copy, depth - 1, None).is_err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::solver::Solver;
    use crate::testdata::corpus::mixed_corpus;
    use crate::testdata::{grid, plain_singles, EASY, HARD, PLATINUM};

    /// Level `depth` written as plainly as possible on whole grids, with
    /// the plain singles loop of the test data: try every candidate of
    /// every empty cell (the solution's too), from the top after each
    /// elimination, until a pass eliminates nothing. Candidates are a
    /// grid of removed digits beside the placed ones. `None` is a
    /// contradiction.
    fn plain_level(grid: &Grid, removed: &[u16; CELLS], depth: u8) -> Option<(Grid, [u16; CELLS])> {
        let (mut g, mut removed) = (propagate(grid, removed)?, *removed);
        'again: loop {
            if depth == 0 || g.is_complete() {
                return Some((g, removed));
            }
            for cell in 0..CELLS {
                for digit in 1..=9u8 {
                    if g.get(cell) != 0 || removed[cell] & 1 << digit != 0 || !fits(&g, cell, digit)
                    {
                        continue;
                    }
                    let mut assumed = g;
                    assumed.set(cell, digit);
                    if plain_level(&assumed, &removed, depth - 1).is_none() {
                        removed[cell] |= 1 << digit;
                        g = propagate(&g, &removed)?;
                        continue 'again;
                    }
                }
            }
            return Some((g, removed));
        }
    }

    /// Whether `digit` fits `cell` of `g` by its peers.
    fn fits(g: &Grid, cell: usize, digit: u8) -> bool {
        crate::testdata::naive_fits(g, cell, digit)
    }

    /// The plain singles loop of the test data (`plain_singles`), on
    /// candidates less the removed ones: a cell whose candidates (by its
    /// peers, less the removed ones) come down to one is filled, a digit
    /// with one place left in a unit goes there; repeated until nothing
    /// changes. With nothing removed it is `plain_singles`.
    fn propagate(grid: &Grid, removed: &[u16; CELLS]) -> Option<Grid> {
        let mut g = *grid;
        if g.first_conflict().is_some() {
            return None;
        }
        loop {
            let mut placed = false;
            for (cell, &gone) in removed.iter().enumerate() {
                if g.get(cell) != 0 {
                    continue;
                }
                let left: Vec<u8> = (1..=9)
                    .filter(|&d| gone & 1 << d == 0 && fits(&g, cell, d))
                    .collect();
                match left.len() {
                    0 => return None,
                    1 => {
                        g.set(cell, left[0]);
                        placed = true;
                    }
                    _ => {}
                }
            }
            // Hidden singles must see the removed candidates too: a digit
            // whose places in a unit are all removed is a contradiction,
            // one place left is a placement.
            for unit in crate::grid::UNITS {
                for d in 1..=9u8 {
                    if unit.iter().any(|&c| g.get(usize::from(c)) == d) {
                        continue;
                    }
                    let places: Vec<usize> = unit
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|&c| g.get(c) == 0 && removed[c] & 1 << d == 0 && fits(&g, c, d))
                        .collect();
                    match places.len() {
                        0 => return None,
                        1 => {
                            g.set(places[0], d);
                            placed = true;
                        }
                        _ => {}
                    }
                }
            }
            if g.first_conflict().is_some() {
                return None;
            }
            if !placed {
                return Some(g);
            }
        }
    }

    /// The depth by the plain levels: the first of 0..=max that completes
    /// the grid, else max + 1.
    fn plain_depth(puzzle: &Grid, max: u8) -> u8 {
        (0..=max)
            .find(|&d| plain_level(puzzle, &[0; CELLS], d).is_some_and(|(g, _)| g.is_complete()))
            .unwrap_or(max + 1)
    }

    fn depth(puzzle: &Grid, max: u8) -> u8 {
        let solution = Solver::new().solve_first(puzzle).unwrap().solution.unwrap();
        te_depth(&Board::load(puzzle).unwrap(), &solution, max)
    }

    #[test]
    fn propagation_with_nothing_removed_is_the_plain_loop() {
        for p in mixed_corpus(4, 60) {
            assert_eq!(propagate(&p, &[0; CELLS]), plain_singles(&p), "{p}");
        }
    }

    #[test]
    fn known_puzzles_have_their_known_depths() {
        assert_eq!(depth(&grid(EASY), 2), 0);
        // Norvig's hard puzzle falls to one level of trial and error; the
        // hardest-list puzzle needs two.
        assert_eq!(depth(&grid(HARD), 2), 1);
        assert_eq!(depth(&grid(PLATINUM), 1), 2);
        assert_eq!(depth(&grid(PLATINUM), 2), 2);
    }

    /// The fast levels against the plain ones on the unique puzzles of a
    /// seeded corpus, up to level 1 (level 2 of the plain loop takes
    /// minutes on one puzzle; it is compared on one known puzzle below).
    #[test]
    fn depths_agree_with_a_plain_loop() {
        let mut solver = Solver::new();
        let mut seen = [0usize; 3];
        for p in mixed_corpus(21, 240) {
            let Ok(out) = solver.count_solutions_up_to(&p, 2) else {
                continue;
            };
            if out.solutions != 1 {
                continue;
            }
            let fast = te_depth(&Board::load(&p).unwrap(), &out.solution.unwrap(), 1);
            assert_eq!(fast, plain_depth(&p, 1), "{p}");
            seen[usize::from(fast)] += 1;
        }
        assert!(seen[0] > 5 && seen[1] > 5, "depths seen: {seen:?}");
    }

    /// Two top1465 puzzles: #2 (depth 2) and #169 (depth 1).
    const TOP1465_2: &str =
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    const TOP1465_169: &str =
        ".8..9....3......6....3...4.....1...5..2...9....7...8..65....1.....2.7........4...";

    /// Level 2 against the plain loop on one puzzle of depth 2 (each
    /// hypothesis of the plain level 2 runs the plain level 1: seconds).
    #[test]
    fn level_two_agrees_with_a_plain_loop() {
        let p = grid(TOP1465_2);
        assert_eq!(depth(&p, 2), plain_depth(&p, 2), "{p}");
    }

    /// Levels up to 1 against the plain loop on public sets: top95 and
    /// the first 300 of top1465 (about a minute).
    #[test]
    #[ignore = "reads ../shared/data; cargo test --release -p batchdoku-core -- --ignored te_agrees"]
    fn te_agrees_with_a_plain_loop_on_public_sets() {
        let mut solver = Solver::new();
        let puzzles = crate::testdata::shared_hard_sample();
        let mut seen = [0usize; 3];
        for p in &puzzles {
            let solution = solver.solve_first(p).unwrap().solution.unwrap();
            let fast = te_depth(&Board::load(p).unwrap(), &solution, 1);
            assert_eq!(fast, plain_depth(p, 1), "{p}");
            seen[usize::from(fast)] += 1;
        }
        eprintln!(
            "te agrees with the plain loop on {} puzzles (depth 0/1/more: {seen:?})",
            puzzles.len()
        );
    }

    /// The same on more puzzles: the first of the forum's hardest list
    /// (depth 2) and #169 (depth 1).
    #[test]
    #[ignore = "slow: the plain level 2 on hard puzzles; cargo test --release -p batchdoku-core -- --ignored te"]
    fn te_level_two_agrees_with_a_plain_loop_on_more_puzzles() {
        for p in [grid(PLATINUM), grid(TOP1465_169), grid(HARD)] {
            assert_eq!(depth(&p, 2), plain_depth(&p, 2), "{p}");
        }
    }
}
