//! `batchdoku canon`: the canonical (minlex) form of each puzzle and the
//! transformation that maps the puzzle to it.

use batchdoku_batch::CanonJob;
use batchdoku_batch::Column;

use batchdoku_batch::plumbing::Input;

use super::{one_pass, Resumable};
use crate::cli::args::CanonArgs;
use crate::cli::exit::Exit;

/// Runs `canon`.
pub fn run(args: &CanonArgs) -> anyhow::Result<Exit> {
    let columns = |_: &[Input]| CanonJob::COLUMNS.to_vec();
    let resumable = Resumable {
        checkpoint: args.resume.checkpoint,
        options: Vec::new(),
    };
    one_pass(
        "canon",
        &CanonJob,
        &args.common,
        resumable,
        false,
        columns,
        Column::Canonical,
    )
}
