//! The CSV layout (Kaggle style): a header row naming a puzzle column and
//! optionally a solution column, then one puzzle per row.
//!
//! Records are CSV as RFC 4180 defines it, tokenized by `csv-core`: a
//! quoted field may hold commas, doubled quotes and line breaks, so one
//! record may span several physical lines; it is numbered by the line
//! where it starts. The reader feeds `csv-core` one physical line at a
//! time (from the shared capped line reader), so every line ending (`\n`,
//! `\r\n`, a lone `\r`) counts, blank and `#` comment lines are skipped
//! between records, and the line numbers are ours, not `csv-core`'s.
//! Memory stays bounded: a data record keeps at most
//! [`MAX_LINE_BYTES`] of field bytes (a longer one, e.g. an unclosed quote
//! that runs to the end of the input, is one `LineTooLong` record, its
//! rest still tokenized but dropped); only the header is kept whole.
//! After `csv-core` has unquoted a field, surrounding whitespace and one
//! pair of stray quotes are still dropped from puzzle fields, as before.

use csv_core::ReadFieldResult;

use super::lines::MAX_LINE_BYTES;
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

/// One CSV record being tokenized by `csv-core`, fed a physical line at
/// a time; its buffers are reused from record to record.
#[derive(Debug)]
pub(crate) struct CsvRecord {
    core: csv_core::Reader,
    /// The fields' bytes, unquoted and unescaped by `csv-core`.
    out: Vec<u8>,
    /// Field `i` is `out[fields[i].0..fields[i].1]`.
    fields: Vec<(u32, u32)>,
    /// 1-based column (within its physical line) where field `i`'s
    /// content starts (past an opening quote).
    cols: Vec<u32>,
    /// Bytes of the current physical line fed so far.
    col: u32,
    /// Where the field being read started in `out`, and its column.
    field_start: usize,
    field_col: u32,
    /// The next byte fed is a field's first.
    at_field_start: bool,
    /// Field bytes kept at most (more marks the record too long).
    limit: usize,
    /// The record had more bytes, fields or line than kept.
    too_long: bool,
    /// 1-based line where the record starts.
    line: u64,
    scratch: [u8; 1024],
}

impl Default for CsvRecord {
    fn default() -> CsvRecord {
        CsvRecord {
            core: csv_core::Reader::new(),
            out: Vec::new(),
            fields: Vec::new(),
            cols: Vec::new(),
            col: 0,
            field_start: 0,
            field_col: 1,
            at_field_start: true,
            limit: MAX_LINE_BYTES,
            too_long: false,
            line: 0,
            scratch: [0; 1024],
        }
    }
}

impl CsvRecord {
    /// Starts a new record at `line`, keeping at most `limit` field bytes.
    pub(crate) fn begin(&mut self, line: u64, limit: usize) {
        self.core.reset();
        // After a reset `csv-core` drops a BOM starting its next input,
        // but only when that input holds all three bytes: our line reader
        // drops the input's BOM, so mark the tokenizer as started (an
        // empty line is skipped) to keep records free of read sizes.
        let _ = self.core.read_field(b"\n", &mut self.scratch);
        self.out.clear();
        self.fields.clear();
        self.cols.clear();
        self.col = 0;
        self.field_start = 0;
        self.field_col = 1;
        self.at_field_start = true;
        self.limit = limit;
        self.too_long = false;
        self.line = line;
    }

    /// Sets the 1-based line where the record starts.
    pub(crate) fn set_line(&mut self, line: u64) {
        self.line = line;
    }

    /// The record goes on to a new physical line (columns restart).
    pub(crate) fn new_line(&mut self) {
        self.col = 0;
    }

    /// Marks the record too long (a physical line of it was).
    pub(crate) fn set_too_long(&mut self) {
        self.too_long = true;
    }

    /// Feeds bytes of the record (content, or a line ending). Returns
    /// true when the record is complete (all of `input` is then consumed:
    /// a record ends only at a line ending, which the caller feeds last).
    pub(crate) fn feed(&mut self, input: &[u8]) -> bool {
        !input.is_empty() && self.tokenize(input)
    }

    /// Ends the record at the end of the input.
    pub(crate) fn finish(&mut self) {
        self.tokenize(&[]);
    }

