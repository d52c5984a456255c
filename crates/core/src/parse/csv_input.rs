//! The CSV layout (Kaggle style): a header row naming a puzzle column and
//! optionally a solution column, then one puzzle per row; or no header,
//! rows only.
//!
//! Records are CSV as RFC 4180 defines it, tokenized by `csv-core`: a
//! quoted field may hold commas, doubled quotes and line breaks, so one
//! record may span several physical lines; it is numbered by the line
//! where it starts. [`CsvRows`] feeds `csv-core` one physical line at a
//! time (from the shared capped line reader), so every line ending (`\n`,
//! `\r\n`, a lone `\r`) counts, blank and `#` comment lines are skipped
//! between records, and the line numbers are ours, not `csv-core`'s.
//! What is inside quotes is data, byte for byte: a line break inside a
//! quoted field is the one in the input (`\r\n` stays `\r\n`).
//!
//! **A quote that does not close is a broken record, never a swallower.**
//! A quoted field still open at the end of a physical line goes on to the
//! next line only while
//! - the record stays within [`MAX_RECORD_LINES`] physical lines and
//!   [`MAX_LINE_BYTES`] bytes of content (a line too long on its own is
//!   one `LineTooLong` record and never goes on), and
//! - the next line, read alone as a record, does not hold a puzzle in the
//!   puzzle column (any column while the layout is not known yet), unless
//!   the quote closes on that line and the record, so ended, holds one
//!   there itself (a quoted field with a line break before the puzzle
//!   column), and
//! - the input does not end inside it.
//!
//! When the quote can go no further, the record is its first line alone,
//! an `UnclosedQuote` record naming the quote's column, and every line
//! after it is read again as records of its own: the lines of a record in
//! progress are held (bounded as the record is) to be replayed. So one
//! stray quote costs one row, and every following record is still read.
//!
//! After `csv-core` has unquoted a field, surrounding whitespace and one
//! pair of stray quotes are still dropped from puzzle fields, header names
//! and unquoted kept fields; a quoted kept field is kept as it is.

use std::cmp::Reverse;
use std::io::{self, BufRead};

use csv_core::ReadFieldResult;

use super::lines::{is_blank, is_comment, LineEnd, Lines, MAX_LINE_BYTES};
use super::{parse_line, ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Physical lines one CSV record may span: a quoted field still open at
/// the end of the last of them does not close (see the module's rule).
pub(crate) const MAX_RECORD_LINES: usize = 16;

/// Header names (case-insensitive) of a puzzle column.
const PUZZLE_NAMES: [&[u8]; 5] = [b"quizzes", b"quiz", b"puzzle", b"puzzles", b"question"];
/// Header names (case-insensitive) of a solution column, most telling
/// first: `solution` names a grid, `solutions` is also what `solve`
/// writes for its count.
pub(crate) const SOLUTION_NAMES: [&[u8]; 4] = [b"solution", b"answer", b"solutions", b"answers"];

/// The field delimiters recognised without being named: a comma, and the
/// semicolon and tab that spreadsheets write in many locales.
const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// The delimiter of a CSV input from its first line: the one of
/// [`DELIMITERS`] that occurs most often outside quotes (a comma on a
/// tie, and when there is none).
pub(crate) fn sniff_delimiter(line: &[u8]) -> u8 {
    let mut counts = [0usize; DELIMITERS.len()];
    let mut quoted = false;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted {
            if let Some(i) = DELIMITERS.iter().position(|&d| d == b) {
                counts[i] += 1;
            }
        }
    }
    // max_by_key keeps the last maximum: walk from the end so that the
    // earliest (the comma) wins a tie.
    (0..DELIMITERS.len())
        .rev()
        .max_by_key(|&i| counts[i])
        .map_or(b',', |i| DELIMITERS[i])
}

