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
use super::technique::Technique;
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
        let mut budget = budget;
        match self.rate_within(puzzle, &mut budget) {
            Err(Unrated::OutOfBudget) if budget.stopped() => Err(Unrated::Stopped),
            result => result,
        }
    }

    /// [`rate`](Rater::rate), spending from `budget`.
    fn rate_within(&mut self, puzzle: &Grid, budget: &mut Budget<'_>) -> Result<Rating, Unrated> {
        let mut cands = Cands::new(puzzle);
        let rating = &mut self.partial;
        *rating = Rating::default();
        if let Some(trace) = self.trace.as_mut() {
            trace.clear();
        }
        let mut placed_yet = false;
        while !cands.is_solved() {
            budget.spend(1)?;
            let Some(step) = next_step(&cands, budget)? else {
                return Err(Unrated::NoTechnique);
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
        }
        Ok(*rating)
    }
}

/// The step SE's rater takes in `cands`: the first step of the first
/// technique, in its order, that finds one.
pub(crate) fn next_step(cands: &Cands, budget: &mut Budget) -> Result<Option<Step>, OutOfBudget> {
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
    if simple.is_some() {
        return Ok(simple);
    }
    if let Some(step) = unique_loop(cands, budget)? {
        return Ok(Some(step));
    }
    let middle = naked_set(cands, 4)
        .or_else(|| fish(cands, 4))
        .or_else(|| hidden_set(cands, 4, false))
        .or_else(|| bug(cands));
    if middle.is_some() {
        return Ok(middle);
    }
    if let Some(step) = aligned_pair(cands, budget)? {
        return Ok(Some(step));
    }
    for level in CHAIN_ORDER {
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
            return Ok(Some(step));
        }
    }
    Ok(None)
}
