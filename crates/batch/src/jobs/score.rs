//! `score`: the best `sum(weight * digit)` over all solutions of each
//! puzzle, by branch-and-bound on the bitmask solver's search loop.

use std::fmt::Write as _;

use crate::output::{Column, Row, Status, SCORE_COLUMNS};
use crate::pipeline::{internal_error, Job};
use batchdoku_core::solver::Solver;
use batchdoku_core::Grid;
use batchdoku_core::Record;
use batchdoku_core::{score, ScoreOptions, Weights};

/// Scores each puzzle with one weight table.
///
/// The status is `solved` when the best score is proven, `limit` when the
/// node limit stopped the search first; an unsolvable puzzle scores -1.
///
/// # Example
/// ```
/// use batchdoku_batch::{Job, Row, ScoreJob, Status};
/// use batchdoku_core::{parse_line, Record, ScoreOptions, Weights};
/// let puzzle = parse_line(
///     b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
/// )
/// .unwrap();
/// let job = ScoreJob { weights: Weights::target(), options: ScoreOptions::default() };
/// let mut solver = job.scratch();
/// let (mut row, record) = (Row::default(), Record::default());
/// job.process(&mut solver, &puzzle, &record, &mut row);
/// assert_eq!(row.status, Status::Solved);
/// assert_eq!(row.score, Some(Weights::target().score(&row.solution.unwrap())));
///
/// // With a node limit too small to find a solution: no score, not proven.
/// let limited = ScoreJob { options: ScoreOptions { node_limit: Some(1), ..job.options }, ..job };
/// row.reset(2, 2);
/// limited.process(&mut solver, &puzzle, &record, &mut row);
/// assert_eq!((row.status, row.score), (Status::Limit, None));
/// ```
#[derive(Clone, Debug)]
pub struct ScoreJob {
    /// The weight of each cell.
    pub weights: Weights,
    /// Node limit and counting.
    pub options: ScoreOptions,
}

impl ScoreJob {
    /// The columns of `score`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &SCORE_COLUMNS;
}

impl Job for ScoreJob {
    type Scratch = Solver;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> Solver {
        Solver::new()
    }

    fn process(&self, solver: &mut Solver, puzzle: &Grid, _record: &Record, row: &mut Row) {
        let outcome = match score(solver, puzzle, &self.weights, &self.options) {
            Ok(o) => o,
            Err(conflict) => {
                row.status = Status::Invalid;
                let _ = write!(row.error, "{conflict}");
                return;
            }
        };
        row.nodes = outcome.nodes;
        row.guesses = outcome.stats.guesses;
        row.solutions = outcome.solutions.unwrap_or(0);
        match outcome.best {
            Some((best, grid)) => {
                // Answers are checked: the grid must solve the puzzle and
                // reach the score reported.
                if !grid.solves(puzzle) || self.weights.score(&grid) != best {
                    internal_error("the scored search returned an invalid solution");
                }
                row.score = Some(best);
                row.solution = Some(grid);
                row.status = if outcome.proven {
                    Status::Solved
                } else {
                    Status::Limit
                };
            }
            None if outcome.proven => {
                row.score = Some(-1);
                row.status = Status::Unsolvable;
            }
            // The limit came before the first solution: no score is known.
            None => row.status = Status::Limit,
        }
    }
}