    /// [`CsvRecord::feed`], where an empty `input` is the end of input.
    fn tokenize(&mut self, mut input: &[u8]) -> bool {
        let eof = input.is_empty();
        loop {
            if self.at_field_start && !input.is_empty() {
                self.at_field_start = false;
                self.field_col = self.col + 1 + u32::from(input[0] == b'"');
            }
            let (result, nin, nout) = self.core.read_field(input, &mut self.scratch);
            if self.out.len() + nout <= self.limit {
                self.out.extend_from_slice(&self.scratch[..nout]);
            } else {
                self.too_long = true;
            }
            input = &input[nin..];
            self.col = self.col.saturating_add(nin as u32);
            match result {
                ReadFieldResult::InputEmpty => return false,
                ReadFieldResult::OutputFull => {}
                ReadFieldResult::Field { record_end } => {
                    if self.fields.len() <= self.limit {
                        self.fields
                            .push((self.field_start as u32, self.out.len() as u32));
                        self.cols.push(self.field_col);
                    } else {
                        self.too_long = true;
                    }
                    self.field_start = self.out.len();
                    self.at_field_start = true;
                    // An empty last field gets no byte to place it by.
                    self.field_col = self.col + 1;
                    if record_end {
                        return true;
                    }
                }
                ReadFieldResult::End => return true,
            }
            if input.is_empty() && !eof {
                return false;
            }
        }
    }

    /// 1-based line where the record starts.
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// True when the record had more than it could keep.
    pub(crate) fn too_long(&self) -> bool {
        self.too_long
    }

    /// Capacity of the field buffer (tests check memory stays bounded).
    #[cfg(test)]
    pub(crate) fn out_capacity(&self) -> usize {
        self.out.capacity()
    }

    /// Number of fields.
    pub(crate) fn len(&self) -> usize {
        self.fields.len()
    }

    /// Field `i`, as `csv-core` unquoted it (`None` past the last).
    pub(crate) fn raw(&self, i: usize) -> Option<&[u8]> {
        let &(s, e) = self.fields.get(i)?;
        Some(&self.out[s as usize..e as usize])
    }

    /// Field `i` with surrounding whitespace and stray quotes dropped,
    /// and the 1-based column where that starts.
    pub(crate) fn field(&self, i: usize) -> Option<(&[u8], u32)> {
        let raw = self.raw(i)?;
        let inner = unquote(raw);
        // `inner` is a subslice of `raw`: recover its offset.
        let offset = inner.as_ptr() as usize - raw.as_ptr() as usize;
        Some((inner, self.cols[i] + offset as u32))
    }
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
    /// The layout named by a header record: the puzzle column is `column`
    /// when given (an error when the header has no such name), else the
    /// first with a known puzzle name, else the first.
    pub(crate) fn from_header(
        header: &CsvRecord,
        column: Option<&str>,
    ) -> Result<CsvLayout, String> {
        let names: Vec<&[u8]> = (0..header.len())
            .filter_map(|i| header.field(i).map(|(name, _)| name))
            .collect();
        let puzzle_pos = match column {
            Some(wanted) => Some(
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(wanted.as_bytes()))
                    .ok_or_else(|| {
                        let names: Vec<String> = names
                            .iter()
                            .map(|n| String::from_utf8_lossy(n).into_owned())
                            .collect();
                        format!(
                            "no column '{wanted}' in the CSV header (columns: {})",
                            names.join(", ")
                        )
                    })?,
            ),
            None => names.iter().position(|n| is_puzzle_header(n)),
        };
        // Only a column named as one holds solutions: a second column of
        // ids or sources read as solutions would make every row invalid.
        let expected = names
            .iter()
            .position(|n| is_one_of(n, &SOLUTION_NAMES))
            .filter(|&i| Some(i) != puzzle_pos);
        Ok(CsvLayout {
            puzzle: puzzle_pos.unwrap_or(0),
            expected,
        })
    }

    /// The layout of a headerless file whose first record is `first`, if
    /// that record's first field is a grid: puzzle first, and an expected
    /// solution second when the second field is a complete grid.
    pub(crate) fn headerless(first: &CsvRecord) -> Option<CsvLayout> {
        parse_line(first.field(0)?.0).ok()?;
        let expected = first
            .field(1)
            .and_then(|(f, _)| parse_line(f).ok())
            .filter(Grid::is_complete)
            .map(|_| 1);
        Some(CsvLayout {
            puzzle: 0,
            expected,
        })
    }
}

/// Parses field `index` of a record as a puzzle; columns in errors are
/// counted from the start of the field's line.
pub(crate) fn parse_puzzle_field(rec: &CsvRecord, index: usize) -> Result<Grid, ParseError> {
    let Some((field, col)) = rec.field(index) else {
        return Err(ParseError::new(
            ParseErrorKind::MissingColumn,
            index as u32 + 1,
        ));
    };
    parse_line(field).map_err(|mut err| {
        err.col = if err.col > 0 { err.col + col - 1 } else { col };
        err
    })
}

/// Parses field `index` of a record as an expected solution: a puzzle
/// field that must also be complete.
pub(crate) fn parse_solution_field(rec: &CsvRecord, index: usize) -> Result<Grid, ParseError> {
    let grid = parse_puzzle_field(rec, index)?;
    if grid.is_complete() {
        Ok(grid)
    } else {
        let blanks = (crate::grid::CELLS - grid.given_count()) as u32;
        let col = rec.field(index).map_or(0, |(_, col)| col);
        Err(ParseError::new(ParseErrorKind::Incomplete { blanks }, col))
    }
}

