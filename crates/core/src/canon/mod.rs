//! Exact canonical forms ("minlex") of Sudoku grids, for deduplicating
//! corpora up to equivalence.
//!
//! Two grids are equivalent when one becomes the other by a
//! validity-preserving [`Transform`]: permuting the bands, the rows inside
//! each band, the stacks, the columns inside each stack, transposing, and
//! relabelling the digits (2 x 6^8 = 3,359,232 cell permutations times 9!
//! relabellings). The canonical form is the lexicographically smallest
//! 81-character string, blanks written as `0`, over all of them — the
//! puzzle community's "minlex" convention: blanks sort first, and for a
//! fixed cell permutation the digits are relabelled greedily (the first
//! digit met in row-major order becomes 1, the next new one 2, ...),
//! which is the smallest relabelling for that permutation.
//!
//! The result is exact for every grid (unique, multi-solution,
//! contradictory, complete, empty): [`Canonicalizer`] runs a pruned search
//! (see `search.rs`), and the tests compare it with a brute force over all
//! 3,359,232 cell permutations. [`Canonicalizer`] and [`Transform`] have
//! the examples.

mod complete;
mod search;
mod transform;

#[cfg(test)]
mod tests;

pub use search::Canonicalizer;
pub use transform::{Transform, TransformError};

use crate::grid::Grid;

/// The canonical form of `grid` and a transformation mapping `grid` to it
/// (`t.apply(grid) == canonical`). Convenience for one-off calls; use a
/// [`Canonicalizer`] per worker in loops.
#[cfg_attr(not(test), allow(dead_code))]
pub fn canonical_form(grid: &Grid) -> (Grid, Transform) {
    Canonicalizer::new().canonical(grid)
}

/// How a value compares with the best prefix found so far, for the
/// canonical searches' pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    /// Larger than the best at its position: prune.
    Worse,
    /// Equal: the candidate goes on.
    Tie,
    /// Smaller: it is the best now, every later position is unset, and
    /// the caller drops the candidates it collected for the old best.
    Better,
}

/// Offers `value` at position `at` of a prefix whose earlier positions
/// equal `best` (`unset` marks a position with no best yet, larger than
/// every value): the one rule of both canonical searches.
#[inline(always)]
fn offer(best: &mut [u8], at: usize, value: u8, unset: u8) -> Offer {
    let b = best[at];
    if value > b {
        Offer::Worse
    } else if value == b {
        Offer::Tie
    } else {
        best[at] = value;
        best[at + 1..].fill(unset);
        Offer::Better
    }
}
