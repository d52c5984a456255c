//! `batchdoku solve`: the first solution of each puzzle, or its solutions
//! counted up to a limit, with optional difficulty columns.

use batchdoku::jobs::SolveJob;
use batchdoku::output::{Column, SOLVE_COLUMNS};

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::{SolveArgs, SolverArg};
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<Exit> {
    if args.rate && matches!(args.solver, SolverArg::Dlx) {
        anyhow::bail!("solve: --rate counts the mrv search; it cannot be used with --solver dlx");
    }
    let job = SolveJob {
        count_limit: args.count_limit,
        engine: args.solver.into(),
        rate: args.rate,
    };
    let mut outputs = open_outputs(&args.run, &args.records)?;
    let inputs = io::open_inputs(&args.inputs.paths(), None, &args.records)?;
    let mut columns = SOLVE_COLUMNS.to_vec();
    if args.rate {
        let at = columns
            .iter()
            .position(|&c| c == Column::Guesses)
            .map_or(0, |i| i + 1);
        columns.splice(at..at, [Column::Backtracks, Column::Singles]);
    }
    if inputs.0.iter().any(|i| i.has_expected()) {
        columns.push(Column::Expected);
    }
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
        "solve",
        report,
        outputs,
        &args.run,
        &args.records,
        Ending::default(),
    )
}
