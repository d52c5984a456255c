//! `batchdoku man [COMMAND]`: the man page (roff), or a subcommand's page
//! (`batchdoku-solve(1)`, which the main page refers to), generated from
//! the clap definitions, so it always matches the flags.

use clap::CommandFactory;

use crate::cli::args::{Cli, ManArgs};
use crate::cli::exit::Exit;

/// Runs `man`: prints the page on stdout (`batchdoku man | man -l -`).
pub fn run(args: &ManArgs) -> anyhow::Result<Exit> {
    let mut cli = Cli::command();
    cli.build();
    let command = match &args.command {
        None => cli,
        Some(name) => {
            let name = name.strip_prefix("batchdoku-").unwrap_or(name);
            let Some(sub) = cli.find_subcommand(name) else {
                anyhow::bail!("man: no command {name:?}");
            };
            // Built, it is named `batchdoku-NAME`, as the main page has it.
            sub.clone()
        }
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    super::print_stdout(&page)?;
    Ok(Exit::Ok)
}
