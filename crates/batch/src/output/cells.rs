//! The binary frames a Parquet output travels in, from the workers (which
//! encode rows in parallel, as they do CSV) to the writer thread's Parquet
//! assembler (`output::parquet`, inside the [`Sink`](crate::Sink)):
//! one schema frame (the column names and kinds, what the header line is to
//! CSV) and then one row frame per row.
//!
//! A frame is a tag byte (`S` or `R`), its body's length (4 bytes, little
//! endian) and the body. A schema body is the column count (2 bytes) and,
//! per column, its [`Kind`] code and its name (2-byte length, UTF-8). A row
//! body holds each column's cell in order: `Int` 8 bytes; `OptInt` a
//! presence byte and 8 bytes when present; `OptBool` one byte (0 null, 1
//! false, 2 true); `Str` a 4-byte length and the bytes; `OptStr` a presence
//! byte and a `Str` when present; `OptReal` a presence byte and 8 bytes
//! (an `f64`) when present; `Path` a presence byte and, when present, the
//! step count (4 bytes) and per step its technique (`Str`), its rating (8
//! bytes, an `f64`), its placements and its eliminations (each a count, 4
//! bytes, and that many `Str`s) and its text (`Str`).

#[cfg(any(feature = "parquet", test))]
use std::io;

use super::schema::Column;

/// The tag of a schema frame.
pub(crate) const SCHEMA: u8 = b'S';
/// The tag of a row frame.
pub(crate) const ROW: u8 = b'R';
/// Tag and length.
const FRAME_HEAD: usize = 5;

/// How a column is stored: its Parquet type, and whether it may be null
/// (exactly where the CSV cell may be empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A 64-bit integer, always present.
    Int,
    /// A 64-bit integer or null.
    OptInt,
    /// A boolean or null.
    OptBool,
    /// A string, always present (maybe empty).
    Str,
    /// A string or null.
    OptStr,
    /// A 64-bit float or null.
    OptReal,
    /// A solution path or null: a list of steps, each a struct of a
    /// technique, a rating, two lists of moves and a text.
    Path,
}

impl Kind {
    /// Every kind, in code order.
    #[cfg(any(feature = "parquet", test))]
    const ALL: [Kind; 7] = [
        Kind::Int,
        Kind::OptInt,
        Kind::OptBool,
        Kind::Str,
        Kind::OptStr,
        Kind::OptReal,
        Kind::Path,
    ];

