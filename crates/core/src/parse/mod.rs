//! Reading puzzles: the record parsers for every input format we accept,
//! and the errors they report. A malformed record is data (a
//! [`ParseError`]), never a panic.
//!
//! - [`parse_line`] / [`cell_value`]: the 81-character line form, the hot
//!   path of every line-based corpus.
//! - [`InputFormat`] and [`RecordReader`]: streaming readers for the line,
//!   POJ 3074, Kaggle CSV, block (NOIP 2009) and Luogu P10481 layouts,
//!   with format detection. Memory per record is bounded: physical lines
//!   are capped at [`MAX_LINE_BYTES`] however long the input line is.

use std::fmt;

use crate::grid::{Grid, CELLS};

mod block;
mod csv_input;
mod detect;
mod jsonl;
mod lines;
mod reader;

pub use csv_input::ExpectedColumn;
pub use detect::InputFormat;
pub use reader::{InputLayout, ReadOptions, Record, RecordReader};

/// What is wrong with a malformed record.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, ParseErrorKind};
/// let kind = |line: &[u8]| parse_line(line).unwrap_err().kind;
/// assert_eq!(kind(b"12x"), ParseErrorKind::BadChar { byte: b'x' });
/// assert_eq!(kind(b"123"), ParseErrorKind::TooShort { found: 3 });
/// assert_eq!(kind(b""), ParseErrorKind::Empty);
/// assert_eq!(kind(&[b'1'; 90]), ParseErrorKind::TooLong { found: 90 });
///
/// // New kinds may be added: match with a wildcard arm.
/// let hint = match kind(b"12x") {
///     ParseErrorKind::BadChar { .. } => "use digits and '.' only",
///     ParseErrorKind::TooShort { .. } | ParseErrorKind::TooLong { .. } => "use 81 cells",
///     _ => "see the error message",
/// };
/// assert_eq!(hint, "use digits and '.' only");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Fewer than 81 cells before the end of the line or record.
    TooShort {
        /// Cells found.
        found: u32,
    },
    /// A byte that is neither a digit nor an accepted blank.
    BadChar {
        /// The offending byte.
        byte: u8,
    },
    /// More than 81 cell characters in a row.
    TooLong {
        /// Cell characters found.
        found: u32,
    },
    /// The record holds no cells at all (e.g. an empty CSV field).
    Empty,
    /// A multi-line grid cut short by a blank line or the end of the input.
    Truncated {
        /// Rows of the grid that were read.
        rows: u32,
    },
    /// A block-grid row without exactly nine cells.
    BadRow {
        /// 1-based row of the grid (the record's line is the first row's).
        row: u32,
        /// Cells found in the row.
        found: u32,
    },
    /// A block-grid row holding a byte that is not a cell or a separator.
    BadCharInRow {
        /// 1-based row of the grid.
        row: u32,
        /// The offending byte.
        byte: u8,
    },
    /// A CSV record without the column this value comes from. For this
    /// kind [`ParseError::col`] is the 1-based CSV field number.
    MissingColumn,
    /// The count line of a batch file (Luogu P10481) is not a number.
    BadCount,
    /// A batch file (Luogu P10481) ends before the promised number of
    /// grids. Reported once, as an extra record after the last grid.
    MissingGrids {
        /// Grids (complete or not) found in the input.
        found: u64,
        /// Grids promised by the count line.
        promised: u64,
    },
    /// A physical line longer than the readers keep (`limit`, 4096
    /// bytes); only its start was kept, so the record is rejected whatever
    /// it holds.
    LineTooLong {
        /// The cap that was exceeded, in bytes.
        limit: u32,
    },
    /// An expected solution (CSV solution column) with blank cells.
    Incomplete {
        /// Blank cells in it.
        blanks: u32,
    },
    /// A CSV record with a quoted field that does not close within the
    /// bounds a quoted field has (see [`RecordReader`]); the record is its
    /// first line alone, and the lines after it are read as records again.
    /// [`ParseError::col`] is the column of the opening quote.
    UnclosedQuote,
    /// A JSONL line that is not one JSON object (RFC 8259);
    /// [`ParseError::col`] is where it stops being one.
    NotJsonObject,
    /// A JSONL object without the key the value comes from.
    MissingKey,
    /// A JSONL value that should be a string (a puzzle) and is not;
    /// [`ParseError::col`] is where the value starts.
    NotText,
}

