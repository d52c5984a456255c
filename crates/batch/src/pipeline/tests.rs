//! Tests of the streaming pipeline: rows in order whatever the threads and
//! batches, progress reports, a read error, Ctrl-C, and panics that end the
//! run promptly (never a hang) naming the record, with more input than the
//! in-flight cap.

use std::io::{self, BufReader, Cursor, Read};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

use super::*;
use crate::jobs::{EngineKind, SolveJob};
use batchdoku_core::testdata::{EASY, HARD};
use batchdoku_core::{parse_line, InputFormat, ReadOptions};

#[test]
fn fill_row_keeps_the_position_of_invalid_records_as_data() {
    let lines = [
        HARD.as_bytes(),
        b"not a puzzle",
        b"33...............................................................................",
    ];
    let job = SolveJob {
        count_limit: 2,
        engine: EngineKind::Mrv,
        difficulty: false,
    };
    let mut scratch = job.scratch();
    let record = Record::default();
    let mut row = Row::default();
    let source: Arc<str> = Arc::from("mem");
    let mut fill = |i: usize| {
        let puzzle = parse_line(lines[i]);
        let at = Position {
            source: &source,
            line: i as u64 + 1,
            index: i as u64 + 1,
        };
        fill_row(&job, &mut scratch, puzzle.as_ref(), &record, &at, &mut row);
        assert_eq!((&*row.source, row.line), ("mem", i as u64 + 1));
        (row.status, row.solution, row.error.clone())
    };
    let (status, solution, error) = fill(0);
    assert_eq!((status, error.as_str()), (Status::Unique, ""));
    assert!(solution.unwrap().solves(&parse_line(lines[0]).unwrap()));
    let (status, solution, error) = fill(1);
    assert_eq!(status, Status::Invalid);
    assert_eq!(solution, None);
    // The position is data in the row; the error is the message alone.
    assert_eq!(error, "bad character 'n' at column 1");
    // The row is reused: nothing of the previous record is left.
    let (status, _, error) = fill(2);
    assert_eq!(status, Status::Invalid);
    assert!(error.starts_with("contradictory givens"), "{error}");
}

/// Runs `f` on another thread and fails the test if it takes longer than
/// `secs` seconds: a hang shows as a failure, not as a stuck test run.
pub(crate) fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("still running after {secs} s: a hang"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the run panicked instead of failing"),
    }
}

/// `n` puzzle lines after one blank line, so record `i` is on line `i + 1`.
fn text(n: usize) -> String {
    let mut text = String::from("\n");
    for i in 0..n {
        text.push_str(if i % 3 == 0 { HARD } else { EASY });
        text.push('\n');
    }
    text
}

/// An input named `name` over any byte source, read as lines.
fn input_from(name: &str, source: Source, size: Option<u64>) -> Input {
    let options = ReadOptions {
        format: InputFormat::Line,
        ..ReadOptions::default()
    };
    Input::from_source(name, source, size, &options).unwrap()
}

/// An input named `name` holding `text`.
fn input(name: &str, text: &str) -> Input {
    let bytes = text.as_bytes().to_vec();
    let size = Some(bytes.len() as u64);
    input_from(name, Box::new(Cursor::new(bytes)), size)
}

fn solve_job() -> SolveJob {
    SolveJob {
        count_limit: 2,
        engine: EngineKind::Mrv,
        difficulty: false,
    }
}

fn config(threads: usize, batch_size: usize) -> Config {
    Config {
        threads,
        batch_size,
        format: OutputFormat::Csv,
        columns: crate::output::SOLVE_COLUMNS.to_vec(),
        kept_names: Vec::new(),
        header: true,
        as_written: None,
    }
}

/// Runs `job` over `inputs` into a file in a fresh directory; returns the
/// result, the file's bytes when the run was kept, and how many files the
/// directory holds after the sink is finished (ok) or dropped (error).
fn run_into_file<J: Job>(
    job: &J,
    inputs: Vec<Input>,
    config: &Config,
    quit: &AtomicBool,
    progress: &dyn Progress,
) -> (Result<Report, Fatal>, Option<Vec<u8>>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let mut sink = Sink::file(&path).unwrap();
    let counter = Arc::new(AtomicU64::new(0));
    let result = run(job, inputs, &mut sink, config, quit, &counter, progress);
    let kept = match &result {
        Ok(report) => {
            let mut report = *report;
            finish(sink, &mut report).unwrap();
            std::fs::read(&path).ok()
        }
        Err(_) => {
            drop(sink);
            None
        }
    };
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    (result, kept, files)
}

