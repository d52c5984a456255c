//! The 9x9 grid model: cells, digits, units and peer tables, plus the checks
//! every other module relies on (consistent givens, valid solutions).
//!
//! Cells are numbered 0..81 in row-major order; `row = cell / 9`,
//! `col = cell % 9`, `box = (row / 3) * 3 + col / 3`. A cell holds 0 when
//! blank, else a digit 1..=9.

use std::fmt;

/// Number of cells in a grid.
///
/// # Example
/// ```
/// use batchdoku_core::Grid;
/// let cells = [0u8; Grid::CELLS];
/// let grid = Grid::from_cells(cells).unwrap();
/// assert_eq!(grid.to_line().len(), Grid::CELLS);
/// assert_eq!((0..Grid::CELLS).filter(|&cell| grid.get(cell) == 0).count(), 81);
/// ```
pub const CELLS: usize = 81;

/// Row index (0..9) of each cell.
pub const ROW_OF: [u8; CELLS] = build_row_of();
/// Column index (0..9) of each cell.
pub const COL_OF: [u8; CELLS] = build_col_of();
/// Box index (0..9, row-major over the 3x3 boxes) of each cell.
pub const BOX_OF: [u8; CELLS] = build_box_of();

/// The 27 units: rows 0..9, then columns 9..18, then boxes 18..27, each as
/// its nine cells in increasing order.
pub const UNITS: [[u8; 9]; 27] = build_units();

/// The 20 peers of each cell (cells sharing a row, column or box with it).
pub const PEERS: [[u8; 20]; CELLS] = build_peers();

const fn build_row_of() -> [u8; CELLS] {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
}

const fn build_col_of() -> [u8; CELLS] {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i % 9) as u8;
        i += 1;
    }
    t
}

const fn build_box_of() -> [u8; CELLS] {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = ((i / 27) * 3 + (i % 9) / 3) as u8;
        i += 1;
    }
    t
}

const fn build_units() -> [[u8; 9]; 27] {
    let mut u = [[0u8; 9]; 27];
    let mut k = 0;
    while k < 9 {
        let mut j = 0;
        while j < 9 {
            u[k][j] = (k * 9 + j) as u8;
            u[9 + k][j] = (j * 9 + k) as u8;
            let r = (k / 3) * 3 + j / 3;
            let c = (k % 3) * 3 + j % 3;
            u[18 + k][j] = (r * 9 + c) as u8;
            j += 1;
        }
        k += 1;
    }
    u
}

const fn build_peers() -> [[u8; 20]; CELLS] {
    let row = build_row_of();
    let col = build_col_of();
    let bx = build_box_of();
    let mut p = [[0u8; 20]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut o = 0;
        while o < CELLS {
            if o != c && (row[o] == row[c] || col[o] == col[c] || bx[o] == bx[c]) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        assert!(n == 20);
        c += 1;
    }
    p
}

/// The kind of unit a conflict was found in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A 3x3 box.
    Box,
}

impl UnitKind {
    /// The lowercase English name of the unit kind.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        }
    }
}

/// Two givens with the same digit in one unit: the puzzle contradicts itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The kind of unit holding both givens.
    pub unit: UnitKind,
    /// The unit's index, 0..9 (1-based in messages).
    pub index: u8,
    /// The repeated digit.
    pub digit: u8,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "contradictory givens: digit {} twice in {} {}",
            self.digit,
            self.unit.as_str(),
            self.index + 1
        )
    }
}

/// A 9x9 Sudoku grid: 0 for a blank cell, 1..=9 for a digit.
///
/// The grid is `Copy` (81 bytes) so solvers can keep it on the stack.
/// Cells are numbered 0..81 in row-major order (`cell = 9 * row + col`).
///
/// # Example
/// ```
/// use batchdoku_core::Grid;
/// let mut grid = Grid::empty();
/// grid.set(0, 5); // row 0, column 0
/// grid.set(80, 9); // row 8, column 8
/// assert_eq!(grid.given_count(), 2);
/// assert!(grid.first_conflict().is_none());
/// assert_eq!(grid.to_string(), format!("5{}9", ".".repeat(79)));
///
/// // A second 5 in row 0: the givens contradict each other.
/// grid.set(8, 5);
/// let conflict = grid.first_conflict().unwrap();
/// assert_eq!(conflict.to_string(), "contradictory givens: digit 5 twice in row 1");
///
/// let solved: Grid = batchdoku_core::parse_line(
///     b"534678912672195348198342567859761423426853791713924856961537284287419635345286179",
/// )
/// .unwrap();
/// assert!(solved.is_complete() && solved.is_valid_solution());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid([u8; CELLS]);

