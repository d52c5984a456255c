//! Naked and hidden singles: whether they alone solve a puzzle (the
//! easiest grade data-set makers use), and the propagation the analysis
//! measures are defined on (trial-and-error depth and singles backdoors,
//! `analyze`). Computed independently of the solver's own propagation,
//! which also uses locked candidates, so that its meaning stays fixed.
//!
//! A *naked single* is an empty cell with one candidate left; a *hidden
//! single* is a digit with one possible cell left in a row, column or
//! box. Placing a digit removes it from the candidates of the cell's 20
//! peers. Applying these rules until none applies either fills the grid,
//! meets a contradiction (a cell without candidates, a digit without a
//! place in a unit), or gets stuck. The rules only ever remove
//! candidates, so where they end does not depend on the order they are
//! applied in; no other technique and no guessing.
//!
//! [`Board`] applies them incrementally: it keeps, besides each cell's
//! candidates, how many cells of each unit still hold each digit, so a
//! placement or elimination costs the candidates it removes, not a scan
//! of the grid, and a copy of the board (about 570 bytes) is a cheap
//! hypothesis for the trial-and-error measures.
//!
//! ```text
//! cand[cell]      bits 1..=9: the digits still possible (0 once placed)
//! value[cell]     the digit placed, 0 while empty
//! count[unit][d]  cells of the unit with candidate d (0 once d is placed there)
//! placed[unit]    bits 1..=9: the digits placed in the unit
//! ```

use crate::grid::{Grid, BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, UNITS};

/// All nine digits as candidate bits 1..=9.
const ALL: u16 = 0b11_1111_1110;

/// Every deduction a propagation can queue: one naked single per cell,
/// one hidden single per unit and digit, and the caller's placements (the
/// givens, at most one per cell). Counts only go down, so each trigger
/// fires at most once in a board's life.
const QUEUE: usize = 2 * CELLS + 27 * 9;

/// The units of each cell, as indices into [`UNITS`]: its row (0..9),
/// column (9..18) and box (18..27).
const UNITS_OF: [[u8; 3]; CELLS] = units_of();

const fn units_of() -> [[u8; 3]; CELLS] {
    let mut t = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        t[cell] = [ROW_OF[cell], 9 + COL_OF[cell], 18 + BOX_OF[cell]];
        cell += 1;
    }
    t
}

/// A cell without candidates, a digit without a place in a unit, or a
/// placement where the digit is no longer possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// Deductions waiting to be placed: `(cell, digit)`, last in first out.
struct Queue {
    items: [(u8, u8); QUEUE],
    len: usize,
}

impl Queue {
    fn new() -> Queue {
        Queue {
            items: [(0, 0); QUEUE],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, cell: usize, digit: u8) {
        self.items[self.len] = (cell as u8, digit);
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(usize, u8)> {
        self.len = self.len.checked_sub(1)?;
        let (cell, digit) = self.items[self.len];
        Some((usize::from(cell), digit))
    }
}

/// A grid under singles propagation, always at its fixpoint between calls
/// (see the module docs for the layout). `Copy`, so a hypothesis is a
/// copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board {
    cand: [u16; CELLS],
    value: [u8; CELLS],
    count: [[u8; 10]; 27],
    placed: [u16; 27],
    /// Empty cells left.
    open: u8,
}

impl Board {
    /// The empty grid: every digit possible everywhere.
    const EMPTY: Board = Board {
        cand: [ALL; CELLS],
        value: [0; CELLS],
        count: [[0, 9, 9, 9, 9, 9, 9, 9, 9, 9]; 27],
        placed: [0; 27],
        open: CELLS as u8,
    };

    /// The givens of `puzzle` placed and singles applied to the end;
    /// `Err` when they meet a contradiction (clashing givens included).
    pub(crate) fn load(puzzle: &Grid) -> Result<Board, Contradiction> {
        let mut board = Board::EMPTY;
        let mut queue = Queue::new();
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d != 0 {
                queue.push(cell, d);
            }
        }
        board.run(&mut queue)?;
        Ok(board)
    }

    /// Places `digit` in `cell` and applies singles to the end.
    pub(crate) fn assume(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        let mut queue = Queue::new();
        queue.push(cell, digit);
        self.run(&mut queue)
    }

