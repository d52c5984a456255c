//! The encoders: [`RowEncoder`] turns [`Row`]s into CSV, JSON lines or
//! bare solution lines ([`OutputFormat`]).
//!
//! Workers encode their rows into a byte buffer per batch (so formatting
//! runs in parallel); the writer thread only copies finished buffers out in
//! input order. Encoding reuses the buffers and never allocates per row
//! once warm.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::as_written::AsWritten;
use super::cells;
use super::path::{Path, PathStep};
use super::schema::{column_names, Column, Expected, Ratings, Row, Split, SOLVE_COLUMNS};
use batchdoku_core::{Analysis, Record};

/// How rows are written.
///
/// # Example
/// ```
/// use batchdoku_batch::{Column, OutputFormat, Row, RowEncoder, Status};
/// use batchdoku_core::{parse_line, Record};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let row = Row { index: 7, status: Status::Ok, puzzle: Some(puzzle), ..Row::default() };
/// let columns = [Column::Puzzle, Column::Index];
/// let mut written = Vec::new();
/// for format in OutputFormat::ALL {
///     let mut out = Vec::new();
///     RowEncoder::new(format, &columns, &[]).encode(&row, &Record::default(), &mut out)?;
///     written.push(String::from_utf8(out).unwrap());
/// }
/// let line = puzzle.to_line_string();
/// assert_eq!(written[0], format!("{line},7\n")); // csv
/// assert_eq!(written[1], format!("{{\"puzzle\":\"{line}\",\"index\":7}}\n")); // jsonl
/// assert_eq!(written[2], format!("{line}\n")); // line: the first column's grid
/// assert_eq!("jsonl".parse::<OutputFormat>(), Ok(OutputFormat::Jsonl));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputFormat {
    /// CSV with a header row (unless suppressed).
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// One 81-character grid per row, an empty line when there is none:
    /// the grid of the first column (`canonical` or `puzzle`), else the
    /// solution.
    Line,
    /// An Apache Parquet file with the CSV's columns: integers as INT64,
    /// text as strings, null where the CSV cell is empty. The encoder
    /// writes binary frames that the output assembles into the file.
    Parquet,
}

impl OutputFormat {
    /// Every format, in the order listed to users.
    pub const ALL: [OutputFormat; 4] = [
        OutputFormat::Csv,
        OutputFormat::Jsonl,
        OutputFormat::Line,
        OutputFormat::Parquet,
    ];

    /// The format's name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Line => "line",
            OutputFormat::Parquet => "parquet",
        }
    }

    /// What the format writes, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            OutputFormat::Csv => "CSV with a header row",
            OutputFormat::Jsonl => "one JSON object per line",
            OutputFormat::Line => "one 81-character grid per record",
            OutputFormat::Parquet => "an Apache Parquet file (typed columns)",
        }
    }

    /// The format a file name asks for by its extension (`.csv`, `.jsonl`,
    /// `.parquet`), looked for under a compression extension (`.gz`,
    /// `.zst`); `None` for any other name.
    ///
    /// ```
    /// use std::path::Path;
    /// use batchdoku_batch::OutputFormat;
    /// assert_eq!(OutputFormat::from_path(Path::new("out.parquet")), Some(OutputFormat::Parquet));
    /// assert_eq!(OutputFormat::from_path(Path::new("out.CSV.gz")), Some(OutputFormat::Csv));
    /// assert_eq!(OutputFormat::from_path(Path::new("out.jsonl.zst")), Some(OutputFormat::Jsonl));
    /// assert_eq!(OutputFormat::from_path(Path::new("puzzles.txt")), None);
    /// ```
    pub fn from_path(path: &std::path::Path) -> Option<OutputFormat> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = [".gz", ".zst"]
            .iter()
            .find_map(|c| name.strip_suffix(c))
            .unwrap_or(&name);
        let (_, extension) = name.rsplit_once('.')?;
        match extension {
            "csv" => Some(OutputFormat::Csv),
            "jsonl" => Some(OutputFormat::Jsonl),
            "parquet" => Some(OutputFormat::Parquet),
            _ => None,
        }
    }
}

impl std::str::FromStr for OutputFormat {
    type Err = String;

    /// Parses a format name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<OutputFormat, String> {
        batchdoku_core::internal::parse_name(
            "output format",
            &OutputFormat::ALL,
            OutputFormat::as_str,
            s,
        )
    }
}

/// A kept field for serde: JSON read from a JSONL input is written back
/// as the text it was read as (a missing key as `null`), any other field
/// as a string (bytes that are not UTF-8 replaced).
struct KeptValue<'a>(&'a Record, usize);

