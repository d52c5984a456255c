//! Python bindings: `batchdoku.solve`, `score` and `read` over NumPy
//! arrays, running the library's own in-memory pipeline
//! (`batchdoku::pipeline::run_in_memory`, the same per-record code and
//! rayon pool set-up as the CLI) with the GIL released. No second copy of
//! any solver lives here: this file only converts arrays.

use batchdoku::grid::CELLS;
use batchdoku::jobs::{EngineKind, ScoreJob, SolveJob};
use batchdoku::output::Row;
use batchdoku::parse::{parse_line, InputFormat, ParseError, ParseErrorKind, Record};
use batchdoku::pipeline::{self, Job};
use batchdoku::score::{ScoreOptions, Weights};
use batchdoku::Grid;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// Puzzles per chunk handed to the pool (bounds the temporary rows).
const CHUNK: usize = 1 << 16;

type Puzzle = Result<Grid, ParseError>;

/// Converts `puzzles` (a uint8 array of shape (n, 81), 0 = blank, or a
/// sequence of 81-character strings) into parsed puzzles.
fn to_puzzles(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Puzzle>> {
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
        let view = view.as_array();
        return Ok(view
            .rows()
            .into_iter()
            .map(|row| {
                let mut cells = [0u8; CELLS];
                for (col, (c, &v)) in cells.iter_mut().zip(row.iter()).enumerate() {
                    if v > 9 {
                        return Err(ParseError::new(
                            ParseErrorKind::BadChar { byte: v },
                            col as u32 + 1,
                        ));
                    }
                    *c = v;
                }
                Ok(Grid::from_cells(cells).expect("values checked"))
            })
            .collect());
    }
    if obj.is_instance_of::<PyString>() {
        return Err(PyValueError::new_err(
            "puzzles: expected a list of 81-character strings or a uint8 array, got one string",
        ));
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| {
        PyValueError::new_err(
            "puzzles: expected a list of 81-character strings or a uint8 array of shape (n, 81)",
        )
    })? {
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
        out.push(parse_line(s.to_cow()?.as_bytes()));
    }
    Ok(out)
}

fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs a job over every puzzle with the GIL released, chunk by chunk,
/// handing each finished row to `take`.
fn run_job<J: Job>(
    py: Python<'_>,
    job: &J,
    puzzles: &[Puzzle],
    threads: usize,
    mut take: impl FnMut(usize, &Row) + Send,
) -> PyResult<()> {
    py.detach(|| {
        for (c, chunk) in puzzles.chunks(CHUNK).enumerate() {
            let rows = pipeline::run_in_memory(job, chunk, threads, "puzzles")
                .map_err(|e| PyOSError::new_err(e.to_string()))?;
            for (i, row) in rows.iter().enumerate() {
                take(c * CHUNK + i, row);
            }
        }
        Ok(())
    })
}

/// Output columns shared by solve and score.
struct Common {
    status: Vec<u8>,
    solution: Vec<u8>,
    errors: Vec<(usize, String)>,
}

impl Common {
    fn new(n: usize) -> Common {
        Common {
            status: vec![0; n],
            solution: vec![0; n * CELLS],
            errors: Vec::new(),
        }
    }

    fn take(&mut self, i: usize, row: &Row) {
        self.status[i] = row.status.ordinal() as u8;
        if let Some(g) = &row.solution {
            self.solution[i * CELLS..(i + 1) * CELLS].copy_from_slice(g.cells());
        }
        if !row.error.is_empty() {
            // Rows name their place within a chunk ("puzzles:<n>: ..."); name
            // the 0-based position in the whole input instead.
            let msg = row
                .error
                .split_once(": ")
                .map_or(row.error.as_str(), |(_, m)| m);
            self.errors.push((i, format!("puzzle {i}: {msg}")));
        }
    }

    fn into_dict<'py>(self, py: Python<'py>, dict: &Bound<'py, PyDict>) -> PyResult<()> {
        let n = self.status.len();
        dict.set_item("status", PyArray1::from_vec(py, self.status))?;
        dict.set_item(
            "solution",
            PyArray1::from_vec(py, self.solution).reshape([n, CELLS])?,
        )?;
        let error = PyList::new(py, (0..n).map(|_| py.None()))?;
        for (i, msg) in self.errors {
            error.set_item(i, msg)?;
        }
        dict.set_item("error", error)?;
        Ok(())
    }
}

/// Solve puzzles: first solution (count_limit=1) or count up to a limit.
#[pyfunction]
#[pyo3(signature = (puzzles, count_limit = 1, threads = None, solver = "mrv"))]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    count_limit: u64,
    threads: Option<usize>,
    solver: &str,
) -> PyResult<Bound<'py, PyDict>> {
    if count_limit == 0 {
        return Err(PyValueError::new_err("count_limit must be at least 1"));
    }
    let engine = match solver {
        "mrv" => EngineKind::Mrv,
        "dlx" => EngineKind::Dlx,
        other => {
            return Err(PyValueError::new_err(format!(
                "solver must be 'mrv' or 'dlx', got {other:?}"
            )))
        }
    };
    let threads = thread_count(threads)?;
    let puzzles = to_puzzles(puzzles)?;
    let n = puzzles.len();
    let job = SolveJob {
        count_limit,
        engine,
        rate: false,
    };
    let mut common = Common::new(n);
    let mut solutions = vec![0u64; n];
    let mut guesses = vec![0u64; n];
    run_job(py, &job, &puzzles, threads, |i, row| {
        common.take(i, row);
        solutions[i] = row.solutions;
        guesses[i] = row.guesses;
    })?;
    let dict = PyDict::new(py);
    common.into_dict(py, &dict)?;
    dict.set_item("solutions", PyArray1::from_vec(py, solutions))?;
    dict.set_item("guesses", PyArray1::from_vec(py, guesses))?;
    Ok(dict)
}

