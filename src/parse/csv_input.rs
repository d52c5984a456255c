//! The CSV layout (Kaggle style): a header row naming a puzzle column and
//! optionally a solution column, then one puzzle per row.
//!
//! Rows are split here, on capped physical lines, rather than by the `csv`
//! crate: with the crate, a record's `position().line()` is where the
//! previous record ended (so a blank or comment line before a record
//! shifts its reported line), and one unclosed quote makes a single record
//! swallow the rest of the file, which breaks the bounded-memory rule for
//! hostile input. Puzzle corpora never need multi-line fields, so a row is
//! one line; commas inside double quotes do not split fields, and a field's
//! surrounding quotes and whitespace are dropped.

use super::{parse_line, ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Header names (case-insensitive) of a puzzle column.
const PUZZLE_NAMES: [&[u8]; 5] = [b"quizzes", b"quiz", b"puzzle", b"puzzles", b"question"];
/// Header names (case-insensitive) of a solution column.
const SOLUTION_NAMES: [&[u8]; 4] = [b"solutions", b"solution", b"answer", b"answers"];

/// Strips surrounding ASCII whitespace, then one pair of surrounding
/// double quotes.
pub(crate) fn unquote(field: &[u8]) -> &[u8] {
    let t = field.trim_ascii();
    match t {
        [b'"', inner @ .., b'"'] => inner,
        _ => t,
    }
}

fn is_one_of(name: &[u8], names: &[&[u8]]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// True when `name` (already unquoted) names a puzzle column.
pub(crate) fn is_puzzle_header(name: &[u8]) -> bool {
    is_one_of(name, &PUZZLE_NAMES)
}

/// Splits one CSV line into fields, storing each field's byte range
/// (surrounding whitespace and quotes removed) in `fields`, which is
/// cleared first and reused across lines.
pub(crate) fn split_fields(line: &[u8], fields: &mut Vec<(u32, u32)>) {
    fields.clear();
    let mut start = 0usize;
    let mut in_quotes = false;
    for (i, &b) in line.iter().enumerate() {
        match b {
            b'"' => in_quotes = !in_quotes,
            b',' if !in_quotes => {
                fields.push(field_range(line, start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.push(field_range(line, start, line.len()));
}

/// The range of `line[start..end]` once whitespace and quotes are removed.
fn field_range(line: &[u8], start: usize, end: usize) -> (u32, u32) {
    let raw = &line[start..end];
    let inner = unquote(raw);
    // `inner` is a subslice of `raw`: recover its offset.
    let offset = inner.as_ptr() as usize - raw.as_ptr() as usize;
    let s = start + offset;
    (s as u32, (s + inner.len()) as u32)
}

/// Which fields of a row hold the puzzle and the expected solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CsvLayout {
    /// 0-based field of the puzzle.
    pub(crate) puzzle: usize,
    /// 0-based field of the expected solution, when there is one.
    pub(crate) expected: Option<usize>,
}

impl CsvLayout {
    /// The layout named by a header row (`fields` as split from `line`):
    /// the puzzle column is `column` when given (an error when the header
    /// has no such name), else the first with a known puzzle name, else
    /// the first.
    pub(crate) fn from_header(
        line: &[u8],
        fields: &[(u32, u32)],
        column: Option<&str>,
    ) -> Result<CsvLayout, String> {
        let name = |&(s, e): &(u32, u32)| &line[s as usize..e as usize];
        let puzzle_pos = match column {
            Some(wanted) => Some(
                fields
                    .iter()
                    .position(|f| name(f).eq_ignore_ascii_case(wanted.as_bytes()))
                    .ok_or_else(|| {
                        let names: Vec<String> = fields
                            .iter()
                            .map(|f| String::from_utf8_lossy(name(f)).into_owned())
                            .collect();
                        format!(
                            "no column '{wanted}' in the CSV header (columns: {})",
                            names.join(", ")
                        )
                    })?,
            ),
            None => fields.iter().position(|f| is_puzzle_header(name(f))),
        };
        let mut expected = fields
            .iter()
            .position(|f| is_one_of(name(f), &SOLUTION_NAMES))
            .filter(|&i| Some(i) != puzzle_pos);
        if expected.is_none() && fields.len() == 2 && puzzle_pos == Some(0) && column.is_none() {
            expected = Some(1);
        }
        Ok(CsvLayout {
            puzzle: puzzle_pos.unwrap_or(0),
            expected,
        })
    }

    /// The layout of a headerless file whose first row is `line`, if that
    /// row's first field is a grid: puzzle first, and an expected solution
    /// second when the second field is a complete grid.
    pub(crate) fn headerless(line: &[u8], fields: &[(u32, u32)]) -> Option<CsvLayout> {
        let field = |i: usize| fields.get(i).map(|&(s, e)| &line[s as usize..e as usize]);
        parse_line(field(0)?).ok()?;
        let expected = field(1)
            .and_then(|f| parse_line(f).ok())
            .filter(Grid::is_complete)
            .map(|_| 1);
        Some(CsvLayout {
            puzzle: 0,
            expected,
        })
    }
}

/// Parses field `index` of a row as a puzzle; columns in errors are
/// counted from the start of the line.
pub(crate) fn parse_puzzle_field(
    line: &[u8],
    fields: &[(u32, u32)],
    index: usize,
) -> Result<Grid, ParseError> {
    let Some(&(s, e)) = fields.get(index) else {
        return Err(ParseError::new(
            ParseErrorKind::MissingColumn,
            index as u32 + 1,
        ));
    };
    parse_line(&line[s as usize..e as usize]).map_err(|mut err| {
        err.col = if err.col > 0 { err.col + s } else { s + 1 };
        err
    })
}

/// Parses field `index` of a row as an expected solution: a puzzle field
/// that must also be complete.
pub(crate) fn parse_solution_field(
    line: &[u8],
    fields: &[(u32, u32)],
    index: usize,
) -> Result<Grid, ParseError> {
    let grid = parse_puzzle_field(line, fields, index)?;
    if grid.is_complete() {
        Ok(grid)
    } else {
        let blanks = (crate::grid::CELLS - grid.given_count()) as u32;
        let col = fields.get(index).map_or(0, |&(s, _)| s + 1);
        Err(ParseError::new(ParseErrorKind::Incomplete { blanks }, col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &[u8]) -> Vec<&[u8]> {
        let mut f = Vec::new();
        split_fields(line, &mut f);
        f.iter()
            .map(|&(s, e)| &line[s as usize..e as usize])
            .collect()
    }

    #[test]
    fn splits_fields_with_quotes_and_spaces() {
        assert_eq!(split(b"a,b"), vec![&b"a"[..], b"b"]);
        assert_eq!(split(b" a , \"b,c\" ,"), vec![&b"a"[..], b"b,c", b""]);
        assert_eq!(split(b""), vec![&b""[..]]);
        assert_eq!(split(b"\"unclosed,x"), vec![&b"\"unclosed,x"[..]]);
        assert_eq!(split(b"\""), vec![&b"\""[..]]);
    }

    #[test]
    fn header_layouts() {
        let layout = |line: &[u8]| {
            let mut f = Vec::new();
            split_fields(line, &mut f);
            CsvLayout::from_header(line, &f, None).unwrap()
        };
        let both = |puzzle, expected| CsvLayout { puzzle, expected };
        assert_eq!(layout(b"quizzes,solutions"), both(0, Some(1)));
        assert_eq!(layout(b"id,Puzzle,Solution,clues"), both(1, Some(2)));
        assert_eq!(layout(b"\"QUESTION\", \"answer\""), both(0, Some(1)));
        assert_eq!(layout(b"puzzle,sol"), both(0, Some(1)));
        assert_eq!(layout(b"puzzle,sol,x"), both(0, None));
        assert_eq!(layout(b"grid,rating"), both(0, None));
        assert_eq!(layout(b"rating,quiz"), both(1, None));
    }

    #[test]
    fn a_named_column_wins_or_is_an_error() {
        let named = |line: &[u8], col| {
            let mut f = Vec::new();
            split_fields(line, &mut f);
            CsvLayout::from_header(line, &f, Some(col))
        };
        let both = |puzzle, expected| CsvLayout { puzzle, expected };
        assert_eq!(named(b"id,Grid,answer", "grid"), Ok(both(1, Some(2))));
        assert_eq!(
            named(b"quizzes,solutions,other", "other"),
            Ok(both(2, Some(1)))
        );
        assert_eq!(named(b"answer,x", "answer"), Ok(both(0, None)));
        let err = named(b"id,puzzle", "board").unwrap_err();
        assert!(
            err.contains("'board'") && err.contains("id, puzzle"),
            "{err}"
        );
    }

    #[test]
    fn field_errors_name_the_line_column() {
        let line = b"abc, ..x";
        let mut f = Vec::new();
        split_fields(line, &mut f);
        let e = parse_puzzle_field(line, &f, 1).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadChar { byte: b'x' });
        assert_eq!(e.col, 8);
        let e = parse_puzzle_field(line, &f, 2).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::MissingColumn);
        assert_eq!(e.to_string(), "missing CSV column 3");
        let line = b"x,";
        split_fields(line, &mut f);
        let e = parse_puzzle_field(line, &f, 1).unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::Empty, 3));
    }

    #[test]
    fn solution_must_be_complete() {
        let solved =
            b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut line = b"p,".to_vec();
        line.extend_from_slice(solved);
        let mut f = Vec::new();
        split_fields(&line, &mut f);
        assert!(parse_solution_field(&line, &f, 1).is_ok());
        line[5] = b'.';
        line[9] = b'0';
        let e = parse_solution_field(&line, &f, 1).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Incomplete { blanks: 2 });
        assert_eq!(e.to_string(), "solution has 2 blank cells");
    }
}
