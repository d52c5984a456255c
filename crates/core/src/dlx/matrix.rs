//! The sparse exact-cover matrix of 9x9 Sudoku as index-linked circular
//! lists, with Knuth's `cover` / `uncover` operations.
//!
//! Layout (all links are `u16` indices, no pointers):
//! - index 0 is the root; 1..=324 are the column headers. Column
//!   `1 + cell` says "cell filled", `82 + row*9 + d` "digit d+1 in the
//!   row", `163 + col*9 + d` "in the column", `244 + box*9 + d` "in the
//!   box". Indices 325..328 are padding so that row nodes start on a
//!   multiple of four.
//! - matrix row `r = cell*9 + d` (cell holds digit `d+1`) owns the four
//!   nodes `ROW_BASE + 4r .. ROW_BASE + 4r + 4`, in the column order cell,
//!   row, column, box. Because every row has exactly four nodes stored side
//!   by side, left/right links of row nodes are never stored: the next node
//!   to the right is computed from the index.
//! - each column is a circular up/down list through its header.
//!
//! Knuth keeps the uncovered column headers in a left/right ring and walks
//! it to find the smallest column. Here that ring is replaced by a flag bit
//! in each column's size byte (set while the column is covered): choosing
//! the column is then a blockwise minimum over a flat array of 352 bytes,
//! which the compiler vectorises, instead of a pointer chase through up to
//! 324 headers (see [`Links::smallest_column`] for the exact rule).
//!
//! Arrays are sized to powers of two and indexed through a mask, so the hot
//! loops carry no bounds checks and no `unsafe`. [`Links`] is the mutable
//! part (up/down links and sizes); it is `Copy`, so a pristine instance
//! built once can be copied back to reset the matrix between puzzles
//! without touching the heap.

use crate::grid::{BOX_OF, CELLS, COL_OF, ROW_OF};

/// Number of constraint columns (4 x 81).
pub(crate) const COLUMNS: usize = 324;
/// Number of candidate rows (81 cells x 9 digits).
pub(crate) const ROWS: usize = CELLS * 9;
/// First row node (a multiple of 4, after the root and the headers).
pub(crate) const ROW_BASE: usize = (COLUMNS + 1).next_multiple_of(4);
/// Total number of nodes in use (root, headers, padding, row nodes).
pub(crate) const NODES: usize = ROW_BASE + ROWS * 4;
/// Slots in the node arrays: a power of two, so a masked index is always
/// in bounds.
const NODE_SLOTS: usize = NODES.next_power_of_two();
/// Slots in the size array (a power of two, for masked indexing).
const SIZE_SLOTS: usize = (COLUMNS + 1).next_power_of_two();
/// Columns per block of the smallest-column scan.
const BLOCK: usize = 32;
/// The prefix of the size array scanned for the smallest column: every
/// column, rounded up to whole blocks.
const SCAN: usize = (COLUMNS + 1).next_multiple_of(BLOCK);
/// Flag bit in a size byte: the column is covered (or is not a column).
const COVERED: u8 = 0x80;

/// A node index as an array index (masked: always in bounds).
#[inline(always)]
const fn ix(node: u16) -> usize {
    node as usize & (NODE_SLOTS - 1)
}

/// A column index as a size-array index (masked: always in bounds).
#[inline(always)]
const fn sx(column: u16) -> usize {
    column as usize & (SIZE_SLOTS - 1)
}

/// The matrix row of `cell` holding digit `digit` (1..=9).
#[inline(always)]
pub(crate) const fn matrix_row(cell: usize, digit: u8) -> usize {
    cell * 9 + digit as usize - 1
}

/// The first node of matrix row `row`.
#[inline(always)]
pub(crate) const fn first_node(row: usize) -> u16 {
    (ROW_BASE + row * 4) as u16
}

/// The `(cell, digit)` a row node stands for.
#[inline(always)]
pub(crate) const fn cell_digit_of(node: u16) -> (usize, u8) {
    let row = (node as usize).saturating_sub(ROW_BASE) / 4;
    (row / 9 % CELLS, (row % 9) as u8 + 1)
}

/// The node `k` places to the right of `node` within its matrix row
/// (cyclic; `k` in 1..4).
#[inline(always)]
const fn nth_right(node: u16, k: u16) -> u16 {
    (node & !3) | (node.wrapping_add(k) & 3)
}

/// The four columns of the row for `cell` holding digit `d + 1`.
const fn row_columns(cell: usize, d: usize) -> [u16; 4] {
    let r = ROW_OF[cell] as usize;
    let c = COL_OF[cell] as usize;
    let b = BOX_OF[cell] as usize;
    [
        (1 + cell) as u16,
        (1 + 81 + r * 9 + d) as u16,
        (1 + 162 + c * 9 + d) as u16,
        (1 + 243 + b * 9 + d) as u16,
    ]
}

