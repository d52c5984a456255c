//! `batchdoku man [COMMAND]`: the man page (roff), or a subcommand's page
//! (`batchdoku-solve(1)`, which the main page refers to), generated from
//! the clap definitions, so it always matches the flags. `man --dir DIR`
//! writes all of them, the main page and every page it refers to, as
//! files.

use std::path::Path;

use anyhow::Context;
use clap::CommandFactory;

use crate::cli::args::{Cli, ManArgs};
use crate::cli::exit::Exit;
use crate::cli::{interrupt, io};

/// Runs `man`: prints the page on stdout (`batchdoku man | man -l -`), or
/// with `--dir` writes every page into that directory.
pub fn run(args: &ManArgs) -> anyhow::Result<Exit> {
    // No page for clap's `help` subcommand (nor `help COMMAND`): it says
    // what `--help` says, and each command has its page.
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    if let Some(dir) = &args.dir {
        return write_pages(cli, dir);
    }
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

/// Every page with its file name: the command's own (`batchdoku.1`) and,
/// in turn, those of the subcommands its page lists (`batchdoku-solve.1`:
/// clap_mangen names every subcommand that is not hidden).
fn pages(command: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render(&mut page)?;
    out.push((man.get_filename(), page));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages(sub.clone(), out)?;
    }
    Ok(())
}

/// `man --dir DIR`: every page written to a temporary file in `dir`
/// (created if missing), and all renamed into place once all are written,
/// as the other commands keep their outputs; a failure keeps none (and
/// removes a directory the run created).
fn write_pages(cli: clap::Command, dir: &Path) -> anyhow::Result<Exit> {
    let mut all = Vec::new();
    pages(cli, &mut all)?;
    let mut made = io::MadeDir::create(dir, "--dir")?;
    let written = (|| -> anyhow::Result<Exit> {
        let mut flushed = Vec::with_capacity(all.len());
        for (name, page) in &all {
            let path = dir.join(name);
            let mut sink = io::open_file(&path, "--dir")?;
            let page = sink.write_all(page).and_then(|()| sink.flush_all());
            flushed.push(page.with_context(|| format!("--dir {}: cannot write", path.display()))?);
        }
        let mut interrupted = false;
        io::keep_all(None, flushed, None, &mut interrupted, Exit::Ok)?;
        if interrupted {
            return Ok(interrupt::exit());
        }
        eprintln!(
            "batchdoku man: {} pages written to {}",
            all.len(),
            dir.display()
        );
        Ok(Exit::Ok)
    })();
    if !matches!(written, Ok(Exit::Ok)) {
        made.remove();
    }
    written
}
