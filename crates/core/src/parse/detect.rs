//! Input formats and their detection. [`InputFormat`] names the layouts
//! the readers understand; [`detect`] picks one from the first meaningful
//! lines of the input (up to [`SAMPLE_LINES`] of them), so a user never
//! has to say what a file is.
//!
//! No single line decides, so a malformed first record stays a record:
//! a line file whose first line is junk with a comma, nine cells, a bare
//! number or braces (`{Forum puzzles, 2024}`) is still a line file,
//! because its other lines are puzzle lines. The same sample decides the
//! CSV delimiter (a note with commas in a `;`-separated file does not
//! make it comma-separated), for detection and for the CSV reader alike.
//! Only a CSV header is recognised from one line, and only by its names.
//! (Whether an input is UTF-16 text is decided before, on its first
//! decoded bytes, by the batch crate's input layer.)

use std::fmt;
use std::str::FromStr;

use super::block::{classify_row, RowClass};
use super::csv_input::{is_puzzle_header, line_fields, sniff_delimiter, CsvRecord};
use super::{cell_value, parse_line};
use crate::grid::CELLS;

/// Meaningful (not blank, not comment) lines that detection weighs.
pub(crate) const SAMPLE_LINES: usize = 16;

/// Lines of any kind looked at after the first meaningful one (bounds
/// the lookahead when meaningful lines are sparse).
pub(crate) const SAMPLE_MAX_LINES: usize = 64;

/// Which input format to read. `Auto` detects from the first lines.
///
/// # Example
/// ```
/// use batchdoku_core::{InputFormat, RecordReader};
/// let format: InputFormat = "POJ".parse().unwrap(); // names ignore case
/// assert_eq!(format, InputFormat::Poj);
/// assert_eq!(format.to_string(), "poj");
/// assert!("xml".parse::<InputFormat>().unwrap_err().contains("auto, line, csv"));
///
/// // `Auto` (the default) resolves to the format the input is in.
/// let input =
///     "quizzes\n..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
/// let reader = RecordReader::new(input.as_bytes(), InputFormat::default()).unwrap();
/// assert_eq!(reader.format(), InputFormat::Csv);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
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
    /// One JSON object per line, the puzzle under a key such as `puzzle`
    /// (what `--format jsonl` writes, so results read back in).
    Jsonl,
}

impl InputFormat {
    /// Every format, in the order listed to users.
    pub const ALL: [InputFormat; 7] = [
        InputFormat::Auto,
        InputFormat::Line,
        InputFormat::Csv,
        InputFormat::Block,
        InputFormat::Luogu,
        InputFormat::Poj,
        InputFormat::Jsonl,
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
            InputFormat::Jsonl => "jsonl",
        }
    }

    /// What the format is, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            InputFormat::Auto => "detect from the first lines",
            InputFormat::Line => "one 81-character puzzle per line",
            InputFormat::Csv => "CSV with a header (quizzes,solutions / puzzle,solution)",
            InputFormat::Block => "grids of 9 lines of 9 cells",
            InputFormat::Luogu => "Luogu P10481: a count line, then that many block grids",
            InputFormat::Poj => "POJ 3074: 81-character lines ended by a line `end`",
            InputFormat::Jsonl => "one JSON object per line (as the JSONL output writes them)",
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
        crate::names::parse_name("input format", &InputFormat::ALL, InputFormat::as_str, s)
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

/// True for a line that looks like a JSON object: `{`, then (after any
/// whitespace) a key's quote or the closing brace. `{Forum puzzles}` is
/// text in braces, not JSON.
fn looks_like_json(line: &[u8]) -> bool {
    match line.trim_ascii().strip_prefix(b"{") {
        Some(rest) => matches!(rest.trim_ascii_start().first(), Some(b'"' | b'}')),
        None => false,
    }
}

/// True for a block-grid row or box separator line.
fn is_block_row(line: &[u8]) -> bool {
    matches!(classify_row(line), RowClass::Row(_) | RowClass::Separator)
}

