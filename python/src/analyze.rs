//! `batchdoku.analyze`: the CLI's `analyze` on arrays, the library's
//! [`AnalyzeJob`] run through [`run_job`] as the other functions run
//! theirs; this file only converts its arguments and its measures.

use batchdoku_batch::plumbing::Range;
use batchdoku_batch::AnalyzeJob;
use batchdoku_core::{Analysis, AnalyzeOptions, Measure};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;

use crate::input::Puzzles;
use crate::run::{run_job, CHUNK};
use crate::{masked, ranged, threads_arg};

/// The `columns` argument: measure names, as a sequence of strings or one
/// comma-separated string (the CLI's `--columns`); every measure when
/// `None`. Each measure once, in the order given.
fn measures_arg(columns: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Measure>> {
    let Some(columns) = columns else {
        return Ok(Measure::ALL.to_vec());
    };
    let names: Vec<String> = if let Ok(text) = columns.cast::<PyString>() {
        text.to_cow()?.split(',').map(str::to_string).collect()
    } else {
        columns.extract().map_err(|_| {
            PyTypeError::new_err(
                "columns must be a sequence of measure names or one comma-separated string",
            )
        })?
    };
    let mut measures = Vec::new();
    for name in &names {
        let m: Measure = name
            .parse()
            .map_err(|e| PyValueError::new_err(format!("columns: {e}")))?;
        if !measures.contains(&m) {
            measures.push(m);
        }
    }
    Ok(measures)
}

/// The puzzle forum's measures of every puzzle with one solution, as the CLI's ``analyze``.
///
/// ``columns`` names the measures (a list of names, or one comma-separated string as the CLI's
/// ``--columns``; default all six): ``minimal`` (bool, true when no single given can be removed with
/// the puzzle still unique), ``redundant`` (how many givens could each be removed alone),
/// ``symmetry`` (the symmetries of the pattern of givens, with ``generate``'s names joined by ``+``,
/// or ``"none"``), ``automorphisms`` (how many transformations map the puzzle onto itself; 1 for
/// most), ``te`` (trial-and-error depth in Berthier's sense) and ``backdoor`` (the fewest cells
/// whose solution digits let naked and hidden singles solve the puzzle). ``te`` is exact up to
/// ``max_te`` (0 to 2) and ``backdoor`` up to ``max_backdoor`` (0 to 3), both 1 by default (the
/// cheap setting); a puzzle beyond the cap gets the cap plus one, "more than the cap".
///
/// Returns ``status`` (uint8: ``Status.UNIQUE``, ``Status.MULTIPLE``, ``Status.UNSOLVABLE`` or
/// ``Status.INVALID``, as :func:`solve` with ``count_limit=2`` says), each measure asked for
/// (``minimal`` a bool masked array; ``redundant``, ``automorphisms``, ``te`` and ``backdoor``
/// int64 masked arrays; ``symmetry`` a list of ``str`` or ``None``; masked or ``None``, missing,
/// for every puzzle that is not ``UNIQUE``, as the CLI leaves the field empty) and ``error``.
#[pyfunction]
#[pyo3(
    signature = (puzzles, columns = None, max_te = None, max_backdoor = None, threads = None),
    text_signature = "(puzzles, columns=None, max_te=1, max_backdoor=1, threads=None)"
)]
pub fn analyze<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    columns: Option<&Bound<'py, PyAny>>,
    max_te: Option<&Bound<'py, PyAny>>,
    max_backdoor: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let measures = measures_arg(columns)?;
    // The CLI's ranges for --max-te and --max-backdoor.
    let cap = |value: Option<&Bound<'py, PyAny>>, name: &str, range: Range| -> PyResult<u8> {
        Ok(value
            .map(|v| ranged(v, name, range))
            .transpose()?
            .map_or(1, |v| v as u8))
    };
    let job = AnalyzeJob {
        options: AnalyzeOptions {
            max_te: cap(max_te, "max_te", Range::MAX_TE)?,
            max_backdoor: cap(max_backdoor, "max_backdoor", Range::MAX_BACKDOOR)?,
            ..AnalyzeOptions::of(&measures)
        },
    };
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let n = view.len();
    let mut status = vec![0u8; n];
    let mut found: Vec<Option<Analysis>> = vec![None; n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(found.par_chunks_mut(CHUNK));
    let errors = run_job(py, &job, &view, threads, parts, |part, j, row, _| {
        let (status, found) = part;
        status[j] = row.status.ordinal() as u8;
        found[j] = row.analysis;
    })?;
    let dict = PyDict::new(py);
    dict.set_item("status", numpy::PyArray1::from_vec(py, status))?;
    for m in measures {
        // A number column: masked where the row has no value.
        let count = |which: fn(&Analysis) -> Option<i64>| {
            let values: Vec<(i64, bool)> = found
                .iter()
                .map(|a| a.as_ref().and_then(which).map_or((0, true), |v| (v, false)))
                .collect();
            let (values, missing) = values.into_iter().unzip();
            masked(py, values, missing)
        };
        let value = match m {
            Measure::Minimal => {
                let (values, missing) = found
                    .iter()
                    .map(|a| {
                        a.and_then(|a| a.minimal)
                            .map_or((false, true), |v| (v, false))
                    })
                    .unzip();
                masked(py, values, missing)?
            }
            Measure::Redundant => count(|a| a.redundant.map(i64::from))?,
            Measure::Automorphisms => count(|a| a.automorphisms.map(|v| v as i64))?,
            Measure::Te => count(|a| a.te.map(i64::from))?,
            Measure::Backdoor => count(|a| a.backdoor.map(i64::from))?,
            Measure::Symmetry => PyList::new(
                py,
                found
                    .iter()
                    .map(|a| a.and_then(|a| a.symmetry).map(|s| s.as_str())),
            )?
            .into_any(),
            // A measure of a later core: not asked for by any name here.
            _ => continue,
        };
        dict.set_item(m.as_str(), value)?;
    }
    let error = PyList::new(py, (0..n).map(|_| py.None()))?;
    for (i, msg) in errors {
        error.set_item(i, msg)?;
    }
    dict.set_item("error", error)?;
    Ok(dict)
}