/// Where the expected solutions of a CSV or JSONL input are.
///
/// # Example
/// ```
/// use batchdoku_core::{ExpectedColumn, ReadOptions, RecordReader};
/// // `solve`'s own output: `solutions` is a count, `solution` the grid.
/// let results = "index,puzzle,status,solutions,solution\n\
///     1,..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..,solved,1,\
///     483921657967345821251876493548132976729564138136798245372689514814253769695417382\n";
/// let reader = RecordReader::with_options(results.as_bytes(), &ReadOptions::default()).unwrap();
/// assert!(reader.has_expected()); // from `solution`, never from the counts
///
/// let options = ReadOptions { expected: ExpectedColumn::Ignore, ..ReadOptions::default() };
/// let reader = RecordReader::with_options(results.as_bytes(), &options).unwrap();
/// assert!(!reader.has_expected());
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ExpectedColumn {
    /// A column named `solution`, `answer`, `solutions` or `answers` (the
    /// first of these whose values are grids), or in a headerless CSV a
    /// column of complete grids.
    #[default]
    Detect,
    /// The column (or JSONL key) with this name, case-insensitive.
    Named(String),
    /// No expected solutions, whatever the columns.
    Ignore,
}

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
    unclosed: Option<u32>,
    /// 1-based line where the record starts.
    line: u64,
    /// The field delimiter.
    delimiter: u8,
    scratch: [u8; 1024],
}

impl Default for CsvRecord {
    fn default() -> CsvRecord {
        CsvRecord {
            core: csv_core::Reader::new(),
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
            delimiter: b',',
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
    fn open_quote_col(&self) -> u32 {
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

/// A line held by [`Replay`]: where its content is in the buffer, and
/// what the line reader said of it.
#[derive(Clone, Copy, Debug)]
struct Held {
    no: u64,
    start: usize,
    end: usize,
    overlong: bool,
    ending: LineEnd,
    crlf_before: bool,
}

/// A physical line as the CSV reader sees it (see [`Lines`]).
#[derive(Clone, Copy, Debug)]
struct PhysLine<'a> {
    /// 1-based line number.
    no: u64,
    /// Content, without line ending (capped when `overlong`).
    text: &'a [u8],
    overlong: bool,
    ending: LineEnd,
    /// The line before it ended with `\r\n`.
    crlf_before: bool,
}

/// Physical lines that can be read again: while a mark is set, every
/// line read is held, and rewinding to the mark gives them again, in
/// order, before any new line. The callers bound what is held (one
/// record's lines, or the first few records).
#[derive(Debug, Default)]
struct Replay {
    buf: Vec<u8>,
    held: Vec<Held>,
    /// The next held line to give (`held.len()`: read a new one).
    pos: usize,
    /// Marks set and not yet released or rewound to.
    marks: usize,
}

impl Replay {
    /// The next line: a held one, else the line reader's next.
    fn next<'a, R: BufRead>(
        &'a mut self,
        lines: &'a mut Lines<R>,
    ) -> io::Result<Option<PhysLine<'a>>> {
        if let Some(&h) = self.held.get(self.pos) {
            self.pos += 1;
            return Ok(Some(PhysLine {
                no: h.no,
                text: &self.buf[h.start..h.end],
                overlong: h.overlong,
                ending: h.ending,
                crlf_before: h.crlf_before,
            }));
        }
        if self.marks == 0 {
            self.clear();
        }
        if !lines.next_line()? {
            return Ok(None);
        }
        let line = PhysLine {
            no: lines.line_no(),
            text: lines.line(),
            overlong: lines.overlong(),
            ending: lines.ending(),
            crlf_before: lines.crlf_before(),
        };
        if self.marks > 0 {
            let start = self.buf.len();
            self.buf.extend_from_slice(line.text);
            self.held.push(Held {
                no: line.no,
                start,
                end: self.buf.len(),
                overlong: line.overlong,
                ending: line.ending,
                crlf_before: line.crlf_before,
            });
            self.pos += 1;
        }
        Ok(Some(line))
    }

    /// Starts holding the lines read from here on.
    fn mark(&mut self) -> usize {
        if self.marks == 0 && self.pos == self.held.len() {
            self.clear();
        }
        self.marks += 1;
        self.pos
    }

    /// Goes back to `mark`: the lines read since are read again.
    fn rewind(&mut self, mark: usize) {
        self.marks -= 1;
        self.pos = mark;
    }

    /// Drops `mark`: the lines read since are not read again.
    fn release(&mut self) {
        self.marks -= 1;
    }

    fn clear(&mut self) {
        self.buf.clear();
        self.held.clear();
        self.pos = 0;
    }
}

/// Reads CSV records from physical lines by the module's rule: RFC 4180
/// records, where a quote that does not close within bounds breaks its
/// record (its first line) and the lines after it are read again.
/// Buffers are reused from record to record.
#[derive(Debug, Default)]
pub(crate) struct CsvRows {
    replay: Replay,
    /// The first line of the record in progress, while it is in a quote.
    first: Vec<u8>,
    /// A line read alone, to see whether it holds a puzzle.
    probe: CsvRecord,
    /// The longest physical line of the last record read.
    longest: usize,
}

impl CsvRows {
    /// Splits fields at `delimiter` when looking ahead (the records read
    /// are split by their own [`CsvRecord::set_delimiter`]).
    pub(crate) fn set_delimiter(&mut self, delimiter: u8) {
        self.probe.set_delimiter(delimiter);
    }

