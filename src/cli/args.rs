//! The command line as clap types: the subcommands ([`Command`]) here,
//! their arguments in one file per group of commands, the flag groups
//! every streaming command shares in `shared` ([`RunArgs`] and the
//! others, each one definition, and [`RecordCommand`], the four together,
//! flattened once into each record command), and in `vocab` the value
//! parsers of the flags whose values are a library vocabulary (formats,
//! engines, symmetries), listed and parsed by the library. Shell
//! completions and the man page are generated from these same
//! definitions.

mod classes;
mod generating;
mod measuring;
mod meta;
mod reporting;
mod shared;
mod solving;
mod vocab;

use clap::{Parser, Subcommand};

pub use classes::{CanonArgs, DedupeArgs, OverlapArgs, SplitArgs};
pub use generating::GenerateArgs;
pub use measuring::{BenchArgs, SimdChoice, TableFormat};
pub use meta::{CompletionsArgs, LicensesArgs, ManArgs, ShellArg};
pub use reporting::{ReportArgs, ReportFormatArg};
pub use shared::{CheckpointArgs, InputArgs, RecordArgs, RecordCommand, RowArgs, RunArgs};
pub use solving::{RateArgs, ScoreArgs, SolveArgs};

use classes::{DEDUPE_ABOUT, OVERLAP_ABOUT, SPLIT_ABOUT};
use reporting::REPORT_ABOUT;
use solving::RATE_ABOUT;

/// Bulk 9x9 Sudoku solver: streams puzzle files through all cores and
/// writes one CSV row per puzzle, in input order.
#[derive(Debug, Parser)]
#[command(name = "batchdoku", version = VERSION, propagate_version = true, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 = all records processed, none invalid; 1 = some records invalid; \
2 = fatal error (usage, unreadable input, unwritable output, out of memory); 130 = interrupted \
(SIGINT, Ctrl-C); 143 = terminated (SIGTERM); 128 + N = stopped by another signal N (SIGHUP: 129, \
SIGQUIT: 131). Licences: MIT OR Apache-2.0; the default build also contains the LGPL-2.1-or-later \
rater batchdoku-rate (a derivative of Sudoku Explainer): `batchdoku licenses` says more."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The version `--version` prints: the package version and, when built
/// from a git checkout, the commit (set by `build.rs`).
pub const VERSION: &str = env!("BATCHDOKU_VERSION");

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzles: first solution, or count solutions up to a limit.
    Solve(SolveArgs),
    /// Best score over all solutions of each puzzle (branch-and-bound):
    /// the maximum of sum(weight x digit), -1 when there is no solution.
    Score(ScoreArgs),
    /// Human difficulty of each puzzle: Sudoku Explainer's ER/EP/ED
    /// ratings, the hardest technique and the steps by technique.
    #[command(long_about = RATE_ABOUT)]
    Rate(RateArgs),
    /// Canonical (minlex) form of each puzzle and the transformation that
    /// maps the puzzle to it.
    Canon(CanonArgs),
    /// Keep the first puzzle of each equivalence class (or, with --exact,
    /// of each identical puzzle), in input order.
    #[command(long_about = DEDUPE_ABOUT)]
    Dedupe(DedupeArgs),
    /// Report every TEST puzzle equivalent to some TRAIN puzzle (exit code
    /// 1 when there is any, 0 when the splits are disjoint).
    #[command(long_about = OVERLAP_ABOUT)]
    Overlap(OverlapArgs),
    /// Assign each puzzle to train, validation or test (by ratios, from a
    /// seed), keeping every equivalence class on one side.
    #[command(long_about = SPLIT_ABOUT)]
    Split(SplitArgs),
    /// Measure solver throughput in memory (no I/O timed), per thread count.
    Bench(BenchArgs),
    /// Generate puzzles with exactly one solution, reproducibly from a seed.
    Generate(GenerateArgs),
    /// A corpus at a glance: totals, distributions (givens, guesses,
    /// backtracks, singles, scores) and duplicates, as an HTML page with
    /// plots, Markdown or JSON.
    #[command(long_about = REPORT_ABOUT)]
    Report(ReportArgs),
    /// Print a shell completion script to stdout (e.g. `batchdoku
    /// completions bash > ~/.local/share/bash-completion/completions/batchdoku`).
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout (e.g. `batchdoku man | man -l -`),
    /// or a subcommand's page (`batchdoku man solve`).
    Man(ManArgs),
    /// What this binary contains and under which licences: MIT OR
    /// Apache-2.0, and with the rater (the default build) its LGPL-2.1
    /// part and where that part's complete source is.
    Licenses(LicensesArgs),
}