impl Serialize for KeptValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let field = self.0.kept_field(self.1);
        if !self.0.kept_is_json {
            return s.serialize_str(&String::from_utf8_lossy(field));
        }
        let text = std::str::from_utf8(field).ok().filter(|t| !t.is_empty());
        match text.map(serde_json::from_str::<&serde_json::value::RawValue>) {
            Some(Ok(raw)) => raw.serialize(s),
            // The reader checked it: only a missing key comes here.
            _ => s.serialize_none(),
        }
    }
}

/// A row paired with its columns, their names and its record (trailing
/// text, kept fields), for serde.
struct JsonRow<'a> {
    row: &'a Row,
    columns: &'a [Column],
    names: &'a [String],
    record: &'a Record,
    /// The texts of the row's path steps, written before (see
    /// [`PathTexts`]).
    texts: &'a PathTexts,
}

impl Serialize for JsonRow<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let row = self.row;
        let mut map = s.serialize_map(Some(self.columns.len()))?;
        for (&col, key) in self.columns.iter().zip(self.names) {
            match col {
                Column::Index => map.serialize_entry(key, &row.index)?,
                Column::Split => map.serialize_entry(key, &row.split.map(Split::as_str))?,
                Column::Line => map.serialize_entry(key, &row.line)?,
                Column::Puzzle => match &row.puzzle {
                    Some(g) => map.serialize_entry(key, ascii(&g.to_line()))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Status => map.serialize_entry(key, row.status.as_str())?,
                Column::Solutions => map.serialize_entry(key, &row.solutions_known())?,
                Column::Solution => match &row.solution {
                    Some(g) => map.serialize_entry(key, ascii(&g.to_line()))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Guesses => map.serialize_entry(key, &row.guesses)?,
                Column::Score => map.serialize_entry(key, &row.score)?,
                Column::Nodes => map.serialize_entry(key, &row.nodes)?,
                Column::Expected => map.serialize_entry(key, &expected_str(row.expected))?,
                Column::Error => match row.error.is_empty() {
                    true => map.serialize_entry(key, &None::<&str>)?,
                    false => map.serialize_entry(key, &PositionedError(row))?,
                },
                Column::Trailing => {
                    map.serialize_entry(key, &String::from_utf8_lossy(&self.record.trailing))?
                }
                Column::Kept(i) => map.serialize_entry(key, &KeptValue(self.record, i.into()))?,
                Column::Backtracks => map.serialize_entry(key, &row.backtracks)?,
                Column::Givens => map.serialize_entry(key, &row.puzzle.map(|g| g.given_count()))?,
                Column::Singles => map.serialize_entry(key, &row.singles)?,
                Column::Canonical => match &row.canonical {
                    Some(g) => map.serialize_entry(key, ascii(&g.to_line_with(b'0')))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Transform => match &row.transform {
                    Some(t) => map.serialize_entry(key, ascii(&t.to_bytes()))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Dropped => map.serialize_entry(key, &row.dropped)?,
                Column::TrainLine => map.serialize_entry(key, &row.train_line)?,
                Column::Er => map.serialize_entry(key, &rating(row, |r| r.er))?,
                Column::Ep => map.serialize_entry(key, &rating(row, |r| r.ep))?,
                Column::Ed => map.serialize_entry(key, &rating(row, |r| r.ed))?,
                Column::Hardest => {
                    map.serialize_entry(key, &row.ratings.and_then(|r| r.hardest()))?
                }
                Column::Steps => map.serialize_entry(key, &row.ratings.map(|r| r.steps))?,
                // No step (a complete grid): no technique, as `hardest`.
                Column::Techniques => match &row.ratings {
                    Some(r) if r.steps > 0 => map.serialize_entry(key, &TechniqueCounts(r))?,
                    _ => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::MeanGuesses => map.serialize_entry(key, &mean(row, |m| m.0))?,
                Column::MeanBacktracks => map.serialize_entry(key, &mean(row, |m| m.1))?,
                Column::Path => match row.path.is_present() {
                    true => map.serialize_entry(key, &JsonPath(&row.path, self.texts))?,
                    false => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Minimal => map.serialize_entry(key, &measure(row, |a| a.minimal))?,
                Column::Symmetry => map.serialize_entry(key, &symmetry(row))?,
                Column::Redundant | Column::Automorphisms | Column::Te | Column::Backdoor => {
                    map.serialize_entry(key, &count(row, col))?
                }
            }
        }
        map.end()
    }
}

/// The sentences of a row's path steps, one after the other, and where
/// each ends: written before the row is serialized (serde takes `&self`),
/// into buffers the encoder reuses.
#[derive(Debug, Default)]
struct PathTexts {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl PathTexts {
    fn fill(&mut self, path: &Path) {
        self.bytes.clear();
        self.ends.clear();
        for step in path.steps() {
            step.write_text(&mut self.bytes);
            self.ends.push(self.bytes.len());
        }
    }

    /// Step `i`'s sentence.
    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        // ASCII by construction.
        std::str::from_utf8(&self.bytes[start..self.ends[i]]).unwrap_or("")
    }
}

/// A path as a JSON list of step objects.
struct JsonPath<'a>(&'a Path, &'a PathTexts);

impl Serialize for JsonPath<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for (i, step) in self.0.steps().enumerate() {
            seq.serialize_element(&JsonStep(step, self.1.get(i)))?;
        }
        seq.end()
    }
}

/// One step: `{"technique", "rating", "placements", "eliminations", "text"}`.
struct JsonStep<'a>(PathStep<'a>, &'a str);

impl Serialize for JsonStep<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let step = self.0;
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("technique", step.technique())?;
        map.serialize_entry("rating", &(f64::from(step.rating()) / 10.0))?;
        map.serialize_entry("placements", &JsonMoves(step, true))?;
        map.serialize_entry("eliminations", &JsonMoves(step, false))?;
        map.serialize_entry("text", self.1)?;
        map.end()
    }
}

