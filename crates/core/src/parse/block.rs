//! The block layout: a grid written as nine rows of nine cells, with or
//! without spaces between cells (the NOIP 2009 "target Sudoku" input is
//! nine lines like `7 0 0 9 0 0 0 0 1`), box separators allowed (`|`
//! inside rows, lines like `------+-------+------`). Used by the block and
//! Luogu readers; a malformed row spoils only its own grid, and the reader
//! still consumes nine rows so the next grid stays aligned.

use std::io::{self, BufRead};

use super::lines::{is_blank, is_comment, Lines, MAX_LINE_BYTES};
use super::{cell_value, ParseError, ParseErrorKind};
use crate::grid::{Grid, CELLS};

/// What one physical line of a block file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowClass {
    /// Empty or whitespace only: ends a grid early.
    Blank,
    /// First non-whitespace byte is `#`: skipped.
    Comment,
    /// A box separator such as `------+------+------`: skipped.
    Separator,
    /// Nine cells (after dropping spaces, tabs and `|`).
    Row([u8; 9]),
    /// Anything else: a row that spoils its grid.
    Bad {
        /// Cells found in the line.
        found: u32,
        /// The first byte that is neither a cell nor a separator, if any.
        byte: Option<u8>,
        /// 1-based column of that byte, or of the tenth cell when there
        /// are too many, or just past the end when too few.
        col: u32,
    },
}

/// Bytes dropped between the cells of a row.
#[inline]
fn is_row_gap(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'|')
}

/// Classifies one line (line end already removed).
///
/// A separator line is made only of `-`, `+`, `=`, `|`, spaces and tabs and
/// has a `+`, a `=` or more than nine dashes; a row of nine `-` is a row of
/// blanks, since `-` is also a blank cell.
pub(crate) fn classify_row(line: &[u8]) -> RowClass {
    if is_blank(line) {
        return RowClass::Blank;
    }
    if is_comment(line) {
        return RowClass::Comment;
    }
    let mut cells = [0u8; 9];
    let mut found = 0u32;
    let mut bad: Option<(u8, u32)> = None;
    let mut tenth_col = 0u32;
    let mut dashes = 0u32;
    let mut plus_or_equals = false;
    let mut only_separator_bytes = true;
    for (i, &b) in line.iter().enumerate() {
        match b {
            b'-' => dashes += 1,
            b'+' | b'=' => plus_or_equals = true,
            b' ' | b'\t' | b'|' => {}
            _ => only_separator_bytes = false,
        }
        if is_row_gap(b) {
            continue;
        }
        match cell_value(b) {
            Some(v) => {
                if let Some(cell) = cells.get_mut(found as usize) {
                    *cell = v;
                } else if found == 9 {
                    tenth_col = i as u32 + 1;
                }
                found += 1;
            }
            None => {
                if bad.is_none() {
                    bad = Some((b, i as u32 + 1));
                }
            }
        }
    }
    if only_separator_bytes && (plus_or_equals || dashes > 9) {
        return RowClass::Separator;
    }
    match bad {
        None if found == 9 => RowClass::Row(cells),
        Some((byte, col)) => RowClass::Bad {
            found,
            byte: Some(byte),
            col,
        },
        None => RowClass::Bad {
            found,
            byte: None,
            col: if found > 9 {
                tenth_col
            } else {
                line.len() as u32 + 1
            },
        },
    }
}

/// The error for a bad row `row` (1-based) of a grid.
fn row_error(row: u32, found: u32, byte: Option<u8>, col: u32) -> ParseError {
    match byte {
        Some(byte) => ParseError::new(ParseErrorKind::BadCharInRow { row, byte }, col),
        None => ParseError::new(ParseErrorKind::BadRow { row, found }, col),
    }
}

