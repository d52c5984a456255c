//! The Parquet assembler: takes the frames of [`cells`](super::cells) as
//! the writer thread writes them (in input order, in any cut) and writes a
//! Parquet file through arrow-rs's low-level column writer. Rows are
//! buffered column by column and written as one row group every
//! [`GROUP_ROWS`] rows (or [`GROUP_BYTES`] bytes of text), so memory stays
//! bounded whatever the input's size; the footer is written by
//! [`ParquetRows::finish`], at the end of the run, before the sink renames
//! its file.
//!
//! Integers are INT64, `singles` BOOLEAN, text BYTE_ARRAY with the STRING
//! logical type; a column is OPTIONAL exactly where its CSV cell may be
//! empty (see [`Kind`]). The solution path (`rate --path`) is an OPTIONAL
//! LIST of structs `{technique: STRING, rating: DOUBLE, placements:
//! LIST<STRING>, eliminations: LIST<STRING>, text: STRING}`, in the
//! standard three-level list layout, written as its five leaf columns
//! with their repetition and definition levels. Pages are
//! Snappy-compressed.

use std::io::{self, Write};
use std::mem;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use super::cells::{self, Cells, Kind};

/// Rows per row group.
pub(crate) const GROUP_ROWS: usize = 64 * 1024;
/// Bytes of buffered text that end a row group early (long kept columns).
pub(crate) const GROUP_BYTES: usize = 64 * 1024 * 1024;

/// Writes the rows it is given as frames into a Parquet file on `W`.
pub(crate) struct ParquetRows<W: Write + Send> {
    state: State<W>,
    /// The schema frame's body, to tell a repeated one (a second pass into
    /// the same output) from a different one.
    schema: Vec<u8>,
    columns: Vec<Buffer>,
    rows: usize,
    text_bytes: usize,
    /// Part of a frame whose rest is still to come.
    partial: Vec<u8>,
    /// The first I/O error the file writer met, kept with its kind (a
    /// closed pipe must still read as one).
    io_error: Arc<Mutex<Option<io::Error>>>,
    /// Reused for each text column's values.
    values: Vec<ByteArray>,
}

enum State<W: Write + Send> {
    /// No schema frame yet: nothing written.
    Waiting(Recorder<W>),
    /// Writing row groups.
    Writing(SerializedFileWriter<Recorder<W>>),
    /// Failed or taken apart.
    Gone,
}

impl<W: Write + Send> ParquetRows<W> {
    /// An assembler writing to `out` once it has its schema frame.
    pub(crate) fn new(out: W) -> ParquetRows<W> {
        let io_error = Arc::new(Mutex::new(None));
        ParquetRows {
            state: State::Waiting(Recorder {
                inner: out,
                error: io_error.clone(),
            }),
            schema: Vec::new(),
            columns: Vec::new(),
            rows: 0,
            text_bytes: 0,
            partial: Vec::new(),
            io_error,
            values: Vec::new(),
        }
    }

    /// The writer underneath (`None` once failed).
    pub(crate) fn get_ref(&self) -> Option<&W> {
        match &self.state {
            State::Waiting(r) => Some(&r.inner),
            State::Writing(w) => Some(&w.inner().inner),
            State::Gone => None,
        }
    }

