//! `batchdoku score`: the best weighted score over all solutions of each
//! puzzle (branch-and-bound), optionally with the solutions counted.

use batchdoku_batch::Column;
use batchdoku_batch::ScoreJob;
use batchdoku_core::ScoreOptions;

use batchdoku_batch::plumbing::Input;

use super::{one_pass, Resumable};
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
    // The weights file's content, not only its name, decides the scores.
    let weights = format!("{:?}", job.weights);
    let resumable = Resumable {
        checkpoint: args.resume.checkpoint,
        options: vec![
            ("--weights", args.weights.clone()),
            (
                "weights digest",
                format!("{:016x}", xxhash_rust::xxh3::xxh3_64(weights.as_bytes())),
            ),
            (
                "--node-limit",
                args.node_limit
                    .map_or("none".to_string(), |n| n.to_string()),
            ),
            ("--count", args.count.to_string()),
            ("--solver", args.solver.as_str().to_string()),
        ],
    };
    one_pass(
        "score",
        &job,
        &args.common,
        resumable,
        false,
        columns,
        Column::Solution,
    )
}