/// The fields of one line, tokenized as a whole CSV record (an unclosed
/// quote runs to the end of the line), each as [`CsvRecord::field`]
/// gives it. For format detection, which looks at a few lines.
pub(crate) fn line_fields(line: &[u8]) -> Vec<Vec<u8>> {
    let mut rec = CsvRecord::default();
    rec.begin(1, usize::MAX);
    if !rec.feed(line) {
        rec.finish();
    }
    (0..rec.len())
        .filter_map(|i| rec.field(i).map(|(f, _)| f.to_vec()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokenizes `input` (lines separated by `\n`) as one record.
    fn record(input: &[u8]) -> CsvRecord {
        let mut rec = CsvRecord::default();
        rec.begin(1, MAX_LINE_BYTES);
        let mut lines = input.split(|&b| b == b'\n').peekable();
        while let Some(line) = lines.next() {
            let ended = if lines.peek().is_some() {
                rec.feed(line) || rec.feed(b"\n")
            } else {
                rec.feed(line) || {
                    rec.finish();
                    true
                }
            };
            if ended {
                assert!(lines.peek().is_none(), "record ended early");
                break;
            }
            rec.new_line();
        }
        rec
    }

    fn fields(input: &[u8]) -> Vec<Vec<u8>> {
        let rec = record(input);
        (0..rec.len())
            .map(|i| rec.field(i).unwrap().0.to_vec())
            .collect()
    }

    #[test]
    fn tokenizes_as_rfc_4180() {
        let v = |parts: &[&[u8]]| parts.iter().map(|p| p.to_vec()).collect::<Vec<_>>();
        assert_eq!(fields(b"a,b"), v(&[b"a", b"b"]));
        assert_eq!(fields(b"a, b ,"), v(&[b"a", b"b", b""]));
        assert_eq!(
            fields(b"\"b,c\",\"say \"\"hi\"\"\""),
            v(&[b"b,c", b"say \"hi\""])
        );
        assert_eq!(fields(b"\"two\nlines\",x"), v(&[b"two\nlines", b"x"]));
        assert_eq!(fields(b""), Vec::<Vec<u8>>::new());
        assert_eq!(fields(b"\"unclosed,x"), v(&[b"unclosed,x"]));
    }

    #[test]
    fn too_long_records_keep_bounded_memory() {
        let mut rec = CsvRecord::default();
        rec.begin(1, 8);
        assert!(!rec.feed(b"\"0123456789"));
        assert!(!rec.feed(b"\n"));
        assert!(rec.feed(b"\",x\n"));
        assert!(rec.too_long());
        assert!(rec.out.len() <= 8);
    }

    fn layout(line: &[u8]) -> CsvLayout {
        CsvLayout::from_header(&record(line), None).unwrap()
    }

    #[test]
    fn header_layouts() {
        let both = |puzzle, expected| CsvLayout { puzzle, expected };
        assert_eq!(layout(b"quizzes,solutions"), both(0, Some(1)));
        assert_eq!(layout(b"id,Puzzle,Solution,clues"), both(1, Some(2)));
        assert_eq!(layout(b"\"QUESTION\", \"answer\""), both(0, Some(1)));
        assert_eq!(layout(b"puzzle,sol"), both(0, None));
        assert_eq!(layout(b"puzzle,source"), both(0, None));
        assert_eq!(layout(b"puzzle,sol,x"), both(0, None));
        assert_eq!(layout(b"grid,rating"), both(0, None));
        assert_eq!(layout(b"rating,quiz"), both(1, None));
        assert_eq!(layout(b"puzzle"), both(0, None));
    }

    #[test]
    fn a_named_column_wins_or_is_an_error() {
        let named = |line: &[u8], col| CsvLayout::from_header(&record(line), Some(col));
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
        let rec = record(b"abc, ..x");
        let e = parse_puzzle_field(&rec, 1).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::BadChar { byte: b'x' });
        assert_eq!(e.col, 8);
        let e = parse_puzzle_field(&rec, 2).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::MissingColumn);
        assert_eq!(e.to_string(), "missing CSV column 3");
        let e = parse_puzzle_field(&record(b"x,"), 1).unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::Empty, 3));
        // Past an opening quote.
        let e = parse_puzzle_field(&record(b"x,\"..x\""), 1).unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::BadChar { byte: b'x' }, 6));
    }

    #[test]
    fn solution_must_be_complete() {
        let solved = crate::testdata::SOLVED.as_bytes();
        let mut line = b"p,".to_vec();
        line.extend_from_slice(solved);
        assert!(parse_solution_field(&record(&line), 1).is_ok());
        line[5] = b'.';
        line[9] = b'0';
        let e = parse_solution_field(&record(&line), 1).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Incomplete { blanks: 2 });
        assert_eq!(e.to_string(), "solution has 2 blank cells");
    }
}
