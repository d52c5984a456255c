//! The `puzzles` argument, as data people hold it: a list or tuple of
//! 81-character strings, a NumPy string array (`<U81`, `S81`) or object
//! array, a pandas Series (anything with `to_numpy()`), or an integer array
//! of any integer dtype shaped `(n, 81)` or `(n, 9, 9)` (0 = blank), in any
//! byte order (converted to native), or a memoryview of any of these (read
//! as the array it views). A string that is not valid UTF-8 (a lone
//! surrogate) is an `invalid` row, never an exception.
//!
//! Strings are copied into one buffer under the GIL and parsed by the
//! workers ([`PuzzleView::parse`]), so parsing runs in parallel; a missing
//! value (`None`, NaN) is an empty string, so an `invalid` row. A C-contiguous
//! uint8 array is borrowed; any other integer array is converted once. Array
//! values are checked here: a value outside 0..9 raises `ValueError` naming
//! its row, except a row made only of [`NO_GRID`], which stays an `invalid`
//! row (read() marks malformed records so, and every function marks a grid
//! it has not got so). Anything else raises `TypeError`.

use batchdoku_core::{parse_line, Grid, ParseError};

use crate::arrow::{self, Chunk, ChunkView};
use numpy::{
    Element, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyFloat, PyMemoryView, PySequence, PyString};

/// The cell value filling a row that holds no grid: a malformed record in
/// `read()`'s `puzzles`, no solution in `solution`, an invalid puzzle in
/// `canonical`. Such a row stays `invalid` wherever it is passed on.
pub const NO_GRID: u8 = 255;

/// What the function does with the puzzles, for messages.
const EXPECTED: &str =
    "expected a list of 81-character strings, a string or object array, a pandas Series, \
     or an integer array of shape (n, 81) or (n, 9, 9)";

/// The puzzles of one call, held for as long as the workers read them.
pub enum Puzzles<'py> {
    /// A C-contiguous uint8 array of shape (n, 81), borrowed (values
    /// checked).
    Array(PyReadonlyArray2<'py, u8>),
    /// Cell values converted from another integer array (values checked).
    Cells(Vec<u8>),
    /// The bytes of each string, end to end; `ends[i]` is where string
    /// `i` ends.
    Lines {
        /// Every string's UTF-8 bytes.
        bytes: Vec<u8>,
        /// End offset of each string in `bytes`.
        ends: Vec<usize>,
    },
    /// An Arrow array's chunks, borrowed.
    Arrow(Vec<Chunk<'py>>),
}

/// A view of [`Puzzles`] the workers can share without the GIL.
pub enum PuzzleView<'a> {
    /// `n * 81` cell values, each row 0..=9 or all [`NO_GRID`].
    Cells(&'a [u8]),
    /// Strings end to end, and where each ends.
    Lines {
        /// Every string's bytes.
        bytes: &'a [u8],
        /// End offset of each string.
        ends: &'a [usize],
    },
    /// Arrow chunks, and the index of each chunk's first string.
    Arrow {
        /// Each chunk's buffers.
        chunks: Vec<ChunkView<'a>>,
        /// `firsts[c]` is the index of chunk `c`'s first string; the last
        /// entry is the number of strings.
        firsts: Vec<usize>,
    },
}

/// Why one puzzle has no grid.
pub enum Unreadable {
    /// The text is malformed, as the CLI would say.
    Parse(ParseError),
    /// An array row of [`NO_GRID`] values.
    NoGrid,
    /// A missing value (an Arrow null).
    Missing,
}

/// What to do when puzzles arrive as numbers.
pub fn numbers_hint() -> &'static str {
    "puzzles must be text (81 characters each) or cells shaped (n, 81): numbers lose a puzzle's leading \
     zeros; read the CSV with dtype=str (pd.read_csv(path, dtype=str))"
}

/// `TypeError` with the common prefix.
fn type_error(msg: String) -> PyErr {
    PyTypeError::new_err(format!("puzzles: {msg}"))
}

/// The type name of `obj`, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Checks the cells of one row: every value 0..=9, or every value
/// [`NO_GRID`]. `get(c)` is cell `c`'s value; the error is the first cell
/// out of range and its value.
fn check_cells(get: impl Fn(usize) -> i128) -> Result<(), (usize, i128)> {
    if (0..Grid::CELLS).all(|c| get(c) == i128::from(NO_GRID)) {
        return Ok(());
    }
    match (0..Grid::CELLS).find(|&c| !(0..=9).contains(&get(c))) {
        None => Ok(()),
        Some(c) => Err((c, get(c))),
    }
}

