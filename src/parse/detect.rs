//! Input formats and their detection. [`InputFormat`] names the layouts
//! the readers understand; [`detect`] picks one from the first meaningful
//! line of the input, so a user never has to say what a file is.

use std::fmt;
use std::str::FromStr;

use super::block::{classify_row, RowClass};
use super::cell_value;
use crate::grid::CELLS;

/// Which input format to read. `Auto` detects from the first lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect the format from the first meaningful line.
    #[default]
    Auto,
    /// One puzzle per line: 81 cells, then optional trailing text.
    Line,
    /// A header row, then one puzzle per row (Kaggle style), optionally
    /// with a solution column.
    Csv,
    /// Grids of nine rows of nine cells (NOIP 2009 layout), box separators
    /// allowed.
    Block,
    /// A count line, then that many block grids (Luogu P10481).
    Luogu,
    /// Line format ended by a line `end` (POJ 3074).
    Poj,
}

impl InputFormat {
    /// Every format, in the order listed to users.
    pub const ALL: [InputFormat; 6] = [
        InputFormat::Auto,
        InputFormat::Line,
        InputFormat::Csv,
        InputFormat::Block,
        InputFormat::Luogu,
        InputFormat::Poj,
    ];

    /// The format's name as accepted by [`InputFormat::from_str`].
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Line => "line",
            InputFormat::Csv => "csv",
            InputFormat::Block => "block",
            InputFormat::Luogu => "luogu",
            InputFormat::Poj => "poj",
        }
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for InputFormat {
    type Err = String;

    /// Parses a format name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<InputFormat, String> {
        let name = s.trim();
        InputFormat::ALL
            .into_iter()
            .find(|f| f.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let choices: Vec<&str> = InputFormat::ALL.iter().map(|f| f.as_str()).collect();
                format!(
                    "unknown input format '{s}' (expected one of: {})",
                    choices.join(", ")
                )
            })
    }
}

/// Parses a Luogu count line: 1 to 8 ASCII digits, surrounding whitespace
/// allowed.
pub(crate) fn parse_count(line: &[u8]) -> Option<u64> {
    let t = line.trim_ascii();
    if t.is_empty() || t.len() > 8 || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(t.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// True when `line` begins with 81 cell characters.
fn starts_with_grid(line: &[u8]) -> bool {
    line.len() >= CELLS && line[..CELLS].iter().all(|&b| cell_value(b).is_some())
}

/// True when `line` has no control bytes other than tab (non-ASCII bytes,
/// e.g. UTF-8 header names, are allowed).
fn is_text(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b'\t' || (b >= 0x20 && b != 0x7F))
}

/// The format of an input whose first meaningful (non-blank, non-comment)
/// line is `line` (BOM and line end already removed; may be only the start
/// of an overlong line). Never returns `Auto`.
pub(crate) fn detect(line: &[u8]) -> InputFormat {
    let t = line.trim_ascii();
    if parse_count(t).is_some() {
        return InputFormat::Luogu;
    }
    if starts_with_grid(t) {
        // POJ files are read as line files: `end` is skipped there.
        return InputFormat::Line;
    }
    if t.contains(&b',') && is_text(t) {
        // A header row, or a headerless row whose first field is not a
        // bare grid (e.g. a quoted one): the CSV reader sorts these out.
        // Binary junk with a comma is not a header: it is read as lines so
        // that every line of it becomes an (invalid) record.
        return InputFormat::Csv;
    }
    match classify_row(t) {
        RowClass::Row(_) | RowClass::Separator => InputFormat::Block,
        _ => InputFormat::Line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_errors_list_choices() {
        for f in InputFormat::ALL {
            assert_eq!(f.as_str().parse::<InputFormat>(), Ok(f));
            assert_eq!(f.to_string(), f.as_str());
        }
        assert_eq!("CSV".parse::<InputFormat>(), Ok(InputFormat::Csv));
        let err = "xml".parse::<InputFormat>().unwrap_err();
        assert!(err.contains("'xml'"), "{err}");
        assert!(err.contains("auto, line, csv, block, luogu, poj"), "{err}");
    }

    #[test]
    fn count_lines() {
        assert_eq!(parse_count(b"2"), Some(2));
        assert_eq!(parse_count(b" 12345678 "), Some(12_345_678));
        assert_eq!(parse_count(b"123456789"), None);
        assert_eq!(parse_count(b""), None);
        assert_eq!(parse_count(b"2 3"), None);
        assert_eq!(parse_count(b"-2"), None);
    }

    #[test]
    fn detects_each_format_from_its_first_line() {
        let line =
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        assert_eq!(detect(line), InputFormat::Line);
        let mut with_rating = line.to_vec();
        with_rating.extend_from_slice(b" 3.4 hard,ish");
        assert_eq!(detect(&with_rating), InputFormat::Line);
        let mut kaggle_headerless = line.to_vec();
        kaggle_headerless.extend_from_slice(b",123");
        assert_eq!(detect(&kaggle_headerless), InputFormat::Line);
        assert_eq!(detect(b"quizzes,solutions"), InputFormat::Csv);
        assert_eq!(detect(b"\"Puzzle\" , Solution"), InputFormat::Csv);
        assert_eq!(
            detect(b"id,puzzle,solution,clues,difficulty"),
            InputFormat::Csv
        );
        let mut quoted = b"\"".to_vec();
        quoted.extend_from_slice(line);
        quoted.extend_from_slice(b"\",x");
        assert_eq!(detect(&quoted), InputFormat::Csv);
        assert_eq!(detect(b"2"), InputFormat::Luogu);
        assert_eq!(detect(b"7 0 0 9 0 0 0 0 1"), InputFormat::Block);
        assert_eq!(detect(b"700900001"), InputFormat::Block);
        assert_eq!(detect(b"7.. |9.. |..1"), InputFormat::Block);
        assert_eq!(detect(b"------+-------+------"), InputFormat::Block);
        assert_eq!(detect(b"-----------"), InputFormat::Block);
        assert_eq!(detect(b"hello world"), InputFormat::Line);
        assert_eq!(detect(b"\x00\xff\xfe"), InputFormat::Line);
        assert_eq!(detect(b"\x8e\x01,\x02"), InputFormat::Line);
        assert_eq!(detect("题目,答案".as_bytes()), InputFormat::Csv);
        assert_eq!(detect(b"1234"), InputFormat::Luogu);
    }
}