    /// How `column` is stored.
    pub(crate) fn of(column: Column) -> Kind {
        match column {
            Column::Index | Column::Line | Column::Guesses | Column::Nodes | Column::Backtracks => {
                Kind::Int
            }
            Column::Solutions
            | Column::Score
            | Column::Givens
            | Column::Dropped
            | Column::TrainLine
            | Column::Steps => Kind::OptInt,
            Column::Er | Column::Ep | Column::Ed | Column::MeanGuesses | Column::MeanBacktracks => {
                Kind::OptReal
            }
            Column::Singles => Kind::OptBool,
            Column::Status | Column::Trailing | Column::Kept(_) => Kind::Str,
            Column::Split
            | Column::Puzzle
            | Column::Solution
            | Column::Expected
            | Column::Error
            | Column::Canonical
            | Column::Transform
            | Column::Hardest
            | Column::Techniques => Kind::OptStr,
            Column::Path => Kind::Path,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }

    #[cfg(any(feature = "parquet", test))]
    fn from_code(code: u8) -> Option<Kind> {
        Kind::ALL.get(code as usize).copied()
    }
}

/// Appends the schema frame of `names` (with their kinds) to `out`.
pub(crate) fn schema(columns: &[Column], names: &[String], out: &mut Vec<u8>) {
    let start = begin(SCHEMA, out);
    out.extend_from_slice(&(columns.len() as u16).to_le_bytes());
    for (&column, name) in columns.iter().zip(names) {
        out.push(Kind::of(column).code());
        let name = &name.as_bytes()[..name.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(name);
    }
    end(start, out);
}

/// Starts a frame tagged `tag`; returns where it starts, for [`end`].
pub(crate) fn begin(tag: u8, out: &mut Vec<u8>) -> usize {
    let start = out.len();
    out.push(tag);
    out.extend_from_slice(&[0; 4]);
    start
}

/// Ends the frame begun at `start`: writes its body's length.
pub(crate) fn end(start: usize, out: &mut [u8]) {
    let len = (out.len() - start - FRAME_HEAD) as u32;
    out[start + 1..start + FRAME_HEAD].copy_from_slice(&len.to_le_bytes());
}

/// Appends an `Int` cell.
pub(crate) fn int(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Appends an `OptInt` cell.
pub(crate) fn opt_int(out: &mut Vec<u8>, n: Option<i64>) {
    match n {
        Some(n) => {
            out.push(1);
            int(out, n);
        }
        None => out.push(0),
    }
}

/// Appends an `OptBool` cell.
pub(crate) fn opt_bool(out: &mut Vec<u8>, b: Option<bool>) {
    out.push(match b {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    });
}

/// Appends a `Str` cell (UTF-8 text).
pub(crate) fn str(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s);
}

/// Appends an `OptStr` cell.
pub(crate) fn opt_str(out: &mut Vec<u8>, s: Option<&[u8]>) {
    match s {
        Some(s) => {
            out.push(1);
            str(out, s);
        }
        None => out.push(0),
    }
}

/// Appends an `OptReal` cell.
pub(crate) fn opt_real(out: &mut Vec<u8>, x: Option<f64>) {
    match x {
        Some(x) => {
            out.push(1);
            out.extend_from_slice(&x.to_le_bytes());
        }
        None => out.push(0),
    }
}

/// Appends a `Path` cell: null when the row has no path.
pub(crate) fn path(out: &mut Vec<u8>, path: &super::path::Path) {
    if !path.is_present() {
        out.push(0);
        return;
    }
    out.push(1);
    out.extend_from_slice(&(path.len() as u32).to_le_bytes());
    for step in path.steps() {
        str(out, step.technique().as_bytes());
        out.extend_from_slice(&(f64::from(step.rating()) / 10.0).to_le_bytes());
        moves(out, step.placements());
        moves(out, step.eliminations());
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        step.write_text(out);
        let len = (out.len() - at - 4) as u32;
        out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    }
}

/// Appends a count and that many `Str`s, the moves.
fn moves(out: &mut Vec<u8>, moves: impl Iterator<Item = super::path::Move>) {
    let at = out.len();
    out.extend_from_slice(&[0; 4]);
    let mut n = 0u32;
    for m in moves {
        str(out, m.as_bytes());
        n += 1;
    }
    out[at..at + 4].copy_from_slice(&n.to_le_bytes());
}

#[cfg(any(feature = "parquet", test))]
/// The first complete frame of `buf`: its tag, its body and the bytes it
/// spans; `None` when `buf` holds only part of one.
pub(crate) fn next_frame(buf: &[u8]) -> Option<(u8, &[u8], usize)> {
    let head = buf.get(..FRAME_HEAD)?;
    let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
    let body = buf.get(FRAME_HEAD..FRAME_HEAD + len)?;
    Some((head[0], body, FRAME_HEAD + len))
}

#[cfg(any(feature = "parquet", test))]
/// A malformed frame: a bug in the encoder, never bad input.
fn malformed(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("Parquet rows: malformed frame ({what})"),
    )
}

#[cfg(any(feature = "parquet", test))]
/// Reads a schema body: each column's name and kind.
pub(crate) fn read_schema(body: &[u8]) -> io::Result<Vec<(String, Kind)>> {
    let mut cells = Cells(body);
    let count = u16::from_le_bytes(cells.take::<2>()?) as usize;
    let mut columns = Vec::with_capacity(count);
    for _ in 0..count {
        let [code] = cells.take::<1>()?;
        let kind = Kind::from_code(code).ok_or_else(|| malformed("kind"))?;
        let len = u16::from_le_bytes(cells.take::<2>()?) as usize;
        let name = cells.bytes(len)?;
        let name = String::from_utf8(name.to_vec()).map_err(|_| malformed("name"))?;
        columns.push((name, kind));
    }
    cells.done()?;
    Ok(columns)
}

#[cfg(any(feature = "parquet", test))]
/// Reads the cells of a row body in order.
#[derive(Debug)]
pub(crate) struct Cells<'a>(pub(crate) &'a [u8]);