    /// Takes frames: whole ones are assembled, a cut one is kept until its
    /// rest arrives.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.partial.is_empty() {
            let used = self.frames(bytes)?;
            self.partial.extend_from_slice(&bytes[used..]);
        } else {
            let mut buf = mem::take(&mut self.partial);
            buf.extend_from_slice(bytes);
            let used = self.frames(&buf)?;
            buf.drain(..used);
            self.partial = buf;
        }
        Ok(())
    }

    /// Assembles the whole frames at the start of `buf`; returns the bytes
    /// they span.
    fn frames(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut used = 0;
        while let Some((tag, body, len)) = cells::next_frame(&buf[used..]) {
            match tag {
                cells::SCHEMA => self.schema_frame(body)?,
                cells::ROW => self.row_frame(body)?,
                _ => return Err(invalid("Parquet rows: not a frame")),
            }
            used += len;
        }
        Ok(used)
    }

    fn schema_frame(&mut self, body: &[u8]) -> io::Result<()> {
        if !self.schema.is_empty() {
            return match self.schema == body {
                true => Ok(()),
                false => Err(invalid("Parquet rows: two different schemas for one file")),
            };
        }
        let columns = cells::read_schema(body)?;
        let State::Waiting(out) = mem::replace(&mut self.state, State::Gone) else {
            return Err(invalid("Parquet rows: schema after rows"));
        };
        let fields = columns
            .iter()
            .map(|(name, kind)| field(name, *kind).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.error(e))?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()
            .map_err(|e| self.error(e))?;
        // Dictionaries only for the always-present text (`status`: a few
        // names); grids and counts are mostly distinct, where a dictionary
        // costs time and bytes (measured: 30% slower, 4% larger).
        let properties = columns
            .iter()
            .filter(|(_, kind)| *kind == Kind::Str)
            .fold(
                WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_dictionary_enabled(false)
                    .set_created_by(format!("batchdoku {}", env!("CARGO_PKG_VERSION"))),
                |builder, (name, _)| {
                    builder.set_column_dictionary_enabled(ColumnPath::from(name.as_str()), true)
                },
            )
            .build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))
            .map_err(|e| self.error(e))?;
        self.state = State::Writing(writer);
        self.columns = columns.iter().map(|(_, kind)| Buffer::new(*kind)).collect();
        self.schema = body.to_vec();
        Ok(())
    }

    fn row_frame(&mut self, body: &[u8]) -> io::Result<()> {
        if self.schema.is_empty() {
            return Err(invalid("Parquet rows: a row before the schema"));
        }
        let mut cells = Cells(body);
        for column in &mut self.columns {
            self.text_bytes += column.push(&mut cells)?;
        }
        cells.done()?;
        self.rows += 1;
        if self.rows >= GROUP_ROWS || self.text_bytes >= GROUP_BYTES {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the buffered rows as one row group.
    fn flush_group(&mut self) -> io::Result<()> {
        let State::Writing(writer) = &mut self.state else {
            return Err(invalid("Parquet rows: no schema"));
        };
        let result = write_group(writer, &mut self.columns, &mut self.values);
        self.rows = 0;
        self.text_bytes = 0;
        result.map_err(|e| self.error(e))
    }

    /// Writes the last row group and the footer; returns the writer
    /// underneath.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        if !self.partial.is_empty() {
            return Err(invalid("Parquet rows: the output ends inside a row"));
        }
        if self.rows > 0 {
            self.flush_group()?;
        }
        match mem::replace(&mut self.state, State::Gone) {
            State::Writing(writer) => match writer.into_inner() {
                Ok(recorder) => Ok(recorder.inner),
                Err(e) => Err(self.error(e)),
            },
            State::Waiting(_) => Err(invalid(
                "Parquet rows: no schema was written (nothing says what the columns are)",
            )),
            State::Gone => Err(invalid("Parquet rows: the writer failed before")),
        }
    }

    /// The I/O error behind `e`, when there was one (with its kind), else
    /// `e` as an I/O error.
    fn error(&self, e: ParquetError) -> io::Error {
        let recorded = self
            .io_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match (recorded, e) {
            (Some(io), _) => io,
            (None, ParquetError::External(e)) => match e.downcast::<io::Error>() {
                Ok(io) => *io,
                Err(other) => io::Error::other(other),
            },
            (None, e) => io::Error::other(e),
        }
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The Parquet field of a column named `name` stored as `kind`.
fn field(name: &str, kind: Kind) -> Result<Type, ParquetError> {
    let (physical, repetition) = match kind {
        Kind::Path => return path_field(name),
        Kind::Int => (Physical::INT64, Repetition::REQUIRED),
        Kind::OptInt => (Physical::INT64, Repetition::OPTIONAL),
        Kind::OptBool => (Physical::BOOLEAN, Repetition::OPTIONAL),
        Kind::Str => (Physical::BYTE_ARRAY, Repetition::REQUIRED),
        Kind::OptStr => (Physical::BYTE_ARRAY, Repetition::OPTIONAL),
        Kind::OptReal => (Physical::DOUBLE, Repetition::OPTIONAL),
    };
    let text = matches!(kind, Kind::Str | Kind::OptStr);
    Type::primitive_type_builder(name, physical)
        .with_repetition(repetition)
        .with_logical_type(text.then_some(LogicalType::String))
        .build()
}

/// A required text field named `name`.
fn text_field(name: &str) -> Result<Arc<Type>, ParquetError> {
    Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
        .with_repetition(Repetition::REQUIRED)
        .with_logical_type(Some(LogicalType::String))
        .build()
        .map(Arc::new)
}

/// A list named `name` (`repetition`) of `element`s, in the standard
/// three-level layout: `name (LIST) { repeated group list { element } }`.
fn list_field(
    name: &str,
    repetition: Repetition,
    element: Arc<Type>,
) -> Result<Arc<Type>, ParquetError> {
    let list = Type::group_type_builder("list")
        .with_repetition(Repetition::REPEATED)
        .with_fields(vec![element])
        .build()?;
    Type::group_type_builder(name)
        .with_repetition(repetition)
        .with_logical_type(Some(LogicalType::List))
        .with_fields(vec![Arc::new(list)])
        .build()
        .map(Arc::new)
}

/// The field of a path column: an optional list of step structs.
fn path_field(name: &str) -> Result<Type, ParquetError> {
    let rating = Type::primitive_type_builder("rating", Physical::DOUBLE)
        .with_repetition(Repetition::REQUIRED)
        .build()?;
    let element = Type::group_type_builder("element")
        .with_repetition(Repetition::REQUIRED)
        .with_fields(vec![
            text_field("technique")?,
            Arc::new(rating),
            list_field("placements", Repetition::REQUIRED, text_field("element")?)?,
            list_field("eliminations", Repetition::REQUIRED, text_field("element")?)?,
            text_field("text")?,
        ])
        .build()?;
    let field = list_field(name, Repetition::OPTIONAL, Arc::new(element))?;
    Ok(Arc::unwrap_or_clone(field))
}

/// A leaf column of a path: values and each value's (or empty list's, or
/// null's) repetition and definition levels.
#[derive(Default)]
struct Leaf<T> {
    values: Vec<T>,
    defs: Vec<i16>,
    reps: Vec<i16>,
}

impl<T> Leaf<T> {
    /// A level with no value (a null or empty list above the leaf).
    fn empty(&mut self, def: i16, rep: i16) {
        self.defs.push(def);
        self.reps.push(rep);
    }

    /// A value at the leaf's full depth `def`.
    fn value(&mut self, value: T, def: i16, rep: i16) {
        self.values.push(value);
        self.defs.push(def);
        self.reps.push(rep);
    }

    fn clear(&mut self) {
        self.values.clear();
        self.defs.clear();
        self.reps.clear();
    }
}

/// A text leaf: every value's bytes one after the other and where each
/// ends (the values are slices of one buffer when written).
#[derive(Default)]
struct TextLeaf {
    data: Vec<u8>,
    levels: Leaf<usize>,
}

impl TextLeaf {
    fn value(&mut self, text: &[u8], def: i16, rep: i16) -> usize {
        self.data.extend_from_slice(text);
        self.levels.value(self.data.len(), def, rep);
        text.len()
    }
}

/// A path column's five leaves, in schema order.
#[derive(Default)]
struct PathLeaves {
    technique: TextLeaf,
    rating: Leaf<f64>,
    placements: TextLeaf,
    eliminations: TextLeaf,
    text: TextLeaf,
}

impl PathLeaves {
    /// Takes a `Path` cell; returns the text bytes it added. Levels: the
    /// column is optional (a row with a path has definition level 1 or
    /// more), its list repeated (a step 2, repetition 1 after the row's
    /// first), a step's move list repeated again (a move 3, repetition 2
    /// after the step's first).
    fn push(&mut self, cells: &mut Cells<'_>) -> io::Result<usize> {
        let leaves = [
            &mut self.technique.levels.defs,
            &mut self.placements.levels.defs,
            &mut self.eliminations.levels.defs,
            &mut self.text.levels.defs,
        ];
        let present = cells.is_present()?;
        let steps = if present { cells.count()? } else { 0 };
        if steps == 0 {
            let def = i16::from(present);
            for defs in leaves {
                defs.push(def);
            }
            self.technique.levels.reps.push(0);
            self.placements.levels.reps.push(0);
            self.eliminations.levels.reps.push(0);
            self.text.levels.reps.push(0);
            self.rating.empty(def, 0);
            return Ok(0);
        }
        let mut bytes = 0;
        for i in 0..steps {
            let rep = i16::from(i > 0);
            bytes += self.technique.value(cells.str()?, 2, rep);
            self.rating.value(cells.real()?, 2, rep);
            for list in [&mut self.placements, &mut self.eliminations] {
                let moves = cells.count()?;
                if moves == 0 {
                    list.levels.empty(2, rep);
                }
                for j in 0..moves {
                    bytes += list.value(cells.str()?, 3, if j == 0 { rep } else { 2 });
                }
            }
            bytes += self.text.value(cells.str()?, 2, rep);
        }
        Ok(bytes)
    }
}

/// One column's buffered cells. Nullable columns keep a definition level
/// per row (1 present, 0 null) and values only for the present ones.
enum Buffer {
    Int(Vec<i64>),
    OptInt(Vec<i64>, Vec<i16>),
    OptBool(Vec<bool>, Vec<i16>),
    OptReal(Vec<f64>, Vec<i16>),
    /// Text: every value's bytes, one after the other, and where each
    /// ends; definition levels when nullable.
    Text {
        data: Vec<u8>,
        ends: Vec<usize>,
        defs: Option<Vec<i16>>,
    },
    /// A solution path: five leaf columns.
    Path(Box<PathLeaves>),
}

impl Buffer {
    fn new(kind: Kind) -> Buffer {
        match kind {
            Kind::Int => Buffer::Int(Vec::new()),
            Kind::OptInt => Buffer::OptInt(Vec::new(), Vec::new()),
            Kind::OptBool => Buffer::OptBool(Vec::new(), Vec::new()),
            Kind::OptReal => Buffer::OptReal(Vec::new(), Vec::new()),
            Kind::Str => Buffer::Text {
                data: Vec::new(),
                ends: Vec::new(),
                defs: None,
            },
            Kind::OptStr => Buffer::Text {
                data: Vec::new(),
                ends: Vec::new(),
                defs: Some(Vec::new()),
            },
            Kind::Path => Buffer::Path(Box::default()),
        }
    }

    /// Takes this column's cell; returns the text bytes it added.
    fn push(&mut self, cells: &mut Cells<'_>) -> io::Result<usize> {
        match self {
            Buffer::Int(values) => values.push(cells.int()?),
            Buffer::OptInt(values, defs) => {
                let cell = cells.opt_int()?;
                defs.push(i16::from(cell.is_some()));
                values.extend(cell);
            }
            Buffer::OptBool(values, defs) => {
                let cell = cells.opt_bool()?;
                defs.push(i16::from(cell.is_some()));
                values.extend(cell);
            }
            Buffer::OptReal(values, defs) => {
                let cell = cells.opt_real()?;
                defs.push(i16::from(cell.is_some()));
                values.extend(cell);
            }
            Buffer::Text { data, ends, defs } => {
                let cell = match defs {
                    Some(defs) => {
                        let cell = cells.opt_str()?;
                        defs.push(i16::from(cell.is_some()));
                        cell
                    }
                    None => Some(cells.str()?),
                };
                if let Some(text) = cell {
                    data.extend_from_slice(text);
                    ends.push(data.len());
                    return Ok(text.len());
                }
            }
            Buffer::Path(leaves) => return leaves.push(cells),
        }
        Ok(0)
    }
}

/// Writes every column's buffered cells as one row group and empties the
/// buffers (keeping their room, but for the text handed over).
fn write_group<W: Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    columns: &mut [Buffer],
    values: &mut Vec<ByteArray>,
) -> Result<(), ParquetError> {
    let mut group = writer.next_row_group()?;
    for buffer in columns.iter_mut() {
        if let Buffer::Path(leaves) = buffer {
            write_path(&mut group, leaves, values)?;
            continue;
        }
        let mut column = group
            .next_column()?
            .ok_or_else(|| ParquetError::General("more buffers than columns".into()))?;
        match buffer {
            Buffer::Int(v) => {
                column.typed::<Int64Type>().write_batch(v, None, None)?;
                v.clear();
            }
            Buffer::OptInt(v, defs) => {
                column
                    .typed::<Int64Type>()
                    .write_batch(v, Some(defs), None)?;
                v.clear();
                defs.clear();
            }
            Buffer::OptBool(v, defs) => {
                column
                    .typed::<BoolType>()
                    .write_batch(v, Some(defs), None)?;
                v.clear();
                defs.clear();
            }
            Buffer::OptReal(v, defs) => {
                column
                    .typed::<DoubleType>()
                    .write_batch(v, Some(defs), None)?;
                v.clear();
                defs.clear();
            }
            Buffer::Text { data, ends, defs } => {
                // One shared buffer; each value is a slice of it.
                let shared = Bytes::from(mem::take(data));
                values.clear();
                let mut start = 0;
                for &end in ends.iter() {
                    values.push(ByteArray::from(shared.slice(start..end)));
                    start = end;
                }
                column
                    .typed::<ByteArrayType>()
                    .write_batch(values, defs.as_deref(), None)?;
                values.clear();
                ends.clear();
                if let Some(defs) = defs {
                    defs.clear();
                }
            }
            Buffer::Path(_) => unreachable!("written above"),
        }
        column.close()?;
    }
    group.close()?;
    Ok(())
}

