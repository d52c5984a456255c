//! `batchdoku score`: the best weighted score over all solutions of each
//! puzzle (branch-and-bound), optionally with the solutions counted.

use batchdoku::jobs::ScoreJob;
use batchdoku::output::{Column, SCORE_COLUMNS};
use batchdoku::score::ScoreOptions;

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::{ScoreArgs, SolverArg};
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `score`.
pub fn run(args: &ScoreArgs) -> anyhow::Result<Exit> {
    if let SolverArg::Dlx = args.solver {
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
    let mut columns = SCORE_COLUMNS.to_vec();
    if args.count {
        columns.push(Column::Solutions);
    }
    let mut outputs = open_outputs(&args.run, &args.records)?;
    let inputs = io::open_inputs(&args.inputs.paths(), None, &args.records)?;
    let config = settings(
        &args.run,
        &args.rows,
        &args.records,
        columns,
        Column::Solution,
        &[&inputs.0],
    )?;
    let report = pass(&job, inputs, &mut outputs.rows, &config, &args.run)?;
    conclude(
        "score",
        report,
        outputs,
        &args.run,
        &args.records,
        Ending::default(),
    )
}
