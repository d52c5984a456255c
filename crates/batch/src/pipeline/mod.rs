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
//! nothing itself. A run can also be resumed ([`run_resuming`], the
//! `resume` module): the records an earlier run wrote are skipped, checked
//! by a digest, and the caller hears of each batch written.

mod input;
pub(crate) mod ordered;
mod progress;
mod records;
mod resume;
mod sink;

#[cfg(test)]
pub(crate) use input::{open_as, Source};
pub use input::{Input, ReadTally, Reopenable};
pub use progress::Progress;
pub use resume::{Diverged, Resume, Written};
pub use sink::{Compression, Flushed, Sink};

pub(crate) use ordered::{Feed, Halt, Shape, Stop, Work};

use std::fmt::Write as _;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::output::{AsWritten, Column, OutputFormat, Row, RowEncoder, Status};
use crate::totals::Totals;
use batchdoku_core::Grid;
use batchdoku_core::{ParseError, Record};

/// The per-record work of a command (solve, score, ...), run by the workers.
///
/// The stock jobs are [`SolveJob`](crate::SolveJob),
/// [`ScoreJob`](crate::ScoreJob), [`CanonJob`](crate::CanonJob),
/// [`DedupeJob`](crate::DedupeJob) and
/// [`OverlapJob`](crate::OverlapJob); a job of one's own runs through
/// [`run`] and [`fill_row`] the same way.
///
/// # Example
/// ```
/// use std::sync::Arc;
/// use batchdoku_batch::{fill_row, Job, Position, Row, Status};
/// use batchdoku_core::{parse_line, Engine, Grid, Record, Solver};
///
/// /// Keeps only the puzzles with exactly one solution.
/// struct UniqueOnly;
///
/// impl Job for UniqueOnly {
///     type Scratch = Solver; // one per worker, reused
///
///     fn scratch(&self) -> Solver {
///         Solver::new()
///     }
///
///     fn process(&self, solver: &mut Solver, puzzle: &Grid, _: &Record, row: &mut Row) {
///         match solver.count_solutions_up_to(puzzle, 2) {
///             Ok(outcome) => {
///                 row.solutions = outcome.solutions;
///                 row.status = match outcome.solutions {
///                     0 => Status::Unsolvable,
///                     1 => Status::Unique,
///                     _ => Status::Multiple,
///                 };
///             }
///             Err(conflict) => row.error = conflict.to_string(), // stays `Invalid`
///         }
///     }
///
///     fn writes(&self, row: &Row) -> bool {
///         row.status == Status::Unique
///     }
/// }
///
/// let lines: [&[u8]; 3] = [
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
///     &[b'.'; 81], // the empty grid: many solutions
///     b"bad",
/// ];
/// let (mut solver, mut row, record) = (UniqueOnly.scratch(), Row::default(), Record::default());
/// let source: Arc<str> = Arc::from("memory");
/// let mut kept = Vec::new();
/// for (i, line) in lines.iter().enumerate() {
///     let at = Position { source: &source, line: i as u64 + 1, index: i as u64 + 1 };
///     fill_row(&UniqueOnly, &mut solver, parse_line(line).as_ref(), &record, &at, &mut row);
///     if UniqueOnly.writes(&row) {
///         kept.push(row.index);
///     }
/// }
/// assert_eq!(kept, [1]);
/// ```
pub trait Job: Sync {
    /// Per-worker state (a solver, buffers), created once per worker.
    type Scratch: Send;

    /// Makes one worker's scratch.
    fn scratch(&self) -> Self::Scratch;

