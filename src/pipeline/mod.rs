//! The streaming pipeline: one reader thread cuts the inputs into numbered
//! batches, a rayon pool of workers (each with its own scratch, reused for
//! every puzzle) turns each batch into encoded output rows, and the writer
//! (the calling thread) puts batches back in input order and writes them.
//!
//! ```text
//! reader ──work (bounded)──▶ workers ──done (bounded)──▶ writer ──▶ sink
//!    ▲                                                     │
//!    └──────────────── free batches (recycled) ◀───────────┘
//! ```
//!
//! Memory is bounded: at most `in_flight` batches exist at any time (the
//! reader must take a free one before reading), so the writer's reorder
//! buffer can never grow with the input, even when one batch is slow. Batch
//! buffers are recycled, so a warm pipeline does not allocate per batch.

mod input;
mod sink;

pub use input::{open, open_as, Input, Reopenable, Source};
pub use sink::Sink;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, Sender};

use crate::grid::Grid;
use crate::output::{Column, OutputFormat, Row, RowEncoder, Status};
use crate::parse::{ParseError, Record};
use crate::progress::{self, ProgressMode};
use crate::stats::Totals;

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
    /// When to draw the progress bar.
    pub progress: ProgressMode,
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
}

/// A batch of records and, once processed, their encoded rows.
struct Batch {
    seq: u64,
    source: usize,
    first_index: u64,
    records: Vec<Record>,
    len: usize,
    out: Vec<u8>,
    totals: Totals,
    /// Raw input bytes consumed when the batch was cut (for progress).
    bytes_read: u64,
}

impl Batch {
    fn new(capacity: usize) -> Batch {
        Batch {
            seq: 0,
            source: 0,
            first_index: 0,
            records: Vec::with_capacity(capacity),
            len: 0,
            out: Vec::new(),
            totals: Totals::default(),
            bytes_read: 0,
        }
    }
}

/// Runs `job` over every record of `inputs`, writing rows to `sink` in
/// input order. `quit` is polled once per batch (Ctrl-C); `bytes_read`
/// is the counter the inputs were opened with. The sink is left open, so
/// that a command may run several passes into it; [`finish`] it after the
/// last one.
pub fn run<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    sink: &mut Sink,
    config: &Config,
    quit: &AtomicBool,
    bytes_read: &Arc<AtomicU64>,
) -> Result<Report, Fatal> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    let in_flight = 4 * threads + 4;
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let total_bytes = inputs.iter().map(|i| i.size).sum::<Option<u64>>();
    let bar = progress::bar(config.progress, total_bytes);

    let (work_tx, work_rx) = bounded::<Batch>(2 * threads);
    let (done_tx, done_rx) = bounded::<Batch>(in_flight);
    let (free_tx, free_rx) = bounded::<Batch>(in_flight);
    let pool = build_pool(threads).map_err(|e| Fatal::Write(io::Error::other(e)))?;

    let header = config.header && config.format == OutputFormat::Csv;
    let result = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            read_batches(
                inputs,
                work_tx,
                free_rx,
                config.batch_size,
                in_flight,
                quit,
                bytes_read,
            )
        });
        let names = &names;
        s.spawn(move || {
            pool.scope(|ps| {
                for _ in 0..threads {
                    let work_rx = work_rx.clone();
                    let done_tx = done_tx.clone();
                    ps.spawn(move |_| work(job, config, names, &work_rx, &done_tx));
                }
            });
        });
        let written = write_in_order(
            sink,
            header.then_some(config),
            done_rx,
            free_tx,
            quit,
            &bar,
            start,
        );
        let read = reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (written, read)
    });
    bar.finish_and_clear();
    let (written, read) = result;
    let (totals, broken_pipe) = written?;
    read?;
    Ok(Report {
        totals,
        elapsed: start.elapsed(),
        interrupted: quit.load(Ordering::SeqCst),
        broken_pipe,
    })
}

/// Ends a run's output: keeps it (flush, rename `-o`'s temporary file)
/// only when the run completed; after an interruption or a closed stdout
/// the sink is dropped, which removes the temporary file.
pub fn finish(sink: Sink, report: &mut Report) -> Result<(), Fatal> {
    if report.interrupted || report.broken_pipe {
        return Ok(());
    }
    match sink.finish() {
        Ok(()) => Ok(()),
        // `| head` closing stdout during the final flush is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            report.broken_pipe = true;
            Ok(())
        }
        Err(e) => Err(Fatal::Write(e)),
    }
}

