//! Streaming generation (`batchdoku generate`): a pool of workers, each
//! with its own solver, makes numbered chunks of puzzles; the calling
//! thread writes the chunks in index order to the sink.
//!
//! ```text
//! writer ──chunk numbers (bounded)──▶ workers ──encoded chunks──▶ writer ──▶ sink
//! ```
//!
//! Puzzle `i` depends only on the seed and `i` (see [`Generator`]), and
//! the writer reorders chunks, so the bytes written are the same for any
//! thread count and chunk size. At most `in_flight` chunks exist at once,
//! so memory does not grow with the count. Chunk buffers are recycled.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, Receiver, Sender};

use crate::generate::{GenerateError, Generated, Generator};
use crate::output::OutputFormat;
use crate::pipeline::{build_pool, Sink};
use crate::progress::{self, ProgressMode};
use crate::solver::Solver;

/// How a generation run is shaped.
#[derive(Clone, Copy, Debug)]
pub struct StreamConfig {
    /// Index of the first puzzle (puzzles `start..start + count` are made).
    pub start: u64,
    /// Number of puzzles.
    pub count: u64,
    /// Worker threads.
    pub threads: usize,
    /// Most puzzles per chunk handed to a worker (fewer when the count is
    /// small, so that every worker gets about four chunks).
    pub chunk_size: usize,
    /// `Line`: the puzzle, 81 characters with `.` for blanks; `Csv`:
    /// `puzzle,solution`; `Jsonl`: index, givens, puzzle and solution.
    pub format: OutputFormat,
    /// Write the CSV header row.
    pub header: bool,
    /// When to draw the progress bar.
    pub progress: ProgressMode,
}

/// How a generation run ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamReport {
    /// Puzzles written.
    pub puzzles: u64,
    /// Attempts over the puzzles written (equal to `puzzles` when every
    /// first attempt met the spec).
    pub attempts: u64,
    /// Givens over the puzzles written.
    pub givens: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The quit flag was raised (Ctrl-C) before the end.
    pub interrupted: bool,
    /// stdout was closed by its reader: the run stopped quietly.
    pub broken_pipe: bool,
}

/// A fatal error: the output is incomplete and was not kept.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Write(#[source] io::Error),
    /// The worker pool could not start.
    #[error("starting worker threads: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// A puzzle failed its final check (a bug).
    #[error(transparent)]
    Generate(GenerateError),
}

/// One chunk of work: puzzles `first..end`, encoded into `out`.
struct Chunk {
    seq: u64,
    first: u64,
    end: u64,
    out: Vec<u8>,
    totals: StreamReport,
    /// `Err` when the chunk was abandoned (stopped) or a check failed.
    result: Result<(), GenerateError>,
}

/// Makes puzzles `config.start..config.start + config.count` of
/// `generator` and writes them to `sink` in index order. `quit` is polled
/// between puzzles (Ctrl-C). The sink is finished (renamed into place) only
/// when the run completed.
pub fn run(
    generator: &Generator,
    mut sink: Sink,
    config: &StreamConfig,
    quit: &AtomicBool,
) -> Result<StreamReport, StreamError> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    // Small runs get smaller chunks, so every worker has some (about four
    // chunks per worker); the chunking never changes the output.
    let fair_share = config.count.div_ceil(4 * threads as u64).max(1);
    let chunk_size = (config.chunk_size.max(1) as u64).min(fair_share);
    let chunks = config.count.div_ceil(chunk_size);
    // Many small chunks in flight let the other workers run ahead of one slow
    // puzzle (retries vary a lot) while memory stays tiny.
    let in_flight = (8 * threads + 8) as u64;
    let bar = progress::bar(config.progress, Some(config.count));
    let pool = build_pool(threads)?;
    // Raised by the writer when it stops early, so workers drop the rest.
    let cancel = AtomicBool::new(false);
    let stop = || quit.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed);

    let (work_tx, work_rx) = bounded::<Chunk>(in_flight as usize);
    let (done_tx, done_rx) = bounded::<Chunk>(in_flight as usize);
    let mut report = StreamReport::default();
    let written = pool.in_place_scope(|s| {
        for _ in 0..threads {
            let (work_rx, done_tx) = (work_rx.clone(), done_tx.clone());
            let stop = &stop;
            s.spawn(move |_| work(generator, config.format, stop, &work_rx, &done_tx));
        }
        drop(done_tx);
        let plan = Plan {
            chunks,
            chunk_size,
            in_flight,
        };
        let result = write_in_order(
            &mut sink,
            config,
            &plan,
            work_tx,
            &done_rx,
            quit,
            &mut report,
            &bar,
        );
        cancel.store(true, Ordering::Relaxed);
        result
    });
    bar.finish_and_clear();
    written?;
    report.elapsed = start.elapsed();
    report.interrupted = quit.load(Ordering::SeqCst) && report.puzzles < config.count;
    if !report.interrupted && !report.broken_pipe {
        match sink.finish() {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => report.broken_pipe = true,
            Err(e) => return Err(StreamError::Write(e)),
        }
    }
    Ok(report)
}