/// The column header of every node (headers map to themselves); never
/// changes, so it is shared by all solvers.
static COLUMN_OF: [u16; NODE_SLOTS] = build_column_of();

/// The column of `node`.
#[inline(always)]
pub(crate) fn column_of(node: u16) -> u16 {
    COLUMN_OF[ix(node)]
}

const fn build_column_of() -> [u16; NODE_SLOTS] {
    let mut t = [0u16; NODE_SLOTS];
    let mut h = 0;
    while h < ROW_BASE {
        t[h] = h as u16;
        h += 1;
    }
    let mut row = 0;
    while row < ROWS {
        let cols = row_columns(row / 9, row % 9);
        let mut k = 0;
        while k < 4 {
            t[ROW_BASE + row * 4 + k] = cols[k];
            k += 1;
        }
        row += 1;
    }
    t
}

/// What the smallest-column scan found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Every column is covered: the selected rows are a solution.
    Complete,
    /// The first column with the fewest rows, and that number of rows.
    Column(u16, u8),
}

/// The links that change during the search, plus the column sizes.
#[derive(Clone, Copy)]
pub(crate) struct Links {
    up: [u16; NODE_SLOTS],
    down: [u16; NODE_SLOTS],
    /// Rows left in each column, with [`COVERED`] set while the column is
    /// covered (and always for the root and padding).
    size: [u8; SIZE_SLOTS],
}

impl Links {
    /// The full matrix: every column uncovered, every row linked into its
    /// four columns in increasing row order.
    pub(crate) fn full() -> Links {
        let mut l = Links {
            up: [0; NODE_SLOTS],
            down: [0; NODE_SLOTS],
            size: [COVERED | 0x7F; SIZE_SLOTS],
        };
        for h in 1..=COLUMNS {
            l.up[h] = h as u16;
            l.down[h] = h as u16;
            l.size[h] = 0;
        }
        for row in 0..ROWS {
            let first = first_node(row);
            for k in 0..4u16 {
                let n = first + k;
                let c = column_of(n);
                let last = l.up[ix(c)];
                l.up[ix(n)] = last;
                l.down[ix(n)] = c;
                l.down[ix(last)] = n;
                l.up[ix(c)] = n;
                l.size[sx(c)] += 1;
            }
        }
        l
    }

    /// Copies `other` into `self` (only the slots in use).
    #[inline]
    pub(crate) fn reset_from(&mut self, other: &Links) {
        self.up[..NODES].copy_from_slice(&other.up[..NODES]);
        self.down[..NODES].copy_from_slice(&other.down[..NODES]);
        self.size[..SCAN].copy_from_slice(&other.size[..SCAN]);
    }

    /// The first node below `node` in its column (the header when none).
    #[inline(always)]
    pub(crate) fn down(&self, node: u16) -> u16 {
        self.down[ix(node)]
    }

    /// The column to branch on, or [`Choice::Complete`] when every column
    /// is covered.
    ///
    /// Sizes are scanned in blocks of [`BLOCK`] columns (each block's
    /// minimum is a vectorised reduction); the scan stops after the first
    /// block holding a column with 0 or 1 rows, and the choice is the first
    /// column of minimal size among the blocks scanned. So a column with
    /// 0 or 1 rows is always taken when one exists, else the first smallest.
    #[inline]
    pub(crate) fn smallest_column(&self) -> Choice {
        let mut best = u8::MAX;
        let mut best_block = 0;
        for (k, block) in self.size[..SCAN].chunks_exact(BLOCK).enumerate() {
            let m = block.iter().fold(u8::MAX, |m, &s| m.min(s));
            if m < best {
                best = m;
                best_block = k;
                if m <= 1 {
                    break;
                }
            }
        }
        if best & COVERED != 0 {
            return Choice::Complete;
        }
        let start = best_block * BLOCK;
        let offset = self.size[start..start + BLOCK]
            .iter()
            .position(|&s| s == best)
            .unwrap_or(0);
        Choice::Column((start + offset) as u16, best)
    }

    /// Removes column `c` from the choices and every row that meets it from
    /// the other columns.
    #[inline]
    pub(crate) fn cover(&mut self, c: u16) {
        self.size[sx(c)] |= COVERED;
        let mut i = self.down[ix(c)];
        while i != c {
            for k in 1..4 {
                let j = nth_right(i, k);
                let (u, d) = (self.up[ix(j)], self.down[ix(j)]);
                self.down[ix(u)] = d;
                self.up[ix(d)] = u;
                self.size[sx(column_of(j))] -= 1;
            }
            i = self.down[ix(i)];
        }
    }

