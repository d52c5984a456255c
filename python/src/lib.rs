//! Python bindings: `batchdoku.solve`, `score`, `canon` and `read` (and,
//! in `corpus.rs`, `generate`, `dedupe` and `overlap`; `split` in
//! `split.rs`; `report` in `report.rs`) over NumPy arrays
//! and Arrow arrays (`arrow.rs`). Each call runs a library job (`batchdoku_batch`, or the
//! canonical-form job over `batchdoku_core::canon`) through the library's
//! per-record step, with the GIL released (see `run.rs`), on a rayon pool
//! built once per thread count for the process (see `pool.rs`). No second
//! copy of any solver lives here: this crate only converts arrays.

mod arrow;
mod corpus;
mod input;
mod pool;
mod report;
mod run;
mod split;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use batchdoku_batch::plumbing::Range;
use batchdoku_batch::{
    self as pipeline, CanonJob, EngineKind, RateJob, Row, ScoreJob, SolveJob, Status,
};
use batchdoku_core::{
    Grid, InputFormat, ReadOptions, Record, ScoreOptions, Transform, Weights, WeightsError,
};
use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};
use rayon::prelude::*;

use input::{Puzzles, NO_GRID};
use run::{run_job, thread_count, CHUNK};

/// Writes puzzle `j`'s grid into a part's `(len, 81)` cells, which start
/// as [`NO_GRID`] rows so a puzzle without a grid keeps that marker.
pub(crate) fn put_grid(cells: &mut [u8], j: usize, grid: Option<&Grid>) {
    if let Some(g) = grid {
        cells[j * Grid::CELLS..(j + 1) * Grid::CELLS].copy_from_slice(g.cells());
    }
}

/// An integer argument checked against its CLI flag's range (the
/// library's [`Range`], the same check and message as the flag's):
/// `ValueError` when out of range, `TypeError` when not an integer.
pub(crate) fn ranged(value: &Bound<'_, PyAny>, name: &str, range: Range) -> PyResult<u64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, got {}",
            value.get_type().name()?
        )));
    }
    range
        .parse(&value.str()?.to_cow()?)
        .map_err(|why| PyValueError::new_err(format!("{name} {why}")))
}

/// A count argument that must be at least 1 (as `-k`, `--node-limit`,
/// `--limit`): see [`ranged`].
pub(crate) fn at_least_one(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    ranged(value, name, Range::AT_LEAST_ONE)
}

/// The `threads` argument: every core when `None`; 1 to 1024 (the CLI's
/// `-j`) otherwise.
pub(crate) fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let threads = threads
        .map(|t| ranged(t, "threads", Range::THREADS))
        .transpose()?
        .map(|t| t as usize);
    thread_count(threads)
}

/// The `weights` argument, as the CLI's `--weights`: `"target"`, a path to
/// a weights file (81 integers), or 81 integers as a `(9, 9)` or `(81,)`
/// array or a sequence.
pub(crate) fn weights_arg(weights: Option<&Bound<'_, PyAny>>) -> PyResult<Weights> {
    let Some(w) = weights else {
        return Ok(Weights::target());
    };
    if w.is_instance_of::<PyString>() || w.hasattr("__fspath__")? {
        // `target` or a path, read by the library as `--weights` reads it.
        let path: PathBuf = w.extract()?;
        let spec = path.to_str().ok_or_else(|| {
            PyValueError::new_err(format!("{}: the path is not valid UTF-8", path.display()))
        })?;
        return Weights::from_spec(spec).map_err(|e| match e {
            WeightsError::Io {
                kind: std::io::ErrorKind::NotFound,
            } => PyFileNotFoundError::new_err(format!("{spec}: {e}")),
            WeightsError::Io { .. } => PyOSError::new_err(format!("{spec}: {e}")),
            _ => PyValueError::new_err(format!("{spec}: {e}")),
        });
    }
    let bad = || {
        PyTypeError::new_err(
            "weights must be 'target', a weights file path, or 81 integers ((9, 9) or (81,) array)",
        )
    };
    let values: Vec<i64> = if w.cast::<PyUntypedArray>().is_ok() {
        let kind = w.cast::<PyUntypedArray>()?.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(bad());
        }
        let shape = w.cast::<PyUntypedArray>()?.shape().to_vec();
        if shape != [Grid::CELLS] && shape != [9, 9] {
            return Err(PyValueError::new_err(format!(
                "weights: expected shape (9, 9) or (81,), got {shape:?}"
            )));
        }
        w.call_method0("ravel")?.call_method0("tolist")?.extract()?
    } else {
        w.extract().map_err(|_| bad())?
    };
    if values.len() != Grid::CELLS {
        return Err(PyValueError::new_err(format!(
            "weights: expected 81 integers, got {}",
            values.len()
        )));
    }
    let mut cells = [0i32; Grid::CELLS];
    for (c, &v) in cells.iter_mut().zip(&values) {
        *c = i32::try_from(v).map_err(|_| {
            PyValueError::new_err(format!(
                "weights: {v} is out of range (must fit in 32 bits)"
            ))
        })?;
    }
    Ok(Weights::new(cells))
}

