//! The simpler rules of the dynamic forcing chains (+) (Sudoku Explainer's
//! `Chaining(true, true, false, 1)`, its "advanced potentials" of level
//! 1): locking, hidden pair, naked pair and X-wing, tried in that order on
//! the grid a chain has reduced so far.
//!
//! Each rule visits its patterns as the rating loop's own technique does
//! (the same scans: [`lockings`], [`hidden_sets`], [`naked_sets`],
//! [`fishes`]); a pattern's eliminations count inside the chain only when
//! it rests on candidates the chain removed (its "rule parents"):
//!
//! - locking (digit in unit `first` confined to unit `second`): the
//!   digit's removed places in `first` outside `second`;
//! - hidden set (digits confined to some cells of a unit): the digits'
//!   removed places in the unit's other cells;
//! - naked set (cells holding only some digits): the other digits the
//!   cells lost;
//! - X-wing (digit of the base lines confined to the cover lines): the
//!   digit's removed places in the base lines outside the cover lines.
//!
//! Sudoku Explainer's locking rule also lists "generalized
//! intersections" after the plain ones; on a 9x9 grid their eliminations
//! are those of a plain locking, and their parents (every removed place
//! of the first unit) add something only where the plain locking rests
//! on no removed candidate, that is where the locking held in the grid
//! the chain started from: the rating loop never starts a chain there,
//! so they are left out. (Nested chains, whose inner chains start from
//! grids a chain has reduced, will need them.)
//!
//! Within one pattern, Sudoku Explainer lists the eliminations in the
//! order of a hash map keyed by its cell objects' identity hash codes,
//! no grid order; we list them in cell order, digits upward (which of
//! two equal findings comes first can differ, rarely).

use super::simpler::{Found, SimplerRules};
use crate::bits::digits;
use crate::cands::Cands;
use crate::cells::{CellSet, UNIT_SETS};
use crate::fish::fishes;
use crate::intersections::lockings;
use crate::regions::all_positions;
use crate::subsets::{hidden_sets, naked_sets};
use std::ops::ControlFlow;

/// The most rule parents one pattern can have (a naked pair's two cells
/// with seven lost digits each, a hidden pair's two digits in seven other
/// cells, an X-wing's two base lines with seven other cells each).
const MAX_PARENTS: usize = 14;

/// Every unit's positions of every digit in the reduced grid (see
/// [`all_positions`]), built once per call and shared by the rules.
type Table = [[u16; 9]; 27];

/// Sudoku Explainer's level-1 simpler rules (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PlusRules;

/// The rule parents of one pattern: removed candidates `(cell, digit)`.
struct Parents {
    /// The parents found, the first `len` of them.
    items: [(u8, u8); MAX_PARENTS],
    /// How many.
    len: usize,
}

impl Parents {
    /// No parents.
    fn new() -> Parents {
        Parents {
            items: [(0, 0); MAX_PARENTS],
            len: 0,
        }
    }

    /// Adds `digit` of each cell of `cells`.
    fn add(&mut self, cells: CellSet, digit: u8) {
        for cell in cells.iter() {
            self.items[self.len] = (cell as u8, digit);
            self.len += 1;
        }
    }

    /// The parents found.
    fn as_slice(&self) -> &[(u8, u8)] {
        &self.items[..self.len]
    }
}

/// Reports `digit` removed from each of `cells` resting on `parents`,
/// when there are both; whether it reported anything.
fn report(found: &mut Found<'_>, cells: CellSet, digit: u8, parents: &Parents) -> bool {
    if cells.is_empty() || parents.len == 0 {
        return false;
    }
    for cell in cells.iter() {
        found(cell, digit, parents.as_slice());
    }
    true
}

/// The places of `digit` in `source` that `current` has lost.
#[inline]
fn removed(current: &Cands, source: &Cands, digit: u8) -> CellSet {
    source.digit_cells(digit).minus(current.digit_cells(digit))
}