/// A malformed record: what is wrong and at which 1-based column (0 when
/// the problem is not at one place).
///
/// Its `Display` is the short message the command-line tool writes in the
/// `error` column.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, ParseError, ParseErrorKind};
/// let err: ParseError = parse_line(b"12x").unwrap_err();
/// assert_eq!(err.kind, ParseErrorKind::BadChar { byte: b'x' });
/// assert_eq!(err.col, 3);
/// assert_eq!(err.to_string(), "bad character 'x' at column 3");
///
/// // Line 40 cells long: the cells ran out at column 41.
/// let err = parse_line(&[b'.'; 40]).unwrap_err();
/// assert_eq!(err, ParseError::new(ParseErrorKind::TooShort { found: 40 }, 41));
/// assert_eq!(err.to_string(), "expected 81 cells, found 40");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// 1-based column (byte offset) of the problem within its line, or 0.
    /// For [`ParseErrorKind::MissingColumn`] it is the CSV field number.
    pub col: u32,
}

impl ParseError {
    /// An error of `kind` at 1-based column `col` (0: not at one place).
    pub const fn new(kind: ParseErrorKind, col: u32) -> ParseError {
        ParseError { kind, col }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = self.col;
        match self.kind {
            ParseErrorKind::TooShort { found } => {
                write!(f, "expected 81 cells, found {found}")
            }
            ParseErrorKind::BadChar { byte } => {
                write!(f, "bad {} at column {col}", ShowByte(byte))
            }
            ParseErrorKind::TooLong { found } => {
                write!(f, "expected 81 cells, found {found}")
            }
            ParseErrorKind::Empty => f.write_str("empty record"),
            ParseErrorKind::Truncated { rows } => {
                write!(f, "grid cut short after {rows} of 9 rows")
            }
            ParseErrorKind::BadRow { row, found } => {
                write!(f, "grid row {row} has {found} cells, expected 9")
            }
            ParseErrorKind::BadCharInRow { row, byte } => {
                write!(f, "grid row {row}: bad {} at column {col}", ShowByte(byte))
            }
            ParseErrorKind::MissingColumn => write!(f, "missing CSV column {col}"),
            ParseErrorKind::BadCount => f.write_str("first line is not a puzzle count"),
            ParseErrorKind::MissingGrids { found, promised } => {
                write!(f, "input ends after {found} of {promised} promised grids")
            }
            ParseErrorKind::LineTooLong { limit } => {
                write!(f, "line longer than {limit} bytes")
            }
            ParseErrorKind::Incomplete { blanks } => {
                write!(f, "solution has {blanks} blank cells")
            }
            ParseErrorKind::UnclosedQuote => {
                write!(f, "unclosed quote starting at column {col}")
            }
            ParseErrorKind::NotJsonObject if col > 0 => {
                write!(f, "not a JSON object (at column {col})")
            }
            ParseErrorKind::NotJsonObject => f.write_str("not a JSON object"),
            ParseErrorKind::MissingKey => f.write_str("the JSON object has no puzzle key"),
            ParseErrorKind::NotText if col > 0 => {
                write!(f, "the value at column {col} is not a JSON string")
            }
            ParseErrorKind::NotText => f.write_str("the puzzle is not a JSON string"),
        }
    }
}

/// Displays a byte as `character 'x'` when printable, else `byte 0x..`.
struct ShowByte(u8);

impl fmt::Display for ShowByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_ascii_graphic() {
            write!(f, "character '{}'", self.0 as char)
        } else {
            write!(f, "byte 0x{:02x}", self.0)
        }
    }
}

impl std::error::Error for ParseError {}

/// The value of one cell character: `Some(0)` for a blank (`.`, `0`, `-`,
/// `_`, `*`), `Some(d)` for a digit 1-9, `None` otherwise.
#[inline(always)]
pub fn cell_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        _ if is_blank_mark(byte) => Some(0),
        _ => None,
    }
}

/// A blank written other than as `0`: `.`, `-`, `_` or `*`.
#[inline(always)]
fn is_blank_mark(byte: u8) -> bool {
    byte == b'.' || byte == b'-' || byte == b'_' || byte == b'*'
}