/// Best score over all solutions of each puzzle (branch-and-bound).
#[pyfunction]
#[pyo3(signature = (puzzles, weights = None, node_limit = None, threads = None, count = false))]
fn score<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    weights: Option<&Bound<'py, PyAny>>,
    node_limit: Option<u64>,
    threads: Option<usize>,
    count: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let weights = match weights {
        None => Weights::target(),
        Some(w) if w.extract::<String>().is_ok_and(|s| s == "target") => Weights::target(),
        Some(w) => {
            let values: Vec<i64> = w.extract().map_err(|_| {
                PyValueError::new_err("weights must be 'target' or a sequence/array of 81 integers")
            })?;
            if values.len() != CELLS {
                return Err(PyValueError::new_err(format!(
                    "weights: expected 81 integers, got {}",
                    values.len()
                )));
            }
            let mut cells = [0i32; CELLS];
            for (c, &v) in cells.iter_mut().zip(&values) {
                *c = i32::try_from(v)
                    .map_err(|_| PyValueError::new_err(format!("weights: {v} is out of range")))?;
            }
            Weights::new(cells)
        }
    };
    if node_limit == Some(0) {
        return Err(PyValueError::new_err("node_limit must be at least 1"));
    }
    let threads = thread_count(threads)?;
    let puzzles = to_puzzles(puzzles)?;
    let n = puzzles.len();
    let job = ScoreJob {
        weights,
        options: ScoreOptions {
            node_limit,
            count_solutions: count,
            prune: true,
        },
    };
    let mut common = Common::new(n);
    let mut scores = vec![0i64; n];
    let mut nodes = vec![0u64; n];
    let mut solutions = vec![0u64; n];
    run_job(py, &job, &puzzles, threads, |i, row| {
        common.take(i, row);
        scores[i] = row.score.unwrap_or(-1);
        nodes[i] = row.nodes;
        solutions[i] = row.solutions;
    })?;
    let dict = PyDict::new(py);
    common.into_dict(py, &dict)?;
    dict.set_item("score", PyArray1::from_vec(py, scores))?;
    dict.set_item("nodes", PyArray1::from_vec(py, nodes))?;
    if count {
        dict.set_item("solutions", PyArray1::from_vec(py, solutions))?;
    }
    Ok(dict)
}

/// Reads every record of a file in any input format the CLI reads.
#[pyfunction]
#[pyo3(signature = (path, input_format = "auto"))]
fn read<'py>(py: Python<'py>, path: &str, input_format: &str) -> PyResult<Bound<'py, PyDict>> {
    let format: InputFormat = input_format.parse().map_err(PyValueError::new_err)?;
    let result: std::io::Result<_> = py.detach(|| {
        let options = batchdoku::parse::ReadOptions {
            format,
            ..Default::default()
        };
        let mut input = pipeline::open(path, &options, Default::default())?;
        let has_expected = input.records.has_expected();
        let mut rec = Record::default();
        let (mut cells, mut lines, mut expected, mut errors) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut i = 0;
        while input.records.read_record(&mut rec)? {
            match &rec.puzzle {
                Ok(g) => cells.extend_from_slice(g.cells()),
                Err(e) => {
                    cells.extend_from_slice(&[0; CELLS]);
                    errors.push((i, format!("{path}:{}: {e}", rec.line)));
                }
            }
            if has_expected {
                match &rec.expected {
                    Some(Ok(g)) => expected.extend_from_slice(g.cells()),
                    _ => expected.extend_from_slice(&[0; CELLS]),
                }
            }
            lines.push(rec.line);
            i += 1;
        }
        Ok((cells, lines, has_expected.then_some(expected), errors))
    });
    let (cells, lines, expected, errors) =
        result.map_err(|e| PyOSError::new_err(format!("{path}: {e}")))?;
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
        PyArray1::from_vec(py, cells).reshape([n, CELLS])?,
    )?;
    dict.set_item("line", PyArray1::from_vec(py, lines))?;
    dict.set_item("valid", PyArray1::from_vec(py, valid))?;
    dict.set_item("error", error)?;
    if let Some(expected) = expected {
        dict.set_item(
            "expected",
            PyArray1::from_vec(py, expected).reshape([n, CELLS])?,
        )?;
    }
    Ok(dict)
}

/// The native module behind `batchdoku`.
#[pymodule]
fn _batchdoku(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add(
        "STATUS_NAMES",
        batchdoku::output::Status::ALL.map(|s| s.as_str()).to_vec(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