/// [`check_cells`] for row `i`, as a `ValueError` naming the row.
fn check_row(i: usize, get: impl Fn(usize) -> i128) -> PyResult<()> {
    check_cells(get).map_err(|(c, v)| {
        PyValueError::new_err(format!(
            "puzzles: row {i} (0-based): value {v} in cell {c} (0-based) is outside 0..9"
        ))
    })
}

/// Converts a C-contiguous `(n, 81)` array of element type `T` into checked
/// cells, or `None` when its dtype is not `T`.
fn convert<T: Element + Copy + Into<i128>>(array: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let Ok(typed) = array.cast::<PyArray2<T>>() else {
        return Ok(None);
    };
    let view = typed.readonly();
    let values = view.as_slice()?;
    for (i, row) in values.chunks_exact(Grid::CELLS).enumerate() {
        check_row(i, |c| row[c].into())?;
    }
    // Every value is 0..=9 or 255 now, so the cast keeps it.
    Ok(Some(
        values
            .iter()
            .map(|&v| Into::<i128>::into(v) as u8)
            .collect(),
    ))
}

/// `dtype` in the machine's byte order (`>u2` becomes `<u2` on a
/// little-endian machine; a one-byte or native dtype stays as it is).
fn native<'py>(dtype: &Bound<'py, numpy::PyArrayDescr>) -> PyResult<Bound<'py, PyAny>> {
    dtype.call_method1("newbyteorder", ("=",))
}

/// Appends one string item (str, bytes, or a missing value as an empty
/// string) to `bytes`, or raises `TypeError` naming row `i`.
fn push_item(item: &Bound<'_, PyAny>, i: usize, bytes: &mut Vec<u8>) -> PyResult<()> {
    if let Ok(s) = item.cast::<PyString>() {
        match s.to_cow() {
            Ok(text) => bytes.extend_from_slice(text.as_bytes()),
            // Not valid UTF-8 (a lone surrogate): its bytes as Python can
            // write them, which the parser reports as a bad character, so an
            // invalid row, never an exception.
            Err(_) => {
                let raw = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
                bytes.extend_from_slice(raw.cast::<PyBytes>()?.as_bytes());
            }
        }
    } else if let Ok(b) = item.cast::<PyBytes>() {
        bytes.extend_from_slice(b.as_bytes());
    } else if item.is_none() || item.cast::<PyFloat>().is_ok_and(|f| f.value().is_nan()) {
        // A missing value (pandas NaN, None): an empty record, so an
        // invalid row, as the CLI makes of an empty field.
    } else if type_name(item) == "NAType" {
        // pandas.NA, also a missing value.
    } else if item.is_instance_of::<pyo3::types::PyInt>() || item.is_instance_of::<PyFloat>() {
        return Err(type_error(format!(
            "row {i} (0-based): expected a string, got {}; {}",
            type_name(item),
            numbers_hint()
        )));
    } else {
        return Err(type_error(format!(
            "row {i} (0-based): expected a string, got {}",
            type_name(item)
        )));
    }
    Ok(())
}

