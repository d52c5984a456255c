//! The sparse exact-cover matrix of 9x9 Sudoku as index-linked circular
//! lists, with Knuth's `cover` / `uncover` operations.
//!
//! Layout (all links are `u16` indices, no pointers):
//! - node 0 is the root; nodes 1..=324 are the column headers. Column
//!   `1 + cell` says "cell filled", `82 + row*9 + d` "digit d+1 in the
//!   row", `163 + col*9 + d` "in the column", `244 + box*9 + d` "in the
//!   box". Nodes 325..328 are padding so that row nodes start on a multiple
//!   of four.
//! - matrix row `r = cell*9 + d` (cell holds digit `d+1`) owns the four
//!   nodes `ROW_BASE + 4r .. ROW_BASE + 4r + 4`, in the column order cell,
//!   row, column, box. Because every row has exactly four nodes stored side
//!   by side, left/right links of row nodes are never stored: the next node
//!   to the right is computed (`right_in_row`). Only the header ring keeps
//!   explicit left/right links, and only up/down links and column sizes
//!   change during the search.
//!
//! [`Links`] is the mutable part (up/down, header ring, sizes); it is
//! `Copy`, so a pristine instance built once can be copied back to reset
//! the matrix between puzzles without touching the heap.

use crate::grid::{BOX_OF, CELLS, COL_OF, ROW_OF};

/// Number of constraint columns (4 x 81).
pub(crate) const COLUMNS: usize = 324;
/// Number of candidate rows (81 cells x 9 digits).
pub(crate) const ROWS: usize = CELLS * 9;
/// Index of the root header.
pub(crate) const ROOT: u16 = 0;
/// First row node (a multiple of 4, after the root and the headers).
pub(crate) const ROW_BASE: usize = (COLUMNS + 1).next_multiple_of(4);
/// Total number of nodes (root, headers, padding, row nodes).
pub(crate) const NODES: usize = ROW_BASE + ROWS * 4;
/// Number of header slots (root and columns, plus padding).
pub(crate) const HEADERS: usize = ROW_BASE;

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
    let row = (node as usize - ROW_BASE) / 4;
    (row / 9, (row % 9) as u8 + 1)
}

/// The next node to the right within the same matrix row (cyclic).
#[inline(always)]
const fn right_in_row(node: u16) -> u16 {
    if node & 3 == 3 {
        node - 3
    } else {
        node + 1
    }
}

