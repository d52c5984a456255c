//! Parquet input: a Parquet file's rows as JSON lines, one object a row,
//! for the core's JSONL reader (which picks the puzzle column by name as
//! for CSV, or by content; the expected-solution column by the CSV rule;
//! `--column`, `--expected-column` and `--keep-columns` as for JSONL). A
//! record's `line` is so its 1-based row number.
//!
//! Parquet needs random access (its footer is at the end), so the decoded
//! stream is spooled to an unnamed temporary file first; the rows are
//! then rendered as they are read, a batch at a time, never the whole
//! table in memory. Pages compressed with Snappy or gzip, or not at all,
//! are read; zstd, LZ4 and Brotli are one clear error. Values: strings (and binary that is UTF-8) as JSON
//! strings, integers and finite floats as numbers (NaN and infinities as
//! `null`), booleans, `null`; anything else (dates, timestamps, decimals,
//! nested values) as the string the `parquet` crate shows it as.

use std::fs::File;
use std::io::{self, BufRead, Read, Seek, Write};
use std::panic::{self, AssertUnwindSafe};

use parquet::basic::Compression;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::reader::RowIter;
use parquet::record::{Field, Row};

use super::Source;

/// Bytes of JSON rendered ahead: one batch of rows, then as asked.
const BATCH_BYTES: usize = 64 * 1024;

/// The rows of the Parquet file that `source` (decoded, its first bytes
/// `PAR1`) holds, as JSON lines. A file that is not readable Parquet (cut
/// short, damaged) is an error here, before any row.
pub(super) fn json_rows(mut source: Source) -> io::Result<Source> {
    let mut spool = tempfile::tempfile()?;
    io::copy(&mut source, &mut spool)?;
    drop(source);
    spool.rewind()?;
    open_spooled(spool)
}

/// The rows of the Parquet file `file` as JSON lines.
fn open_spooled(file: File) -> io::Result<Source> {
    let reader = SerializedFileReader::new(file).map_err(damaged)?;
    for group in reader.metadata().row_groups() {
        for column in group.columns() {
            if let Some(codec) = unread_codec(column.compression()) {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!(
                        "a Parquet file compressed with {codec} (column {}), which batchdoku does not \
                         read: write it with Snappy (pandas' and pyarrow's default), gzip or none",
                        column.column_path()
                    ),
                ));
            }
        }
    }
    let rows = RowIter::from_file_into(Box::new(reader));
    Ok(Box::new(JsonRows {
        rows: Some(rows),
        buf: Vec::with_capacity(BATCH_BYTES + 1024),
        pos: 0,
        row: 0,
    }))
}

/// The name of a page compression this build does not read; `None` for
/// Snappy, gzip and none.
fn unread_codec(codec: Compression) -> Option<&'static str> {
    match codec {
        Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_) => None,
        Compression::ZSTD(_) => Some("zstd"),
        Compression::LZ4 | Compression::LZ4_RAW => Some("LZ4"),
        Compression::BROTLI(_) => Some("Brotli"),
        Compression::LZO => Some("LZO"),
    }
}

/// The error for a Parquet file the `parquet` crate cannot read.
fn damaged(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("not a readable Parquet file (cut short or damaged?): {e}"),
    )
}

/// Rows rendered as JSON lines as they are read.
struct JsonRows {
    /// The rows still to read; `None` at the end (or after an error).
    rows: Option<RowIter<'static>>,
    buf: Vec<u8>,
    pos: usize,
    /// Rows rendered so far, for error messages.
    row: u64,
}

impl JsonRows {
    /// Renders the next batch of rows into `buf` (empty at the end).
    fn refill(&mut self) -> io::Result<()> {
        self.buf.clear();
        self.pos = 0;
        while self.buf.len() < BATCH_BYTES {
            let Some(rows) = self.rows.as_mut() else {
                break;
            };
            // The record reader panics on some damage (a row group it
            // cannot open): an error, not a crash.
            let next = panic::catch_unwind(AssertUnwindSafe(|| rows.next()));
            let row = match next {
                Ok(Some(Ok(row))) => row,
                Ok(None) => {
                    self.rows = None;
                    break;
                }
                Ok(Some(Err(e))) => {
                    self.rows = None;
                    return Err(self.broken(e));
                }
                Err(_) => {
                    self.rows = None;
                    return Err(self.broken("the Parquet reader failed"));
                }
            };
            self.row += 1;
            render_row(&row, &mut self.buf)?;
        }
        Ok(())
    }

