//! The streaming record reader: one [`RecordReader`] per input, yielding
//! one [`Record`] per puzzle in any [`InputFormat`], with format detection,
//! bounded memory per record and no allocation per record once its buffers
//! have warmed up. Malformed input becomes invalid records, never an error:
//! only genuine I/O failures are returned as `Err`.

use std::fmt;
use std::io::{self, BufRead, Read};

use super::csv_input::{sniff_delimiter, CsvLayout, CsvRecord, CsvRows, ExpectedColumn};
use super::detect::{detect, InputFormat, SAMPLE_LINES, SAMPLE_MAX_LINES};
use super::jsonl::{
    decode_string, sample_objects, JsonLayout, Members, Spans, MAX_JSON_LINE_BYTES,
};
use super::lines::{
    is_blank, is_comment, next_byte, read_line, skip_line, LineEnd, Lines, Source, BOM,
    MAX_LINE_BYTES,
};
use super::{is_separator, parse_line, ParseError, ParseErrorKind};
use crate::grid::{Grid, CELLS};

mod csv_format;
mod grid_formats;
mod layout;

pub use layout::InputLayout;

/// One input record, reused across reads (buffers kept).
///
/// # Example
/// ```
/// use batchdoku_core::{InputFormat, ParseErrorKind, Record, RecordReader};
/// let input = "# two puzzles\n\
///     ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.. easy\n\
///     ..3.2.6..9..3.5\n";
/// let mut reader = RecordReader::new(input.as_bytes(), InputFormat::Line).unwrap();
/// let mut record = Record::default(); // one per reader, reused
///
/// assert!(reader.read_record(&mut record).unwrap());
/// assert_eq!(record.line, 2); // the comment line is not a record
/// assert_eq!(record.puzzle.unwrap().given_count(), 32);
/// assert_eq!(record.trailing, b"easy");
///
/// // A malformed record is data, not an error.
/// assert!(reader.read_record(&mut record).unwrap());
/// assert_eq!(record.line, 3);
/// assert_eq!(record.puzzle.unwrap_err().kind, ParseErrorKind::TooShort { found: 15 });
///
/// assert!(!reader.read_record(&mut record).unwrap()); // end of input
/// ```
#[derive(Debug)]
pub struct Record {
    /// 1-based physical line where the record starts.
    pub line: u64,
    /// The puzzle, or what is wrong with it.
    pub puzzle: Result<Grid, ParseError>,
    /// The expected solution, when the input has a column of them (see
    /// [`ExpectedColumn`]) and the record's cell is not empty (an empty
    /// cell means no expected solution); `Err` when the cell is not a
    /// complete grid.
    pub expected: Option<Result<Grid, ParseError>>,
    /// Line format: text after the 81 cells and their separator, trimmed;
    /// else empty.
    pub trailing: Vec<u8>,
    /// CSV with [`ReadOptions::keep_columns`]: the row's other fields,
    /// concatenated; `kept_ends[i]` ends field `i`. A quoted field is
    /// what was inside its quotes, byte for byte (spaces and line breaks
    /// included); an unquoted one is trimmed of surrounding whitespace.
    pub kept: Vec<u8>,
    /// End offsets of the kept fields in `kept`.
    pub kept_ends: Vec<u32>,
    /// True when the kept fields are JSON text (a JSONL input): each is
    /// its value as written in the line (a string with its quotes and
    /// escapes, a number as its digits), empty for a missing key. See
    /// [`Record::kept_text`] for the text.
    pub kept_is_json: bool,
    /// With [`ReadOptions::keep_written`]: the record as the input wrote
    /// it, without its line ending (see [`InputLayout`]): a CSV record's
    /// fields as written joined by the delimiter (a line break inside a
    /// quoted field as it was), a JSON or text line as it is, a block
    /// grid's rows joined by `\n`. Else empty.
    pub written: Vec<u8>,
    /// CSV with [`ReadOptions::keep_written`]: where each field ends in
    /// [`Record::written`] (the next starts one delimiter later); empty
    /// for the other formats.
    pub written_ends: Vec<u32>,
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
            kept_is_json: false,
            written: Vec::new(),
            written_ends: Vec::new(),
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
        self.kept_is_json = false;
        self.written.clear();
        self.written_ends.clear();
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

