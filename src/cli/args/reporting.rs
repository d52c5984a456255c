//! The arguments of `batchdoku report`: the page's format and what it
//! adds (classes, scores, ratings), with its long help.

use clap::{Args, ValueEnum};

use super::shared::{InputArgs, RecordArgs, RunArgs};

pub(super) const REPORT_ABOUT: &str = "\
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

impl From<ReportFormatArg> for batchdoku_batch::report::Format {
    fn from(f: ReportFormatArg) -> Self {
        use batchdoku_batch::report::Format;
        match f {
            ReportFormatArg::Html => Format::Html,
            ReportFormatArg::Json => Format::Json,
            ReportFormatArg::Markdown => Format::Markdown,
        }
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
          value_parser = super::vocab::at_least_one)]
    pub limit: Option<u64>,
}