/// How the run is cut into chunks.
struct Plan {
    /// Number of chunks.
    chunks: u64,
    /// Puzzles per chunk (the last one may be shorter).
    chunk_size: u64,
    /// Most chunks out at once (sent and not yet written).
    in_flight: u64,
}

/// The writer (the calling thread): hands out chunk numbers while fewer
/// than `in_flight` are out, writes finished chunks in order, recycles
/// their buffers. Returns when every chunk is written, on Ctrl-C, or when
/// stdout is closed (`report.broken_pipe`).
#[allow(clippy::too_many_arguments)]
fn write_in_order(
    sink: &mut Sink,
    config: &StreamConfig,
    plan: &Plan,
    work_tx: Sender<Chunk>,
    done_rx: &Receiver<Chunk>,
    quit: &AtomicBool,
    report: &mut StreamReport,
    bar: &indicatif::ProgressBar,
) -> Result<(), StreamError> {
    let start = Instant::now();
    let Plan {
        chunks,
        chunk_size,
        in_flight,
    } = *plan;
    let write =
        |sink: &mut Sink, bytes: &[u8], report: &mut StreamReport| match sink.write_all(bytes) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                report.broken_pipe = true;
                Ok(false)
            }
            Err(e) => Err(StreamError::Write(e)),
        };
    if config.header && config.format == OutputFormat::Csv && !write(sink, HEADER, report)? {
        return Ok(());
    }
    let end = config.start + config.count;
    let mut free: Vec<Vec<u8>> = Vec::new();
    let mut pending: BTreeMap<u64, Chunk> = BTreeMap::new();
    let (mut sent, mut next) = (0u64, 0u64);
    while next < chunks {
        while sent < chunks && sent - next < in_flight {
            let first = config.start + sent * chunk_size;
            let chunk = Chunk {
                seq: sent,
                first,
                end: (first + chunk_size).min(end),
                out: free.pop().unwrap_or_default(),
                totals: StreamReport::default(),
                result: Ok(()),
            };
            if work_tx.send(chunk).is_err() {
                return Ok(()); // every worker is gone: only after a panic
            }
            sent += 1;
        }
        let Ok(chunk) = done_rx.recv() else {
            return Ok(());
        };
        if quit.load(Ordering::Relaxed) {
            return Ok(());
        }
        pending.insert(chunk.seq, chunk);
        while let Some(mut chunk) = pending.remove(&next) {
            chunk.result.map_err(StreamError::Generate)?;
            if !write(sink, &chunk.out, report)? {
                return Ok(());
            }
            report.puzzles += chunk.totals.puzzles;
            report.attempts += chunk.totals.attempts;
            report.givens += chunk.totals.givens;
            next += 1;
            bar.set_position(report.puzzles);
            bar.set_message(progress::message(report.puzzles, start.elapsed()));
            chunk.out.clear();
            free.push(chunk.out);
        }
    }
    Ok(())
}

/// A worker: makes chunks until the work channel closes. A chunk is
/// always sent back, even when abandoned, so the writer never waits on it.
fn work(
    generator: &Generator,
    format: OutputFormat,
    stop: &(impl Fn() -> bool + Sync),
    work_rx: &Receiver<Chunk>,
    done_tx: &Sender<Chunk>,
) {
    let mut solver = Solver::new();
    for mut chunk in work_rx.iter() {
        for index in chunk.first..chunk.end {
            if stop() {
                chunk.result = Err(GenerateError::Stopped);
                break;
            }
            match generator.puzzle(index, &mut solver, stop) {
                Ok(g) => {
                    encode(format, index, &g, &mut chunk.out);
                    chunk.totals.puzzles += 1;
                    chunk.totals.attempts += g.attempts;
                    chunk.totals.givens += g.puzzle.given_count() as u64;
                }
                Err(e) => {
                    chunk.result = Err(e);
                    break;
                }
            }
        }
        if done_tx.send(chunk).is_err() {
            return;
        }
    }
}

/// The CSV header.
const HEADER: &[u8] = b"puzzle,solution\n";

