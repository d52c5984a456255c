//! Basic fish: a digit whose places in `n` lines (columns first, then
//! rows) fall in `n` crossing lines, so it leaves those crossing lines
//! elsewhere. X-wing 3.2, swordfish 3.8, jellyfish 5.2.

use super::bits::{count, indices};
use super::cands::Cands;
use super::cells::{CellSet, UNIT_SETS};
use super::combinations::SubsetsOf;
use super::regions::{all_positions, COLUMNS, ROWS};
use super::step::{Pattern, Step};
use super::subsets::eligible;
use super::technique::Technique;
use std::ops::ControlFlow;

/// The first fish of `degree` (2 to 4) lines that removes something, in
/// SE's order (see [`fishes`]).
pub(crate) fn fish(cands: &Cands, degree: u32) -> Option<Step> {
    let (technique, rating) = match degree {
        2 => Technique::XWing.with_base(),
        3 => Technique::Swordfish.with_base(),
        _ => Technique::Jellyfish.with_base(),
    };
    fishes(
        cands,
        &all_positions(cands),
        degree,
        |digit, base_cells, cover_cells| {
            let removed = cands.digit_cells(digit).and(cover_cells).minus(base_cells);
            if removed.is_empty() {
                return ControlFlow::Continue(());
            }
            // Base lines are whole rows or whole columns: a row inside
            // `base_cells` means rows (at most four columns hold none).
            let rows = base_cells
                .first()
                .is_some_and(|c| UNIT_SETS[c / 9].minus(base_cells).is_empty());
            let cells = cands.digit_cells(digit).and(base_cells);
            let mut step =
                Step::removing(technique, rating).with(Pattern::Fish { digit, rows, cells });
            step.eliminate(digit, removed);
            ControlFlow::Break(step)
        },
    )
}

/// Visits SE's fish of `degree` lines (`table`: the grid's
/// [`all_positions`]) in its order: base lines columns
/// then rows, line tuples in increasing mask order, digits upward within
/// a tuple; a digit is only tried while at least `2 * degree` of its nine
/// copies are unplaced. `visit(digit, base_cells, cover_cells)` for each
/// digit with at least two places in every base line and `degree` cover
/// lines between them, whether or not it removes anything; stops at the
/// first `Break`, whose value it returns.
#[inline]
pub(crate) fn fishes<T>(
    cands: &Cands,
    table: &[[u16; 9]; 27],
    degree: u32,
    mut visit: impl FnMut(u8, CellSet, CellSet) -> ControlFlow<T>,
) -> Option<T> {
    let mut placed = [0u32; 9];
    for cell in CellSet::ALL.minus(cands.empty()).iter() {
        placed[usize::from(cands.value(cell) - 1)] += 1;
    }
    for (bases, covers) in [(COLUMNS, ROWS), (ROWS, COLUMNS)] {
        // For each digit, the base lines with two to `degree` places.
        let usable: [u32; 9] =
            std::array::from_fn(|d| u32::from(eligible(&bases.map(|line| table[line][d]), degree)));
        // The lines usable for some digit still tried: a tuple with
        // another line is no digit's.
        let usable_by_any = (0..9)
            .filter(|&d| placed[d] + 2 * degree <= 9)
            .fold(0, |m, d| m | usable[d]);
        for tuple in SubsetsOf::new(degree, usable_by_any as u16) {
            for digit in 1..=9u8 {
                let d = usize::from(digit - 1);
                if placed[d] + 2 * degree > 9 || tuple & !usable[d] != 0 {
                    continue;
                }
                let union = indices(tuple).fold(0u16, |acc, i| acc | table[bases[i]][d]);
                if count(union) != degree {
                    continue;
                }
                let base_cells =
                    indices(tuple).fold(CellSet::EMPTY, |acc, i| acc.or(UNIT_SETS[bases[i]]));
                let cover_cells =
                    indices(union).fold(CellSet::EMPTY, |acc, i| acc.or(UNIT_SETS[covers[i]]));
                if let ControlFlow::Break(found) = visit(digit, base_cells, cover_cells) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// How many cells of the grid do not hold `digit` yet (9 minus SE's
/// occurrence count).
#[cfg(test)]
fn unplaced_count(cands: &Cands, digit: u8) -> u32 {
    let held = (0..81).filter(|&c| cands.value(c) == digit).count() as u32;
    9 - held
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn x_wing_on_two_columns_clears_the_two_rows() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        // Digit 5 of columns 1 and 2 left in rows 1 and 2 only: but those
        // share box 1, so use columns 1 and 4.
        for row in 2..9 {
            c.eliminate(row * 9, 5);
            c.eliminate(row * 9 + 3, 5);
        }
        let step = fish(&c, 2).unwrap();
        assert_eq!(step.technique, Technique::XWing);
        assert_eq!(step.rating, 32);
        let expected = UNIT_SETS[0]
            .or(UNIT_SETS[1])
            .minus(UNIT_SETS[9])
            .minus(UNIT_SETS[12]);
        assert_eq!(step.eliminations[4], expected);
        assert!(fish(&c, 3).is_none());
    }

    #[test]
    fn a_digit_with_too_many_copies_placed_is_skipped() {
        // Eight 1s placed: only one copy left, no fish on 1.
        let c = Cands::new(
            &parse_line(b"1...........1...........1...1...........1...........1...1...........1............").unwrap(),
        );
        assert_eq!(unplaced_count(&c, 1), 1);
        assert!(fish(&c, 2).is_none());
    }
}
