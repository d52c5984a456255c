//! # batchdoku
//!
//! A bulk 9x9 Sudoku engine: parse puzzle corpora in every common format,
//! solve, count or score each puzzle with an allocation-free bitmask MRV
//! solver, and stream the results out in input order.
//!
//! ## Overview
//! - [`grid`]: the [`Grid`] type, unit and peer tables, validity checks.
//! - [`parse`]: record parsers and format detection.
//! - [`solver`]: the one search loop, driven by a [`solver::Visitor`].
//! - [`score`]: the best weighted score over all solutions (branch-and-bound).
//! - [`canon`]: exact canonical (minlex) forms up to the 3,359,232 x 9! symmetries.
//! - [`rate`]: difficulty ratings (solved by naked and hidden singles alone).
//! - [`jobs`]: the per-record work of each command (solve, score, canon,
//!   dedupe, overlap) and [`pipeline`], which streams records through them.
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
pub mod dlx;
pub mod generate;
pub mod grid;
pub mod parse;
pub mod rate;
pub mod score;
pub mod solver;

pub use grid::Grid;
pub use solver::{Engine, Outcome, Solver, Stats};
pub mod jobs;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod report;
pub mod stats;
#[cfg(test)]
mod testdata;
