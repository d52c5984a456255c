//! The interface both search engines implement: [`Engine`] (find and count
//! solutions), the [`Outcome`] of one search and its [`Stats`] counters.
//!
//! Two engines implement it: the bitmask MRV [`Solver`](crate::Solver) and
//! the dancing-links [`DlxSolver`](crate::DlxSolver). They share no
//! search code, so callers (the `solve` job, the generator, the tests) can
//! swap one for the other, and agreement between them is a cross-check.
//!
//! What is common is defined here; what a search "node" or a "guess" is
//! depends on how an engine searches, so each engine documents its own
//! units (see [`Solver`](crate::Solver) and
//! [`DlxSolver`](crate::DlxSolver)). Counters are comparable between
//! runs of one engine, not between engines.

use crate::grid::{Conflict, Grid};

/// Counters of one search, in the engine's own units.
///
/// Every engine counts the same three kinds of event; none of them depends
/// on timing or threads, so the same puzzle always gives the same counts
/// with the same engine (and version).
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, Engine, Solver};
/// // A puzzle whose singles do not go all the way: the solver must guess.
/// let puzzle = parse_line(
///     b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
/// )
/// .unwrap();
/// let mut solver = Solver::new();
/// let stats = solver.count_solutions_up_to(&puzzle, 2).unwrap().stats;
/// assert!(stats.guesses > 0 && stats.nodes > stats.guesses);
/// assert!(!stats.stopped); // it searched to the end to prove uniqueness
/// // Deterministic: the same puzzle gives the same counts.
/// assert_eq!(solver.count_solutions_up_to(&puzzle, 2).unwrap().stats, stats);
/// ```
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
///
/// # Example
/// ```
/// use batchdoku_core::{Engine, Grid, Solver};
/// let mut solver = Solver::new();
/// // The empty grid has many solutions: counting stops at the limit.
/// let outcome = solver.count_solutions_up_to(&Grid::empty(), 2).unwrap();
/// assert_eq!(outcome.solutions, 2);
/// assert!(outcome.stats.stopped);
/// assert!(outcome.solution.unwrap().is_valid_solution()); // the first one
///
/// // No solution: `solutions` is 0 and `solution` is `None`. Here the
/// // top-right cell can only be 9, but column 8 already has its 9.
/// let line = format!("12345678.........9{}", ".".repeat(63));
/// let stuck = batchdoku_core::parse_line(line.as_bytes()).unwrap();
/// let outcome = solver.solve_first(&stuck).unwrap();
/// assert_eq!((outcome.solutions, outcome.solution), (0, None));
/// ```
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
///
/// The error of both methods is the puzzle's first pair of contradictory
/// givens (the same report as [`Grid::first_conflict`]); its `Display`
/// names the digit and the unit.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, DlxSolver, Engine, Grid, Solver};
///
/// // Code written against the trait runs on either engine.
/// fn is_unique(engine: &mut dyn Engine, puzzle: &Grid) -> bool {
///     matches!(engine.count_solutions_up_to(puzzle, 2), Ok(o) if o.solutions == 1)
/// }
///
/// let puzzle = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let mut engines: [Box<dyn Engine>; 2] = [Box::new(Solver::new()), Box::new(DlxSolver::new())];
/// for engine in &mut engines {
///     assert!(is_unique(engine.as_mut(), &puzzle));
///     // Both engines agree on the solution.
///     let solution = engine.solve_first(&puzzle).unwrap().solution.unwrap();
///     assert_eq!(
///         solution.to_string(),
///         "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
///     );
/// }
///
/// // Contradictory givens (two 4s in row 1) are an error, not a search.
/// let mut bad = puzzle;
/// bad.set(1, 4);
/// let err = engines[0].solve_first(&bad).unwrap_err();
/// assert_eq!(err.to_string(), "contradictory givens: digit 4 twice in row 1");
/// ```
pub trait Engine {
    /// Counts the solutions of `puzzle`, stopping once `limit` (at least 1)
    /// are found; keeps the first. Contradictory givens give `Err`.
    fn count_solutions_up_to(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict>;

    /// Finds one solution (the same as counting up to 1).
    fn solve_first(&mut self, puzzle: &Grid) -> Result<Outcome, Conflict> {
        self.count_solutions_up_to(puzzle, 1)
    }

    /// Counts like [`count_solutions_up_to`](Self::count_solutions_up_to)
    /// (the same count and statistics) but keeps no solution: `solution`
    /// is `None`, so an engine need not build a grid. For callers that
    /// only need the count, such as a uniqueness check.
    ///
    /// ```
    /// use batchdoku_core::{parse_line, Engine, Solver};
    /// let puzzle = parse_line(
    ///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    /// )
    /// .unwrap();
    /// let mut solver = Solver::new();
    /// let count = solver.count_solutions_only(&puzzle, 2).unwrap();
    /// let full = solver.count_solutions_up_to(&puzzle, 2).unwrap();
    /// assert_eq!((count.solutions, count.stats), (full.solutions, full.stats));
    /// assert!(count.solution.is_none() && full.solution.is_some());
    /// ```
    fn count_solutions_only(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict> {
        let outcome = self.count_solutions_up_to(puzzle, limit)?;
        Ok(Outcome {
            solution: None,
            ..outcome
        })
    }
}