    /// The columns a run writes unless told otherwise
    /// ([`Batch::columns`](crate::Batch::columns)): the stock jobs give
    /// their command's columns; a job of one's own gets the index, the
    /// status and the error.
    fn columns(&self) -> &'static [Column] {
        &[Column::Index, Column::Status, Column::Error]
    }

    /// Fills `row` for a well-formed puzzle. `row` arrives reset with its
    /// index, line and puzzle set, and its status `Invalid`. For an invalid
    /// result, leave that status and write the bare message into
    /// `row.error`; the encoders write the record's position (`source:line:
    /// `) before it.
    fn process(&self, scratch: &mut Self::Scratch, puzzle: &Grid, record: &Record, row: &mut Row);

    /// [`process`](Job::process) for a caller that may have to stop inside
    /// one slow puzzle (Ctrl-C during a rating of seconds): a job whose one
    /// puzzle can take long asks `stop` often (the stock [`RateJob`](crate::RateJob)
    /// every few thousand work units and between the equivalents of
    /// `invariant`) and returns early once it says so, leaving a row that
    /// is no result: the caller drops it. The default processes the puzzle
    /// whole.
    fn process_until(
        &self,
        scratch: &mut Self::Scratch,
        puzzle: &Grid,
        record: &Record,
        row: &mut Row,
        stop: &dyn Fn() -> bool,
    ) {
        let _ = stop;
        self.process(scratch, puzzle, record, row);
    }

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
///
/// # Example
/// ```
/// use batchdoku_batch::{Column, OutputFormat, SolveJob};
/// use batchdoku_batch::plumbing::{Config};
/// // What `batchdoku solve --count 2 --columns ...` asks for, on 4 threads.
/// let config = Config {
///     threads: 4,
///     batch_size: 256,
///     format: OutputFormat::Csv,
///     columns: SolveJob::COLUMNS.to_vec(),
///     kept_names: Vec::new(),
///     header: true,
///     as_written: None,
/// };
/// assert_eq!(config.columns[3], Column::Status);
/// // A second pass into the same output must not repeat the header.
/// assert!(!config.without_header().header);
/// ```
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
    /// Write each record as its input wrote it, in this layout, instead
    /// of `format` and `columns` (`split --output-dir`'s part files; the
    /// inputs must be read with
    /// [`ReadOptions::keep_written`](batchdoku_core::ReadOptions::keep_written)).
    /// `header` still says whether a CSV header is written.
    pub as_written: Option<AsWritten>,
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
///
/// # Example
/// ```
/// # use std::sync::atomic::{AtomicBool, AtomicU64};
/// # use std::sync::Arc;
/// # use batchdoku_batch::{self as batch, EngineKind, OutputFormat};
/// # use batchdoku_batch::plumbing::{Config, Input, Sink};
/// # use batchdoku_batch::SolveJob;
/// use batchdoku_batch::{Report, Status};
/// # let dir = tempfile::tempdir()?;
/// # let text =
/// #     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
/// # let input = Input::from_source("memory", Box::new(text.as_bytes()), None, &Default::default())?;
/// # let mut sink = Sink::file(&dir.path().join("out.csv"))?;
/// # let config = Config {
/// #     threads: 1,
/// #     batch_size: 64,
/// #     format: OutputFormat::Csv,
/// #     columns: SolveJob::COLUMNS.to_vec(),
/// #     kept_names: Vec::new(),
/// #     header: true,
/// #     as_written: None,
/// # };
/// # let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
/// # let quit = AtomicBool::new(false);
/// # let bytes_read = Arc::new(AtomicU64::new(0));
/// // After a run over one well-formed unique puzzle (see `batch::run`):
/// let report: Report =
///     batch::plumbing::run(&job, vec![input], &mut sink, &config, &quit, &bytes_read, &())?;
/// assert_eq!(report.totals.records, 1);
/// assert_eq!(report.totals.count(Status::Unique), 1);
/// assert!(!report.interrupted && !report.broken_pipe); // the output may be kept
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// Malformed puzzles are never fatal (they are `invalid` rows); an input
/// that cannot be read is.
///
/// # Example
/// ```
/// use std::io::{self, BufReader, Read};
/// use std::sync::atomic::{AtomicBool, AtomicU64};
/// use std::sync::Arc;
/// use batchdoku_batch::{self as batch, EngineKind, OutputFormat};
/// use batchdoku_batch::plumbing::{Config, Fatal, Input, Sink};
/// use batchdoku_batch::SolveJob;
/// use batchdoku_core::{InputFormat, ReadOptions};
///
/// /// A source whose first read fails, as a disk or a network may.
/// struct Broken;
/// impl Read for Broken {
///     fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
///         Err(io::Error::other("device not ready"))
///     }
/// }
///
/// let options = ReadOptions { format: InputFormat::Line, ..ReadOptions::default() };
/// let input = Input::from_source("flaky", Box::new(BufReader::new(Broken)), None, &options)?;
/// let dir = tempfile::tempdir()?;
/// let mut sink = Sink::file(&dir.path().join("out.csv"))?;
/// let config = Config {
///     threads: 1,
///     batch_size: 64,
///     format: OutputFormat::Csv,
///     columns: SolveJob::COLUMNS.to_vec(),
///     kept_names: Vec::new(),
///     header: true,
///     as_written: None,
/// };
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Mrv, difficulty: false };
/// let (quit, bytes_read) = (AtomicBool::new(false), Arc::new(AtomicU64::new(0)));
/// let err = batch::plumbing::run(&job, vec![input], &mut sink, &config, &quit, &bytes_read, &())
///     .unwrap_err();
/// assert!(matches!(&err, Fatal::Read { name, .. } if &**name == "flaky"));
/// assert_eq!(err.to_string(), "flaky: device not ready");
/// drop(sink); // nothing is kept
/// assert_eq!(std::fs::read_dir(dir.path())?.count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Fatal {
    /// Reading an input failed.
    #[error("{name}: {error}")]
    Read {
        /// The input's name.
        name: Arc<str>,
        /// The I/O error (in the message, so not a `source()`: a printer
        /// of the error's causes says it once).
        error: io::Error,
    },
    /// Writing the output failed (the I/O error is in the message).
    #[error("writing output: {0}")]
    Write(io::Error),
    /// The worker threads could not start (the I/O error is in the
    /// message).
    #[error("starting worker threads: {0}")]
    Threads(io::Error),
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
    /// A resumed run's inputs do not begin with the records of the run it
    /// resumes ([`run_resuming`]); no row was written.
    #[error(transparent)]
    Diverged(Diverged),
}

