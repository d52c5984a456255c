//! Runs a library [`Job`] over every puzzle of one call: on the process's
//! rayon pool for the call's thread count ([`crate::pool`]), the GIL
//! released, and each worker parsing its puzzles, filling one reused row
//! through the library's per-record step ([`pipeline::fill_row`]) and
//! writing the results straight into the output columns. Nothing is
//! allocated per puzzle or per chunk, except the message of an invalid
//! puzzle.

use std::sync::{Arc, Mutex};

use batchdoku::batch::Row;
use batchdoku::batch::{self as pipeline, Job, Position};
use batchdoku::Record;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use batchdoku::batch::Status;

use crate::input::{PuzzleView, Unreadable};

/// Why a row of `NO_GRID` values is invalid.
const NO_GRID_WHY: &str = "no grid (a row of 255s: a malformed record in read()'s puzzles, \
     or a row without a grid in a result)";

/// Puzzles per part of the output columns: the smallest piece of work a
/// worker takes.
pub const CHUNK: usize = 1024;

/// Worker threads: `threads`, or every core when `None`.
pub fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(pyo3::exceptions::PyValueError::new_err(
            "threads must be at least 1",
        )),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs `job` on every puzzle of `puzzles` on `threads` workers with the
/// GIL released. `parts` yields, in order, the output columns' slices for
/// each run of [`CHUNK`] puzzles (the last one may be shorter);
/// `store(part, j, row, scratch)` writes puzzle `j` of a part from its
/// row and the worker's scratch. Returns the invalid puzzles' messages as
/// `(i, "row <i> (0-based): <why>")`, in input order.
pub fn run_job<J, P, F>(
    py: Python<'_>,
    job: &J,
    puzzles: PuzzleView<'_>,
    threads: usize,
    parts: P,
    store: F,
) -> PyResult<Vec<(usize, String)>>
where
    J: Job,
    P: IndexedParallelIterator,
    F: Fn(&mut P::Item, usize, &Row, &J::Scratch) + Sync,
{
    let n = puzzles.len();
    let pool = crate::pool::pool(threads).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let errors = Mutex::new(Vec::new());
    py.detach(|| {
        let record = Record::default();
        let source: Arc<str> = Arc::from("puzzles");
        pool.install(|| {
            parts.enumerate().for_each_init(
                || (job.scratch(), Row::default(), Vec::new()),
                |(scratch, row, chunk_errors), (c, mut part)| {
                    let first = c * CHUNK;
                    for j in 0..CHUNK.min(n - first) {
                        let i = first + j;
                        let at = Position {
                            source: &source,
                            line: i as u64 + 1,
                            index: i as u64 + 1,
                        };
                        match puzzles.parse(i) {
                            Ok(grid) => {
                                pipeline::fill_row(job, scratch, Ok(&grid), &record, &at, row)
                            }
                            Err(Unreadable::Parse(e)) => {
                                pipeline::fill_row(job, scratch, Err(&e), &record, &at, row)
                            }
                            Err(Unreadable::NoGrid) => {
                                row.reset(at.index, at.line);
                                row.status = Status::Invalid;
                                row.error.push_str(NO_GRID_WHY);
                            }
                        }
                        store(&mut part, j, row, scratch);
                        if row.status == Status::Invalid {
                            // Named by its row, counted from 0 as Python
                            // indexes it.
                            let why = &row.error;
                            chunk_errors.push((i, format!("row {i} (0-based): {why}")));
                        }
                    }
                    if !chunk_errors.is_empty() {
                        let mut all = errors.lock().unwrap_or_else(|e| e.into_inner());
                        all.append(chunk_errors);
                    }
                },
            )
        })
    });
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    errors.sort_unstable_by_key(|&(i, _)| i);
    Ok(errors)
}
