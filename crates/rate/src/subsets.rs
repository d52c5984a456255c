//! Subsets: `n` cells of a region holding `n` candidates between them
//! (naked pair, triplet, quad), and `n` digits of a region confined to
//! `n` cells (hidden pair, triplet, quad). SE tries regions as boxes,
//! columns, rows and tuples in increasing mask order.

use super::bits::{count, digits, indices};
use super::cands::Cands;
use super::cells::{CellSet, UNIT_SETS};
use super::combinations::SubsetsOf;
use super::regions::{all_positions, cells_at, empty_count, unit_cell, BOXES_COLUMNS_ROWS};
use super::step::{Pattern, Step};
use super::technique::Technique;
use std::ops::ControlFlow;

/// The first naked set of `degree` (2 to 4) cells that removes something:
/// every cell of the tuple has at least two candidates and the tuple holds
/// `degree` between them. Rated 3.0, 3.6, 5.0.
pub(crate) fn naked_set(cands: &Cands, degree: u32) -> Option<Step> {
    let (technique, rating) = match degree {
        2 => Technique::NakedPair.with_base(),
        3 => Technique::NakedTriplet.with_base(),
        _ => Technique::NakedQuad.with_base(),
    };
    naked_sets(cands, degree, |unit, cells, union| {
        let others = UNIT_SETS[unit].minus(cells);
        let mut step = Step::removing(technique, rating).with(Pattern::Subset {
            unit: unit as u8,
            digits: union,
            cells,
        });
        for digit in digits(union) {
            step.eliminate(digit, cands.digit_cells(digit).and(others));
        }
        if step.is_useful(cands) {
            ControlFlow::Break(step)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// Visits SE's naked sets of `degree` cells in its order (regions as
/// boxes, columns, rows with at least `2 * degree` empty cells; cell
/// tuples in increasing mask order): `visit(unit, cells, digits)` for
/// each, whether or not it removes anything; stops at the first `Break`,
/// whose value it returns.
#[inline]
pub(crate) fn naked_sets<T>(
    cands: &Cands,
    degree: u32,
    mut visit: impl FnMut(usize, CellSet, u16) -> ControlFlow<T>,
) -> Option<T> {
    for &unit in &BOXES_COLUMNS_ROWS {
        if empty_count(cands, unit) < 2 * degree {
            continue;
        }
        let mut held = [0u16; 9];
        for (i, mask) in held.iter_mut().enumerate() {
            *mask = cands.candidates(unit_cell(unit, i));
        }
        let eligible = eligible(&held, degree);
        if count(eligible) < degree {
            continue;
        }
        for tuple in SubsetsOf::new(degree, eligible) {
            let Some(union) = common_tuple(tuple, degree, |i| held[i]) else {
                continue;
            };
            if let ControlFlow::Break(found) = visit(unit, cells_at(unit, tuple as u16), union) {
                return Some(found);
            }
        }
    }
    None
}

/// The first hidden set of `degree` (2 to 4) digits: every digit of the
/// tuple has at least two places and they share `degree` cells. Plain
/// (rated 3.4, 4.0, 5.4), it counts when those cells lose another
/// candidate. `direct` (degree 2 or 3, rated 2.0, 2.5), it counts only
/// when that leaves another digit one place in the region, and places it.
pub(crate) fn hidden_set(cands: &Cands, degree: u32, direct: bool) -> Option<Step> {
    let (technique, rating) = match (degree, direct) {
        (2, true) => Technique::DirectHiddenPair.with_base(),
        (3, true) => Technique::DirectHiddenTriplet.with_base(),
        (2, false) => Technique::HiddenPair.with_base(),
        (3, false) => Technique::HiddenTriplet.with_base(),
        _ => Technique::HiddenQuad.with_base(),
    };
    hidden_sets(
        cands,
        &all_positions(cands),
        degree,
        direct,
        |unit, tuple, cells| {
            let mut step = Step::removing(technique, rating).with(Pattern::Subset {
                unit: unit as u8,
                digits: tuple,
                cells,
            });
            for digit in digits(0x1FF & !tuple) {
                step.eliminate(digit, cands.digit_cells(digit).and(cells));
            }
            if !direct {
                return if step.is_useful(cands) {
                    ControlFlow::Break(step)
                } else {
                    ControlFlow::Continue(())
                };
            }
            let single = digits(0x1FF & !tuple).find_map(|digit| {
                let places = cands.places(unit, digit);
                let left = places.minus(cells);
                (places.at_least_two() && left.is_single()).then_some((left, digit))
            });
            match single {
                Some((left, digit)) => {
                    step.placement = Some((left.first().expect("one cell") as u8, digit));
                    ControlFlow::Break(step)
                }
                None => ControlFlow::Continue(()),
            }
        },
    )
}

/// Visits SE's hidden sets of `degree` digits (`table`: the grid's
/// [`all_positions`]) in its order (regions as
/// boxes, columns, rows with more than `2 * degree` empty cells, or more
/// than `degree` when `direct`; digit tuples in increasing mask order):
/// `visit(unit, digits, cells)` with the digits as a mask (bit `d - 1`)
/// and the cells they share, whether or not it removes anything; stops
/// at the first `Break`, whose value it returns.
#[inline]
pub(crate) fn hidden_sets<T>(
    cands: &Cands,
    table: &[[u16; 9]; 27],
    degree: u32,
    direct: bool,
    mut visit: impl FnMut(usize, u16, CellSet) -> ControlFlow<T>,
) -> Option<T> {
    for &unit in &BOXES_COLUMNS_ROWS {
        let empty = empty_count(cands, unit);
        if !(empty > 2 * degree || (direct && empty > degree)) {
            continue;
        }
        let places = &table[unit];
        let eligible = eligible(places, degree);
        if count(eligible) < degree {
            continue;
        }
        for tuple in SubsetsOf::new(degree, eligible) {
            let Some(common) = common_tuple(tuple, degree, |i| places[i]) else {
                continue;
            };
            if let ControlFlow::Break(found) = visit(unit, tuple as u16, cells_at(unit, common)) {
                return Some(found);
            }
        }
    }
    None
}

/// The members (bit `i` for `sets[i]`) that may be in a common tuple of
/// `degree`: those with two to `degree` elements (a member with more
/// makes the union too big, one with fewer fails SE's test).
#[inline]
pub(crate) fn eligible(sets: &[u16; 9], degree: u32) -> u16 {
    let mut mask = 0u16;
    for (i, set) in sets.iter().enumerate() {
        let n = count(*set);
        if n >= 2 && n <= degree {
            mask |= 1 << i;
        }
    }
    mask
}

/// SE's common tuple test over the `degree` members of `tuple` (bit `i`
/// for member `i`): each member's set (`set_of(i)`, a 9-bit mask) has at
/// least two elements and their union has exactly `degree`; the union.
#[inline]
fn common_tuple(tuple: u32, degree: u32, set_of: impl Fn(usize) -> u16) -> Option<u16> {
    let mut union = 0u16;
    for i in indices(tuple) {
        let set = set_of(i);
        if count(set) < 2 {
            return None;
        }
        union |= set;
    }
    (count(union) == degree).then_some(union)
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    fn empty_grid() -> Cands {
        Cands::new(&parse_line(&[b'.'; 81]).unwrap())
    }

    #[test]
    fn naked_pair_in_a_box_clears_the_pair_from_the_box() {
        let mut c = empty_grid();
        for digit in 3..=9 {
            c.eliminate(0, digit);
            c.eliminate(1, digit);
        }
        let step = naked_set(&c, 2).unwrap();
        assert_eq!(step.technique, Technique::NakedPair);
        assert_eq!(step.rating, 30);
        let rest_of_box = UNIT_SETS[18].minus(CellSet(0b11));
        assert_eq!(step.eliminations[0], rest_of_box);
        assert_eq!(step.eliminations[1], rest_of_box);
        assert!(step.eliminations[2..].iter().all(|s| s.is_empty()));
        assert!(naked_set(&empty_grid(), 2).is_none());
    }

    #[test]
    fn hidden_pair_strips_the_other_candidates_of_its_cells() {
        let mut c = empty_grid();
        for cell in 2..9 {
            c.eliminate(cell, 1);
            c.eliminate(cell, 2);
        }
        let step = hidden_set(&c, 2, false).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        assert_eq!(step.rating, 34);
        assert!(step.eliminations[..2].iter().all(|s| s.is_empty()));
        assert!(step.eliminations[2..].iter().all(|s| *s == CellSet(0b11)));
        // Not direct: no other digit is left one place by it.
        assert_eq!(hidden_set(&c, 2, true), None);
    }

    #[test]
    fn direct_hidden_pair_places_the_single_it_leaves() {
        let mut c = empty_grid();
        for cell in 2..9 {
            c.eliminate(cell, 1);
            c.eliminate(cell, 2);
        }
        // Digit 3 of row 1 left at r1c1, r1c2 and r1c9 only.
        for cell in 2..8 {
            c.eliminate(cell, 3);
        }
        let step = hidden_set(&c, 2, true).unwrap();
        assert_eq!(step.technique, Technique::DirectHiddenPair);
        assert_eq!(step.rating, 20);
        assert_eq!(step.placement, Some((8, 3)));
    }
}
