//! `rate`: the human difficulty of each puzzle (Sudoku Explainer's ER, EP
//! and ED, by the technique ladder in [`crate::rate`]), and optionally a
//! machine difficulty that does not depend on how the puzzle is written.
//!
//! The ratings come from `batchdoku-rate` (LGPL-2.1-or-later), linked only
//! with the `rate` feature. Without it the job still exists, so that a
//! caller's code builds either way, but [`RateJob::available`] says why it
//! cannot run, and a puzzle it is given anyway becomes an `invalid` row
//! saying the same.

use std::fmt::Write as _;

#[cfg(feature = "rate")]
use crate::output::Ratings;
use crate::output::{Column, Row, Status, RATE_COLUMNS};
use crate::pipeline::{internal_error, Job};
use batchdoku_core::solver::Solver;
use batchdoku_core::Engine;
use batchdoku_core::Grid;
use batchdoku_core::Record;
use batchdoku_core::Rng;
use batchdoku_core::{Canonicalizer, Transform};
#[cfg(feature = "rate")]
use batchdoku_rate::{Bounds, Budget, Rater, Rating, Unrated};

/// Rates each puzzle.
///
/// A puzzle with exactly one solution gets status `rated` and its
/// [`Ratings`](crate::Ratings); one with none or several gets
/// `unsolvable` or `multiple` (as `solve --count 2` says) and no ratings;
/// one whose rating needs more work than `limit` allows gets `limit` and
/// no ratings (never a partial number); one outside the bounds `max_er`,
/// `min_ed`, `min_ep` gets `above` or `below`, unrated, as soon as that is
/// known.
///
/// # Example
/// ```
/// use batchdoku_batch::{Job, RateJob, Row, Status};
/// use batchdoku_core::{parse_line, Record};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let job = RateJob::default();
/// let mut scratch = job.scratch();
/// let (mut row, record) = (Row::default(), Record::default());
/// job.process(&mut scratch, &puzzle, &record, &mut row);
/// assert_eq!(row.status, Status::Rated);
/// let ratings = row.ratings.unwrap();
/// assert!(ratings.ed <= ratings.ep && ratings.ep <= ratings.er);
/// assert_eq!(ratings.er, 12); // hidden singles in boxes: serate says 1.2/1.2/1.2
/// ```
#[derive(Clone, Copy, Debug)]
pub struct RateJob {
    /// The work one puzzle's rating may take (units of the rater's inner
    /// loops: chain steps and candidate combinations tried).
    pub limit: u64,
    /// How many random equivalents the invariant means average over (0:
    /// no means).
    pub invariant: u32,
    /// The seed the equivalents are drawn from.
    pub seed: u64,
    /// Keep each rated puzzle's solution path ([`Row::path`]; the `path`
    /// column of `rate --path`).
    pub path: bool,
    /// The highest ER wanted, in tenths: a puzzle whose easiest step
    /// available is rated above it gets status `above` at once, unrated
    /// (`rate --max-er`).
    pub max_er: Option<u8>,
    /// The lowest ED wanted, in tenths: a puzzle whose first step is rated
    /// below it gets status `below` (`rate --min-ed`).
    pub min_ed: Option<u8>,
    /// The lowest EP wanted, in tenths: a puzzle whose steps up to the first
    /// placement are all rated below it gets status `below` (`rate --min-ep`).
    pub min_ep: Option<u8>,
}

impl RateJob {
    /// Whether this build can rate: `Err` with a message naming the `rate`
    /// feature when it was built without the rater.
    ///
    /// # Example
    /// ```
    /// use batchdoku_batch::RateJob;
    /// if let Err(why) = RateJob::available() {
    ///     assert!(why.contains("`rate` feature"));
    /// }
    /// ```
    pub fn available() -> Result<(), &'static str> {
        if cfg!(feature = "rate") {
            Ok(())
        } else {
            Err(crate::RATE_FEATURE_MISSING)
        }
    }

    /// The default work limit per puzzle.
    pub const DEFAULT_LIMIT: u64 = 1_000_000_000;

    /// The columns of `rate`, before the optional ones (`mean_guesses`,
    /// `mean_backtracks`, `path`, `trailing`, kept input columns).
    pub const COLUMNS: &'static [Column] = &RATE_COLUMNS;

    /// The lowest and highest ER, in tenths, the rater can give a puzzle
    /// with an empty cell (`batchdoku_rate::Rating::er_range`: 1.0 to the deepest
    /// level plus the longest length adjustment); `None` without the
    /// rater (the `rate` feature).
    pub fn er_range() -> Option<(u8, u8)> {
        #[cfg(feature = "rate")]
        return Some(batchdoku_rate::Rating::er_range());
        #[cfg(not(feature = "rate"))]
        return None;
    }
}