impl Default for Grid {
    fn default() -> Self {
        Grid::empty()
    }
}

impl Grid {
    /// Cells in a grid: 81.
    pub const CELLS: usize = CELLS;

    /// The empty grid (every cell blank).
    pub const fn empty() -> Grid {
        Grid([0; CELLS])
    }

    /// Builds a grid from 81 cell values; returns `None` if any value is
    /// above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        // Not `all`: without the early exit the check compiles to a few
        // vector compares (the solver builds a grid at every solution).
        if cells.iter().fold(0, |max, &v| max.max(v)) <= 9 {
            Some(Grid(cells))
        } else {
            None
        }
    }

    /// The 81 cell values (0 = blank).
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.0
    }

    /// The value of one cell (0 = blank).
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.0[cell]
    }

    /// Sets one cell.
    ///
    /// # Panics
    /// If `value > 9` or `cell >= 81`.
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value <= 9, "cell value {value} out of range");
        self.0[cell] = value;
    }

    /// Number of filled cells.
    pub fn given_count(&self) -> usize {
        // Counted in a byte (at most 81), so the loop is a few vector
        // instructions rather than one 64-bit add per cell.
        usize::from(self.0.iter().fold(0u8, |n, &v| n + u8::from(v != 0)))
    }

    /// True when no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.0.iter().all(|&v| v != 0)
    }

    /// The first pair of equal digits within one unit, if any (rows first,
    /// then columns, then boxes).
    pub fn first_conflict(&self) -> Option<Conflict> {
        for (u, unit) in UNITS.iter().enumerate() {
            let mut seen = 0u16;
            for &c in unit {
                let v = self.0[c as usize];
                if v == 0 {
                    continue;
                }
                let bit = 1u16 << v;
                if seen & bit != 0 {
                    let unit = match u / 9 {
                        0 => UnitKind::Row,
                        1 => UnitKind::Column,
                        _ => UnitKind::Box,
                    };
                    return Some(Conflict {
                        unit,
                        index: (u % 9) as u8,
                        digit: v,
                    });
                }
                seen |= bit;
            }
        }
        None
    }

    /// True when the grid is complete and no unit repeats a digit.
    ///
    /// Every written solution goes through this check, so it is one
    /// branch-free pass: each row, column and box must collect all nine
    /// digits (nine cells holding nine distinct digits 1-9), which also
    /// rules out blanks.
    pub fn is_valid_solution(&self) -> bool {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU has SSSE3 (checked just above).
            return unsafe { valid_solution_ssse3(&self.0, None) };
        }
        self.is_valid_solution_portable()
    }

    /// [`is_valid_solution`](Self::is_valid_solution) without SIMD
    /// intrinsics (what other CPUs run; the SSSE3 path is tested against it).
    fn is_valid_solution_portable(&self) -> bool {
        // One bit per cell, `1 << value`: blanks (0) set bit 0, which no
        // complete unit mask has. Each family of units is then one loop
        // the compiler vectorises (columns and band-wise box rows are
        // element-wise ORs of rows).
        let mut bits = [0u16; CELLS];
        for (bit, &v) in bits.iter_mut().zip(self.0.iter()) {
            *bit = 1 << (v & 15);
        }
        const ALL_DIGITS: u16 = 0b11_1111_1110;
        let mut all = ALL_DIGITS;
        let mut cols = [0u16; 9];
        for row in bits.chunks_exact(9) {
            for (col, &bit) in cols.iter_mut().zip(row) {
                *col |= bit;
            }
            all &= row.iter().fold(0, |acc, &bit| acc | bit);
        }
        all &= cols.iter().fold(ALL_DIGITS, |acc, &col| acc & col);
        for band in bits.chunks_exact(27) {
            let mut stacked = [0u16; 9];
            for row in band.chunks_exact(9) {
                for (s, &bit) in stacked.iter_mut().zip(row) {
                    *s |= bit;
                }
            }
            for boxed in stacked.chunks_exact(3) {
                all &= boxed[0] | boxed[1] | boxed[2];
            }
        }
        all == ALL_DIGITS
    }

    /// True when `self` is a valid complete grid that keeps every given of
    /// `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: the CPU has SSSE3 (checked just above).
            return unsafe { valid_solution_ssse3(&self.0, Some(&puzzle.0)) };
        }
        self.solves_portable(puzzle)
    }

    /// [`solves`](Self::solves) without SIMD intrinsics.
    fn solves_portable(&self, puzzle: &Grid) -> bool {
        // Branch-free (and vectorisable) comparison of the givens.
        let changed = self
            .0
            .iter()
            .zip(puzzle.0.iter())
            .fold(false, |acc, (&s, &p)| acc | ((p != 0) & (s != p)));
        !changed && self.is_valid_solution_portable()
    }

    /// The 81-character line form, blanks written as `blank` (usually `.`
    /// or `0`).
    pub fn to_line_with(&self, blank: u8) -> [u8; CELLS] {
        // Byte arithmetic only (a blank's '0' flipped to `blank`): a few
        // vector instructions per 16 cells.
        // A loop over zipped arrays (not `array::map`, which the compiler
        // left as 81 scalar steps).
        let flip = b'0' ^ blank;
        let mut line = [0u8; CELLS];
        for (out, &v) in line.iter_mut().zip(self.0.iter()) {
            *out = (b'0' + v) ^ (u8::from(v == 0).wrapping_neg() & flip);
        }
        line
    }

    /// The 81-character line form with `.` for blanks.
    pub fn to_line(&self) -> [u8; CELLS] {
        self.to_line_with(b'.')
    }

    /// The line form as an owned `String` (convenience; allocates).
    pub fn to_line_string(&self) -> String {
        String::from_utf8(self.to_line().to_vec()).expect("ASCII")
    }

    /// The block form: nine lines of nine digits separated by spaces, `0`
    /// for blanks (the NOIP 2009 layout), each line ending in `\n`.
    pub fn to_block_string(&self) -> String {
        let mut s = String::with_capacity(9 * 18);
        for r in 0..9 {
            for c in 0..9 {
                if c > 0 {
                    s.push(' ');
                }
                s.push((b'0' + self.0[r * 9 + c]) as char);
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line_string())
    }
}