/// Where a panic happened, for [`Fatal::Panicked`].
///
/// # Example
/// ```
/// use std::sync::atomic::{AtomicBool, AtomicU64};
/// use std::sync::Arc;
/// use batchdoku_batch::{self as batch, Job, OutputFormat};
/// use batchdoku_batch::plumbing::{Config, Fatal, Input, PanicSite};
/// use batchdoku_batch::{Column, Row};
/// use batchdoku_batch::plumbing::{Sink};
/// use batchdoku_core::{Grid, Record};
///
/// /// A job with a bug: it panics on a full grid.
/// struct Buggy;
/// impl Job for Buggy {
///     type Scratch = ();
///     fn scratch(&self) {}
///     fn process(&self, _: &mut (), puzzle: &Grid, _: &Record, _: &mut Row) {
///         assert!(!puzzle.is_complete(), "cannot handle a full grid");
///     }
/// }
///
/// let text = format!("{}\n{}\n", ".".repeat(81), "123456789".repeat(9));
/// let source = Box::new(std::io::Cursor::new(text)); // any `BufRead + Send + 'static`
/// let input = Input::from_source("memory", source, None, &Default::default())?;
/// let dir = tempfile::tempdir()?;
/// let mut sink = Sink::file(&dir.path().join("out.csv"))?;
/// let config = Config {
///     threads: 2,
///     batch_size: 1,
///     format: OutputFormat::Csv,
///     columns: vec![Column::Index],
///     kept_names: Vec::new(),
///     header: false,
///     as_written: None,
/// };
/// let (quit, bytes_read) = (AtomicBool::new(false), Arc::new(AtomicU64::new(0)));
/// // The panic is caught: the run fails, naming the record; it does not hang.
/// let err = batch::plumbing::run(&Buggy, vec![input], &mut sink, &config, &quit, &bytes_read, &())
///     .unwrap_err();
/// let Fatal::Panicked { site, message } = err else { panic!("{err}") };
/// assert!(matches!(site, PanicSite::Record { index: 2, line: 2, .. }), "{site}");
/// assert_eq!(message, "cannot handle a full grid");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
/// a command may run several passes into it; after the last one keep the
/// output with [`flush`] and [`Flushed::persist`]. After an error, drop
/// the sink (nothing is kept).
///
/// Each input reads its records with its own
/// [`RecordReader`](batchdoku_core::RecordReader) (see [`Input`]); a malformed
/// record becomes an `invalid` row in its place, never an error.
///
/// # Example
/// ```
/// use std::sync::atomic::{AtomicBool, AtomicU64};
/// use std::sync::Arc;
/// use batchdoku_batch::{self as batch, EngineKind, OutputFormat};
/// use batchdoku_batch::plumbing::{Config, Input, Sink};
/// use batchdoku_batch::{SolveJob, Status};
/// use batchdoku_core::ReadOptions;
///
/// let dir = tempfile::tempdir()?;
/// let input_path = dir.path().join("puzzles.txt");
/// std::fs::write(
///     &input_path,
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\
///      4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
///      not a puzzle\n",
/// )?;
/// let output_path = dir.path().join("solved.csv");
///
/// let bytes_read = Arc::new(AtomicU64::new(0)); // for a progress display
/// let path = input_path.to_str().unwrap();
/// let inputs = vec![Input::open(path, &ReadOptions::default(), bytes_read.clone())?];
/// let mut sink = Sink::file(&output_path)?; // a temporary file until kept
/// let config = Config {
///     threads: 2,
///     batch_size: 64,
///     format: OutputFormat::Csv,
///     columns: SolveJob::COLUMNS.to_vec(),
///     kept_names: Vec::new(),
///     header: true,
///     as_written: None,
/// };
/// let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
/// let quit = AtomicBool::new(false); // raise it (from a Ctrl-C handler) to stop early
///
/// let mut report =
///     batch::plumbing::run(&job, inputs, &mut sink, &config, &quit, &bytes_read, &())?;
/// assert_eq!(report.totals.records, 3);
/// assert_eq!(report.totals.count(Status::Unique), 2);
/// assert_eq!(report.totals.count(Status::Invalid), 1);
///
/// // Keep the output: flush it, then rename the temporary file into place.
/// if let Some(flushed) = batch::plumbing::flush(sink, report.interrupted, &mut report.broken_pipe)? {
///     flushed.persist()?;
/// }
/// let csv = std::fs::read_to_string(&output_path)?;
/// let rows: Vec<&str> = csv.lines().collect();
/// assert_eq!(rows[0], "index,line,puzzle,status,solutions,solution,guesses,error");
/// assert!(rows[1].starts_with("1,1,..3.2.6..9..3.5..1"));
/// assert!(rows[1].contains(",unique,1,483921657967345821"));
/// assert!(rows[3].starts_with("3,3,,invalid,0,,0,"));
/// assert!(rows[3].ends_with("puzzles.txt:3: bad character 'n' at column 1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    sink: &mut Sink,
    config: &Config,
    quit: &AtomicBool,
    bytes_read: &Arc<AtomicU64>,
    progress: &dyn Progress,
) -> Result<Report, Fatal> {
    run_with(job, inputs, sink, config, quit, bytes_read, progress, None)
}