    /// Removes `digit` from the candidates of `cell` (nothing when it is
    /// not one) and applies singles to the end.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> Result<(), Contradiction> {
        if self.cand[cell] & 1 << digit == 0 {
            return Ok(());
        }
        let mut queue = Queue::new();
        self.remove(cell, digit, &mut queue)?;
        self.run(&mut queue)
    }

    /// True when every cell is filled.
    pub(crate) fn is_solved(&self) -> bool {
        self.open == 0
    }

    /// The candidates of `cell`, bit `d` for digit `d`; 0 once filled.
    pub(crate) fn candidates(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// The digit in `cell`, 0 while empty.
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// The filled cells as a grid.
    #[cfg(test)]
    pub(crate) fn to_grid(self) -> Grid {
        Grid::from_cells(self.value).unwrap_or_default()
    }

    /// Places every queued deduction and what follows from them.
    fn run(&mut self, queue: &mut Queue) -> Result<(), Contradiction> {
        while let Some((cell, digit)) = queue.pop() {
            self.place(cell, digit, queue)?;
        }
        Ok(())
    }

    /// Places `digit` in `cell`: the cell's other candidates and the
    /// digit's candidates among the peers go.
    fn place(&mut self, cell: usize, digit: u8, queue: &mut Queue) -> Result<(), Contradiction> {
        if self.value[cell] == digit {
            return Ok(()); // queued twice (a naked and a hidden single)
        }
        let bit = 1u16 << digit;
        let cand = self.cand[cell];
        if cand & bit == 0 {
            return Err(Contradiction);
        }
        self.value[cell] = digit;
        self.cand[cell] = 0;
        self.open -= 1;
        let units = UNITS_OF[cell];
        for &u in &units {
            self.placed[usize::from(u)] |= bit;
            self.count[usize::from(u)][usize::from(digit)] = 0;
        }
        let mut others = cand & !bit;
        while others != 0 {
            let other = others.trailing_zeros() as u8;
            others &= others - 1;
            for &u in &units {
                self.drop_count(usize::from(u), other, queue)?;
            }
        }
        for &peer in &PEERS[cell] {
            let peer = usize::from(peer);
            if self.cand[peer] & bit != 0 {
                self.remove(peer, digit, queue)?;
            }
        }
        Ok(())
    }

    /// Removes candidate `digit` (present) from the empty `cell`.
    fn remove(&mut self, cell: usize, digit: u8, queue: &mut Queue) -> Result<(), Contradiction> {
        let cand = self.cand[cell] & !(1u16 << digit);
        self.cand[cell] = cand;
        if cand == 0 {
            return Err(Contradiction);
        }
        if cand & (cand - 1) == 0 {
            queue.push(cell, cand.trailing_zeros() as u8); // a naked single
        }
        for &u in &UNITS_OF[cell] {
            self.drop_count(usize::from(u), digit, queue)?;
        }
        Ok(())
    }

    /// One cell of `unit` fewer holds candidate `digit`.
    fn drop_count(
        &mut self,
        unit: usize,
        digit: u8,
        queue: &mut Queue,
    ) -> Result<(), Contradiction> {
        let bit = 1u16 << digit;
        if self.placed[unit] & bit != 0 {
            return Ok(());
        }
        let left = self.count[unit][usize::from(digit)] - 1;
        self.count[unit][usize::from(digit)] = left;
        match left {
            0 => Err(Contradiction),
            1 => {
                // A hidden single: the one cell left (counts are exact).
                if let Some(&cell) = UNITS[unit]
                    .iter()
                    .find(|&&c| self.cand[usize::from(c)] & bit != 0)
                {
                    queue.push(usize::from(cell), digit);
                }
                Ok(())
            }
            _ => Ok(()),
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
    Board::load(puzzle).is_ok_and(|b| b.is_solved())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::solver::Solver;
    use crate::testdata::corpus::mixed_corpus;
    use crate::testdata::{grid, plain_singles, EASY, HARD, SOLVED};

    /// The grid singles reach, `None` on a contradiction.
    fn fill(puzzle: &Grid) -> Option<Grid> {
        Board::load(puzzle).ok().map(|b| b.to_grid())
    }

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
        assert_eq!(fill(&h), Some(grid(SOLVED)));
    }

    /// The incremental board reaches the same grid, or the same
    /// contradiction, as a plain loop over the rules (`plain_singles`, in
    /// the test data), and so do its assumptions and eliminations.
    #[test]
    fn the_board_agrees_with_a_plain_loop_of_the_rules() {
        let mut solver = Solver::new();
        for (i, p) in mixed_corpus(3, 200).iter().enumerate() {
            assert_eq!(fill(p), plain_singles(p), "puzzle {i}: {p}");
            let Ok(board) = Board::load(p) else { continue };
            let Ok(first) = solver.solve_first(p) else {
                continue;
            };
            let Some(solution) = first.solution else {
                continue;
            };
            // One assumption on every third open cell: its solution's
            // digit, then another candidate.
            for cell in (0..CELLS).filter(|&c| board.value(c) == 0).step_by(3) {
                for digit in 1..=9u8 {
                    if board.candidates(cell) & 1 << digit == 0 {
                        continue;
                    }
                    let mut assumed = board;
                    let mut by_hand = board.to_grid();
                    by_hand.set(cell, digit);
                    let got = assumed.assume(cell, digit).ok().map(|()| assumed.to_grid());
                    assert_eq!(got, plain_singles(&by_hand), "puzzle {i}, {cell}={digit}");
                    if digit == solution.get(cell) {
                        assert!(got.is_some(), "the solution's digit never contradicts");
                    }
                }
            }
        }
    }

    #[test]
    fn eliminating_the_other_candidates_places_the_last() {
        let p = grid(HARD);
        let board = Board::load(&p).unwrap();
        let solution = Solver::new().solve_first(&p).unwrap().solution.unwrap();
        let cell = (0..CELLS).find(|&c| board.value(c) == 0).unwrap();
        let mut b = board;
        let cand = b.candidates(cell);
        for digit in 1..=9u8 {
            if cand & 1 << digit != 0 && digit != solution.get(cell) {
                b.eliminate(cell, digit).unwrap();
            }
        }
        assert_eq!(b.value(cell), solution.get(cell));
        // Removing a digit that is not a candidate changes nothing;
        // assuming one is a contradiction.
        let outside = (1..=9u8).find(|&d| cand & 1 << d == 0).unwrap();
        let mut c = board;
        c.eliminate(cell, outside).unwrap();
        assert_eq!(c.candidates(cell), cand);
        assert_eq!(c.assume(cell, outside), Err(Contradiction));
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
                assert_eq!(fill(&p), None, "clashing givens");
                continue;
            };
            let filled = fill(&p);
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
