//! The ordered run: a stream of records through a pool of workers, one
//! output row per record, written in input order.
//!
//! Public on purpose: the `batchdoku` command-line tool and the Python
//! package are both built on it, and a Rust user who streams corpora gets
//! the same ordered, panic-safe, bounded-memory run. A [`Job`] fills a
//! [`Row`] for each record (the jobs of the commands: [`SolveJob`],
//! [`ScoreJob`], [`CanonJob`], [`DedupeJob`], [`OverlapJob`],
//! [`SplitJob`]); [`run`]
//! streams the records of its [`Input`]s through the job on
//! [`Config::threads`] workers, encodes each row with a [`RowEncoder`] in
//! one [`OutputFormat`] and writes the rows in input order to a [`Sink`],
//! which [`flush`] and [`Flushed::persist`] keep once the run has
//! completed. [`fill_row`] is the same per-record step for callers that
//! hold their puzzles in memory; [`generate`] streams generated puzzles
//! through the same pipeline.
//!
//! [`run`] has the example of a whole run over a file.
//!
//! # Example
//! ```
//! use std::sync::Arc;
//! use batchdoku_batch::{fill_row, Column, EngineKind, Job, OutputFormat, Position};
//! use batchdoku_batch::{Row, RowEncoder, SolveJob, Status};
//! use batchdoku_core::{parse_line, Record};
//!
//! let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, rate: false };
//! let mut scratch = job.scratch(); // one per worker
//! let record = Record::default();
//! let mut row = Row::default();
//! let source: Arc<str> = Arc::from("memory");
//! let at = Position { source: &source, line: 1, index: 1 };
//! let puzzle = parse_line(
//!     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! );
//! fill_row(&job, &mut scratch, puzzle.as_ref(), &record, &at, &mut row);
//! assert_eq!(row.status, Status::Unique);
//!
//! let columns = [Column::Index, Column::Status, Column::Solution];
//! let mut encoder = RowEncoder::new(OutputFormat::Csv, &columns, &[]);
//! let mut out = Vec::new();
//! encoder.encode(&row, &record, &mut out).unwrap();
//! assert!(out.starts_with(b"1,unique,483921657"));
//! ```

#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod generate;
mod jobs;
mod output;
mod pipeline;
mod totals;

pub use crate::generate::{
    run as generate, ErTarget, StreamConfig as GenerateConfig, StreamReport as GenerateReport,
};
pub use crate::jobs::{
    CanonJob, ClassBy, ClassMap, DedupeJob, EngineKind, Equivalence, OverlapJob, Pass, RateJob,
    RateScratch, ScoreJob, SolveJob, SplitJob, Stratify,
};
pub use crate::output::{Column, Expected, OutputFormat, Ratings, Row, RowEncoder, Split, Status};
pub use crate::pipeline::{
    build_pool, fill_row, flush, run, Compression, Config, Fatal, Flushed, Input, Job, PanicSite,
    Position, Progress, Reopenable, Report, Sink,
};
pub use crate::totals::Totals;

/// The error of a command that needs Sudoku Explainer's ratings in a
/// build without them.
pub(crate) const RATE_FEATURE_MISSING: &str =
    "ratings need the `rate` feature (the LGPL-2.1-or-later crate batchdoku-rate), which this build leaves out";
