//! Deterministic puzzle generation: random complete grids and puzzles dug
//! from them.
//!
//! Everything here is driven by [`Rng`], the crate's
//! seeded xoshiro256** generator, so the same seed always gives the same
//! grids on every platform and thread count: item `i` of a batch is
//! generated from its own stream [`Rng::for_item`]`(seed, i)`, never from
//! shared state.
//!
//! The grids are random but not uniformly distributed over all Sudoku
//! grids (see [`random_solution`]); that is fine for tests, benchmarks and
//! practice puzzles, not for statistics about the space of grids.
//!
//! Submodules: [`dig`](mod@dig) (random grids, digging, minimising),
//! [`Generator`] makes puzzles with exactly one solution to a [`Spec`]
//! (clue count, minimality, a [`Symmetry`] of the givens); the batch
//! crate streams them in parallel, in index order, to a sink.

pub(crate) mod dig;
mod generator;
mod symmetry;

#[cfg(any(test, feature = "testdata"))]
pub(crate) use dig::{dig, minimize_unique, unique_puzzle};
pub use dig::{minimize_by_orbits, random_solution};
pub use generator::{ClueTarget, GenerateError, Generated, Generator, Spec, SpecError};
pub use symmetry::{Orbits, Symmetries, Symmetry};
