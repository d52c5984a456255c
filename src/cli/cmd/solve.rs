//! `batchdoku solve`: the first solution of each puzzle, or its solutions
//! counted up to a limit, with optional difficulty columns.

use batchdoku_batch::Column;
use batchdoku_batch::SolveJob;

use batchdoku_batch::plumbing::Input;

use super::{one_pass, Resumable};
use crate::cli::args::SolveArgs;
use crate::cli::exit::Exit;

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<Exit> {
    if args.difficulty && args.solver == batchdoku_batch::EngineKind::Dlx {
        anyhow::bail!(
            "solve: --difficulty counts the mrv search; it cannot be used with --solver dlx"
        );
    }
    let job = SolveJob {
        count_limit: args.count_limit,
        engine: args.solver,
        difficulty: args.difficulty,
    };
    let columns = |inputs: &[Input]| {
        let mut columns = SolveJob::COLUMNS.to_vec();
        if args.difficulty {
            let at = columns
                .iter()
                .position(|&c| c == Column::Guesses)
                .map_or(0, |i| i + 1);
            columns.splice(at..at, [Column::Backtracks, Column::Singles]);
        }
        if inputs.iter().any(|i| i.has_expected()) {
            columns.push(Column::Expected);
        }
        columns
    };
    let resumable = Resumable {
        checkpoint: args.resume.checkpoint,
        options: vec![
            ("--count-limit", args.count_limit.to_string()),
            ("--solver", args.solver.as_str().to_string()),
            ("--difficulty", args.difficulty.to_string()),
        ],
    };
    one_pass(
        "solve",
        &job,
        &args.common,
        resumable,
        args.fail_on_mismatch,
        columns,
        Column::Solution,
    )
}
