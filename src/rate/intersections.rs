//! Intersections: a digit of a box confined to one row or column
//! (pointing), or of a row or column confined to one box (claiming).
//!
//! SE runs this rule twice. The direct variant (1.7 pointing, 1.9
//! claiming) only counts when the removal leaves a hidden single at once
//! in another region of the first kind crossing the second, and places
//! it; the plain variant (2.6, 2.8) counts whenever it removes something.

use super::cands::Cands;
use super::cells::UNIT_SETS;
use super::regions::{BOXES, COLUMNS, ROWS};
use super::step::Step;
use super::technique::Technique;
use std::ops::ControlFlow;

/// SE's pairs of region kinds, in its order: box then column, box then
/// row, column then box, row then box.
const KIND_PAIRS: [([usize; 9], [usize; 9]); 4] = [
    (BOXES, COLUMNS),
    (BOXES, ROWS),
    (COLUMNS, BOXES),
    (ROWS, BOXES),
];

/// The first pointing or claiming step in SE's order; with `direct`, only
/// one that leaves a hidden single at once, which the step places.
pub(crate) fn intersection(cands: &Cands, direct: bool) -> Option<Step> {
    lockings(cands, |first, second, digit| {
        let removed = cands.places(second, digit).minus(UNIT_SETS[first]);
        let pointing = first >= 18;
        if !direct {
            if removed.is_empty() {
                return ControlFlow::Continue(());
            }
            let (technique, rating) = if pointing {
                (Technique::Pointing, 26)
            } else {
                (Technique::Claiming, 28)
            };
            let mut step = Step::removing(technique, rating);
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
                    (Technique::DirectPointing, 17)
                } else {
                    (Technique::DirectClaiming, 19)
                };
                let mut step = Step::place(technique, rating, cell, digit);
                step.eliminate(digit, removed);
                ControlFlow::Break(step)
            }
            None => ControlFlow::Continue(()),
        }
    })
}

/// Visits SE's locking patterns in its order: `visit(first, second,
/// digit)` for each pair of crossing units (of [`KIND_PAIRS`]) and digit
/// whose two or more places in unit `first` all lie in unit `second`
/// (whether or not `second` has the digit elsewhere); stops at the first
/// `Break`, whose value it returns.
#[inline]
pub(crate) fn lockings<T>(
    cands: &Cands,
    mut visit: impl FnMut(usize, usize, u8) -> ControlFlow<T>,
) -> Option<T> {
    for (firsts, seconds) in KIND_PAIRS {
        for &first in &firsts {
            for &second in &seconds {
                let shared = UNIT_SETS[first].and(UNIT_SETS[second]);
                if shared.is_empty() {
                    continue;
                }
                for digit in 1..=9u8 {
                    let places = cands.places(first, digit);
                    if places.len() < 2 || !places.minus(shared).is_empty() {
                        continue;
                    }
                    if let ControlFlow::Break(found) = visit(first, second, digit) {
                        return Some(found);
                    }
                }
            }
        }
    }
    None
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
            (places.len() > 1 && left.len() == 1).then(|| left.first().expect("one left"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_line;
    use crate::rate::cells::CellSet;

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
    fn nothing_confined_gives_nothing() {
        let empty = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        assert_eq!(intersection(&empty, false), None);
        assert_eq!(intersection(&empty, true), None);
    }
}
