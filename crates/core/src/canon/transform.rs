//! [`Transform`]: one validity-preserving transformation of a Sudoku grid
//! (optional transpose, row and column permutations that keep bands and
//! stacks together, digit relabelling), with composition, inverse, random
//! sampling for tests, and a compact text form that round-trips through
//! [`FromStr`].
//!
//! The group has 2 x 6^8 = 3,359,232 cell permutations times 9! digit
//! relabellings; every element maps valid grids to valid grids and keeps
//! blanks blank.

use std::fmt;
use std::str::FromStr;

use crate::grid::{Grid, CELLS};
use crate::rng::Rng;

/// A validity-preserving transformation of a grid.
///
/// Applied to a grid `g` it gives `out` with
/// `out[r][c] = digits[src[rows[r]][cols[c]]]`, where `src` is `g` itself,
/// or its transpose (`src[a][b] = g[b][a]`) when `transpose` is set, and a
/// blank stays blank. `rows` keeps the three rows of each band together
/// (a band permutation combined with a permutation inside each band), and
/// likewise `cols` for stacks; [`Transform::from_parts`] and the parser
/// reject anything else.
///
/// Text form (see [`fmt::Display`] and [`FromStr`]):
/// `T;rows=012345678;cols=012345678;digits=123456789` where the first field
/// is `T` (transpose first) or `N` (no transpose), `rows`/`cols` list the
/// source row/column of output row/column 0..8, and `digits` lists the new
/// label of digit 1..9.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, Grid, Transform};
/// let p = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// // Swap the first two bands, then relabel the digits in reverse.
/// let t = Transform::from_parts(
///     false,
///     [3, 4, 5, 0, 1, 2, 6, 7, 8],
///     [0, 1, 2, 3, 4, 5, 6, 7, 8],
///     [9, 8, 7, 6, 5, 4, 3, 2, 1],
/// )
/// .unwrap();
/// let q: Grid = t.apply(&p);
/// assert_eq!((p.get(32), q.get(5)), (2, 8)); // row 0 comes from row 3; its 2 becomes 8
/// assert_eq!((p.get(2), q.get(29)), (3, 7)); // and row 3 from row 0
/// assert_eq!(t.inverse().apply(&q), p);
/// assert_eq!(t.compose(&t.inverse()), Transform::identity());
///
/// // The text form round-trips.
/// assert_eq!(t.to_string(), "N;rows=345012678;cols=012345678;digits=987654321");
/// assert_eq!(t.to_string().parse::<Transform>(), Ok(t));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    transpose: bool,
    rows: [u8; 9],
    cols: [u8; 9],
    /// `digits[d]` is the new label of digit `d`; `digits[0] == 0`.
    digits: [u8; 10],
}

/// Why a text form or a set of parts is not a [`Transform`].
///
/// # Example
/// ```
/// use batchdoku_core::{Transform, TransformError};
/// let parse = |text: &str| text.parse::<Transform>().unwrap_err();
/// assert_eq!(parse("N;rows=012345678"), TransformError::Syntax);
/// // Rows 2 and 3 are in different bands: swapping them breaks the grid.
/// assert_eq!(
///     parse("N;rows=013245678;cols=012345678;digits=123456789"),
///     TransformError::Rows
/// );
/// let identity = [0, 1, 2, 3, 4, 5, 6, 7, 8];
/// let err = Transform::from_parts(false, identity, identity, [1, 1, 3, 4, 5, 6, 7, 8, 9]);
/// assert_eq!(err, Err(TransformError::Digits));
/// assert_eq!(TransformError::Digits.to_string(), "digits is not a permutation of 1..9");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TransformError {
    /// The text does not have the four `;`-separated fields
    /// `T|N;rows=...;cols=...;digits=...`.
    #[error("expected `T|N;rows=<9 digits>;cols=<9 digits>;digits=<9 digits>`")]
    Syntax,
    /// `rows` is not a permutation of 0..8 keeping the bands together.
    #[error("rows is not a band-preserving permutation of 0..8")]
    Rows,
    /// `cols` is not a permutation of 0..8 keeping the stacks together.
    #[error("cols is not a stack-preserving permutation of 0..8")]
    Cols,
    /// `digits` is not a permutation of 1..9.
    #[error("digits is not a permutation of 1..9")]
    Digits,
}

