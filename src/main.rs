//! The `batchdoku` binary: parse the arguments, run the command, turn how
//! it ended into the exit code. The binary lives in `batchdoku::cli`; every
//! error is printed by one function, `cli::print_error`.

use batchdoku::cli;

use std::process::ExitCode;

use clap::Parser;

use cli::exit::Exit;

/// The system allocator; a failed allocation removes the temporary files
/// and exits 2 (`cli::interrupt`).
#[global_allocator]
static ALLOCATOR: cli::interrupt::Allocator = cli::interrupt::Allocator;

fn main() -> ExitCode {
    // First: an allocation that fails while the arguments are parsed is
    // reported (exit 2) as one that fails later, not a bare abort.
    cli::interrupt::install();
    // clap's own `exit` panics when stderr cannot be written (`2>/dev/full`).
    let args = match cli::args::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    match cli::run(args) {
        Ok(exit) => exit.into(),
        Err(err) => {
            cli::print_error(&err);
            Exit::Fatal.into()
        }
    }
}
