//! The streaming record reader: one [`RecordReader`] per input, yielding
//! one [`Record`] per puzzle in any [`InputFormat`], with format detection,
//! bounded memory per record and no allocation per record once its buffers
//! have warmed up. Malformed input becomes invalid records, never an error:
//! only genuine I/O failures are returned as `Err`.

use std::fmt;
use std::io::{self, BufRead, Read};

use super::block::{classify_row, read_grid, RowClass};
use super::csv_input::{parse_puzzle_field, parse_solution_field, split_fields, CsvLayout};
use super::detect::{detect, parse_count, InputFormat};
use super::lines::{
    is_blank, is_comment, read_line_prefix, strip_eol, Lines, Source, BOM, MAX_LINE_BYTES,
};
use super::{is_separator, parse_line, ParseError, ParseErrorKind};
use crate::grid::{Grid, CELLS};

/// Detection gives up looking for a meaningful line after this many bytes
/// of blank and comment lines (and then reads the input as line format).
const DETECT_BUDGET: usize = 64 * 1024;

/// One input record, reused across reads (buffers kept).
#[derive(Debug)]
pub struct Record {
    /// 1-based physical line where the record starts.
    pub line: u64,
    /// The puzzle, or what is wrong with it.
    pub puzzle: Result<Grid, ParseError>,
    /// The CSV solution column, when the input has one.
    pub expected: Option<Result<Grid, ParseError>>,
    /// Line format: text after the 81 cells and their separator, trimmed;
    /// else empty.
    pub trailing: Vec<u8>,
    /// CSV with [`ReadOptions::keep_columns`]: the row's other fields,
    /// unquoted, concatenated; `kept_ends[i]` ends field `i`.
    pub kept: Vec<u8>,
    /// End offsets of the kept fields in `kept`.
    pub kept_ends: Vec<u32>,
}

impl Default for Record {
    /// A record at line 0 with an empty puzzle (`Err(Empty)`).
    fn default() -> Record {
        Record {
            line: 0,
            puzzle: Err(ParseError::new(ParseErrorKind::Empty, 0)),
            expected: None,
            trailing: Vec::new(),
            kept: Vec::new(),
            kept_ends: Vec::new(),
        }
    }
}

impl Record {
    /// Sets the record's line and puzzle, clearing the other fields.
    fn set(&mut self, line: u64, puzzle: Result<Grid, ParseError>) {
        self.line = line;
        self.puzzle = puzzle;
        self.expected = None;
        self.trailing.clear();
        self.kept.clear();
        self.kept_ends.clear();
    }

    /// Kept field `i` (empty when the row had fewer fields than the
    /// header).
    pub fn kept_field(&self, i: usize) -> &[u8] {
        let start = i
            .checked_sub(1)
            .map_or(0, |j| self.kept_ends.get(j).map_or(0, |&e| e as usize));
        match self.kept_ends.get(i) {
            Some(&end) => &self.kept[start..end as usize],
            None => &[],
        }
    }
}

/// How to read an input.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The format, or [`InputFormat::Auto`] to detect it.
    pub format: InputFormat,
    /// CSV: the header name of the puzzle column (case-insensitive).
    /// Implies CSV when the format is `Auto`.
    pub column: Option<String>,
    /// CSV: carry every column but the puzzle's into each record's
    /// `kept` fields (see [`RecordReader::kept_names`]).
    pub keep_columns: bool,
}

/// Why an input cannot be read with the options given.
fn bad_options(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Per-format reading state.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Line format (`end` lines skipped) or POJ (`end` stops the input).
    Line { poj: bool, ended: bool },
    /// Block grids; `luogu` holds the Luogu count state.
    Block { luogu: Option<Luogu> },
    /// CSV rows.
    Csv { layout: CsvLayout },
}

/// What a Luogu batch file has promised and delivered so far.
#[derive(Clone, Copy, Debug)]
enum Luogu {
    /// The count line has not been read yet.
    NeedCount,
    /// `promised` grids announced on line `count_line`; `seen` read so far.
    Counting {
        promised: u64,
        count_line: u64,
        seen: u64,
    },
    /// Nothing left to check (no count, or the shortfall was reported).
    Done,
}

