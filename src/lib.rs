//! # batchdoku
//!
//! A bulk 9x9 Sudoku engine: parse puzzle corpora in every common format,
//! solve, count or score each puzzle with an allocation-free bitmask MRV
//! solver, and stream the results out in input order.
//!
//! ## Overview
//! - [`grid`]: the [`Grid`] type, unit and peer tables, validity checks.
//! - [`parse`]: record parsers and format detection.
//! - [`engine`]: the [`Engine`] interface both search engines implement,
//!   with its [`Outcome`] and [`Stats`] (search counters).
//! - [`solver`]: the bitmask MRV engine, the one search loop, driven by a
//!   [`solver::Visitor`] over each search [`solver::Node`].
//! - [`dlx`]: the independent dancing-links engine.
//! - [`score`]: the best weighted score over all solutions (branch-and-bound).
//! - [`canon`]: exact canonical (minlex) forms up to the 3,359,232 x 9! symmetries.
//! - [`difficulty`]: difficulty ratings (solved by naked and hidden singles alone).
//! - [`rng`]: the seeded random generator behind `generate` and the tests.
//! - [`generate`]: random grids, digging, and seeded unique-puzzle generation.
//! - [`jobs`]: the per-record work of each command (solve, score, canon,
//!   dedupe, overlap) and [`pipeline`], which streams records through them.
//! - [`output`]: the row schema and its CSV, JSONL and line encoders.
//! - [`totals`]: run totals per status and the end-of-run summary.
//! - [`bench`](mod@bench): the `bench` command's measurements.
//! - [`report`]: a corpus at a glance (totals, distributions, classes) as
//!   an HTML page with SVG plots, Markdown or JSON.
//!
//! ## Example
//! ```
//! use batchdoku::{parse, Engine, Solver};
//! let puzzle = parse::parse_line(
//!     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! )
//! .unwrap();
//! let mut solver = Solver::new(); // one per worker, reused for every puzzle
//! let outcome = solver.count_solutions_up_to(&puzzle, 2).unwrap();
//! assert_eq!(outcome.solutions, 1); // unique
//! let solution = outcome.solution.unwrap();
//! assert!(solution.solves(&puzzle));
//! assert_eq!(outcome.stats.guesses, 0); // singles alone solve this one
//! ```
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]

pub mod bench;
pub mod canon;
pub mod difficulty;
pub mod dlx;
pub mod engine;
pub mod generate;
pub mod grid;
pub mod jobs;
pub mod output;
pub mod parse;
pub mod pipeline;
pub mod report;
pub mod rng;
pub mod score;
pub mod solver;
pub mod totals;

pub use canon::{Canonicalizer, Transform, TransformError};
pub use dlx::DlxSolver;
pub use engine::{Engine, Outcome, Stats};
pub use generate::{ClueTarget, GenerateError, Generated, Generator, Spec, SpecError, Symmetry};
pub use grid::{Grid, CELLS};
pub use parse::{
    parse_line, InputFormat, ParseError, ParseErrorKind, ReadOptions, Record, RecordReader,
};
pub use rng::Rng;
pub use score::{score, ScoreOptions, ScoreOutcome, Weights, WeightsError};
pub use solver::{SimdPath, Solver};

#[cfg(test)]
mod testdata;
