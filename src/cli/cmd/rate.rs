//! `batchdoku rate`: the human difficulty of each puzzle (Sudoku
//! Explainer's ratings), and optionally invariant machine difficulty.

use batchdoku_batch::plumbing::Input;
use batchdoku_batch::{Column, RateJob};

use super::{one_pass, Resumable};
use crate::cli::args::RateArgs;
use crate::cli::exit::Exit;

/// Runs `rate`.
pub fn run(args: &RateArgs) -> anyhow::Result<Exit> {
    RateJob::available().map_err(|why| anyhow::anyhow!("rate: {why}"))?;
    let job = RateJob {
        limit: args.limit,
        invariant: args.invariant,
        seed: args.seed,
        path: args.path,
        max_er: args.max_er,
        min_ed: args.min_ed,
        min_ep: args.min_ep,
    };
    let columns = |_: &[Input]| {
        let mut columns = RateJob::COLUMNS.to_vec();
        if args.invariant > 0 {
            columns.extend([Column::MeanGuesses, Column::MeanBacktracks]);
        }
        if args.path {
            columns.push(Column::Path);
        }
        columns
    };
    // `--format line` writes the solution, as `solve` and `score` do.
    let resumable = Resumable {
        checkpoint: args.resume.checkpoint,
        options: vec![
            ("--limit", args.limit.to_string()),
            ("--invariant", args.invariant.to_string()),
            ("--seed", args.seed.to_string()),
        ],
    };
    one_pass(
        "rate",
        &job,
        &args.common,
        resumable,
        false,
        columns,
        Column::Solution,
    )
}
