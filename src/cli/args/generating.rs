//! The arguments of `batchdoku generate`: how many puzzles, which ones
//! (givens, minimality, symmetry, rating range), from which seed; the
//! shared run and row flags with generate's own defaults and help.

use std::path::PathBuf;

use clap::Args;

use batchdoku_core::Symmetry;

use super::shared::{RowArgs, RunArgs};
use super::vocab::symmetries;

/// `batchdoku generate`.
#[derive(Debug, Args)]
#[command(mut_arg("format", |a| a.help(GENERATE_FORMAT_HELP)))]
#[command(mut_arg("batch_size", |a| a.default_value("16").help(GENERATE_BATCH_HELP)))]
#[command(after_long_help = "\
Puzzle i (counting from 0) is made from the seed and i alone, so the output is the same for \
every thread count and batch size, and --start I -n M reproduces puzzles I..I+M of a longer \
run. Every puzzle is checked to have exactly one solution before it is written.

How a puzzle is made: a random complete grid, then givens removed in random order (a whole \
symmetry orbit at a time), each removal kept only if the puzzle still has exactly one \
solution. An attempt that misses the target is dropped and the next one continues the same \
random stream.

Default: dig until no given (no orbit) can go. Without --symmetry the puzzle is then \
minimal already.

--min-clues K: stop digging at K givens, so at least K remain.

--clues K: exactly K givens; attempts that get stuck above K are retried. K below 22 is \
slow, since few attempts get that far; 17 is practically out of reach.

--minimal: every given is necessary (removing any single one, whatever the symmetry, leaves \
more than one solution); attempts that are not minimal are retried. With --clues or \
--min-clues the count then selects among minimal puzzles. Slow with --symmetry quarter.

Symmetries (of where the givens are, not of their digits): central = 180-degree turn; \
quarter = 90-degree turn (given counts 0 or 1 modulo 4 only); mirror = left-right \
reflection; diagonal = reflection in the main diagonal.")]
pub struct GenerateArgs {
    /// Number of puzzles.
    #[arg(short = 'n', long = "count", value_name = "N")]
    pub count: u64,

    /// Exactly K givens (17..=81; below 22 is slow, see --help).
    #[arg(long, value_name = "K", conflicts_with = "min_clues",
          value_parser = clap::value_parser!(u8).range(17..=81))]
    pub clues: Option<u8>,

    /// Stop removing givens at K: at least K givens (17..=81).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(17..=81))]
    pub min_clues: Option<u8>,

    /// Only minimal puzzles: no single given can be removed without losing
    /// uniqueness.
    #[arg(long)]
    pub minimal: bool,

    /// Symmetry of the pattern of givens.
    #[arg(long, default_value = "none", value_parser = symmetries())]
    pub symmetry: Symmetry,

    /// Random seed (any u64). Default: drawn from the clock and printed in
    /// the summary; give it to reproduce a run.
    #[arg(long, value_name = "S", value_parser = super::vocab::seed)]
    pub seed: Option<u64>,

    /// Number of the first puzzle, counting from 1 as every index does:
    /// makes puzzles I..I+N-1 of the seed (the JSONL `index` is I for the
    /// first).
    #[arg(long, value_name = "I", default_value_t = 1,
          value_parser = super::vocab::at_least_one)]
    pub start: u64,

    /// Keep only puzzles whose difficulty rating (ER, as `batchdoku rate`
    /// gives it) is in MIN..MAX (inclusive, one decimal: `3.0..4.5`): each
    /// candidate is rated, and the summary says how many were rated and
    /// how many of those were out of range or out of budget. A range the
    /// rater cannot give (its ER runs from 1.0 to the deepest nested
    /// chains plus the longest length adjustment, 0.0 for a complete grid)
    /// is refused.
    #[arg(long, value_name = "MIN..MAX", value_parser = er_range)]
    pub er: Option<(u8, u8)>,

    /// With --er: the work one candidate's rating may take (as `rate
    /// --limit`); a candidate past it is not kept. When the first 16
    /// candidates all run out of it and none is rated, the run stops with
    /// an error (exit 2): no puzzle could be kept.
    #[arg(long, value_name = "UNITS", requires = "er",
          value_parser = super::vocab::at_least_one)]
    pub limit: Option<u64>,

    /// Also write the end-of-run summary as JSON to this file (`-` for
    /// stdout, which then needs `-o` for the puzzles).
    #[arg(long, value_name = "PATH")]
    pub summary_json: Option<PathBuf>,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,
}

/// `--er MIN..MAX`: two ratings with one decimal, in tenths.
fn er_range(text: &str) -> Result<(u8, u8), String> {
    let (min, max) = text
        .split_once("..")
        .ok_or_else(|| format!("{text:?}: expected MIN..MAX, e.g. 3.0..4.5"))?;
    let (min, max) = (super::vocab::rating(min)?, super::vocab::rating(max)?);
    if min > max {
        return Err(format!("{text:?}: MIN is above MAX"));
    }
    Ok((min, max))
}

/// `generate --format`: the shared flag, another default and meaning.
const GENERATE_FORMAT_HELP: &str = "Output: line (81 characters, '.' for blanks), csv (header \
puzzle,solution), jsonl (index, givens, puzzle, solution), parquet (puzzle, solution). Default: \
the one -o's extension names (.csv, .jsonl, .parquet, also before .gz or .zst), else line.";

/// `generate --batch-size`: the shared flag, another default and meaning.
const GENERATE_BATCH_HELP: &str = "Most puzzles per chunk handed to a worker (fewer for small \
counts); does not change the output.";
