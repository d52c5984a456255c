//! `split`, with the CLI's semantics: the library's [`SplitJob`] run
//! through the package's [`run_job_with`] twice (classes, then parts), over
//! puzzles in memory or over a file read as the CLI reads it, so the same
//! records and seed get the CLI's parts.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use batchdoku_batch::plumbing::Input;
use batchdoku_batch::{ClassBy, SplitJob, Stratify};
use batchdoku_core::{Grid, InputFormat, ReadOptions, Record};
use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFloat, PyList, PyString};
use rayon::prelude::*;

use crate::input::{Puzzles, NO_GRID};
use crate::run::{interruptible, run_job_with, CHUNK};
use crate::{ranged, threads_arg};
use batchdoku_batch::plumbing::Range;

/// Part names for the job's rows, which name their part by a
/// `&'static str`: each distinct name is leaked once per process, not once
/// per call.
fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    if let Some(&known) = names.get(name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(leaked);
    leaked
}

/// Whether `value` names a file (a `str` or an `os.PathLike`) rather than
/// holding puzzles.
pub(crate) fn is_path(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(value.is_instance_of::<PyString>() || value.hasattr("__fspath__")?)
}

/// A path argument as UTF-8 text, as the library's inputs take it.
pub(crate) fn path_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let path: PathBuf = value.extract()?;
    path.to_str().map(str::to_owned).ok_or_else(|| {
        PyValueError::new_err(format!("{}: the path is not valid UTF-8", path.display()))
    })
}

/// Each record's stratum text, end to end, and where each ends.
#[derive(Default)]
struct Strata {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl Strata {
    fn push(&mut self, value: &[u8]) {
        self.text.extend_from_slice(value);
        self.ends.push(self.text.len());
    }

    /// Sets `record`'s one kept field to puzzle `i`'s stratum.
    fn fill(&self, i: usize, record: &mut Record) {
        let start = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        record.kept.clear();
        record.kept_ends.clear();
        record
            .kept
            .extend_from_slice(&self.text[start..self.ends[i]]);
        record.kept_ends.push(record.kept.len() as u32);
    }
}

/// The strata of puzzles in memory: one value per puzzle, as text (a
/// number as `str()` writes it; `None` and NaN are empty, as an empty
/// CSV field).
fn strata_of(values: &Bound<'_, PyAny>, n: usize) -> PyResult<Strata> {
    let mut strata = Strata::default();
    for value in values.try_iter()? {
        let value = value?;
        if value.is_none() {
            strata.push(b"");
        } else if let Ok(text) = value.cast::<PyString>() {
            strata.push(text.to_cow()?.as_bytes());
        } else if let Ok(bytes) = value.cast::<PyBytes>() {
            strata.push(bytes.as_bytes());
        } else if value.cast::<PyFloat>().is_ok_and(|f| f.value().is_nan()) {
            strata.push(b"");
        } else {
            strata.push(value.str()?.to_cow()?.as_bytes());
        }
    }
    if strata.ends.len() != n {
        return Err(PyValueError::new_err(format!(
            "stratify: {} values for {n} puzzles: give one per puzzle",
            strata.ends.len()
        )));
    }
    Ok(strata)
}

/// A file's records as the CLI reads them.
struct FileRecords {
    /// Each record's cells (a [`NO_GRID`] row for a malformed one).
    cells: Vec<u8>,
    /// The malformed records' messages, by record.
    errors: Vec<(usize, String)>,
    /// With a column: each record's value of it.
    strata: Option<Strata>,
}

/// Reads a file's records (see [`FileRecords`]) with `options`, keeping
/// each record's value of `column` when given.
fn read_file(
    py: Python<'_>,
    path: &str,
    options: &ReadOptions,
    column: Option<&str>,
) -> PyResult<FileRecords> {
    let stop = AtomicBool::new(false);
    let read = interruptible(py, &stop, || -> std::io::Result<_> {
        let mut input = Input::open(path, options, Default::default())?;
        let at = match column {
            None => None,
            Some(name) => {
                let names = input.kept_names().unwrap_or_default();
                match names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
                    Some(i) => Some(i),
                    None => {
                        return Err(std::io::Error::new(
                            std::io::ErrorKind::InvalidInput,
                            format!(
                                "stratify={name:?}: no such input column (the input's other \
                                 columns: {})",
                                names.join(", ")
                            ),
                        ))
                    }
                }
            }
        };
        let (mut cells, mut errors, mut strata) = (Vec::new(), Vec::new(), Strata::default());
        let mut record = Record::default();
        let mut i = 0;
        while !stop.load(Ordering::Relaxed) && input.read_record(&mut record)? {
            match &record.puzzle {
                Ok(g) => cells.extend_from_slice(g.cells()),
                Err(e) => {
                    cells.extend_from_slice(&[NO_GRID; Grid::CELLS]);
                    errors.push((i, format!("row {i} (0-based): {path}:{}: {e}", record.line)));
                }
            }
            if let Some(k) = at {
                strata.push(&record.kept_text(k));
            }
            i += 1;
        }
        Ok(FileRecords {
            cells,
            errors,
            strata: at.map(|_| strata),
        })
    })?;
    read.map_err(|e| crate::file_error(path, &e))
}

