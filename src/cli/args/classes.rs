//! The arguments of the commands built on equivalence classes (canonical
//! forms): `canon`, `dedupe`, `overlap` and `split`, with their long help.

use std::path::PathBuf;

use clap::Args;

use batchdoku_batch::ClassBy;

use super::shared::{CheckpointArgs, RecordArgs, RecordCommand, RowArgs, RunArgs};
use super::vocab::class_keys;

pub(super) const DEDUPE_ABOUT: &str = "\
Keep the first puzzle of each equivalence class (or, with --exact, of each identical puzzle), \
in input order, with a column `dropped` counting the copies left out. Two puzzles are \
equivalent when they have the same canonical form (see `batchdoku canon`). Invalid records \
are never merged: each keeps its row, in place. The summary gives the classes kept and the \
duplicates dropped; this is the one command whose output has fewer rows than its input.

Dedupe reads its input twice (counting, then writing), so standard input is first copied to a \
temporary file. Memory: one 33-byte entry per distinct puzzle in a hash table kept between \
half and seven eighths full, so 38 to 75 bytes per distinct puzzle: under 750 MB for ten \
million distinct puzzles, whatever the number of copies.";

/// `batchdoku split --help`.
pub(super) const SPLIT_ABOUT: &str = "\
Assign each puzzle to a part (train, valid, test by default) so that no equivalence class is on \
two sides: every record's row gets a column `split` naming its part. Classes are those of \
dedupe (same canonical form), or with --by grid those of the solution grid: puzzles whose \
unique solutions are equivalent stay together (a puzzle with no or several solutions keeps \
to its own class, and its status says `unsolvable` or `multiple`). Invalid records keep their \
row, with status `invalid` and no part. `batchdoku overlap TRAIN TEST` on the parts finds no \
leak.

How parts are chosen: the classes are shuffled by a hash of --seed and the class, and each in \
turn goes to the part furthest below its target share of the records placed so far (within \
each stratum with --stratify). Each part is then within about one class of its share, on \
small inputs too, and the same seed gives the same bytes at any -j. A stratified class goes \
with the stratum of its first record.

With --output-dir DIR, each part's records are also written to a file DIR/NAME in the input's \
own layout, each file atomically: a CSV input's header and rows as written (its columns, \
quoting, delimiter and cell alphabet) plus a last column `split` (NAME.csv, or .tsv for tabs); \
JSON lines (and Parquet rows, as JSON lines) as written plus a key \"split\" (NAME.jsonl); \
lines or block grids as written (NAME.txt, no part in them). --no-split-column leaves the part \
out: the files then hold the input's records exactly. The rows with their `split` column go \
to -o only when -o is given (not to stdout); --format sets their format. Invalid records are \
in no part file.

Split reads its input twice (classes, then rows) and once more per part file, so standard \
input is first copied to a temporary file. Memory: one 33-byte entry per class in a hash \
table kept between half and seven eighths full, plus 32 bytes per class while the parts are \
chosen: about 70 to 100 bytes per class (measured: 105 MB peak for a million records in 986,612 \
classes).";

/// `batchdoku overlap --help`.
pub(super) const OVERLAP_ABOUT: &str = "\
Report every TEST puzzle equivalent to some TRAIN puzzle (exit code 1 when there is any, or \
any invalid record; 0 when the splits are disjoint): one row per leaking TEST record, with \
`train_line`, the first equivalent TRAIN line. Invalid records of either split get their row \
too, in place. Every row names its split in the column `split` (`train` or `test`), and \
`index` counts records within its split (1 is the split's first record), as `line` counts \
that split's lines. The summary counts the records of each split and the leaks.

With --by grid, a TEST puzzle leaks when its unique solution is equivalent to the solution of \
some TRAIN puzzle (the class key of `split --by grid`; a puzzle with no or several solutions \
is keyed by itself), and `canonical` is the canonical form of that solution grid.";

/// `batchdoku canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    #[command(flatten)]
    pub resume: CheckpointArgs,
}

/// `batchdoku dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    /// Merge only identical puzzles (after parsing: '.' and '0' are the
    /// same blank), not equivalent ones; skips the canonical form.
    #[arg(long)]
    pub exact: bool,
}
/// `batchdoku overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// The training split ('-' for stdin).
    #[arg(value_name = "TRAIN")]
    pub train: String,

    /// The test split ('-' for stdin).
    #[arg(value_name = "TEST")]
    pub test: String,

    /// What leaks: an equivalent puzzle, or (grid) a puzzle whose unique
    /// solution is equivalent to a training puzzle's (as `split --by`).
    #[arg(long, default_value = "puzzle", value_parser = class_keys())]
    pub by: ClassBy,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,
}
/// `batchdoku split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    // Input files, run, row and record flags: the same for every record command.
    #[command(flatten)]
    pub common: RecordCommand,

    /// Shares of the records, one per part (two or more, scaled to sum to
    /// 1: 8,1,1 is 0.8,0.1,0.1).
    #[arg(
        long,
        value_name = "R,R,...",
        value_delimiter = ',',
        default_value = "0.8,0.1,0.1"
    )]
    pub ratios: Vec<f64>,

    /// Names of the parts, one per ratio. Default: train,test for two
    /// ratios, train,valid,test for three (more need names).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    pub names: Option<Vec<String>>,

    /// Seed of the shuffle of classes (same seed, same parts).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// What stays together: equivalent puzzles, or puzzles whose unique
    /// solutions are equivalent grids.
    #[arg(long, default_value = "puzzle", value_parser = class_keys())]
    pub by: ClassBy,

    /// Balance the parts within each stratum: `guesses` (doubling bins of
    /// the search's guesses: 0, 1, 2-3, 4-7, ...) or the name of a CSV
    /// input column such as a rating (implies --keep-columns).
    #[arg(long, value_name = "guesses|COLUMN")]
    pub stratify: Option<String>,

    /// Also write each part's records to DIR/NAME, in the input's layout
    /// (NAME.csv with a last column `split`, .jsonl with a key "split",
    /// .txt for lines), DIR created if missing; the rows then go to -o
    /// only if given.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    /// With --output-dir: no `split` column (or key) in the part files,
    /// which then hold exactly the input's columns.
    #[arg(long, requires = "output_dir")]
    pub no_split_column: bool,
}
