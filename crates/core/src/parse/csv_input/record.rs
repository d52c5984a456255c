//! One CSV record as `csv-core` tokenizes it ([`CsvRecord`]), fed a
//! physical line at a time, and the parsing of its fields as puzzles and
//! expected solutions.

use csv_core::ReadFieldResult;

use super::unquote;
use crate::grid::Grid;
use crate::parse::lines::{LineEnd, MAX_LINE_BYTES};
use crate::parse::{parse_line, ParseError, ParseErrorKind};

/// One CSV record being tokenized by `csv-core`, fed a physical line at
/// a time; its buffers are reused from record to record.
#[derive(Debug)]
pub(crate) struct CsvRecord {
    core: csv_core::Reader,
    /// The fields' bytes, unquoted and unescaped by `csv-core`.
    pub(super) out: Vec<u8>,
    /// Field `i` is `out[fields[i].0..fields[i].1]`.
    fields: Vec<(u32, u32)>,
    /// 1-based column (within its physical line) where field `i`'s
    /// content starts (past an opening quote).
    cols: Vec<u32>,
    /// Field `i` was quoted (its first byte was a quote).
    quoted: Vec<bool>,
    /// Bytes of the current physical line fed so far.
    col: u32,
    /// Where the field being read started in `out`, its column, and
    /// whether it is quoted.
    field_start: usize,
    field_col: u32,
    field_quoted: bool,
    /// The next byte fed is a field's first.
    at_field_start: bool,
    /// Field bytes kept at most (more marks the record too long).
    limit: usize,
    /// The record had more bytes, fields or line than kept.
    too_long: bool,
    /// The record is broken by a quote that does not close: the column
    /// of that quote on the record's line.
    pub(super) unclosed: Option<u32>,
    /// 1-based line where the record starts.
    line: u64,
    /// The field delimiter.
    delimiter: u8,
    scratch: [u8; 1024],
}

impl Default for CsvRecord {
    fn default() -> CsvRecord {
        CsvRecord::with_delimiter(b',')
    }
}

impl CsvRecord {
    /// A record whose fields `delimiter` separates. Building the tokenizer
    /// costs about a million instructions: keep a record, do not make one
    /// per line.
    pub(crate) fn with_delimiter(delimiter: u8) -> CsvRecord {
        CsvRecord {
            core: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            out: Vec::new(),
            fields: Vec::new(),
            cols: Vec::new(),
            quoted: Vec::new(),
            col: 0,
            field_start: 0,
            field_col: 1,
            field_quoted: false,
            at_field_start: true,
            limit: MAX_LINE_BYTES,
            too_long: false,
            unclosed: None,
            line: 0,
            delimiter,
            scratch: [0; 1024],
        }
    }
}

impl CsvRecord {
    /// Splits fields at `delimiter` from the next record on.
    pub(crate) fn set_delimiter(&mut self, delimiter: u8) {
        if delimiter != self.delimiter {
            self.delimiter = delimiter;
            self.core = csv_core::ReaderBuilder::new().delimiter(delimiter).build();
        }
    }

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
        self.quoted.clear();
        self.col = 0;
        self.field_start = 0;
        self.field_col = 1;
        self.field_quoted = false;
        self.at_field_start = true;
        self.limit = limit;
        self.too_long = false;
        self.unclosed = None;
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

    /// Feeds a physical line's content, then its line ending as far as
    /// it is known (`\r` for [`LineEnd::Return`], else `\n`: the end of
    /// the input ends a record as a line ending does). Returns true when
    /// the record is complete; false when the line ends inside a quoted
    /// field, which then holds that line ending (a `\r` that proves to be
    /// a `\r\n` gets its `\n` fed with the next line).
    pub(crate) fn feed_line(&mut self, text: &[u8], ending: LineEnd) -> bool {
        let end: &[u8] = if ending == LineEnd::Return {
            b"\r"
        } else {
            b"\n"
        };
        self.feed(text) || self.feed(end)
    }

