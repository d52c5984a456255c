//! The interface both search engines implement: [`Engine`] (find and count
//! solutions), the [`Outcome`] of one search and its [`Stats`] counters.
//!
//! Two engines implement it: the bitmask MRV [`Solver`](crate::Solver) and
//! the dancing-links [`DlxSolver`](crate::dlx::DlxSolver). They share no
//! search code, so callers (the `solve` job, the generator, the tests) can
//! swap one for the other, and agreement between them is a cross-check.
//!
//! What is common is defined here; what a search "node" or a "guess" is
//! depends on how an engine searches, so each engine documents its own
//! units (see [`Solver`](crate::Solver) and
//! [`DlxSolver`](crate::dlx::DlxSolver)). Counters are comparable between
//! runs of one engine, not between engines.

use crate::grid::{Conflict, Grid};

/// Counters of one search, in the engine's own units.
///
/// Every engine counts the same three kinds of event; none of them depends
/// on timing or threads, so the same puzzle always gives the same counts
/// with the same engine (and version).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Search nodes: partial solutions the engine examined (what one node
    /// is depends on the engine).
    pub nodes: u64,
    /// Branch points: alternatives tried where more than one was possible.
    pub guesses: u64,
    /// Dead ends: nodes found to have no way forward (backtracks forced by
    /// a contradiction).
    pub dead_ends: u64,
    /// True when the search ended early: the solution limit was reached or
    /// the caller asked to stop.
    pub stopped: bool,
}

/// The result of a first-solution or counting search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found (at most the limit asked for).
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Search counters.
    pub stats: Stats,
}

/// An engine that can find and count solutions of a puzzle.
///
/// Engines are meant to be created once per worker and reused; solving a
/// puzzle does not allocate.
pub trait Engine {
    /// Counts the solutions of `puzzle`, stopping once `limit` (at least 1)
    /// are found; keeps the first. Contradictory givens give `Err`.
    fn count_solutions_up_to(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict>;

    /// Finds one solution (the same as counting up to 1).
    fn solve_first(&mut self, puzzle: &Grid) -> Result<Outcome, Conflict> {
        self.count_solutions_up_to(puzzle, 1)
    }
}
