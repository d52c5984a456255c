//! The output schema: one [`Row`] per input record, a [`Status`] enum, the
//! selectable [`Column`]s, and the encoders that turn rows into CSV, JSON
//! lines or bare solution lines.
//!
//! Workers encode their rows into a byte buffer per batch (so formatting
//! runs in parallel); the writer thread only copies finished buffers out in
//! input order. Encoding reuses the buffers and never allocates per row
//! once warm.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::canon::Transform;
use crate::grid::Grid;
use crate::parse::Record;

/// The outcome class of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// A solution was found (count limit 1; scored search complete).
    Solved,
    /// Exactly one solution (count limit 2 or more).
    Unique,
    /// At least two solutions (count limit 2 or more).
    Multiple,
    /// Consistent givens but no solution.
    Unsolvable,
    /// Malformed record or contradictory givens.
    Invalid,
    /// The per-puzzle node limit was hit; the result is not proven.
    Limit,
    /// Processed without solving (canonical forms, kept by `dedupe`).
    Ok,
    /// A copy of an earlier record (`dedupe`): counted, never written.
    Duplicate,
    /// A test record equivalent to a training record (`overlap`).
    Leak,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 9] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
        Status::Limit,
        Status::Ok,
        Status::Duplicate,
        Status::Leak,
    ];

    /// The lowercase name written in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Limit => "limit",
            Status::Ok => "ok",
            Status::Duplicate => "duplicate",
            Status::Leak => "leak",
        }
    }

    /// Position in [`Status::ALL`].
    pub fn ordinal(self) -> usize {
        self as usize
    }
}

/// One output column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// 1-based record number in input order.
    Index,
    /// Source line where the record starts.
    Line,
    /// The puzzle, 81 characters with `.` blanks (empty when malformed).
    Puzzle,
    /// The status name.
    Status,
    /// Number of solutions found (up to the count limit).
    Solutions,
    /// The solution (81 digits), empty when none.
    Solution,
    /// Branch points of the search.
    Guesses,
    /// Best score (scored search): -1 when no solution, empty when invalid.
    Score,
    /// Nodes searched.
    Nodes,
    /// `match`/`mismatch` against the input's expected solution.
    Expected,
    /// What is wrong with an invalid record, with its source and line.
    Error,
    /// Text that followed the cells on the input line.
    Trailing,
    /// Dead ends of the search (`solve --rate`).
    Backtracks,
    /// `true` when naked and hidden singles alone solve the puzzle
    /// (`solve --rate`).
    Singles,
    /// The canonical (minlex) form, 81 characters with `0` blanks.
    Canonical,
    /// The transformation mapping the puzzle to its canonical form.
    Transform,
    /// Copies of this record dropped by `dedupe`.
    Dropped,
    /// The training-set line of an equivalent record (`overlap`).
    TrainLine,
    /// Input CSV column `n` carried through (`--keep-columns`), counted
    /// among the kept columns.
    Kept(u16),
}

impl Column {
    /// The header name of the column.
    pub fn name(self) -> &'static str {
        match self {
            Column::Index => "index",
            Column::Line => "line",
            Column::Puzzle => "puzzle",
            Column::Status => "status",
            Column::Solutions => "solutions",
            Column::Solution => "solution",
            Column::Guesses => "guesses",
            Column::Score => "score",
            Column::Nodes => "nodes",
            Column::Expected => "expected",
            Column::Error => "error",
            Column::Trailing => "trailing",
            Column::Backtracks => "backtracks",
            Column::Singles => "singles",
            Column::Canonical => "canonical",
            Column::Transform => "transform",
            Column::Dropped => "dropped",
            Column::TrainLine => "train_line",
            Column::Kept(_) => "kept",
        }
    }
}

/// The header names of `columns`: each column's name, and for kept input
/// columns their input name (prefixed `input_` when it would repeat one
/// of ours).
pub fn column_names(columns: &[Column], kept_names: &[String]) -> Vec<String> {
    columns
        .iter()
        .map(|&c| match c {
            Column::Kept(i) => {
                let name = kept_names.get(i as usize).map_or("", String::as_str);
                if columns
                    .iter()
                    .any(|o| !matches!(o, Column::Kept(_)) && o.name() == name)
                {
                    format!("input_{name}")
                } else {
                    name.to_string()
                }
            }
            c => c.name().to_string(),
        })
        .collect()
}