    /// Reads the next record into `rec` (keeping at most `limit` field
    /// bytes), skipping blank and comment lines before it; false at the
    /// end of input. `puzzle` is the puzzle column when known (a line
    /// holding a puzzle there is never swallowed by an open quote; when
    /// `None`, a puzzle in any column counts). The record's first line is
    /// read with the line reader's cap as it is (the header is read
    /// uncapped); the lines after it are capped at [`MAX_LINE_BYTES`].
    pub(crate) fn read<R: BufRead>(
        &mut self,
        lines: &mut Lines<R>,
        rec: &mut CsvRecord,
        limit: usize,
        puzzle: Option<usize>,
    ) -> io::Result<bool> {
        let (no, quote_col) = loop {
            let Some(line) = self.replay.next(lines)? else {
                return Ok(false);
            };
            // Comments are known by their start, even when overlong;
            // blank lines only when seen whole.
            if is_comment(line.text) || (!line.overlong && is_blank(line.text)) {
                continue;
            }
            rec.begin(line.no, limit);
            self.longest = line.text.len();
            if line.overlong {
                // Too long to keep: the record ends with its line.
                rec.set_too_long();
                return Ok(true);
            }
            if rec.feed_line(line.text, line.ending) {
                return Ok(true);
            }
            self.first.clear();
            self.first.extend_from_slice(line.text);
            break (line.no, rec.open_quote_col());
        };
        // In a quoted field: it may go on to the next lines, within bounds.
        lines.set_cap(MAX_LINE_BYTES);
        let mut room = MAX_LINE_BYTES.checked_sub(self.first.len());
        let mut count = 1;
        let mark = self.replay.mark();
        let closed = loop {
            let Some(left) = room.filter(|_| count < MAX_RECORD_LINES) else {
                break false;
            };
            let Some(line) = self.replay.next(lines)? else {
                break false; // the input ends inside the quote
            };
            if line.overlong || line.text.len() > left {
                break false;
            }
            // A line holding a puzzle is a record of its own, unless it
            // is the end of this one: the quote closes on it and the
            // record then holds a puzzle (a line break in a quoted field
            // before the puzzle column).
            let alone = holds_puzzle(&mut self.probe, line.text, puzzle);
            room = Some(left - line.text.len());
            count += 1;
            self.longest = self.longest.max(line.text.len());
            if line.crlf_before {
                rec.feed(b"\n");
            }
            rec.new_line();
            // (When broken, `rec` is read again from its first line.)
            if rec.feed_line(line.text, line.ending) {
                break !alone || ends_on_its_puzzle(rec, puzzle);
            }
            if alone {
                break false;
            }
        };
        if closed {
            self.replay.release();
            return Ok(true);
        }
        // Broken: the record is its first line, read alone (the quote
        // running to its end, for a header's names); the lines after it
        // are read again.
        self.replay.rewind(mark);
        rec.begin(no, limit);
        rec.feed(&self.first);
        rec.finish();
        rec.unclosed = Some(quote_col);
        self.longest = self.first.len();
        Ok(true)
    }

