//! The `puzzles` argument: a uint8 array of shape (n, 81) (0 = blank),
//! borrowed when C-contiguous, or a sequence of 81-character strings,
//! copied into one buffer under the GIL. Parsing each puzzle is left to
//! the workers ([`PuzzleView::parse`]), so it runs in parallel.

use batchdoku::grid::CELLS;
use batchdoku::parse::{parse_line, ParseError, ParseErrorKind};
use batchdoku::Grid;
use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The puzzles of one call, held for as long as the workers read them.
pub enum Puzzles<'py> {
    /// A C-contiguous uint8 array, borrowed.
    Array(PyReadonlyArray2<'py, u8>),
    /// The cells of a non-contiguous array, copied in row-major order.
    Cells(Vec<u8>),
    /// The bytes of each string, end to end; `ends[i]` is where string
    /// `i` ends.
    Lines {
        /// Every string's UTF-8 bytes.
        bytes: Vec<u8>,
        /// End offset of each string in `bytes`.
        ends: Vec<usize>,
    },
}

/// A view of [`Puzzles`] the workers can share without the GIL.
#[derive(Clone, Copy)]
pub enum PuzzleView<'a> {
    /// `n * 81` cell values.
    Cells(&'a [u8]),
    /// Strings end to end, and where each ends.
    Lines {
        /// Every string's bytes.
        bytes: &'a [u8],
        /// End offset of each string.
        ends: &'a [usize],
    },
}

impl<'py> Puzzles<'py> {
    /// Converts the `puzzles` argument, or raises `ValueError` for a wrong
    /// type, dtype or shape.
    pub fn extract(obj: &Bound<'py, PyAny>) -> PyResult<Puzzles<'py>> {
        if let Ok(array) = obj.cast::<PyUntypedArray>() {
            let shape = array.shape().to_vec();
            let typed = obj.cast::<PyArray2<u8>>().map_err(|_| {
                PyValueError::new_err(format!(
                    "puzzles: expected a uint8 array of shape (n, 81), got dtype {} with shape {:?}",
                    array.dtype(),
                    shape
                ))
            })?;
            if shape.len() != 2 || shape[1] != CELLS {
                return Err(PyValueError::new_err(format!(
                    "puzzles: expected shape (n, 81), got {shape:?}"
                )));
            }
            let view = typed.readonly();
            if view.as_slice().is_ok() {
                return Ok(Puzzles::Array(view));
            }
            return Ok(Puzzles::Cells(view.as_array().iter().copied().collect()));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyValueError::new_err(
                "puzzles: expected a list of 81-character strings or a uint8 array, got one string",
            ));
        }
        let items = obj.try_iter().map_err(|_| {
            PyValueError::new_err(
                "puzzles: expected a list of 81-character strings or a uint8 array of shape (n, 81)",
            )
        })?;
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for item in items {
            let item = item?;
            let s = item.cast::<PyString>().map_err(|_| {
                PyValueError::new_err(format!(
                    "puzzles: expected strings, got {}",
                    item.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            })?;
            bytes.extend_from_slice(s.to_cow()?.as_bytes());
            ends.push(bytes.len());
        }
        Ok(Puzzles::Lines { bytes, ends })
    }

    /// The view the workers read.
    pub fn view(&self) -> PuzzleView<'_> {
        match self {
            Puzzles::Array(array) => {
                PuzzleView::Cells(array.as_slice().expect("checked C-contiguous"))
            }
            Puzzles::Cells(cells) => PuzzleView::Cells(cells),
            Puzzles::Lines { bytes, ends } => PuzzleView::Lines { bytes, ends },
        }
    }
}

impl PuzzleView<'_> {
    /// Number of puzzles.
    pub fn len(&self) -> usize {
        match self {
            PuzzleView::Cells(cells) => cells.len() / CELLS,
            PuzzleView::Lines { ends, .. } => ends.len(),
        }
    }

    /// Parses puzzle `i`: a string as the CLI parses a line, an array row
    /// with every value checked to be 0..=9.
    pub fn parse(&self, i: usize) -> Result<Grid, ParseError> {
        match self {
            PuzzleView::Cells(cells) => {
                let row: [u8; CELLS] = cells[i * CELLS..(i + 1) * CELLS]
                    .try_into()
                    .expect("81 cells");
                Grid::from_cells(row).ok_or_else(|| {
                    let col = row.iter().position(|&v| v > 9).unwrap_or(0);
                    ParseError::new(ParseErrorKind::BadChar { byte: row[col] }, col as u32 + 1)
                })
            }
            PuzzleView::Lines { bytes, ends } => {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                parse_line(&bytes[start..ends[i]])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_rows_are_checked_cell_by_cell() {
        let mut cells = vec![0u8; 2 * CELLS];
        cells[3] = 9;
        cells[CELLS + 5] = 12;
        let view = PuzzleView::Cells(&cells);
        assert_eq!(view.len(), 2);
        assert_eq!(view.parse(0).unwrap().cells()[3], 9);
        let err = view.parse(1).unwrap_err();
        assert_eq!(err.col, 6);
        assert_eq!(err.kind, ParseErrorKind::BadChar { byte: 12 });
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
        assert_eq!(view.parse(0).unwrap().cells()[80], 1);
        assert!(view.parse(1).is_err());
    }
}
