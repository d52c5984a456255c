//! The arguments of `batchdoku bench`: what to measure (files, thread
//! counts, engine, SIMD path, time) and how to print the table.

use clap::{Args, ValueEnum};

use batchdoku_batch::EngineKind;
use batchdoku_core::SimdPath;

use super::vocab::engines;

/// `batchdoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files (any input format); none: the bundled sample
    /// (data/sample.txt, compiled in).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Thread counts to measure, comma-separated.
    #[arg(short = 'j', long, value_delimiter = ',', default_values_t = [1u32, 2],
          value_parser = super::vocab::threads)]
    pub threads: Vec<u32>,

    /// 1 = first solution, 2 = uniqueness check (count up to 2), or any K.
    #[arg(short = 'k', long, default_value_t = 1, value_name = "K",
          value_parser = super::vocab::at_least_one)]
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