impl<'py> Puzzles<'py> {
    /// Converts the `puzzles` argument: `TypeError` for a type it does not
    /// take, `ValueError` for a wrong shape or a value outside 0..9.
    pub fn extract(obj: &Bound<'py, PyAny>) -> PyResult<Puzzles<'py>> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
            return Err(type_error(format!(
                "{EXPECTED}; got one string (wrap it in a list)"
            )));
        }
        if obj.cast::<PyUntypedArray>().is_ok() {
            return Self::from_array(obj);
        }
        if arrow::is_arrow(obj)? {
            return Ok(Puzzles::Arrow(arrow::chunks(obj)?));
        }
        // A memoryview (or other buffer): the array it views.
        if obj.is_instance_of::<PyMemoryView>() {
            let numpy = obj.py().import("numpy")?;
            let array = numpy.call_method1("asarray", (obj,)).map_err(|e| {
                type_error(format!(
                    "{EXPECTED}; got a memoryview NumPy cannot read as an array ({e})"
                ))
            })?;
            return Self::from_array(&array);
        }
        // A pandas Series or Index (and polars, pyarrow): its NumPy form.
        if !obj.is_instance_of::<PySequence>() && obj.hasattr("to_numpy")? {
            let array = obj.call_method0("to_numpy")?;
            if array.cast::<PyUntypedArray>().is_ok() {
                return Self::from_array(&array);
            }
        }
        let Ok(items) = obj.cast::<PySequence>() else {
            return Err(type_error(format!("{EXPECTED}; got {}", type_name(obj))));
        };
        Self::from_items(items.try_iter()?)
    }

    /// Strings from any iterator of items.
    fn from_items(items: Bound<'py, pyo3::types::PyIterator>) -> PyResult<Puzzles<'py>> {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for (i, item) in items.enumerate() {
            push_item(&item?, i, &mut bytes)?;
            ends.push(bytes.len());
        }
        Ok(Puzzles::Lines { bytes, ends })
    }

    /// A NumPy array of strings, objects or integers.
    fn from_array(obj: &Bound<'py, PyAny>) -> PyResult<Puzzles<'py>> {
        let py = obj.py();
        let array = obj.cast::<PyUntypedArray>()?;
        let shape = array.shape().to_vec();
        let dtype = array.dtype();
        let kind = dtype.kind();
        let itemsize = dtype.itemsize();
        let numpy = py.import("numpy")?;
        match kind {
            b'U' | b'S' | b'O' if shape.len() != 1 => Err(PyValueError::new_err(format!(
                "puzzles: a string or object array must have one dimension (one column), got shape {shape:?}"
            ))),
            b'O' => Self::from_items(obj.try_iter()?),
            b'S' | b'U' => {
                let n = shape[0];
                let width = if kind == b'U' { itemsize / 4 } else { itemsize };
                let mut bytes = Vec::with_capacity(n * width.min(Grid::CELLS));
                let mut ends = Vec::with_capacity(n);
                if width == 0 {
                    ends.resize(n, 0);
                    return Ok(Puzzles::Lines { bytes, ends });
                }
                // In native byte order (a `>U81` array's code points are
                // big-endian), C-contiguous.
                let contiguous = numpy.call_method1("ascontiguousarray", (obj, native(&dtype)?))?;
                // NumPy pads each string with NULs to the dtype's width.
                if kind == b'S' {
                    let raw = contiguous
                        .call_method1("view", (numpy.getattr("uint8")?,))?
                        .call_method1("reshape", ((n, width),))?;
                    let raw = raw.cast::<PyArray2<u8>>()?.readonly();
                    for row in raw.as_slice()?.chunks_exact(width) {
                        let len = row.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
                        bytes.extend_from_slice(&row[..len]);
                        ends.push(bytes.len());
                    }
                } else {
                    let raw = contiguous
                        .call_method1("view", (numpy.getattr("uint32")?,))?
                        .call_method1("reshape", ((n, width),))?;
                    let raw = raw.cast::<PyArray2<u32>>()?.readonly();
                    let mut utf8 = [0u8; 4];
                    for row in raw.as_slice()?.chunks_exact(width) {
                        let len = row.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1);
                        for &c in &row[..len] {
                            let ch = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
                            bytes.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
                        }
                        ends.push(bytes.len());
                    }
                }
                Ok(Puzzles::Lines { bytes, ends })
            }
            // Most likely a CSV column of puzzles read as numbers.
            b'u' | b'i' if shape.len() == 1 => Err(PyValueError::new_err(format!(
                "puzzles: an integer array must have shape (n, 81) or (n, 9, 9), got {shape:?}; {}",
                numbers_hint()
            ))),
            b'u' | b'i' => {
                let n = match shape[..] {
                    [n, c] if c == Grid::CELLS => n,
                    [n, 9, 9] => n,
                    _ => {
                        return Err(PyValueError::new_err(format!(
                            "puzzles: an integer array must have shape (n, 81) or (n, 9, 9), got {shape:?}"
                        )))
                    }
                };
                if shape.len() == 2 && dtype.is_equiv_to(&numpy::dtype::<u8>(py)) {
                    let typed = obj.cast::<PyArray2<u8>>()?.readonly();
                    // as_slice() also takes a Fortran-order array, whose
                    // cells are not in row-major order: borrow C order only.
                    if let (true, Ok(values)) = (typed.is_c_contiguous(), typed.as_slice()) {
                        for (i, row) in values.chunks_exact(Grid::CELLS).enumerate() {
                            check_row(i, |c| row[c].into())?;
                        }
                        return Ok(Puzzles::Array(typed));
                    }
                }
                // Any byte order (`>u2`, `>i8`): converted to native first.
                let flat = numpy
                    .call_method1("ascontiguousarray", (obj, native(&dtype)?))?
                    .call_method1("reshape", ((n, Grid::CELLS),))?;
                macro_rules! first_of {
                    ($($t:ty),*) => {
                        $(if let Some(cells) = convert::<$t>(&flat)? {
                            return Ok(Puzzles::Cells(cells));
                        })*
                    };
                }
                first_of!(u8, i8, u16, i16, u32, i32, u64, i64);
                Err(type_error(format!("unsupported integer dtype {dtype}")))
            }
            b'f' => Err(type_error(format!(
                "{EXPECTED}; got an array of dtype {dtype}; {}",
                numbers_hint()
            ))),
            _ => Err(type_error(format!("{EXPECTED}; got an array of dtype {dtype}"))),
        }
    }

    /// The view the workers read.
    pub fn view(&self) -> PyResult<PuzzleView<'_>> {
        Ok(match self {
            Puzzles::Array(array) => {
                PuzzleView::Cells(array.as_slice().expect("checked C-contiguous"))
            }
            Puzzles::Cells(cells) => PuzzleView::Cells(cells),
            Puzzles::Lines { bytes, ends } => PuzzleView::Lines { bytes, ends },
            Puzzles::Arrow(chunks) => {
                let mut firsts = vec![0];
                for chunk in chunks {
                    firsts.push(firsts[firsts.len() - 1] + chunk.len());
                }
                PuzzleView::Arrow {
                    chunks: chunks.iter().map(Chunk::view).collect::<PyResult<_>>()?,
                    firsts,
                }
            }
        })
    }
}

