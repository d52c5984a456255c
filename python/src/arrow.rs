//! Apache Arrow string and binary arrays as puzzles, read in place: a
//! `pyarrow.Array` or `ChunkedArray` of `string`, `large_string`, `binary`
//! or `large_binary` is borrowed buffer by buffer (its data, offsets and
//! validity bitmap are viewed as NumPy arrays over the Arrow buffers, never
//! copied); any other text type (`string_view`, `binary_view`,
//! `fixed_size_binary`, a dictionary of strings) is first cast to
//! `large_binary`, one copy. A null is an invalid row. Numbers
//! (integers, floats, decimals) raise `TypeError` with the `dtype=str` hint
//! every puzzle argument gives.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::input::numbers_hint;

/// The offsets of one chunk: `len + 1` of them, 32- or 64-bit as the type.
pub enum Offsets<'py> {
    /// `string`, `binary`.
    Small(PyReadonlyArray1<'py, i32>),
    /// `large_string`, `large_binary`.
    Large(PyReadonlyArray1<'py, i64>),
}

/// One chunk's buffers, borrowed from Arrow.
pub struct Chunk<'py> {
    /// Every string's bytes (the data buffer).
    data: PyReadonlyArray1<'py, u8>,
    /// Where each string starts and ends in `data`.
    offsets: Offsets<'py>,
    /// The validity bitmap and the chunk's bit offset in it, when the chunk
    /// has nulls.
    validity: Option<(PyReadonlyArray1<'py, u8>, usize)>,
    /// Number of strings.
    len: usize,
}

/// A chunk's buffers as slices the workers share.
#[derive(Clone, Copy)]
pub struct ChunkView<'a> {
    data: &'a [u8],
    small: &'a [i32],
    large: &'a [i64],
    validity: Option<(&'a [u8], usize)>,
}

impl ChunkView<'_> {
    /// String `i` of the chunk, or `None` when it is null.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        if let Some((bits, offset)) = self.validity {
            let bit = offset + i;
            if bits[bit / 8] >> (bit % 8) & 1 == 0 {
                return None;
            }
        }
        let (start, end) = if self.large.is_empty() {
            (self.small[i] as usize, self.small[i + 1] as usize)
        } else {
            (self.large[i] as usize, self.large[i + 1] as usize)
        };
        Some(&self.data[start..end])
    }
}

impl<'py> Chunk<'py> {
    /// Number of strings.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The chunk's slices.
    pub fn view(&self) -> PyResult<ChunkView<'_>> {
        let (small, large): (&[i32], &[i64]) = match &self.offsets {
            Offsets::Small(o) => (o.as_slice()?, &[]),
            Offsets::Large(o) => (&[], o.as_slice()?),
        };
        Ok(ChunkView {
            data: self.data.as_slice()?,
            small,
            large,
            validity: match &self.validity {
                Some((bits, offset)) => Some((bits.as_slice()?, *offset)),
                None => None,
            },
        })
    }
}

/// Whether `obj` is a pyarrow array or chunked array.
pub fn is_arrow(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let module: String = obj.get_type().getattr("__module__")?.extract()?;
    Ok(module.starts_with("pyarrow") && obj.hasattr("type")? && obj.hasattr("null_count")?)
}