/// Writes a path column's five leaves into `group` and empties them.
fn write_path<W: Write + Send>(
    group: &mut parquet::file::writer::SerializedRowGroupWriter<'_, W>,
    leaves: &mut PathLeaves,
    values: &mut Vec<ByteArray>,
) -> Result<(), ParquetError> {
    fn next<'g, W: Write + Send>(
        group: &'g mut parquet::file::writer::SerializedRowGroupWriter<'_, W>,
    ) -> Result<parquet::file::writer::SerializedColumnWriter<'g>, ParquetError> {
        group
            .next_column()?
            .ok_or_else(|| ParquetError::General("a path leaf is missing".into()))
    }
    write_text_leaf(next(group)?, &mut leaves.technique, values)?;
    {
        let mut column = next(group)?;
        let rating = &mut leaves.rating;
        column.typed::<DoubleType>().write_batch(
            &rating.values,
            Some(&rating.defs),
            Some(&rating.reps),
        )?;
        rating.clear();
        column.close()?;
    }
    write_text_leaf(next(group)?, &mut leaves.placements, values)?;
    write_text_leaf(next(group)?, &mut leaves.eliminations, values)?;
    write_text_leaf(next(group)?, &mut leaves.text, values)?;
    Ok(())
}

/// Writes one text leaf of a path and empties it.
fn write_text_leaf(
    mut column: parquet::file::writer::SerializedColumnWriter<'_>,
    leaf: &mut TextLeaf,
    values: &mut Vec<ByteArray>,
) -> Result<(), ParquetError> {
    let shared = Bytes::from(mem::take(&mut leaf.data));
    values.clear();
    let mut start = 0;
    for &end in &leaf.levels.values {
        values.push(ByteArray::from(shared.slice(start..end)));
        start = end;
    }
    column.typed::<ByteArrayType>().write_batch(
        values,
        Some(&leaf.levels.defs),
        Some(&leaf.levels.reps),
    )?;
    values.clear();
    leaf.levels.clear();
    column.close()
}

