//! Stopping on a signal. SIGINT (Ctrl-C) and SIGTERM (what `timeout`,
//! docker, systemd and Kubernetes send) are handled alike, by a dedicated
//! thread (`signal-hook`), so that stopping never depends on the rest of
//! the process making progress:
//!
//! 1. the first signal raises the quit flag the pipeline polls; a run that
//!    notices it stops, drops its output and exits 130 (SIGINT) or 143
//!    (SIGTERM) on its own;
//! 2. a run that has not ended after a short grace period (a reader
//!    blocked on an idle terminal or a stalled pipe, stdin being spooled,
//!    one slow record), or a second signal, ends the process from the
//!    signal thread: every registered temporary file (the `-o` temporary
//!    file, a stdin spool) is removed, then the process exits with the
//!    same code.
//!
//! Keeping a finished output ([`commit`]) and that exit exclude each other,
//! so a signal never leaves a half-renamed output nor removes a kept one.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use super::exit::Exit;

/// How long a run may take to stop by itself after the first signal.
const GRACE: Duration = Duration::from_millis(400);

/// Raised by the first signal; the pipeline stops at the next batch.
static QUIT: AtomicBool = AtomicBool::new(false);
/// The first signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Temporary files to remove when a signal ends the process. Its lock is
/// also held while an output is committed.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Starts the signal thread. Without it (the thread or the handlers could
/// not be set up) signals keep their default action: the process dies at
/// once with nothing removed, as before this was installed.
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("batchdoku-signals".into())
        .spawn(move || {
            let Some(first) = signals.forever().next() else {
                return;
            };
            SIGNAL.store(first, Ordering::SeqCst);
            QUIT.store(true, Ordering::SeqCst);
            let deadline = Instant::now() + GRACE;
            while Instant::now() < deadline {
                if signals.pending().next().is_some() {
                    break; // a second signal: stop waiting
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let paths = registry();
            for path in paths.iter() {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(exit().into());
        });
}

/// The quit flag the pipeline polls.
pub fn flag() -> &'static AtomicBool {
    &QUIT
}

/// Whether a signal has asked the run to stop.
pub fn raised() -> bool {
    QUIT.load(Ordering::SeqCst)
}

/// The exit code of a run stopped by a signal: 143 for SIGTERM, else 130.
pub fn exit() -> Exit {
    match SIGNAL.load(Ordering::SeqCst) {
        SIGTERM => Exit::Terminated,
        _ => Exit::Interrupted,
    }
}

/// Registers a temporary file, removed if a signal ends the process.
pub fn register(path: &Path) {
    registry().push(path.to_path_buf());
}

/// Forgets a temporary file (renamed into place, or removed).
pub fn unregister(path: &Path) {
    registry().retain(|p| p != path);
}

/// Runs `keep` (which renames a finished output into place) unless a
/// signal has already asked the run to stop; `None` when it did not run.
/// A signal's exit waits until `keep` has returned.
pub fn commit<T>(keep: impl FnOnce() -> T) -> Option<T> {
    let _exclusive = registry();
    if raised() {
        return None;
    }
    Some(keep())
}

/// Runs `keep` (which renames a file into place) whether or not a signal
/// has arrived (the summary of an interrupted run says so), but never
/// while a signal's exit removes the temporary files.
pub fn exclusive<T>(keep: impl FnOnce() -> T) -> T {
    let _exclusive = registry();
    keep()
}

/// The registry, usable even if a thread panicked while holding it.
fn registry() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|e| e.into_inner())
}