/// Appends one output record for puzzle `index`.
fn encode(format: OutputFormat, index: u64, g: &Generated, out: &mut Vec<u8>) {
    let puzzle = g.puzzle.to_line();
    let solution = g.solution.to_line();
    match format {
        OutputFormat::Line => {
            out.extend_from_slice(&puzzle);
        }
        OutputFormat::Csv => {
            out.extend_from_slice(&puzzle);
            out.push(b',');
            out.extend_from_slice(&solution);
        }
        OutputFormat::Jsonl => {
            // Writing into a Vec cannot fail.
            let _ = write!(
                out,
                "{{\"index\":{index},\"givens\":{},\"puzzle\":\"",
                g.puzzle.given_count()
            );
            out.extend_from_slice(&puzzle);
            out.extend_from_slice(b"\",\"solution\":\"");
            out.extend_from_slice(&solution);
            out.extend_from_slice(b"\"}");
        }
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{ClueTarget, Spec};

    fn generator(seed: u64) -> Generator {
        Generator::new(Spec::default(), seed).unwrap()
    }

    fn config(threads: usize, chunk_size: usize, format: OutputFormat) -> StreamConfig {
        StreamConfig {
            start: 0,
            count: 30,
            threads,
            chunk_size,
            format,
            header: true,
            progress: ProgressMode::Never,
        }
    }

    /// Runs into a temporary file and returns its bytes.
    fn bytes(generator: &Generator, config: &StreamConfig) -> (Vec<u8>, StreamReport) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let sink = Sink::file(&path).unwrap();
        let report = run(generator, sink, config, &AtomicBool::new(false)).unwrap();
        (std::fs::read(&path).unwrap(), report)
    }

    #[test]
    fn output_is_independent_of_threads_and_chunks() {
        let g = generator(5);
        let (one, report) = bytes(&g, &config(1, 64, OutputFormat::Csv));
        assert_eq!(report.puzzles, 30);
        assert_eq!(report.attempts, 30);
        assert!(report.givens >= 30 * 17);
        assert!(!report.interrupted && !report.broken_pipe);
        for (threads, chunk) in [(2, 1), (2, 7), (3, 30), (1, 4)] {
            let (other, _) = bytes(&g, &config(threads, chunk, OutputFormat::Csv));
            assert_eq!(other, one, "{threads} threads, chunks of {chunk}");
        }
        let text = String::from_utf8(one).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 31);
        assert_eq!(lines[0], "puzzle,solution");
        let mut solver = Solver::new();
        for (i, line) in lines[1..].iter().enumerate() {
            let expected = g.puzzle(i as u64, &mut solver, || false).unwrap();
            let want = format!(
                "{},{}",
                expected.puzzle.to_line_string(),
                expected.solution.to_line_string()
            );
            assert_eq!(*line, want, "puzzle {i}");
        }
    }

    #[test]
    fn start_offsets_the_indices() {
        let g = generator(9);
        let (all, _) = bytes(&g, &config(2, 4, OutputFormat::Line));
        let mut tail = config(2, 4, OutputFormat::Line);
        tail.start = 10;
        tail.count = 20;
        let (part, _) = bytes(&g, &tail);
        assert_eq!(part, all[10 * 82..]);
        assert!(all.chunks(82).all(|l| l.len() == 82 && l[81] == b'\n'));
    }

    #[test]
    fn jsonl_records_parse() {
        let spec = Spec {
            clues: ClueTarget::AtLeast(30),
            ..Spec::default()
        };
        let g = Generator::new(spec, 1).unwrap();
        let mut cfg = config(2, 3, OutputFormat::Jsonl);
        cfg.count = 5;
        cfg.start = 7;
        let (out, _) = bytes(&g, &cfg);
        let text = String::from_utf8(out).unwrap();
        for (k, line) in text.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["index"], 7 + k as u64);
            let puzzle = v["puzzle"].as_str().unwrap();
            assert_eq!(v["givens"], puzzle.bytes().filter(|&b| b != b'.').count());
            assert!(v["givens"].as_u64().unwrap() >= 30);
            assert_eq!(v["solution"].as_str().unwrap().len(), 81);
        }
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn zero_puzzles_write_only_the_header() {
        let g = generator(1);
        let mut cfg = config(2, 8, OutputFormat::Csv);
        cfg.count = 0;
        let (out, report) = bytes(&g, &cfg);
        assert_eq!(out, HEADER);
        assert_eq!(report.puzzles, 0);
        cfg.format = OutputFormat::Line;
        assert!(bytes(&g, &cfg).0.is_empty());
    }

    #[test]
    fn a_raised_quit_flag_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let sink = Sink::file(&path).unwrap();
        let mut cfg = config(2, 1, OutputFormat::Line);
        cfg.count = 1000;
        let report = run(&generator(2), sink, &cfg, &AtomicBool::new(true)).unwrap();
        assert!(report.interrupted);
        assert!(report.puzzles < 1000);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