    /// The text of kept field `i`: the field itself, or for JSON (see
    /// [`Record::kept_is_json`]) a string's decoded text, nothing for
    /// `null` or a missing key, and any other value's JSON text. Borrowed
    /// from the record (no allocation) unless a string has escapes.
    ///
    /// # Example
    /// ```
    /// use batchdoku_core::{InputFormat, ReadOptions, Record, RecordReader};
    /// let line = r#"{"id":1e2,"puzzle":"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..","note":"caf\u00e9"}"#;
    /// let options = ReadOptions { keep_columns: true, ..ReadOptions::default() };
    /// let mut reader = RecordReader::with_options(line.as_bytes(), &options).unwrap();
    /// let mut record = Record::default();
    /// assert!(reader.read_record(&mut record).unwrap());
    /// assert_eq!(record.kept_field(0), b"1e2"); // as written
    /// assert_eq!(&*record.kept_text(1), "café".as_bytes());
    /// ```
    pub fn kept_text(&self, i: usize) -> std::borrow::Cow<'_, [u8]> {
        let field = self.kept_field(i);
        if !self.kept_is_json {
            return field.into();
        }
        match field {
            [b'"', inner @ .., b'"'] if !inner.contains(&b'\\') => inner.into(),
            [b'"', ..] => {
                let mut text = Vec::with_capacity(field.len());
                decode_string(field, &mut text);
                text.into()
            }
            b"null" => (&[][..]).into(),
            _ => field.into(),
        }
    }
}

/// How to read an input.
///
/// # Example
/// ```
/// use batchdoku_core::{InputFormat, ReadOptions, Record, RecordReader};
/// let csv = "id,quizzes,solutions\n\
///     7,..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..,\
///     483921657967345821251876493548132976729564138136798245372689514814253769695417382\n";
/// let options = ReadOptions { keep_columns: true, ..ReadOptions::default() };
/// let mut reader = RecordReader::with_options(csv.as_bytes(), &options).unwrap();
/// assert_eq!(reader.format(), InputFormat::Csv); // detected from the header
/// assert!(reader.has_expected()); // the `solutions` column
/// assert_eq!(reader.kept_names().unwrap()[0], "id");
///
/// let mut record = Record::default();
/// assert!(reader.read_record(&mut record).unwrap());
/// assert_eq!(record.kept_field(0), b"7");
/// let puzzle = record.puzzle.unwrap();
/// assert!(record.expected.unwrap().unwrap().solves(&puzzle));
///
/// // A puzzle column the header does not have is refused up front.
/// let options = ReadOptions { column: Some("grid".into()), ..ReadOptions::default() };
/// let err = RecordReader::with_options(csv.as_bytes(), &options).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
/// ```
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
    /// CSV: where the expected solutions are. [`ExpectedColumn::Named`]
    /// implies CSV when the format is `Auto`.
    pub expected: ExpectedColumn,
    /// CSV: the field delimiter; `None` takes `,`, `;` or tab, whichever
    /// the first lines weighed together say (the one that puts a grid in
    /// a field of its own on most lines, then gives most lines one field
    /// count, then occurs most). Implies CSV when the format is `Auto`.
    pub delimiter: Option<u8>,
    /// Keep each record's text as the input wrote it in
    /// [`Record::written`], to write it back in the input's layout
    /// ([`RecordReader::layout`]). Off by default: it copies every
    /// record.
    pub keep_written: bool,
}