/// A step's placements (`true`) or eliminations as a JSON list of strings.
struct JsonMoves<'a>(PathStep<'a>, bool);

impl Serialize for JsonMoves<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        if self.1 {
            for m in self.0.placements() {
                seq.serialize_element(m.as_str())?;
            }
        } else {
            for m in self.0.eliminations() {
                seq.serialize_element(m.as_str())?;
            }
        }
        seq.end()
    }
}

/// Writes a path as one CSV cell: steps separated by `;`, each step's
/// fields by `|` (technique, rating, placements, eliminations, text), the
/// moves of a list by spaces: `hidden single|1.2|r6c2=4||4 in box 4 only
/// at r6c2;pointing|2.6||r1c6<>2 r2c6<>2|2 in box 2 only in column 6`.
/// No technique name, move or sentence holds a `;` or a `|`.
fn write_path_cell(out: &mut Vec<u8>, path: &Path) {
    for (i, step) in path.steps().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        out.extend_from_slice(step.technique().as_bytes());
        out.push(b'|');
        write_tenths(out, step.rating());
        out.push(b'|');
        for (k, m) in step.placements().enumerate() {
            if k > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(m.as_bytes());
        }
        out.push(b'|');
        for (k, m) in step.eliminations().enumerate() {
            if k > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(m.as_bytes());
        }
        out.push(b'|');
        step.write_text(out);
    }
}

/// A row's error text as users see it: `source:line: ` (the record's
/// position, when the row has a source) and the error.
struct PositionedError<'a>(&'a Row);

impl std::fmt::Display for PositionedError<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let row = self.0;
        if !row.source.is_empty() {
            write!(f, "{}:{}: ", row.source, row.line)?;
        }
        f.write_str(&row.error)
    }
}

impl Serialize for PositionedError<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A row of [`SOLVE_COLUMNS`] without an error, as CSV: the bytes
/// [`RowEncoder::encode_csv`] writes (no field of it needs quotes, the last
/// is empty), in straight-line code: no dispatch per column, written into
/// room made once at the end of `out` (no capacity check per field), the
/// grids copied at their known length.
fn encode_solve_csv(row: &Row, out: &mut Vec<u8>) {
    debug_assert!(row.error.is_empty());
    let start = out.len();
    out.resize(start + SOLVE_ROW_MAX, 0);
    let room: &mut [u8; SOLVE_ROW_MAX] =
        (&mut out[start..]).try_into().expect("room was made above");
    let mut at = 0;
    at = put_u64(room, at, row.index);
    room[at] = b',';
    at = put_u64(room, at + 1, row.line);
    room[at] = b',';
    at += 1;
    if let Some(g) = &row.puzzle {
        at = put(room, at, &g.to_line());
    }
    room[at] = b',';
    at = put(room, at + 1, row.status.as_str().as_bytes());
    room[at] = b',';
    at += 1;
    if let Some(n) = row.solutions_known() {
        at = put_u64(room, at, n);
    }
    room[at] = b',';
    at += 1;
    if let Some(g) = &row.solution {
        at = put(room, at, &g.to_line());
    }
    room[at] = b',';
    at = put_u64(room, at + 1, row.guesses);
    // The error column, empty.
    at = put(room, at, b",\n");
    out.truncate(start + at);
}