/// The columns of `solve` (before the optional `expected` and `trailing`).
pub const SOLVE_COLUMNS: [Column; 8] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Solutions,
    Column::Solution,
    Column::Guesses,
    Column::Error,
];

/// The columns of `score` (before the optional `solutions` and `trailing`).
pub const SCORE_COLUMNS: [Column; 8] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Score,
    Column::Solution,
    Column::Nodes,
    Column::Error,
];

/// The columns of `canon` (before the optional `trailing`).
pub const CANON_COLUMNS: [Column; 7] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Canonical,
    Column::Transform,
    Column::Error,
];

/// The columns of `dedupe` (before the optional `trailing`).
pub const DEDUPE_COLUMNS: [Column; 7] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Canonical,
    Column::Dropped,
    Column::Error,
];

/// The columns of `overlap`: one row per leaking test record (and per
/// invalid record of either input).
pub const OVERLAP_COLUMNS: [Column; 7] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::TrainLine,
    Column::Canonical,
    Column::Error,
];

/// How rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// CSV with a header row (unless suppressed).
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// One 81-character grid per row, an empty line when there is none:
    /// the grid of the first column (`canonical` or `puzzle`), else the
    /// solution.
    Line,
}

impl OutputFormat {
    /// The format's name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Line => "line",
        }
    }
}

/// The result of processing one record, filled by a job and read by the
/// encoder. Reused across records: `reset` clears it.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based record number.
    pub index: u64,
    /// Source line of the record.
    pub line: u64,
    /// The parsed puzzle, when well-formed.
    pub puzzle: Option<Grid>,
    /// Outcome class.
    pub status: Status,
    /// Solutions found.
    pub solutions: u64,
    /// The solution written out.
    pub solution: Option<Grid>,
    /// Branch points.
    pub guesses: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Best score, when scored.
    pub score: Option<i64>,
    /// Whether the expected solution matched, when the input had one.
    pub expected: Option<bool>,
    /// Dead ends of the search.
    pub backtracks: u64,
    /// Whether singles alone solve the puzzle, when rated.
    pub singles: Option<bool>,
    /// The canonical form, when computed.
    pub canonical: Option<Grid>,
    /// The transformation to the canonical form.
    pub transform: Option<Transform>,
    /// Copies dropped (dedupe).
    pub dropped: Option<u64>,
    /// Line of the equivalent training record (overlap).
    pub train_line: Option<u64>,
    /// Error text (empty unless invalid).
    pub error: String,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            index: 0,
            line: 0,
            puzzle: None,
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            guesses: 0,
            nodes: 0,
            score: None,
            expected: None,
            backtracks: 0,
            singles: None,
            canonical: None,
            transform: None,
            dropped: None,
            train_line: None,
            error: String::new(),
        }
    }
}

impl Row {
    /// Clears the row for the next record, keeping the error buffer.
    pub fn reset(&mut self, index: u64, line: u64) {
        self.index = index;
        self.line = line;
        self.puzzle = None;
        self.status = Status::Invalid;
        self.solutions = 0;
        self.solution = None;
        self.guesses = 0;
        self.nodes = 0;
        self.score = None;
        self.expected = None;
        self.backtracks = 0;
        self.singles = None;
        self.canonical = None;
        self.transform = None;
        self.dropped = None;
        self.train_line = None;
        self.error.clear();
    }
}

/// A row paired with its columns, their names and its record (trailing
/// text, kept fields), for serde.
struct JsonRow<'a> {
    row: &'a Row,
    columns: &'a [Column],
    names: &'a [String],
    record: &'a Record,
}