    /// The column of the opening quote of the field being read (right
    /// after [`CsvRecord::feed_line`] returned false for the record's
    /// first line: the quote is on that line).
    pub(super) fn open_quote_col(&self) -> u32 {
        self.field_col.saturating_sub(1).max(1)
    }

    /// The column of the quote that broke the record, if one did.
    pub(crate) fn unclosed(&self) -> Option<u32> {
        self.unclosed
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
                self.field_quoted = input[0] == b'"';
                self.field_col = self.col + 1 + u32::from(self.field_quoted);
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
                        self.quoted.push(self.field_quoted);
                    } else {
                        self.too_long = true;
                    }
                    self.field_start = self.out.len();
                    self.at_field_start = true;
                    // An empty last field gets no byte to place it by.
                    self.field_col = self.col + 1;
                    self.field_quoted = false;
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

    /// Field `i` as a kept column carries it: a quoted field exactly as
    /// it was inside its quotes (RFC 4180: that is data, spaces and line
    /// breaks included); an unquoted one as [`CsvRecord::field`] reads it.
    pub(crate) fn kept(&self, i: usize) -> Option<&[u8]> {
        if *self.quoted.get(i)? {
            self.raw(i)
        } else {
            self.field(i).map(|(f, _)| f)
        }
    }

    /// Appends the record as it was written: each field as the input
    /// wrote it (a quoted field in quotes, its quotes doubled; an unquoted
    /// one as it is), joined by the delimiter, and pushes where each field
    /// ends to `ends`. A record read from valid RFC 4180 text comes out
    /// byte for byte as it went in.
    pub(crate) fn write_as_read(&self, out: &mut Vec<u8>, ends: &mut Vec<u32>) {
        for i in 0..self.len() {
            if i > 0 {
                out.push(self.delimiter);
            }
            let raw = self.raw(i).unwrap_or_default();
            if self.quoted[i] {
                out.push(b'"');
                for part in raw.split_inclusive(|&b| b == b'"') {
                    out.extend_from_slice(part);
                    if part.last() == Some(&b'"') {
                        out.push(b'"');
                    }
                }
                out.push(b'"');
            } else {
                out.extend_from_slice(raw);
            }
            ends.push(out.len() as u32);
        }
    }

    /// The fields, read as a header's names.
    pub(crate) fn names(&self) -> Vec<&[u8]> {
        (0..self.len())
            .filter_map(|i| self.field(i).map(|(name, _)| name))
            .collect()
    }

    /// True when some field holds a grid: the record reads as a puzzle
    /// record (not a header).
    pub(crate) fn holds_grid(&self) -> bool {
        (0..self.len()).any(|i| self.field(i).is_some_and(|(f, _)| parse_line(f).is_ok()))
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
    let col = rec.field(index).map_or(0, |(_, col)| col);
    complete(parse_puzzle_field(rec, index)?, col)
}

/// `grid` when it is complete (an expected solution), else an
/// `Incomplete` error at column `col`.
pub(crate) fn complete(grid: Grid, col: u32) -> Result<Grid, ParseError> {
    if grid.is_complete() {
        Ok(grid)
    } else {
        let blanks = (crate::grid::CELLS - grid.given_count()) as u32;
        Err(ParseError::new(ParseErrorKind::Incomplete { blanks }, col))
    }
}

/// The fields of one line, tokenized as a whole CSV record (an unclosed
/// quote runs to the end of the line), each as [`CsvRecord::field`]
/// gives it, split by `rec`'s delimiter (`rec` is reused: see
/// [`CsvRecord::with_delimiter`]). For format detection, which looks at a
/// few lines.
pub(crate) fn line_fields(rec: &mut CsvRecord, line: &[u8]) -> Vec<Vec<u8>> {
    rec.begin(1, usize::MAX);
    if !rec.feed(line) {
        rec.finish();
    }
    (0..rec.len())
        .filter_map(|i| rec.field(i).map(|(f, _)| f.to_vec()))
        .collect()
}
