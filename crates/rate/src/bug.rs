//! Bivalue universal grave (types 1 to 4): if every empty cell but a few
//! held two candidates and every digit two places per region, the puzzle
//! would have two solutions; so the few extra candidates ("BUG values")
//! are not all false. Type 1 rated 5.6, types 2 and 4 5.7, type 3 5.7
//! plus 0.1 per extra digit of its naked subset.

use super::bits::{count, digits};
use super::cands::Cands;
use super::cells::{CellSet, CELL_UNITS, PEER_SETS, UNIT_SETS};
use super::combinations::Combinations;
use super::regions::{BOXES, COLUMNS, HOUSE_ORDER, ROWS};
use super::step::{Pattern, Step};
use super::technique::{Technique, BUG_TYPES_2_TO_4_RATING};

/// The first BUG step SE finds, if the grid is a BUG plus a few extras.
pub(crate) fn bug(cands: &Cands) -> Option<Step> {
    let grave = find_pattern(cands)?;
    let cells = &grave.cells[..grave.len];
    let named = |kind: u8, step: Step| {
        step.with(Pattern::Bug {
            kind,
            digits: grave.all_values,
            cells: cells
                .iter()
                .fold(CellSet::EMPTY, |s, &c| s.or(CellSet::single(c))),
        })
    };
    if cells.len() == 1 {
        let cell = cells[0];
        let keep = grave.all_values;
        let mut step = Step::removing(Technique::Bug, Technique::Bug.base_rating());
        for digit in digits(cands.candidates(cell) & !keep) {
            step.eliminate(digit, CellSet::single(cell));
        }
        return step.is_useful(cands).then(|| named(1, step));
    }
    if count(grave.all_values) == 1 {
        if let Some(step) = type2(cands, &grave) {
            return Some(named(2, step));
        }
        if cells.len() == 2 {
            return type4(cands, &grave).map(|step| named(4, step));
        }
        return None;
    }
    if grave.common.is_empty() {
        return None;
    }
    if cells.len() == 2 {
        if let Some(step) = type4(cands, &grave) {
            return Some(named(4, step));
        }
    }
    type3(cands, &grave).map(|step| named(3, step))
}

/// The BUG cells (in the order SE meets them), their BUG values, and the
/// cells that see every BUG cell.
struct Grave {
    cells: [usize; 81],
    len: usize,
    values: [u16; 81],
    all_values: u16,
    common: CellSet,
    /// The first BUG cell, whose house order SE keeps for `common`.
    first: usize,
}

/// Finds the BUG cells as SE does (regions box, row, column; digits
/// upward), or `None` when the grid is not a BUG plus extras.
fn find_pattern(cands: &Cands) -> Option<Grave> {
    let mut p = Grave {
        cells: [0; 81],
        len: 0,
        values: [0; 81],
        all_values: 0,
        common: CellSet::ALL,
        first: 0,
    };
    let mut without = *cands;
    let mut bug_set = CellSet::EMPTY;
    for units in [BOXES, ROWS, COLUMNS] {
        for unit in units {
            for digit in 1..=9u8 {
                let places = cands.places(unit, digit);
                if places.is_empty() || places.is_pair() {
                    continue;
                }
                let mut wide = places.iter().filter(|&c| count(cands.candidates(c)) >= 3);
                let (Some(cell), None) = (wide.next(), wide.next()) else {
                    if places.iter().all(|c| count(cands.candidates(c)) < 3) {
                        return None;
                    }
                    continue;
                };
                if !bug_set.contains(cell) {
                    if p.len == 0 {
                        p.first = cell;
                    }
                    bug_set.insert(cell);
                    p.cells[p.len] = cell;
                    p.len += 1;
                }
                p.values[cell] |= 1 << (digit - 1);
                p.all_values |= 1 << (digit - 1);
                without.eliminate(cell, digit);
                p.common = p.common.and(PEER_SETS[cell]).minus(bug_set);
                if p.len > 1 && count(p.all_values) > 1 && p.common.is_empty() {
                    return None;
                }
            }
        }
    }
    if p.len == 0 {
        return None;
    }
    let all_bivalue = without
        .empty()
        .iter()
        .all(|c| count(without.candidates(c)) == 2);
    let all_pairs = (0..27).all(|u| (1..=9).all(|d| matches!(without.places(u, d).len(), 0 | 2)));
    (all_bivalue && all_pairs).then_some(p)
}

/// Type 2: one BUG value shared by all BUG cells leaves the cells that
/// see them all.
fn type2(cands: &Cands, p: &Grave) -> Option<Step> {
    let digit = p.all_values.trailing_zeros() as u8 + 1;
    let removed = p.common.and(cands.digit_cells(digit));
    if removed.is_empty() {
        return None;
    }
    let mut step = Step::removing(Technique::Bug, BUG_TYPES_2_TO_4_RATING);
    step.eliminate(digit, removed);
    Some(step)
}

