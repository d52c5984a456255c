//! The arguments of the commands that print what clap or the build
//! knows, rather than run puzzles: `completions`, `man` and `licenses`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// `batchdoku licenses`.
#[derive(Debug, Args)]
pub struct LicensesArgs {
    /// Also print the rater's NOTICE and the full text of the LGPL-2.1.
    #[arg(long)]
    pub full: bool,
}

/// `batchdoku man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The subcommand whose page to print (the page `batchdoku-COMMAND`
    /// that the main page refers to); none: the main page.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
    /// Write every page into DIR instead (created if missing): batchdoku.1
    /// and batchdoku-COMMAND.1 for each command the main page names, e.g.
    /// `--dir ~/.local/share/man/man1`. Each page is written to a
    /// temporary file and renamed when all are written.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// `batchdoku completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: ShellArg,
}

/// `completions SHELL`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ShellArg {
    /// GNU Bash.
    Bash,
    /// Z shell.
    Zsh,
    /// fish.
    Fish,
    /// PowerShell.
    Powershell,
}

impl From<ShellArg> for clap_complete::Shell {
    fn from(s: ShellArg) -> Self {
        match s {
            ShellArg::Bash => clap_complete::Shell::Bash,
            ShellArg::Zsh => clap_complete::Shell::Zsh,
            ShellArg::Fish => clap_complete::Shell::Fish,
            ShellArg::Powershell => clap_complete::Shell::PowerShell,
        }
    }
}
