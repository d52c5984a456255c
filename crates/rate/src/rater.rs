//! The rating loop: Sudoku Explainer's `getDifficulty`. At each step the
//! techniques are tried in SE's fixed order and the first step the first
//! productive technique finds is applied, until the grid is solved.
//!
//! ER is the highest step rating; ED the rating of the first step; EP the
//! highest rating up to and including the first step that places a digit.

use super::aligned::{aligned_pair, aligned_triplet};
use super::budget::{Budget, OutOfBudget};
use super::bug::bug;
use super::cands::Cands;
use super::chains::{self, ChainLevel, PlusRules};
use super::fish::fish;
use super::intersections::intersection;
use super::singles::{hidden_single, naked_single};
use super::step::Step;
use super::subsets::{hidden_set, naked_set};
use super::technique::{Technique, FULL_HOUSE_RATING};
use super::unique_loops::unique_loop;
use super::wings::wing;
use batchdoku_core::Grid;

/// A puzzle's ratings and solution path summary. Ratings are in tenths
/// (SE's 7.2 is 72).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The highest step rating (SE's ER).
    pub er: u8,
    /// The highest rating up to the first placement (SE's EP).
    pub ep: u8,
    /// The rating of the first step (SE's ED).
    pub ed: u8,
    /// The technique of the first step that reached `er`; `None` when
    /// there was no step (a complete grid: ER, EP and ED 0.0, as serate
    /// rates it).
    pub hardest: Option<Technique>,
    /// The number of steps.
    pub steps: u32,
    /// How many steps each technique took, indexed like [`Technique::ALL`].
    pub counts: [u32; Technique::ALL.len()],
}

/// Why a puzzle got no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// The work budget ran out (status `limit`).
    OutOfBudget,
    /// No technique of the ladder applies (past its last level, nested
    /// chains of level 5, which no puzzle measured needs).
    NoTechnique,
    /// The budget's stop condition ([`Budget::until`]) asked to stop: the
    /// rating was abandoned, which says nothing about the puzzle.
    Stopped,
    /// The easiest step available was rated above [`Bounds::max_er`]: the
    /// puzzle's ER is above it (status `above`; the rating stopped there).
    Above,
    /// The first step was rated below [`Bounds::min_ed`], or the steps up to
    /// the first placement below [`Bounds::min_ep`]: the puzzle's ED or EP is
    /// below it (status `below`; the rating stopped there).
    Below,
}

/// Where a rating may stop early, for a caller that keeps only puzzles
/// within bounds: the rating stops as soon as the puzzle is known to fall
/// outside them, which skips most of the work on the hard ones. All in
/// tenths (7.0 is 70); `None` for no bound.
///
/// # Example
/// ```
/// use batchdoku_core::parse_line;
/// use batchdoku_rate::{Bounds, Budget, Rater, Unrated};
///
/// let puzzle = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap(); // ER 2.6, EP 1.2, ED 1.2
/// let mut rater = Rater::new();
/// let at_most = |tenths| Bounds { max_er: Some(tenths), ..Bounds::default() };
/// assert_eq!(rater.rate_bounded(&puzzle, Budget::new(u64::MAX), at_most(25)), Err(Unrated::Above));
/// assert_eq!(rater.rate_bounded(&puzzle, Budget::new(u64::MAX), at_most(26)).unwrap().er, 26);
/// let hard_start = Bounds { min_ed: Some(20), ..Bounds::default() };
/// assert_eq!(rater.rate_bounded(&puzzle, Budget::new(u64::MAX), hard_start), Err(Unrated::Below));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// The highest ER wanted: the rating stops with [`Unrated::Above`] as
    /// soon as the easiest step available is rated above it (when every
    /// technique left to try is rated above it, without trying them).
    pub max_er: Option<u8>,
    /// The lowest ED wanted: [`Unrated::Below`] after the first step when
    /// it is rated below it.
    pub min_ed: Option<u8>,
    /// The lowest EP wanted: [`Unrated::Below`] at the first placement when
    /// no step up to it reached it.
    pub min_ep: Option<u8>,
}

impl From<OutOfBudget> for Unrated {
    fn from(_: OutOfBudget) -> Unrated {
        Unrated::OutOfBudget
    }
}

