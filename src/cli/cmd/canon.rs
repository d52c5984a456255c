//! `batchdoku canon`: the canonical (minlex) form of each puzzle and the
//! transformation that maps the puzzle to it.

use batchdoku_batch::CanonJob;
use batchdoku_batch::Column;

use batchdoku_batch::plumbing::Input;

use super::{one_pass, OnePass};
use crate::cli::args::CanonArgs;
use crate::cli::exit::Exit;

/// Runs `canon`.
pub fn run(args: &CanonArgs) -> anyhow::Result<Exit> {
    let flags = OnePass {
        inputs: &args.inputs,
        run: &args.run,
        rows: &args.rows,
        records: &args.records,
        fail_on_mismatch: false,
    };
    let columns = |_: &[Input]| CanonJob::COLUMNS.to_vec();
    one_pass("canon", &CanonJob, flags, columns, Column::Canonical)
}