/// Reads puzzles one [`Record`] at a time from a buffered reader, in the
/// given or detected [`InputFormat`].
pub struct RecordReader<R: BufRead> {
    format: InputFormat,
    mode: Mode,
    lines: Lines<R>,
    /// CSV field ranges of the current line, reused.
    fields: Vec<(u32, u32)>,
    /// CSV: names of the kept columns, when keeping them.
    kept_names: Option<Vec<String>>,
}

impl<R: BufRead> fmt::Debug for RecordReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordReader")
            .field("format", &self.format)
            .field("mode", &self.mode)
            .field("line", &self.lines.line_no())
            .finish_non_exhaustive()
    }
}

/// Reads lines into `look` until the first meaningful one (not blank, not
/// a comment), and returns the format it indicates. Everything read stays
/// in `look`, raw, to be replayed; an overlong line is read only up to the
/// cap, its rest left in `rdr`.
fn detect_from_lookahead<R: BufRead>(rdr: &mut R, look: &mut Vec<u8>) -> io::Result<InputFormat> {
    while look.len() <= DETECT_BUDGET {
        let start = look.len();
        let n = read_line_prefix(rdr, look, MAX_LINE_BYTES)?;
        if n == 0 {
            break;
        }
        let mut line = strip_eol(&look[start..]);
        if start == 0 {
            line = line.strip_prefix(BOM).unwrap_or(line);
        }
        let overlong = n > MAX_LINE_BYTES && look.last() != Some(&b'\n');
        if overlong || !(is_blank(line) || is_comment(line)) {
            return Ok(detect(line));
        }
    }
    Ok(InputFormat::Line)
}

impl<R: BufRead> RecordReader<R> {
    /// A reader of `rdr` in `format`. With [`InputFormat::Auto`] it reads a
    /// small lookahead (up to the first meaningful line) to pick the format;
    /// nothing is lost, the lookahead is replayed. A CSV input's header row
    /// is read here, so [`RecordReader::has_expected`] is known at once.
    pub fn new(rdr: R, format: InputFormat) -> io::Result<Self> {
        Self::with_options(
            rdr,
            &ReadOptions {
                format,
                ..ReadOptions::default()
            },
        )
    }

    /// A reader of `rdr` with `options` (see [`RecordReader::new`]). Fails
    /// with `InvalidInput` when the options do not fit the input: a
    /// `column` not in the CSV header, or CSV options on another format.
    pub fn with_options(mut rdr: R, options: &ReadOptions) -> io::Result<Self> {
        let mut look = Vec::new();
        let csv_wanted = options.column.is_some() || options.keep_columns;
        let format = match options.format {
            InputFormat::Auto if options.column.is_some() => InputFormat::Csv,
            InputFormat::Auto => detect_from_lookahead(&mut rdr, &mut look)?,
            f => f,
        };
        if csv_wanted && format != InputFormat::Csv {
            return Err(bad_options(format!(
                "--column and --keep-columns need CSV input, but this input reads as {format}"
            )));
        }
        let src: Source<R> = io::Cursor::new(look).chain(rdr);
        let mode = match format {
            InputFormat::Line | InputFormat::Auto => Mode::Line {
                poj: false,
                ended: false,
            },
            InputFormat::Poj => Mode::Line {
                poj: true,
                ended: false,
            },
            InputFormat::Block => Mode::Block { luogu: None },
            InputFormat::Luogu => Mode::Block {
                luogu: Some(Luogu::NeedCount),
            },
            InputFormat::Csv => Mode::Csv {
                layout: CsvLayout {
                    puzzle: 0,
                    expected: None,
                },
            },
        };
        let mut reader = RecordReader {
            format: if format == InputFormat::Auto {
                InputFormat::Line
            } else {
                format
            },
            mode,
            lines: Lines::new(src),
            fields: Vec::new(),
            kept_names: None,
        };
        if format == InputFormat::Csv {
            reader.read_csv_header(options)?;
        }
        Ok(reader)
    }

    /// CSV read with `keep_columns`: the names of the kept columns, in
    /// order (`field_N` for a headerless file). `None` otherwise.
    pub fn kept_names(&self) -> Option<&[String]> {
        self.kept_names.as_deref()
    }

    /// The format being read (resolved: never `Auto`).
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// True for CSV inputs with a solution column: their records carry
    /// `expected`.
    pub fn has_expected(&self) -> bool {
        matches!(
            self.mode,
            Mode::Csv {
                layout: CsvLayout {
                    expected: Some(_),
                    ..
                }
            }
        )
    }

