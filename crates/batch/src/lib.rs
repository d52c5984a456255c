//! # batchdoku-batch
//!
//! The ordered multicore run of batchdoku: a stream of Sudoku records
//! (plain lines, blocks, CSV, JSON lines; gzip or zstd) through a pool of
//! workers, one output row per record, written in input order as CSV,
//! JSON lines or Parquet, in memory that does not grow with the input.
//!
//! A [`Batch`] is configured step by step and runs a [`Job`] over files
//! into a file (written atomically) or any writer. A job fills a [`Row`]
//! for each record; the stock jobs are the commands of the `batchdoku`
//! tool: [`SolveJob`], [`ScoreJob`], [`RateJob`] (Sudoku Explainer's
//! ratings, with the `rate` feature), [`CanonJob`], [`DedupeJob`],
//! [`OverlapJob`] and [`SplitJob`]. [`fill_row`] is the same per-record
//! step for callers that hold their puzzles in memory, and
//! [`Batch::generate_to_file`] streams generated puzzles through the same
//! pipeline.
//!
//! Grids, parsing, the solver and the other engines are in
//! [`batchdoku_core`]. The `rate` feature links `batchdoku-rate`, which is
//! LGPL-2.1-or-later (a derivative of Sudoku Explainer); without it this
//! crate and everything it depends on are MIT OR Apache-2.0, and
//! [`RateJob::available`] says why rating is not possible.
//!
//! # Example
//! ```
//! use batchdoku_batch::{Batch, Column, EngineKind, SolveJob, Status};
//!
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("puzzles.txt");
//! std::fs::write(
//!     &input,
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
//! )?;
//! let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
//! let mut out = Vec::new();
//! let report = Batch::new()
//!     .threads(2)
//!     .columns(&[Column::Index, Column::Status, Column::Solution])
//!     .run_to_writer(&job, [&input], &mut out)?;
//! assert_eq!(report.totals.count(Status::Unique), 1);
//! assert!(String::from_utf8(out)?.starts_with("index,status,solution\n1,unique,483921657"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod generate;
mod jobs;
mod output;
mod pipeline;
mod ranges;
// The corpus report, for the binary and the Python binding: hidden, as
// `plumbing` (see the module's own documentation).
#[cfg(feature = "report")]
#[doc(hidden)]
pub mod report;
mod run;
mod totals;

pub use crate::generate::{Candidates, ErTarget, StreamReport as GenerateReport};
/// [`RateJob`]'s per-worker state (its [`Job::Scratch`]).
#[doc(hidden)]
pub use crate::jobs::RateScratch;
pub use crate::jobs::{
    CanonJob, ClassBy, ClassMap, DedupeJob, EngineKind, Equivalence, OverlapJob, Pass, RateJob,
    ScoreJob, SolveJob, SplitJob, Stratify,
};
pub use crate::output::{
    AsWritten, Column, Expected, Move, OutputFormat, Path, PathStep, Ratings, Row, RowEncoder,
    Split, Status,
};
pub use crate::pipeline::{fill_row, Job, Position, Progress, Report};
pub use crate::run::{Batch, Error};
pub use crate::totals::Totals;

/// The pipeline's own parts, for the `batchdoku` binary and the Python
/// binding: sinks and inputs, the run with its counters, generation's
/// configuration. Not part of the documented API and not covered by
/// semver: use [`Batch`].
#[doc(hidden)]
pub mod plumbing {
    pub use crate::generate::{run as generate, StreamConfig as GenerateConfig};
    pub use crate::pipeline::{
        build_pool, fill_row_until, flush, run, run_resuming, Compression, Config, Diverged, Fatal,
        Flushed, Input, PanicSite, ReadTally, Reopenable, Resume, Sink, Written,
    };
    pub use crate::ranges::Range;
}

/// The error of a command that needs Sudoku Explainer's ratings in a
/// build without them.
pub(crate) const RATE_FEATURE_MISSING: &str =
    "ratings need the `rate` feature (the LGPL-2.1-or-later crate batchdoku-rate), which this build leaves out";
