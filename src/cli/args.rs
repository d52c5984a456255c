//! The command line as clap types: the subcommands, the run flags every
//! streaming command shares ([`RunArgs`], one definition flattened into
//! each), and the flags whose values are a library vocabulary (formats,
//! engines, symmetries), listed and parsed by the library ([`one_of`]).
//! Shell completions and the man page are generated from these same
//! definitions.

use std::path::{Path, PathBuf};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};

use batchdoku_batch::{ClassBy, EngineKind, OutputFormat};
use batchdoku_core::{ExpectedColumn, InputFormat, SimdPath, Symmetry};

use crate::cli::stderr_progress::ProgressMode;

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

const REPORT_ABOUT: &str = "\
A corpus at a glance, in one streaming pass: each puzzle is solved counting to two with the \
difficulty columns of `solve -k 2 --rate`, and the rows are aggregated into totals (valid, \
invalid with the first 20 errors, unique, multiple, unsolvable), distributions each as a plot \
and a table (givens; guesses and backtracks in log-scaled bins; the share solved by singles \
alone; best scores with --score) and, with --classes, duplicates up to symmetry (the largest \
classes by canonical form, each with one of its records and its input and line). The HTML page \
is one self-contained file (inline SVG and CSS, nothing fetched); JSON holds the same numbers. \
Every format ends with the run's provenance: date (UTC), command line, options in effect, \
version and git commit, and each input's size and XXH3-64 checksum (stdin: the bytes read). \
A report writes no rows: --keep-columns and --keep-trailing are refused.

Memory is constant, except with --classes: one 33-byte entry per class and one 17-byte entry \
per distinct puzzle, in hash tables kept between half and seven eighths full, so 57 to 114 \
bytes per distinct puzzle: under 1.2 GB for ten million distinct puzzles.";

const DEDUPE_ABOUT: &str = "\
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
const SPLIT_ABOUT: &str = "\
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

With --output-dir DIR, each part is also written to DIR/NAME.csv (.jsonl, or .txt for \
--format line), each file atomically; the rows go to -o only when -o is given (not to \
stdout). Invalid records are in no part file.

Split reads its input twice (classes, then rows) and once more per part file, so standard \
input is first copied to a temporary file. Memory: one 33-byte entry per class in a hash \
table kept between half and seven eighths full, plus 32 bytes per class while the parts are \
chosen: about 70 to 100 bytes per class (measured: 105 MB peak for a million records in 986,612 \
classes).";

/// `batchdoku overlap --help`.
const OVERLAP_ABOUT: &str = "\
Report every TEST puzzle equivalent to some TRAIN puzzle (exit code 1 when there is any, or \
any invalid record; 0 when the splits are disjoint): one row per leaking TEST record, with \
`train_line`, the first equivalent TRAIN line. Invalid records of either split get their row \
too, in place. Every row names its split in the column `split` (`train` or `test`), and \
`index` counts records within its split (1 is the split's first record), as `line` counts \
that split's lines. The summary counts the records of each split and the leaks.

With --by grid, a TEST puzzle leaks when its unique solution is equivalent to the solution of \
some TRAIN puzzle (the class key of `split --by grid`; a puzzle with no or several solutions \
is keyed by itself), and `canonical` is the canonical form of that solution grid.";

/// `batchdoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (any input format); none: the bundled sample
    /// (data/sample.txt, compiled in).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Thread counts to measure, comma-separated.
    #[arg(short = 'j', long, value_delimiter = ',', default_values_t = [1u32, 2],
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Vec<u32>,

    /// 1 = first solution, 2 = uniqueness check (count up to 2), or any K.
    #[arg(short = 'k', long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: u64,

    /// Solving engine.
    #[arg(long, default_value = "mrv", value_parser = engines())]
    pub solver: EngineKind,

    /// The mrv solver's machine code: `auto` (the best this CPU has),
    /// `avx512`, `avx2`, `sse2` or `portable`; a path this build or CPU
    /// lacks is an error. The table's `simd` column shows the one run.
    #[arg(long, default_value = "auto", value_name = "PATH", value_parser = parse_simd)]
    pub simd: SimdChoice,

    /// Solve each set repeatedly for at least this many seconds per thread
    /// count (0 to 86400).
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS", value_parser = parse_min_time)]
    pub min_time: f64,

    /// Solve a random equivalent of each puzzle instead (digits relabelled,
    /// rows, columns, bands and stacks shuffled, maybe transposed), drawn
    /// from SEED: removes the bias of lists kept in a canonical form, as
    /// tdoku's benchmark does. The same SEED gives the same puzzles.
    #[arg(long, value_name = "SEED")]
    pub permute: Option<u64>,

    /// Table format.
    #[arg(long, value_enum, default_value_t = TableFormat::Markdown)]
    pub format: TableFormat,
}