/// True when `p` is a permutation of 0..8 mapping each group of three
/// output lines onto one group of three source lines.
fn is_line_perm(p: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for &x in p {
        if x >= 9 {
            return false;
        }
        seen |= 1 << x;
    }
    seen == 0x1FF
        && (0..3).all(|b| p[3 * b] / 3 == p[3 * b + 1] / 3 && p[3 * b] / 3 == p[3 * b + 2] / 3)
}

/// The inverse of a permutation of 0..8.
fn invert(p: &[u8; 9]) -> [u8; 9] {
    let mut inv = [0u8; 9];
    for (i, &x) in p.iter().enumerate() {
        inv[usize::from(x)] = i as u8;
    }
    inv
}

/// A uniformly random band-preserving permutation of 0..8.
fn random_line_perm(rng: &mut Rng) -> [u8; 9] {
    let mut bands = [0u8, 1, 2];
    rng.shuffle(&mut bands);
    let mut p = [0u8; 9];
    for (b, &src) in bands.iter().enumerate() {
        let mut inner = [0u8, 1, 2];
        rng.shuffle(&mut inner);
        for (k, &i) in inner.iter().enumerate() {
            p[3 * b + k] = src * 3 + i;
        }
    }
    p
}

impl Transform {
    /// The transformation that changes nothing.
    pub fn identity() -> Transform {
        Transform {
            transpose: false,
            rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
            digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        }
    }

    /// Builds a transformation from its parts (see the type docs);
    /// `digits[d - 1]` is the new label of digit `d`.
    pub fn from_parts(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 9],
    ) -> Result<Transform, TransformError> {
        if !is_line_perm(&rows) {
            return Err(TransformError::Rows);
        }
        if !is_line_perm(&cols) {
            return Err(TransformError::Cols);
        }
        let mut seen = 0u16;
        for &d in &digits {
            if !(1..=9).contains(&d) {
                return Err(TransformError::Digits);
            }
            seen |= 1 << d;
        }
        if seen != 0x3FE {
            return Err(TransformError::Digits);
        }
        let mut full = [0u8; 10];
        full[1..].copy_from_slice(&digits);
        Ok(Transform {
            transpose,
            rows,
            cols,
            digits: full,
        })
    }

    /// Whether the grid is transposed before the permutations.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// Source row (of the possibly transposed grid) of each output row.
    pub fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// Source column (of the possibly transposed grid) of each output column.
    pub fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// The new label of each digit 1..9 (`digits()[d - 1]` for digit `d`).
    pub fn digits(&self) -> [u8; 9] {
        let mut d = [0u8; 9];
        d.copy_from_slice(&self.digits[1..]);
        d
    }

    /// Applies the transformation to `grid` (see the type docs).
    pub fn apply(&self, grid: &Grid) -> Grid {
        let src = grid.cells();
        let mut out = [0u8; CELLS];
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.cols.iter().enumerate() {
                let (sr, sc) = (usize::from(sr), usize::from(sc));
                let cell = if self.transpose {
                    sc * 9 + sr
                } else {
                    sr * 9 + sc
                };
                out[r * 9 + c] = self.digits[usize::from(src[cell])];
            }
        }
        Grid::from_cells(out).unwrap_or(*grid)
    }

    /// The transformation "first `first`, then `self`":
    /// `self.compose(&first).apply(g) == self.apply(&first.apply(g))`.
    pub fn compose(&self, first: &Transform) -> Transform {
        let mut digits = [0u8; 10];
        for (d, out) in digits.iter_mut().enumerate() {
            *out = self.digits[usize::from(first.digits[d])];
        }
        // Output line i of `self` reads line self.rows[i] of first's output
        // (or, transposed, its column), which reads first.rows/first.cols.
        let (row_src, col_src) = if self.transpose {
            (&first.cols, &first.rows)
        } else {
            (&first.rows, &first.cols)
        };
        let mut rows = [0u8; 9];
        let mut cols = [0u8; 9];
        for i in 0..9 {
            rows[i] = row_src[usize::from(self.rows[i])];
            cols[i] = col_src[usize::from(self.cols[i])];
        }
        Transform {
            transpose: self.transpose ^ first.transpose,
            rows,
            cols,
            digits,
        }
    }

    /// The transformation undoing `self`:
    /// `self.inverse().apply(&self.apply(g)) == g`.
    pub fn inverse(&self) -> Transform {
        let mut digits = [0u8; 10];
        for d in 0..10 {
            digits[usize::from(self.digits[d])] = d as u8;
        }
        let (rows, cols) = if self.transpose {
            (invert(&self.cols), invert(&self.rows))
        } else {
            (invert(&self.rows), invert(&self.cols))
        };
        Transform {
            transpose: self.transpose,
            rows,
            cols,
            digits,
        }
    }

    /// A uniformly random transformation (each of the 2 x 6^8 x 9! equally
    /// likely), for tests and benchmarks.
    pub fn random(rng: &mut Rng) -> Transform {
        let transpose = rng.below(2) == 1;
        let rows = random_line_perm(rng);
        let cols = random_line_perm(rng);
        let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut labels);
        let mut digits = [0u8; 10];
        digits[1..].copy_from_slice(&labels);
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::identity()
    }
}