/// The longest row [`encode_solve_csv`] writes: four numbers of at most 20
/// characters, two grids, a status of at most 10 and 8 separators.
const SOLVE_ROW_MAX: usize = 4 * 20 + 2 * 81 + 10 + 8;

/// Copies `bytes` into `room` at `at`; returns the position after them.
#[inline(always)]
fn put(room: &mut [u8; SOLVE_ROW_MAX], at: usize, bytes: &[u8]) -> usize {
    room[at..at + bytes.len()].copy_from_slice(bytes);
    at + bytes.len()
}

/// [`put`] of `n` in decimal, as [`CsvFields::num`] writes it (the same
/// `i64` conversion: what does not fit is written negative, as there).
#[inline(always)]
fn put_u64(room: &mut [u8; SOLVE_ROW_MAX], at: usize, n: u64) -> usize {
    if n < 10 {
        room[at] = b'0' + n as u8;
        at + 1
    } else {
        put(room, at, itoa::Buffer::new().format(n as i64).as_bytes())
    }
}

fn ascii(line: &[u8]) -> &str {
    // Grid lines and transforms are ASCII by construction.
    std::str::from_utf8(line).unwrap_or("")
}

fn expected_str(expected: Option<Expected>) -> Option<&'static str> {
    expected.map(Expected::as_str)
}

/// One of a row's ratings (tenths) as a number with one decimal.
fn rating(row: &Row, which: impl Fn(&Ratings) -> u8) -> Option<f64> {
    row.ratings.as_ref().map(|r| f64::from(which(r)) / 10.0)
}

/// One of a row's invariant means, rounded to three decimals (the
/// precision every output format writes).
fn mean(row: &Row, which: impl Fn((f64, f64)) -> f64) -> Option<f64> {
    row.invariant.map(|m| (which(m) * 1000.0).round() / 1000.0)
}

/// One of a row's `analyze` measures, `None` when the row has none.
fn measure<T>(row: &Row, which: impl Fn(&Analysis) -> Option<T>) -> Option<T> {
    row.analysis.as_ref().and_then(which)
}

/// A row's count measure of `analyze` in `column` (`redundant`,
/// `automorphisms`, `te`, `backdoor`).
fn count(row: &Row, column: Column) -> Option<u64> {
    measure(row, |a| match column {
        Column::Redundant => a.redundant.map(u64::from),
        Column::Automorphisms => a.automorphisms,
        Column::Te => a.te.map(u64::from),
        Column::Backdoor => a.backdoor.map(u64::from),
        _ => None,
    })
}

/// A row's `symmetry` measure as its text.
fn symmetry(row: &Row) -> Option<&'static str> {
    measure(row, |a| a.symmetry).map(|s| s.as_str())
}

/// Writes a rating in tenths with one decimal (`71` as `7.1`).
fn write_tenths(out: &mut Vec<u8>, tenths: u8) {
    let mut buf = itoa::Buffer::new();
    out.extend_from_slice(buf.format(tenths / 10).as_bytes());
    out.push(b'.');
    out.push(b'0' + tenths % 10);
}

/// The technique counts as one text field: `hidden single:54;pointing:3`.
fn write_techniques(out: &mut Vec<u8>, ratings: &Ratings) {
    let mut buf = itoa::Buffer::new();
    for (i, (name, n)) in ratings.techniques().enumerate() {
        if i > 0 {
            out.push(b';');
        }
        out.extend_from_slice(name.as_bytes());
        out.push(b':');
        out.extend_from_slice(buf.format(n).as_bytes());
    }
}

/// The technique counts as a JSON object, in ladder order.
struct TechniqueCounts<'a>(&'a Ratings);

impl Serialize for TechniqueCounts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for (name, n) in self.0.techniques() {
            map.serialize_entry(name, &n)?;
        }
        map.end()
    }
}

/// Writes CSV fields into a growing byte buffer. `csv-core` decides which
/// fields need quotes (a comma, a quote or a line break) and writes those,
/// quotes doubled; every other field is appended as is, and delimiters and
/// terminators are plain bytes, so a row of digits never goes through
/// csv-core's state machine.
#[derive(Debug)]
pub(super) struct CsvFields {
    /// Quotes the fields that need it; idle between them.
    quoter: csv_core::Writer,
    /// Fields written in the current record.
    fields: usize,
    /// The last field written was empty.
    last_empty: bool,
}