    /// Exactly undoes [`cover`](Links::cover) of `c` (in reverse order).
    #[inline]
    pub(crate) fn uncover(&mut self, c: u16) {
        let mut i = self.up[ix(c)];
        while i != c {
            for k in (1..4).rev() {
                let j = nth_right(i, k);
                self.size[sx(column_of(j))] += 1;
                let (u, d) = (self.up[ix(j)], self.down[ix(j)]);
                self.down[ix(u)] = j;
                self.up[ix(d)] = j;
            }
            i = self.up[ix(i)];
        }
        self.size[sx(c)] &= !COVERED;
    }

    /// Takes row node `node` into the partial solution: covers the columns
    /// of the other nodes of its row (its own column is already covered).
    #[inline]
    pub(crate) fn select_rest(&mut self, node: u16) {
        for k in 1..4 {
            self.cover(column_of(nth_right(node, k)));
        }
    }

    /// Exactly undoes [`select_rest`](Links::select_rest).
    #[inline]
    pub(crate) fn deselect_rest(&mut self, node: u16) {
        for k in (1..4).rev() {
            self.uncover(column_of(nth_right(node, k)));
        }
    }

    /// Takes a given's row: covers all four of its columns. The caller
    /// guarantees the columns are still uncovered (non-conflicting givens).
    pub(crate) fn select_given(&mut self, cell: usize, digit: u8) {
        let node = first_node(matrix_row(cell, digit));
        self.cover(column_of(node));
        self.select_rest(node);
    }

    /// The number of rows left in column `c`, and whether it is covered.
    #[cfg(test)]
    pub(crate) fn size(&self, c: u16) -> (u8, bool) {
        let s = self.size[sx(c)];
        (s & !COVERED, s & COVERED != 0)
    }

    /// True when `self` and `other` hold the same links and sizes.
    #[cfg(test)]
    pub(crate) fn same_as(&self, other: &Links) -> bool {
        self.up == other.up && self.down == other.down && self.size == other.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_matrix_has_nine_rows_per_column() {
        let l = Links::full();
        for c in 1..=COLUMNS as u16 {
            assert_eq!(l.size(c), (9, false));
            let mut n = l.down(c);
            let mut seen = 0;
            while n != c {
                assert_eq!(column_of(n), c);
                seen += 1;
                n = l.down(n);
            }
            assert_eq!(seen, 9);
        }
        assert!(l.size(0).1, "the root is never a choice");
        assert_eq!(l.smallest_column(), Choice::Column(1, 9));
    }

    #[test]
    fn rows_have_four_distinct_column_kinds() {
        for row in 0..ROWS {
            let first = first_node(row);
            let cols: Vec<u16> = (0..4).map(|k| column_of(first + k)).collect();
            assert!(cols[0] >= 1 && cols[0] <= 81);
            assert!(cols[1] >= 82 && cols[1] <= 162);
            assert!(cols[2] >= 163 && cols[2] <= 243);
            assert!(cols[3] >= 244 && cols[3] <= 324);
            assert_eq!(nth_right(first + 3, 1), first);
            assert_eq!(nth_right(first, 3), first + 3);
            assert_eq!(nth_right(first + 2, 3), first + 1);
            let (cell, digit) = cell_digit_of(first + 2);
            assert_eq!(matrix_row(cell, digit), row);
        }
    }

    #[test]
    fn cover_then_uncover_restores_everything() {
        let pristine = Links::full();
        let mut l = pristine;
        let order = [5u16, 100, 200, 300, 1, 324];
        for &c in &order {
            l.cover(c);
        }
        assert!(!l.same_as(&pristine));
        for &c in order.iter().rev() {
            l.uncover(c);
        }
        assert!(l.same_as(&pristine));
    }

    #[test]
    fn selecting_a_given_shrinks_peer_columns() {
        let mut l = Links::full();
        l.select_given(0, 5);
        // Cell 1 can no longer hold 5: its cell column lost one row.
        assert_eq!(l.size(2), (8, false));
        // Cell 40 (not a peer of cell 0) keeps all nine digits.
        assert_eq!(l.size(41), (9, false));
        // "5 in row 0" and "cell 0 filled" are covered.
        assert!(l.size(82 + 4).1);
        assert!(l.size(1).1);
        // "5 in row 1" lost the three cells of row 1 in box 0: 6 rows, the
        // first smallest column ("5 in row 2" and the columns also have 6).
        assert_eq!(l.smallest_column(), Choice::Column(82 + 9 + 4, 6));
        let mut fresh = Links::full();
        fresh.cover(1);
        fresh.reset_from(&Links::full());
        assert!(fresh.same_as(&Links::full()));
    }

    #[test]
    fn covering_everything_is_complete() {
        let mut l = Links::full();
        for c in 1..=COLUMNS as u16 {
            l.cover(c);
        }
        assert_eq!(l.smallest_column(), Choice::Complete);
    }
}