/// SE's chain levels after aligned pair exclusion, with aligned triplet
/// exclusion (`None`) after the cycles, in its order.
const CHAIN_ORDER: [Option<ChainLevel>; 10] = [
    Some(ChainLevel::Cycles),
    None,
    Some(ChainLevel::Nishio),
    Some(ChainLevel::Multiple),
    Some(ChainLevel::Dynamic),
    Some(ChainLevel::DynamicPlus),
    Some(ChainLevel::Nested(2)),
    Some(ChainLevel::Nested(3)),
    Some(ChainLevel::Nested(4)),
    Some(ChainLevel::Nested(5)),
];

/// Rates puzzles one after another; reusable, it allocates nothing per
/// puzzle.
#[derive(Debug, Default)]
pub struct Rater {
    /// The steps of the last rating, when recording is on (for tests).
    trace: Option<Vec<Step>>,
    /// The summary of the last rating's steps, also when it stopped.
    partial: Rating,
}

impl Rating {
    /// The lowest and highest ER, in tenths, the rater can give a puzzle with
    /// an empty cell: 1.0, the easiest step of the ladder (a hidden single
    /// that is the last empty cell of its unit), and the deepest level of the
    /// ladder (nested forcing chains of level 5, 11.0) plus the longest length
    /// adjustment a chain can get. A complete grid takes no step: its ER is
    /// 0.0, as serate's.
    ///
    /// ```
    /// assert_eq!(batchdoku_rate::Rating::er_range().0, 10);
    /// assert!(batchdoku_rate::Rating::er_range().1 >= 110);
    /// ```
    pub fn er_range() -> (u8, u8) {
        (
            crate::technique::FULL_HOUSE_RATING,
            crate::chains::highest_rating(),
        )
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            er: 0,
            ep: 0,
            ed: 0,
            hardest: None,
            steps: 0,
            counts: [0; Technique::ALL.len()],
        }
    }
}

impl Rater {
    /// A rater; it keeps no path (see [`Rater::with_path`]).
    pub fn new() -> Rater {
        Rater::default()
    }

    /// A rater that keeps the last rating's solution path (see
    /// [`Rater::path`]). Its buffer is reused: after the longest path it
    /// has held, rating allocates nothing.
    pub fn with_path() -> Rater {
        Rater {
            trace: Some(Vec::new()),
            partial: Rating::default(),
        }
    }

    /// The steps of the last rating, in order (also of one that stopped,
    /// up to where it stopped), when built with [`Rater::with_path`];
    /// empty otherwise.
    pub fn path(&self) -> &[Step] {
        self.trace.as_deref().unwrap_or(&[])
    }

    /// Rates `puzzle` (which should have exactly one solution: the caller
    /// checks it) within `budget` work units.
    /// A budget made [`until`](Budget::until) a stop condition is asked
    /// every few thousand work units: [`Unrated::Stopped`] once it says so.
    pub fn rate(&mut self, puzzle: &Grid, budget: Budget<'_>) -> Result<Rating, Unrated> {
        self.rate_bounded(puzzle, budget, Bounds::default())
    }

    /// [`rate`](Rater::rate), stopping early ([`Unrated::Above`],
    /// [`Unrated::Below`]) as soon as the puzzle is known to fall outside
    /// `bounds`. A puzzle within them gets the rating `rate` gives.
    pub fn rate_bounded(
        &mut self,
        puzzle: &Grid,
        budget: Budget<'_>,
        bounds: Bounds,
    ) -> Result<Rating, Unrated> {
        let mut budget = budget;
        match self.rate_within(puzzle, &mut budget, bounds) {
            Err(Unrated::OutOfBudget) if budget.stopped() => Err(Unrated::Stopped),
            result => result,
        }
    }