impl CsvFields {
    pub(super) fn new() -> CsvFields {
        CsvFields {
            quoter: csv_core::Writer::new(),
            fields: 0,
            last_empty: false,
        }
    }

    pub(super) fn field(&mut self, out: &mut Vec<u8>, field: &[u8]) {
        if !self.quoter.should_quote(field) {
            return self.plain(out, field);
        }
        self.delimit(out);
        self.last_empty = false;
        // Room for every byte doubled and both quotes; `finish` writes the
        // closing quote and leaves the writer idle again.
        let start = out.len();
        out.resize(start + 2 * field.len() + 2, 0);
        let (_, _, body) = self.quoter.field(field, &mut out[start..]);
        let (_, close) = self.quoter.finish(&mut out[start + body..]);
        out.truncate(start + body + close);
    }

    /// A field known to need no quoting (digits, `.`, status names), or
    /// checked to need none: appended as is.
    fn plain(&mut self, out: &mut Vec<u8>, field: &[u8]) {
        debug_assert!(!self.quoter.should_quote(field));
        self.delimit(out);
        self.last_empty = field.is_empty();
        out.extend_from_slice(field);
    }

    fn delimit(&mut self, out: &mut Vec<u8>) {
        if self.fields > 0 {
            out.push(b',');
        }
        self.fields += 1;
    }

    pub(super) fn num(&mut self, out: &mut Vec<u8>, n: i64) {
        self.delimit(out);
        self.last_empty = false;
        // One digit (counts and guesses, mostly) without a copy of a
        // formatted buffer.
        if let Ok(digit @ 0..=9) = u8::try_from(n) {
            out.push(b'0' + digit);
        } else {
            let mut buf = itoa::Buffer::new();
            out.extend_from_slice(buf.format(n).as_bytes());
        }
    }

    /// A grid's 81 characters: a copy of known length.
    fn grid(&mut self, out: &mut Vec<u8>, line: &[u8; 81]) {
        self.delimit(out);
        self.last_empty = false;
        out.extend_from_slice(line);
    }

    fn opt_num(&mut self, out: &mut Vec<u8>, n: Option<u64>) {
        match n {
            Some(n) => self.num(out, n as i64),
            None => self.plain(out, b""),
        }
    }

    pub(super) fn end(&mut self, out: &mut Vec<u8>) {
        // A record of one empty field is written `""`, or it would read
        // back as a blank line.
        if self.fields == 1 && self.last_empty {
            out.extend_from_slice(b"\"\"");
        }
        out.push(b'\n');
        self.fields = 0;
        self.last_empty = false;
    }
}

/// Encodes rows into a byte buffer in one output format. One per worker.
///
/// CSV fields are quoted only when they need it; an invalid row's error is
/// written after the record's position (`source:line: `).
///
/// # Example
/// ```
/// use std::sync::Arc;
/// use batchdoku_batch::{Column, OutputFormat, Row, RowEncoder, Status};
/// use batchdoku_core::Record;
/// let columns = [Column::Index, Column::Status, Column::Error];
/// let mut encoder = RowEncoder::new(OutputFormat::Csv, &columns, &[]);
/// let mut out = RowEncoder::header(OutputFormat::Csv, &columns, &[]);
/// let row = Row {
///     source: Arc::from("in.txt"),
///     index: 2,
///     line: 7,
///     status: Status::Invalid,
///     error: "bad, very bad".to_string(),
///     ..Row::default()
/// };
/// encoder.encode(&row, &Record::default(), &mut out)?; // appends
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "index,status,error\n2,invalid,\"in.txt:7: bad, very bad\"\n"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct RowEncoder {
    format: OutputFormat,
    /// Write records as their input wrote them instead (`format` and the
    /// columns unused).
    as_written: Option<AsWritten>,
    columns: Vec<Column>,
    names: Vec<String>,
    /// The columns are `solve`'s ([`SOLVE_COLUMNS`]) written as CSV: rows
    /// without an error take [`RowEncoder::encode_solve_csv`].
    solve_csv: bool,
    csv: CsvFields,
    /// The error text with its position, reused from row to row.
    error: Vec<u8>,
    /// The path steps' sentences of a JSON row, reused from row to row.
    texts: PathTexts,
}