/// The next node to the left within the same matrix row (cyclic).
#[inline(always)]
const fn left_in_row(node: u16) -> u16 {
    if node & 3 == 0 {
        node + 3
    } else {
        node - 1
    }
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
pub(crate) static COLUMN_OF: [u16; NODES] = build_column_of();

const fn build_column_of() -> [u16; NODES] {
    let mut t = [0u16; NODES];
    let mut h = 0;
    while h < HEADERS {
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

/// The links that change during the search, plus the column sizes.
#[derive(Clone, Copy)]
pub(crate) struct Links {
    up: [u16; NODES],
    down: [u16; NODES],
    left: [u16; HEADERS],
    right: [u16; HEADERS],
    size: [u8; HEADERS],
}

impl Links {
    /// The full matrix: every column linked into the header ring, every
    /// row linked into its four columns in increasing row order.
    pub(crate) fn full() -> Links {
        let mut l = Links {
            up: [0; NODES],
            down: [0; NODES],
            left: [0; HEADERS],
            right: [0; HEADERS],
            size: [0; HEADERS],
        };
        // Header ring: root 0, columns 1..=COLUMNS.
        for h in 0..=COLUMNS {
            l.left[h] = if h == 0 {
                COLUMNS as u16
            } else {
                (h - 1) as u16
            };
            l.right[h] = if h == COLUMNS { 0 } else { (h + 1) as u16 };
            l.up[h] = h as u16;
            l.down[h] = h as u16;
        }
        for row in 0..ROWS {
            let first = first_node(row);
            for k in 0..4u16 {
                let n = first + k;
                let c = COLUMN_OF[n as usize];
                let last = l.up[c as usize];
                l.up[n as usize] = last;
                l.down[n as usize] = c;
                l.down[last as usize] = n;
                l.up[c as usize] = n;
                l.size[c as usize] += 1;
            }
        }
        l
    }

    /// The first column still in the header ring (`ROOT` when none is
    /// left, i.e. the cover is complete).
    #[inline(always)]
    pub(crate) fn first_column(&self) -> u16 {
        self.right[ROOT as usize]
    }

    /// The first node below `node` in its column (the header when none).
    #[inline(always)]
    pub(crate) fn down(&self, node: u16) -> u16 {
        self.down[node as usize]
    }

    /// The remaining column with the fewest rows (the first such in header
    /// order), and its size. Returns at once on a column of size 0 or 1.
    /// Must only be called when at least one column remains.
    #[inline]
    pub(crate) fn smallest_column(&self) -> (u16, u8) {
        let mut c = self.right[ROOT as usize];
        let mut best = c;
        let mut best_size = u8::MAX;
        while c != ROOT {
            let s = self.size[c as usize];
            if s < best_size {
                best = c;
                best_size = s;
                if s <= 1 {
                    break;
                }
            }
            c = self.right[c as usize];
        }
        (best, best_size)
    }

    /// Removes column `c` from the header ring and every row that meets it
    /// from the other columns.
    #[inline]
    pub(crate) fn cover(&mut self, c: u16) {
        let (l, r) = (self.left[c as usize], self.right[c as usize]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[c as usize];
        while i != c {
            let mut j = right_in_row(i);
            while j != i {
                let (u, d) = (self.up[j as usize], self.down[j as usize]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[COLUMN_OF[j as usize] as usize] -= 1;
                j = right_in_row(j);
            }
            i = self.down[i as usize];
        }
    }

    /// Exactly undoes [`cover`](Links::cover) of `c` (in reverse order).
    #[inline]
    pub(crate) fn uncover(&mut self, c: u16) {
        let mut i = self.up[c as usize];
        while i != c {
            let mut j = left_in_row(i);
            while j != i {
                self.size[COLUMN_OF[j as usize] as usize] += 1;
                let (u, d) = (self.up[j as usize], self.down[j as usize]);
                self.down[u as usize] = j;
                self.up[d as usize] = j;
                j = left_in_row(j);
            }
            i = self.up[i as usize];
        }
        let (l, r) = (self.left[c as usize], self.right[c as usize]);
        self.right[l as usize] = c;
        self.left[r as usize] = c;
    }

    /// Takes row node `node` into the partial solution: covers the columns
    /// of the other nodes of its row (its own column is already covered).
    #[inline]
    pub(crate) fn select_rest(&mut self, node: u16) {
        let mut j = right_in_row(node);
        while j != node {
            self.cover(COLUMN_OF[j as usize]);
            j = right_in_row(j);
        }
    }

    /// Exactly undoes [`select_rest`](Links::select_rest).
    #[inline]
    pub(crate) fn deselect_rest(&mut self, node: u16) {
        let mut j = left_in_row(node);
        while j != node {
            self.uncover(COLUMN_OF[j as usize]);
            j = left_in_row(j);
        }
    }

    /// Takes a given's row: covers all four of its columns. The caller
    /// guarantees the columns are still present (non-conflicting givens).
    pub(crate) fn select_given(&mut self, cell: usize, digit: u8) {
        let node = first_node(matrix_row(cell, digit));
        self.cover(COLUMN_OF[node as usize]);
        self.select_rest(node);
    }

    /// The number of rows left in column `c`.
    #[cfg(test)]
    pub(crate) fn size(&self, c: u16) -> u8 {
        self.size[c as usize]
    }

    /// True when `self` and `other` hold the same links and sizes.
    #[cfg(test)]
    pub(crate) fn same_as(&self, other: &Links) -> bool {
        self.up == other.up
            && self.down == other.down
            && self.left == other.left
            && self.right == other.right
            && self.size == other.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_matrix_has_nine_rows_per_column() {
        let l = Links::full();
        let mut count = 0;
        let mut c = l.first_column();
        while c != ROOT {
            assert_eq!(l.size(c), 9);
            let mut n = l.down(c);
            let mut seen = 0;
            while n != c {
                assert_eq!(COLUMN_OF[n as usize], c);
                seen += 1;
                n = l.down(n);
            }
            assert_eq!(seen, 9);
            count += 1;
            c = l.right[c as usize];
        }
        assert_eq!(count, COLUMNS);
    }

    #[test]
    fn rows_have_four_distinct_column_kinds() {
        for row in 0..ROWS {
            let first = first_node(row);
            let cols: Vec<u16> = (0..4).map(|k| COLUMN_OF[(first + k) as usize]).collect();
            assert!(cols[0] >= 1 && cols[0] <= 81);
            assert!(cols[1] >= 82 && cols[1] <= 162);
            assert!(cols[2] >= 163 && cols[2] <= 243);
            assert!(cols[3] >= 244 && cols[3] <= 324);
            assert_eq!(right_in_row(first + 3), first);
            assert_eq!(left_in_row(first), first + 3);
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
        assert_eq!(l.size(2), 8);
        // Cell 40 (not a peer of cell 0) keeps all nine digits.
        assert_eq!(l.size(41), 9);
        // "5 in row 0" is covered: no longer in the header ring.
        let mut c = l.first_column();
        while c != ROOT {
            assert_ne!(c, 82 + 4);
            c = l.right[c as usize];
        }
    }
}