#[test]
fn rows_are_in_order_whatever_the_threads_and_batches() {
    let text = text(100);
    let quit = AtomicBool::new(false);
    let (first, one, _) = run_into_file(
        &solve_job(),
        vec![input("a", &text), input("b", &text)],
        &config(1, 1000),
        &quit,
        &(),
    );
    let report = first.unwrap();
    assert_eq!(report.totals.records, 200);
    assert!(!report.interrupted && !report.broken_pipe);
    let one = one.unwrap();
    for (threads, batch) in [(2, 1), (3, 7), (4, 64)] {
        let (result, other, _) = run_into_file(
            &solve_job(),
            vec![input("a", &text), input("b", &text)],
            &config(threads, batch),
            &quit,
            &(),
        );
        result.unwrap();
        assert_eq!(other.unwrap(), one, "{threads} threads, batches of {batch}");
    }
    let text = String::from_utf8(one).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 201);
    for (i, line) in lines[1..].iter().enumerate() {
        assert!(line.starts_with(&format!("{},", i + 1)), "row {i}: {line}");
    }
}

/// Remembers every call a run makes.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<String>>,
}

impl Progress for Recorder {
    fn start(&self, total: Option<u64>) {
        self.calls.lock().unwrap().push(format!("start {total:?}"));
    }
    fn update(&self, records: u64, position: u64) {
        self.calls
            .lock()
            .unwrap()
            .push(format!("update {records} {position}"));
    }
    fn finish(&self) {
        self.calls.lock().unwrap().push("finish".into());
    }
}

#[test]
fn progress_hears_of_every_batch_in_order() {
    let text = text(50);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::write(&path, &text).unwrap();
    let counter = Arc::new(AtomicU64::new(0));
    let input = open_as(&path, "in.txt", &ReadOptions::default(), counter.clone()).unwrap();
    let recorder = Recorder::default();
    let mut sink = Sink::file(&dir.path().join("out.csv")).unwrap();
    let quit = AtomicBool::new(false);
    let report = run(
        &solve_job(),
        vec![input],
        &mut sink,
        &config(2, 8),
        &quit,
        &counter,
        &recorder,
    )
    .unwrap();
    assert_eq!(report.totals.records, 50);
    let calls = recorder.calls.into_inner().unwrap();
    assert_eq!(calls[0], format!("start Some({})", text.len()));
    assert_eq!(calls.last().unwrap(), "finish");
    let updates: Vec<(u64, u64)> = calls[1..calls.len() - 1]
        .iter()
        .map(|c| {
            let mut words = c.split(' ').skip(1).map(|w| w.parse::<u64>().unwrap());
            (words.next().unwrap(), words.next().unwrap())
        })
        .collect();
    // Batches of 8 records: 8, 16, ..., 48, then 50.
    let records: Vec<u64> = updates.iter().map(|u| u.0).collect();
    let want: Vec<u64> = (1..=7).map(|b| (8 * b).min(50)).collect();
    assert_eq!(records, want);
    // Positions are input bytes read, never decreasing, all of it at the end.
    assert!(updates.windows(2).all(|w| w[0].1 <= w[1].1), "{updates:?}");
    assert_eq!(updates.last().unwrap().1, text.len() as u64);
}

/// Solves like [`SolveJob`], but panics on record `at` (or, with
/// `in_scratch`, when a worker starts).
struct Panicking {
    at: u64,
    in_scratch: bool,
}

impl Job for Panicking {
    type Scratch = <SolveJob as Job>::Scratch;

    fn scratch(&self) -> Self::Scratch {
        if self.in_scratch {
            panic!("no scratch today");
        }
        solve_job().scratch()
    }

    fn process(&self, scratch: &mut Self::Scratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        if row.index == self.at {
            panic!("test panic on record {}", self.at);
        }
        solve_job().process(scratch, puzzle, record, row);
    }
}