/// The writer underneath the Parquet file writer, keeping the first I/O
/// error it meets: the file writer's own errors lose its kind.
struct Recorder<W> {
    inner: W,
    error: Arc<Mutex<Option<io::Error>>>,
}

impl<W> Recorder<W> {
    fn keep<T>(&self, result: io::Result<T>) -> io::Result<T> {
        result.inspect_err(|e| {
            let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
            if slot.is_none() {
                *slot = Some(io::Error::new(e.kind(), e.to_string()));
            }
        })
    }
}

impl<W: Write> Write for Recorder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.keep(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.keep(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::schema::Column;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    fn schema_frame(columns: &[Column], names: &[&str]) -> Vec<u8> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        cells::schema(columns, &names, &mut out);
        out
    }

    fn row(index: i64, score: Option<i64>, text: Option<&str>) -> Vec<u8> {
        let mut out = Vec::new();
        let start = cells::begin(cells::ROW, &mut out);
        cells::int(&mut out, index);
        cells::opt_int(&mut out, score);
        cells::opt_str(&mut out, text.map(str::as_bytes));
        cells::end(start, &mut out);
        out
    }

    const COLUMNS: [Column; 3] = [Column::Index, Column::Score, Column::Error];

    /// Frames cut anywhere, a repeated schema, and more rows than one
    /// group holds: all rows come back in order, in several row groups.
    #[test]
    fn frames_in_any_cut_make_one_file() {
        let mut bytes = schema_frame(&COLUMNS, &["index", "score", "error"]);
        let total = GROUP_ROWS + 10;
        for i in 0..total as i64 {
            let text = format!("e{i}");
            bytes.extend(row(
                i,
                (i % 3 != 0).then_some(-i),
                (i % 2 == 0).then_some(&text),
            ));
            if i == 5 {
                bytes.extend(schema_frame(&COLUMNS, &["index", "score", "error"]));
            }
        }
        let mut rows = ParquetRows::new(Vec::new());
        for piece in bytes.chunks(7) {
            rows.write(piece).unwrap();
        }
        let file = Bytes::from(rows.finish().unwrap());
        let reader = SerializedFileReader::new(file).unwrap();
        let meta = reader.metadata();
        assert_eq!(meta.num_row_groups(), 2);
        assert_eq!(meta.file_metadata().num_rows(), total as i64);
        let read: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .take(4)
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(
            read,
            [
                "{index: 0, score: null, error: \"e0\"}",
                "{index: 1, score: -1, error: null}",
                "{index: 2, score: -2, error: \"e2\"}",
                "{index: 3, score: null, error: null}",
            ]
        );
    }

    #[test]
    fn a_different_schema_or_none_is_an_error() {
        let mut rows = ParquetRows::new(Vec::new());
        rows.write(&schema_frame(&COLUMNS, &["index", "score", "error"]))
            .unwrap();
        let other = schema_frame(&COLUMNS, &["index", "score", "oops"]);
        assert!(rows
            .write(&other)
            .unwrap_err()
            .to_string()
            .contains("two different schemas"));

        let mut rows = ParquetRows::new(Vec::new());
        assert!(rows.write(&row(1, None, None)).is_err());
        let rows = ParquetRows::new(Vec::new());
        assert!(rows.finish().unwrap_err().to_string().contains("no schema"));

        let mut rows = ParquetRows::new(Vec::new());
        rows.write(&schema_frame(&COLUMNS, &["index", "score", "error"]))
            .unwrap();
        rows.write(&row(1, None, None)[..6]).unwrap(); // cut short, never finished
        assert!(rows
            .finish()
            .unwrap_err()
            .to_string()
            .contains("inside a row"));
    }

    /// A closed pipe reads as one after the file writer, so that the
    /// pipeline stops quietly.
    #[test]
    fn io_errors_keep_their_kind() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
        }
        let mut rows = ParquetRows::new(Closed);
        let err = rows
            .write(&schema_frame(&COLUMNS, &["index", "score", "error"]))
            .and_then(|()| rows.write(&row(1, None, None)))
            .and_then(|()| rows.finish().map(drop))
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    }
}