impl RowEncoder {
    /// An encoder writing `columns` in `format`; `kept_names` names the
    /// [`Column::Kept`] ones.
    pub fn new(format: OutputFormat, columns: &[Column], kept_names: &[String]) -> RowEncoder {
        RowEncoder {
            format,
            as_written: None,
            columns: columns.to_vec(),
            names: column_names(columns, kept_names),
            solve_csv: format == OutputFormat::Csv && columns == SOLVE_COLUMNS,
            csv: CsvFields::new(),
            error: Vec::new(),
            texts: PathTexts::default(),
        }
    }

    /// An encoder writing each record as its input wrote it, in `layout`
    /// (see [`AsWritten`]); its header is [`AsWritten::header`].
    pub fn as_written(layout: AsWritten) -> RowEncoder {
        RowEncoder {
            as_written: Some(layout),
            ..RowEncoder::new(OutputFormat::Csv, &[], &[])
        }
    }

    /// The header line for CSV output; for Parquet the schema frame (the
    /// column names and types), which must come before the rows; empty
    /// for other formats.
    pub fn header(format: OutputFormat, columns: &[Column], kept_names: &[String]) -> Vec<u8> {
        let mut out = Vec::new();
        match format {
            OutputFormat::Csv => {
                let mut csv = CsvFields::new();
                for name in column_names(columns, kept_names) {
                    csv.field(&mut out, name.as_bytes());
                }
                csv.end(&mut out);
            }
            OutputFormat::Parquet => {
                cells::schema(columns, &column_names(columns, kept_names), &mut out)
            }
            OutputFormat::Jsonl | OutputFormat::Line => {}
        }
        out
    }

    /// Appends one row to `out`, taking trailing text and kept fields from
    /// its `record`.
    pub fn encode(&mut self, row: &Row, record: &Record, out: &mut Vec<u8>) -> std::io::Result<()> {
        if let Some(layout) = &self.as_written {
            layout.encode(row, record, out);
            return Ok(());
        }
        match self.format {
            OutputFormat::Line => {
                let grid = match self.columns.first() {
                    Some(Column::Canonical) => row.canonical.map(|g| g.to_line_with(b'0')),
                    Some(Column::Puzzle) => row.puzzle.map(|g| g.to_line()),
                    _ => row.solution.map(|g| g.to_line()),
                };
                if let Some(line) = grid {
                    out.extend_from_slice(&line);
                }
                out.push(b'\n');
            }
            OutputFormat::Jsonl => {
                if row.path.is_present() && self.columns.contains(&Column::Path) {
                    self.texts.fill(&row.path);
                }
                let json = JsonRow {
                    row,
                    columns: &self.columns,
                    names: &self.names,
                    record,
                    texts: &self.texts,
                };
                serde_json::to_writer(&mut *out, &json)?;
                out.push(b'\n');
            }
            OutputFormat::Csv if self.solve_csv && row.error.is_empty() => {
                encode_solve_csv(row, out)
            }
            OutputFormat::Csv => self.encode_csv(row, record, out),
            OutputFormat::Parquet => self.encode_cells(row, record, out),
        }
        Ok(())
    }