/// Length of the text form: `T;rows=` + 9 + `;cols=` + 9 + `;digits=` + 9.
pub const TEXT_LEN: usize = 48;

impl Transform {
    /// The text form (see [`fmt::Display`]) without allocating, for
    /// writers that encode one row per puzzle.
    pub fn to_bytes(&self) -> [u8; TEXT_LEN] {
        let mut out = [0u8; TEXT_LEN];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            out[at..at + bytes.len()].copy_from_slice(bytes);
            at += bytes.len();
        };
        put(if self.transpose { b"T" } else { b"N" });
        put(b";rows=");
        put(&self.rows.map(|r| b'0' + r));
        put(b";cols=");
        put(&self.cols.map(|c| b'0' + c));
        put(b";digits=");
        let mut digits = [0u8; 9];
        digits.copy_from_slice(&self.digits[1..]);
        put(&digits.map(|d| b'0' + d));
        out
    }
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The text form is ASCII by construction.
        f.write_str(std::str::from_utf8(&self.to_bytes()).map_err(|_| fmt::Error)?)
    }
}

/// Parses exactly nine decimal digits.
fn nine_digits(text: &str) -> Option<[u8; 9]> {
    let bytes = text.as_bytes();
    if bytes.len() != 9 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut out = [0u8; 9];
    for (o, &b) in out.iter_mut().zip(bytes) {
        *o = b - b'0';
    }
    Some(out)
}

impl FromStr for Transform {
    type Err = TransformError;

    /// Parses the text form written by [`fmt::Display`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut fields = s.trim().split(';');
        let transpose = match fields.next() {
            Some("T") => true,
            Some("N") => false,
            _ => return Err(TransformError::Syntax),
        };
        let mut field = |name: &str| {
            fields
                .next()
                .and_then(|f| f.strip_prefix(name))
                .and_then(|f| f.strip_prefix('='))
                .and_then(nine_digits)
                .ok_or(TransformError::Syntax)
        };
        let rows = field("rows")?;
        let cols = field("cols")?;
        let digits = field("digits")?;
        if fields.next().is_some() {
            return Err(TransformError::Syntax);
        }
        Transform::from_parts(transpose, rows, cols, digits)
    }
}