    fn broken(&self, e: impl std::fmt::Display) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "Parquet row {}: not readable (damaged file?): {e}",
                self.row + 1
            ),
        )
    }
}

impl Read for JsonRows {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for JsonRows {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            self.refill()?;
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.buf.len());
    }
}

/// Appends `row` to `out` as one JSON object and a line feed.
fn render_row(row: &Row, out: &mut Vec<u8>) -> io::Result<()> {
    out.push(b'{');
    for (i, (name, field)) in row.get_column_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut *out, name.as_str())?;
        out.push(b':');
        render_field(field, out)?;
    }
    out.extend_from_slice(b"}\n");
    Ok(())
}

/// Appends one value as JSON.
fn render_field(field: &Field, out: &mut Vec<u8>) -> io::Result<()> {
    match field {
        Field::Null => out.extend_from_slice(b"null"),
        Field::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Field::Byte(v) => write!(out, "{v}")?,
        Field::Short(v) => write!(out, "{v}")?,
        Field::Int(v) => write!(out, "{v}")?,
        Field::Long(v) => write!(out, "{v}")?,
        Field::UByte(v) => write!(out, "{v}")?,
        Field::UShort(v) => write!(out, "{v}")?,
        Field::UInt(v) => write!(out, "{v}")?,
        Field::ULong(v) => write!(out, "{v}")?,
        Field::Float16(v) => float(f64::from(*v), out)?,
        Field::Float(v) => float(f64::from(*v), out)?,
        Field::Double(v) => float(*v, out)?,
        Field::Str(s) => serde_json::to_writer(&mut *out, s.as_str())?,
        Field::Bytes(b) => match std::str::from_utf8(b.data()) {
            Ok(s) => serde_json::to_writer(&mut *out, s)?,
            Err(_) => serde_json::to_writer(&mut *out, &field.to_string())?,
        },
        other => serde_json::to_writer(&mut *out, &other.to_string())?,
    }
    Ok(())
}

/// A float as a JSON number; NaN and infinities (which JSON lacks) as
/// `null`.
fn float(v: f64, out: &mut Vec<u8>) -> io::Result<()> {
    if v.is_finite() {
        serde_json::to_writer(&mut *out, &v)?;
    } else {
        out.extend_from_slice(b"null");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(field: Field) -> String {
        let mut out = Vec::new();
        render_field(&field, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values_render_as_json() {
        assert_eq!(json(Field::Null), "null");
        assert_eq!(json(Field::Bool(true)), "true");
        assert_eq!(json(Field::Long(-42)), "-42");
        assert_eq!(json(Field::ULong(u64::MAX)), "18446744073709551615");
        assert_eq!(json(Field::Double(1.5)), "1.5");
        assert_eq!(json(Field::Double(f64::NAN)), "null");
        assert_eq!(json(Field::Float(f32::INFINITY)), "null");
        assert_eq!(json(Field::Str("a\"b\n".into())), r#""a\"b\n""#);
        assert_eq!(
            json(Field::Bytes(parquet::data_type::ByteArray::from("..3"))),
            r#""..3""#
        );
        assert_eq!(json(Field::Date(0)), r#""1970-01-01""#);
    }

    #[test]
    fn damaged_files_are_one_error() {
        let mut cut = tempfile::tempfile().unwrap();
        cut.write_all(b"PAR1 and nothing else").unwrap();
        cut.rewind().unwrap();
        let err = open_spooled(cut).err().expect("refused");
        assert!(
            err.to_string().contains("not a readable Parquet file"),
            "{err}"
        );
    }
}