/// Parses one puzzle in line form: 81 cell characters, then optional
/// trailing text (a comment, a rating, an identifier) that is ignored
/// provided it is separated from the cells by whitespace, a comma, a tab or
/// a `;`/`#`/`|`. A trailing `\r` is ignored.
///
/// Blanks may be written `.`, `0`, `-`, `_` or `*`. A malformed line gives
/// a [`ParseError`] saying what is wrong and where.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, ParseErrorKind};
/// let line =
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let puzzle = parse_line(line).unwrap();
/// assert_eq!(puzzle.given_count(), 32);
/// assert_eq!(puzzle.get(2), 3); // row 0, column 2
/// assert_eq!(&puzzle.to_line()[..], &line[..]);
///
/// // Trailing text after a separator is ignored; `0` blanks read the same.
/// let zeros: Vec<u8> = line.iter().map(|&b| if b == b'.' { b'0' } else { b }).collect();
/// assert_eq!(parse_line(&[&zeros[..], b" # from the NOIP set"].concat()), Ok(puzzle));
///
/// let err = parse_line(b"12x").unwrap_err();
/// assert_eq!((err.kind, err.col), (ParseErrorKind::BadChar { byte: b'x' }, 3));
/// ```
pub fn parse_line(line: &[u8]) -> Result<Grid, ParseError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // Fast path, branch-free over the cells: a well-formed line.
    if let Some(head) = line.first_chunk::<CELLS>() {
        // Byte arithmetic and compares only (no table lookups), so the
        // loop compiles to a few vector instructions per 16 cells.
        let mut cells = [0u8; CELLS];
        let mut bad = false;
        for (cell, &b) in cells.iter_mut().zip(head) {
            let digit = b.wrapping_sub(b'0');
            let is_digit = digit <= 9;
            bad |= !(is_digit | is_blank_mark(b));
            *cell = if is_digit { digit } else { 0 };
        }
        let ends_well = match line.get(CELLS) {
            Some(&b) => is_separator(b),
            None => true,
        };
        if !bad && ends_well {
            if let Some(grid) = Grid::from_cells(cells) {
                return Ok(grid);
            }
        }
    }
    parse_line_error(line)
}

/// The slow path of [`parse_line`]: finds what is wrong with a line that
/// failed the fast path (and still returns the grid should it be fine).
#[cold]
fn parse_line_error(line: &[u8]) -> Result<Grid, ParseError> {
    if line.is_empty() {
        return Err(ParseError {
            kind: ParseErrorKind::Empty,
            col: 0,
        });
    }
    let mut cells = [0u8; CELLS];
    for (i, cell) in cells.iter_mut().enumerate() {
        let Some(&b) = line.get(i) else {
            return Err(ParseError {
                kind: ParseErrorKind::TooShort { found: i as u32 },
                col: i as u32 + 1,
            });
        };
        match cell_value(b) {
            Some(v) => *cell = v,
            None => {
                // A separator inside the first 81 bytes means the cells ran
                // out early; anything else is a bad character.
                let kind = if is_separator(b) {
                    ParseErrorKind::TooShort { found: i as u32 }
                } else {
                    ParseErrorKind::BadChar { byte: b }
                };
                return Err(ParseError {
                    kind,
                    col: i as u32 + 1,
                });
            }
        }
    }
    if let Some(&next) = line.get(CELLS) {
        if !is_separator(next) {
            let kind = if cell_value(next).is_some() {
                ParseErrorKind::TooShort { found: 0 }
            } else {
                ParseErrorKind::BadChar { byte: next }
            };
            let kind = match kind {
                // More cell characters than 81: report the length.
                ParseErrorKind::TooShort { .. } => ParseErrorKind::TooLong {
                    found: line
                        .iter()
                        .take_while(|&&b| cell_value(b).is_some())
                        .count() as u32,
                },
                k => k,
            };
            return Err(ParseError {
                kind,
                col: CELLS as u32 + 1,
            });
        }
    }
    Ok(Grid::from_cells(cells).expect("cell values are 0..=9"))
}

