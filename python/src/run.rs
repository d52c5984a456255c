//! Runs a library [`Job`] over every puzzle of one call: on the process's
//! rayon pool for the call's thread count ([`crate::pool`]), the GIL
//! released, and each worker parsing its puzzles, filling one reused row
//! through the library's per-record step ([`fill_row_until`], which the
//! stop flag reaches inside one slow puzzle) and
//! writing the results straight into the output columns. Nothing is
//! allocated per puzzle or per chunk, except the message of an invalid
//! puzzle.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use batchdoku_batch::plumbing::fill_row_until;
use batchdoku_batch::Row;
use batchdoku_batch::{Job, Position};
use batchdoku_core::Record;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::prelude::*;

use batchdoku_batch::Status;

use crate::input::{PuzzleView, Unreadable};

/// Why a row of `NO_GRID` values is invalid.
const NO_GRID_WHY: &str = "no grid (a row of 255s: a malformed record in read()'s puzzles, \
     or a row without a grid in a result)";

/// Why a missing value (an Arrow null) is invalid.
const MISSING_WHY: &str = "a missing value (null)";

/// Puzzles per part of the output columns: the smallest piece of work a
/// worker takes.
pub const CHUNK: usize = 1024;

/// The most worker threads a call takes, as the CLI's `-j`.
pub const MAX_THREADS: usize = 1024;

/// How often the calling thread looks for a signal (Ctrl-C) while the
/// workers run.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Worker threads: `threads` (1 to [`MAX_THREADS`]), or every core when
/// `None`.
pub fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(pyo3::exceptions::PyValueError::new_err(
            "threads must be at least 1",
        )),
        Some(n) if n > MAX_THREADS => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "threads must be at most {MAX_THREADS} (as the CLI's -j), got {n}"
        ))),
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
///
/// The workers run through [`interruptible`]: on Ctrl-C they skip the
/// puzzles left and the call raises `KeyboardInterrupt` once they have
/// stopped.
pub fn run_job<J, P, F>(
    py: Python<'_>,
    job: &J,
    puzzles: &PuzzleView<'_>,
    threads: usize,
    parts: P,
    store: F,
) -> PyResult<Vec<(usize, String)>>
where
    J: Job,
    P: IndexedParallelIterator,
    F: Fn(&mut P::Item, usize, &Row, &J::Scratch) + Sync,
{
    run_job_with(py, job, puzzles, threads, parts, &|_, _| {}, store)
}

/// [`run_job`], with `prepare(i, record)` filling puzzle `i`'s record
/// (its line is set) before the job sees it: the kept field `split`
/// stratifies by.
pub fn run_job_with<J, P, F>(
    py: Python<'_>,
    job: &J,
    puzzles: &PuzzleView<'_>,
    threads: usize,
    parts: P,
    prepare: &(dyn Fn(usize, &mut Record) + Sync),
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
    let stop = AtomicBool::new(false);
    let work = || {
        let source: Arc<str> = Arc::from("puzzles");
        pool.install(|| {
            parts.enumerate().for_each_init(
                || (job.scratch(), Row::default(), Record::default(), Vec::new()),
                |(scratch, row, record, chunk_errors), (c, mut part)| {
                    let first = c * CHUNK;
                    for j in 0..CHUNK.min(n - first) {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let i = first + j;
                        let at = Position {
                            source: &source,
                            line: i as u64 + 1,
                            index: i as u64 + 1,
                        };
                        // A puzzle's line is its 1-based row (`overlap` keeps
                        // the training line of each class).
                        record.line = at.line;
                        prepare(i, record);
                        // The stop reaches inside one slow puzzle (a rating,
                        // the invariant loop); a puzzle it cut short is no
                        // result, and the call raises anyway.
                        let stopped = || stop.load(Ordering::Relaxed);
                        match puzzles.parse(i) {
                            Ok(grid) => {
                                fill_row_until(job, scratch, Ok(&grid), record, &at, row, &stopped)
                            }
                            Err(Unreadable::Parse(e)) => {
                                fill_row_until(job, scratch, Err(&e), record, &at, row, &stopped)
                            }
                            Err(Unreadable::NoGrid) => {
                                unreadable(row, &at, NO_GRID_WHY);
                            }
                            Err(Unreadable::Missing) => {
                                unreadable(row, &at, MISSING_WHY);
                            }
                        }
                        if stopped() {
                            return;
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
    };
    interruptible(py, &stop, work)?;
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    errors.sort_unstable_by_key(|&(i, _)| i);
    Ok(errors)
}

/// Fills `row` for a puzzle that has no grid to give the job: `invalid`,
/// at its position (its source too, which the report's notes name).
fn unreadable(row: &mut Row, at: &Position<'_>, why: &str) {
    row.reset(at.index, at.line);
    if !Arc::ptr_eq(&row.source, at.source) {
        row.source = Arc::clone(at.source);
    }
    row.status = Status::Invalid;
    row.error.push_str(why);
}

/// Runs `work` on a helper thread with the GIL released while the calling
/// thread waits for it, looking for signals every [`SIGNAL_POLL`] (it takes
/// the GIL for `Python::check_signals` only). When a handler raises
/// (Ctrl-C's `KeyboardInterrupt`), `stop` is raised for `work` to see (it
/// should stop at its next item) and, once `work` has returned, the call
/// returns that exception. Every long call of the package runs through
/// here, so each one stops within about a second.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (result, interrupted) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                let result = work();
                let _ = done.send(());
                result
            });
            let mut interrupted = None;
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Err(mpsc::RecvTimeoutError::Timeout) if interrupted.is_none() => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            stop.store(true, Ordering::Relaxed);
                            interrupted = Some(e);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            match worker.join() {
                Ok(result) => (result, interrupted),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    });
    match interrupted {
        Some(e) => Err(e),
        None => Ok(result),
    }
}