/// `bench --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// A Markdown table.
    Markdown,
    /// CSV with a header.
    Csv,
}

/// The input files of a command that reads any number of them.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files; '-' or none reads stdin. .gz and .zst inputs (and
    /// compressed stdin) are decompressed on the fly.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
}

impl InputArgs {
    /// The input paths, stdin when none were given.
    pub fn paths(&self) -> Vec<String> {
        if self.inputs.is_empty() {
            vec!["-".to_string()]
        } else {
            self.inputs.clone()
        }
    }
}

/// How rows are written, for the commands that write one row per record
/// or puzzle (all streaming commands but `report`, which writes a page).
/// `generate` changes only the default and help of `--format`.
#[derive(Debug, Args)]
pub struct RowArgs {
    /// Output format: csv (with header), jsonl (one JSON object per line),
    /// line (one 81-character grid per row: the solution, an empty line
    /// when none; for canon the canonical form; for dedupe, overlap and
    /// split the puzzle), parquet (the CSV's columns, typed; not to a terminal).
    /// Default: the one -o's extension names (.csv, .jsonl, .parquet, also
    /// before .gz or .zst), else csv; given, it wins over the extension.
    #[arg(long, value_parser = output_formats())]
    pub format: Option<OutputFormat>,

    /// Do not write the CSV header row (CSV only: Parquet always has its
    /// schema).
    #[arg(long)]
    pub no_header: bool,
}

impl RowArgs {
    /// The output format: `--format` when given, else the one `output`'s
    /// extension names (see [`OutputFormat::from_path`]), else `default`.
    pub fn format_for(&self, output: Option<&Path>, default: OutputFormat) -> OutputFormat {
        self.format
            .or_else(|| output.and_then(OutputFormat::from_path))
            .unwrap_or(default)
    }
}

/// The run flags shared by every streaming command (`solve`, `score`,
/// `canon`, `dedupe`, `overlap`, `generate` and `report`): one definition,
/// flattened into each. `generate` changes only the default and help of
/// `--batch-size` (see [`GenerateArgs`]).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Write output to this file (atomically: a temporary file beside it is
    /// renamed when the run completes; a dangling link creates its
    /// target). Default, or '-': stdout.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Always show progress on stderr: a bar on a terminal, else a plain
    /// line every second (default: a bar only when stderr is a terminal).
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,

    /// Records per batch handed to a worker [default: 2048; with `report
    /// --rate`: 16].
    #[arg(long, value_name = "N", hide_short_help = true,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub batch_size: Option<u32>,
}

impl RunArgs {
    /// Records per batch for a fast job (solving, scoring, keys).
    pub const BATCH: u32 = 2048;
    /// Records per batch for a rating job: a few keep every thread busy.
    pub const RATE_BATCH: u32 = 16;

    /// `--batch-size`, or `default` without it.
    pub fn batch_size_or(&self, default: u32) -> usize {
        self.batch_size.unwrap_or(default) as usize
    }

