//! Sudoku Explainer's views of the grid that decide which step its rater
//! takes first: the order in which its techniques visit regions, a cell's
//! position inside a region, and the order of a cell's house cells.
//!
//! Our units are rows 0..9, columns 9..18 and boxes 18..27 (see
//! [`UNIT_SETS`]); SE numbers boxes the same way (row-major) and lists a
//! region's cells in increasing cell order, so position `i` of a unit is
//! its `i`-th cell.

use super::bits::indices;
use super::cands::Cands;
use super::cells::{CellSet, CELL_UNITS, UNIT_SETS};
use batchdoku_core::internal::{CELLS, UNITS};

/// The rows, as unit indices.
pub(crate) const ROWS: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
/// The columns, as unit indices.
pub(crate) const COLUMNS: [usize; 9] = [9, 10, 11, 12, 13, 14, 15, 16, 17];
/// The boxes (SE's blocks), as unit indices.
pub(crate) const BOXES: [usize; 9] = [18, 19, 20, 21, 22, 23, 24, 25, 26];

/// Boxes, then columns, then rows: the order of SE's singles and subsets.
pub(crate) const BOXES_COLUMNS_ROWS: [usize; 27] = concat3(BOXES, COLUMNS, ROWS);

/// Whether unit `unit` is a box.
#[inline(always)]
pub(crate) const fn is_box(unit: usize) -> bool {
    unit >= 18
}

/// The cell at position `index` (0..9) of unit `unit`.
#[inline(always)]
pub(crate) fn unit_cell(unit: usize, index: usize) -> usize {
    usize::from(UNITS[unit][index])
}

/// The positions (bit `i` for the unit's `i`-th cell) of the cells of
/// `unit` that are in `cells`.
#[inline]
pub(crate) fn positions_of(unit: usize, cells: CellSet) -> u16 {
    let mut mask = 0u16;
    for cell in cells.and(UNIT_SETS[unit]).iter() {
        mask |= 1 << UNIT_INDEX[cell][unit_kind(unit)];
    }
    mask
}

/// The positions in `unit` where `digit` is still a candidate.
#[inline]
pub(crate) fn positions(cands: &Cands, unit: usize, digit: u8) -> u16 {
    positions_of(unit, cands.digit_cells(digit))
}

/// Every unit's positions of every digit: `[unit][digit - 1]`, as
/// [`positions`] gives them, built in one pass over the candidates (the
/// last grid's table is kept per thread: the rating loop's techniques ask
/// for it several times per grid).
pub(crate) fn all_positions(cands: &Cands) -> [[u16; 9]; 27] {
    LAST_POSITIONS.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((grid, table)) = last.as_ref() {
            if grid == cands {
                return *table;
            }
        }
        let table = build_positions(cands);
        *last = Some((*cands, table));
        table
    })
}

thread_local! {
    /// The last grid given to [`all_positions`] and its table.
    static LAST_POSITIONS: std::cell::RefCell<Option<(Cands, [[u16; 9]; 27])>> =
        const { std::cell::RefCell::new(None) };
}

/// [`all_positions`] worked out.
fn build_positions(cands: &Cands) -> [[u16; 9]; 27] {
    let mut table = [[0u16; 9]; 27];
    for cell in cands.empty().iter() {
        // The cell's row, column and box, and its position in each.
        let units = CELL_UNITS[cell].map(usize::from);
        let bits = UNIT_INDEX[cell].map(|i| 1u16 << i);
        for d in indices(cands.candidates(cell)) {
            for k in 0..3 {
                table[units[k]][d] |= bits[k];
            }
        }
    }
    table
}

/// The cells of `unit` at the positions in `mask`.
#[inline]
pub(crate) fn cells_at(unit: usize, mask: u16) -> CellSet {
    let mut set = CellSet::EMPTY;
    for i in indices(mask) {
        set.insert(unit_cell(unit, i));
    }
    set
}

/// The number of empty cells of `unit`.
#[inline(always)]
pub(crate) fn empty_count(cands: &Cands, unit: usize) -> u32 {
    cands.empty().and(UNIT_SETS[unit]).len()
}

/// 0 for a row, 1 for a column, 2 for a box.
#[inline(always)]
const fn unit_kind(unit: usize) -> usize {
    unit / 9
}

/// Each cell's position in its row, its column and its box.
static UNIT_INDEX: [[u8; 3]; CELLS] = build_unit_index();