/// The format of an input whose meaningful (non-blank, non-comment)
/// lines begin with `sample` (BOM and line ends removed; the last may be
/// only the start of an overlong line). Never returns `Auto`. The lines
/// are weighed together: no single line decides, except a CSV header,
/// and that only by its names.
///
/// - JSONL when more lines look like JSON objects (`{` then `"` or `}`)
///   than hold a puzzle otherwise (start with a grid, are block rows, or
///   hold a grid in a later field), so a first line `{Forum puzzles}`
///   or `{"note": 1}` above puzzle lines is one invalid record of a line
///   file, and a junk line among JSON objects one of a JSONL file;
/// - CSV (fields split by `,`, `;` or tab, whichever the sample lines
///   together say: see [`sniff_delimiter`]) when the first line is a
///   header naming a puzzle column (a one-column header too), or is a row
///   whose first field is a quoted grid, or has two fields or more and,
///   with the lines after it, more lines hold a grid in a later field
///   (`id,<grid>`, headerless or under a header) than start with one;
/// - Luogu when the first line is a count and the lines after it are
///   block rows rather than puzzle lines (or there are none);
/// - block when block rows outnumber lines that start with a grid;
/// - else line format (POJ files are read as line files: `end` is
///   skipped there).
pub(crate) fn detect(sample: &[&[u8]]) -> InputFormat {
    let Some((first, rest)) = sample.split_first() else {
        return InputFormat::Line;
    };
    let first = first.trim_ascii();
    let grids = |lines: &[&[u8]]| {
        lines
            .iter()
            .filter(|l| starts_with_grid(l.trim_ascii()))
            .count()
    };
    let rows = |lines: &[&[u8]]| lines.iter().filter(|l| is_block_row(l)).count();
    let delimiter = sniff_delimiter(sample);
    let rec = std::cell::RefCell::new(CsvRecord::with_delimiter(delimiter));
    let fields_of = |l: &[u8]| line_fields(&mut rec.borrow_mut(), l);
    // A grid in a later field (`id,<grid>`), not at the start of the line.
    let inner_grid = |l: &[u8]| {
        !starts_with_grid(l.trim_ascii())
            && fields_of(l).iter().skip(1).any(|f| parse_line(f).is_ok())
    };
    let json = sample.iter().filter(|l| looks_like_json(l)).count();
    if json > 0 {
        let puzzles = sample
            .iter()
            .filter(|l| {
                !looks_like_json(l)
                    && (starts_with_grid(l.trim_ascii()) || is_block_row(l) || inner_grid(l))
            })
            .count();
        if json > puzzles {
            return InputFormat::Jsonl;
        }
    }
    // Binary junk with a comma is not a header: it is read as lines so
    // that every line of it becomes an (invalid) record.
    if is_text(first) && !starts_with_grid(first) {
        // A header or row split by `;` or tab reads as CSV as well.
        let fields = fields_of(first);
        if fields.iter().any(|f| is_puzzle_header(f)) {
            return InputFormat::Csv;
        }
        if fields.first().is_some_and(|f| parse_line(f).is_ok()) {
            return InputFormat::Csv;
        }
        if fields.len() >= 2 {
            // Rows with a grid in a later field, the first line too (a
            // headerless CSV), against lines that start with one.
            let inner = sample.iter().filter(|l| inner_grid(l)).count();
            if inner > grids(rest) {
                return InputFormat::Csv;
            }
        }
    }
    if parse_count(first).is_some() && (rest.is_empty() || rows(rest) > grids(rest)) {
        return InputFormat::Luogu;
    }
    if rows(sample) > grids(sample) {
        InputFormat::Block
    } else {
        InputFormat::Line
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
        assert!(
            err.contains("auto, line, csv, block, luogu, poj, jsonl"),
            "{err}"
        );
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

    const LINE: &[u8] = crate::testdata::EASY.as_bytes();

    fn one(line: &[u8]) -> InputFormat {
        detect(&[line])
    }

    #[test]
    fn detects_each_format_from_its_first_lines() {
        assert_eq!(one(LINE), InputFormat::Line);
        let with_rating = [LINE, b" 3.4 hard,ish"].concat();
        assert_eq!(one(&with_rating), InputFormat::Line);
        let kaggle_headerless = [LINE, b",123"].concat();
        assert_eq!(one(&kaggle_headerless), InputFormat::Line);
        assert_eq!(one(b"quizzes,solutions"), InputFormat::Csv);
        assert_eq!(one(b"quizzes;solutions"), InputFormat::Csv);
        assert_eq!(one(b" {\"puzzle\": \"1.3\"}"), InputFormat::Jsonl);
        assert_eq!(one(b"id\tpuzzle"), InputFormat::Csv);
        let semicolons = [b"7;", LINE].concat();
        assert_eq!(detect(&[&semicolons, &semicolons]), InputFormat::Csv);
        assert_eq!(one(b"\"Puzzle\" , Solution"), InputFormat::Csv);
        assert_eq!(
            one(b"id,puzzle,solution,clues,difficulty"),
            InputFormat::Csv
        );
        assert_eq!(one(b"puzzle"), InputFormat::Csv);
        assert_eq!(one(b"Quizzes"), InputFormat::Csv);
        let quoted = [&b"\""[..], LINE, b"\",x"].concat();
        assert_eq!(one(&quoted), InputFormat::Csv);
        assert_eq!(one(b"2"), InputFormat::Luogu);
        assert_eq!(one(b"7 0 0 9 0 0 0 0 1"), InputFormat::Block);
        assert_eq!(one(b"700900001"), InputFormat::Block);
        assert_eq!(one(b"7.. |9.. |..1"), InputFormat::Block);
        assert_eq!(one(b"------+-------+------"), InputFormat::Block);
        assert_eq!(one(b"-----------"), InputFormat::Block);
        assert_eq!(one(b"hello world"), InputFormat::Line);
        assert_eq!(one(b"\x00\xff\xfe"), InputFormat::Line);
        assert_eq!(one(b"\x8e\x01,\x02"), InputFormat::Line);
        assert_eq!(detect(&[]), InputFormat::Line);
        let id_grid = [&b"7,"[..], LINE].concat();
        assert_eq!(detect(&[b"id,board", &id_grid]), InputFormat::Csv);
        // Headerless `id,<grid>` rows, one or many.
        assert_eq!(one(&id_grid), InputFormat::Csv);
        assert_eq!(detect(&[&id_grid, &id_grid]), InputFormat::Csv);
        // One such line among puzzle lines does not decide.
        assert_eq!(detect(&[&id_grid, LINE, LINE]), InputFormat::Line);
    }

    #[test]
    fn one_bad_first_line_never_decides() {
        for bad in [
            &b"hello,world"[..],
            b"x,y,z",
            "题目,答案".as_bytes(),
            b"700900001",
            b"7 0 0 9 0 0 0 0 1",
            b"1234",
            b"2",
            b"------+-------+------",
            b"{Forum puzzles, 2024}",
            b"{\"note\": \"from the forum\"}",
            b"{}",
        ] {
            assert_eq!(detect(&[bad, LINE, LINE]), InputFormat::Line, "{bad:?}");
        }
        let row = &b"7 0 0 9 0 0 0 0 1"[..];
        assert_eq!(detect(&[b"junk, here", row, row, row]), InputFormat::Block);
        assert_eq!(detect(&[b"2", row, row]), InputFormat::Luogu);
        assert_eq!(detect(&[b"2", b"---+---+---", row]), InputFormat::Luogu);
        assert_eq!(detect(&[b"x", row, row]), InputFormat::Block);
    }

    #[test]
    fn json_lines_are_chosen_by_the_lines_together() {
        let object = &b"{\"id\": 1, \"puzzle\": \"1.3\"}"[..];
        // Objects outnumber the lines that hold puzzles otherwise.
        assert_eq!(detect(&[object]), InputFormat::Jsonl);
        assert_eq!(detect(&[b"{ }"]), InputFormat::Jsonl);
        assert_eq!(detect(&[object, object, LINE]), InputFormat::Jsonl);
        // A junk line (braces or not) among objects is a record of them.
        for junk in [&b"{Forum puzzles, 2024}"[..], b"junk", LINE] {
            assert_eq!(detect(&[junk, object, object]), InputFormat::Jsonl);
        }
        // Text in braces is not JSON, however many lines of it.
        assert_eq!(
            detect(&[b"{Forum puzzles, 2024}", b"{x}"]),
            InputFormat::Line
        );
        // One object above puzzle lines (or CSV rows, or block rows) is a
        // bad record of their file, and a tie is not a majority.
        let id_grid = [&b"7,"[..], LINE].concat();
        let row = &b"7 0 0 9 0 0 0 0 1"[..];
        assert_eq!(detect(&[object, LINE]), InputFormat::Line);
        assert_eq!(detect(&[object, &id_grid, &id_grid]), InputFormat::Csv);
        assert_eq!(detect(&[object, row, row]), InputFormat::Block);
    }

    #[test]
    fn the_delimiter_is_weighed_over_the_lines_too() {
        // Headerless `;` rows whose first note holds commas: CSV, not a
        // line file of invalid records.
        let noisy = [b"1;", LINE, b";note, with, commas"].concat();
        let plain = [b"2;", LINE, b";plain"].concat();
        assert_eq!(detect(&[&noisy, &plain, &plain]), InputFormat::Csv);
        assert_eq!(detect(&[&noisy]), InputFormat::Csv);
        // Under a header whose free-text name holds commas.
        let header = &b"id;note, free;puzzle"[..];
        let row = [b"3;x, y;", LINE].concat();
        assert_eq!(detect(&[header, &row, &row]), InputFormat::Csv);
        // Puzzle lines after a first line of commas and semicolons stay
        // a line file.
        assert_eq!(detect(&[b"a;b,c;d", LINE, LINE]), InputFormat::Line);
    }
}