/// Locking: each pointing or claiming that rests on removed candidates.
/// Whether any did.
fn locking(current: &Cands, source: &Cands, table: &Table, found: &mut Found<'_>) -> bool {
    let mut any = false;
    lockings(table, |first, second, digit| {
        let gone = current.places(second, digit).minus(UNIT_SETS[first]);
        let mut parents = Parents::new();
        parents.add(
            removed(current, source, digit)
                .and(UNIT_SETS[first])
                .minus(UNIT_SETS[second]),
            digit,
        );
        any |= report(found, gone, digit, &parents);
        ControlFlow::<()>::Continue(())
    });
    any
}

/// Hidden pairs: each one that rests on removed candidates (its cells
/// lose their other candidates, cell by cell). Whether any did.
fn hidden_pair(current: &Cands, source: &Cands, table: &Table, found: &mut Found<'_>) -> bool {
    let mut any = false;
    hidden_sets(current, table, 2, false, |unit, tuple, cells| {
        let mut parents = Parents::new();
        let others = UNIT_SETS[unit].minus(cells);
        for digit in digits(tuple) {
            parents.add(source.digit_cells(digit).and(others), digit);
        }
        if parents.len == 0 {
            return ControlFlow::<()>::Continue(());
        }
        for cell in cells.iter() {
            for digit in digits(current.candidates(cell) & !tuple) {
                found(cell, digit, parents.as_slice());
                any = true;
            }
        }
        ControlFlow::Continue(())
    });
    any
}

/// Naked pairs: each one that rests on removed candidates (the other
/// cells of the unit lose its digits, cell by cell). Whether any did.
fn naked_pair(current: &Cands, source: &Cands, found: &mut Found<'_>) -> bool {
    let mut any = false;
    naked_sets(current, 2, |unit, cells, union| {
        let mut parents = Parents::new();
        for cell in cells.iter() {
            for digit in digits(source.candidates(cell) & !union) {
                parents.add(CellSet::single(cell), digit);
            }
        }
        if parents.len == 0 {
            return ControlFlow::<()>::Continue(());
        }
        for cell in UNIT_SETS[unit].minus(cells).iter() {
            for digit in digits(current.candidates(cell) & union) {
                found(cell, digit, parents.as_slice());
                any = true;
            }
        }
        ControlFlow::Continue(())
    });
    any
}

/// X-wings: each one that rests on removed candidates. Whether any did.
fn x_wing(current: &Cands, source: &Cands, table: &Table, found: &mut Found<'_>) -> bool {
    let mut any = false;
    fishes(current, table, 2, |digit, base_cells, cover_cells| {
        let gone = current
            .digit_cells(digit)
            .and(cover_cells)
            .minus(base_cells);
        let mut parents = Parents::new();
        parents.add(
            removed(current, source, digit)
                .and(base_cells)
                .minus(cover_cells),
            digit,
        );
        any |= report(found, gone, digit, &parents);
        ControlFlow::<()>::Continue(())
    });
    any
}

