//! `batchdoku canon`: the canonical (minlex) form of each puzzle and the
//! transformation that maps the puzzle to it.

use batchdoku::jobs::CanonJob;
use batchdoku::output::{Column, CANON_COLUMNS};

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::CanonArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `canon`.
pub fn run(args: &CanonArgs) -> anyhow::Result<Exit> {
    let mut outputs = open_outputs(&args.run, &args.records)?;
    let inputs = io::open_inputs(&args.inputs.paths(), None, &args.records)?;
    let columns = CANON_COLUMNS.to_vec();
    let config = settings(
        &args.run,
        &args.rows,
        &args.records,
        columns,
        Column::Canonical,
        &[&inputs.0],
    )?;
    let report = pass(&CanonJob, inputs, &mut outputs.rows, &config, &args.run)?;
    conclude(
        "canon",
        report,
        outputs,
        &args.run,
        &args.records,
        Ending::default(),
    )
}