impl Default for RateJob {
    fn default() -> Self {
        RateJob {
            limit: RateJob::DEFAULT_LIMIT,
            invariant: 0,
            seed: 0,
            path: false,
            max_er: None,
            min_ed: None,
            min_ep: None,
        }
    }
}

/// One worker's reusable state.
#[derive(Debug)]
pub struct RateScratch {
    solver: Solver,
    #[cfg(feature = "rate")]
    rater: Rater,
    canon: Canonicalizer,
}

impl Job for RateJob {
    type Scratch = RateScratch;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> RateScratch {
        RateScratch {
            solver: Solver::new(),
            #[cfg(feature = "rate")]
            rater: if self.path {
                Rater::with_path()
            } else {
                Rater::new()
            },
            canon: Canonicalizer::new(),
        }
    }

    fn process(&self, scratch: &mut RateScratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        self.process_until(scratch, puzzle, record, row, &|| false);
    }

    /// Asks `stop` every few thousand work units of the rating and before
    /// each equivalent of `invariant`.
    fn process_until(
        &self,
        scratch: &mut RateScratch,
        puzzle: &Grid,
        _record: &Record,
        row: &mut Row,
        stop: &dyn Fn() -> bool,
    ) {
        let outcome = match scratch.solver.count_solutions_up_to(puzzle, 2) {
            Ok(o) => o,
            Err(conflict) => {
                let _ = write!(row.error, "{conflict}");
                return;
            }
        };
        if self.invariant > 0 {
            match self.means(scratch, puzzle, stop) {
                Some(means) => row.invariant = Some(means),
                None => return stopped(row),
            }
        }
        row.solutions = outcome.solutions;
        // Not a column of `rate`'s rows: what `--format line` writes, the
        // solution as `solve` finds it (the first of several).
        row.solution = outcome.solution;
        row.status = match outcome.solutions {
            0 => Status::Unsolvable,
            1 => self.rate_unique(scratch, puzzle, row, stop),
            _ => Status::Multiple,
        };
    }
}

impl RateJob {
    /// Rates a puzzle with one solution: its status, and its ratings in
    /// `row`.
    #[cfg(feature = "rate")]
    fn rate_unique(
        &self,
        scratch: &mut RateScratch,
        puzzle: &Grid,
        row: &mut Row,
        stop: &dyn Fn() -> bool,
    ) -> Status {
        let bounds = Bounds {
            max_er: self.max_er,
            min_ed: self.min_ed,
            min_ep: self.min_ep,
        };
        match scratch
            .rater
            .rate_bounded(puzzle, Budget::new(self.limit).until(stop), bounds)
        {
            Ok(rating) => {
                row.ratings = Some(Ratings::from(rating));
                if self.path {
                    row.path.set(scratch.rater.path());
                }
                Status::Rated
            }
            // Out of budget, or no technique applies (past the ladder's
            // last level, which no puzzle measured reaches): no rating
            // either way.
            Err(Unrated::OutOfBudget | Unrated::NoTechnique) => Status::Limit,
            // Outside the bounds: no rating, and none made up.
            Err(Unrated::Above) => Status::Above,
            Err(Unrated::Below) => Status::Below,
            Err(Unrated::Stopped) => {
                stopped(row);
                Status::Invalid
            }
        }
    }

    /// Without the rater: `invalid`, saying why.
    #[cfg(not(feature = "rate"))]
    fn rate_unique(
        &self,
        _: &mut RateScratch,
        _: &Grid,
        row: &mut Row,
        _: &dyn Fn() -> bool,
    ) -> Status {
        row.error.push_str(crate::RATE_FEATURE_MISSING);
        Status::Invalid
    }
}

