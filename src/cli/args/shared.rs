//! The flag groups shared by the streaming commands, each defined once:
//! the input files ([`InputArgs`]), the run ([`RunArgs`]), how rows are
//! written ([`RowArgs`]) and how records are read ([`RecordArgs`]); and
//! [`RecordCommand`], the four together, flattened once into each command
//! that reads INPUT files of records and writes a row per record; and
//! [`CheckpointArgs`], flattened into the commands that write one row per
//! record in one pass, whose runs can be resumed.

use std::path::{Path, PathBuf};

use clap::Args;

use batchdoku_batch::OutputFormat;
use batchdoku_core::{ExpectedColumn, InputFormat, ReadOptions};

use super::vocab::{input_formats, output_formats};
use crate::cli::stderr_progress::ProgressMode;

/// The flags of a command that reads INPUT files of puzzle records and
/// writes one row per record (`solve`, `score`, `rate`, `canon`, `dedupe`,
/// `split`): the four shared groups, in the order their help lists them.
#[derive(Debug, Args)]
pub struct RecordCommand {
    #[command(flatten)]
    pub inputs: InputArgs,

    #[command(flatten)]
    pub run: RunArgs,

    #[command(flatten)]
    pub rows: RowArgs,

    #[command(flatten)]
    pub records: RecordArgs,
}

/// `--checkpoint`, for the commands that write one row per record in one
/// pass (`solve`, `score`, `rate`, `canon`): a stopped run can be resumed.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// Resumable run: keep the rows of a run that is stopped (Ctrl-C,
    /// SIGTERM, a failure) in FILE.partial beside -o FILE (what made them,
    /// and how far they go, in FILE.partial.json), and resume from them
    /// when the same command, with the same inputs, options and
    /// --checkpoint, runs again: FILE then has the bytes of one
    /// uninterrupted run. Rows from other inputs or options are refused.
    /// Needs -o FILE; not with Parquet.
    #[arg(long)]
    pub checkpoint: bool,
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
    /// line (one 81-character grid per row: for solve, score and rate the
    /// solution (the first found when there are several), an empty line
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
/// `--batch-size` (see [`GenerateArgs`](super::GenerateArgs)).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Write output to this file (atomically: a temporary file beside it is
    /// renamed when the run completes; a dangling link creates its
    /// target). Default, or '-': stdout.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = super::vocab::threads)]
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
          value_parser = super::vocab::batch_size)]
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

/// A `--delimiter` value: `tab` (or `\t`), or one character that can
/// separate fields ([`ReadOptions::delimiter_problem`], the library's rule).
fn parse_delimiter(text: &str) -> Result<u8, String> {
    let byte = match text {
        "tab" | "TAB" | "\\t" => b'\t',
        _ if text.len() == 1 => text.as_bytes()[0],
        _ => return Err("expected one character, or 'tab'".to_string()),
    };
    match ReadOptions::delimiter_problem(byte) {
        Some(problem) => Err(format!("'{text}' cannot separate fields ({problem})")),
        None => Ok(byte),
    }
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
    /// semicolon and tab the first lines together say (puts a puzzle in a
    /// field of its own on most lines, then splits most lines alike).
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

    /// What made the command read the input's columns when the user did
    /// not give `--keep-columns` (`split --stratify COLUMN`, `report`
    /// looking for an `er` column): the flag an error about the columns
    /// names. Set only by [`RecordArgs::want_columns`].
    #[arg(skip)]
    pub columns_wanted_by: Option<String>,

    /// Keep each record's text as the input wrote it (`split
    /// --output-dir`'s part files are written so). Set by the command,
    /// never a flag.
    #[arg(skip)]
    pub keep_written: bool,
}

impl RecordArgs {
    /// Reads the input's columns because of `why` (what the user gave):
    /// an input that has none is then blamed on `why`, never on a
    /// `--keep-columns` the user did not give.
    pub fn want_columns(&mut self, why: impl Into<String>) {
        if !self.keep_columns {
            self.keep_columns = true;
            self.columns_wanted_by = Some(why.into());
        }
    }

    /// The flag that asked for the input's columns, for messages:
    /// `--keep-columns`, or what [`RecordArgs::want_columns`] was given.
    pub fn columns_flag(&self) -> &str {
        self.columns_wanted_by
            .as_deref()
            .unwrap_or("--keep-columns")
    }
}