/// Type 4: two BUG cells in one region sharing one non-BUG digit: one
/// of them holds it, so both lose their other non-BUG candidates.
fn type4(cands: &Cands, p: &Grave) -> Option<Step> {
    let (c1, c2) = (p.cells[0], p.cells[1]);
    let shared = cands.candidates(c1) & cands.candidates(c2) & !p.all_values;
    if count(shared) != 1 {
        return None;
    }
    let share_region = (0..3).any(|k| CELL_UNITS[c1][k] == CELL_UNITS[c2][k]);
    if !share_region {
        return None;
    }
    let mut step = Step::removing(Technique::Bug, BUG_TYPES_2_TO_4_RATING);
    for cell in [c1, c2] {
        let removed = cands.candidates(cell) & !p.values[cell] & !shared;
        for digit in digits(removed) {
            step.eliminate(digit, CellSet::single(cell));
        }
    }
    Some(step)
}

/// Type 3: the BUG values act as one cell of a naked subset with other
/// cells of a region all BUG cells share.
fn type3(cands: &Cands, p: &Grave) -> Option<Step> {
    let cells = &p.cells[..p.len];
    for kind in [2usize, 0, 1] {
        let unit = usize::from(CELL_UNITS[cells[0]][kind]);
        if cells
            .iter()
            .any(|&c| usize::from(CELL_UNITS[c][kind]) != unit)
        {
            continue;
        }
        // The common cells of this region, in the first BUG cell's house
        // order (SE indexes its tuples by it).
        let mut region_cells = [0usize; 20];
        let mut n = 0;
        for &c in &HOUSE_ORDER[p.first] {
            let c = usize::from(c);
            if p.common.contains(c) && UNIT_SETS[unit].contains(c) {
                region_cells[n] = c;
                n += 1;
            }
        }
        let region_cells = &region_cells[..n];
        for degree in 2..=6u32 {
            if (n as u32) < degree {
                continue;
            }
            for tuple in Combinations::new(degree - 1, n as u32) {
                let mut union = 0u16;
                let mut all_wide = count(p.all_values) >= 2;
                let mut naked_cells = CellSet::EMPTY;
                for (i, &c) in region_cells.iter().enumerate() {
                    if tuple >> i & 1 != 0 {
                        let set = cands.candidates(c);
                        union |= set;
                        all_wide &= count(set) >= 2;
                        naked_cells.insert(c);
                    }
                }
                if count(union) != degree {
                    continue;
                }
                let naked = union | p.all_values;
                if !all_wide || count(naked) != degree {
                    continue;
                }
                let erasable = region_cells
                    .iter()
                    .fold(CellSet::EMPTY, |s, &c| s.or(CellSet::single(c)))
                    .minus(naked_cells);
                let mut step =
                    Step::removing(Technique::Bug, BUG_TYPES_2_TO_4_RATING + degree as u8 - 1);
                for digit in digits(naked) {
                    step.eliminate(digit, erasable.and(cands.digit_cells(digit)));
                }
                if step.is_useful(cands) {
                    return Some(step);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::rater::Rater;
    use batchdoku_core::parse_line;

    #[test]
    fn an_empty_grid_is_no_bug() {
        let c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        assert!(bug(&c).is_none());
    }

    /// Every state where the rater took a BUG step in the serate
    /// fixtures is a BUG plus extras: once the BUG values go, every empty
    /// cell is bivalue and every digit has two places or none per region;
    /// a type 1 step keeps exactly the BUG value in the one BUG cell.
    #[test]
    fn bug_steps_on_real_paths_are_bugs() {
        let mut rater = Rater::with_path();
        let (mut seen, mut type1) = (0, 0);
        for fixture in crate::oracle_tests::fixtures() {
            let puzzle = fixture.puzzle;
            let _ = rater.rate(&puzzle, Budget::new(1 << 26));
            let mut c = Cands::new(&puzzle);
            for step in rater.path() {
                if step.technique == Technique::Bug {
                    seen += 1;
                    let p = find_pattern(&c).expect("a BUG pattern");
                    let mut without = c;
                    for &cell in &p.cells[..p.len] {
                        for digit in digits(p.values[cell]) {
                            without.eliminate(cell, digit);
                        }
                    }
                    assert!(without
                        .empty()
                        .iter()
                        .all(|cell| count(without.candidates(cell)) == 2));
                    if step.rating == 56 {
                        type1 += 1;
                        assert_eq!(p.len, 1);
                        let cell = p.cells[0];
                        let mut after = c;
                        step.apply(&mut after);
                        assert_eq!(after.candidates(cell), p.all_values);
                        assert_eq!(count(p.all_values), 1);
                    }
                }
                step.apply(&mut c);
            }
        }
        assert!(
            seen >= 10 && type1 >= 5,
            "{seen} BUG steps, {type1} of type 1"
        );
    }
}