/// The reader thread: fills free batches with records and sends them on.
fn read_batches(
    inputs: Vec<Input>,
    work_tx: Sender<Batch>,
    free_rx: Receiver<Batch>,
    batch_size: usize,
    in_flight: usize,
    quit: &AtomicBool,
    bytes_read: &AtomicU64,
) -> Result<(), Fatal> {
    let mut created = 0;
    let mut seq = 0;
    let mut index = 1;
    for (source, mut input) in inputs.into_iter().enumerate() {
        let mut at_end = false;
        while !at_end {
            if quit.load(Ordering::Relaxed) {
                return Ok(());
            }
            let mut batch = if created < in_flight {
                created += 1;
                Batch::new(batch_size)
            } else {
                match free_rx.recv() {
                    Ok(b) => b,
                    Err(_) => return Ok(()), // the writer stopped
                }
            };
            batch.len = 0;
            while batch.len < batch_size {
                if batch.len == batch.records.len() {
                    batch.records.push(Record::default());
                }
                match input.records.read_record(&mut batch.records[batch.len]) {
                    Ok(true) => batch.len += 1,
                    Ok(false) => {
                        at_end = true;
                        break;
                    }
                    Err(e) => {
                        return Err(Fatal::Read {
                            name: input.name.clone(),
                            source: e,
                        })
                    }
                }
            }
            if batch.len == 0 {
                // Nothing read: keep the batch for the next input.
                created -= 1;
                continue;
            }
            batch.seq = seq;
            batch.source = source;
            batch.first_index = index;
            batch.bytes_read = bytes_read.load(Ordering::Relaxed);
            seq += 1;
            index += batch.len as u64;
            if work_tx.send(batch).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Where a record came from, for its row and its error message.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The input's name.
    pub source: &'a str,
    /// The record's line in its input.
    pub line: u64,
    /// The record's 1-based number in the run.
    pub index: u64,
}

/// Fills `row` for one record: a malformed record, or an invalid result of
/// the job, becomes an `invalid` row whose error names `source:line`. The
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
    if row.status == Status::Invalid {
        let msg = std::mem::take(&mut row.error);
        let _ = write!(row.error, "{}:{}: {msg}", at.source, at.line);
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

/// A worker: processes batches until the work channel closes.
fn work<J: Job>(
    job: &J,
    config: &Config,
    names: &[Arc<str>],
    work_rx: &Receiver<Batch>,
    done_tx: &Sender<Batch>,
) {
    let mut scratch = job.scratch();
    let mut encoder = RowEncoder::new(config.format, &config.columns, &config.kept_names);
    let mut row = Row::default();
    for mut batch in work_rx.iter() {
        batch.out.clear();
        batch.totals = Totals::default();
        let name = &names[batch.source];
        for i in 0..batch.len {
            let record = &batch.records[i];
            let at = Position {
                source: name,
                line: record.line,
                index: batch.first_index + i as u64,
            };
            fill_row(
                job,
                &mut scratch,
                record.puzzle.as_ref(),
                record,
                &at,
                &mut row,
            );
            if job.writes(&row) {
                // Encoding into a Vec only fails on a serializer bug.
                let _ = encoder.encode(&row, record, &mut batch.out);
                batch.totals.add_row(&row);
            } else {
                batch.totals.add_record(&row);
            }
        }
        if done_tx.send(batch).is_err() {
            return;
        }
    }
}

/// The writer: reorders finished batches by sequence number, writes them,
/// and recycles them. Returns the totals and whether stdout was closed.
fn write_in_order(
    sink: &mut Sink,
    header: Option<&Config>,
    done_rx: Receiver<Batch>,
    free_tx: Sender<Batch>,
    quit: &AtomicBool,
    bar: &indicatif::ProgressBar,
    start: Instant,
) -> Result<(Totals, bool), Fatal> {
    let mut totals = Totals::default();
    let mut pending: BTreeMap<u64, Batch> = BTreeMap::new();
    let mut next = 0u64;
    let write = |sink: &mut Sink, bytes: &[u8]| -> Result<bool, Fatal> {
        match sink.write_all(bytes) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(Fatal::Write(e)),
        }
    };
    if let Some(config) = header {
        if !write(
            sink,
            &RowEncoder::header(config.format, &config.columns, &config.kept_names),
        )? {
            return Ok((totals, true));
        }
    }
    for batch in done_rx.iter() {
        if quit.load(Ordering::Relaxed) {
            return Ok((totals, false));
        }
        pending.insert(batch.seq, batch);
        while let Some(batch) = pending.remove(&next) {
            if !write(sink, &batch.out)? {
                return Ok((totals, true));
            }
            totals += batch.totals;
            next += 1;
            bar.set_position(batch.bytes_read);
            bar.set_message(progress::message(totals.records, start.elapsed()));
            // The reader may have finished; a closed free list is fine.
            let _ = free_tx.send(batch);
        }
    }
    Ok((totals, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::{EngineKind, SolveJob};
    use crate::parse::parse_line;

    #[test]
    fn fill_row_names_source_and_line_of_invalid_records() {
        let lines = [
            &b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"[..],
            b"not a puzzle",
            b"33...............................................................................",
        ];
        let job = SolveJob {
            count_limit: 2,
            engine: EngineKind::Mrv,
            rate: false,
        };
        let mut scratch = job.scratch();
        let record = Record::default();
        let mut row = Row::default();
        let mut fill = |i: usize| {
            let puzzle = parse_line(lines[i]);
            let at = Position {
                source: "mem",
                line: i as u64 + 1,
                index: i as u64 + 1,
            };
            fill_row(&job, &mut scratch, puzzle.as_ref(), &record, &at, &mut row);
            (row.status, row.solution, row.error.clone())
        };
        let (status, solution, error) = fill(0);
        assert_eq!((status, error.as_str()), (Status::Unique, ""));
        assert!(solution.unwrap().solves(&parse_line(lines[0]).unwrap()));
        let (status, solution, error) = fill(1);
        assert_eq!(status, Status::Invalid);
        assert_eq!(solution, None);
        assert_eq!(error, "mem:2: bad character 'n' at column 1");
        // The row is reused: nothing of the previous record is left.
        let (status, _, error) = fill(2);
        assert_eq!(status, Status::Invalid);
        assert!(error.starts_with("mem:3: contradictory givens"), "{error}");
    }
}
