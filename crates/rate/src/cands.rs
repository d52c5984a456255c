//! The rater's grid: the placed values and what each empty cell may still
//! hold, kept both per cell and per digit so that every technique reads
//! the view it needs without recomputing it.
//!
//! Candidates start as Sudoku Explainer starts them: every digit that no
//! placed peer holds (no singles or other rule applied yet).

use super::bits::indices;
use super::cells::{CellSet, PEER_SETS, UNIT_SETS};
use batchdoku_core::internal::CELLS;
use batchdoku_core::Grid;

/// Placed values and candidates. Copy it to try something and throw the
/// copy away (the chains do): it is a few hundred bytes, no heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cands {
    /// The digit in each cell, 0 while empty.
    values: [u8; CELLS],
    /// Each empty cell's candidates, bit `d - 1` for digit `d`; 0 once
    /// filled.
    cells: [u16; CELLS],
    /// For digit `d` (index `d - 1`), the empty cells that may hold it.
    digits: [CellSet; 9],
    /// The empty cells.
    empty: CellSet,
}

impl Cands {
    /// The grid of `puzzle`'s givens with every candidate that no given
    /// rules out. Givens that clash are the caller's concern (check them
    /// first: the rater is only asked about puzzles with one solution).
    pub(crate) fn new(puzzle: &Grid) -> Cands {
        let mut cands = Cands {
            values: [0; CELLS],
            cells: [0x1FF; CELLS],
            digits: [CellSet::ALL; 9],
            empty: CellSet::ALL,
        };
        for cell in 0..CELLS {
            let digit = puzzle.get(cell);
            if digit != 0 {
                cands.place(cell, digit);
            }
        }
        cands
    }

    /// The digit in `cell`, 0 while empty.
    #[inline(always)]
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell`, bit `d - 1` for digit `d` (0 once filled).
    #[inline(always)]
    pub(crate) fn candidates(&self, cell: usize) -> u16 {
        self.cells[cell]
    }

    /// Whether `digit` (1..=9) is a candidate of `cell`.
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn has(&self, cell: usize, digit: u8) -> bool {
        self.cells[cell] >> (digit - 1) & 1 != 0
    }

    /// The empty cells that may hold `digit` (1..=9).
    #[inline(always)]
    pub(crate) fn digit_cells(&self, digit: u8) -> CellSet {
        self.digits[usize::from(digit - 1)]
    }

    /// The cells of unit `unit` (see [`UNIT_SETS`]) that may hold `digit`.
    #[inline(always)]
    pub(crate) fn places(&self, unit: usize, digit: u8) -> CellSet {
        self.digit_cells(digit).and(UNIT_SETS[unit])
    }

    /// The empty cells.
    #[inline(always)]
    pub(crate) fn empty(&self) -> CellSet {
        self.empty
    }

    /// Whether every cell is filled.
    #[inline(always)]
    pub(crate) fn is_solved(&self) -> bool {
        self.empty.is_empty()
    }

    /// Places `digit` in `cell`: the cell loses its candidates and its
    /// peers lose `digit`.
    pub(crate) fn place(&mut self, cell: usize, digit: u8) {
        let d = usize::from(digit - 1);
        self.values[cell] = digit;
        for other in indices(self.cells[cell]) {
            self.digits[other].remove(cell);
        }
        self.cells[cell] = 0;
        self.empty.remove(cell);
        for peer in PEER_SETS[cell].and(self.digits[d]).iter() {
            self.cells[peer] &= !(1 << d);
        }
        self.digits[d] = self.digits[d].minus(PEER_SETS[cell]);
    }

    /// Removes `digit` from the candidates of `cell`; whether it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u16 << (digit - 1);
        if self.cells[cell] & bit == 0 {
            return false;
        }
        self.cells[cell] &= !bit;
        self.digits[usize::from(digit - 1)].remove(cell);
        true
    }

    /// Leaves `cell` only the candidates among `digits` (tests build
    /// states by hand with it).
    #[cfg(test)]
    pub(crate) fn keep_only(&mut self, cell: usize, digits: &[u8]) {
        for d in 1..=9 {
            if !digits.contains(&d) {
                self.eliminate(cell, d);
            }
        }
    }

    /// The placed values as a grid.
    #[cfg(test)]
    pub(crate) fn placed(&self) -> Grid {
        Grid::from_cells(self.values).expect("values are digits")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use batchdoku_core::parse_line;

    #[test]
    fn views_agree_after_placements_and_eliminations() {
        let puzzle = parse_line(
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        )
        .unwrap();
        let mut c = Cands::new(&puzzle);
        c.place(0, 4);
        assert!(c.eliminate(1, 5));
        assert!(!c.eliminate(1, 5));
        for (cell, peers) in PEER_SETS.iter().enumerate() {
            for digit in 1..=9u8 {
                assert_eq!(c.has(cell, digit), c.digit_cells(digit).contains(cell));
                if c.has(cell, digit) {
                    let seen = peers.iter().any(|p| c.value(p) == digit);
                    assert!(!seen, "cell {cell} keeps {digit} though a peer holds it");
                }
            }
            assert_eq!(c.empty().contains(cell), c.value(cell) == 0);
        }
        assert_eq!(c.placed().get(0), 4);
    }
}