    /// Reads the next record into `rec`, reusing its buffers. Returns false
    /// at the end of input (leaving `rec` unchanged). Blank lines, `#`
    /// comment lines and box separators are not records.
    pub fn read_record(&mut self, rec: &mut Record) -> io::Result<bool> {
        match self.mode {
            Mode::Line { poj, ended } => {
                if ended {
                    return Ok(false);
                }
                self.read_line_record(poj, rec)
            }
            Mode::Block { luogu: None } => self.read_block_record(rec),
            Mode::Block { luogu: Some(state) } => self.read_luogu_record(state, rec),
            Mode::Csv { layout } => self.read_csv_record(layout, rec),
        }
    }

    fn read_line_record(&mut self, poj: bool, rec: &mut Record) -> io::Result<bool> {
        loop {
            if !self.lines.next_line()? {
                return Ok(false);
            }
            let line = self.lines.line();
            let indent = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
            let body = &line[indent..];
            let overlong = self.lines.overlong();
            // A body starting with a cell is a record (the common case).
            let starts_with_cell = body
                .first()
                .is_some_and(|&b| super::cell_value(b).is_some());
            if !starts_with_cell {
                // Comments are known by their start, even when overlong;
                // blank and `end` lines only when seen whole.
                if body.first() == Some(&b'#') || (!overlong && body.is_empty()) {
                    continue;
                }
                if !overlong && body.trim_ascii_end() == b"end" {
                    if poj {
                        self.mode = Mode::Line { poj, ended: true };
                        return Ok(false);
                    }
                    continue;
                }
            }
            rec.set(self.lines.line_no(), Ok(Grid::empty()));
            if overlong {
                let limit = MAX_LINE_BYTES as u32;
                rec.puzzle = Err(ParseError::new(ParseErrorKind::LineTooLong { limit }, 0));
                return Ok(true);
            }
            rec.puzzle = parse_line(body).map_err(|mut e| {
                if e.col > 0 {
                    e.col += indent as u32;
                }
                e
            });
            if rec.puzzle.is_ok() {
                if let Some(rest) = body.get(CELLS..) {
                    let rest = rest
                        .iter()
                        .position(|&b| !(is_separator(b) || b.is_ascii_whitespace()))
                        .map_or(&[][..], |start| rest[start..].trim_ascii_end());
                    rec.trailing.extend_from_slice(rest);
                }
            }
            return Ok(true);
        }
    }