impl PuzzleView<'_> {
    /// Number of puzzles.
    pub fn len(&self) -> usize {
        match self {
            PuzzleView::Cells(cells) => cells.len() / Grid::CELLS,
            PuzzleView::Lines { ends, .. } => ends.len(),
            PuzzleView::Arrow { firsts, .. } => firsts[firsts.len() - 1],
        }
    }

    /// Parses puzzle `i`: a string as the CLI parses a line, an array row
    /// as its (checked) cells.
    pub fn parse(&self, i: usize) -> Result<Grid, Unreadable> {
        match self {
            PuzzleView::Cells(cells) => {
                let row: [u8; Grid::CELLS] = cells[i * Grid::CELLS..(i + 1) * Grid::CELLS]
                    .try_into()
                    .expect("81 cells");
                Grid::from_cells(row).ok_or(Unreadable::NoGrid)
            }
            PuzzleView::Lines { bytes, ends } => {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                parse_line(&bytes[start..ends[i]]).map_err(Unreadable::Parse)
            }
            PuzzleView::Arrow { chunks, firsts } => {
                // The chunk holding string `i`: the last one starting at or
                // before it.
                let c = firsts.partition_point(|&first| first <= i) - 1;
                match chunks[c].get(i - firsts[c]) {
                    Some(text) => parse_line(text).map_err(Unreadable::Parse),
                    None => Err(Unreadable::Missing),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_rows_of_no_grid_are_unreadable() {
        let mut cells = vec![0u8; 2 * Grid::CELLS];
        cells[3] = 9;
        cells[Grid::CELLS..].fill(NO_GRID);
        let view = PuzzleView::Cells(&cells);
        assert_eq!(view.len(), 2);
        assert_eq!(view.parse(0).ok().unwrap().cells()[3], 9);
        assert!(matches!(view.parse(1), Err(Unreadable::NoGrid)));
    }

    #[test]
    fn rows_are_checked_whole() {
        assert_eq!(check_cells(|c| (c % 10) as i128), Ok(()));
        assert_eq!(check_cells(|_| 255), Ok(()));
        assert_eq!(check_cells(|c| if c == 5 { 255 } else { 0 }), Err((5, 255)));
        assert_eq!(check_cells(|c| if c == 80 { -1 } else { 0 }), Err((80, -1)));
    }

    #[test]
    fn strings_are_cut_at_their_ends() {
        let a = "1".repeat(81);
        let bytes = format!("{a}x.");
        let ends = [81, 83];
        let view = PuzzleView::Lines {
            bytes: bytes.as_bytes(),
            ends: &ends,
        };
        assert_eq!(view.len(), 2);
        assert_eq!(view.parse(0).ok().unwrap().cells()[80], 1);
        assert!(matches!(view.parse(1), Err(Unreadable::Parse(_))));
    }
}
