//! What writing records back as the input wrote them needs: the input's
//! [`InputLayout`] (its CSV delimiter and header, its JSON keys), and each
//! record's text as written ([`Record::written`](super::Record::written),
//! kept with [`ReadOptions::keep_written`](super::ReadOptions::keep_written)).
//! `split --output-dir` writes its part files so, in the user's own
//! layout rather than batchdoku's rows.

/// How an input lays out its records, as read: enough to write records
/// back in the same layout ([`Record::written`](super::Record::written)
/// holds each record's own text).
///
/// # Example
/// ```
/// use batchdoku_core::{InputLayout, ReadOptions, Record, RecordReader};
/// let csv = "id;quizzes\n\
///     7;\"003020600900305001001806400008102900700000008006708200002609500800203009005010300\"\n";
/// let options = ReadOptions { keep_written: true, ..ReadOptions::default() };
/// let mut reader = RecordReader::with_options(csv.as_bytes(), &options).unwrap();
/// let InputLayout::Csv { delimiter, header, names } = reader.layout() else { panic!() };
/// assert_eq!((*delimiter, header.as_deref()), (b';', Some(&b"id;quizzes"[..])));
/// assert_eq!(names, &["id", "quizzes"]);
///
/// let mut record = Record::default();
/// assert!(reader.read_record(&mut record).unwrap());
/// // The fields as written: the quotes and the `0` blanks are the input's.
/// assert_eq!(record.written, csv.lines().nth(1).unwrap().as_bytes());
/// assert_eq!(record.written_ends, [1, record.written.len() as u32]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputLayout {
    /// One record per line (the line and POJ formats): a record's text is
    /// its line.
    Lines,
    /// Grids of nine rows (the block and Luogu formats): a record's text
    /// is its rows, from the first to the ninth (box lines between them
    /// included), joined by `\n`.
    Blocks,
    /// CSV: a record's text is its fields as written (a quoted field with
    /// its quotes and doubled quotes, an unquoted one byte for byte),
    /// joined by the delimiter.
    Csv {
        /// The field delimiter.
        delimiter: u8,
        /// The header record, written as records are; `None` for a file
        /// without a header (or without any record).
        header: Option<Vec<u8>>,
        /// The header's column names (unquoted, trimmed), in order; empty
        /// when there is no header.
        names: Vec<String>,
    },
    /// JSON lines (Parquet rows too, which are read as JSON lines): a
    /// record's text is its line.
    Jsonl {
        /// The keys of the first objects, in the order first seen.
        keys: Vec<String>,
    },
}

impl InputLayout {
    /// The input's column names: a CSV header's, or the keys of the first
    /// JSON objects; none for the other layouts.
    pub fn column_names(&self) -> &[String] {
        match self {
            InputLayout::Csv { names, .. } => names,
            InputLayout::Jsonl { keys } => keys,
            InputLayout::Lines | InputLayout::Blocks => &[],
        }
    }
}
