//! Record reading: physical lines into CSV records by the module's rule
//! ([`CsvRows`]), where a quote that does not close within bounds breaks
//! its record and the lines after it are read again ([`Replay`]).

use std::io::{self, BufRead};

use super::header::ColumnStats;
use super::record::CsvRecord;
use super::MAX_RECORD_LINES;
use crate::parse::lines::{is_blank, is_comment, LineEnd, Lines, MAX_LINE_BYTES};
use crate::parse::parse_line;

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
pub(super) fn holds_puzzle(probe: &mut CsvRecord, text: &[u8], puzzle: Option<usize>) -> bool {
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