/// The `OSError` of an I/O error on `path`: built from its errno when it
/// has one, so Python picks the subclass (`FileNotFoundError`,
/// `PermissionError`, `IsADirectoryError`) and sets `filename`.
fn os_error(path: &str, e: &std::io::Error) -> PyErr {
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, e.to_string(), path.to_owned())),
        None if e.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(format!("{path}: {e}"))
        }
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}

/// The Python exception for a file that cannot be read as asked:
/// `IsADirectoryError`, `ValueError` when the options do not fit it (no
/// such column), else the `OSError` of its errno.
pub(crate) fn file_error(path: &str, e: &std::io::Error) -> PyErr {
    if std::path::Path::new(path).is_dir() {
        PyIsADirectoryError::new_err(format!("{path}: {e}"))
    } else if e.kind() == std::io::ErrorKind::InvalidInput {
        PyValueError::new_err(format!("{path}: {e}"))
    } else {
        os_error(path, e)
    }
}

/// The columns every function returns: `status`, a `(n, 81)` grid column
/// named `cells_name`, and `error` (`None` or a message per puzzle).
pub(crate) fn common_columns<'py>(
    py: Python<'py>,
    status: Vec<u8>,
    cells_name: &str,
    cells: Vec<u8>,
    errors: Vec<(usize, String)>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = status.len();
    let dict = PyDict::new(py);
    dict.set_item("status", PyArray1::from_vec(py, status))?;
    dict.set_item(
        cells_name,
        PyArray1::from_vec(py, cells).reshape([n, Grid::CELLS])?,
    )?;
    let error = PyList::new(py, (0..n).map(|_| py.None()))?;
    for (i, msg) in errors {
        error.set_item(i, msg)?;
    }
    dict.set_item("error", error)?;
    Ok(dict)
}

/// A number column with missing values: a NumPy masked array whose mask
/// is true where the CLI leaves the field empty (null in its Parquet), over
/// `values` (which hold the old sentinel there, for ``.filled()``).
pub(crate) fn masked<'py, T: numpy::Element>(
    py: Python<'py>,
    values: Vec<T>,
    missing: Vec<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy.ma")?.getattr("MaskedArray")?.call1((
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, missing),
    ))
}

// The doc comments of the functions below are their Python docstrings
// (reStructuredText, as the package's); their types are in
// batchdoku/_batchdoku.pyi, and `text_signature` is the signature Python
// shows (and stubtest checks against the stub) where a default is given in
// Rust as `None`.