/// A panicking worker ends the run at once with an error naming the
/// record and its line; nothing is kept. The input is far longer than the
/// in-flight cap (4 x threads + 4 batches), which is what used to hang:
/// the reader waited for a free batch, the writer for the lost one.
#[test]
fn a_panicking_worker_ends_the_run_naming_the_record() {
    for (threads, batch, at) in [
        (1, 1, 1),
        (2, 1, 150),
        (3, 4, 299),
        (2, 64, 300),
        (4, 2, 77),
    ] {
        let (result, kept, files) = within(20, move || {
            let job = Panicking {
                at,
                in_scratch: false,
            };
            let inputs = vec![input("first.txt", &text(10)), input("mem.txt", &text(290))];
            run_into_file(
                &job,
                inputs,
                &config(threads, batch),
                &AtomicBool::new(false),
                &(),
            )
        });
        let err = result.unwrap_err();
        let (source, line) = if at <= 10 {
            ("first.txt", at + 1)
        } else {
            ("mem.txt", at - 10 + 1)
        };
        match &err {
            Fatal::Panicked {
                site:
                    PanicSite::Record {
                        index,
                        source: name,
                        line: l,
                    },
                message,
            } => {
                assert_eq!((*index, &**name, *l), (at, source, line), "{err}");
                assert_eq!(message, &format!("test panic on record {at}"));
            }
            other => panic!("not a panic error: {other:?}"),
        }
        assert_eq!(
            err.to_string(),
            format!("worker panicked on record {at} ({source}:{line}): test panic on record {at}")
        );
        assert_eq!((kept, files), (None, 0), "output kept after a panic");
    }
}

#[test]
fn a_worker_panicking_as_it_starts_ends_the_run() {
    let (result, _, files) = within(20, || {
        let job = Panicking {
            at: 0,
            in_scratch: true,
        };
        let inputs = vec![input("mem", &text(300))];
        run_into_file(&job, inputs, &config(2, 1), &AtomicBool::new(false), &())
    });
    let err = result.unwrap_err();
    assert_eq!(
        err.to_string(),
        "worker panicked while starting: no scratch today"
    );
    assert_eq!(files, 0);
}

/// Gives `head`, then blocks until `release` is dropped, then ends.
struct Stalling {
    head: Cursor<Vec<u8>>,
    release: mpsc::Receiver<()>,
}

impl Read for Stalling {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.head.read(buf)?;
        if n == 0 {
            let _ = self.release.recv();
        }
        Ok(n)
    }
}

/// A run that has failed does not wait for a reader stuck on its input
/// (a terminal, a stalled pipe).
#[test]
fn a_stopped_run_does_not_wait_for_a_stalled_reader() {
    let (release, stalled) = mpsc::channel::<()>();
    let result = within(10, move || {
        let source: Source = Box::new(BufReader::new(Stalling {
            head: Cursor::new(text(20).into_bytes()),
            release: stalled,
        }));
        let job = Panicking {
            at: 5,
            in_scratch: false,
        };
        let inputs = vec![input_from("<stdin>", source, None)];
        let (result, _, files) =
            run_into_file(&job, inputs, &config(2, 1), &AtomicBool::new(false), &());
        assert_eq!(files, 0);
        result
    });
    drop(release);
    let err = result.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("worker panicked on record 5 (<stdin>:6): "),
        "{err}"
    );
}

/// Fails after `good` bytes.
struct FailingAfter {
    good: Cursor<Vec<u8>>,
}

impl Read for FailingAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.good.read(buf)? {
            0 => Err(io::Error::other("disk on fire")),
            n => Ok(n),
        }
    }
}

#[test]
fn a_read_error_is_fatal_and_keeps_nothing() {
    let (result, kept, files) = within(20, || {
        let source: Source = Box::new(BufReader::with_capacity(
            64,
            FailingAfter {
                good: Cursor::new(text(300).into_bytes()),
            },
        ));
        let inputs = vec![input_from("bad.txt", source, None)];
        run_into_file(
            &solve_job(),
            inputs,
            &config(2, 4),
            &AtomicBool::new(false),
            &(),
        )
    });
    let err = result.unwrap_err();
    assert_eq!(err.to_string(), "bad.txt: disk on fire");
    assert_eq!((kept, files), (None, 0));
}

/// Raises the quit flag on record `at`, as Ctrl-C would.
struct Quitting<'a> {
    at: u64,
    quit: &'a AtomicBool,
}

impl Job for Quitting<'_> {
    type Scratch = <SolveJob as Job>::Scratch;

    fn scratch(&self) -> Self::Scratch {
        solve_job().scratch()
    }

    fn process(&self, scratch: &mut Self::Scratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        if row.index == self.at {
            self.quit.store(true, Ordering::SeqCst);
        }
        solve_job().process(scratch, puzzle, record, row);
    }
}

#[test]
fn a_raised_quit_flag_stops_the_run_and_keeps_nothing() {
    let (report, kept, files) = within(20, || {
        let quit = AtomicBool::new(false);
        let job = Quitting {
            at: 40,
            quit: &quit,
        };
        let inputs = vec![input("mem", &text(3000))];
        let (result, kept, files) = run_into_file(&job, inputs, &config(2, 4), &quit, &());
        (result.unwrap(), kept, files)
    });
    assert!(report.interrupted);
    assert!(report.totals.records < 3000);
    assert_eq!((kept, files), (None, 0));
}