impl Serialize for JsonRow<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let row = self.row;
        let mut map = s.serialize_map(Some(self.columns.len()))?;
        for (&col, key) in self.columns.iter().zip(self.names) {
            match col {
                Column::Index => map.serialize_entry(key, &row.index)?,
                Column::Line => map.serialize_entry(key, &row.line)?,
                Column::Puzzle => match &row.puzzle {
                    Some(g) => map.serialize_entry(key, ascii(&g.to_line()))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Status => map.serialize_entry(key, row.status.as_str())?,
                Column::Solutions => map.serialize_entry(key, &row.solutions)?,
                Column::Solution => match &row.solution {
                    Some(g) => map.serialize_entry(key, ascii(&g.to_line()))?,
                    None => map.serialize_entry(key, &None::<&str>)?,
                },
                Column::Guesses => map.serialize_entry(key, &row.guesses)?,
                Column::Score => map.serialize_entry(key, &row.score)?,
                Column::Nodes => map.serialize_entry(key, &row.nodes)?,
                Column::Expected => map.serialize_entry(key, &expected_str(row.expected))?,
                Column::Error => {
                    let e = (!row.error.is_empty()).then_some(row.error.as_str());
                    map.serialize_entry(key, &e)?
                }
                Column::Trailing => {
                    map.serialize_entry(key, &String::from_utf8_lossy(&self.record.trailing))?
                }
                Column::Kept(i) => map.serialize_entry(
                    key,
                    &String::from_utf8_lossy(self.record.kept_field(i as usize)),
                )?,
                Column::Backtracks => map.serialize_entry(key, &row.backtracks)?,
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
            }
        }
        map.end()
    }
}

fn ascii(line: &[u8]) -> &str {
    // Grid lines and transforms are ASCII by construction.
    std::str::from_utf8(line).unwrap_or("")
}

fn expected_str(expected: Option<bool>) -> Option<&'static str> {
    expected.map(|m| if m { "match" } else { "mismatch" })
}

/// "00" to "99", for writing numbers two digits at a time.
const DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Writes CSV fields into a growing byte buffer. `csv-core` decides which
/// fields need quotes (a comma, a quote or a line break) and writes those,
/// quotes doubled; every other field is appended as is, and delimiters and
/// terminators are plain bytes, so a row of digits never goes through
/// csv-core's state machine.
#[derive(Debug)]
struct CsvFields {
    /// Quotes the fields that need it; idle between them.
    quoter: csv_core::Writer,
    /// Fields written in the current record.
    fields: usize,
    /// The last field written was empty.
    last_empty: bool,
}

impl CsvFields {
    fn new() -> CsvFields {
        CsvFields {
            quoter: csv_core::Writer::new(),
            fields: 0,
            last_empty: false,
        }
    }

