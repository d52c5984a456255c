//! Reading puzzles: the record parsers for every input format we accept,
//! and the errors they report. A malformed record is data (a
//! [`ParseError`]), never a panic.

use std::fmt;

use crate::grid::{Grid, CELLS};

/// What is wrong with a malformed record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// A multi-line grid cut short by the end of the input.
    Truncated {
        /// Rows of the grid that were read.
        rows: u32,
    },
    /// A block-grid row without exactly nine cells.
    BadRow {
        /// Cells found in the row.
        found: u32,
    },
    /// A CSV record without the puzzle column.
    MissingColumn,
    /// The count line of a batch file (Luogu P10481) is not a number.
    BadCount,
}

/// A malformed record: what is wrong and at which 1-based column (0 when
/// the problem is not at one place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// 1-based column (byte offset) of the problem within its line, or 0.
    pub col: u32,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::TooShort { found } => {
                write!(f, "expected 81 cells, found {found}")
            }
            ParseErrorKind::BadChar { byte } => {
                if byte.is_ascii_graphic() {
                    write!(f, "bad character '{}' at column {}", byte as char, self.col)
                } else {
                    write!(f, "bad byte 0x{byte:02x} at column {}", self.col)
                }
            }
            ParseErrorKind::TooLong { found } => {
                write!(f, "expected 81 cells, found {found}")
            }
            ParseErrorKind::Empty => f.write_str("empty record"),
            ParseErrorKind::Truncated { rows } => {
                write!(f, "grid cut short: {rows} of 9 rows before end of input")
            }
            ParseErrorKind::BadRow { found } => {
                write!(f, "grid row has {found} cells, expected 9")
            }
            ParseErrorKind::MissingColumn => f.write_str("missing puzzle column"),
            ParseErrorKind::BadCount => f.write_str("first line is not a puzzle count"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The value of one cell character: `Some(0)` for a blank (`.`, `0`, `-`,
/// `_`, `*`), `Some(d)` for a digit 1-9, `None` otherwise.
#[inline(always)]
pub fn cell_value(byte: u8) -> Option<u8> {
    match byte {
        b'1'..=b'9' => Some(byte - b'0'),
        b'.' | b'0' | b'-' | b'_' | b'*' => Some(0),
        _ => None,
    }
}

/// Parses one puzzle in line form: 81 cell characters, then optional
/// trailing text (a comment, a rating, an identifier) that is ignored
/// provided it is separated from the cells by whitespace, a comma, a tab or
/// a `;`/`#`/`|`. A trailing `\r` is ignored.
pub fn parse_line(line: &[u8]) -> Result<Grid, ParseError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
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

mod reader;
pub use reader::{InputFormat, Record, RecordReader};