    /// The longest physical line of the last record read.
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    /// Samples the records after the current point, for the layout (the
    /// puzzle column when the header does not name it, the expected
    /// solutions): up to `records` of them within about `max_lines` lines,
    /// read into `rec` as the run will read them (`puzzle` is the puzzle
    /// column when the header names it, see [`CsvRows::read`]) and summed
    /// up; then the input is rewound, so that every one of them is read
    /// again.
    pub(crate) fn sample<R: BufRead>(
        &mut self,
        lines: &mut Lines<R>,
        rec: &mut CsvRecord,
        stats: &mut ColumnStats,
        puzzle: Option<usize>,
        (records, max_lines): (usize, usize),
    ) -> io::Result<()> {
        let mark = self.replay.mark();
        for _ in 0..records {
            if self.replay.held.len() >= max_lines
                || !self.read(lines, rec, MAX_LINE_BYTES, puzzle)?
            {
                break;
            }
            if !rec.too_long() && rec.unclosed().is_none() {
                stats.add(rec);
            }
        }
        self.replay.rewind(mark);
        Ok(())
    }
}

/// True when `text`, read alone as a CSV record (a quote in it running to
/// its end), holds a puzzle in column `puzzle` (any column when `None`).
fn holds_puzzle(probe: &mut CsvRecord, text: &[u8], puzzle: Option<usize>) -> bool {
    probe.begin(0, MAX_LINE_BYTES);
    probe.feed(text);
    probe.finish();
    has_puzzle(probe, puzzle)
}

/// True when the record holds a puzzle in column `puzzle` (any column
/// when `None`).
fn has_puzzle(rec: &CsvRecord, puzzle: Option<usize>) -> bool {
    match puzzle {
        Some(i) => rec.field(i).is_some_and(|(f, _)| parse_line(f).is_ok()),
        None => rec.holds_grid(),
    }
}

/// True when a record that spans lines holds a puzzle and nothing else
/// in column `puzzle` (some column when `None`): a record that a stray
/// quote ran over holds the lines it swallowed in that field, where a
/// puzzle followed by other text would still parse.
fn ends_on_its_puzzle(rec: &CsvRecord, puzzle: Option<usize>) -> bool {
    let exact = |i: usize| {
        rec.field(i)
            .is_some_and(|(f, _)| f.len() == crate::grid::CELLS && parse_line(f).is_ok())
    };
    match puzzle {
        Some(i) => exact(i),
        None => (0..rec.len()).any(exact),
    }
}

/// What the first records of a file hold, column by column, to find its
/// puzzle column when no header names it.
#[derive(Debug, Default)]
pub(crate) struct ColumnStats {
    /// Records summed up.
    records: u32,
    /// `grids[i]`: records whose field `i` is a grid.
    grids: Vec<u32>,
    /// `complete[i]`: records whose field `i` is a complete grid.
    complete: Vec<u32>,
    /// `filled[i]`: records whose field `i` is not empty.
    filled: Vec<u32>,
}

impl ColumnStats {
    /// Sums up one record.
    pub(crate) fn add(&mut self, rec: &CsvRecord) {
        self.records += 1;
        if self.filled.len() < rec.len() {
            self.filled.resize(rec.len(), 0);
        }
        for i in 0..rec.len() {
            let Some((field, _)) = rec.field(i) else {
                continue;
            };
            self.filled[i] += u32::from(!field.is_empty());
            let Ok(grid) = parse_line(field) else {
                continue;
            };
            if self.grids.len() <= i {
                self.grids.resize(i + 1, 0);
                self.complete.resize(i + 1, 0);
            }
            self.grids[i] += 1;
            self.complete[i] += u32::from(grid.is_complete());
        }
    }

