//! The corpus tools: `generate`, `dedupe` and `overlap`, with the CLI's
//! semantics, each over the library's own pieces ([`Generator`] for
//! `generate`; [`DedupeJob`] and [`OverlapJob`] over one [`ClassMap`],
//! run through the package's [`run_job`] for the other two). The rows
//! returned are the rows the CLI writes, in its order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use batchdoku_batch::{
    ClassBy, ClassMap, DedupeJob, Equivalence, OverlapJob, Pass, Row, Split, Status,
};
use batchdoku_core::{ClueTarget, GenerateError, Generator, Grid, Solver, Spec, Symmetry};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;

use crate::input::{Puzzles, NO_GRID};
use crate::run::{interruptible, run_job, CHUNK};
use crate::{common_columns, put_grid, threads_arg};

/// Puzzles per piece of `generate`'s work (the CLI's default
/// `--batch-size`): a puzzle takes milliseconds, so small pieces keep every
/// worker busy.
const GENERATE_CHUNK: usize = 16;

/// Make ``count`` puzzles with exactly one solution, reproducibly from ``seed``: the CLI's
/// ``batchdoku generate``, with its flags as arguments and the same puzzles for the same seed.
///
/// ``clues`` (``--clues``: exactly that many givens, 17..81) and ``min_clues`` (``--min-clues``: stop
/// removing givens there) exclude each other; by default givens are removed until none can go.
/// ``minimal`` (``--minimal``) keeps only puzzles where every given is necessary; ``symmetry``
/// (``--symmetry``) is ``"none"``, ``"central"``, ``"quarter"``, ``"mirror"`` or ``"diagonal"``;
/// ``start`` (``--start``, counting from 1) makes puzzles ``start .. start + count - 1`` of the seed.
/// Puzzle ``i`` depends only on the seed, the spec and ``i``, so the result is the same for every
/// thread count. Returns ``index`` (uint64, the puzzle's 1-based number in the seed's sequence, as
/// the CLI's ``index``),
/// ``givens`` (uint8), ``puzzle`` and ``solution`` (uint8, (n, 81), 0 for blanks). Raises
/// ``ValueError`` for a spec no puzzle can meet (the CLI's message).
#[pyfunction]
#[pyo3(signature = (
    count, seed, clues = None, min_clues = None, minimal = false, symmetry = "none", start = 1,
    threads = None
))]
#[allow(clippy::too_many_arguments)]
pub fn generate<'py>(
    py: Python<'py>,
    count: u64,
    seed: u64,
    clues: Option<usize>,
    min_clues: Option<usize>,
    minimal: bool,
    symmetry: &str,
    start: u64,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let clues = match (clues, min_clues) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "clues and min_clues exclude each other (as --clues and --min-clues)",
            ))
        }
        (Some(k), None) => ClueTarget::Exactly(k),
        (None, Some(k)) => ClueTarget::AtLeast(k),
        (None, None) => ClueTarget::Fewest,
    };
    let symmetry: Symmetry = symmetry.parse().map_err(PyValueError::new_err)?;
    let spec = Spec {
        clues,
        minimal,
        symmetry,
    };
    let generator =
        Generator::new(spec, seed).map_err(|e| PyValueError::new_err(format!("generate: {e}")))?;
    if start == 0 {
        return Err(PyValueError::new_err(
            "generate: start counts from 1 (as --start)",
        ));
    }
    if start.checked_add(count).is_none() {
        return Err(PyValueError::new_err(
            "generate: start plus count overflows",
        ));
    }
    let first = start - 1; // the generator counts from 0
    let threads = threads_arg(threads)?;
    let n = usize::try_from(count).map_err(|_| PyValueError::new_err("count is too large"))?;
    let pool = crate::pool::pool(threads).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let mut puzzle = vec![0u8; n * Grid::CELLS];
    let mut solution = vec![0u8; n * Grid::CELLS];
    let mut givens = vec![0u8; n];
    let failed: Mutex<Option<GenerateError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    let work = || {
        let stopped = || stop.load(Ordering::Relaxed);
        pool.install(|| {
            puzzle
                .par_chunks_mut(GENERATE_CHUNK * Grid::CELLS)
                .zip(solution.par_chunks_mut(GENERATE_CHUNK * Grid::CELLS))
                .zip(givens.par_chunks_mut(GENERATE_CHUNK))
                .enumerate()
                .for_each_init(Solver::new, |solver, (c, ((puzzle, solution), givens))| {
                    for (j, given) in givens.iter_mut().enumerate() {
                        if stopped() {
                            return;
                        }
                        let index = first + (c * GENERATE_CHUNK + j) as u64;
                        match generator.puzzle(index, solver, stopped) {
                            Ok(g) => {
                                put_grid(puzzle, j, Some(&g.puzzle));
                                put_grid(solution, j, Some(&g.solution));
                                *given = g.puzzle.given_count() as u8;
                            }
                            Err(GenerateError::Stopped) => return,
                            Err(e) => {
                                stop.store(true, Ordering::Relaxed);
                                *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                                return;
                            }
                        }
                    }
                })
        })
    };
    interruptible(py, &stop, work)?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(PyRuntimeError::new_err(format!("generate: {e}")));
    }
    let dict = PyDict::new(py);
    let index: Vec<u64> = (start..start + count).collect();
    dict.set_item("index", PyArray1::from_vec(py, index))?;
    dict.set_item("givens", PyArray1::from_vec(py, givens))?;
    dict.set_item(
        "puzzle",
        PyArray1::from_vec(py, puzzle).reshape([n, Grid::CELLS])?,
    )?;
    dict.set_item(
        "solution",
        PyArray1::from_vec(py, solution).reshape([n, Grid::CELLS])?,
    )?;
    Ok(dict)
}

