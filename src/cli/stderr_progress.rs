//! Progress on stderr, the binary's [`Progress`]: an indicatif bar on a
//! terminal; with `--progress` and stderr not a terminal (a log file, a CI
//! job), plain lines at a steady interval, such as
//! `batchdoku: 120000 puzzles, 60000/s, 45%, 2.0 s`; nothing with
//! `--quiet`, or by default when stderr is not a terminal.
//!
//! The interval of the plain lines is one second.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use batchdoku_batch::Progress;

/// When to show progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Show a bar when stderr is a terminal.
    Auto,
    /// Always show (`--progress`): a bar on a terminal, else plain lines.
    Always,
    /// Never show (`--quiet`).
    Never,
}

/// The interval of plain progress lines.
const LINE_INTERVAL: Duration = Duration::from_secs(1);

/// The binary's progress display, for one run.
pub struct StderrProgress {
    kind: Kind,
}

enum Kind {
    Hidden,
    /// The bar, made by `start` (which knows the total).
    Bar(Mutex<Option<ProgressBar>>),
    Lines(Lines),
}

impl StderrProgress {
    /// A display for `mode`, deciding now whether stderr is a terminal.
    pub fn new(mode: ProgressMode) -> StderrProgress {
        let terminal = std::io::stderr().is_terminal();
        let kind = match mode {
            ProgressMode::Never => Kind::Hidden,
            _ if terminal => Kind::Bar(Mutex::new(None)),
            ProgressMode::Auto => Kind::Hidden,
            ProgressMode::Always => Kind::Lines(Lines::new(LINE_INTERVAL)),
        };
        StderrProgress { kind }
    }
}

impl Progress for StderrProgress {
    fn start(&self, total: Option<u64>) {
        match &self.kind {
            Kind::Hidden => {}
            Kind::Bar(bar) => *lock(bar) = Some(new_bar(total)),
            Kind::Lines(lines) => lines.start(total),
        }
    }

    fn update(&self, records: u64, position: u64) {
        match &self.kind {
            Kind::Hidden => {}
            Kind::Bar(bar) => {
                if let Some(bar) = lock(bar).as_ref() {
                    bar.set_position(position);
                    bar.set_message(message(records, bar.elapsed()));
                }
            }
            Kind::Lines(lines) => lines.update(records, position),
        }
    }

    fn finish(&self) {
        match &self.kind {
            Kind::Hidden => {}
            Kind::Bar(bar) => {
                if let Some(bar) = lock(bar).take() {
                    bar.finish_and_clear();
                }
            }
            Kind::Lines(lines) => lines.finish(),
        }
    }
}

impl Drop for StderrProgress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Locks a mutex, even one poisoned by a panic elsewhere.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A progress bar over the total (input bytes or puzzles) when known, or
/// a spinner (stdin, pipes), showing puzzles done and the rate.
fn new_bar(total: Option<u64>) -> ProgressBar {
    let (bar, template) = match total {
        Some(total) => (
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()),
            "{spinner} [{elapsed_precise}] [{wide_bar}] {percent:>3}% {msg} (ETA {eta})",
        ),
        None => (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "{spinner} [{elapsed_precise}] {msg}",
        ),
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The bar's message: puzzles done and the rate.
fn message(done: u64, elapsed: Duration) -> String {
    format!("{done} puzzles, {:.0}/s", rate(done, elapsed))
}

fn rate(done: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        done as f64 / secs
    } else {
        0.0
    }
}

/// Plain lines on stderr from a ticker thread, every `interval`, whether
/// or not a batch was written meanwhile (one slow puzzle still shows).
struct Lines {
    interval: Duration,
    state: Arc<LineState>,
    /// Dropping the sender stops the ticker.
    ticker: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

/// What the writer last reported.
#[derive(Default)]
struct LineState {
    records: AtomicU64,
    position: AtomicU64,
}

impl Lines {
    fn new(interval: Duration) -> Lines {
        Lines {
            interval,
            state: Arc::default(),
            ticker: Mutex::new(None),
        }
    }

    fn start(&self, total: Option<u64>) {
        self.finish();
        self.state.records.store(0, Ordering::Relaxed);
        self.state.position.store(0, Ordering::Relaxed);
        let (stop_tx, stop_rx) = mpsc::channel::<()>();
        let state = self.state.clone();
        let interval = self.interval;
        let started = Instant::now();
        let ticker = std::thread::Builder::new()
            .name("batchdoku-progress".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = stop_rx.recv_timeout(interval) {
                    let line = plain_line(
                        state.records.load(Ordering::Relaxed),
                        state.position.load(Ordering::Relaxed),
                        total,
                        started.elapsed(),
                    );
                    // A progress line that cannot be written is dropped.
                    let _ = writeln!(std::io::stderr().lock(), "{line}");
                }
            });
        // Without a thread, no lines: the run itself is unaffected.
        if let Ok(handle) = ticker {
            *lock(&self.ticker) = Some((stop_tx, handle));
        }
    }

    fn update(&self, records: u64, position: u64) {
        self.state.records.store(records, Ordering::Relaxed);
        self.state.position.store(position, Ordering::Relaxed);
    }

    fn finish(&self) {
        if let Some((stop, handle)) = lock(&self.ticker).take() {
            drop(stop);
            let _ = handle.join();
        }
    }
}

/// One plain progress line: `batchdoku: 120000 puzzles, 60000/s, 45%,
/// 2.0 s` (the percentage only when the total is known).
fn plain_line(records: u64, position: u64, total: Option<u64>, elapsed: Duration) -> String {
    let percent = match total {
        Some(total) if total > 0 => {
            format!(
                ", {:.0}%",
                100.0 * position.min(total) as f64 / total as f64
            )
        }
        _ => String::new(),
    };
    format!(
        "batchdoku: {records} puzzles, {:.0}/s{percent}, {:.1} s",
        rate(records, elapsed),
        elapsed.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_say_records_rate_and_percent_when_known() {
        let two = Duration::from_secs(2);
        assert_eq!(
            plain_line(120, 450, Some(1000), two),
            "batchdoku: 120 puzzles, 60/s, 45%, 2.0 s"
        );
        assert_eq!(
            plain_line(120, 450, None, two),
            "batchdoku: 120 puzzles, 60/s, 2.0 s"
        );
        assert_eq!(
            plain_line(0, 0, Some(0), Duration::ZERO),
            "batchdoku: 0 puzzles, 0/s, 0.0 s"
        );
    }
}