    /// [`rate_bounded`](Rater::rate_bounded), spending from `budget`.
    fn rate_within(
        &mut self,
        puzzle: &Grid,
        budget: &mut Budget<'_>,
        bounds: Bounds,
    ) -> Result<Rating, Unrated> {
        let ceiling = bounds.max_er.unwrap_or(u8::MAX);
        let mut cands = Cands::new(puzzle);
        let rating = &mut self.partial;
        *rating = Rating::default();
        if let Some(trace) = self.trace.as_mut() {
            trace.clear();
        }
        let mut placed_yet = false;
        while !cands.is_solved() {
            budget.spend(1)?;
            let step = match next_step(&cands, budget, ceiling)? {
                Next::Step(step) if step.rating > ceiling => return Err(Unrated::Above),
                Next::Step(step) => step,
                Next::Above => return Err(Unrated::Above),
                Next::Nothing => return Err(Unrated::NoTechnique),
            };
            step.apply(&mut cands);
            if step.rating > rating.er || rating.hardest.is_none() {
                rating.er = step.rating;
                rating.hardest = Some(step.technique);
            }
            if rating.steps == 0 {
                rating.ed = rating.er;
            }
            if !placed_yet && step.placement.is_some() {
                placed_yet = true;
                rating.ep = rating.er;
            }
            rating.steps += 1;
            rating.counts[step.technique as usize] += 1;
            if let Some(trace) = self.trace.as_mut() {
                trace.push(step);
            }
            let below = |min: Option<u8>, value: u8| min.is_some_and(|min| value < min);
            if (rating.steps == 1 && below(bounds.min_ed, rating.ed))
                || (placed_yet && step.placement.is_some() && below(bounds.min_ep, rating.ep))
            {
                return Err(Unrated::Below);
            }
        }
        Ok(*rating)
    }
}

/// What the rater takes next.
pub(crate) enum Next {
    /// The step SE's rater takes.
    Step(Step),
    /// Every technique left to try is rated above the ceiling: whatever step
    /// comes next is.
    Above,
    /// No technique of the ladder applies.
    Nothing,
}

/// The step SE's rater takes in `cands`: the first step of the first
/// technique, in its order, that finds one; [`Next::Above`] without
/// trying them once every technique left is rated above `ceiling` (in
/// tenths: their lowest ratings grow along the ladder from the unique
/// loops on, so the check is one comparison per group).
pub(crate) fn next_step(
    cands: &Cands,
    budget: &mut Budget,
    ceiling: u8,
) -> Result<Next, OutOfBudget> {
    // The lowest rating of every technique from a point of the ladder on
    // is that point's lowest: past it, a step is rated above `ceiling`.
    let above = |lowest: u8| lowest > ceiling;
    if above(FULL_HOUSE_RATING) {
        return Ok(Next::Above);
    }
    let simple = hidden_single(cands)
        .or_else(|| intersection(cands, true))
        .or_else(|| hidden_set(cands, 2, true))
        .or_else(|| naked_single(cands))
        .or_else(|| hidden_set(cands, 3, true))
        .or_else(|| intersection(cands, false))
        .or_else(|| naked_set(cands, 2))
        .or_else(|| fish(cands, 2))
        .or_else(|| hidden_set(cands, 2, false))
        .or_else(|| naked_set(cands, 3))
        .or_else(|| fish(cands, 3))
        .or_else(|| hidden_set(cands, 3, false))
        .or_else(|| wing(cands, false))
        .or_else(|| wing(cands, true));
    if let Some(step) = simple {
        return Ok(Next::Step(step));
    }
    if above(Technique::UniqueRectangle.base_rating()) {
        return Ok(Next::Above);
    }
    if let Some(step) = unique_loop(cands, budget)? {
        return Ok(Next::Step(step));
    }
    if above(Technique::NakedQuad.base_rating()) {
        return Ok(Next::Above);
    }
    let middle = naked_set(cands, 4)
        .or_else(|| fish(cands, 4))
        .or_else(|| hidden_set(cands, 4, false))
        .or_else(|| bug(cands));
    if let Some(step) = middle {
        return Ok(Next::Step(step));
    }
    if above(Technique::AlignedPairExclusion.base_rating()) {
        return Ok(Next::Above);
    }
    if let Some(step) = aligned_pair(cands, budget)? {
        return Ok(Next::Step(step));
    }
    for level in CHAIN_ORDER {
        let lowest = match level {
            Some(level) => (level.base() * 10.0).round() as u8,
            None => Technique::AlignedTripletExclusion.base_rating(),
        };
        if above(lowest) {
            return Ok(Next::Above);
        }
        let found = match level {
            Some(ChainLevel::DynamicPlus) => {
                chains::find_with(cands, ChainLevel::DynamicPlus, &mut PlusRules, budget)?
            }
            Some(ChainLevel::Nested(depth)) => chains::find_nested(cands, depth, budget)?,
            Some(level) => chains::find(cands, level, budget)?,
            None => aligned_triplet(cands, budget)?,
        };
        if let Some(mut step) = found {
            // SE's chain hints that place a digit list the removal of
            // its cell's other candidates too: so does the path.
            step.clear_placed_cell(cands);
            return Ok(Next::Step(step));
        }
    }
    Ok(Next::Nothing)
}