    /// The row as a frame of cells (see [`cells`]), each stored as
    /// [`cells::Kind::of`] its column says.
    fn encode_cells(&mut self, row: &Row, record: &Record, out: &mut Vec<u8>) {
        let start = cells::begin(cells::ROW, out);
        for &col in &self.columns {
            match col {
                Column::Index => cells::int(out, row.index as i64),
                Column::Split => cells::opt_str(out, row.split.map(|s| s.as_str().as_bytes())),
                Column::Line => cells::int(out, row.line as i64),
                Column::Puzzle => cells::opt_str(
                    out,
                    row.puzzle.map(|g| g.to_line()).as_ref().map(|l| &l[..]),
                ),
                Column::Status => cells::str(out, row.status.as_str().as_bytes()),
                Column::Solutions => cells::opt_int(out, row.solutions_known().map(|n| n as i64)),
                Column::Solution => cells::opt_str(
                    out,
                    row.solution.map(|g| g.to_line()).as_ref().map(|l| &l[..]),
                ),
                Column::Guesses => cells::int(out, row.guesses as i64),
                Column::Score => cells::opt_int(out, row.score),
                Column::Nodes => cells::int(out, row.nodes as i64),
                Column::Expected => {
                    cells::opt_str(out, expected_str(row.expected).map(str::as_bytes))
                }
                Column::Error => {
                    self.error.clear();
                    if row.error.is_empty() {
                        cells::opt_str(out, None);
                    } else {
                        use std::io::Write as _;
                        // Writing into a Vec cannot fail.
                        let _ = write!(self.error, "{}", PositionedError(row));
                        cells::opt_str(out, Some(&self.error));
                    }
                }
                // Parquet text is UTF-8: input bytes that are not are
                // replaced, as in JSON lines.
                Column::Trailing => {
                    cells::str(out, String::from_utf8_lossy(&record.trailing).as_bytes())
                }
                Column::Kept(i) => cells::str(
                    out,
                    String::from_utf8_lossy(&record.kept_text(i.into())).as_bytes(),
                ),
                Column::Backtracks => cells::int(out, row.backtracks as i64),
                Column::Givens => cells::opt_int(out, row.puzzle.map(|g| g.given_count() as i64)),
                Column::Singles => cells::opt_bool(out, row.singles),
                Column::Canonical => cells::opt_str(
                    out,
                    row.canonical
                        .map(|g| g.to_line_with(b'0'))
                        .as_ref()
                        .map(|l| &l[..]),
                ),
                Column::Transform => cells::opt_str(
                    out,
                    row.transform.map(|t| t.to_bytes()).as_ref().map(|l| &l[..]),
                ),
                Column::Dropped => cells::opt_int(out, row.dropped.map(|n| n as i64)),
                Column::TrainLine => cells::opt_int(out, row.train_line.map(|n| n as i64)),
                Column::Er => cells::opt_real(out, rating(row, |r| r.er)),
                Column::Ep => cells::opt_real(out, rating(row, |r| r.ep)),
                Column::Ed => cells::opt_real(out, rating(row, |r| r.ed)),
                Column::Hardest => cells::opt_str(
                    out,
                    row.ratings.and_then(|r| r.hardest()).map(str::as_bytes),
                ),
                Column::Steps => cells::opt_int(out, row.ratings.map(|r| i64::from(r.steps))),
                Column::Techniques => {
                    self.error.clear();
                    match &row.ratings {
                        Some(r) if r.steps > 0 => {
                            write_techniques(&mut self.error, r);
                            cells::opt_str(out, Some(&self.error));
                        }
                        _ => cells::opt_str(out, None),
                    }
                }
                Column::MeanGuesses => cells::opt_real(out, mean(row, |m| m.0)),
                Column::MeanBacktracks => cells::opt_real(out, mean(row, |m| m.1)),
                Column::Path => cells::path(out, &row.path),
                Column::Minimal => cells::opt_bool(out, measure(row, |a| a.minimal)),
                Column::Symmetry => cells::opt_str(out, symmetry(row).map(str::as_bytes)),
                Column::Redundant | Column::Automorphisms | Column::Te | Column::Backdoor => {
                    cells::opt_int(out, count(row, col).map(|n| n as i64))
                }
            }
        }
        cells::end(start, out);
    }

