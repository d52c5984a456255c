//! `solve`: first solution, or count solutions up to a limit (uniqueness),
//! on the engine the user picked.

use std::fmt::Write as _;

use crate::output::{Column, Expected, Row, Status, SOLVE_COLUMNS};
use crate::pipeline::{internal_error, Job};
use batchdoku_core::solved_by_singles;
use batchdoku_core::solver::{SimdPath, Solver};
use batchdoku_core::DlxSolver;
use batchdoku_core::Engine;
use batchdoku_core::Grid;
use batchdoku_core::Record;

/// Which engine solves.
///
/// # Example
/// ```
/// use batchdoku_batch::EngineKind;
/// use batchdoku_core::{parse_line, SimdPath};
/// let kind: EngineKind = "dlx".parse().unwrap();
/// assert_eq!(kind, EngineKind::Dlx);
/// assert_eq!(EngineKind::ALL[0], EngineKind::Mrv); // the default first
///
/// let puzzle = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// for kind in EngineKind::ALL {
///     let mut engine = kind.build(); // a `Box<dyn Engine + Send>`, one per worker
///     assert_eq!(engine.count_solutions_up_to(&puzzle, 2).unwrap().solutions, 1);
/// }
/// let mut engine = EngineKind::Mrv.build_on(SimdPath::detect());
/// assert!(engine.solve_first(&puzzle).unwrap().solution.unwrap().solves(&puzzle));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineKind {
    /// The bitmask MRV solver (default).
    Mrv,
    /// Dancing links (Knuth's Algorithm X), for cross-checking.
    Dlx,
}

impl EngineKind {
    /// Every engine, the default first.
    pub const ALL: [EngineKind; 2] = [EngineKind::Mrv, EngineKind::Dlx];

    /// What the engine is, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            EngineKind::Mrv => "bitmask solver with minimum-remaining-values branching",
            EngineKind::Dlx => "dancing links (exact cover, Algorithm X)",
        }
    }

    /// The engine's name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineKind::Mrv => "mrv",
            EngineKind::Dlx => "dlx",
        }
    }

    /// A fresh engine of this kind (once per worker).
    pub fn build(self) -> Box<dyn Engine + Send> {
        self.build_on(SimdPath::detect())
    }

    /// [`build`](Self::build), with the mrv solver running `simd` (an
    /// available path; see [`SimdPath::is_available`]).
    pub fn build_on(self, simd: SimdPath) -> Box<dyn Engine + Send> {
        match self {
            EngineKind::Mrv => Box::new(
                Solver::with_simd(simd).unwrap_or_else(|| panic!("{simd} is not available here")),
            ),
            EngineKind::Dlx => Box::new(DlxSolver::new()),
        }
    }
}

impl std::str::FromStr for EngineKind {
    type Err = String;

    /// Parses an engine name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<EngineKind, String> {
        batchdoku_core::internal::parse_name("solver", &EngineKind::ALL, EngineKind::as_str, s)
    }
}

/// Solves each puzzle: first solution when `count_limit` is 1, else counts
/// solutions up to the limit.
///
/// The status is `solved` with a limit of 1, else `unique` or `multiple`;
/// `unsolvable` when there is no solution, `invalid` for contradictory
/// givens.
///
/// # Example
/// ```
/// use batchdoku_batch::{EngineKind, Job, Row, SolveJob, Status};
/// use batchdoku_core::{parse_line, Grid, Record};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: true };
/// let mut engine = job.scratch(); // one per worker
/// let (mut row, record) = (Row::default(), Record::default());
///
/// job.process(&mut engine, &puzzle, &record, &mut row);
/// assert_eq!((row.status, row.solutions), (Status::Unique, 1));
/// assert!(row.solution.unwrap().solves(&puzzle));
/// assert_eq!(row.singles, Some(true)); // singles alone solve it
///
/// row.reset(2, 2);
/// job.process(&mut engine, &Grid::empty(), &record, &mut row);
/// assert_eq!(row.status, Status::Multiple);
///
/// let first = SolveJob { count_limit: 1, ..job };
/// row.reset(3, 3);
/// first.process(&mut engine, &Grid::empty(), &record, &mut row);
/// assert_eq!(row.status, Status::Solved);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SolveJob {
    /// Stop counting at this many solutions (1 = first solution only).
    pub count_limit: u64,
    /// The engine to use.
    pub engine: EngineKind,
    /// Fill the difficulty columns: backtracks (the search's dead ends)
    /// and whether naked and hidden singles alone solve the puzzle
    /// ([`Column::Backtracks`](crate::Column::Backtracks),
    /// [`Column::Singles`](crate::Column::Singles)).
    pub difficulty: bool,
}

impl SolveJob {
    /// The columns of `solve`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &SOLVE_COLUMNS;
}

impl Job for SolveJob {
    type Scratch = Box<dyn Engine + Send>;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> Self::Scratch {
        self.engine.build()
    }

    fn process(&self, engine: &mut Self::Scratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        let outcome = if self.count_limit <= 1 {
            engine.solve_first(puzzle)
        } else {
            engine.count_solutions_up_to(puzzle, self.count_limit)
        };
        let outcome = match outcome {
            Ok(o) => o,
            Err(conflict) => {
                row.status = Status::Invalid;
                let _ = write!(row.error, "{conflict}");
                return;
            }
        };
        row.guesses = outcome.stats.guesses;
        row.nodes = outcome.stats.nodes;
        if self.difficulty {
            row.backtracks = outcome.stats.dead_ends;
            row.singles = Some(solved_by_singles(puzzle));
        }
        row.solutions = outcome.solutions;
        row.solution = outcome.solution;
        // Answers are checked: a solution that does not solve the puzzle is
        // a bug, which ends the run rather than pass for bad input.
        if outcome.solution.is_some_and(|s| !s.solves(puzzle)) {
            internal_error("the engine returned an invalid solution");
        }
        row.status = match (self.count_limit, outcome.solutions) {
            (_, 0) => Status::Unsolvable,
            (0 | 1, _) => Status::Solved,
            (_, 1) => Status::Unique,
            _ => Status::Multiple,
        };
        // A malformed expected solution is reported as such in its own
        // column: it is never the puzzle's fault, so the status stays.
        row.expected = record.expected.as_ref().map(|expected| match expected {
            Ok(grid) if grid.solves(puzzle) => Expected::Match,
            Ok(_) => Expected::Mismatch,
            Err(_) => Expected::Malformed,
        });
    }
}
