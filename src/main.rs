//! The `batchdoku` binary: parse arguments, run the command, map the
//! outcome to an exit code. All errors are printed by one function.

mod app;
mod bench_cmd;
mod cli;
mod cli_progress;
mod generate_cmd;
mod test_hook;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    if let Err(err) = test_hook::init() {
        eprintln!("batchdoku: {err}");
        return ExitCode::from(app::EXIT_FATAL);
    }
    app::install_interrupt_handler();
    match app::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("batchdoku: {err:#}");
            ExitCode::from(app::EXIT_FATAL)
        }
    }
}
