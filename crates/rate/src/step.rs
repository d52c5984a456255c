//! One step of a solution path: what a technique found (a placement or
//! candidates to remove), what it is worth, and the pattern it found it
//! in (the cells, units and digits its text names).

use super::cands::Cands;
use super::cells::CellSet;
use super::technique::Technique;

/// What one technique found in a grid: a placement, or eliminations, or
/// both, the step's rating in tenths (Sudoku Explainer's 2.3 is 23), and
/// the pattern behind it, which [`Step::write_text`] puts into words.
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
    /// The pattern the technique found, for the step's text.
    pub(crate) pattern: Pattern,
}

/// The pattern behind a step, as its technique records it when it finds
/// the step: a few bytes of cells, units (0..27: rows, columns, boxes)
/// and digit masks (bit `d - 1`), so that keeping a path allocates
/// nothing; the text is written from it only when the path is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// Nothing beyond the placement (a naked single).
    Plain,
    /// A hidden single: the unit where the digit has its one place.
    Single {
        /// The unit.
        unit: u8,
    },
    /// Pointing or claiming: `digit`'s places in unit `first` all lie in
    /// unit `second` (for a direct one, the placement follows in another
    /// unit of `first`'s kind).
    Locking {
        /// The digit.
        digit: u8,
        /// The unit the digit is confined in.
        first: u8,
        /// The unit it is confined to.
        second: u8,
    },
    /// A naked or hidden set: `digits` in `cells` of `unit`.
    Subset {
        /// The unit.
        unit: u8,
        /// The set's digits.
        digits: u16,
        /// The set's cells.
        cells: CellSet,
    },
    /// A fish on `digit`: the digit's `cells` in the base lines (rows when
    /// `rows`, else columns), whose crossing lines are the cover.
    Fish {
        /// The digit.
        digit: u8,
        /// Whether the base lines are rows.
        rows: bool,
        /// The digit's cells in the base lines.
        cells: CellSet,
    },
    /// An XY- or XYZ-wing: the pivot and the two pincers.
    Wing {
        /// The pivot cell.
        pivot: u8,
        /// The pincer cells.
        pincers: [u8; 2],
    },
    /// A unique rectangle or loop of type `kind` (1 to 4) on two digits.
    Loop {
        /// The type.
        kind: u8,
        /// The loop's two digits.
        digits: u16,
        /// The loop's cells.
        cells: CellSet,
    },
    /// A BUG of type `kind` (1 to 4): the cells with extra candidates
    /// (its BUG values, `digits`).
    Bug {
        /// The type.
        kind: u8,
        /// The BUG values.
        digits: u16,
        /// The cells holding them.
        cells: CellSet,
    },
    /// Aligned pair or triplet exclusion: the two or three cells.
    Aligned {
        /// The cells.
        cells: CellSet,
    },
    /// A bidirectional cycle through `cells` on `digits`, of `links`
    /// implications.
    Cycle {
        /// The digits of its candidates.
        digits: u16,
        /// Its cells.
        cells: CellSet,
        /// Its length, in implications.
        links: u16,
    },
    /// A forcing chain (or several) from `premise`, of `links`
    /// implications in all, leading to the step's conclusion.
    Chain {
        /// What is assumed.
        premise: Premise,
        /// Its complexity: the implications counted for its rating.
        links: u16,
    },
}

/// What a forcing chain assumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Premise {
    /// `digit` in `cell` (or, not `on`, not in it) leads to a
    /// contradiction: the step is its opposite.
    Contradiction {
        /// The cell.
        cell: u8,
        /// The digit.
        digit: u8,
        /// Whether the digit is assumed placed (else removed).
        on: bool,
    },
    /// `digit` in `cell` and not in it both lead to the conclusion.
    Double {
        /// The cell.
        cell: u8,
        /// The digit.
        digit: u8,
    },
    /// Every candidate of `cell` leads to the conclusion.
    Cell {
        /// The cell.
        cell: u8,
    },
    /// Every place of `digit` in `unit` leads to the conclusion.
    Region {
        /// The unit.
        unit: u8,
        /// The digit.
        digit: u8,
    },
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
        let cells = self
            .eliminations
            .iter()
            .fold(CellSet::EMPTY, |all, &cells| all.or(cells));
        cells.iter().flat_map(move |cell| {
            (1..=9u8)
                .filter(move |&d| self.eliminations[usize::from(d - 1)].contains(cell))
                .map(move |d| (cell, d))
        })
    }

    /// The number of candidates the step removes.
    pub fn elimination_count(&self) -> usize {
        self.eliminations.iter().map(|c| c.len() as usize).sum()
    }

    /// A step that places `digit` in `cell`.
    pub(crate) fn place(technique: Technique, rating: u8, cell: usize, digit: u8) -> Step {
        Step {
            technique,
            rating,
            placement: Some((cell as u8, digit)),
            eliminations: [CellSet::EMPTY; 9],
            pattern: Pattern::Plain,
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
            pattern: Pattern::Plain,
        }
    }

    /// The step with `pattern` recorded for its text.
    pub(crate) fn with(self, pattern: Pattern) -> Step {
        Step { pattern, ..self }
    }

    /// Adds the removal of `digit` (1..=9) from `cells`.
    pub(crate) fn eliminate(&mut self, digit: u8, cells: CellSet) {
        let d = usize::from(digit - 1);
        self.eliminations[d] = self.eliminations[d].or(cells);
    }

    /// For a placing step, adds the removal of the placed cell's other
    /// candidates in `cands` (which the placement removes anyway).
    pub(crate) fn clear_placed_cell(&mut self, cands: &Cands) {
        if let Some((cell, digit)) = self.placement {
            let cell = usize::from(cell);
            let others = cands.candidates(cell) & !(1 << (digit - 1));
            for d in super::bits::digits(others) {
                self.eliminate(d, CellSet::single(cell));
            }
        }
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