/// Reads the next grid: skips blank, comment and separator lines before
/// it, then takes nine rows (separators and comments inside are skipped).
/// Returns the line of its first row and the grid, or the first problem
/// found in it; `None` at the end of input with no grid started. With
/// `written`, the grid's lines from its first row to its last (box and
/// comment lines between them included) are appended to it, joined by
/// `\n`.
pub(crate) fn read_grid<R: BufRead>(
    lines: &mut Lines<R>,
    mut written: Option<&mut Vec<u8>>,
) -> io::Result<Option<(u64, Result<Grid, ParseError>)>> {
    let mut cells = [0u8; CELLS];
    let mut rows = 0u32;
    let mut first_line = 0u64;
    let mut error: Option<ParseError> = None;
    loop {
        if !lines.next_line()? {
            if rows == 0 {
                return Ok(None);
            }
            let truncated = ParseError::new(ParseErrorKind::Truncated { rows }, 0);
            return Ok(Some((first_line, Err(error.unwrap_or(truncated)))));
        }
        let class = if lines.overlong() {
            // Only the start of the line is known: a bad row whatever it is.
            None
        } else {
            Some(classify_row(lines.line()))
        };
        match class {
            Some(RowClass::Blank) if rows == 0 => continue,
            Some(RowClass::Blank) => {
                let truncated = ParseError::new(ParseErrorKind::Truncated { rows }, 0);
                return Ok(Some((first_line, Err(error.unwrap_or(truncated)))));
            }
            Some(RowClass::Comment | RowClass::Separator) => {
                if let Some(text) = written.as_deref_mut().filter(|_| rows > 0) {
                    text.push(b'\n');
                    text.extend_from_slice(lines.line());
                }
                continue;
            }
            Some(RowClass::Row(values)) => {
                let start = rows as usize * 9;
                cells[start..start + 9].copy_from_slice(&values);
            }
            Some(RowClass::Bad { found, byte, col }) => {
                error.get_or_insert(row_error(rows + 1, found, byte, col));
            }
            None => {
                let limit = MAX_LINE_BYTES as u32;
                error.get_or_insert(ParseError::new(ParseErrorKind::LineTooLong { limit }, 0));
            }
        }
        if rows == 0 {
            first_line = lines.line_no();
        }
        if let Some(text) = written.as_deref_mut() {
            if rows > 0 {
                text.push(b'\n');
            }
            text.extend_from_slice(lines.line());
        }
        rows += 1;
        if rows == 9 {
            let result = match error {
                Some(e) => Err(e),
                None => Ok(Grid::from_cells(cells).unwrap_or_default()),
            };
            return Ok(Some((first_line, result)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn grids(input: &[u8]) -> Vec<(u64, Result<Grid, ParseError>)> {
        let src = io::Cursor::new(Vec::new()).chain(input);
        let mut lines = Lines::new(src);
        let mut out = Vec::new();
        while let Some(g) = read_grid(&mut lines, None).unwrap() {
            out.push(g);
        }
        out
    }

    #[test]
    fn classifies_rows_and_separators() {
        let row = |s: &[u8]| match classify_row(s) {
            RowClass::Row(v) => v,
            other => panic!("{:?} -> {other:?}", String::from_utf8_lossy(s)),
        };
        assert_eq!(row(b"7 0 0 9 0 0 0 0 1"), [7, 0, 0, 9, 0, 0, 0, 0, 1]);
        assert_eq!(row(b"700900001"), [7, 0, 0, 9, 0, 0, 0, 0, 1]);
        assert_eq!(row(b" 7.- | 9_* |\t..1 "), [7, 0, 0, 9, 0, 0, 0, 0, 1]);
        assert_eq!(row(b"---------"), [0; 9]);
        assert_eq!(row(b"|---|---|---|"), [0; 9]);
        for sep in [
            &b"------+-------+------"[..],
            b"-----------",
            b"---+---+---",
            b"=========",
            b" - - - + - - - + - - - ",
        ] {
            assert_eq!(classify_row(sep), RowClass::Separator, "{sep:?}");
        }
        assert_eq!(classify_row(b"  \t"), RowClass::Blank);
        assert_eq!(classify_row(b" # x"), RowClass::Comment);
        assert_eq!(
            classify_row(b"7 0 0 9 0 0 0 0"),
            RowClass::Bad {
                found: 8,
                byte: None,
                col: 16
            }
        );
        assert_eq!(
            classify_row(b"1234567891"),
            RowClass::Bad {
                found: 10,
                byte: None,
                col: 10
            }
        );
        assert_eq!(
            classify_row(b"7 0 x 9 0 0 0 0 1"),
            RowClass::Bad {
                found: 8,
                byte: Some(b'x'),
                col: 5
            }
        );
        assert!(matches!(
            classify_row(b"-- --"),
            RowClass::Bad { found: 4, .. }
        ));
    }

    const NOIP1: &[u8] = b"7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n\
2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";

    #[test]
    fn reads_noip_grid_and_boxed_grid() {
        let got = grids(NOIP1);
        assert_eq!(got.len(), 1);
        let g = got[0].1.unwrap();
        assert_eq!(got[0].0, 1);
        assert_eq!(g.get(0), 7);
        assert_eq!(g.get(3), 9);
        assert_eq!(g.get(80), 2);
        assert_eq!(g.given_count(), 30);
        let boxed = b"\n# boxed\n7..|9..|..1\n1..|..5|9..\n...|2..|.8.\n---+---+---\n\
..5|.2.|..3\n......|648\n413|...|...\n===========\n..7|..2|.9.\n2.1|.6.|8.4\n.8.|5.4|.12\n";
        let got = grids(boxed);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, 3);
        assert_eq!(got[0].1, Ok(g));
    }

    #[test]
    fn bad_row_spoils_only_its_grid() {
        let mut input = NOIP1.to_vec();
        input[2] = b'x'; // row 1, column 3
        input.extend_from_slice(b"\n");
        input.extend_from_slice(NOIP1);
        let got = grids(&input);
        assert_eq!(got.len(), 2);
        let e = got[0].1.unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadCharInRow { row: 1, byte: b'x' });
        assert_eq!(e.col, 3);
        assert_eq!(e.to_string(), "grid row 1: bad character 'x' at column 3");
        assert_eq!(got[1].0, 11);
        assert!(got[1].1.is_ok());

        // A short row in the middle: still nine rows consumed.
        let mut input = NOIP1.to_vec();
        let row5 = 4 * 18;
        input.drain(row5..row5 + 2); // row 5 loses one cell
        input.extend_from_slice(NOIP1);
        let got = grids(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0].1.unwrap_err().kind,
            ParseErrorKind::BadRow { row: 5, found: 8 }
        );
        assert!(got[1].1.is_ok());
    }

    #[test]
    fn truncated_by_blank_line_or_end_of_input() {
        let mut input = NOIP1[..3 * 18].to_vec();
        input.extend_from_slice(b"\n");
        input.extend_from_slice(NOIP1);
        input.extend_from_slice(&NOIP1[..5 * 18 - 1]); // no final newline
        let got = grids(&input);
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0].1.unwrap_err().kind,
            ParseErrorKind::Truncated { rows: 3 }
        );
        assert_eq!(got[1].0, 5);
        assert!(got[1].1.is_ok());
        assert_eq!(got[2].0, 14);
        let e = got[2].1.unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Truncated { rows: 5 });
        assert_eq!(e.to_string(), "grid cut short after 5 of 9 rows");
    }

    #[test]
    fn overlong_row_is_a_bad_row() {
        let mut input = NOIP1[..18].to_vec();
        input.extend_from_slice(&vec![b'1'; MAX_LINE_BYTES * 3]);
        input.extend_from_slice(&NOIP1[2 * 18..]);
        let got = grids(&input);
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].1.unwrap_err().kind,
            ParseErrorKind::LineTooLong {
                limit: MAX_LINE_BYTES as u32
            }
        );
    }
}
