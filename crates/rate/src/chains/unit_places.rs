//! The places of each digit in each unit as 9-bit masks (bit `i` for
//! the unit's `i`-th cell, in increasing cell order), for the
//! propagations: a single in a unit is then a table look-up on a small
//! mask instead of an 81-bit intersection and population test.

use crate::cands::Cands;
use crate::cells::{CellSet, CELL_UNITS};
use batchdoku_core::internal::{CELLS, UNITS};

/// For each digit (index `d - 1`) and unit (see
/// [`UNIT_SETS`](crate::cells::UNIT_SETS)), the
/// positions of the unit's cells that may hold the digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct UnitPlaces([[u16; 27]; 9]);

impl UnitPlaces {
    /// No place anywhere.
    pub(super) const EMPTY: UnitPlaces = UnitPlaces([[0; 27]; 9]);

    /// The places of `cands`.
    pub(super) fn of(cands: &Cands) -> UnitPlaces {
        let mut places = UnitPlaces::EMPTY;
        for d in 0..9u8 {
            for c in cands.digit_cells(d + 1).iter() {
                for (unit, pos) in BOX_ROW_COLUMN[c] {
                    places.0[usize::from(d)][usize::from(unit)] |= 1 << pos;
                }
            }
        }
        places
    }

    /// The places of digit index `d0` (0..9) in `unit`.
    #[inline(always)]
    pub(super) fn get(&self, d0: usize, unit: usize) -> u16 {
        self.0[d0][unit]
    }

    /// Removes `cell` from the places of digit index `d0`.
    #[inline(always)]
    pub(super) fn remove(&mut self, cell: usize, d0: usize) {
        for (unit, pos) in BOX_ROW_COLUMN[cell] {
            self.0[d0][usize::from(unit)] &= !(1 << pos);
        }
    }
}

/// The cell at position `pos` (0..9) of `unit`.
#[inline(always)]
pub(super) fn unit_cell(unit: usize, pos: u32) -> usize {
    usize::from(UNITS[unit][pos as usize])
}

/// Each cell's units in Sudoku Explainer's order (box, row, column),
/// with the cell's position in each.
pub(super) static BOX_ROW_COLUMN: [[(u8, u8); 3]; CELLS] = build_box_row_column();

/// Builds [`BOX_ROW_COLUMN`].
const fn build_box_row_column() -> [[(u8, u8); 3]; CELLS] {
    let mut t = [[(0u8, 0u8); 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let [row, column, bx] = CELL_UNITS[c];
        let units = [bx, row, column];
        let mut k = 0;
        while k < 3 {
            let u = units[k] as usize;
            let mut i = 0;
            while UNITS[u][i] as usize != c {
                i += 1;
            }
            t[c][k] = (units[k], i as u8);
            k += 1;
        }
        c += 1;
    }
    t
}

/// For each cell and each of its units in [`BOX_ROW_COLUMN`] order, the
/// positions of the unit that hold the cell itself or a cell of an
/// earlier unit of the three: the unit's peers met for the first time
/// are the others.
pub(super) static SEEN_BEFORE: [[u16; 3]; CELLS] = build_seen_before();

/// Builds [`SEEN_BEFORE`].
const fn build_seen_before() -> [[u16; 3]; CELLS] {
    let units = build_box_row_column();
    let mut t = [[0u16; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < 3 {
            let u = units[c][k].0 as usize;
            let mut i = 0;
            while i < 9 {
                let x = UNITS[u][i] as usize;
                let mut seen = x == c;
                let mut j = 0;
                while j < k {
                    let v = units[c][j].0 as usize;
                    let mut m = 0;
                    while m < 9 {
                        seen |= UNITS[v][m] as usize == x;
                        m += 1;
                    }
                    j += 1;
                }
                if seen {
                    t[c][k] |= 1 << i;
                }
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// For each cell and each of its units in [`BOX_ROW_COLUMN`] order, the
/// unit's cells outside [`SEEN_BEFORE`] as a cell set: the peers an "on"
/// potential of the cell reaches first through that unit.
pub(super) static NEW_PEERS: [[CellSet; 3]; CELLS] = build_new_peers();

/// Builds [`NEW_PEERS`].
const fn build_new_peers() -> [[CellSet; 3]; CELLS] {
    let units = build_box_row_column();
    let seen = build_seen_before();
    let mut t = [[CellSet::EMPTY; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < 3 {
            let u = units[c][k].0 as usize;
            let mut i = 0;
            while i < 9 {
                if seen[c][k] & 1 << i == 0 {
                    t[c][k] = CellSet(t[c][k].0 | 1 << UNITS[u][i]);
                }
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::UNIT_SETS;

    #[test]
    fn masks_agree_with_the_cell_sets() {
        let grid = batchdoku_core::parse_line(
            b"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        )
        .expect("a grid");
        let mut cands = Cands::new(&grid);
        let mut places = UnitPlaces::of(&cands);
        cands.eliminate(10, 2);
        places.remove(10, 1);
        for d in 0..9 {
            for (u, unit) in UNIT_SETS.iter().enumerate() {
                let mut set = CellSet::EMPTY;
                for i in crate::bits::indices(places.get(d, u)) {
                    set.insert(unit_cell(u, i as u32));
                }
                assert_eq!(set, cands.digit_cells(d as u8 + 1).and(*unit));
            }
        }
        for unit in &UNITS {
            assert!(unit.windows(2).all(|w| w[0] < w[1]), "increasing cells");
        }
        for c in 0..CELLS {
            let mut seen = CellSet::single(c);
            for (k, &(u, _)) in BOX_ROW_COLUMN[c].iter().enumerate() {
                let unit = UNIT_SETS[usize::from(u)];
                let mut mask = 0u16;
                for (i, &x) in UNITS[usize::from(u)].iter().enumerate() {
                    if seen.contains(usize::from(x)) {
                        mask |= 1 << i;
                    }
                }
                assert_eq!(SEEN_BEFORE[c][k], mask);
                assert_eq!(NEW_PEERS[c][k], unit.minus(seen));
                seen = seen.or(unit);
            }
        }
    }
}