/// One pass's columns over every puzzle of an input: status, the puzzle
/// and canonical grids, and a number taken from the row (`dropped` or
/// the training line; -1 when the row has none), with the invalid rows'
/// messages.
struct PassColumns {
    status: Vec<u8>,
    puzzle: Vec<u8>,
    canonical: Vec<u8>,
    number: Vec<i64>,
    errors: Vec<(usize, String)>,
}

/// Runs `job` over every puzzle of `view`, keeping [`PassColumns`]'s columns;
/// `number(row)` is the row's number column.
fn run_pass<J: batchdoku_batch::Job>(
    py: Python<'_>,
    job: &J,
    view: &crate::input::PuzzleView<'_>,
    threads: usize,
    number: impl Fn(&Row) -> Option<u64> + Sync,
) -> PyResult<PassColumns> {
    let n = view.len();
    let mut status = vec![0u8; n];
    let mut puzzle = vec![NO_GRID; n * Grid::CELLS];
    let mut canonical = vec![NO_GRID; n * Grid::CELLS];
    let mut numbers = vec![-1i64; n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(puzzle.par_chunks_mut(CHUNK * Grid::CELLS))
        .zip(canonical.par_chunks_mut(CHUNK * Grid::CELLS))
        .zip(numbers.par_chunks_mut(CHUNK));
    let errors = run_job(py, job, view, threads, parts, |part, j, row: &Row, _| {
        let (((status, puzzle), canonical), numbers) = part;
        status[j] = row.status.ordinal() as u8;
        put_grid(puzzle, j, row.puzzle.as_ref());
        put_grid(canonical, j, row.canonical.as_ref());
        numbers[j] = number(row).map_or(-1, |v| v as i64);
    })?;
    Ok(PassColumns {
        status,
        puzzle,
        canonical,
        number: numbers,
        errors,
    })
}

/// The rows `rows` names (each its split, its position and its pass), as columns: `row` (0-based),
/// `puzzle`, `status`, `canonical`, the number column named `number_name`
/// (with `to_number` applied) and `error`; `split` is added when given.
fn kept_rows<'py>(
    py: Python<'py>,
    rows: &[(Split, usize, &PassColumns)],
    number_name: &str,
    to_number: impl Fn(i64) -> i64,
    with_split: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let k = rows.len();
    let mut status = Vec::with_capacity(k);
    let mut puzzle = Vec::with_capacity(k * Grid::CELLS);
    let mut canonical = Vec::with_capacity(k * Grid::CELLS);
    let mut number = Vec::with_capacity(k);
    let mut missing = Vec::with_capacity(k);
    let mut row_of = Vec::with_capacity(k);
    let mut errors = Vec::new();
    for (at, &(_, i, pass)) in rows.iter().enumerate() {
        status.push(pass.status[i]);
        puzzle.extend_from_slice(&pass.puzzle[i * Grid::CELLS..(i + 1) * Grid::CELLS]);
        canonical.extend_from_slice(&pass.canonical[i * Grid::CELLS..(i + 1) * Grid::CELLS]);
        // -1: the row has no such number (the CLI's empty field).
        missing.push(pass.number[i] < 0);
        number.push(to_number(pass.number[i]));
        row_of.push(i as u64);
        if let Ok(e) = pass.errors.binary_search_by_key(&i, |&(r, _)| r) {
            errors.push((at, pass.errors[e].1.clone()));
        }
    }
    let dict = common_columns(py, status, "canonical", canonical, errors)?;
    if with_split {
        let split = PyList::new(py, rows.iter().map(|(s, _, _)| s.as_str()))?;
        dict.set_item("split", split)?;
    }
    dict.set_item("row", PyArray1::from_vec(py, row_of))?;
    dict.set_item(
        "puzzle",
        PyArray1::from_vec(py, puzzle).reshape([k, Grid::CELLS])?,
    )?;
    dict.set_item(number_name, crate::masked(py, number, missing)?)?;
    Ok(dict)
}