impl RateJob {
    /// Mean guesses and dead ends of the first-solution search over
    /// `self.invariant` random equivalents of `puzzle`, each drawn from its
    /// canonical form with a generator seeded by that form and the seed:
    /// every equivalent of a puzzle gets the same means.
    /// `None` when `stop` said so before the last equivalent.
    fn means(
        &self,
        scratch: &mut RateScratch,
        puzzle: &Grid,
        stop: &dyn Fn() -> bool,
    ) -> Option<(f64, f64)> {
        let (canonical, _) = scratch.canon.canonical(puzzle);
        let mut rng = Rng::for_item(self.seed, form_key(&canonical));
        let (mut guesses, mut backtracks) = (0u64, 0u64);
        for k in 0..self.invariant {
            // A look every 64 equivalents: each is one solve, microseconds.
            if k % 64 == 0 && stop() {
                return None;
            }
            let equivalent = Transform::random(&mut rng).apply(&canonical);
            // The equivalent's givens are the puzzle's, relabelled: they
            // cannot clash.
            let stats = match scratch.solver.solve_first(&equivalent) {
                Ok(outcome) => outcome.stats,
                Err(_) => {
                    internal_error("an equivalent of a consistent puzzle has clashing givens")
                }
            };
            guesses += stats.guesses;
            backtracks += stats.dead_ends;
        }
        let n = f64::from(self.invariant);
        Some((guesses as f64 / n, backtracks as f64 / n))
    }
}

#[cfg(feature = "rate")]
impl From<Rating> for Ratings {
    fn from(r: Rating) -> Ratings {
        Ratings {
            er: r.er,
            ep: r.ep,
            ed: r.ed,
            steps: r.steps,
            hardest: r.hardest,
            counts: r.counts,
        }
    }
}

/// Marks a row whose rating `stop` cut short: no result (the caller drops
/// it), `invalid` saying so should it be written anyway.
fn stopped(row: &mut Row) {
    row.status = Status::Invalid;
    row.ratings = None;
    row.invariant = None;
    row.path.clear();
    row.error.clear();
    row.error.push_str("stopped before the rating ended");
}

/// A 64-bit key of a canonical form (FNV-1a over its cells).
fn form_key(canonical: &Grid) -> u64 {
    canonical
        .cells()
        .iter()
        .fold(0xCBF2_9CE4_8422_2325, |h, &c| {
            (h ^ u64::from(c)).wrapping_mul(0x0000_0100_0000_01B3)
        })
}

#[cfg(all(test, feature = "rate"))]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    fn rate(job: &RateJob, line: &str) -> Row {
        let puzzle = parse_line(line.as_bytes()).unwrap();
        let mut scratch = job.scratch();
        let mut row = Row::default();
        job.process(&mut scratch, &puzzle, &Record::default(), &mut row);
        row
    }

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn statuses_follow_the_solution_count() {
        let job = RateJob::default();
        assert_eq!(rate(&job, EASY).status, Status::Rated);
        let multiple = format!("{}{}", ".".repeat(18), &EASY[18..]);
        let row = rate(&job, &multiple);
        assert_eq!((row.status, row.ratings), (Status::Multiple, None));
        // Two givens that clash: invalid, with the reason.
        let clash = format!("33{}", &EASY[2..]);
        let row = rate(&job, &clash);
        assert_eq!(row.status, Status::Invalid);
        assert!(!row.error.is_empty());
    }

    #[test]
    fn invariant_means_are_the_same_for_every_equivalent() {
        let job = RateJob {
            invariant: 8,
            seed: 5,
            ..RateJob::default()
        };
        let hard =
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
        let puzzle = parse_line(hard.as_bytes()).unwrap();
        let means = rate(&job, hard).invariant.unwrap();
        let mut rng = Rng::new(99);
        for _ in 0..5 {
            let other = Transform::random(&mut rng).apply(&puzzle);
            let row = rate(&job, &other.to_line_string());
            assert_eq!(row.invariant, Some(means));
        }
        // Another seed draws other equivalents.
        let reseeded = RateJob { seed: 6, ..job };
        assert_ne!(rate(&reseeded, hard).invariant, Some(means));
        assert!(means.0 > 0.0, "this puzzle needs guesses");
    }
}