/// [`run`] for a run that can be resumed: the first `resume.skip` records
/// (the rows an earlier run wrote) are read and checked against
/// `resume.digest`, not processed, and numbering carries on after them
/// (failing with [`Fatal::Diverged`], before any row is written, when they
/// are not the same records); after each batch written, `resume.written`
/// hears how far the run got ([`Written`]: the rows of this run, their
/// totals, and the digest a later run resumes from). The CSV header is
/// written when `config.header` says so: a resumed run that appends to
/// the rows it had turns it off. The report counts this run's rows only.
///
/// # Example
/// ```
/// use std::sync::atomic::{AtomicBool, AtomicU64};
/// use std::sync::Arc;
/// use batchdoku_batch::{Column, EngineKind, OutputFormat, SolveJob};
/// use batchdoku_batch::plumbing::{run_resuming, Config, Input, Resume, Sink, Written};
///
/// let text = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
/// let text: &'static str = Box::leak(text.repeat(5).into_boxed_str());
/// let input = || Input::from_source("memory", Box::new(text.as_bytes()), None, &Default::default());
/// let config = Config {
///     threads: 2,
///     batch_size: 1,
///     format: OutputFormat::Csv,
///     columns: vec![Column::Index, Column::Status],
///     kept_names: Vec::new(),
///     header: false,
///     as_written: None,
/// };
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Mrv, difficulty: false };
/// let (quit, bytes_read) = (AtomicBool::new(false), Arc::new(AtomicU64::new(0)));
///
/// // A run from the start hears of each batch written (one record each here).
/// let mut heard = Vec::new();
/// let mut record = |_: &mut Sink, w: &Written| {
///     heard.push(*w);
///     Ok(())
/// };
/// let resume = Resume { skip: 0, digest: 0, written: &mut record };
/// let mut sink = Sink::writer(Box::new(std::io::sink()));
/// run_resuming(&job, vec![input()?], &mut sink, &config, &quit, &bytes_read, &(), resume)?;
/// assert_eq!(heard.len(), 5);
/// assert_eq!(heard[3].records, 4);
///
/// // Resumed after its first 4 records: only the fifth is processed.
/// let mut last = Written::default();
/// let mut note = |_: &mut Sink, w: &Written| {
///     last = *w;
///     Ok(())
/// };
/// let resume = Resume { skip: 4, digest: heard[3].digest, written: &mut note };
/// let report =
///     run_resuming(&job, vec![input()?], &mut sink, &config, &quit, &bytes_read, &(), resume)?;
/// assert_eq!((report.totals.records, last.records), (1, 1));
/// assert_eq!(last.digest, heard[4].digest); // the same records read
///
/// // Other records are refused before any row.
/// let other = Resume { skip: 4, digest: heard[2].digest, written: &mut |_, _| Ok(()) };
/// let err = run_resuming(&job, vec![input()?], &mut sink, &config, &quit, &bytes_read, &(), other)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "the first 4 records are not those the run being resumed read");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn run_resuming<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    sink: &mut Sink,
    config: &Config,
    quit: &AtomicBool,
    bytes_read: &Arc<AtomicU64>,
    progress: &dyn Progress,
    resume: Resume<'_>,
) -> Result<Report, Fatal> {
    run_with(
        job,
        inputs,
        sink,
        config,
        quit,
        bytes_read,
        progress,
        Some(resume),
    )
}