/// Keep the first puzzle of each equivalence class, in input order: the rows the CLI's
/// ``batchdoku dedupe`` writes.
///
/// Two puzzles are equivalent when they have the same canonical form (see :func:`canon`); with
/// ``exact=True`` (``--exact``) only identical puzzles are. Invalid puzzles are never merged: each
/// keeps its row, in place. Returns, one entry per kept row, ``row`` (uint64, its 0-based position
/// in ``puzzles``: the CLI's ``index`` minus 1), ``puzzle`` (uint8, (k, 81), a :data:`NO_GRID` row
/// for a malformed one), ``status`` (``Status.OK`` or ``Status.INVALID``), ``canonical`` (uint8,
/// (k, 81), a :data:`NO_GRID` row when invalid; no such entry with ``exact=True``, as the CLI's
/// ``dedupe --exact`` has no such column), ``dropped`` (int64, a masked array: the copies left
/// out; masked, missing, for an invalid row) and ``error``.
#[pyfunction]
#[pyo3(signature = (puzzles, exact = false, threads = None))]
pub fn dedupe<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    exact: bool,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let classes = ClassMap::new();
    let equivalence = if exact {
        Equivalence::Exact
    } else {
        Equivalence::Class
    };
    let job = |pass| DedupeJob {
        equivalence,
        pass,
        classes: &classes,
    };
    let no_number = |_: &Row| None;
    run_pass(py, &job(Pass::Count), &view, threads, no_number)?;
    let emitted = run_pass(py, &job(Pass::Emit), &view, threads, |row| row.dropped)?;
    let duplicate = Status::Duplicate.ordinal() as u8;
    let rows: Vec<_> = (0..view.len())
        .filter(|&i| emitted.status[i] != duplicate)
        .map(|i| (Split::Train, i, &emitted))
        .collect();
    let dict = kept_rows(py, &rows, "dropped", |d| d, false)?;
    if exact {
        // As the CLI's `dedupe --exact`, which computes no canonical form.
        dict.del_item("canonical")?;
    }
    Ok(dict)
}

/// Find the test puzzles equivalent to a training puzzle (train/test leaks): the rows the CLI's
/// ``batchdoku overlap train test`` writes.
///
/// One row per leaking test puzzle and per invalid puzzle of either input, training rows first,
/// each in input order. Returns ``split`` (a list of ``"train"`` or ``"test"``), ``row`` (uint64,
/// the 0-based position within that input: the CLI's ``index`` minus 1), ``puzzle`` (uint8,
/// (k, 81)), ``status`` (``Status.LEAK`` or ``Status.INVALID``), ``train_row`` (int64, a masked array: the
/// 0-based position of the first equivalent training puzzle, masked (missing) for an invalid row: the CLI's
/// ``train_line`` minus 1 for a file of one puzzle per line), ``canonical`` (uint8, (k, 81)) and
/// ``error``. ``by`` is ``--by``: ``"puzzle"`` (equivalent puzzles) or ``"grid"`` (puzzles whose
/// unique solution grids are equivalent).
#[pyfunction]
#[pyo3(signature = (train, test, threads = None, by = "puzzle"))]
pub fn overlap<'py>(
    py: Python<'py>,
    train: &Bound<'py, PyAny>,
    test: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    by: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let by: ClassBy = by.parse().map_err(PyValueError::new_err)?;
    let threads = threads_arg(threads)?;
    let train = Puzzles::extract(train)?;
    let test = Puzzles::extract(test)?;
    let (train, test) = (train.view()?, test.view()?);
    let classes = ClassMap::new();
    let job = |split| OverlapJob {
        split,
        classes: &classes,
        by,
    };
    let trained = run_pass(py, &job(Split::Train), &train, threads, |_| None)?;
    let tested = run_pass(py, &job(Split::Test), &test, threads, |row| row.train_line)?;
    let (leak, invalid) = (
        Status::Leak.ordinal() as u8,
        Status::Invalid.ordinal() as u8,
    );
    let mut rows = Vec::new();
    for (split, pass) in [(Split::Train, &trained), (Split::Test, &tested)] {
        rows.extend(
            (0..pass.status.len())
                .filter(|&i| pass.status[i] == leak || pass.status[i] == invalid)
                .map(|i| (split, i, pass)),
        );
    }
    // Training lines are 1-based rows here: the row is one less.
    kept_rows(
        py,
        &rows,
        "train_row",
        |line| if line > 0 { line - 1 } else { -1 },
        true,
    )
}
