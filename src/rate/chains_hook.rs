//! The seam where the chain techniques plug into the rating loop.
//!
//! TEMPORARY: the chains are built in parallel in `src/rate/chains/`
//! (branch `rate-chains`), which exposes `chains::find(&Cands, ChainLevel,
//! &mut Budget) -> Result<Option<Step>, OutOfBudget>`. Until the branches
//! merge, this placeholder finds no chain, so the rater stops (status
//! "no technique applies") on puzzles that need one. The merge replaces
//! this module by `chains` (and this `ChainLevel` by theirs).

use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::step::Step;

/// Sudoku Explainer's chaining producers, in the order its rater tries
/// them (aligned triplet exclusion sits between `Cycles` and `Nishio`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChainLevel {
    /// Bidirectional X- and Y-cycles and forcing chains (static).
    Cycles,
    /// Nishio forcing chains.
    Nishio,
    /// Cell and region forcing chains (static, multiple).
    Multiple,
    /// Dynamic forcing chains.
    Dynamic,
    /// Dynamic forcing chains with the simple rules (nesting level 1).
    DynamicPlus,
    /// Nested forcing chains, SE's nesting levels 2 to 5.
    Nested(u8),
}

/// Placeholder for `chains::find`: finds nothing (see the module doc).
pub(crate) fn find(
    _cands: &Cands,
    _level: ChainLevel,
    _budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    Ok(None)
}