/// [`run`], resumed when `resume` says so.
#[allow(clippy::too_many_arguments)]
fn run_with<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    sink: &mut Sink,
    config: &Config,
    quit: &AtomicBool,
    bytes_read: &Arc<AtomicU64>,
    progress: &dyn Progress,
    resume: Option<Resume<'_>>,
) -> Result<Report, Fatal> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let skip = resume.as_ref().map(|r| resume::Skip::new(r.skip, r.digest));
    let feed = records::RecordFeed::new(inputs, config.batch_size, bytes_read.clone(), skip);
    let work = records::RecordWork {
        job,
        config,
        names: &names,
    };
    // Parquet's schema always comes first (a second pass repeats it, and
    // the sink takes it as the same); `header` is the CSV header line's.
    let header = match config.format {
        _ if config.as_written.is_some() => match &config.as_written {
            Some(layout) if config.header => layout.header(),
            _ => Vec::new(),
        },
        OutputFormat::Csv if config.header => {
            RowEncoder::header(config.format, &config.columns, &config.kept_names)
        }
        OutputFormat::Parquet => {
            RowEncoder::header(config.format, &config.columns, &config.kept_names)
        }
        _ => Vec::new(),
    };
    let format = match config.as_written {
        Some(_) => OutputFormat::Csv, // text, whatever the layout
        None => config.format,
    };
    sink.set_format(format).map_err(Fatal::Write)?;
    let shape = Shape {
        threads,
        in_flight: 4 * threads + 4,
    };
    let mut told = resume.map(|r| {
        move |sink: &mut Sink, ended: &ordered::Ended<Totals>, digest: u64| {
            let written = Written {
                records: ended.items,
                totals: ended.totals,
                digest,
            };
            (r.written)(sink, &written).map_err(Fatal::Write)
        }
    });
    let written = told
        .as_mut()
        .map(|t| t as &mut dyn FnMut(&mut Sink, &ordered::Ended<Totals>, u64) -> Result<(), Fatal>);
    let ended = ordered::run(feed, &work, sink, &header, shape, quit, progress, written)?;
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
///
/// # Example
/// ```
/// use batchdoku_batch::plumbing::{flush, Sink};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.csv");
///
/// // An interrupted run keeps nothing: no file, not even a partial one.
/// let mut sink = Sink::file(&path)?;
/// sink.write_all(b"some rows\n")?;
/// let mut broken_pipe = false;
/// assert!(flush(sink, true, &mut broken_pipe)?.is_none());
/// assert_eq!(std::fs::read_dir(dir.path())?.count(), 0);
///
/// // A completed run: flushed, and kept once persisted.
/// let mut sink = Sink::file(&path)?;
/// sink.write_all(b"all rows\n")?;
/// let flushed = flush(sink, false, &mut broken_pipe)?.expect("completed");
/// assert!(!path.exists()); // not renamed yet
/// flushed.persist()?;
/// assert_eq!(std::fs::read_to_string(&path)?, "all rows\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// # Example
/// ```
/// use std::sync::Arc;
/// use batchdoku_batch::{fill_row, CanonJob, Column, Job, OutputFormat, Position, Row};
/// use batchdoku_batch::RowEncoder;
/// use batchdoku_core::{parse_line, Record};
/// let source: Arc<str> = Arc::from("corpus.txt");
/// let at = Position { source: &source, line: 12, index: 5 };
/// let (mut row, record, mut scratch) = (Row::default(), Record::default(), CanonJob.scratch());
/// let puzzle = parse_line(b"12x");
/// fill_row(&CanonJob, &mut scratch, puzzle.as_ref(), &record, &at, &mut row);
/// assert_eq!((&*row.source, row.line, row.index), ("corpus.txt", 12, 5));
/// assert_eq!(row.error, "bad character 'x' at column 3"); // the position is data
///
/// // The encoders write the position before the error text.
/// let mut encoder = RowEncoder::new(OutputFormat::Csv, &[Column::Error], &[]);
/// let mut out = Vec::new();
/// encoder.encode(&row, &record, &mut out)?;
/// assert_eq!(out, b"corpus.txt:12: bad character 'x' at column 3\n");
/// # Ok::<(), std::io::Error>(())
/// ```
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
///
/// # Example
/// ```
/// use std::sync::Arc;
/// use batchdoku_batch::{fill_row, EngineKind, Job, Position, Row, SolveJob, Status};
/// use batchdoku_core::{parse_line, Record};
///
/// let puzzles: [&[u8]; 2] = [
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
///     b"4.....8.5.3....", // cut short
/// ];
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Dlx, difficulty: false };
/// let mut scratch = job.scratch(); // one per worker
/// let (mut row, record) = (Row::default(), Record::default()); // reused
/// let source: Arc<str> = Arc::from("memory");
/// let mut statuses = Vec::new();
/// for (i, line) in puzzles.iter().enumerate() {
///     let at = Position { source: &source, line: 1, index: i as u64 + 1 };
///     fill_row(&job, &mut scratch, parse_line(line).as_ref(), &record, &at, &mut row);
///     statuses.push((row.status, row.error.clone()));
/// }
/// assert_eq!(statuses[0], (Status::Solved, String::new()));
/// assert_eq!(statuses[1], (Status::Invalid, "expected 81 cells, found 15".to_string()));
/// ```
pub fn fill_row<J: Job>(
    job: &J,
    scratch: &mut J::Scratch,
    puzzle: Result<&Grid, &ParseError>,
    record: &Record,
    at: &Position<'_>,
    row: &mut Row,
) {
    fill_row_until(job, scratch, puzzle, record, at, row, &|| false);
}