    /// The worker count.
    pub fn thread_count(&self) -> usize {
        match self.threads {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// When to draw progress.
    pub fn progress_mode(&self) -> ProgressMode {
        if self.quiet {
            ProgressMode::Never
        } else if self.progress {
            ProgressMode::Always
        } else {
            ProgressMode::Auto
        }
    }
}

/// A `--delimiter` value: `tab` (or `\t`), or one ASCII character that
/// is not a quote, a line break or alphanumeric.
fn parse_delimiter(text: &str) -> Result<u8, String> {
    let byte = match text {
        "tab" | "TAB" | "\\t" => b'\t',
        _ if text.len() == 1 => text.as_bytes()[0],
        _ => return Err("expected one character, or 'tab'".to_string()),
    };
    if !byte.is_ascii() || byte.is_ascii_alphanumeric() || matches!(byte, b'"' | b'\n' | b'\r') {
        return Err(format!(
            "'{text}' cannot separate fields (a quote, a line break, a letter or a digit)"
        ));
    }
    Ok(byte)
}

impl RecordArgs {
    /// Where the expected solutions are, as the flags say.
    pub fn expected(&self) -> ExpectedColumn {
        match (&self.expected_column, self.no_expected) {
            (_, true) => ExpectedColumn::Ignore,
            (Some(name), false) => ExpectedColumn::Named(name.clone()),
            (None, false) => ExpectedColumn::Detect,
        }
    }
}

/// The flags of the commands that read puzzle records (every streaming
/// command but `generate`): how to read the input, what to carry through,
/// and the summary file.
#[derive(Clone, Debug, Args)]
pub struct RecordArgs {
    /// Input format (auto detects from the first lines).
    #[arg(long, default_value = "auto", value_name = "FORMAT", value_parser = input_formats())]
    pub input_format: InputFormat,

    /// CSV input: take the puzzle from the column with this header name
    /// (case-insensitive; implies CSV input). Default: the first of
    /// quizzes, quiz, puzzle, puzzles, question, else the column that
    /// holds puzzles.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// CSV input: take the expected solution from this column
    /// (case-insensitive; implies CSV input). Default: the first of
    /// solution, answer, solutions, answers whose values are 81-cell grids
    /// (a column of counts, such as solve's own `solutions`, never is).
    #[arg(long, value_name = "NAME", conflicts_with = "no_expected")]
    pub expected_column: Option<String>,

    /// CSV input: no expected solutions, whatever the columns are named.
    #[arg(long)]
    pub no_expected: bool,

    /// CSV input: the field delimiter: ',', ';', 'tab', or another single
    /// ASCII character (implies CSV input). Default: whichever of comma,
    /// semicolon and tab the first line uses most.
    #[arg(long, value_name = "CHAR", value_parser = parse_delimiter)]
    pub delimiter: Option<u8>,

    /// CSV input: carry every input column but the puzzle's through to
    /// the output, after ours, under their input names (prefixed `input_`
    /// where a name is already ours), e.g. a source or rating column.
    #[arg(long)]
    pub keep_columns: bool,

    /// Carry the text after the 81 cells of each input line (an id, a
    /// rating) into the output: a final CSV column / a JSONL field
    /// `trailing`, so results can be joined back to their source.
    #[arg(long)]
    pub keep_trailing: bool,

    /// Also write the end-of-run summary as JSON to this file (`-` for
    /// stdout, which then needs `-o` for the rows).
    #[arg(long, value_name = "PATH")]
    pub summary_json: Option<PathBuf>,
}

/// `batchdoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,

    /// Count solutions up to K (2 = uniqueness check: status unique or
    /// multiple). 1 finds the first solution only.
    #[arg(short = 'k', long, default_value_t = 1, value_name = "K",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count_limit: u64,

    /// Solving engine: mrv (bitmask, minimum remaining values) or dlx
    /// (dancing links, for cross-checking).
    #[arg(long, default_value = "mrv", value_parser = engines())]
    pub solver: EngineKind,

    /// Add difficulty columns: `backtracks` (dead ends of the search that
    /// also gives `guesses`) and `singles` (true when naked and hidden
    /// singles alone solve the puzzle). Same numbers at any thread count;
    /// see the README for exact definitions. (`--rate`, its name before
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
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,

    /// Cell weights: `target` (NOIP 2009 target Sudoku: 6 on the outer
    /// ring, then 7, 8, 9, and 10 in the centre) or a file of 81 integers
    /// (9 lines of 9, or one line; negative weights allowed).
    #[arg(long, default_value = "target", value_name = "target|FILE")]
    pub weights: String,

    /// Stop a puzzle's search after N nodes: its status becomes `limit` and
    /// its score is the best found so far, not proven optimal.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub node_limit: Option<u64>,

    /// Also count all solutions (column `solutions`). This needs the full
    /// enumeration without pruning, so it can be far slower.
    #[arg(long)]
    pub count: bool,

    /// Engine: only mrv supports scored search (dlx is refused).
    #[arg(long, default_value = "mrv", value_parser = engines())]
    pub solver: EngineKind,
}

const RATE_ABOUT: &str =
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
canonical form and --seed, so every equivalent of a puzzle gets the same values.";

/// `batchdoku rate`: a rating takes a thousand times longer than a solve,
/// so batches are small enough to keep every thread busy on short inputs.
#[derive(Debug, Args)]
#[command(mut_arg("batch_size", |a| a.default_value("16").help(RATE_BATCH_HELP)))]
pub struct RateArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,

