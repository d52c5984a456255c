//! One step of a solution path: what a technique found (a placement or
//! candidates to remove) and what it is worth.

use super::cands::Cands;
use super::cells::CellSet;
use super::technique::Technique;

/// What one technique found in a grid: a placement, or eliminations, or
/// both, and the step's rating in tenths (Sudoku Explainer's 2.3 is 23).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique that found it.
    pub(crate) technique: Technique,
    /// The rating in tenths, adjustments included.
    pub(crate) rating: u8,
    /// A cell and the digit (1..=9) it gets, for a placing step.
    pub(crate) placement: Option<(u8, u8)>,
    /// Per digit (index `d - 1`), the cells that lose that candidate.
    pub(crate) eliminations: [CellSet; 9],
}

impl Step {
    /// The technique that found the step.
    pub fn technique(&self) -> Technique {
        self.technique
    }

    /// The step's rating in tenths (Sudoku Explainer's 2.3 is 23),
    /// adjustments for a chain's length or a pattern's size included.
    pub fn rating(&self) -> u8 {
        self.rating
    }

    /// The cell (0..81, row by row) and the digit (1..=9) the step
    /// places, if it places one.
    pub fn placement(&self) -> Option<(usize, u8)> {
        self.placement
            .map(|(cell, digit)| (usize::from(cell), digit))
    }

    /// The candidates the step removes, as (cell, digit) pairs in cell
    /// order, then digit order.
    pub fn eliminations(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (0..batchdoku_core::internal::CELLS).flat_map(move |cell| {
            (1..=9u8)
                .filter(move |&d| self.eliminations[usize::from(d - 1)].contains(cell))
                .map(move |d| (cell, d))
        })
    }

    /// A step that places `digit` in `cell`.
    pub(crate) fn place(technique: Technique, rating: u8, cell: usize, digit: u8) -> Step {
        Step {
            technique,
            rating,
            placement: Some((cell as u8, digit)),
            eliminations: [CellSet::EMPTY; 9],
        }
    }

    /// A step that removes candidates, to be filled in with
    /// [`eliminate`](Self::eliminate).
    pub(crate) fn removing(technique: Technique, rating: u8) -> Step {
        Step {
            technique,
            rating,
            placement: None,
            eliminations: [CellSet::EMPTY; 9],
        }
    }

    /// Adds the removal of `digit` (1..=9) from `cells`.
    pub(crate) fn eliminate(&mut self, digit: u8, cells: CellSet) {
        let d = usize::from(digit - 1);
        self.eliminations[d] = self.eliminations[d].or(cells);
    }

    /// Whether the step changes anything in `cands`: a placement, or an
    /// elimination of a candidate that is still there.
    pub(crate) fn is_useful(&self, cands: &Cands) -> bool {
        self.placement.is_some()
            || self
                .eliminations
                .iter()
                .enumerate()
                .any(|(d, cells)| !cells.and(cands.digit_cells(d as u8 + 1)).is_empty())
    }

    /// Applies the step to `cands`.
    pub(crate) fn apply(&self, cands: &mut Cands) {
        for (d, cells) in self.eliminations.iter().enumerate() {
            for cell in cells.iter() {
                cands.eliminate(cell, d as u8 + 1);
            }
        }
        if let Some((cell, digit)) = self.placement {
            cands.place(usize::from(cell), digit);
        }
    }
}