/// Assign each record to a part (train, valid, test by default) so that no equivalence class is
/// on two sides: the CLI's ``batchdoku split``, the same part for each record for the same records
/// and ``seed``.
///
/// ``data`` is puzzles (as :func:`solve` takes them) or the path of a file (``str`` or
/// ``os.PathLike``), read as the CLI reads it (``input_format``, ``column``: its
/// ``--input-format`` and ``--column``). ``ratios`` are the shares of the records, one per part
/// (two or more, scaled to sum to 1; default ``[0.8, 0.1, 0.1]``), ``names`` the parts' names
/// (default ``["train", "test"]`` for two ratios, ``["train", "valid", "test"]`` for three).
/// ``by`` is ``"puzzle"`` (equivalent puzzles stay together) or ``"grid"`` (puzzles whose unique
/// solutions are equivalent grids). ``stratify`` balances the parts within each stratum:
/// ``"guesses"`` (doubling bins of the search's guesses), or for a file the name of one of its
/// columns (``--stratify COLUMN``), or for puzzles in memory one value per puzzle (a column's
/// values, compared as text). Returns ``split`` (a list: each record's part, ``None`` for an
/// invalid one), ``status`` (uint8: ``Status.OK``, or with ``by="grid"`` ``UNIQUE``,
/// ``MULTIPLE`` or ``UNSOLVABLE``; ``INVALID``) and ``error``, one entry per record.
#[pyfunction]
#[pyo3(signature = (
    data, ratios = None, names = None, seed = None, by = "puzzle", stratify = None,
    threads = None, input_format = "auto", column = None
))]
#[pyo3(
    text_signature = "(data, ratios=None, names=None, seed=0, by='puzzle', stratify=None, threads=None, input_format='auto', column=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn split<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    ratios: Option<Vec<f64>>,
    names: Option<Vec<String>>,
    seed: Option<&Bound<'py, PyAny>>,
    by: &str,
    stratify: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    input_format: &str,
    column: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let ratios = ratios.unwrap_or_else(|| vec![0.8, 0.1, 0.1]);
    let names: Vec<&'static str> = match (names, SplitJob::default_names(ratios.len())) {
        (Some(names), _) => names.iter().map(|n| intern(n)).collect(),
        (None, Some(names)) => names.to_vec(),
        (None, None) => {
            return Err(PyValueError::new_err(format!(
                "split: {n} ratios need {n} names",
                n = ratios.len()
            )))
        }
    };
    let seed = seed.map(|s| ranged(s, "seed", Range::ANY)).transpose()?;
    let by: ClassBy = by.parse().map_err(PyValueError::new_err)?;
    let threads = threads_arg(threads)?;
    let mut job = SplitJob::new(&ratios, &names, seed.unwrap_or(0), by, Stratify::None)
        .map_err(|e| PyValueError::new_err(format!("split: ratios/names: {e}")))?;
    // What to stratify by: the search's guesses, a column (a file's, by
    // name), or one value per puzzle (in memory).
    let named = match stratify {
        Some(s) if s.is_instance_of::<PyString>() => Some(s.extract::<String>()?),
        _ => None,
    };
    let guesses = named.as_deref() == Some("guesses");
    let (puzzles, read_errors, strata) = if is_path(data)? {
        let path = path_text(data)?;
        if stratify.is_some() && named.is_none() {
            return Err(PyTypeError::new_err(
                "stratify: for a file, 'guesses' or the name of one of its columns",
            ));
        }
        let column_name = named.as_deref().filter(|_| !guesses);
        let options = ReadOptions {
            format: input_format
                .parse::<InputFormat>()
                .map_err(PyValueError::new_err)?,
            column,
            keep_columns: column_name.is_some(),
            ..ReadOptions::default()
        };
        let read = read_file(py, &path, &options, column_name)?;
        (Puzzles::Cells(read.cells), read.errors, read.strata)
    } else {
        let puzzles = Puzzles::extract(data)?;
        let n = puzzles.view()?.len();
        let strata = match (stratify, &named) {
            (None, _) => None,
            (Some(_), Some(_)) if guesses => None,
            (Some(_), Some(name)) => {
                return Err(PyValueError::new_err(format!(
                    "stratify={name:?}: a column name needs a file; for puzzles in memory give \
                     'guesses' or one value per puzzle"
                )))
            }
            (Some(values), None) => Some(strata_of(values, n)?),
        };
        (puzzles, Vec::new(), strata)
    };
    if guesses {
        job = job.stratified(Stratify::Guesses);
    } else if strata.is_some() {
        job = job.stratified(Stratify::Kept(0));
    }
    let view = puzzles.view()?;
    let n = view.len();
    let prepare = |i: usize, record: &mut Record| {
        if let Some(strata) = &strata {
            strata.fill(i, record);
        }
    };
    // The classes, then each record's part.
    let mut status = vec![0u8; n];
    run_job_with(
        py,
        &job,
        &view,
        threads,
        status.par_chunks_mut(CHUNK),
        &prepare,
        |_, _, _, _| {},
    )?;
    job.assign();
    let mut part = vec![u8::MAX; n];
    let parts = status.par_chunks_mut(CHUNK).zip(part.par_chunks_mut(CHUNK));
    let errors = run_job_with(
        py,
        &job,
        &view,
        threads,
        parts,
        &prepare,
        |out, j, row, _| {
            let (status, part) = out;
            status[j] = row.status.ordinal() as u8;
            if let Some(named) = row.split {
                let name = named.as_str();
                part[j] = names.iter().position(|&n| n == name).unwrap_or(255) as u8;
            }
        },
    )?;
    let dict = PyDict::new(py);
    dict.set_item(
        "split",
        PyList::new(py, part.iter().map(|&k| names.get(usize::from(k)).copied()))?,
    )?;
    dict.set_item("status", PyArray1::from_vec(py, status))?;
    // A malformed record of a file says why as read() says it.
    let error = PyList::new(py, (0..n).map(|_| py.None()))?;
    for (i, msg) in errors {
        error.set_item(i, msg)?;
    }
    for (i, msg) in read_errors {
        error.set_item(i, msg)?;
    }
    dict.set_item("error", error)?;
    Ok(dict)
}
