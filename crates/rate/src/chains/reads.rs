//! What a propagation read of its grid, so that its outcome can be kept
//! for a later grid: a propagation without simpler rules reads only the
//! candidates of the cells it expands (cell links) and the places of the
//! expanded digit in those cells' units; on a grid that agrees with the
//! old one there, it would make the same moves, find the same potentials
//! and spend the same work, so its outcome stands.

use crate::cands::Cands;
use crate::cells::{CellSet, CELL_UNITS};
use batchdoku_core::internal::CELLS;

/// Parts of a grid: cells (all their candidates) and, per digit (index
/// `d - 1`), units (the digit's places there), one bit per unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Reads {
    /// The cells.
    pub(super) cells: CellSet,
    /// Per digit, the units.
    pub(super) units: [u32; 9],
}

impl Reads {
    /// Nothing.
    pub(super) const NONE: Reads = Reads {
        cells: CellSet::EMPTY,
        units: [0; 9],
    };

    /// Adds the places of digit index `d0` in the units of `cell`, and
    /// the cell's candidates when `cell_too`.
    #[inline(always)]
    pub(super) fn read(&mut self, cell: usize, d0: usize, cell_too: bool) {
        if cell_too {
            self.cells.insert(cell);
        }
        self.units[d0] |= UNIT_BITS[cell];
    }

    /// The parts in which `old` and `new` differ.
    pub(super) fn changed(old: &Cands, new: &Cands) -> Reads {
        let mut changed = Reads::NONE;
        for c in 0..CELLS {
            if old.candidates(c) != new.candidates(c) {
                changed.cells.insert(c);
            }
        }
        for d in 0..9u8 {
            let moved = old.digit_cells(d + 1).0 ^ new.digit_cells(d + 1).0;
            for c in CellSet(moved).iter() {
                changed.units[usize::from(d)] |= UNIT_BITS[c];
            }
        }
        changed
    }

    /// Whether the two share no part.
    #[inline(always)]
    pub(super) fn disjoint(&self, other: &Reads) -> bool {
        let mut units = 0;
        for d in 0..9 {
            units |= self.units[d] & other.units[d];
        }
        units == 0 && self.cells.and(other.cells).is_empty()
    }
}

/// The units of each cell, one bit per unit (see
/// [`UNIT_SETS`](crate::cells::UNIT_SETS)).
static UNIT_BITS: [u32; CELLS] = build_unit_bits();

/// Builds [`UNIT_BITS`].
const fn build_unit_bits() -> [u32; CELLS] {
    let mut t = [0u32; CELLS];
    let mut c = 0;
    while c < CELLS {
        let [row, column, bx] = CELL_UNITS[c];
        t[c] = 1 << row | 1 << column | 1 << bx;
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_the_cells_and_units_that_differ() {
        let old = Cands::new(&batchdoku_core::Grid::empty());
        let mut new = old;
        new.eliminate(10, 3);
        let changed = Reads::changed(&old, &new);
        assert_eq!(changed.cells, CellSet::single(10));
        assert_eq!(changed.units[2], UNIT_BITS[10]);
        assert!(changed
            .units
            .iter()
            .enumerate()
            .all(|(d, &u)| d == 2 || u == 0));
        let mut reads = Reads::NONE;
        reads.read(11, 2, false);
        assert!(!reads.disjoint(&changed), "same row, same digit");
        let mut reads = Reads::NONE;
        reads.read(11, 4, false);
        assert!(reads.disjoint(&changed), "another digit");
        reads.read(10, 4, true);
        assert!(!reads.disjoint(&changed), "the cell itself");
    }
}
