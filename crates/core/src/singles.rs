//! Whether naked and hidden singles alone solve a puzzle, the easiest
//! grade data-set makers use, computed independently of the solver's own
//! propagation so that its meaning stays fixed.
//!
//! A *naked single* is an empty cell with one candidate left; a *hidden
//! single* is a digit with one possible cell left in a row, column or
//! box. Placing them until neither exists either fills the grid (the
//! puzzle is "solved by singles"), meets a contradiction, or gets stuck.
//! No other technique (locked candidates, pairs, ...) and no guessing.

use crate::grid::{Grid, CELLS, PEERS, UNITS};

/// All nine digits as candidate bits 1..=9.
const ALL: u16 = 0b11_1111_1110;

/// Candidates per cell (bits 1..=9), filled cells 0.
struct Board {
    grid: Grid,
    cand: [u16; CELLS],
}

/// Two givens or placements clash, or a cell / unit has no place left.
struct Contradiction;

impl Board {
    fn load(puzzle: &Grid) -> Result<Board, Contradiction> {
        let mut board = Board {
            grid: Grid::default(),
            cand: [ALL; CELLS],
        };
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d != 0 {
                board.place(cell, d)?;
            }
        }
        Ok(board)
    }

    fn place(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let bit = 1u16 << digit;
        if self.cand[cell] & bit == 0 {
            return Err(Contradiction);
        }
        self.grid.set(cell, digit);
        self.cand[cell] = 0;
        for &p in &PEERS[cell] {
            self.cand[p as usize] &= !bit;
        }
        Ok(())
    }

    /// Places every naked single; returns how many.
    fn naked_singles(&mut self) -> Result<usize, Contradiction> {
        let mut placed = 0;
        for cell in 0..CELLS {
            if self.grid.get(cell) != 0 {
                continue;
            }
            let c = self.cand[cell];
            if c == 0 {
                return Err(Contradiction);
            }
            if c.is_power_of_two() {
                self.place(cell, c.trailing_zeros() as u8)?;
                placed += 1;
            }
        }
        Ok(placed)
    }

    /// Places every hidden single; returns how many.
    fn hidden_singles(&mut self) -> Result<usize, Contradiction> {
        let mut placed = 0;
        for unit in &UNITS {
            let (mut once, mut twice, mut filled) = (0u16, 0u16, 0u16);
            for &c in unit {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
                filled |= (1u16 << self.grid.get(c as usize)) & ALL;
            }
            if (once | filled) != ALL {
                return Err(Contradiction); // a digit has no place
            }
            let mut single = once & !twice;
            while single != 0 {
                let digit = single.trailing_zeros() as u8;
                single &= single - 1;
                // An earlier placement in this pass may have taken it.
                if let Some(&c) = unit
                    .iter()
                    .find(|&&c| self.cand[c as usize] & (1 << digit) != 0)
                {
                    self.place(c as usize, digit)?;
                    placed += 1;
                }
            }
        }
        Ok(placed)
    }
}

/// The grid after placing naked and hidden singles until neither is left;
/// `None` when a contradiction shows (including clashing givens).
pub(crate) fn fill_singles(puzzle: &Grid) -> Option<Grid> {
    let mut board = Board::load(puzzle).ok()?;
    loop {
        let progress = board.naked_singles().ok()? + board.hidden_singles().ok()?;
        if progress == 0 {
            return Some(board.grid);
        }
    }
}

/// Whether naked and hidden singles alone solve `puzzle` (false for
/// contradictory or unsolvable puzzles).
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, solved_by_singles};
/// let easy = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let hard = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// assert!(solved_by_singles(&easy));
/// assert!(!solved_by_singles(&hard));
/// ```
pub fn solved_by_singles(puzzle: &Grid) -> bool {
    fill_singles(puzzle).is_some_and(|g| g.is_complete() && g.solves(puzzle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::solver::Solver;
    use crate::testdata::corpus::mixed_corpus;
    use crate::testdata::{grid, EASY, HARD, SOLVED};

    #[test]
    fn easy_and_complete_grids_fall_to_singles_hard_ones_do_not() {
        assert!(solved_by_singles(&grid(SOLVED)));
        assert!(solved_by_singles(&grid(EASY)));
        assert!(!solved_by_singles(&grid(HARD)));
        assert!(!solved_by_singles(&Grid::default()));
        let mut clash = Grid::default();
        clash.set(0, 3);
        clash.set(1, 3);
        assert!(!solved_by_singles(&clash));
    }

    #[test]
    fn one_blank_is_a_naked_single_and_a_lone_digit_a_hidden_one() {
        let mut g = grid(SOLVED);
        g.set(40, 0);
        assert!(solved_by_singles(&g));
        // Every 5 removed: each blank is the one place of 5 in its row.
        let mut h = grid(SOLVED);
        for cell in 0..CELLS {
            if h.get(cell) == 5 {
                h.set(cell, 0);
            }
        }
        assert_eq!(fill_singles(&h), Some(grid(SOLVED)));
    }

    /// Singles never place a wrong digit: on unique puzzles every filled
    /// cell agrees with the solution, and "solved by singles" agrees with
    /// the grid being complete. The proportion check makes sure the corpus
    /// exercises both answers.
    #[test]
    fn singles_agree_with_the_solver_on_a_mixed_corpus() {
        let mut solver = Solver::new();
        let (mut yes, mut no) = (0, 0);
        for p in mixed_corpus(5, 400) {
            let Ok(out) = solver.count_solutions_up_to(&p, 2) else {
                assert_eq!(fill_singles(&p), None, "clashing givens");
                continue;
            };
            let filled = fill_singles(&p);
            if out.solutions == 1 {
                let solution = out.solution.unwrap();
                let f = filled.expect("a unique puzzle has no contradiction");
                for cell in 0..CELLS {
                    assert!(f.get(cell) == 0 || f.get(cell) == solution.get(cell));
                }
                if solved_by_singles(&p) {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
            if out.solutions == 0 {
                assert!(!solved_by_singles(&p));
            }
        }
        assert!(yes > 10 && no > 10, "yes {yes}, no {no}");
    }
}