/// The chunks of a pyarrow `Array` or `ChunkedArray` of text.
pub fn chunks<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Chunk<'py>>> {
    let py = obj.py();
    let arrays: Vec<Bound<'py, PyAny>> = if obj.hasattr("chunks")? && obj.hasattr("num_chunks")? {
        obj.getattr("chunks")?
            .cast_into::<PyList>()?
            .iter()
            .collect()
    } else {
        vec![obj.clone()]
    };
    let pa = py.import("pyarrow")?;
    let types = pa.getattr("types")?;
    let numpy = py.import("numpy")?;
    let is = |what: &str, t: &Bound<'py, PyAny>| -> PyResult<bool> {
        types.call_method1(what, (t,))?.extract()
    };
    let mut out = Vec::with_capacity(arrays.len());
    for array in arrays {
        let mut array = array;
        let mut ty = array.getattr("type")?;
        if is("is_dictionary", &ty)? {
            array = array.call_method0("dictionary_decode")?;
            ty = array.getattr("type")?;
        }
        for number in ["is_integer", "is_floating", "is_decimal", "is_boolean"] {
            if is(number, &ty)? {
                return Err(PyTypeError::new_err(format!(
                    "puzzles: an Arrow array of {ty}, not text; {}",
                    numbers_hint()
                )));
            }
        }
        let large = if is("is_string", &ty)? || is("is_binary", &ty)? {
            false
        } else if is("is_large_string", &ty)? || is("is_large_binary", &ty)? {
            true
        } else {
            // string_view, binary_view, fixed_size_binary, null: one copy.
            array = array
                .call_method1("cast", (pa.call_method0("large_binary")?,))
                .map_err(|e| {
                    PyTypeError::new_err(format!(
                        "puzzles: an Arrow array of {ty} cannot be read as text ({e})"
                    ))
                })?;
            true
        };
        let len: usize = array.call_method0("__len__")?.extract()?;
        let offset: usize = array.getattr("offset")?.extract()?;
        let buffers = array.call_method0("buffers")?.cast_into::<PyList>()?;
        let view = |i: usize, dtype: &str| -> PyResult<Option<Bound<'py, PyAny>>> {
            let buffer = buffers.get_item(i)?;
            if buffer.is_none() {
                return Ok(None);
            }
            let dtype = numpy.getattr(dtype)?;
            Ok(Some(numpy.call_method1("frombuffer", (buffer, dtype))?))
        };
        let data = match view(2, "uint8")? {
            Some(d) => d,
            None => PyArray1::<u8>::zeros(py, 0, false).into_any(),
        };
        let data = data.cast_into::<PyArray1<u8>>()?.readonly();
        let offsets = match view(1, if large { "int64" } else { "int32" })? {
            Some(o) => o.get_item(pyo3::types::PySlice::new(
                py,
                offset as isize,
                (offset + len + 1) as isize,
                1,
            ))?,
            None if len == 0 => continue,
            None => {
                return Err(PyTypeError::new_err(
                    "puzzles: an Arrow array without offsets",
                ))
            }
        };
        let offsets = if large {
            Offsets::Large(offsets.cast_into::<PyArray1<i64>>()?.readonly())
        } else {
            Offsets::Small(offsets.cast_into::<PyArray1<i32>>()?.readonly())
        };
        let nulls: usize = array.getattr("null_count")?.extract()?;
        let validity = match view(0, "uint8")? {
            Some(bits) if nulls > 0 => Some((bits.cast_into::<PyArray1<u8>>()?.readonly(), offset)),
            _ => None,
        };
        out.push(Chunk {
            data,
            offsets,
            validity,
            len,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_cut_at_their_offsets_and_nulls_read_from_the_bitmap() {
        let data = b"abcdefgh";
        // Three strings "ab", "cde", "" starting at offset 1 of a sliced array
        // (the bitmap's bit 0 belongs to the slice's parent).
        let small = [0, 2, 5, 5];
        let large = [0i64, 2, 5, 5];
        let bits = [0b0000_1010u8]; // bits 1 and 3 valid: strings 0 and 2
        let view = ChunkView {
            data,
            small: &small,
            large: &[],
            validity: Some((&bits, 1)),
        };
        assert_eq!(view.get(0), Some(&b"ab"[..]));
        assert_eq!(view.get(1), None);
        assert_eq!(view.get(2), Some(&b""[..]));
        let all_valid = ChunkView {
            data,
            small: &[],
            large: &large,
            validity: None,
        };
        assert_eq!(all_valid.get(1), Some(&b"cde"[..]));
    }
}