/// Bytes that may separate the 81 cells from trailing text.
#[inline]
pub fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b';' | b'#' | b'|' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const P: &[u8] = crate::testdata::EASY.as_bytes();

    fn err(line: &[u8]) -> ParseError {
        parse_line(line).expect_err("should be rejected")
    }

    #[test]
    fn parses_lines_with_any_blank_and_trailing_text() {
        let g = parse_line(P).unwrap();
        assert_eq!(g.given_count(), 32);
        assert_eq!(g.get(2), 3);
        let zeros: Vec<u8> = P
            .iter()
            .map(|&b| if b == b'.' { b'0' } else { b })
            .collect();
        assert_eq!(parse_line(&zeros), Ok(g));
        for tail in [
            &b"\r"[..],
            b" x",
            b"\tx",
            b",x",
            b";x",
            b"#x",
            b"|x",
            b"|\xff\x00",
        ] {
            assert_eq!(parse_line(&[P, tail].concat()), Ok(g), "{tail:?}");
        }
    }

    #[test]
    fn reports_what_is_wrong_and_where() {
        assert_eq!(err(b"").kind, ParseErrorKind::Empty);
        assert_eq!(err(b"\r").kind, ParseErrorKind::Empty);
        let e = err(&P[..40]);
        assert_eq!(
            (e.kind, e.col),
            (ParseErrorKind::TooShort { found: 40 }, 41)
        );
        let e = err(&[&P[..40], b" ", &P[40..]].concat());
        assert_eq!(
            (e.kind, e.col),
            (ParseErrorKind::TooShort { found: 40 }, 41)
        );
        let e = err(&[P, b"1234"].concat());
        assert_eq!((e.kind, e.col), (ParseErrorKind::TooLong { found: 85 }, 82));
        let mut bad = P.to_vec();
        bad[7] = b'x';
        let e = err(&bad);
        assert_eq!((e.kind, e.col), (ParseErrorKind::BadChar { byte: b'x' }, 8));
        let e = err(&[P, b"x"].concat());
        assert_eq!(
            (e.kind, e.col),
            (ParseErrorKind::BadChar { byte: b'x' }, 82)
        );
        bad[7] = 0xC3;
        assert_eq!(err(&bad).to_string(), "bad byte 0xc3 at column 8");
    }

    #[test]
    fn messages_are_short_and_name_the_column() {
        let msg = |kind, col| ParseError::new(kind, col).to_string();
        use ParseErrorKind::*;
        assert_eq!(msg(TooShort { found: 3 }, 4), "expected 81 cells, found 3");
        assert_eq!(
            msg(TooLong { found: 90 }, 82),
            "expected 81 cells, found 90"
        );
        assert_eq!(
            msg(BadChar { byte: b'x' }, 5),
            "bad character 'x' at column 5"
        );
        assert_eq!(msg(Empty, 0), "empty record");
        assert_eq!(
            msg(Truncated { rows: 4 }, 0),
            "grid cut short after 4 of 9 rows"
        );
        assert_eq!(
            msg(BadRow { row: 2, found: 8 }, 16),
            "grid row 2 has 8 cells, expected 9"
        );
        assert_eq!(
            msg(BadCharInRow { row: 3, byte: 0 }, 7),
            "grid row 3: bad byte 0x00 at column 7"
        );
        assert_eq!(msg(MissingColumn, 2), "missing CSV column 2");
        assert_eq!(msg(BadCount, 0), "first line is not a puzzle count");
        assert_eq!(
            msg(
                MissingGrids {
                    found: 1,
                    promised: 2
                },
                0
            ),
            "input ends after 1 of 2 promised grids"
        );
        assert_eq!(
            msg(LineTooLong { limit: 4096 }, 0),
            "line longer than 4096 bytes"
        );
        assert_eq!(
            msg(Incomplete { blanks: 3 }, 83),
            "solution has 3 blank cells"
        );
        assert_eq!(
            msg(UnclosedQuote, 83),
            "unclosed quote starting at column 83"
        );
    }

    #[test]
    fn fast_path_reads_every_byte_as_cell_value_does() {
        for b in 0..=255u8 {
            for at in [0, 40, 80] {
                let mut line = [b'.'; CELLS];
                line[at] = b;
                let parsed = parse_line(&line).ok().map(|g| g.get(at));
                assert_eq!(parsed, cell_value(b), "byte {b} at {at}");
            }
        }
    }

    proptest! {
        /// The fast path and the careful slow path agree on every line.
        #[test]
        fn fast_and_slow_paths_agree(
            cells in prop::collection::vec(prop::sample::select(b"0123456789.-_*".to_vec()), 75..88),
            tail in prop::collection::vec(prop::sample::select(b" ,;#|\rx5\xff".to_vec()), 0..4),
            flaw in prop::option::of((0usize..90, any::<u8>())),
        ) {
            let mut line = [cells, tail].concat();
            if let Some((at, byte)) = flaw {
                if let Some(b) = line.get_mut(at) {
                    *b = byte;
                }
            }
            prop_assert_eq!(parse_line(&line), parse_line_error(&line));
        }
    }
}
