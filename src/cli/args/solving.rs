//! The arguments of the commands that solve or rate each puzzle and write
//! a row for it: `solve`, `score` and `rate`.

use clap::Args;

use batchdoku_batch::EngineKind;

use super::shared::{CheckpointArgs, RecordCommand};
use super::vocab::engines;

/// `batchdoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    #[command(flatten)]
    pub resume: CheckpointArgs,

    /// Count solutions up to K (2 = uniqueness check: status unique or
    /// multiple). 1 finds the first solution only.
    #[arg(short = 'k', long, default_value_t = 1, value_name = "K",
          value_parser = super::vocab::at_least_one)]
    pub count_limit: u64,

    /// Solving engine: mrv (bitmask, minimum remaining values) or dlx
    /// (dancing links, for cross-checking).
    #[arg(long, default_value = "mrv", value_parser = engines())]
    pub solver: EngineKind,

    /// Add difficulty columns: `backtracks` (dead ends of the search that
    /// also gives `guesses`) and `singles` (true when naked and hidden
    /// singles alone solve the puzzle). Same numbers at any thread count;
    /// see docs/solve.md for exact definitions. (`--rate`, its name before
    /// 0.3.0, still works for this release.)
    #[arg(long, alias = "rate")]
    pub difficulty: bool,

    /// Exit with 1 when any answer disagrees with the input's expected
    /// solution (`expected` = mismatch), as `overlap` does for leaks: a
    /// gate on a data set's published answers.
    #[arg(long)]
    pub fail_on_mismatch: bool,
}

/// `batchdoku score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    #[command(flatten)]
    pub resume: CheckpointArgs,

    /// Cell weights: `target` (NOIP 2009 target Sudoku: 6 on the outer
    /// ring, then 7, 8, 9, and 10 in the centre) or a file of 81 integers
    /// (9 lines of 9, or one line; negative weights allowed).
    #[arg(long, default_value = "target", value_name = "target|FILE")]
    pub weights: String,

    /// Stop a puzzle's search after N nodes: its status becomes `limit` and
    /// its score is the best found so far, not proven optimal.
    #[arg(long, value_name = "N", value_parser = super::vocab::at_least_one)]
    pub node_limit: Option<u64>,

    /// Also count all solutions (column `solutions`). This needs the full
    /// enumeration without pruning, so it can be far slower.
    #[arg(long)]
    pub count: bool,

    /// Engine: only mrv supports scored search (dlx is refused).
    #[arg(long, default_value = "mrv", value_parser = engines())]
    pub solver: EngineKind,
}

pub(super) const RATE_ABOUT: &str =
    "Human difficulty of each puzzle: Sudoku Explainer 1.2.1's ratings, as its \
rater serate gives them.

Each puzzle with exactly one solution is solved by human techniques, easiest first (singles, \
intersections, subsets, fish, wings, uniqueness, BUG, aligned exclusion, then the chain \
families up to nested forcing chains), and gets status `rated` and the columns er (the hardest \
step), ep (the hardest step up to the first placement), ed (the first step), hardest (the \
technique that set er), steps and techniques (how many steps each technique took). A puzzle \
with no solution or several gets `unsolvable` or `multiple` and empty ratings; one whose rating \
needs more work than --limit allows gets `limit` and empty ratings.

With --invariant N, two more columns: mean_guesses and mean_backtracks, the mean guesses and \
dead ends of batchdoku's first-solution search over N random equivalents of the puzzle (digits \
relabelled, rows, columns, bands and stacks shuffled, maybe transposed), drawn from its \
canonical form and --seed, so every equivalent of a puzzle gets the same values.

With --path, one more column: path, the solution path, every step in order (so as many as \
steps), each with its technique, its rating, its placements and eliminations in the players' \
notation (r4c6=7 places a 7 in row 4, column 6; r5c4<>3 removes the 3 from row 5, column 4) \
and a sentence naming its cells and units. JSON lines write a list of objects {technique, \
rating, placements, eliminations, text}, Parquet a list of structs with the same fields, CSV \
one cell: steps separated by `;`, a step's five fields by `|`, the moves of a list by spaces \
(`hidden single|1.2|r6c2=4||4 in box 4 only at r6c2;pointing|2.6||r1c6<>2 r2c6<>2|...`).

--max-er X, --min-ed X and --min-ep X stop a puzzle's rating as soon as it is known to fall \
outside them: status `above` (its ER is above X) or `below` (its ED or EP is below X), with no \
rating. To keep puzzles up to a difficulty, most of the work on the harder ones is skipped.";

/// `batchdoku rate`: a rating takes a thousand times longer than a solve,
/// so batches are small enough to keep every thread busy on short inputs.
#[derive(Debug, Args)]
#[command(mut_arg("batch_size", |a| a.default_value("16").help(RATE_BATCH_HELP)))]
pub struct RateArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    #[command(flatten)]
    pub resume: CheckpointArgs,

    /// The work one puzzle's rating may take, in the rater's work units
    /// (about a chain step each); past it the puzzle gets status `limit`.
    #[arg(long, value_name = "UNITS", default_value_t = batchdoku_batch::RateJob::DEFAULT_LIMIT,
          value_parser = super::vocab::at_least_one)]
    pub limit: u64,

    /// Add mean_guesses and mean_backtracks over N random equivalents of
    /// each puzzle (0: none).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = super::vocab::invariant)]
    pub invariant: u32,

    /// Seed the equivalents of --invariant are drawn from.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = super::vocab::seed)]
    pub seed: u64,

    /// Add the column path: every step of the solution path, with its
    /// technique, rating, placements, eliminations and a sentence.
    #[arg(long)]
    pub path: bool,

    /// Stop a puzzle's rating as soon as its ER is known to be above X
    /// (the easiest step available is rated above X): status `above`, no
    /// rating. Keeps only puzzles up to X rated, skipping most of the work
    /// on the hard ones.
    #[arg(long, value_name = "X", value_parser = super::vocab::rating)]
    pub max_er: Option<u8>,

    /// Stop a puzzle's rating after its first step when that step (ED) is
    /// rated below X: status `below`, no rating.
    #[arg(long, value_name = "X", value_parser = super::vocab::rating)]
    pub min_ed: Option<u8>,

    /// Stop a puzzle's rating at its first placement when no step up to it
    /// (EP) is rated X or more: status `below`, no rating.
    #[arg(long, value_name = "X", value_parser = super::vocab::rating)]
    pub min_ep: Option<u8>,
}

/// `rate --batch-size`: the shared flag with a smaller default.
const RATE_BATCH_HELP: &str = "Records per batch handed to a worker (a rating takes about a \
thousand times longer than a solve: small batches keep every thread busy).";
