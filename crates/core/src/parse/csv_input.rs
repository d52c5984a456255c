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

mod delimiter;
mod header;
mod record;
mod rows;
#[cfg(test)]
mod tests;

pub(crate) use delimiter::sniff_delimiter;
pub(crate) use header::{
    expected_column, header_puzzle, holds_grids, is_puzzle_header, named_column, ColumnStats,
    CsvLayout,
};
pub(crate) use record::{
    complete, line_fields, parse_puzzle_field, parse_solution_field, CsvRecord,
};
pub(crate) use rows::CsvRows;

/// Physical lines one CSV record may span: a quoted field still open at
/// the end of the last of them does not close (see the module's rule).
pub(crate) const MAX_RECORD_LINES: usize = 16;

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
    /// first of these whose values are grids: at least half of its
    /// non-empty cells in the first records, so a column of counts never
    /// is and one still empty there may be), or in a headerless CSV a
    /// column of complete grids. JSONL keys go by the same rule.
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