impl fmt::Display for Grid {
    /// Writes the 81-character line form with `.` blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line_string())
    }
}

/// [`Grid::is_valid_solution`] and, with `puzzle`, [`Grid::solves`] on
/// SSSE3: the same test (every row, column and box collects the bits
/// `1 << value` of all nine digits; every given of `puzzle` kept) in about
/// a quarter of the instructions of a scalar loop (about 220 against 800).
/// The bits come from two byte lookups (`pshufb`) interleaved into 16-bit
/// lanes. Eight lanes loaded at
/// cell `i` ORed with eight loaded at `i + 1` hold a row's nine cells, so
/// rows, columns and boxes are lane-wise ORs of such loads; the eight rows'
/// lanes are then folded across vectors (unpack and OR, three rounds), the
/// ninth row within its vector. Lanes that hold no unit are forced to pass,
/// the rest are ANDed together. A unit whose nine cells collect nine digit
/// bits holds no blank (bit 0) and no value above 9 (none), so bits 1-9
/// alone decide.
///
/// Column 8 and the third box of each band are not read: once every row
/// holds each digit once, columns 0-7 leave each digit one cell of column
/// 8, and a band's first two boxes leave each digit one cell of its third
/// (counting: a digit is in every row once, so 9 times in the grid and 3
/// times in a band).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[target_feature(enable = "ssse3")]
fn valid_solution_ssse3(cells: &[u8; CELLS], puzzle: Option<&[u8; CELLS]>) -> bool {
    use std::arch::x86_64::*;
    const DIGITS: i16 = 0b11_1111_1110;
    // Bit 1 << v, low and high byte, for v = 0..16 (v >= 10 has none).
    let lo_table = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    let hi_table = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0);
    let nibble = _mm_set1_epi8(15);
    // Lanes 81.. stay 0: they are read, never part of a unit.
    let mut bits = [0u16; 96];
    // Sixteen cells from 0, 16, 32, 48, 64, and the last sixteen (65..81,
    // overlapping: the same bits written twice).
    let mut kept = _mm_set1_epi8(-1);
    for start in [0, 16, 32, 48, 64, CELLS - 16] {
        // SAFETY: `start + 16 <= CELLS`, so the loads read within `cells`
        // and `puzzle`, and the stores write lanes below 96; all are
        // unaligned.
        unsafe {
            let raw = _mm_loadu_si128(cells.as_ptr().add(start).cast());
            if let Some(puzzle) = puzzle {
                // A given (non-zero) must equal the cell.
                let given = _mm_loadu_si128(puzzle.as_ptr().add(start).cast());
                let same = _mm_cmpeq_epi8(raw, given);
                let blank = _mm_cmpeq_epi8(given, _mm_setzero_si128());
                kept = _mm_and_si128(kept, _mm_or_si128(same, blank));
            }
            let v = _mm_and_si128(raw, nibble);
            let lo = _mm_shuffle_epi8(lo_table, v);
            let hi = _mm_shuffle_epi8(hi_table, v);
            let out = bits.as_mut_ptr().add(start).cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi8(lo, hi));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi8(lo, hi));
        }
    }
    // Eight lanes from `i` (i <= 88: within `bits`).
    let at = |i: usize| -> __m128i {
        assert!(i + 8 <= bits.len());
        // SAFETY: lanes i..i + 8 are within `bits` (checked above).
        unsafe { _mm_loadu_si128(bits.as_ptr().add(i).cast()) }
    };
    // `rows[r]`'s lanes OR to row r; per band, `low`'s lanes are columns
    // 0-7 ORed over the band's three rows.
    let mut rows = [_mm_setzero_si128(); 9];
    let mut cols = _mm_setzero_si128();
    let mut boxes = _mm_set1_epi16(-1);
    for (band, band_rows) in rows.chunks_exact_mut(3).enumerate() {
        let mut low = _mm_setzero_si128();
        for (r, row) in (3 * band..).zip(band_rows) {
            let l = at(9 * r);
            *row = _mm_or_si128(l, at(9 * r + 1));
            low = _mm_or_si128(low, l);
        }
        cols = _mm_or_si128(cols, low);
        // Three columns at a time: the band's first two boxes in lanes 0
        // and 3.
        let three = _mm_or_si128(
            _mm_or_si128(low, _mm_srli_si128(low, 2)),
            _mm_srli_si128(low, 4),
        );
        boxes = _mm_and_si128(boxes, three);
    }
    // Rows 0-7 folded across vectors: after three rounds of interleaving
    // pairs (16-, 32-, then 64-bit elements) and ORing, lane k holds all of
    // one row's lanes.
    let by16 = |a, b| _mm_or_si128(_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b));
    let by32 = |a, b| _mm_or_si128(_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
    let by64 = |a, b| _mm_or_si128(_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b));
    let rows_0_to_7 = by64(
        by32(by16(rows[0], rows[1]), by16(rows[2], rows[3])),
        by32(by16(rows[4], rows[5]), by16(rows[6], rows[7])),
    );
    // Row 8 within its vector, into lane 0.
    let last = rows[8];
    let last = _mm_or_si128(last, _mm_srli_si128(last, 8));
    let last = _mm_or_si128(last, _mm_srli_si128(last, 4));
    let last = _mm_or_si128(last, _mm_srli_si128(last, 2));
    // Lanes that hold no unit pass (ORed with every digit bit); `0` marks
    // the lanes checked.
    const P: i16 = DIGITS;
    let last = _mm_or_si128(last, _mm_setr_epi16(0, P, P, P, P, P, P, P));
    let boxes = _mm_or_si128(boxes, _mm_setr_epi16(0, P, P, 0, P, P, P, P));
    let all = _mm_and_si128(_mm_and_si128(rows_0_to_7, cols), _mm_and_si128(last, boxes));
    let digits = _mm_set1_epi16(DIGITS);
    let units_ok = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(all, digits), digits)) == 0xFFFF;
    units_ok & (_mm_movemask_epi8(kept) == 0xFFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testdata::SOLVED;

    fn grid(s: &str) -> Grid {
        let mut cells = [0u8; 81];
        for (i, b) in s.bytes().enumerate() {
            cells[i] = if b == b'.' { 0 } else { b - b'0' };
        }
        Grid::from_cells(cells).unwrap()
    }

    /// The unit and peer tables feed both the solver and the naive
    /// reference searches in the tests, so a wrong table would fool both:
    /// check every entry against the arithmetic that defines it.
    #[test]
    fn tables_match_their_formulas() {
        let row = |i: usize| i / 9;
        let col = |i: usize| i % 9;
        let boxed = |i: usize| i / 27 * 3 + i % 9 / 3;
        for i in 0..CELLS {
            assert_eq!(usize::from(ROW_OF[i]), row(i), "ROW_OF[{i}]");
            assert_eq!(usize::from(COL_OF[i]), col(i), "COL_OF[{i}]");
            assert_eq!(usize::from(BOX_OF[i]), boxed(i), "BOX_OF[{i}]");
        }
        // Units 0..9 are the rows, 9..18 the columns, 18..27 the boxes,
        // each listing its nine cells once.
        for (u, unit) in UNITS.iter().enumerate() {
            let expected: Vec<usize> = (0..CELLS)
                .filter(|&i| match u {
                    0..=8 => row(i) == u,
                    9..=17 => col(i) == u - 9,
                    _ => boxed(i) == u - 18,
                })
                .collect();
            let mut got: Vec<usize> = unit.iter().map(|&c| usize::from(c)).collect();
            got.sort_unstable();
            assert_eq!(got, expected, "unit {u}");
        }
        // Peers: exactly the 20 other cells sharing a row, column or box;
        // never the cell itself; and the relation is symmetric.
        for (c, peers) in PEERS.iter().enumerate() {
            let expected: Vec<usize> = (0..CELLS)
                .filter(|&o| {
                    o != c && (row(o) == row(c) || col(o) == col(c) || boxed(o) == boxed(c))
                })
                .collect();
            assert_eq!(expected.len(), 20);
            let mut got: Vec<usize> = peers.iter().map(|&p| usize::from(p)).collect();
            got.sort_unstable();
            assert_eq!(got, expected, "peers of {c}");
            for &p in peers {
                assert!(
                    PEERS[usize::from(p)].contains(&(c as u8)),
                    "{p} is a peer of {c} but not back"
                );
            }
        }
    }

    #[test]
    fn valid_solution_is_recognised() {
        let g = grid(SOLVED);
        assert!(g.is_valid_solution());
        let mut bad = g;
        bad.set(0, 6);
        assert!(!bad.is_valid_solution());
        let mut puzzle = g;
        puzzle.set(40, 0);
        assert!(g.solves(&puzzle));
        puzzle.set(41, 1);
        assert!(!g.solves(&puzzle));
    }

    /// The fast check agrees with its definition (complete, no unit
    /// repeating a digit) on near-solutions: a valid grid with a few cells
    /// swapped, changed or blanked, and on grids that are valid in rows and
    /// columns only (a Latin square that breaks the boxes).
    #[test]
    fn fast_validity_check_matches_its_definition() {
        let slow = |g: &Grid| g.is_complete() && g.first_conflict().is_none();
        let mut rng = crate::rng::Rng::new(99);
        let base = grid(SOLVED);
        let mut latin = Grid::default();
        for cell in 0..CELLS {
            latin.set(cell, ((cell / 9 + cell % 9) % 9) as u8 + 1);
        }
        assert!(!latin.is_valid_solution() && latin.first_conflict().is_some());
        let (mut valid, mut invalid) = (0, 0);
        for i in 0..3000 {
            let mut g = if i % 7 == 0 { latin } else { base };
            for _ in 0..rng.below(3) {
                let (a, b) = (rng.below(81) as usize, rng.below(81) as usize);
                match rng.below(3) {
                    0 => {
                        let (x, y) = (g.get(a), g.get(b));
                        g.set(a, y);
                        g.set(b, x);
                    }
                    1 => g.set(a, rng.below(10) as u8),
                    _ => g.set(a, 0),
                }
            }
            assert_eq!(g.is_valid_solution(), slow(&g), "{}", g.to_line_string());
            assert_eq!(
                g.is_valid_solution_portable(),
                slow(&g),
                "{}",
                g.to_line_string()
            );
            if slow(&g) {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
        assert!(valid > 100 && invalid > 100, "{valid} {invalid}");
    }

    /// Every single wrong cell of a valid grid, and every swap of two cells
    /// holding different digits, is rejected by both checks (the SIMD one
    /// reads each unit from other lanes: a missed lane would pass one).
    #[test]
    fn each_wrong_cell_is_rejected() {
        let base = grid(SOLVED);
        assert!(base.is_valid_solution() && base.is_valid_solution_portable());
        for cell in 0..CELLS {
            for v in 0..=9 {
                let mut g = base;
                g.set(cell, v);
                let valid = v == base.get(cell);
                assert_eq!(g.is_valid_solution(), valid, "cell {cell} = {v}");
                assert_eq!(g.is_valid_solution_portable(), valid, "cell {cell} = {v}");
            }
            for other in cell + 1..CELLS {
                let mut g = base;
                g.set(cell, base.get(other));
                g.set(other, base.get(cell));
                let valid = base.get(cell) == base.get(other);
                assert_eq!(g.is_valid_solution(), valid, "swap {cell} {other}");
                assert_eq!(g.is_valid_solution_portable(), valid, "swap {cell} {other}");
            }
        }
    }

    /// A valid grid with two rows (or two columns) exchanged keeps every
    /// row and column valid; its boxes stay valid exactly when both are in
    /// the same band (stack). Both checks must see the boxes of every band
    /// and stack.
    #[test]
    fn boxes_broken_alone_are_rejected() {
        let base = grid(SOLVED);
        for a in 0..9 {
            for b in a + 1..9 {
                let (mut rows, mut cols) = (base, base);
                for k in 0..9 {
                    rows.set(9 * a + k, base.get(9 * b + k));
                    rows.set(9 * b + k, base.get(9 * a + k));
                    cols.set(9 * k + a, base.get(9 * k + b));
                    cols.set(9 * k + b, base.get(9 * k + a));
                }
                let valid = a / 3 == b / 3;
                for g in [rows, cols] {
                    assert_eq!(g.is_valid_solution(), valid, "{a} {b}");
                    assert_eq!(g.is_valid_solution_portable(), valid, "{a} {b}");
                }
            }
        }
    }

    /// `solves` (the SIMD check with the givens compared in the same
    /// pass) agrees with its definition and with the portable path: on a
    /// valid grid against puzzles keeping random givens, with one cell of
    /// the grid or of the puzzle changed, and every cell blanked in turn.
    #[test]
    fn fast_solves_matches_its_definition() {
        let slow = |g: &Grid, p: &Grid| {
            g.is_complete()
                && g.first_conflict().is_none()
                && (0..CELLS).all(|c| p.get(c) == 0 || p.get(c) == g.get(c))
        };
        let mut rng = crate::rng::Rng::new(7);
        let base = grid(SOLVED);
        let (mut yes, mut no) = (0, 0);
        for i in 0..4000 {
            let mut puzzle = base;
            for c in 0..CELLS {
                if rng.below(3) != 0 {
                    puzzle.set(c, 0);
                }
            }
            let mut g = base;
            let cell = i % CELLS;
            match rng.below(4) {
                0 => {}
                1 => g.set(cell, rng.below(10) as u8),
                2 => puzzle.set(cell, rng.below(10) as u8),
                _ => g.set(cell, 0),
            }
            let expected = slow(&g, &puzzle);
            assert_eq!(g.solves(&puzzle), expected, "{} {}", g, puzzle);
            assert_eq!(g.solves_portable(&puzzle), expected, "{} {}", g, puzzle);
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 500 && no > 500, "{yes} {no}");
    }

    #[test]
    fn conflict_names_unit_and_digit() {
        let mut g = Grid::empty();
        g.set(0, 5);
        g.set(80, 5);
        assert_eq!(g.first_conflict(), None);
        g.set(10, 5);
        let c = g.first_conflict().unwrap();
        assert_eq!(c.unit, UnitKind::Box);
        assert_eq!(c.digit, 5);
        assert_eq!(
            c.to_string(),
            "contradictory givens: digit 5 twice in box 1"
        );
        g.set(10, 0);
        g.set(8, 5);
        assert_eq!(g.first_conflict().unwrap().unit, UnitKind::Row);
    }

    #[test]
    fn line_and_block_round_trip() {
        let g = grid(SOLVED);
        assert_eq!(&g.to_line()[..], SOLVED.as_bytes());
        let mut p = g;
        p.set(3, 0);
        assert_eq!(p.to_line()[3], b'.');
        assert_eq!(p.to_line_with(b'0')[3], b'0');
        let block = p.to_block_string();
        assert_eq!(block.lines().count(), 9);
        assert!(block.starts_with("5 3 4 0 7 8 9 1 2\n"));
    }

    #[test]
    fn from_cells_rejects_out_of_range() {
        let mut cells = [0u8; 81];
        cells[5] = 10;
        assert!(Grid::from_cells(cells).is_none());
    }
}