    fn field(&mut self, out: &mut Vec<u8>, field: &[u8]) {
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

    fn num(&mut self, out: &mut Vec<u8>, n: i64) {
        // Two digits at a time from the right, without the formatting
        // machinery (three numbers per row add up).
        let mut buf = [0u8; 20];
        let mut at = buf.len();
        let mut v = n.unsigned_abs();
        while v >= 100 {
            let pair = 2 * (v % 100) as usize;
            v /= 100;
            at -= 2;
            buf[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        }
        if v >= 10 {
            let pair = 2 * v as usize;
            at -= 2;
            buf[at..at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        } else {
            at -= 1;
            buf[at] = b'0' + v as u8;
        }
        if n < 0 {
            at -= 1;
            buf[at] = b'-';
        }
        self.plain(out, &buf[at..]);
    }

    fn opt_num(&mut self, out: &mut Vec<u8>, n: Option<u64>) {
        match n {
            Some(n) => self.num(out, n as i64),
            None => self.plain(out, b""),
        }
    }

    fn end(&mut self, out: &mut Vec<u8>) {
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
#[derive(Debug)]
pub struct RowEncoder {
    format: OutputFormat,
    columns: Vec<Column>,
    names: Vec<String>,
    csv: CsvFields,
}

impl RowEncoder {
    /// An encoder writing `columns` in `format`; `kept_names` names the
    /// [`Column::Kept`] ones.
    pub fn new(format: OutputFormat, columns: &[Column], kept_names: &[String]) -> RowEncoder {
        RowEncoder {
            format,
            columns: columns.to_vec(),
            names: column_names(columns, kept_names),
            csv: CsvFields::new(),
        }
    }

    /// The header line for CSV output (empty for other formats).
    pub fn header(format: OutputFormat, columns: &[Column], kept_names: &[String]) -> Vec<u8> {
        if format != OutputFormat::Csv {
            return Vec::new();
        }
        let mut wtr = csv::Writer::from_writer(Vec::new());
        // Writing to a Vec cannot fail.
        let _ = wtr.write_record(column_names(columns, kept_names));
        wtr.into_inner().unwrap_or_default()
    }

    /// Appends one row to `out`, taking trailing text and kept fields from
    /// its `record`.
    pub fn encode(&mut self, row: &Row, record: &Record, out: &mut Vec<u8>) -> std::io::Result<()> {
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
                let json = JsonRow {
                    row,
                    columns: &self.columns,
                    names: &self.names,
                    record,
                };
                serde_json::to_writer(&mut *out, &json)?;
                out.push(b'\n');
            }
            OutputFormat::Csv => self.encode_csv(row, record, out),
        }
        Ok(())
    }

    fn encode_csv(&mut self, row: &Row, record: &Record, out: &mut Vec<u8>) {
        let csv = &mut self.csv;
        for &col in &self.columns {
            match col {
                Column::Index => csv.num(out, row.index as i64),
                Column::Line => csv.num(out, row.line as i64),
                Column::Puzzle => match &row.puzzle {
                    Some(g) => csv.plain(out, &g.to_line()),
                    None => csv.plain(out, b""),
                },
                Column::Status => csv.plain(out, row.status.as_str().as_bytes()),
                Column::Solutions => csv.num(out, row.solutions as i64),
                Column::Solution => match &row.solution {
                    Some(g) => csv.plain(out, &g.to_line()),
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
                Column::Error => csv.field(out, row.error.as_bytes()),
                Column::Trailing => csv.field(out, &record.trailing),
                Column::Kept(i) => csv.field(out, record.kept_field(i as usize)),
                Column::Backtracks => csv.num(out, row.backtracks as i64),
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
            }
        }
        csv.end(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn rec(trailing: &[u8]) -> Record {
        Record {
            trailing: trailing.to_vec(),
            ..Record::default()
        }
    }

    #[test]
    fn kept_columns_are_named_from_the_input_and_quoted() {
        let cols = [Column::Status, Column::Kept(0), Column::Kept(1)];
        let names = ["status".to_string(), "rating".to_string()];
        assert_eq!(
            RowEncoder::header(OutputFormat::Csv, &cols, &names),
            b"status,input_status,rating\n"
        );
        let mut record = Record::default();
        for field in [&b"a,b"[..], b"9.5"] {
            record.kept.extend_from_slice(field);
            record.kept_ends.push(record.kept.len() as u32);
        }
        let mut out = Vec::new();
        let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &names);
        enc.encode(&sample_row(), &record, &mut out).unwrap();
        assert_eq!(out, b"unique,\"a,b\",9.5\n");
        let mut enc = RowEncoder::new(OutputFormat::Jsonl, &cols, &names);
        out.clear();
        enc.encode(&sample_row(), &record, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["input_status"], "a,b");
        assert_eq!(v["rating"], "9.5");
    }

    fn sample_row() -> Row {
        let g = crate::parse::parse_line(SOLVED.as_bytes()).unwrap();
        let mut row = Row::default();
        row.reset(3, 7);
        row.puzzle = Some(g);
        row.status = Status::Unique;
        row.solutions = 1;
        row.solution = Some(g);
        row.guesses = 2;
        row
    }

    #[test]
    fn csv_row_has_every_column_in_order() {
        let cols = [
            Column::Index,
            Column::Line,
            Column::Status,
            Column::Solution,
            Column::Error,
        ];
        let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
        let mut out = Vec::new();
        enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("3,7,unique,{SOLVED},\n")
        );
        assert_eq!(
            RowEncoder::header(OutputFormat::Csv, &cols, &[]),
            b"index,line,status,solution,error\n"
        );
    }

    #[test]
    fn csv_quotes_errors_with_commas() {
        let cols = [Column::Status, Column::Error, Column::Trailing];
        let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
        let mut row = Row::default();
        row.error.push_str("bad, \"char\"");
        let mut out = Vec::new();
        enc.encode(&row, &rec(b"id,7"), &mut out).unwrap();
        assert_eq!(out, b"invalid,\"bad, \"\"char\"\"\",\"id,7\"\n");
    }

    #[test]
    fn csv_empty_first_field_and_quotes_round_trip() {
        let cols = [
            Column::Puzzle,
            Column::Error,
            Column::Status,
            Column::Trailing,
        ];
        let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
        let mut row = Row::default();
        row.error.push_str("a \"q\"\nb");
        let mut out = Vec::new();
        enc.encode(&row, &rec(b"x"), &mut out).unwrap();
        enc.encode(&row, &rec(b""), &mut out).unwrap();
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&out[..]);
        let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(&recs[0][0], "");
        assert_eq!(&recs[0][1], "a \"q\"\nb");
        assert_eq!(&recs[0][2], "invalid");
        assert_eq!(&recs[0][3], "x");
        assert_eq!(&recs[1][3], "");
    }

    #[test]
    fn csv_single_plain_column_and_quotes_after_plain_fields() {
        let mut enc = RowEncoder::new(OutputFormat::Csv, &[Column::Index], &[]);
        let mut out = Vec::new();
        enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
        enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
        assert_eq!(out, b"3\n3\n");
        let cols = [
            Column::Error,
            Column::Index,
            Column::Trailing,
            Column::Status,
        ];
        let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
        let mut row = sample_row();
        row.error.push_str("a,b");
        let mut out = Vec::new();
        enc.encode(&row, &rec(b"x\"y"), &mut out).unwrap();
        enc.encode(&row, &rec(b""), &mut out).unwrap();
        assert_eq!(out, b"\"a,b\",3,\"x\"\"y\",unique\n\"a,b\",3,,unique\n");
    }

    proptest::proptest! {
        /// Any record comes out byte for byte as the `csv` crate's default
        /// writer writes it (quoting, doubled quotes, the lone empty field).
        #[test]
        fn fields_match_the_csv_writer(
            records in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec(proptest::sample::select(b"a1 ,\"\r\n;\xff".to_vec()), 0..5),
                    1..4,
                ),
                1..4,
            ),
        ) {
            let mut ours = Vec::new();
            let mut csv = CsvFields::new();
            let mut theirs = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
            for record in &records {
                for field in record {
                    csv.field(&mut ours, field);
                }
                csv.end(&mut ours);
                theirs.write_record(record).unwrap();
            }
            proptest::prop_assert_eq!(ours, theirs.into_inner().unwrap());
        }
    }

    #[test]
    fn numbers_are_written_in_full() {
        let mut out = Vec::new();
        let mut csv = CsvFields::new();
        for n in [0, 7, -1, 10, 99, 100, -305, 1_234_567, i64::MAX, i64::MIN] {
            csv.num(&mut out, n);
        }
        csv.end(&mut out);
        let expected = format!("0,7,-1,10,99,100,-305,1234567,{},{}\n", i64::MAX, i64::MIN);
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn jsonl_row_is_one_object_per_line() {
        let cols = [
            Column::Index,
            Column::Status,
            Column::Solution,
            Column::Score,
            Column::Error,
        ];
        let mut enc = RowEncoder::new(OutputFormat::Jsonl, &cols, &[]);
        let mut out = Vec::new();
        enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with('\n'));
        let v: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(v["index"], 3);
        assert_eq!(v["status"], "unique");
        assert_eq!(v["solution"], SOLVED);
        assert!(v["score"].is_null());
        assert!(v["error"].is_null());
    }

    #[test]
    fn line_format_writes_solution_or_empty_line() {
        let mut enc = RowEncoder::new(OutputFormat::Line, &[], &[]);
        let mut out = Vec::new();
        enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
        enc.encode(&Row::default(), &rec(b""), &mut out).unwrap();
        assert_eq!(out, format!("{SOLVED}\n\n").as_bytes());
    }
}