/// The 20 house cells of each cell in SE's order (`Cell.getHouseCells`):
/// its box's cells, then the rest of its row, then the rest of its column,
/// each in increasing cell order.
pub(crate) static HOUSE_ORDER: [[u8; 20]; CELLS] = build_house_order();

/// Each cell's peers' positions in its [`HOUSE_ORDER`] (`u8::MAX` for a
/// cell that is not a peer): to visit a few peers in that order without
/// going through all 20.
pub(crate) static HOUSE_RANK: [[u8; CELLS]; CELLS] = build_house_rank();

const fn build_house_rank() -> [[u8; CELLS]; CELLS] {
    let order = build_house_order();
    let mut t = [[u8::MAX; CELLS]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut k = 0;
        while k < 20 {
            t[c][order[c][k] as usize] = k as u8;
            k += 1;
        }
        c += 1;
    }
    t
}

const fn concat3(a: [usize; 9], b: [usize; 9], c: [usize; 9]) -> [usize; 27] {
    let mut out = [0; 27];
    let mut i = 0;
    while i < 9 {
        out[i] = a[i];
        out[9 + i] = b[i];
        out[18 + i] = c[i];
        i += 1;
    }
    out
}

const fn build_unit_index() -> [[u8; 3]; CELLS] {
    let mut t = [[0u8; 3]; CELLS];
    let mut u = 0;
    while u < 27 {
        let mut i = 0;
        while i < 9 {
            t[UNITS[u][i] as usize][u / 9] = i as u8;
            i += 1;
        }
        u += 1;
    }
    t
}

const fn build_house_order() -> [[u8; 20]; CELLS] {
    let mut t = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let units = [
            18 + (cell / 27) * 3 + (cell % 9) / 3,
            cell / 9,
            9 + cell % 9,
        ];
        let mut seen = 1u128 << cell;
        let mut n = 0;
        let mut k = 0;
        while k < 3 {
            let mut i = 0;
            while i < 9 {
                let other = UNITS[units[k]][i] as usize;
                if seen >> other & 1 == 0 {
                    seen |= 1u128 << other;
                    t[cell][n] = other as u8;
                    n += 1;
                }
                i += 1;
            }
            k += 1;
        }
        cell += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::PEER_SETS;

    #[test]
    fn house_order_lists_every_peer_once_box_first() {
        for cell in 0..CELLS {
            let set = HOUSE_ORDER[cell].iter().fold(CellSet::EMPTY, |s, &c| {
                s.or(CellSet::single(usize::from(c)))
            });
            assert_eq!(set, PEER_SETS[cell]);
        }
        // Cell r1c1 (0): box cells 1, 2, 9, 10, 11, 18, 19, 20 come first.
        assert_eq!(&HOUSE_ORDER[0][..8], &[1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(HOUSE_ORDER[0][8], 3);
        assert_eq!(HOUSE_ORDER[0][14], 27);
        for cell in 0..CELLS {
            for (k, &peer) in HOUSE_ORDER[cell].iter().enumerate() {
                assert_eq!(usize::from(HOUSE_RANK[cell][usize::from(peer)]), k);
            }
            let ranked = HOUSE_RANK[cell].iter().filter(|&&r| r != u8::MAX).count();
            assert_eq!(ranked, 20);
        }
    }

    #[test]
    fn all_positions_are_each_units_positions() {
        let mut cands = Cands::new(&batchdoku_core::parse_line(&[b'.'; 81]).unwrap());
        for (cell, digit) in [(0, 1), (10, 1), (40, 5), (80, 9), (44, 5), (8, 2)] {
            cands.eliminate(cell, digit);
        }
        cands.place(30, 7);
        let table = all_positions(&cands);
        for (unit, row) in table.iter().enumerate() {
            for (d, &mask) in row.iter().enumerate() {
                assert_eq!(mask, positions(&cands, unit, d as u8 + 1));
            }
        }
    }

    #[test]
    fn positions_and_cells_at_are_inverse() {
        for (unit, cells) in UNITS.iter().enumerate() {
            for mask in [0u16, 1, 0x155, 0x1FF, 0x100] {
                assert_eq!(positions_of(unit, cells_at(unit, mask)), mask);
            }
            assert_eq!(unit_cell(unit, 4), usize::from(cells[4]));
        }
        assert_eq!(cells_at(20, 0b1000), CellSet::single(15));
    }
}
