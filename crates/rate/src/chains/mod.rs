//! Sudoku Explainer's chain families: bidirectional cycles, forcing
//! chains, Nishio, multiple (cell and region) and dynamic forcing chains,
//! and the dynamic chains that use simpler rules inside ("plus") or
//! nest chains in chains.
//!
//! [`find`] runs one of Sudoku Explainer's chaining producers on a grid
//! and returns the hint it would hand out first (its hints sorted by
//! difficulty, then complexity, then kind), with Sudoku Explainer's
//! rating for it.

mod best;
mod cycles;
mod forcing;
mod links;
mod memo;
mod multiple;
mod nested;
mod node;
mod plus;
mod propagate;
mod rating;
mod reads;
mod simpler;
mod unit_places;

pub(crate) use nested::find as find_nested;

/// The highest rating, in tenths, any step can get: the deepest level the
/// ladder tries (nested forcing chains of level 5, 11.0) plus the length
/// adjustment of the longest chain a complexity can count (`u32::MAX`
/// implications). No puzzle measured comes near it; it bounds what the
/// rater can give, so a range above it is known to be empty.
pub(crate) fn highest_rating() -> u8 {
    rating::HintKey::new(ChainLevel::Nested(5).base(), u32::MAX, 0).tenths()
}
pub(crate) use plus::PlusRules;

/// A chain's complexity as a step's pattern keeps it (no chain comes near
/// 65,535 implications; a longer one would read as that many).
pub(super) fn links_of(complexity: u32) -> u16 {
    complexity.min(u32::from(u16::MAX)) as u16
}
pub(crate) use simpler::{NoSimplerRules, SimplerRules};

use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::step::Step;
use super::technique::Technique;
use best::Best;
use std::cell::RefCell;

/// One of Sudoku Explainer's chaining producers, in the order its rater
/// tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChainLevel {
    /// `Chaining(false, false, false, 0)`: X-cycles, Y-cycles, cycles,
    /// forcing X-chains and forcing chains (6.5 to 7.0 plus length).
    Cycles,
    /// `Chaining(false, true, true, 0)`: Nishio forcing chains (7.5).
    Nishio,
    /// `Chaining(true, false, false, 0)`: static cell and region forcing
    /// chains (8.0).
    Multiple,
    /// `Chaining(true, true, false, 0)`: dynamic forcing chains (8.5).
    Dynamic,
    /// `Chaining(true, true, false, 1)`: dynamic forcing chains with the
    /// simpler rules inside (9.0).
    DynamicPlus,
    /// `Chaining(true, true, false, n)`, n in 2..=5: nested forcing
    /// chains (9.5 + 0.5 (n - 2)).
    Nested(u8),
}

impl ChainLevel {
    /// Sudoku Explainer's base difficulty of the level's hints, from the
    /// rating table ([`Technique::base_rating`]); nested levels add 0.5
    /// per level past 2. The cycles level has one per hint kind (see
    /// [`rating::cycle_kind`]): its lowest here.
    pub(crate) fn base(self) -> f64 {
        match self {
            ChainLevel::Cycles => Technique::XCycle.base_difficulty(),
            ChainLevel::Nishio => Technique::NishioForcingChain.base_difficulty(),
            ChainLevel::Multiple => Technique::CellForcingChain.base_difficulty(),
            ChainLevel::Dynamic => Technique::DynamicForcingChain.base_difficulty(),
            ChainLevel::DynamicPlus => Technique::DynamicForcingChainPlus.base_difficulty(),
            ChainLevel::Nested(depth) => {
                Technique::NestedForcingChain.base_difficulty()
                    + 0.5 * f64::from(depth.saturating_sub(2))
            }
        }
    }

    /// Whether this level needs simpler rules inside its chains (see
    /// [`find_with`]).
    #[cfg(test)]
    pub(crate) fn uses_simpler_rules(self) -> bool {
        matches!(self, ChainLevel::DynamicPlus | ChainLevel::Nested(_))
    }
}

/// Working memory kept per thread so that a search allocates nothing
/// after the first.
struct Scratch {
    /// For the cycles producer.
    cycles: cycles::Scratch,
    /// For the multiple and dynamic producers.
    multiple: multiple::Scratch,
}

thread_local! {
    static SCRATCH: RefCell<Option<Box<Scratch>>> = const { RefCell::new(None) };
}

/// The first hint `level`'s producer gives in `cands`, if any. Levels
/// that use simpler rules inside their chains get none here (use
/// [`find_with`]).
pub(crate) fn find(
    cands: &Cands,
    level: ChainLevel,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    find_with(cands, level, &mut NoSimplerRules, budget)
}

/// The first hint `level`'s producer gives in `cands`, with `rules` the
/// simpler rules used inside the chains of the "plus" and nested levels.
pub(crate) fn find_with(
    cands: &Cands,
    level: ChainLevel,
    rules: &mut dyn SimplerRules,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    SCRATCH.with(|cell| {
        // A nested search (a rule calling back in) gets its own memory.
        let mut taken = cell.borrow_mut().take();
        let scratch = taken.get_or_insert_with(|| {
            Box::new(Scratch {
                cycles: cycles::Scratch::new(),
                multiple: multiple::Scratch::new(),
            })
        });
        let mut best = Best::default();
        let result = match level {
            ChainLevel::Cycles => cycles::search(cands, &mut best, &mut scratch.cycles, budget),
            _ => multiple::search(
                cands,
                level,
                rules,
                &mut best,
                &mut scratch.multiple,
                budget,
            ),
        };
        *cell.borrow_mut() = taken;
        result.map(|()| best.into_step())
    })
}

#[cfg(test)]
mod tests;