    /// The work one puzzle's rating may take, in the rater's work units
    /// (about a chain step each); past it the puzzle gets status `limit`.
    #[arg(long, value_name = "UNITS", default_value_t = batchdoku_batch::RateJob::DEFAULT_LIMIT,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,

    /// Add mean_guesses and mean_backtracks over N random equivalents of
    /// each puzzle (0: none).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub invariant: u32,

    /// Seed the equivalents of --invariant are drawn from.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

/// `batchdoku canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,
}

/// `batchdoku dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,

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
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,

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

    /// Also write each part to DIR/NAME.csv (.jsonl; .txt for --format
    /// line), DIR created if missing; the rows then go to -o only if given.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
}

/// `report --format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ReportFormatArg {
    /// One self-contained HTML page with SVG plots.
    Html,
    /// The same numbers as JSON.
    Json,
    /// Markdown tables with text bars.
    Markdown,
}

impl From<ReportFormatArg> for crate::cli::report::Format {
    fn from(f: ReportFormatArg) -> Self {
        use crate::cli::report::Format;
        match f {
            ReportFormatArg::Html => Format::Html,
            ReportFormatArg::Json => Format::Json,
            ReportFormatArg::Markdown => Format::Markdown,
        }
    }
}

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
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Number of the first puzzle, counting from 1 as every index does:
    /// makes puzzles I..I+N-1 of the seed (the JSONL `index` is I for the
    /// first).
    #[arg(long, value_name = "I", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub start: u64,

    /// Keep only puzzles whose difficulty rating (ER, as `batchdoku rate`
    /// gives it) is in MIN..MAX (inclusive, one decimal: `3.0..4.5`): each
    /// candidate is rated, and the summary says how many were tried.
    #[arg(long, value_name = "MIN..MAX", value_parser = er_range)]
    pub er: Option<(u8, u8)>,

    /// With --er: the work one candidate's rating may take (as `rate
    /// --limit`); a candidate past it is not kept.
    #[arg(long, value_name = "UNITS", requires = "er",
          value_parser = clap::value_parser!(u64).range(1..))]
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
    let tenths = |t: &str| -> Result<u8, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("{t:?} is not a rating (a number like 4.5)"))?;
        let scaled = (v * 10.0).round();
        if !(0.0..=255.0).contains(&scaled) || ((v * 10.0) - scaled).abs() > 1e-6 {
            return Err(format!("{t:?}: a rating is 0.0 to 25.5 with one decimal"));
        }
        Ok(scaled as u8)
    };
    let (min, max) = (tenths(min)?, tenths(max)?);
    if min > max {
        return Err(format!("{text:?}: MIN is above MAX"));
    }
    Ok((min, max))
}

/// `generate --format`: the shared flag, another default and meaning.
const GENERATE_FORMAT_HELP: &str = "Output: line (81 characters, '.' for blanks), csv (header \
puzzle,solution), jsonl (index, givens, puzzle, solution), parquet (puzzle, solution). Default: \
the one -o's extension names (.csv, .jsonl, .parquet, also before .gz or .zst), else line.";

/// `rate --batch-size`: the shared flag with a smaller default.
const RATE_BATCH_HELP: &str = "Records per batch handed to a worker (a rating takes about a \
thousand times longer than a solve: small batches keep every thread busy).";

