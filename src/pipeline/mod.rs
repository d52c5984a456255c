//! The streaming pipeline: records read from the inputs are cut into
//! numbered batches, a pool of workers (each with its own scratch, reused
//! for every puzzle) turns each batch into encoded output rows with a
//! command's [`Job`], and the writer (the calling thread) puts the batches
//! back in input order and writes them.
//!
//! ```text
//! reader ──work (bounded)──▶ workers ──done (bounded)──▶ writer ──▶ sink
//!    ▲                                                     │
//!    └──────────────── free batches (recycled) ◀───────────┘
//! ```
//!
//! The same bounded, ordered pipeline (the private `ordered` module) also
//! runs `generate`, whose work is a range of puzzle indices instead of
//! records. Memory is bounded: at most `in_flight` batches exist at any
//! time, so the reorder buffer can never grow with the input, even when
//! one batch is slow. A panic in a worker is caught per batch and ends the
//! run with [`Fatal::Panicked`] naming the record; it never hangs the run.
//! Progress goes to a caller's [`Progress`], so that the library draws
//! nothing itself.

mod input;
pub(crate) mod ordered;
mod progress;
mod records;
mod sink;

#[cfg(test)]
pub(crate) use input::{open_as, Source};
pub use input::{Input, Reopenable};
pub use progress::Progress;
pub use sink::{Flushed, Sink};

pub(crate) use ordered::{Feed, Halt, Shape, Stop, Work};

use std::fmt::Write as _;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::output::{Column, OutputFormat, Row, RowEncoder, Status};
use crate::parse::{ParseError, Record};
use crate::totals::Totals;

/// The per-record work of a command (solve, score, ...), run by the workers.
pub trait Job: Sync {
    /// Per-worker state (a solver, buffers), created once per worker.
    type Scratch: Send;

    /// Makes one worker's scratch.
    fn scratch(&self) -> Self::Scratch;

    /// Fills `row` for a well-formed puzzle. `row` arrives reset with its
    /// index, line and puzzle set. For an invalid result, set
    /// `Status::Invalid` and write the bare message into `row.error`; the
    /// pipeline prefixes the source and line.
    fn process(&self, scratch: &mut Self::Scratch, puzzle: &Grid, record: &Record, row: &mut Row);

    /// Marks every row of this job, well-formed or not, before it is
    /// processed (`overlap` names the split each row comes from).
    #[inline]
    fn label(&self, row: &mut Row) {
        let _ = row;
    }

    /// Whether `row` is written. Every record yields a row except in
    /// filters (`dedupe`, `overlap`), whose left-out records are still
    /// counted in the totals.
    fn writes(&self, row: &Row) -> bool {
        let _ = row;
        true
    }
}

/// How a run is shaped.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads.
    pub threads: usize,
    /// Records per batch.
    pub batch_size: usize,
    /// Output format.
    pub format: OutputFormat,
    /// Output columns (CSV and JSONL).
    pub columns: Vec<Column>,
    /// Names of the input CSV columns carried through as
    /// [`Column::Kept`].
    pub kept_names: Vec<String>,
    /// Write the CSV header row.
    pub header: bool,
}

impl Config {
    /// The same settings without the CSV header, for a second pass that
    /// writes into the same output.
    pub fn without_header(&self) -> Config {
        Config {
            header: false,
            ..self.clone()
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    /// Totals over every row written.
    pub totals: Totals,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The quit flag was raised (Ctrl-C) before the end of input.
    pub interrupted: bool,
    /// stdout was closed by its reader (e.g. `| head`): the run stopped
    /// quietly.
    pub broken_pipe: bool,
}

/// A fatal error: the run's output is incomplete and was not kept.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Fatal {
    /// Reading an input failed.
    #[error("{name}: {source}")]
    Read {
        /// The input's name.
        name: Arc<str>,
        /// The I/O error.
        source: io::Error,
    },
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Write(#[source] io::Error),
    /// The worker threads could not start.
    #[error("starting worker threads: {0}")]
    Threads(#[source] io::Error),
    /// A worker (or the reader) panicked: a bug. The run stopped at once.
    #[error("{site}: {message}")]
    Panicked {
        /// Where it panicked.
        site: PanicSite,
        /// The panic's message.
        message: String,
    },
    /// A job's own fatal error (e.g. a generated puzzle that failed its
    /// final check).
    #[error(transparent)]
    Job(Box<dyn std::error::Error + Send + Sync>),
}

/// Where a panic happened, for [`Fatal::Panicked`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PanicSite {
    /// A worker, on record `index` of the run, at `source:line`.
    Record {
        /// The record's 1-based number in the run.
        index: u64,
        /// The input's name.
        source: Arc<str>,
        /// The record's line in its input.
        line: u64,
    },
    /// A worker, on puzzle `index` of `generate`.
    Puzzle {
        /// The puzzle's index (as `generate --start` counts).
        index: u64,
    },
    /// A worker, while making its scratch (before any record).
    WorkerStart,
    /// The reader, while reading `source` (when it had one).
    Reader {
        /// The input being read.
        source: Option<Arc<str>>,
    },
}

impl std::fmt::Display for PanicSite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PanicSite::Record {
                index,
                source,
                line,
            } => write!(f, "worker panicked on record {index} ({source}:{line})"),
            PanicSite::Puzzle { index } => write!(f, "worker panicked on puzzle {index}"),
            PanicSite::WorkerStart => f.write_str("worker panicked while starting"),
            PanicSite::Reader { source: Some(name) } => {
                write!(f, "reader panicked while reading {name}")
            }
            PanicSite::Reader { source: None } => f.write_str("reader panicked"),
        }
    }
}