/// [`fill_row`] for a caller that may have to stop inside one slow puzzle:
/// the job is run through [`Job::process_until`] with `stop`, and once
/// `stop` has said so the row is no result (drop it). The streaming
/// pipeline passes its quit flag (Ctrl-C), the Python package its own.
#[doc(hidden)]
pub fn fill_row_until<J: Job>(
    job: &J,
    scratch: &mut J::Scratch,
    puzzle: Result<&Grid, &ParseError>,
    record: &Record,
    at: &Position<'_>,
    row: &mut Row,
    stop: &dyn Fn() -> bool,
) {
    row.reset(at.index, at.line);
    if !Arc::ptr_eq(&row.source, at.source) {
        row.source = Arc::clone(at.source);
    }
    job.label(row);
    match puzzle {
        Ok(puzzle) => {
            row.puzzle = Some(*puzzle);
            job.process_until(scratch, puzzle, record, row, stop);
        }
        Err(e) => {
            row.status = Status::Invalid;
            let _ = write!(row.error, "{e}");
        }
    }
}

/// The worker pool: `threads` named rayon threads. Also used by callers
/// that run [`fill_row`] over puzzles in memory (the Python package).
///
/// # Example
/// ```
/// use std::sync::Arc;
/// use rayon::prelude::*;
/// use batchdoku_batch::{fill_row, EngineKind, Job, Position, Row, SolveJob, Status};
/// use batchdoku_batch::plumbing::{build_pool};
/// use batchdoku_core::{Generator, Record, Solver, Spec};
///
/// // 32 puzzles in memory, solved in parallel, results in input order.
/// let generator = Generator::new(Spec::default(), 1).unwrap();
/// let mut solver = Solver::new();
/// let puzzles: Vec<_> =
///     (0..32).map(|i| generator.puzzle(i, &mut solver, || false).unwrap().puzzle).collect();
///
/// let pool = build_pool(2).unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
/// let source: Arc<str> = Arc::from("memory");
/// let statuses: Vec<Status> = pool.install(|| {
///     puzzles
///         .par_iter()
///         .enumerate()
///         .map_init(
///             || (job.scratch(), Row::default(), Record::default()),
///             |(scratch, row, record), (i, puzzle)| {
///                 let at = Position { source: &source, line: 0, index: i as u64 + 1 };
///                 fill_row(&job, scratch, Ok(puzzle), record, &at, row);
///                 row.status
///             },
///         )
///         .collect()
/// });
/// assert!(statuses.iter().all(|&s| s == Status::Unique));
/// ```
pub fn build_pool(threads: usize) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("batchdoku-worker-{i}"))
        .build()
}

#[cfg(test)]
pub(crate) mod tests;
