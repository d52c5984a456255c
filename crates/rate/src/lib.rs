//! # batchdoku-rate
//!
//! Sudoku Explainer's difficulty ratings for 9x9 Sudoku: the technique
//! ladder of Sudoku Explainer 1.2.1 (as serate 1.2.1.3 runs it) applied
//! step by step, easiest first, to a puzzle with one solution, giving its
//! ER, EP and ED and its solution path, exactly as Sudoku Explainer does,
//! at corpus speed.
//!
//! **Licence.** This crate is a derivative work of Sudoku Explainer
//! (Copyright (C) 2006-2007 Nicolas Juillerat, LGPL-2.1) and is licensed
//! `LGPL-2.1-or-later`: its `NOTICE` says which parts translate Sudoku
//! Explainer's code, `CHANGES.md` what was changed and when (every file of
//! this crate is modified from Sudoku Explainer; this header is its notice),
//! and `LICENSE-LGPL-2.1` is the licence's text. The rest of
//! batchdoku is MIT OR Apache-2.0 and uses this crate only through an
//! optional feature.
//!
//! The API is narrow: a [`Rater`] rates a [`Grid`](batchdoku_core::Grid)
//! within a [`Budget`] of work units and returns its [`Rating`], or why
//! not ([`Unrated`]); built [`with_path`](Rater::with_path) it keeps the
//! solution path, one [`Step`] per [`Technique`] applied.
//!
//! ## Example
//! ```
//! use batchdoku_core::parse_line;
//! use batchdoku_rate::{Budget, Rater, Technique};
//!
//! let puzzle = parse_line(
//!     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
//! )
//! .unwrap();
//! let mut rater = Rater::with_path(); // one per thread, reused for every puzzle
//! let rating = rater.rate(&puzzle, Budget::new(100_000_000)).unwrap();
//! assert_eq!((rating.er, rating.ep, rating.ed), (26, 12, 12)); // ER 2.6, EP 1.2, ED 1.2
//! assert_eq!(rating.steps as usize, rater.path().len());
//! let first = &rater.path()[0];
//! assert_eq!(first.technique(), Technique::HiddenSingle);
//! assert_eq!(first.rating(), 12);
//! ```
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]

mod aligned;
mod bits;
mod budget;
mod bug;
pub(crate) mod cands;
pub(crate) mod cells;
pub(crate) mod chains;
mod combinations;
mod fish;
mod intersections;
mod rater;
mod regions;
mod singles;
mod step;
mod subsets;
mod technique;
mod text;
mod unique_loops;
mod wings;

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

#[cfg(test)]
pub(crate) mod oracle_tests;
#[cfg(test)]
mod path_tests;

/// This crate's notice: what it derives from Sudoku Explainer, under which
/// licence, and where its complete source is (the file `NOTICE`).
pub const NOTICE: &str = include_str!("../NOTICE");

/// The text of the GNU Lesser General Public License, version 2.1, this
/// crate's licence (the file `LICENSE-LGPL-2.1`).
pub const LICENSE: &str = include_str!("../LICENSE-LGPL-2.1");

pub use budget::{Budget, OutOfBudget};
pub use rater::{Bounds, Rater, Rating, Unrated};
pub use step::Step;
pub use technique::Technique;
