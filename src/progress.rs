//! The only place progress bars are made: an indicatif bar on stderr,
//! updated once per batch, hidden unless asked for or stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// When to show progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Show when stderr is a terminal.
    Auto,
    /// Always show (`--progress`).
    Always,
    /// Never show (`--quiet`).
    Never,
}

impl ProgressMode {
    /// Whether a bar should be drawn.
    pub fn enabled(self) -> bool {
        match self {
            ProgressMode::Auto => std::io::stderr().is_terminal(),
            ProgressMode::Always => true,
            ProgressMode::Never => false,
        }
    }
}

/// A progress bar over input bytes (when the total size is known) or a
/// spinner (stdin, pipes), showing puzzles done and the rate.
pub fn bar(mode: ProgressMode, total_bytes: Option<u64>) -> ProgressBar {
    if !mode.enabled() {
        return ProgressBar::hidden();
    }
    let pb = match total_bytes {
        Some(total) => {
            let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] [{wide_bar}] {percent:>3}% {msg} (ETA {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            pb
        }
        None => {
            let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            pb.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            pb
        }
    };
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// The bar's message: puzzles done and the rate.
pub fn message(done: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    format!("{done} puzzles, {rate:.0}/s")
}
