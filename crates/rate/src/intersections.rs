//! Intersections: a digit of a box confined to one row or column
//! (pointing), or of a row or column confined to one box (claiming).
//!
//! SE runs this rule twice. The direct variant (1.7 pointing, 1.9
//! claiming) only counts when the removal leaves a hidden single at once
//! in another region of the first kind crossing the second, and places
//! it; the plain variant (2.6, 2.8) counts whenever it removes something.

use super::bits::indices;
use super::cands::Cands;
use super::cells::UNIT_SETS;
use super::regions::{all_positions, BOXES, COLUMNS, ROWS};
use super::step::{Pattern, Step};
use super::technique::Technique;
use std::ops::ControlFlow;

/// SE's pairs of region kinds, in its order: box then column, box then
/// row, column then box, row then box.
#[cfg(test)]
const KIND_PAIRS: [([usize; 9], [usize; 9]); 4] = [
    (BOXES, COLUMNS),
    (BOXES, ROWS),
    (COLUMNS, BOXES),
    (ROWS, BOXES),
];

/// The first pointing or claiming step in SE's order; with `direct`, only
/// one that leaves a hidden single at once, which the step places.
pub(crate) fn intersection(cands: &Cands, direct: bool) -> Option<Step> {
    lockings(&all_positions(cands), |first, second, digit| {
        let removed = cands.places(second, digit).minus(UNIT_SETS[first]);
        let pointing = first >= 18;
        let pattern = Pattern::Locking {
            digit,
            first: first as u8,
            second: second as u8,
        };
        if !direct {
            if removed.is_empty() {
                return ControlFlow::Continue(());
            }
            let (technique, rating) = if pointing {
                Technique::Pointing.with_base()
            } else {
                Technique::Claiming.with_base()
            };
            let mut step = Step::removing(technique, rating).with(pattern);
            step.eliminate(digit, removed);
            return ControlFlow::Break(step);
        }
        let firsts = if pointing {
            &BOXES
        } else if first < 9 {
            &ROWS
        } else {
            &COLUMNS
        };
        match following_single(cands, firsts, first, second, digit) {
            Some(cell) => {
                let (technique, rating) = if pointing {
                    Technique::DirectPointing.with_base()
                } else {
                    Technique::DirectClaiming.with_base()
                };
                let mut step = Step::place(technique, rating, cell, digit).with(pattern);
                step.eliminate(digit, removed);
                ControlFlow::Break(step)
            }
            None => ControlFlow::Continue(()),
        }
    })
}

/// Visits SE's locking patterns in `table` (the grid's
/// [`all_positions`]) in its order: `visit(first, second, digit)` for each pair of crossing units (of [`KIND_PAIRS`]) and digit
/// whose two or more places in unit `first` all lie in unit `second`
/// (whether or not `second` has the digit elsewhere); stops at the first
/// `Break`, whose value it returns.
#[inline]
pub(crate) fn lockings<T>(
    table: &[[u16; 9]; 27],
    mut visit: impl FnMut(usize, usize, u8) -> ControlFlow<T>,
) -> Option<T> {
    // The digits confined to each crossing, found with one look-up per
    // unit and digit, then visited in the crossings' order.
    let mut confined = [0u16; 108];
    for (first, places) in table.iter().enumerate() {
        for (d, &places) in places.iter().enumerate() {
            let [third, column] = CONFINED[usize::from(places)];
            if third != NONE {
                confined[usize::from(CROSSING_AT[first][0][usize::from(third)])] |= 1 << d;
            }
            if column != NONE && first >= 18 {
                confined[usize::from(CROSSING_AT[first][1][usize::from(column)])] |= 1 << d;
            }
        }
    }
    for (i, &(first, second, _)) in CROSSINGS.iter().enumerate() {
        for d in indices(confined[i]) {
            let (first, second) = (usize::from(first), usize::from(second));
            if let ControlFlow::Break(found) = visit(first, second, d as u8 + 1) {
                return Some(found);
            }
        }
    }
    None
}

/// No third or column in [`CONFINED`].
const NONE: u8 = u8::MAX;

/// For each mask of positions in a unit with two or more bits: the third
/// (positions 0-2, 3-5 or 6-8: a box's row, a line's box) and the column
/// of a box (positions k, k + 3, k + 6) holding them all, or [`NONE`].
static CONFINED: [[u8; 2]; 512] = {
    let mut t = [[NONE; 2]; 512];
    let mut mask = 0;
    while mask < 512 {
        if (mask as u32).count_ones() >= 2 {
            let mut k = 0;
            while k < 3 {
                if mask & !(0b111 << (3 * k)) == 0 {
                    t[mask][0] = k as u8;
                }
                if mask & !(0b001_001_001 << k) == 0 {
                    t[mask][1] = k as u8;
                }
                k += 1;
            }
        }
        mask += 1;
    }
    t
};

