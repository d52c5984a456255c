//! The `batchdoku` binary, apart from the library: the command line
//! ([`args`]), the exit codes ([`exit`]), signal handling ([`interrupt`]),
//! opening inputs and outputs ([`io`]), resuming a stopped run
//! ([`checkpoint`]) and one module per command ([`cmd`]). Dependencies
//! point one way: `cmd` uses the others, `checkpoint` uses `io`, `io` uses
//! `interrupt`, `interrupt` uses `exit`, and `args` and `exit` use none.

pub mod args;
pub mod checkpoint;
pub mod cmd;
pub mod exit;
pub mod interrupt;
pub mod io;
pub mod run_summary;
pub mod stderr_progress;
pub mod throughput;

use exit::Exit;

/// Runs the parsed command line.
pub fn run(cli: args::Cli) -> anyhow::Result<Exit> {
    cmd::run(cli.command)
}

/// Writes one line to stderr. A failure (a full disk, a closed pipe) is
/// ignored: the line is a report, and the exit code still tells how the
/// run ended.
pub(crate) fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// The one error printer: `batchdoku: ` and the error with its causes.
/// A failure to write to stderr is ignored (there is nowhere left to say
/// it); the exit code still tells.
pub fn print_error(err: &anyhow::Error) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "batchdoku: {err:#}");
}