    fn read_block_record(&mut self, rec: &mut Record) -> io::Result<bool> {
        match read_grid(&mut self.lines)? {
            Some((line, puzzle)) => {
                rec.set(line, puzzle);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn read_luogu_record(&mut self, state: Luogu, rec: &mut Record) -> io::Result<bool> {
        let state = match state {
            Luogu::NeedCount => match self.read_count(rec)? {
                CountLine::Count(state) => state,
                CountLine::Bad => return Ok(true),
                CountLine::Eof => return Ok(false),
            },
            s => s,
        };
        if self.read_block_record(rec)? {
            if let Luogu::Counting {
                promised,
                count_line,
                seen,
            } = state
            {
                let seen = seen + 1;
                self.mode = Mode::Block {
                    luogu: Some(Luogu::Counting {
                        promised,
                        count_line,
                        seen,
                    }),
                };
            }
            return Ok(true);
        }
        self.mode = Mode::Block {
            luogu: Some(Luogu::Done),
        };
        match state {
            Luogu::Counting {
                promised,
                count_line,
                seen,
            } if seen < promised => {
                let kind = ParseErrorKind::MissingGrids {
                    found: seen,
                    promised,
                };
                rec.set(count_line, Err(ParseError::new(kind, 0)));
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Reads the Luogu count line. On a bad one, fills `rec` with a
    /// `BadCount` record and switches to plain block reading (a line that
    /// looks like part of a grid is kept for it).
    fn read_count(&mut self, rec: &mut Record) -> io::Result<CountLine> {
        loop {
            if !self.lines.next_line()? {
                return Ok(CountLine::Eof);
            }
            let line = self.lines.line();
            if !self.lines.overlong() && (is_blank(line) || is_comment(line)) {
                continue;
            }
            let count = if self.lines.overlong() {
                None
            } else {
                parse_count(line)
            };
            if let Some(promised) = count {
                let state = Luogu::Counting {
                    promised,
                    count_line: self.lines.line_no(),
                    seen: 0,
                };
                self.mode = Mode::Block { luogu: Some(state) };
                return Ok(CountLine::Count(state));
            }
            rec.set(
                self.lines.line_no(),
                Err(ParseError::new(ParseErrorKind::BadCount, 0)),
            );
            if !self.lines.overlong()
                && matches!(classify_row(line), RowClass::Row(_) | RowClass::Separator)
            {
                self.lines.push_back();
            }
            self.mode = Mode::Block {
                luogu: Some(Luogu::Done),
            };
            return Ok(CountLine::Bad);
        }
    }

    /// Reads the CSV header row (skipping blank and comment lines) and sets
    /// the layout. A first row whose first field is a grid is data, not a
    /// header: it is kept for the first record (unless a `column` was
    /// named, which means there is a header).
    fn read_csv_header(&mut self, options: &ReadOptions) -> io::Result<()> {
        while self.lines.next_line()? {
            let line = self.lines.line();
            if !self.lines.overlong() && (is_blank(line) || is_comment(line)) {
                continue;
            }
            split_fields(line, &mut self.fields);
            let headerless = match options.column {
                None => CsvLayout::headerless(line, &self.fields),
                Some(_) => None,
            };
            let layout = match headerless {
                Some(layout) => layout,
                None => CsvLayout::from_header(line, &self.fields, options.column.as_deref())
                    .map_err(bad_options)?,
            };
            if options.keep_columns {
                let names = (0..self.fields.len())
                    .filter(|&i| i != layout.puzzle)
                    .map(|i| match headerless {
                        Some(_) => format!("field_{}", i + 1),
                        None => {
                            let (s, e) = self.fields[i];
                            String::from_utf8_lossy(&line[s as usize..e as usize]).into_owned()
                        }
                    })
                    .collect();
                self.kept_names = Some(names);
            }
            if headerless.is_some() {
                self.lines.push_back();
            }
            self.mode = Mode::Csv { layout };
            break;
        }
        if options.keep_columns && self.kept_names.is_none() {
            self.kept_names = Some(Vec::new()); // an empty file
        }
        Ok(())
    }

    fn read_csv_record(&mut self, layout: CsvLayout, rec: &mut Record) -> io::Result<bool> {
        loop {
            if !self.lines.next_line()? {
                return Ok(false);
            }
            let line = self.lines.line();
            if self.lines.overlong() {
                let limit = MAX_LINE_BYTES as u32;
                let err = ParseError::new(ParseErrorKind::LineTooLong { limit }, 0);
                rec.set(self.lines.line_no(), Err(err));
                rec.expected = layout.expected.map(|_| Err(err));
                return Ok(true);
            }
            if is_blank(line) || is_comment(line) {
                continue;
            }
            split_fields(line, &mut self.fields);
            let puzzle = parse_puzzle_field(line, &self.fields, layout.puzzle);
            let expected = layout
                .expected
                .map(|i| parse_solution_field(line, &self.fields, i));
            rec.set(self.lines.line_no(), puzzle);
            rec.expected = expected;
            if let Some(names) = &self.kept_names {
                let kept = (0..self.fields.len()).filter(|&i| i != layout.puzzle);
                for i in kept.take(names.len()) {
                    let (s, e) = self.fields[i];
                    unescape_into(&line[s as usize..e as usize], &mut rec.kept);
                    rec.kept_ends.push(rec.kept.len() as u32);
                }
            }
            return Ok(true);
        }
    }
}

/// Appends a field with its doubled quotes (`""`) undone.
fn unescape_into(field: &[u8], out: &mut Vec<u8>) {
    let mut prev_quote = false;
    for &b in field {
        if b == b'"' && prev_quote {
            prev_quote = false;
            continue;
        }
        prev_quote = b == b'"';
        out.push(b);
    }
}

/// The outcome of looking for a Luogu count line.
enum CountLine {
    /// A count: the new state.
    Count(Luogu),
    /// Not a count: a `BadCount` record was produced.
    Bad,
    /// End of input before any meaningful line.
    Eof,
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
