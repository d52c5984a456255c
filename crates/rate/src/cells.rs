//! Sets of cells as 81-bit masks (cell `c` at bit `c`, row-major), the
//! rater's working unit: peers, units and chain implications are unions
//! and intersections of these, with no allocation.

use batchdoku_core::internal::{CELLS, PEERS, UNITS};

/// A set of cells, cell `c` at bit `c` (0..81).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct CellSet(pub(crate) u128);

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl CellSet {
    /// No cell.
    pub(crate) const EMPTY: CellSet = CellSet(0);
    /// Every cell of the grid.
    pub(crate) const ALL: CellSet = CellSet((1u128 << CELLS) - 1);

    /// The set holding only `cell` (read from a table: a variable 128-bit
    /// shift costs several instructions, a table two loads).
    #[inline(always)]
    pub(crate) fn single(cell: usize) -> CellSet {
        SINGLES[cell]
    }

    /// Whether `cell` is in the set: the bit of the half that holds it
    /// (a select and a 64-bit shift, no table load).
    #[inline(always)]
    pub(crate) fn contains(self, cell: usize) -> bool {
        let half = if cell < 64 {
            self.0 as u64
        } else {
            (self.0 >> 64) as u64
        };
        half >> (cell % 64) & 1 != 0
    }

    /// Adds `cell`.
    #[inline(always)]
    pub(crate) fn insert(&mut self, cell: usize) {
        self.0 |= SINGLES[cell].0;
    }

    /// Removes `cell`.
    #[inline(always)]
    pub(crate) fn remove(&mut self, cell: usize) {
        self.0 &= !SINGLES[cell].0;
    }

    /// The number of cells.
    #[inline(always)]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds exactly one cell (no population count: the
    /// crate is built without `target-cpu`, where that is a long bit trick).
    #[inline(always)]
    pub(crate) const fn is_single(self) -> bool {
        self.0 != 0 && self.0 & self.0.wrapping_sub(1) == 0
    }

    /// Whether the set holds exactly two cells.
    #[inline(always)]
    pub(crate) const fn is_pair(self) -> bool {
        CellSet(self.0 & self.0.wrapping_sub(1)).is_single()
    }

    /// Whether the set holds two cells or more.
    #[inline(always)]
    pub(crate) const fn at_least_two(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether the set has no cell.
    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest cell, if any.
    #[inline(always)]
    pub(crate) const fn first(self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// Cells in both sets.
    #[inline(always)]
    pub(crate) const fn and(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }

    /// Cells in either set.
    #[inline(always)]
    pub(crate) const fn or(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    /// Cells of `self` not in `other`.
    #[inline(always)]
    pub(crate) const fn minus(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }

    /// The cells in increasing order.
    #[inline(always)]
    pub(crate) fn iter(self) -> CellIter {
        CellIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }
}

/// The cells of a [`CellSet`] in increasing order: the set's two 64-bit
/// halves one after the other (a step of 64-bit arithmetic instead of
/// 128-bit: the walks step through many small sets).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellIter {
    /// Cells 0 to 63 not yet visited.
    low: u64,
    /// Cells 64 to 80 not yet visited (bit `i` for cell `64 + i`).
    high: u64,
}

impl Iterator for CellIter {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.low != 0 {
            let i = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(i)
        } else if self.high != 0 {
            let i = self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

/// The set of each cell alone (see [`CellSet::single`]).
static SINGLES: [CellSet; CELLS] = build_singles();

/// Builds [`SINGLES`].
const fn build_singles() -> [CellSet; CELLS] {
    let mut t = [CellSet(0); CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = CellSet(1u128 << c);
        c += 1;
    }
    t
}

/// The cells of each of the 27 units (rows 0..9, columns 9..18, boxes
/// 18..27, the order of [`UNITS`]).
pub(crate) static UNIT_SETS: [CellSet; 27] = build_unit_sets();

/// The 20 peers of each cell.
pub(crate) static PEER_SETS: [CellSet; CELLS] = build_peer_sets();

/// The three units of each cell: its row, column and box (indices into
/// [`UNITS`]).
pub(crate) static CELL_UNITS: [[u8; 3]; CELLS] = build_cell_units();

const fn build_unit_sets() -> [CellSet; 27] {
    let mut t = [CellSet(0); 27];
    let mut u = 0;
    while u < 27 {
        let mut i = 0;
        while i < 9 {
            t[u].0 |= 1u128 << UNITS[u][i];
            i += 1;
        }
        u += 1;
    }
    t
}

const fn build_peer_sets() -> [CellSet; CELLS] {
    let mut t = [CellSet(0); CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut i = 0;
        while i < 20 {
            t[c].0 |= 1u128 << PEERS[c][i];
            i += 1;
        }
        c += 1;
    }
    t
}

const fn build_cell_units() -> [[u8; 3]; CELLS] {
    let mut t = [[0u8; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        t[c] = [
            (c / 9) as u8,
            9 + (c % 9) as u8,
            18 + ((c / 27) * 3 + (c % 9) / 3) as u8,
        ];
        c += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_peers_agree_with_the_grid_tables() {
        for (u, set) in UNIT_SETS.iter().enumerate() {
            assert_eq!(
                set.iter().collect::<Vec<_>>(),
                UNITS[u].map(usize::from).to_vec()
            );
        }
        for c in 0..CELLS {
            assert_eq!(PEER_SETS[c].len(), 20);
            assert!(!PEER_SETS[c].contains(c));
            let union = CELL_UNITS[c]
                .iter()
                .fold(CellSet::EMPTY, |acc, &u| acc.or(UNIT_SETS[usize::from(u)]));
            assert_eq!(union.minus(CellSet::single(c)), PEER_SETS[c]);
        }
    }

    #[test]
    fn size_tests_agree_with_the_count() {
        // Sets of 0 to 3 cells anywhere, the highest cells included.
        let cells = [0, 1, 40, 63, 64, 65, 79, 80];
        let mut sets = vec![CellSet::EMPTY];
        for &a in &cells {
            sets.push(CellSet::single(a));
            for &b in &cells {
                let ab = CellSet::single(a).or(CellSet::single(b));
                sets.push(ab);
                sets.extend(cells.iter().map(|&c| ab.or(CellSet::single(c))));
            }
        }
        sets.push(CellSet::ALL);
        for s in sets {
            // The cells in increasing order, across the two halves.
            let listed: Vec<usize> = (0..CELLS).filter(|&c| s.contains(c)).collect();
            assert_eq!(s.iter().collect::<Vec<_>>(), listed, "{s:?}");
            assert_eq!(s.is_single(), s.len() == 1, "{s:?}");
            assert_eq!(s.is_pair(), s.len() == 2, "{s:?}");
            assert_eq!(s.at_least_two(), s.len() >= 2, "{s:?}");
        }
    }

    #[test]
    fn set_operations() {
        let mut s = CellSet::EMPTY;
        s.insert(80);
        s.insert(3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 80]);
        assert_eq!(s.first(), Some(3));
        s.remove(3);
        assert_eq!(s.len(), 1);
        assert!(CellSet::ALL.minus(s).and(s).is_empty());
    }
}