/// Solve every puzzle, or count its solutions up to ``count_limit`` (2 = uniqueness check).
///
/// Returns a dict with ``status`` (uint8, see :class:`Status`), ``solutions`` (uint64, at most
/// ``count_limit``), ``solution`` (uint8, shape (n, 81), a :data:`NO_GRID` row when none),
/// ``guesses`` (uint64, branch points of the search) and ``error`` (a list: ``None`` or a
/// message). ``threads`` defaults to all cores; ``solver`` is ``"mrv"`` (bitmask) or ``"dlx"``
/// (dancing links).
#[pyfunction]
#[pyo3(
    signature = (puzzles, count_limit = None, threads = None, solver = "mrv"),
    text_signature = "(puzzles, count_limit=1, threads=None, solver='mrv')"
)]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    count_limit: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    solver: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let count_limit = count_limit
        .map(|k| at_least_one(k, "count_limit"))
        .transpose()?
        .unwrap_or(1);
    let engine: EngineKind = solver.parse().map_err(PyValueError::new_err)?;
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let n = view.len();
    let job = SolveJob {
        count_limit,
        engine,
        difficulty: false,
    };
    let mut status = vec![0u8; n];
    let mut solution = vec![NO_GRID; n * Grid::CELLS];
    let mut solutions = vec![0u64; n];
    let mut guesses = vec![0u64; n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(solution.par_chunks_mut(CHUNK * Grid::CELLS))
        .zip(solutions.par_chunks_mut(CHUNK))
        .zip(guesses.par_chunks_mut(CHUNK));
    let errors = run_job(py, &job, &view, threads, parts, |part, j, row: &Row, _| {
        let (((status, solution), solutions), guesses) = part;
        status[j] = row.status.ordinal() as u8;
        put_grid(solution, j, row.solution.as_ref());
        solutions[j] = row.solutions;
        guesses[j] = row.guesses;
    })?;
    let dict = common_columns(py, status, "solution", solution, errors)?;
    dict.set_item("solutions", PyArray1::from_vec(py, solutions))?;
    dict.set_item("guesses", PyArray1::from_vec(py, guesses))?;
    Ok(dict)
}

/// Best ``sum(weight * digit)`` over all solutions of every puzzle (branch-and-bound).
///
/// ``weights`` is what the CLI's ``--weights`` takes: ``"target"`` (NOIP 2009: 6 on the outer
/// ring up to 10 in the centre), or the path of a weights file (81 integers, whitespace or
/// commas), or 81 integers as a ``(9, 9)`` or ``(81,)`` integer array or a sequence (negative
/// allowed). Returns ``status``, ``score`` (int64, a masked array: -1 when there is no solution,
/// as the CLI writes; masked (missing, the CLI's empty field) when the puzzle is invalid or none
/// was found before the limit), ``solution`` (uint8, (n, 81)), ``nodes`` (uint64), ``error``, and with ``count=True``
/// also ``solutions`` (uint64, a masked array: full enumeration, no pruning, slower; masked for a
/// ``Status.LIMIT`` row, whose count was cut short).
/// ``node_limit`` stops a puzzle's search early with status ``Status.LIMIT``.
#[pyfunction]
#[pyo3(
    signature = (puzzles, weights = None, node_limit = None, threads = None, count = false),
    text_signature = "(puzzles, weights='target', node_limit=None, threads=None, count=False)"
)]
fn score<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    weights: Option<&Bound<'py, PyAny>>,
    node_limit: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    count: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let weights = weights_arg(weights)?;
    let node_limit = node_limit
        .map(|k| at_least_one(k, "node_limit"))
        .transpose()?;
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let n = view.len();
    let job = ScoreJob {
        weights,
        options: ScoreOptions {
            node_limit,
            count_solutions: count,
            prune: true,
        },
    };
    let mut status = vec![0u8; n];
    let mut solution = vec![NO_GRID; n * Grid::CELLS];
    let mut scores = vec![(0i64, true); n];
    let mut nodes = vec![0u64; n];
    let mut solutions = vec![(0u64, true); n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(solution.par_chunks_mut(CHUNK * Grid::CELLS))
        .zip(scores.par_chunks_mut(CHUNK))
        .zip(nodes.par_chunks_mut(CHUNK))
        .zip(solutions.par_chunks_mut(CHUNK));
    let errors = run_job(py, &job, &view, threads, parts, |part, j, row: &Row, _| {
        let ((((status, solution), scores), nodes), solutions) = part;
        status[j] = row.status.ordinal() as u8;
        put_grid(solution, j, row.solution.as_ref());
        // Missing where the CLI writes nothing: the same Row accessors.
        scores[j] = row.score.map_or((-1, true), |s| (s, false));
        nodes[j] = row.nodes;
        solutions[j] = row.solutions_known().map_or((0, true), |s| (s, false));
    })?;
    let dict = common_columns(py, status, "solution", solution, errors)?;
    let (scores, missing) = scores.into_iter().unzip();
    dict.set_item("score", masked(py, scores, missing)?)?;
    dict.set_item("nodes", PyArray1::from_vec(py, nodes))?;
    if count {
        let (solutions, missing) = solutions.into_iter().unzip();
        dict.set_item("solutions", masked(py, solutions, missing)?)?;
    }
    Ok(dict)
}