    /// The column holding the most puzzles (grids with blanks: a column
    /// of complete grids is more likely solutions), then the most grids,
    /// then the leftmost; `None` when none holds a grid.
    pub(crate) fn puzzle_column(&self) -> Option<usize> {
        (0..self.grids.len())
            .filter(|&i| self.grids[i] > 0)
            .max_by_key(|&i| {
                let puzzles = self.grids[i] - self.complete[i];
                (puzzles, self.grids[i], Reverse(i))
            })
    }

    /// True when column `i` holds grids: at least half of its non-empty
    /// cells in the sample are 81-cell grids (a column of counts, ids or
    /// ratings never is).
    pub(crate) fn holds_grids(&self, i: usize) -> bool {
        let grids = self.grids.get(i).copied().unwrap_or(0);
        let filled = self.filled.get(i).copied().unwrap_or(0);
        grids > 0 && 2 * grids >= filled
    }

    /// A column other than `puzzle` holding a complete grid in more than
    /// half of the records (the one with the most; on a tie the leftmost).
    pub(crate) fn solution_column(&self, puzzle: usize) -> Option<usize> {
        (0..self.complete.len())
            .filter(|&i| i != puzzle && 2 * self.complete[i] > self.records)
            .max_by_key(|&i| (self.complete[i], Reverse(i)))
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
    /// The layout named by a header record, with `stats` summing up the
    /// records after it: the puzzle column is `column` when given (an
    /// error when the header has no such name), else the first with a
    /// known puzzle name, else the column that holds puzzles in the
    /// records, else the first. The expected solutions are where
    /// `expected` says (see [`expected_column`]).
    pub(crate) fn from_header(
        header: &CsvRecord,
        column: Option<&str>,
        expected: &ExpectedColumn,
        stats: &ColumnStats,
    ) -> Result<CsvLayout, String> {
        let names = header.names();
        let puzzle_pos = header_puzzle(&names, column)?;
        let puzzle = puzzle_pos.or(stats.puzzle_column()).unwrap_or(0);
        let expected = expected_column(&names, puzzle, expected, |i| stats.holds_grids(i))?;
        Ok(CsvLayout { puzzle, expected })
    }

    /// The layout of a headerless file from what its first records hold:
    /// the puzzle column is the one that holds puzzles, and (unless
    /// `expected` is [`ExpectedColumn::Ignore`]) a column of complete
    /// grids in most records holds the expected solutions. `None` when no
    /// column holds a grid.
    pub(crate) fn headerless(stats: &ColumnStats, expected: &ExpectedColumn) -> Option<CsvLayout> {
        let puzzle = stats.puzzle_column()?;
        Some(CsvLayout {
            puzzle,
            expected: match expected {
                ExpectedColumn::Ignore => None,
                _ => stats.solution_column(puzzle),
            },
        })
    }
}

/// The puzzle column a header names: `column` when given (an error when
/// there is no such name), else the first with a known puzzle name;
/// `None` when it names none.
pub(crate) fn header_puzzle(
    names: &[&[u8]],
    column: Option<&str>,
) -> Result<Option<usize>, String> {
    match column {
        Some(wanted) => named_column(names, wanted).map(Some),
        None => Ok(names.iter().position(|n| is_puzzle_header(n))),
    }
}

/// The position of the column named `wanted` (case-insensitive) among
/// `names`, or an error that lists the names there are.
pub(crate) fn named_column(names: &[&[u8]], wanted: &str) -> Result<usize, String> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(wanted.as_bytes()))
        .ok_or_else(|| {
            let names: Vec<String> = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            format!(
                "no column '{wanted}' in the input's header (columns: {})",
                names.join(", ")
            )
        })
}