impl ReadOptions {
    /// Why `byte` cannot separate CSV fields, or `None` when it can. A
    /// delimiter must not be something a field holds unquoted or that
    /// ends a line: not a cell character (a digit, or a blank written
    /// `.`, `-`, `_` or `*`, which would cut puzzles apart), not a letter,
    /// a quote, a line break or a non-ASCII byte. The one rule for the
    /// library's readers and the command line's `--delimiter`.
    ///
    /// # Example
    /// ```
    /// use batchdoku_core::ReadOptions;
    /// assert_eq!(ReadOptions::delimiter_problem(b';'), None);
    /// assert_eq!(ReadOptions::delimiter_problem(b'\t'), None);
    /// assert!(ReadOptions::delimiter_problem(b'.').is_some()); // a blank cell
    /// assert!(ReadOptions::delimiter_problem(b'7').is_some());
    /// assert!(ReadOptions::delimiter_problem(b'"').is_some());
    /// ```
    pub fn delimiter_problem(byte: u8) -> Option<&'static str> {
        if super::cell_value(byte).is_some() {
            Some("a cell character: a digit, or a blank written . - _ or *")
        } else if byte.is_ascii_alphabetic() {
            Some("a letter")
        } else if matches!(byte, b'"' | b'\n' | b'\r') {
            Some("a quote or a line break")
        } else if !byte.is_ascii() {
            Some("not an ASCII character")
        } else {
            None
        }
    }
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
    /// JSON objects, one per line (the layout is the reader's `json`).
    Jsonl,
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
///
/// Malformed records come out as records whose `puzzle` is an `Err`; only
/// I/O failures are errors. To read files with decompression and run a job
/// over them on several threads, see the `Batch` of the crate
/// batchdoku-batch.
///
/// CSV records are RFC 4180's, with one bound so that a stray quote costs
/// one record and never the ones after it: a quoted field still open at
/// the end of a physical line goes on to the next line only while the
/// record stays within 16 lines and 4096 bytes of content, and only
/// when that line, read alone, does not hold a puzzle in the puzzle
/// column (unless the quote closes on it and the record so ended holds
/// its puzzle). Otherwise the record is its first line alone, a
/// [`ParseErrorKind::UnclosedQuote`] record, and every line after it is
/// read again. A CSV needs no header: a first record that holds a puzzle
/// in some field is a record, and the puzzle column is then the one that
/// holds puzzles in the first records.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, InputFormat, Record, RecordReader};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// // Two grids in block form (nine lines of nine cells), a blank line between.
/// let text = format!("{}\n{}", puzzle.to_block_string(), puzzle.to_block_string());
/// let mut reader = RecordReader::new(text.as_bytes(), InputFormat::Auto).unwrap();
/// assert_eq!(reader.format(), InputFormat::Block);
///
/// let mut record = Record::default();
/// let mut lines = Vec::new();
/// while reader.read_record(&mut record).unwrap() {
///     assert_eq!(record.puzzle, Ok(puzzle));
///     lines.push(record.line);
/// }
/// assert_eq!(lines, [1, 11]);
/// ```
pub struct RecordReader<R: BufRead> {
    format: InputFormat,
    mode: Mode,
    lines: Lines<R>,
    /// CSV: the record being read, reused.
    csv: Box<CsvRecord>,
    /// CSV: the record reader (lines held for replay, reused buffers).
    csv_rows: Box<CsvRows>,
    /// CSV: the first record is already in `csv` (a headerless file).
    csv_pending: bool,
    /// CSV and JSONL: names of the kept columns, when keeping them.
    kept_names: Option<Vec<String>>,
    /// JSONL: which keys hold what.
    json: Option<Box<JsonLayout>>,
    /// JSONL: the members of the line being read (room reused).
    json_spans: Spans,
    /// Fill each record's [`Record::written`].
    keep_written: bool,
    /// How the input lays out its records.
    layout: InputLayout,
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

/// Reads the lines format detection weighs into `look`, to be replayed:
/// leading blank and comment lines, however many and however long, are
/// read and dropped (their count is returned with the format, so line
/// numbers stay true); then up to [`SAMPLE_LINES`] meaningful lines
/// (within [`SAMPLE_MAX_LINES`] lines) are kept, each with its line ending
/// as read (`\n`, or `\r` whose `\n`, if any, is skipped on replay as on
/// first reading). An overlong meaningful line ends the lookahead: only
/// its first [`MAX_JSON_LINE_BYTES`] (the longest line any reader keeps)
/// are kept, the rest is left in `rdr`.
/// Memory: at most [`SAMPLE_MAX_LINES`] capped lines. Returns the
/// detected format, the leading lines dropped, and the CSV delimiter the
/// sample says (used when the input is read as CSV and none is named).
fn detect_from_lookahead<R: BufRead>(
    rdr: &mut R,
    look: &mut Vec<u8>,
) -> io::Result<(InputFormat, u64, u8)> {
    let mut after_cr = false;
    let mut skipped = 0u64;
    let mut sample: Vec<(usize, usize)> = Vec::new();
    let mut seen = 0;
    while sample.len() < SAMPLE_LINES && seen < SAMPLE_MAX_LINES {
        if std::mem::take(&mut after_cr) {
            // Settle a `\r\n` here, so that the replay (which sees the
            // `\r`) finds its `\n` too, rather than the next line's.
            if next_byte(rdr)? == Some(b'\n') {
                rdr.consume(1);
                if !sample.is_empty() {
                    look.push(b'\n');
                }
            }
        }
        let start = look.len();
        let first_line = skipped == 0 && sample.is_empty();
        let keep = MAX_JSON_LINE_BYTES + if first_line { BOM.len() } else { 0 };
        let Some(mut end) = read_line(rdr, look, keep, &mut after_cr)? else {
            break;
        };
        let bom = if first_line && look[start..].starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        let text = start + bom;
        let mut meaningful_cut = false;
        if end == LineEnd::Cut {
            let prefix = &look[text..];
            if is_comment(prefix) {
                end = skip_line(rdr, &mut after_cr, &mut |_| {})?;
            } else if is_blank(prefix) {
                // Whitespace: blank unless something else follows it.
                match skip_whitespace(rdr, &mut after_cr)? {
                    Some(e) => end = e,
                    None => meaningful_cut = true,
                }
            } else {
                meaningful_cut = true;
            }
        }
        let line = &look[text..];
        let meaningful = meaningful_cut || !(is_blank(line) || is_comment(line));
        if !meaningful && sample.is_empty() {
            skipped += 1;
            look.truncate(start);
            continue;
        }
        if sample.is_empty() {
            seen = 0;
        }
        seen += 1;
        if meaningful {
            sample.push((text, look.len()));
        }
        if meaningful_cut {
            break;
        }
        match end {
            LineEnd::Newline | LineEnd::Cut => look.push(b'\n'),
            LineEnd::Return => look.push(b'\r'),
            LineEnd::Eof => {}
        }
    }
    let lines: Vec<&[u8]> = sample.iter().map(|&(s, e)| &look[s..e]).collect();
    Ok((detect(&lines), skipped, sniff_delimiter(&lines)))
}

/// Consumes whitespace up to the end of the line; returns how the line
/// ended, or `None` when a non-whitespace byte comes first (left unread).
fn skip_whitespace<R: BufRead>(rdr: &mut R, after_cr: &mut bool) -> io::Result<Option<LineEnd>> {
    loop {
        let avail = match rdr.fill_buf() {
            Ok([]) => return Ok(Some(LineEnd::Eof)),
            Ok(avail) => avail,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let n = avail
            .iter()
            .position(|&b| b == b'\n' || b == b'\r' || !b.is_ascii_whitespace());
        match n.map(|i| (i, avail[i])) {
            Some((i, b'\n')) => {
                rdr.consume(i + 1);
                return Ok(Some(LineEnd::Newline));
            }
            Some((i, b'\r')) => {
                rdr.consume(i + 1);
                *after_cr = true;
                return Ok(Some(LineEnd::Return));
            }
            Some((i, _)) => {
                rdr.consume(i);
                return Ok(None);
            }
            None => {
                let n = avail.len();
                rdr.consume(n);
            }
        }
    }
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
    /// `column` not in the CSV header, CSV options on another format, or a
    /// delimiter that cannot separate fields
    /// ([`ReadOptions::delimiter_problem`]).
    pub fn with_options(mut rdr: R, options: &ReadOptions) -> io::Result<Self> {
        if let Some(byte) = options.delimiter {
            if let Some(problem) = ReadOptions::delimiter_problem(byte) {
                return Err(bad_options(format!(
                    "{:?} cannot separate fields ({problem})",
                    char::from(byte)
                )));
            }
        }
        let mut look = Vec::new();
        let csv_named = options.column.is_some()
            || options.delimiter.is_some()
            || matches!(options.expected, ExpectedColumn::Named(_));
        let csv_wanted = csv_named || options.keep_columns;
        // The delimiter named, else the one the sampled lines say (the
        // lines detection weighs, read ahead for CSV named too).
        let (format, skipped, sniffed) = match options.format {
            // Named columns mean CSV, or JSONL keys when the input is JSONL.
            InputFormat::Auto if csv_named => match detect_from_lookahead(&mut rdr, &mut look)? {
                (InputFormat::Jsonl, skipped, d) if options.delimiter.is_none() => {
                    (InputFormat::Jsonl, skipped, d)
                }
                (_, skipped, d) => (InputFormat::Csv, skipped, d),
            },
            InputFormat::Auto => detect_from_lookahead(&mut rdr, &mut look)?,
            // JSONL's keys come from its first objects: read them ahead.
            InputFormat::Jsonl => {
                let (_, skipped, d) = detect_from_lookahead(&mut rdr, &mut look)?;
                (InputFormat::Jsonl, skipped, d)
            }
            InputFormat::Csv if options.delimiter.is_none() => {
                let (_, skipped, d) = detect_from_lookahead(&mut rdr, &mut look)?;
                (InputFormat::Csv, skipped, d)
            }
            f => (f, 0, b','),
        };
        let delimiter = options.delimiter.unwrap_or(sniffed);
        let keyed = format == InputFormat::Jsonl
            && options.delimiter.is_none()
            && (csv_named || options.keep_columns);
        if csv_wanted && format != InputFormat::Csv && !keyed {
            return Err(bad_options(format!(
                "CSV options (a puzzle or expected column, kept columns, a delimiter) need CSV input, \
                 but this input reads as {format}"
            )));
        }
        let json = match format {
            InputFormat::Jsonl => Some(Box::new(
                JsonLayout::new(
                    &sample_objects(&look),
                    options.column.as_deref(),
                    &options.expected,
                )
                .map_err(bad_options)?,
            )),
            _ => None,
        };
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
            InputFormat::Jsonl => Mode::Jsonl,
        };
        let mut reader = RecordReader {
            format: if format == InputFormat::Auto {
                InputFormat::Line
            } else {
                format
            },
            mode,
            lines: Lines::after(src, skipped),
            csv: Box::default(),
            csv_rows: Box::default(),
            csv_pending: false,
            kept_names: None,
            keep_written: options.keep_written,
            layout: match format {
                InputFormat::Block | InputFormat::Luogu => InputLayout::Blocks,
                InputFormat::Csv => InputLayout::Csv {
                    delimiter,
                    header: None,
                    names: Vec::new(),
                },
                InputFormat::Jsonl => InputLayout::Jsonl {
                    keys: json.as_ref().map_or_else(Vec::new, |j| j.keys.clone()),
                },
                _ => InputLayout::Lines,
            },
            json,
            json_spans: Spans::new(),
        };
        if format == InputFormat::Csv {
            reader.read_csv_header(options, delimiter)?;
        }
        if format == InputFormat::Jsonl {
            if options.keep_columns {
                reader.kept_names = reader.json.as_ref().map(|j| j.kept.clone());
            }
            reader.lines.set_cap(MAX_JSON_LINE_BYTES);
        }
        Ok(reader)
    }

    /// CSV read with `keep_columns`: the names of the kept columns, in
    /// order (`field_N` for a headerless file). `None` otherwise.
    pub fn kept_names(&self) -> Option<&[String]> {
        self.kept_names.as_deref()
    }

    /// How the input lays out its records (a CSV header is known once the
    /// reader is made): see [`InputLayout`].
    pub fn layout(&self) -> &InputLayout {
        &self.layout
    }

    /// The format being read (resolved: never `Auto`).
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// True for CSV inputs with a solution column: their records carry
    /// `expected`.
    pub fn has_expected(&self) -> bool {
        match self.mode {
            Mode::Csv { layout } => layout.expected.is_some(),
            Mode::Jsonl => self.json.as_ref().is_some_and(|j| j.expected.is_some()),
            _ => false,
        }
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
            Mode::Jsonl => self.read_json_record(rec),
        }
    }