/// Human difficulty of every puzzle: Sudoku Explainer's ratings, as the CLI's ``rate``.
///
/// Returns ``status`` (uint8: ``Status.RATED`` for a puzzle with one solution that was rated,
/// ``Status.LIMIT`` when its rating needed more work than ``limit`` allows, ``Status.MULTIPLE``,
/// ``Status.UNSOLVABLE`` or ``Status.INVALID`` as :func:`solve` with ``count_limit=2`` says),
/// ``er``, ``ep`` and ``ed`` (float64, one decimal; NaN, missing, when not rated), ``hardest`` (a
/// list: the technique that set ER, or ``None``: not rated, or a complete grid that needs none), ``steps`` (int64, a masked array: steps of the
/// solution path; masked, missing, when not rated), ``techniques`` (a list: the CLI's text, ``"hidden single:54;pointing:3"``, or
/// ``None`` where the CLI writes nothing: not rated, or no step) and ``error``. With ``invariant=N`` (N > 0) also ``mean_guesses`` and
/// ``mean_backtracks`` (float64; NaN, missing, for an invalid puzzle): the search's guesses and dead ends
/// averaged over N random equivalents of each puzzle drawn from ``seed`` (the CLI's ``rate
/// --invariant N --seed S``). ``limit`` is the work budget per puzzle (the CLI's ``--limit``).
/// With ``path=True`` also ``path`` (the CLI's ``rate --path``): for each puzzle its solution path, a
/// list of steps in order (as many as ``steps``), each a dict ``{"technique", "rating", "placements",
/// "eliminations", "text"}`` (the rating a float with one decimal, the moves lists of strings such as
/// ``"r4c6=7"`` and ``"r5c4<>3"``), or ``None`` when the puzzle is not rated; :func:`path_steps` makes
/// a DataFrame of it, one row per step. ``max_er``, ``min_ed`` and ``min_ep`` (ratings with one decimal,
/// the CLI's ``--max-er``, ``--min-ed``, ``--min-ep``) stop a puzzle's rating as soon as it is known to
/// fall outside them: ``Status.ABOVE`` or ``Status.BELOW``, with no rating.
#[pyfunction]
#[pyo3(
    signature = (puzzles, limit = None, invariant = None, seed = None, threads = None, path = false,
                 max_er = None, min_ed = None, min_ep = None),
    text_signature = "(puzzles, limit=None, invariant=0, seed=0, threads=None, path=False, max_er=None, min_ed=None, min_ep=None)"
)]
#[allow(clippy::too_many_arguments)]
fn rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: Option<&Bound<'py, PyAny>>,
    invariant: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    path: bool,
    max_er: Option<f64>,
    min_ed: Option<f64>,
    min_ep: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    RateJob::available()
        .map_err(|why| pyo3::exceptions::PyRuntimeError::new_err(format!("rate: {why}")))?;
    // The CLI's ranges for --limit, --invariant and --seed.
    let limit = limit
        .map(|k| at_least_one(k, "limit"))
        .transpose()?
        .unwrap_or(RateJob::DEFAULT_LIMIT);
    let invariant = invariant
        .map(|k| ranged(k, "invariant", Range::INVARIANT))
        .transpose()?
        .map_or(0, |k| k as u32);
    let seed = seed
        .map(|s| ranged(s, "seed", Range::ANY))
        .transpose()?
        .unwrap_or(0);
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let n = view.len();
    let job = RateJob {
        limit,
        invariant,
        seed,
        path,
        max_er: max_er.map(|x| rating_arg(x, "max_er")).transpose()?,
        min_ed: min_ed.map(|x| rating_arg(x, "min_ed")).transpose()?,
        min_ep: min_ep.map(|x| rating_arg(x, "min_ep")).transpose()?,
    };
    let mut status = vec![0u8; n];
    let mut tenths = vec![[u8::MAX; 3]; n];
    let mut steps = vec![-1i64; n];
    let mut means = vec![(f64::NAN, f64::NAN); n];
    let mut named: Vec<Option<(Option<&'static str>, String)>> = vec![None; n];
    // Filled only with `path` (a row has a path only then).
    let mut paths: Vec<Option<Vec<PathStepOut>>> = vec![None; n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(tenths.par_chunks_mut(CHUNK))
        .zip(steps.par_chunks_mut(CHUNK))
        .zip(means.par_chunks_mut(CHUNK))
        .zip(named.par_chunks_mut(CHUNK))
        .zip(paths.par_chunks_mut(CHUNK));
    let errors = run_job(py, &job, &view, threads, parts, |part, j, row: &Row, _| {
        let (((((status, tenths), steps), means), named), paths) = part;
        if row.path.is_present() {
            paths[j] = Some(row.path.steps().map(PathStepOut::of).collect());
        }
        status[j] = row.status.ordinal() as u8;
        if let Some(r) = &row.ratings {
            tenths[j] = [r.er, r.ep, r.ed];
            steps[j] = i64::from(r.steps);
            let techniques: Vec<String> = r
                .techniques()
                .map(|(name, count)| format!("{name}:{count}"))
                .collect();
            named[j] = Some((r.hardest(), techniques.join(";")));
        }
        if let Some(m) = row.invariant {
            means[j] = m;
        }
    })?;
    let rating = |k: usize| -> Vec<f64> {
        tenths
            .iter()
            .map(|t| match t[k] {
                u8::MAX => f64::NAN,
                v => f64::from(v) / 10.0,
            })
            .collect()
    };
    let (er, ep, ed) = (rating(0), rating(1), rating(2));
    let dict = PyDict::new(py);
    dict.set_item("status", PyArray1::from_vec(py, status))?;
    dict.set_item("er", PyArray1::from_vec(py, er))?;
    dict.set_item("ep", PyArray1::from_vec(py, ep))?;
    dict.set_item("ed", PyArray1::from_vec(py, ed))?;
    let hardest = PyList::new(py, named.iter().map(|h| h.as_ref().and_then(|h| h.0)))?;
    let techniques = PyList::new(
        py,
        named
            .iter()
            .map(|h| h.as_ref().filter(|h| !h.1.is_empty()).map(|h| h.1.as_str())),
    )?;
    dict.set_item("hardest", hardest)?;
    let missing = steps.iter().map(|&s| s < 0).collect();
    dict.set_item("steps", masked(py, steps, missing)?)?;
    dict.set_item("techniques", techniques)?;
    if invariant > 0 {
        let guesses: Vec<f64> = means.iter().map(|m| m.0).collect();
        let backtracks: Vec<f64> = means.iter().map(|m| m.1).collect();
        dict.set_item("mean_guesses", PyArray1::from_vec(py, guesses))?;
        dict.set_item("mean_backtracks", PyArray1::from_vec(py, backtracks))?;
    }
    let error = PyList::new(py, (0..n).map(|_| py.None()))?;
    for (i, msg) in errors {
        error.set_item(i, msg)?;
    }
    dict.set_item("error", error)?;
    if path {
        let list = PyList::empty(py);
        for steps in &paths {
            match steps {
                None => list.append(py.None())?,
                Some(steps) => {
                    let steps = steps
                        .iter()
                        .map(|s| s.to_dict(py))
                        .collect::<PyResult<Vec<_>>>()?;
                    list.append(PyList::new(py, steps)?)?;
                }
            }
        }
        dict.set_item("path", list)?;
    }
    Ok(dict)
}

/// A rating argument (`max_er=7.0`) in tenths, as the CLI reads `--max-er`.
fn rating_arg(value: f64, name: &str) -> PyResult<u8> {
    let scaled = (value * 10.0).round();
    if !(0.0..=255.0).contains(&scaled) || (value * 10.0 - scaled).abs() > 1e-6 {
        return Err(PyValueError::new_err(format!(
            "{name} must be a rating from 0.0 to 25.5 with one decimal, got {value}"
        )));
    }
    Ok(scaled as u8)
}

/// One step of a path, taken from the row while the GIL is released and
/// made a dict after.
#[derive(Clone, Debug)]
struct PathStepOut {
    technique: &'static str,
    rating: u8,
    placements: Vec<batchdoku_batch::Move>,
    eliminations: Vec<batchdoku_batch::Move>,
    text: String,
}

impl PathStepOut {
    fn of(step: batchdoku_batch::PathStep<'_>) -> PathStepOut {
        PathStepOut {
            technique: step.technique(),
            rating: step.rating(),
            placements: step.placements().collect(),
            eliminations: step.eliminations().collect(),
            text: step.text(),
        }
    }

    /// `{"technique", "rating", "placements", "eliminations", "text"}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("technique", self.technique)?;
        dict.set_item("rating", f64::from(self.rating) / 10.0)?;
        let moves = |list: &[batchdoku_batch::Move]| {
            PyList::new(py, list.iter().map(batchdoku_batch::Move::as_str))
        };
        dict.set_item("placements", moves(&self.placements)?)?;
        dict.set_item("eliminations", moves(&self.eliminations)?)?;
        dict.set_item("text", &self.text)?;
        Ok(dict)
    }
}