/// The expected-solution column among `names` (CSV header fields or
/// JSONL keys), by one rule for every input: a column is one only when it
/// is named as one ([`SOLUTION_NAMES`], in that order of preference) and
/// `holds_grids` says its values are grids, so a `solutions` column of
/// counts (what `solve` writes) never is; never the puzzle's column.
/// [`ExpectedColumn::Named`] takes that column whatever it holds (an
/// error when there is none, or when it is the puzzle's).
pub(crate) fn expected_column(
    names: &[&[u8]],
    puzzle: usize,
    expected: &ExpectedColumn,
    holds_grids: impl Fn(usize) -> bool,
) -> Result<Option<usize>, String> {
    match expected {
        ExpectedColumn::Ignore => Ok(None),
        ExpectedColumn::Named(wanted) => {
            let i = named_column(names, wanted)?;
            if i == puzzle {
                return Err(format!(
                    "the expected-solution column '{wanted}' is the puzzle column"
                ));
            }
            Ok(Some(i))
        }
        ExpectedColumn::Detect => Ok(SOLUTION_NAMES.iter().find_map(|want| {
            names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(want))
                .filter(|&i| i != puzzle && holds_grids(i))
        })),
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
/// gives it. For format detection, which looks at a few lines.
pub(crate) fn line_fields(line: &[u8], delimiter: u8) -> Vec<Vec<u8>> {
    let mut rec = CsvRecord::default();
    rec.set_delimiter(delimiter);
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
    fn kept_fields_are_raw_when_quoted() {
        let rec = record(b" a ,\" b \", \"c\" ,\"d\re\"");
        let kept: Vec<&[u8]> = (0..rec.len()).map(|i| rec.kept(i).unwrap()).collect();
        assert_eq!(kept, [&b"a"[..], b" b ", b"c", b"d\re"]);
        assert_eq!(rec.kept(4), None);
    }

    #[test]
    fn an_expected_column_is_named_as_one_and_holds_grids() {
        let mut stats = ColumnStats::default();
        // solve's own output: a count, a grid, a count of guesses.
        let row = [&b"1"[..], P, b"solved", b"1", S, b"12"].join(&b","[..]);
        stats.add(&record(&row));
        let header = record(b"index,puzzle,status,solutions,solution,guesses");
        let at = |expected: ExpectedColumn| {
            CsvLayout::from_header(&header, None, &expected, &stats).map(|l| l.expected)
        };
        assert_eq!(at(ExpectedColumn::Detect), Ok(Some(4)));
        assert_eq!(at(ExpectedColumn::Ignore), Ok(None));
        assert_eq!(at(ExpectedColumn::Named("GUESSES".into())), Ok(Some(5)));
        let err = at(ExpectedColumn::Named("answer".into())).unwrap_err();
        assert!(
            err.contains("'answer'") && err.contains("index, puzzle"),
            "{err}"
        );
        let err = at(ExpectedColumn::Named("puzzle".into())).unwrap_err();
        assert!(err.contains("is the puzzle column"), "{err}");
        // A `solutions` column of counts alone is never one.
        let header = record(b"index,puzzle,status,solutions");
        let counts = CsvLayout::from_header(&header, None, &ExpectedColumn::Detect, &stats);
        assert_eq!(counts.map(|l| l.expected), Ok(None));
        // At least half of the filled cells must be grids; empty cells
        // do not count against a column.
        let mut stats = ColumnStats::default();
        for row in [&[P, S][..], &[P, b""], &[P, &S[..80]], &[P, b"7"]] {
            stats.add(&record(&row.join(&b","[..])));
        }
        assert!(stats.holds_grids(0));
        assert!(!stats.holds_grids(1), "one grid of three filled cells");
        stats.add(&record(&[P, S].join(&b","[..])));
        assert!(stats.holds_grids(1), "two of four");
    }

    #[test]
    fn delimiters_are_sniffed_from_the_first_line() {
        assert_eq!(sniff_delimiter(b"quizzes,solutions"), b',');
        assert_eq!(sniff_delimiter(b"quizzes;solutions"), b';');
        assert_eq!(sniff_delimiter(b"quizzes\tsolutions\tid"), b'\t');
        assert_eq!(
            sniff_delimiter(b"\"a;b;c\",d"),
            b',',
            "quoted ones do not count"
        );
        assert_eq!(sniff_delimiter(b"a;b,c"), b',', "a tie goes to the comma");
        assert_eq!(sniff_delimiter(b"puzzle"), b',');
        assert_eq!(line_fields(b"a;\"b;c\";d", b';'), [&b"a"[..], b"b;c", b"d"]);
    }

    #[test]
    fn column_stats_choose_puzzles_over_solutions() {
        let stats = |rows: &[&[u8]]| {
            let mut stats = ColumnStats::default();
            for row in rows {
                stats.add(&record(row));
            }
            stats
        };
        let row = |parts: &[&[u8]]| parts.join(&b","[..]);
        let (id_p, p_s, s_p, bad) = (
            row(&[b"1", P]),
            row(&[P, S]),
            row(&[S, P]),
            row(&[b"2", &P[..80], S]),
        );
        let id_p_s = row(&[b"3", P, S]);
        let st = stats(&[&id_p, &id_p]);
        assert_eq!((st.puzzle_column(), st.solution_column(1)), (Some(1), None));
        let st = stats(&[&p_s]);
        assert_eq!(
            (st.puzzle_column(), st.solution_column(0)),
            (Some(0), Some(1))
        );
        let st = stats(&[&s_p, &s_p]);
        assert_eq!(
            (st.puzzle_column(), st.solution_column(1)),
            (Some(1), Some(0))
        );
        // A bad puzzle beside a solution: the other records decide.
        let st = stats(&[&bad, &id_p_s, &id_p_s]);
        assert_eq!(
            (st.puzzle_column(), st.solution_column(1)),
            (Some(1), Some(2))
        );
        // Solutions in a minority of the records are not a column of them.
        let st = stats(&[&id_p_s, &id_p, &id_p]);
        assert_eq!(st.solution_column(1), None);
        assert_eq!(stats(&[b"a,b"]).puzzle_column(), None);
    }

    #[test]
    fn a_line_holds_a_puzzle_in_a_column_when_read_alone() {
        const P: &[u8] =
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let mut probe = CsvRecord::default();
        let line = [&b"7,"[..], P, b",\"open"].concat();
        assert!(holds_puzzle(&mut probe, &line, Some(1)));
        assert!(holds_puzzle(&mut probe, &line, None));
        assert!(!holds_puzzle(&mut probe, &line, Some(0)));
        assert!(!holds_puzzle(&mut probe, b"lines\"", None));
        let quoted = [&b"\""[..], P].concat();
        assert!(holds_puzzle(&mut probe, &quoted, Some(0)));
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

    const P: &[u8] =
        b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const S: &[u8] =
        b"483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    /// Stats of rows whose every field is a grid (what a column of
    /// solutions holds), `width` fields each.
    fn grid_stats(width: usize) -> ColumnStats {
        let mut stats = ColumnStats::default();
        stats.add(&record(&vec![S; width].join(&b","[..])));
        stats
    }

    fn layout(line: &[u8]) -> CsvLayout {
        let stats = grid_stats(8);
        CsvLayout::from_header(&record(line), None, &ExpectedColumn::Detect, &stats).unwrap()
    }

    #[test]
    fn header_layouts() {
        let both = |puzzle, expected| CsvLayout { puzzle, expected };
        assert_eq!(layout(b"quizzes,solutions"), both(0, Some(1)));
        assert_eq!(layout(b"id,Puzzle,Solution,clues"), both(1, Some(2)));
        assert_eq!(layout(b"\"QUESTION\", \"answer\""), both(0, Some(1)));
        // `solution` is preferred to `solutions` (solve's count column).
        assert_eq!(layout(b"puzzle,solutions,solution"), both(0, Some(2)));
        assert_eq!(layout(b"puzzle,sol"), both(0, None));
        assert_eq!(layout(b"puzzle,source"), both(0, None));
        assert_eq!(layout(b"puzzle,sol,x"), both(0, None));
        assert_eq!(layout(b"grid,rating"), both(0, None));
        assert_eq!(layout(b"rating,quiz"), both(1, None));
        assert_eq!(layout(b"puzzle"), both(0, None));
    }

    #[test]
    fn a_named_column_wins_or_is_an_error() {
        let stats = grid_stats(8);
        let named = |line: &[u8], col| {
            CsvLayout::from_header(&record(line), Some(col), &ExpectedColumn::Detect, &stats)
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
