//! The job behind `batchdoku.canon`: the library's exact canonical form
//! (`batchdoku::canon::Canonicalizer`), one canonicalizer per worker.
//! Contradictory givens are invalid, as in `solve`.

use std::fmt::Write as _;

use batchdoku::canon::{Canonicalizer, Transform};
use batchdoku::output::{Row, Status};
use batchdoku::parse::Record;
use batchdoku::pipeline::Job;
use batchdoku::Grid;

/// Canonical forms; a valid puzzle's row gets status `Solved` and its
/// result is left in the worker's [`CanonScratch`].
pub struct CanonJob;

/// A worker's canonicalizer and the result for its latest valid puzzle.
pub struct CanonScratch {
    canonicalizer: Canonicalizer,
    /// The latest canonical form.
    pub canonical: Grid,
    /// The transformation mapping the latest puzzle to its canonical form.
    pub transform: Transform,
}

impl Job for CanonJob {
    type Scratch = CanonScratch;

    fn scratch(&self) -> CanonScratch {
        CanonScratch {
            canonicalizer: Canonicalizer::new(),
            canonical: Grid::default(),
            transform: Transform::identity(),
        }
    }

    fn process(&self, scratch: &mut CanonScratch, puzzle: &Grid, _: &Record, row: &mut Row) {
        if let Some(conflict) = puzzle.first_conflict() {
            row.status = Status::Invalid;
            let _ = write!(row.error, "{conflict}");
            return;
        }
        (scratch.canonical, scratch.transform) = scratch.canonicalizer.canonical(puzzle);
        row.status = Status::Solved;
    }
}