/// Exact canonical ("minlex") form of every puzzle, to find equivalent copies (deduplication,
/// leak checks).
///
/// Two puzzles are equivalent when one becomes the other by permuting the bands, the rows inside
/// a band, the stacks, the columns inside a stack, transposing, and relabelling the digits. The
/// canonical form is the lexicographically smallest 81-digit string (blanks as 0, so blanks sort
/// first) over all of them: equivalent puzzles have equal canonical forms, and only they do.
/// Exact for every puzzle (several solutions, none, complete grids), computed by the library's
/// pruned search, never a heuristic.
///
/// Returns ``status`` (uint8: ``Status.OK`` when canonicalised (as the CLI's ``canon``),
/// ``Status.INVALID`` for a malformed puzzle, a :data:`NO_GRID` row or contradictory givens, as
/// in :func:`solve`), ``canonical`` (uint8, (n, 81): the form of the givens even when they
/// contradict each other, as the CLI writes it; a :data:`NO_GRID` row for a malformed puzzle),
/// ``transform`` and ``error`` (lists: ``None`` or a string per puzzle). ``transform[i]`` maps
/// puzzle ``i`` to its canonical form, in the library's text form (``batchdoku_core::Transform``):
/// ``"T;rows=...;cols=...;digits=..."``, where the first field is ``T`` (transpose first) or
/// ``N``, ``rows``/``cols`` give the source row/column (of the possibly transposed grid) of
/// output row/column 0..8, and ``digits`` the new label of digits 1..9; so ``canonical[r][c]``
/// is the new label of ``src[rows[r]][cols[c]]``, and blanks stay blank.
#[pyfunction]
#[pyo3(signature = (puzzles, threads = None))]
fn canon<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let puzzles = Puzzles::extract(puzzles)?;
    let view = puzzles.view()?;
    let n = view.len();
    let mut status = vec![0u8; n];
    let mut canonical = vec![NO_GRID; n * Grid::CELLS];
    let mut transforms = vec![Transform::identity(); n];
    let parts = status
        .par_chunks_mut(CHUNK)
        .zip(canonical.par_chunks_mut(CHUNK * Grid::CELLS))
        .zip(transforms.par_chunks_mut(CHUNK));
    let errors = run_job(py, &CanonJob, &view, threads, parts, |part, j, row, _| {
        let ((status, canonical), transforms) = part;
        status[j] = row.status.ordinal() as u8;
        // As the CLI's: contradictory givens have a canonical form (but no
        // transform); a malformed puzzle has neither.
        put_grid(canonical, j, row.canonical.as_ref());
        if let Some(t) = row.transform {
            transforms[j] = t;
        }
    })?;
    let invalid = Status::Invalid.ordinal() as u8;
    let transform = PyList::new(
        py,
        status.iter().zip(&transforms).map(|(&s, t)| {
            if s == invalid {
                py.None()
            } else {
                PyString::new(py, &t.to_string()).into_any().unbind()
            }
        }),
    )?;
    let dict = common_columns(py, status, "canonical", canonical, errors)?;
    dict.set_item("transform", transform)?;
    Ok(dict)
}

