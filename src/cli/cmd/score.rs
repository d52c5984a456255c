//! `batchdoku score`: the best weighted score over all solutions of each
//! puzzle (branch-and-bound), optionally with the solutions counted.

use batchdoku_batch::Column;
use batchdoku_batch::ScoreJob;
use batchdoku_core::ScoreOptions;

use batchdoku_batch::plumbing::Input;

use super::one_pass;
use crate::cli::args::ScoreArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `score`.
pub fn run(args: &ScoreArgs) -> anyhow::Result<Exit> {
    if args.solver == batchdoku_batch::EngineKind::Dlx {
        anyhow::bail!("score: the dlx engine does not support scored search; use --solver mrv");
    }
    let weights = io::load_weights(&args.weights)?;
    let job = ScoreJob {
        weights,
        options: ScoreOptions {
            node_limit: args.node_limit,
            count_solutions: args.count,
            prune: true,
        },
    };
    let columns = |_: &[Input]| {
        let mut columns = ScoreJob::COLUMNS.to_vec();
        if args.count {
            columns.push(Column::Solutions);
        }
        columns
    };
    one_pass(
        "score",
        &job,
        &args.common,
        false,
        columns,
        Column::Solution,
    )
}