    fn encode_csv(&mut self, row: &Row, record: &Record, out: &mut Vec<u8>) {
        let csv = &mut self.csv;
        for &col in &self.columns {
            match col {
                Column::Index => csv.num(out, row.index as i64),
                Column::Split => csv.plain(out, row.split.map_or("", Split::as_str).as_bytes()),
                Column::Line => csv.num(out, row.line as i64),
                Column::Puzzle => match &row.puzzle {
                    Some(g) => csv.grid(out, &g.to_line()),
                    None => csv.plain(out, b""),
                },
                Column::Status => csv.plain(out, row.status.as_str().as_bytes()),
                Column::Solutions => match row.solutions_known() {
                    Some(n) => csv.num(out, n as i64),
                    None => csv.plain(out, b""),
                },
                Column::Solution => match &row.solution {
                    Some(g) => csv.grid(out, &g.to_line()),
                    None => csv.plain(out, b""),
                },
                Column::Guesses => csv.num(out, row.guesses as i64),
                Column::Score => match row.score {
                    Some(s) => csv.num(out, s),
                    None => csv.plain(out, b""),
                },
                Column::Nodes => csv.num(out, row.nodes as i64),
                Column::Expected => {
                    csv.field(out, expected_str(row.expected).unwrap_or("").as_bytes())
                }
                Column::Error => {
                    self.error.clear();
                    if !row.error.is_empty() {
                        use std::io::Write as _;
                        // Writing into a Vec cannot fail.
                        let _ = write!(self.error, "{}", PositionedError(row));
                    }
                    csv.field(out, &self.error)
                }
                Column::Trailing => csv.field(out, &record.trailing),
                Column::Kept(i) => csv.field(out, &record.kept_text(i.into())),
                Column::Backtracks => csv.num(out, row.backtracks as i64),
                Column::Givens => csv.opt_num(out, row.puzzle.map(|g| g.given_count() as u64)),
                Column::Singles => match row.singles {
                    Some(s) => csv.plain(out, if s { b"true" } else { b"false" }),
                    None => csv.plain(out, b""),
                },
                Column::Canonical => match &row.canonical {
                    Some(g) => csv.plain(out, &g.to_line_with(b'0')),
                    None => csv.plain(out, b""),
                },
                Column::Transform => match &row.transform {
                    Some(t) => csv.plain(out, &t.to_bytes()),
                    None => csv.plain(out, b""),
                },
                Column::Dropped => csv.opt_num(out, row.dropped),
                Column::TrainLine => csv.opt_num(out, row.train_line),
                Column::Er | Column::Ep | Column::Ed => {
                    self.error.clear();
                    if let Some(r) = &row.ratings {
                        let tenths = match col {
                            Column::Er => r.er,
                            Column::Ep => r.ep,
                            _ => r.ed,
                        };
                        write_tenths(&mut self.error, tenths);
                    }
                    csv.plain(out, &self.error);
                }
                Column::Hardest => csv.plain(
                    out,
                    row.ratings
                        .and_then(|r| r.hardest())
                        .unwrap_or("")
                        .as_bytes(),
                ),
                Column::Steps => csv.opt_num(out, row.ratings.map(|r| u64::from(r.steps))),
                Column::Techniques => {
                    self.error.clear();
                    if let Some(r) = &row.ratings {
                        write_techniques(&mut self.error, r);
                    }
                    csv.plain(out, &self.error);
                }
                Column::MeanGuesses | Column::MeanBacktracks => {
                    self.error.clear();
                    let which = if col == Column::MeanGuesses {
                        mean(row, |m| m.0)
                    } else {
                        mean(row, |m| m.1)
                    };
                    if let Some(x) = which {
                        use std::io::Write as _;
                        // Writing into a Vec cannot fail.
                        let _ = write!(self.error, "{x:.3}");
                    }
                    csv.plain(out, &self.error);
                }
                Column::Path => {
                    self.error.clear();
                    write_path_cell(&mut self.error, &row.path);
                    csv.field(out, &self.error);
                }
                Column::Minimal => match measure(row, |a| a.minimal) {
                    Some(m) => csv.plain(out, if m { b"true" } else { b"false" }),
                    None => csv.plain(out, b""),
                },
                Column::Symmetry => csv.plain(out, symmetry(row).unwrap_or("").as_bytes()),
                Column::Redundant | Column::Automorphisms | Column::Te | Column::Backdoor => {
                    csv.opt_num(out, count(row, col))
                }
            }
        }
        csv.end(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Status;
    use batchdoku_core::{parse_line, Engine, Grid};

    /// `solve`'s CSV rows take a straight-line path: it writes the bytes
    /// of the column-by-column encoder, whatever the row holds.
    #[test]
    fn solve_rows_fast_path_writes_the_general_bytes() {
        let puzzle = parse_line(
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        )
        .unwrap();
        let solution = batchdoku_core::Solver::new()
            .solve_first(&puzzle)
            .unwrap()
            .solution;
        let statuses = [
            Status::Solved,
            Status::Unique,
            Status::Multiple,
            Status::Unsolvable,
            Status::Limit,
        ];
        let numbers = [0, 1, 9, 10, 99, 12345, u64::from(u32::MAX), u64::MAX];
        let mut fast = RowEncoder::new(OutputFormat::Csv, &SOLVE_COLUMNS, &[]);
        assert!(fast.solve_csv);
        let mut general = RowEncoder::new(OutputFormat::Csv, &SOLVE_COLUMNS, &[]);
        let mut rows = 0;
        for (i, &status) in statuses.iter().enumerate() {
            for (j, &n) in numbers.iter().enumerate() {
                let row = Row {
                    index: n,
                    line: numbers[(j + 3) % numbers.len()],
                    status,
                    puzzle: (j % 3 != 0).then_some(puzzle),
                    solution: (j % 2 == 0).then_some(solution.unwrap_or_else(Grid::empty)),
                    solutions: numbers[(i + j) % numbers.len()],
                    guesses: numbers[(i + 2 * j) % numbers.len()],
                    ..Row::default()
                };
                let (mut a, mut b) = (b"x".to_vec(), b"x".to_vec());
                fast.encode(&row, &Record::default(), &mut a).unwrap();
                general.encode_csv(&row, &Record::default(), &mut b);
                assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
                rows += 1;
            }
        }
        assert_eq!(rows, statuses.len() * numbers.len());
    }
}
