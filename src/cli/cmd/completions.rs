//! `batchdoku completions SHELL`: a completion script for the shell,
//! generated from the clap definitions, so it always matches the flags.

use clap::CommandFactory;

use crate::cli::args::{Cli, CompletionsArgs};
use crate::cli::exit::Exit;

/// Runs `completions`: prints the script on stdout.
pub fn run(args: &CompletionsArgs) -> anyhow::Result<Exit> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(
        clap_complete::Shell::from(args.shell),
        &mut command,
        "batchdoku",
        &mut script,
    );
    super::print_stdout(&script)?;
    Ok(Exit::Ok)
}