/// Runs `job` over every record of `inputs`, writing rows to `sink` in
/// input order. `quit` is polled between records and while waiting
/// (Ctrl-C); `bytes_read` is the counter the inputs were opened with;
/// `progress` hears of each batch written. The sink is left open, so that
/// a command may run several passes into it; [`finish`] it after the last
/// one. After an error, drop the sink (nothing is kept).
pub fn run<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    sink: &mut Sink,
    config: &Config,
    quit: &AtomicBool,
    bytes_read: &Arc<AtomicU64>,
    progress: &dyn Progress,
) -> Result<Report, Fatal> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let feed = records::RecordFeed::new(inputs, config.batch_size, bytes_read.clone());
    let work = records::RecordWork {
        job,
        config,
        names: &names,
    };
    let header = if config.header && config.format == OutputFormat::Csv {
        RowEncoder::header(config.format, &config.columns, &config.kept_names)
    } else {
        Vec::new()
    };
    let shape = Shape {
        threads,
        in_flight: 4 * threads + 4,
    };
    let ended = ordered::run(feed, &work, sink, &header, shape, quit, progress)?;
    Ok(Report {
        totals: ended.totals,
        elapsed: start.elapsed(),
        interrupted: quit.load(Ordering::SeqCst),
        broken_pipe: ended.broken_pipe,
    })
}

/// Ends a run's output (tests): keeps it (flush, rename `-o`'s temporary
/// file) only when the run completed.
#[cfg(test)]
pub(crate) fn finish(sink: Sink, report: &mut Report) -> Result<(), Fatal> {
    match flush(sink, report.interrupted, &mut report.broken_pipe)? {
        Some(flushed) => flushed.persist().map_err(Fatal::Write),
        None => Ok(()),
    }
}

/// Flushes the output of a run that completed and returns it, not yet
/// renamed, so that the caller can write another file first and keep both
/// or neither ([`Flushed::persist`]). `None` after an interruption or a
/// closed stdout (`broken_pipe`, also set when the final flush finds it):
/// nothing to keep, and dropping the sink removes its temporary file.
pub fn flush(
    sink: Sink,
    interrupted: bool,
    broken_pipe: &mut bool,
) -> Result<Option<Flushed>, Fatal> {
    if interrupted || *broken_pipe {
        return Ok(None);
    }
    match sink.flush_all() {
        Ok(flushed) => Ok(Some(flushed)),
        // `| head` closing stdout during the final flush is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            *broken_pipe = true;
            Ok(None)
        }
        Err(e) => Err(Fatal::Write(e)),
    }
}

/// Ends the run for a bug a worker found (an engine's answer that fails
/// its check). A bug never passes for bad input (an `invalid` row): the
/// panic ends the run as [`Fatal::Panicked`], naming the record, and the
/// binary exits 2 keeping nothing, as for every internal error
/// (`generate`'s failed final check included).
#[cold]
pub(crate) fn internal_error(what: &str) -> ! {
    panic!("internal error: {what}")
}

/// Where a record came from, for its row and its error message.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The input's name.
    pub source: &'a Arc<str>,
    /// The record's line in its input.
    pub line: u64,
    /// The record's 1-based number in the run.
    pub index: u64,
}

/// Fills `row` for one record: a malformed record, or an invalid result of
/// the job, becomes an `invalid` row with its error; the row keeps the
/// record's position (`source`, `line`, `index`) as data. The
/// one per-record step shared by the streaming pipeline and callers that
/// hold puzzles in memory (the Python package, on a [`build_pool`] pool).
pub fn fill_row<J: Job>(
    job: &J,
    scratch: &mut J::Scratch,
    puzzle: Result<&Grid, &ParseError>,
    record: &Record,
    at: &Position<'_>,
    row: &mut Row,
) {
    row.reset(at.index, at.line);
    if !Arc::ptr_eq(&row.source, at.source) {
        row.source = Arc::clone(at.source);
    }
    job.label(row);
    match puzzle {
        Ok(puzzle) => {
            row.puzzle = Some(*puzzle);
            job.process(scratch, puzzle, record, row);
        }
        Err(e) => {
            row.status = Status::Invalid;
            let _ = write!(row.error, "{e}");
        }
    }
}

/// The worker pool: `threads` named rayon threads. Also used by callers
/// that run [`fill_row`] over puzzles in memory (the Python package).
pub fn build_pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("batchdoku-worker-{i}"))
        .build()
}

#[cfg(test)]
pub(crate) mod tests;