/// Read a puzzle file in any format the CLI reads (line, csv, block, luogu, poj; .gz/.zst too).
///
/// ``path`` is a ``str`` or ``os.PathLike``. ``input_format`` and ``column`` are the CLI's
/// ``--input-format`` and ``--column`` (the puzzle column of a CSV file, by its header name,
/// case-insensitive; it implies CSV). Returns ``puzzles`` (uint8, (n, 81), a :data:`NO_GRID`
/// row for each malformed record, so it stays invalid when passed on), ``line`` (uint64, the
/// 1-based line where each record starts), ``valid`` (bool), ``error`` (list of ``None`` or
/// message) and, for CSV files with a solution column, ``expected_solution`` (uint8, (n, 81):
/// that column's grids, a :data:`NO_GRID` row when a cell is empty or malformed). Raises
/// ``FileNotFoundError`` (or another ``OSError``) when the file cannot be read, ``ValueError``
/// when the options do not fit it (no such column).
#[pyfunction]
#[pyo3(signature = (path, input_format = "auto", column = None))]
fn read<'py>(
    py: Python<'py>,
    path: PathBuf,
    input_format: &str,
    column: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let path = path.to_str().ok_or_else(|| {
        PyValueError::new_err(format!("{}: the path is not valid UTF-8", path.display()))
    })?;
    let format: InputFormat = input_format.parse().map_err(PyValueError::new_err)?;
    let stop = AtomicBool::new(false);
    let result: std::io::Result<_> = run::interruptible(py, &stop, || {
        let options = ReadOptions {
            format,
            column,
            ..Default::default()
        };
        let mut input = pipeline::plumbing::Input::open(path, &options, Default::default())?;
        let has_expected = input.has_expected();
        let mut rec = Record::default();
        let (mut cells, mut lines, mut expected, mut errors) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut i = 0;
        while !stop.load(Ordering::Relaxed) && input.read_record(&mut rec)? {
            match &rec.puzzle {
                Ok(g) => cells.extend_from_slice(g.cells()),
                Err(e) => {
                    // Marked, so the row stays invalid wherever it goes.
                    cells.extend_from_slice(&[NO_GRID; Grid::CELLS]);
                    errors.push((i, format!("row {i} (0-based): {path}:{}: {e}", rec.line)));
                }
            }
            if has_expected {
                match &rec.expected {
                    Some(Ok(g)) => expected.extend_from_slice(g.cells()),
                    _ => expected.extend_from_slice(&[NO_GRID; Grid::CELLS]),
                }
            }
            lines.push(rec.line);
            i += 1;
        }
        Ok((cells, lines, has_expected.then_some(expected), errors))
    })?;
    let (cells, lines, expected, errors) = result.map_err(|e| file_error(path, &e))?;
    let n = lines.len();
    let dict = PyDict::new(py);
    let mut valid = vec![true; n];
    let error = PyList::new(py, (0..n).map(|_| py.None()))?;
    for (i, msg) in errors {
        valid[i] = false;
        error.set_item(i, msg)?;
    }
    dict.set_item(
        "puzzles",
        PyArray1::from_vec(py, cells).reshape([n, Grid::CELLS])?,
    )?;
    dict.set_item("line", PyArray1::from_vec(py, lines))?;
    dict.set_item("valid", PyArray1::from_vec(py, valid))?;
    dict.set_item("error", error)?;
    if let Some(expected) = expected {
        dict.set_item(
            "expected_solution",
            PyArray1::from_vec(py, expected).reshape([n, Grid::CELLS])?,
        )?;
    }
    Ok(dict)
}

/// The native module behind ``batchdoku``, which re-exports its functions and constants.
#[pymodule]
fn _batchdoku(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(corpus::generate, m)?)?;
    m.add_function(wrap_pyfunction!(corpus::dedupe, m)?)?;
    m.add_function(wrap_pyfunction!(corpus::overlap, m)?)?;
    m.add_function(wrap_pyfunction!(split::split, m)?)?;
    m.add_function(wrap_pyfunction!(report::report, m)?)?;
    m.add("STATUS_NAMES", Status::ALL.map(|s| s.as_str()).to_vec())?;
    m.add("NO_GRID", NO_GRID)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
