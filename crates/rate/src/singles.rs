//! Singles: the last place of a digit in a region (hidden single, or full
//! house when it is the region's last empty cell) and the last candidate
//! of a cell (naked single).

use super::bits::count;
use super::cands::Cands;
use super::regions::{empty_count, is_box, BOXES_COLUMNS_ROWS};
use super::step::{Pattern, Step};
use super::technique::{Technique, FULL_HOUSE_RATING, LINE_SINGLE_RATING};

/// SE's hidden single: first the regions with one empty cell left (rated
/// 1.0), then any region where a digit has one place (1.2 in a box, 1.5
/// in a row or column); regions in SE's order (boxes, columns, rows),
/// digits upward.
pub(crate) fn hidden_single(cands: &Cands) -> Option<Step> {
    for last_cell_only in [true, false] {
        for &unit in &BOXES_COLUMNS_ROWS {
            let alone = empty_count(cands, unit) == 1;
            if alone != last_cell_only {
                continue;
            }
            for digit in 1..=9u8 {
                let places = cands.places(unit, digit);
                if places.is_single() {
                    let cell = places.first().expect("one place");
                    let rating = match (alone, is_box(unit)) {
                        (true, _) => FULL_HOUSE_RATING,
                        (false, true) => Technique::HiddenSingle.base_rating(),
                        (false, false) => LINE_SINGLE_RATING,
                    };
                    return Some(
                        Step::place(Technique::HiddenSingle, rating, cell, digit)
                            .with(Pattern::Single { unit: unit as u8 }),
                    );
                }
            }
        }
    }
    None
}

/// The first cell (row-major) with one candidate left, rated 2.3.
pub(crate) fn naked_single(cands: &Cands) -> Option<Step> {
    cands.empty().iter().find_map(|cell| {
        let mask = cands.candidates(cell);
        (count(mask) == 1).then(|| {
            Step::place(
                Technique::NakedSingle,
                Technique::NakedSingle.base_rating(),
                cell,
                mask.trailing_zeros() as u8 + 1,
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn full_house_comes_before_a_hidden_single_in_a_box() {
        // Row 1 lacks only its last cell (9); box 1 has hidden singles too.
        let mut s = [b'.'; 81];
        s[..8].copy_from_slice(b"12345678");
        let puzzle = parse_line(&s).unwrap();
        let step = hidden_single(&Cands::new(&puzzle)).unwrap();
        assert_eq!(step.placement, Some((8, 9)));
        assert_eq!(step.rating, 10);
    }

    #[test]
    fn box_single_rates_1_2_and_line_single_1_5() {
        // Digit 1 in box 1 can only go to r1c1: rows 2, 3 and columns 2, 3
        // hold a 1 elsewhere.
        let puzzle = parse_line(
            b".............1...........1...........1...........................1...............",
        );
        let puzzle = puzzle.unwrap();
        let cands = Cands::new(&puzzle);
        let step = hidden_single(&cands).unwrap();
        assert_eq!(step.placement, Some((0, 1)));
        assert_eq!(step.rating, 12);
    }

    #[test]
    fn naked_single_takes_the_first_cell_with_one_candidate() {
        let puzzle = parse_line(
            b"12345678....................................................................9....",
        )
        .unwrap();
        let step = naked_single(&Cands::new(&puzzle)).unwrap();
        assert_eq!(step.placement, Some((8, 9)));
        assert_eq!(step.rating, 23);
        assert_eq!(step.technique, Technique::NakedSingle);
    }
}