/// For each unit `first`: the index in [`CROSSINGS`] of its crossing
/// whose shared positions are its third `k` (`[first][0][k]`) or, for a
/// box, its column `k` (`[first][1][k]`).
static CROSSING_AT: [[[u8; 3]; 2]; 27] = {
    let mut t = [[[0u8; 3]; 2]; 27];
    let mut i = 0;
    while i < 108 {
        let (first, _, shared) = CROSSINGS[i];
        let mut k = 0;
        while k < 3 {
            if shared == 0b111 << (3 * k) {
                t[first as usize][0][k] = i as u8;
            }
            if shared == 0b001_001_001 << k {
                t[first as usize][1][k] = i as u8;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// The crossing pairs of units `(first, second)` of [`KIND_PAIRS`], in
/// its order (the pairs that share no cell left out), with the positions
/// in `first` of the cells they share.
static CROSSINGS: [(u8, u8, u16); 108] = build_crossings();

/// Builds [`CROSSINGS`]: box `b` crosses row `r` when `r / 3 == b / 3`
/// and column `c` when `c / 3 == b % 3`. A box's positions run row by
/// row; a row's are its columns, a column's its rows.
const fn build_crossings() -> [(u8, u8, u16); 108] {
    let mut out = [(0u8, 0u8, 0u16); 108];
    let mut n = 0;
    let mut kind = 0;
    while kind < 4 {
        let mut i = 0;
        while i < 9 {
            let mut j = 0;
            while j < 9 {
                // (box, line) for the first two kinds, (line, box) after.
                let (bx, line) = if kind < 2 { (i, j) } else { (j, i) };
                let column = kind == 0 || kind == 2;
                let crosses = if column {
                    line / 3 == bx % 3
                } else {
                    line / 3 == bx / 3
                };
                if crosses {
                    let line_unit = if column { 9 + line } else { line };
                    out[n] = if kind < 2 {
                        // The line's cells in the box: a column of it, or a row.
                        let shared = if column {
                            0b001_001_001 << (line % 3)
                        } else {
                            0b111 << (3 * (line % 3))
                        };
                        (18 + bx as u8, line_unit as u8, shared)
                    } else {
                        // The box's cells in the line: three of its positions.
                        let shared = if column {
                            0b111 << (3 * (bx / 3))
                        } else {
                            0b111 << (3 * (bx % 3))
                        };
                        (line_unit as u8, 18 + bx as u8, shared)
                    };
                    n += 1;
                }
                j += 1;
            }
            i += 1;
        }
        kind += 1;
    }
    out
}

/// The cell of the first region of `kind` (other than `first`, crossing
/// `second`) where `digit` has one place left once `second` loses it
/// outside `first`.
fn following_single(
    cands: &Cands,
    kind: &[usize; 9],
    first: usize,
    second: usize,
    digit: u8,
) -> Option<usize> {
    kind.iter()
        .filter(|&&third| third != first)
        .filter(|&&third| !UNIT_SETS[third].and(UNIT_SETS[second]).is_empty())
        .find_map(|&third| {
            let places = cands.places(third, digit);
            let left = places.minus(UNIT_SETS[second]);
            (places.at_least_two() && left.is_single()).then(|| left.first().expect("one left"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::CellSet;
    use crate::regions::positions_of;
    use batchdoku_core::parse_line;

    /// Box 1's 1s confined to column 1 (its other cells hold 2 to 7); box
    /// 4 has two places for 1, r6c1 and r6c2 (rows 4 and 5 and column 3
    /// hold a 1 elsewhere, the last in box 7).
    fn grid() -> Cands {
        let mut s = [b'.'; 81];
        for (cell, digit) in [
            (1, b'2'),
            (2, b'3'),
            (10, b'4'),
            (11, b'5'),
            (19, b'6'),
            (20, b'7'),
        ] {
            s[cell] = digit;
        }
        for cell in [31, 43, 65] {
            s[cell] = b'1';
        }
        Cands::new(&parse_line(&s).unwrap())
    }

    #[test]
    fn pointing_removes_the_digit_from_the_rest_of_the_column() {
        let step = intersection(&grid(), false).unwrap();
        assert_eq!(step.technique, Technique::Pointing);
        assert_eq!(step.rating, 26);
        let removed: Vec<usize> = step.eliminations[0].iter().collect();
        // Box 7's r7c1 and r9c1 already see the 1 at r8c3.
        assert_eq!(removed, vec![45]);
        assert!(step.placement.is_none());
    }

    #[test]
    fn direct_pointing_places_the_hidden_single_it_leaves() {
        let step = intersection(&grid(), true).unwrap();
        assert_eq!(step.technique, Technique::DirectPointing);
        assert_eq!(step.rating, 17);
        assert_eq!(step.placement, Some((46, 1)));
        assert_eq!(step.eliminations[0], CellSet::single(45));
    }

    #[test]
    fn crossings_are_the_kind_pairs_that_share_cells_in_order() {
        let mut expected = Vec::new();
        for (firsts, seconds) in KIND_PAIRS {
            for &first in &firsts {
                for &second in &seconds {
                    let shared = UNIT_SETS[first].and(UNIT_SETS[second]);
                    if !shared.is_empty() {
                        expected.push((first as u8, second as u8, positions_of(first, shared)));
                    }
                }
            }
        }
        assert_eq!(CROSSINGS.to_vec(), expected);
    }

    #[test]
    fn nothing_confined_gives_nothing() {
        let empty = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        assert_eq!(intersection(&empty, false), None);
        assert_eq!(intersection(&empty, true), None);
    }
}
