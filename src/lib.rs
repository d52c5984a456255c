//! The `batchdoku` command-line tool: the binary's own code, as a library
//! so that `src/main.rs` stays a few lines and the Rust examples of the
//! README and `docs/library.md` run as doctests. Not an API: Rust users depend on
//! [`batchdoku_core`] (grids, parsing, the solver, scoring, canonical forms,
//! generation), [`batchdoku_batch`] (the ordered multicore run) and, for
//! Sudoku Explainer's ratings, `batchdoku-rate` (LGPL-2.1-or-later).
#![deny(missing_docs)]
// The binary's modules are documented for maintainers (`cargo doc
// --document-private-items`), so their docs link private items.
#![allow(rustdoc::private_intra_doc_links)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[doc(hidden)]
pub mod cli;

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of `docs/library.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryDoctests;