impl SimplerRules for PlusRules {
    fn eliminations(&mut self, current: &Cands, source: &Cands, found: &mut Found<'_>) {
        let table = all_positions(current);
        let _ = locking(current, source, &table, found)
            || hidden_pair(current, source, &table, found)
            || naked_pair(current, source, found)
            || x_wing(current, source, &table, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    fn empty_grid() -> Cands {
        Cands::new(&parse_line(&[b'.'; 81]).unwrap())
    }

    /// One elimination reported: cell, digit, parents.
    type Report = (usize, u8, Vec<(u8, u8)>);

    /// Runs the rules; the eliminations reported, with their parents.
    fn run(current: &Cands, source: &Cands) -> Vec<Report> {
        let mut out = Vec::new();
        PlusRules.eliminations(current, source, &mut |c, d, p| out.push((c, d, p.to_vec())));
        out
    }

    #[test]
    fn a_locking_that_held_before_the_chain_is_not_reported() {
        // Box 1's 1s confined to row 1 in both grids: no parent.
        let mut source = empty_grid();
        for cell in [9, 10, 11, 18, 19, 20] {
            source.eliminate(cell, 1);
        }
        assert!(run(&source, &source).is_empty());
    }

    #[test]
    fn a_pointing_the_chain_made_rests_on_the_places_it_removed() {
        let source = empty_grid();
        let mut current = source;
        for cell in [9, 10, 11, 18, 19, 20] {
            current.eliminate(cell, 1);
        }
        let found = run(&current, &source);
        // Row 1 loses 1 outside box 1, resting on the six removed places.
        assert_eq!(found.len(), 6);
        assert_eq!(found[0].0, 3);
        assert_eq!(found[0].1, 1);
        let parents: Vec<(u8, u8)> = [9, 10, 11, 18, 19, 20].iter().map(|&c| (c, 1)).collect();
        assert_eq!(found[0].2, parents);
        // Locking found something: the later rules are not asked.
        assert!(found.iter().all(|f| f.1 == 1));
    }

    #[test]
    fn a_hidden_pair_rests_on_the_places_its_digits_lost() {
        let source = empty_grid();
        let mut current = source;
        // Row 1's 1 and 2 confined to r1c1 and r1c5 (two boxes: no
        // locking).
        for cell in [1, 2, 3, 5, 6, 7, 8] {
            current.eliminate(cell, 1);
            current.eliminate(cell, 2);
        }
        let found = run(&current, &source);
        // The pair's cells lose 3 to 9, cell by cell.
        let targets: Vec<(usize, u8)> = found.iter().map(|f| (f.0, f.1)).collect();
        let expected: Vec<(usize, u8)> = [0, 4]
            .iter()
            .flat_map(|&c| (3..=9).map(move |d| (c, d)))
            .collect();
        assert_eq!(targets, expected);
        let parents = &found[0].2;
        assert_eq!(parents.len(), 14);
        assert!(parents
            .iter()
            .all(|&(c, d)| c != 0 && c != 4 && c < 9 && d <= 2));
    }

    #[test]
    fn a_naked_pair_rests_on_the_digits_its_cells_lost() {
        let source = empty_grid();
        let mut current = source;
        // r1c1 and r1c9 keep 1 and 2 only: a naked pair in row 1.
        current.keep_only(0, &[1, 2]);
        current.keep_only(8, &[1, 2]);
        let found = run(&current, &source);
        let targets: Vec<(usize, u8)> = found.iter().map(|f| (f.0, f.1)).collect();
        let expected: Vec<(usize, u8)> = (1..8).flat_map(|c| [(c, 1), (c, 2)]).collect();
        assert_eq!(targets, expected);
        let parents = &found[0].2;
        assert_eq!(parents.len(), 14);
        assert!(parents.iter().all(|&(c, d)| (c == 0 || c == 8) && d > 2));
    }

    #[test]
    fn an_x_wing_rests_on_the_places_its_base_lines_lost() {
        let source = empty_grid();
        let mut current = source;
        // Columns 1 and 5 keep their 7s in rows 1 and 5 only.
        for row in [1, 2, 3, 5, 6, 7, 8] {
            current.eliminate(row * 9, 7);
            current.eliminate(row * 9 + 4, 7);
        }
        let found = run(&current, &source);
        assert!(found.iter().all(|f| f.1 == 7));
        let targets: Vec<usize> = found.iter().map(|f| f.0).collect();
        let expected: Vec<usize> = (0..81)
            .filter(|&c| (c / 9 == 0 || c / 9 == 4) && c % 9 != 0 && c % 9 != 4)
            .collect();
        assert_eq!(targets, expected);
        assert_eq!(found[0].2.len(), 14);
    }
}