    fn read_json_record(&mut self, rec: &mut Record) -> io::Result<bool> {
        let Some(layout) = self.json.as_deref() else {
            return Ok(false);
        };
        loop {
            if !self.lines.next_line()? {
                return Ok(false);
            }
            let line = self.lines.line();
            let overlong = self.lines.overlong();
            if is_comment(line) || (!overlong && is_blank(line)) {
                continue;
            }
            if overlong {
                let limit = MAX_JSON_LINE_BYTES as u32;
                let err = ParseError::new(ParseErrorKind::LineTooLong { limit }, 0);
                rec.set(self.lines.line_no(), Err(err));
                return Ok(true);
            }
            let members = Members::parse_reusing(line, &mut self.json_spans);
            rec.set(
                self.lines.line_no(),
                layout.puzzle(members.as_ref().map_err(|&at| at)),
            );
            if self.keep_written {
                rec.written.extend_from_slice(line);
            }
            if let Ok(members) = members {
                rec.expected = layout.expected(&members);
                if self.kept_names.is_some() {
                    rec.kept_is_json = true;
                    for i in 0..layout.kept.len() {
                        rec.kept.extend_from_slice(layout.kept(&members, i));
                        rec.kept_ends.push(rec.kept.len() as u32);
                    }
                }
                members.recycle(&mut self.json_spans);
            }
            return Ok(true);
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
            if self.keep_written {
                rec.written.extend_from_slice(line);
            }
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
}

#[cfg(test)]
mod tests;