/// `generate --batch-size`: the shared flag, another default and meaning.
const GENERATE_BATCH_HELP: &str = "Most puzzles per chunk handed to a worker (fewer for small \
counts); does not change the output.";

/// A value parser for a library vocabulary: the names (with their help)
/// from the library's list, the value from the library's `FromStr`.
fn one_of<T>(
    all: &[T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + std::str::FromStr<Err = String> + Send + Sync + 'static,
{
    let values = all
        .iter()
        .map(|&v| PossibleValue::new(name(v)).help(help(v)));
    // Only the names listed get here, and each is the library's own.
    PossibleValuesParser::new(values).try_map(|text| text.parse::<T>())
}

fn output_formats() -> impl TypedValueParser<Value = OutputFormat> {
    one_of(
        &OutputFormat::ALL,
        OutputFormat::as_str,
        OutputFormat::description,
    )
}

fn input_formats() -> impl TypedValueParser<Value = InputFormat> {
    one_of(
        &InputFormat::ALL,
        InputFormat::as_str,
        InputFormat::description,
    )
}

fn engines() -> impl TypedValueParser<Value = EngineKind> {
    one_of(
        &EngineKind::ALL,
        EngineKind::as_str,
        EngineKind::description,
    )
}

fn class_keys() -> impl TypedValueParser<Value = ClassBy> {
    one_of(&ClassBy::ALL, ClassBy::as_str, ClassBy::description)
}

fn symmetries() -> impl TypedValueParser<Value = Symmetry> {
    one_of(&Symmetry::ALL, Symmetry::as_str, Symmetry::description)
}

/// `bench --simd`: a path, or `None` for `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimdChoice(pub Option<SimdPath>);

/// `bench --simd`: `auto` or a path this build and CPU can run.
fn parse_simd(text: &str) -> Result<SimdChoice, String> {
    if text == "auto" {
        return Ok(SimdChoice(None));
    }
    let names: Vec<&str> = SimdPath::ALL.iter().map(|p| p.as_str()).collect();
    let path = text
        .parse::<SimdPath>()
        .map_err(|_| format!("expected auto or one of {}", names.join(", ")))?;
    if path.is_available() {
        Ok(SimdChoice(Some(path)))
    } else {
        let have: Vec<&str> = SimdPath::ALL
            .iter()
            .filter(|p| p.is_available())
            .map(|p| p.as_str())
            .collect();
        Err(format!(
            "{text} is not available here (available: auto, {})",
            have.join(", ")
        ))
    }
}

/// `bench --min-time`: seconds from 0 to one day (a larger value, or one
/// not finite, is a usage error rather than a panic making the duration).
fn parse_min_time(text: &str) -> Result<f64, String> {
    /// One day.
    const MAX_SECONDS: f64 = 86_400.0;
    let seconds: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=MAX_SECONDS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(format!("must be from 0 to {MAX_SECONDS} seconds"))
    }
}

/// `batchdoku report`. The record flags that shape rows are hidden: a
/// report writes a page, and refuses them.
#[derive(Debug, Args)]
#[command(
    mut_arg("keep_columns", |a| a.hide(true)),
    mut_arg("keep_trailing", |a| a.hide(true))
)]
pub struct ReportArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub records: RecordArgs,

    /// Report format. Default: from the extension of -o (.html, .json,
    /// .md), Markdown on stdout.
    #[arg(long, value_enum)]
    pub format: Option<ReportFormatArg>,

    /// Also count duplicates up to symmetry and exact repeats (memory
    /// grows with the distinct puzzles; see --help).
    #[arg(long)]
    pub classes: bool,

    /// Also score every puzzle with a solution and plot the best scores:
    /// `target` or a weights file (as `score --weights`).
    #[arg(long, value_name = "target|FILE")]
    pub score: Option<String>,

    /// Also rate every puzzle (as `batchdoku rate`) and plot the ER
    /// distribution. Without it, an input with an `er` column (the output
    /// of `batchdoku rate`, CSV or JSONL) is plotted from that column.
    #[arg(long)]
    pub rate: bool,

    /// With --rate: the work one puzzle's rating may take (as `rate
    /// --limit`); past it the puzzle counts as `limit`.
    #[arg(long, value_name = "UNITS", requires = "rate",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
}