#[cfg(any(feature = "parquet", test))]
impl<'a> Cells<'a> {
    fn take<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let (head, rest) = self
            .0
            .split_first_chunk::<N>()
            .ok_or_else(|| malformed("cut short"))?;
        self.0 = rest;
        Ok(*head)
    }

    fn bytes(&mut self, len: usize) -> io::Result<&'a [u8]> {
        if self.0.len() < len {
            return Err(malformed("cut short"));
        }
        let (head, rest) = self.0.split_at(len);
        self.0 = rest;
        Ok(head)
    }

    fn present(&mut self) -> io::Result<bool> {
        match self.take::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(malformed("presence")),
        }
    }

    /// An `Int` cell.
    pub(crate) fn int(&mut self) -> io::Result<i64> {
        Ok(i64::from_le_bytes(self.take::<8>()?))
    }

    /// An `OptInt` cell.
    pub(crate) fn opt_int(&mut self) -> io::Result<Option<i64>> {
        match self.present()? {
            true => self.int().map(Some),
            false => Ok(None),
        }
    }

    /// An `OptBool` cell.
    pub(crate) fn opt_bool(&mut self) -> io::Result<Option<bool>> {
        match self.take::<1>()? {
            [0] => Ok(None),
            [1] => Ok(Some(false)),
            [2] => Ok(Some(true)),
            _ => Err(malformed("boolean")),
        }
    }

    /// A `Str` cell.
    pub(crate) fn str(&mut self) -> io::Result<&'a [u8]> {
        let len = u32::from_le_bytes(self.take::<4>()?) as usize;
        self.bytes(len)
    }

    /// An `OptStr` cell.
    pub(crate) fn opt_str(&mut self) -> io::Result<Option<&'a [u8]>> {
        match self.present()? {
            true => self.str().map(Some),
            false => Ok(None),
        }
    }

    /// An `OptReal` cell.
    pub(crate) fn opt_real(&mut self) -> io::Result<Option<f64>> {
        match self.present()? {
            true => Ok(Some(f64::from_le_bytes(self.take::<8>()?))),
            false => Ok(None),
        }
    }

    #[cfg(feature = "parquet")]
    /// A count (4 bytes) of a `Path` cell.
    pub(crate) fn count(&mut self) -> io::Result<usize> {
        Ok(u32::from_le_bytes(self.take::<4>()?) as usize)
    }

    #[cfg(feature = "parquet")]
    /// An `f64` (8 bytes) of a `Path` cell.
    pub(crate) fn real(&mut self) -> io::Result<f64> {
        Ok(f64::from_le_bytes(self.take::<8>()?))
    }

    #[cfg(feature = "parquet")]
    /// The presence byte of an optional cell.
    pub(crate) fn is_present(&mut self) -> io::Result<bool> {
        self.present()
    }

    /// Fails unless every byte was read.
    pub(crate) fn done(&self) -> io::Result<()> {
        match self.0.is_empty() {
            true => Ok(()),
            false => Err(malformed("extra bytes")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        let mut out = Vec::new();
        let start = begin(ROW, &mut out);
        int(&mut out, -7);
        opt_int(&mut out, None);
        opt_int(&mut out, Some(42));
        opt_bool(&mut out, Some(true));
        opt_bool(&mut out, None);
        str(&mut out, b"");
        opt_str(&mut out, Some(b"abc"));
        opt_str(&mut out, None);
        opt_real(&mut out, Some(7.1));
        opt_real(&mut out, None);
        end(start, &mut out);
        out.extend_from_slice(b"R\x09"); // the start of a next frame

        let (tag, body, used) = next_frame(&out).unwrap();
        assert_eq!((tag, used), (ROW, out.len() - 2));
        let mut cells = Cells(body);
        assert_eq!(cells.int().unwrap(), -7);
        assert_eq!(cells.opt_int().unwrap(), None);
        assert_eq!(cells.opt_int().unwrap(), Some(42));
        assert_eq!(cells.opt_bool().unwrap(), Some(true));
        assert_eq!(cells.opt_bool().unwrap(), None);
        assert_eq!(cells.str().unwrap(), b"");
        assert_eq!(cells.opt_str().unwrap(), Some(&b"abc"[..]));
        assert_eq!(cells.opt_str().unwrap(), None);
        assert_eq!(cells.opt_real().unwrap(), Some(7.1));
        assert_eq!(cells.opt_real().unwrap(), None);
        cells.done().unwrap();
        assert!(next_frame(&out[used..]).is_none()); // incomplete
        assert!(Cells(&[]).int().is_err()); // cut short: an error, not a panic
    }

    #[test]
    fn schema_round_trips_names_and_kinds() {
        let columns = [
            Column::Index,
            Column::Score,
            Column::Singles,
            Column::Kept(0),
        ];
        let names: Vec<String> = ["index", "score", "singles", "id"]
            .map(String::from)
            .to_vec();
        let mut out = Vec::new();
        schema(&columns, &names, &mut out);
        let (tag, body, used) = next_frame(&out).unwrap();
        assert_eq!((tag, used), (SCHEMA, out.len()));
        let read = read_schema(body).unwrap();
        assert_eq!(
            read,
            [
                ("index".to_string(), Kind::Int),
                ("score".to_string(), Kind::OptInt),
                ("singles".to_string(), Kind::OptBool),
                ("id".to_string(), Kind::Str),
            ]
        );
    }
}
