//! # batchdoku-core
//!
//! The engine of batchdoku, a bulk 9x9 Sudoku tool: parse puzzles in every
//! common format, solve, count or score each one with an allocation-free
//! bitmask MRV solver, cross-check with dancing links, compute canonical
//! forms and generate seeded unique puzzles.
//!
//! The crate root holds what a Rust user needs:
//! - **Parsing:** [`Grid`], [`parse_line`] with [`ParseError`] and its
//!   [`ParseErrorKind`], and the streaming [`RecordReader`] ([`Record`],
//!   [`ReadOptions`], [`InputFormat`], [`InputLayout`]).
//! - **Engines:** the [`Engine`] interface ([`Outcome`], [`Stats`]) and its
//!   two implementations, the bitmask [`Solver`] (on a [`SimdPath`]) and the
//!   dancing-links [`DlxSolver`], kept to cross-check it.
//! - **Scoring:** [`score`] finds the best weighted score over all
//!   solutions ([`Weights`], [`ScoreOptions`], [`ScoreOutcome`]).
//! - **Canonical forms:** [`Canonicalizer`] and the [`Transform`] between a
//!   puzzle and its form.
//! - **Generation:** [`Generator`] makes seeded unique puzzles to a [`Spec`]
//!   ([`ClueTarget`], [`Symmetry`]); [`Rng`] is the seeded generator behind
//!   it. [`solved_by_singles`] says whether naked and hidden singles alone
//!   solve a puzzle.
//!
//! One module is public on purpose: [`solver`], the extension point of the
//! one search loop (a [`solver::Visitor`] over each [`solver::Node`]). The
//! ordered multicore run over a stream of records, which the command-line
//! tool and the Python package are built on, is the crate
//! `batchdoku-batch`; Sudoku Explainer's ratings are `batchdoku-rate`
//! (LGPL-2.1-or-later). This crate is MIT OR Apache-2.0.
//!
//! ## Example
//! ```
//! use batchdoku_core::{parse_line, Engine, Solver};
//! let puzzle =
//!     parse_line(b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
//!         .unwrap();
//! let mut solver = Solver::new(); // one per worker, reused for every puzzle
//! let outcome = solver.count_solutions_up_to(&puzzle, 2).unwrap();
//! assert_eq!(outcome.solutions, 1); // unique
//! let solution = outcome.solution.unwrap();
//! assert!(solution.solves(&puzzle));
//! assert_eq!(outcome.stats.guesses, 0); // singles alone solve this one
//! ```
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod canon;
mod dlx;
mod engine;
mod generate;
mod grid;
mod names;
mod parse;
mod rng;
mod score;
mod singles;
pub mod solver;

pub use canon::{Canonicalizer, Transform, TransformError};
pub use dlx::DlxSolver;
pub use engine::{Engine, Outcome, Stats};
pub use generate::{ClueTarget, GenerateError, Generated, Generator, Spec, SpecError, Symmetry};
pub use grid::Grid;
pub use parse::{
    parse_line, ExpectedColumn, InputFormat, InputLayout, ParseError, ParseErrorKind, ReadOptions,
    Record, RecordReader,
};
pub use rng::Rng;
pub use score::{score, ScoreOptions, ScoreOutcome, Weights, WeightsError};
pub use singles::solved_by_singles;
pub use solver::{SimdPath, Solver};

#[cfg(any(test, feature = "testdata"))]
#[doc(hidden)]
pub mod testdata;

#[doc(hidden)]
pub mod internal;
