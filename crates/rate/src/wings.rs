//! XY-wing (4.2) and XYZ-wing (4.4): a pivot cell and two bivalue pincers
//! among its house cells that force a digit `z` into one of the pincers
//! (or the pivot), so cells seeing all of them lose `z`.

use super::bits::count;
use super::cands::Cands;
use super::cells::{CellSet, PEER_SETS};
use super::regions::HOUSE_ORDER;
use super::step::{Pattern, Step};
use super::technique::Technique;

/// The first XY-wing (`xyz` false: a bivalue pivot `xy` with pincers `xz`
/// and `yz`) or XYZ-wing (`xyz` true: pivot `xyz`, pincers inside it)
/// that removes something, in SE's order: pivots row-major, each pincer
/// in the pivot's house order.
pub(crate) fn wing(cands: &Cands, xyz: bool) -> Option<Step> {
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in cands.empty().iter() {
        let xy = cands.candidates(pivot);
        if count(xy) != pivot_size {
            continue;
        }
        for &first in &HOUSE_ORDER[pivot] {
            let first = usize::from(first);
            let xz = cands.candidates(first);
            if count(xz) != 2 || count(xy & !xz) != 1 {
                continue;
            }
            for &second in &HOUSE_ORDER[pivot] {
                let second = usize::from(second);
                let yz = cands.candidates(second);
                if count(yz) != 2 {
                    continue;
                }
                let union = count(xy | xz | yz);
                let common = count(xy & xz & yz);
                let fits = union == 3 && common == if xyz { 1 } else { 0 };
                if !fits {
                    continue;
                }
                let z = (xz & yz).trailing_zeros() as u8 + 1;
                let mut victims = PEER_SETS[first].and(PEER_SETS[second]);
                if xyz {
                    victims = victims.and(PEER_SETS[pivot]);
                }
                let victims = victims
                    .minus(CellSet::single(pivot))
                    .and(cands.digit_cells(z));
                if victims.is_empty() {
                    continue;
                }
                let (technique, rating) = if xyz {
                    Technique::XyzWing.with_base()
                } else {
                    Technique::XyWing.with_base()
                };
                let mut step = Step::removing(technique, rating).with(Pattern::Wing {
                    pivot: pivot as u8,
                    pincers: [first as u8, second as u8],
                });
                step.eliminate(z, victims);
                return Some(step);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn xy_wing_clears_z_where_both_pincers_see() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: r5c5 sees
        // both pincers.
        c.keep_only(0, &[1, 2]);
        c.keep_only(4, &[1, 3]);
        c.keep_only(36, &[2, 3]);
        let step = wing(&c, false).unwrap();
        assert_eq!(step.technique, Technique::XyWing);
        assert_eq!(step.rating, 42);
        assert_eq!(step.eliminations[2], CellSet::single(40));
        assert!(wing(&c, true).is_none());
    }

    #[test]
    fn xyz_wing_clears_z_where_all_three_see() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        // Pivot r1c1 {1,2,3}, pincers r1c2 {1,3} (box and row) and r2c1
        // {2,3}... both in box 1: victims are box 1 cells seeing all.
        c.keep_only(0, &[1, 2, 3]);
        c.keep_only(4, &[1, 3]);
        c.keep_only(9, &[2, 3]);
        let step = wing(&c, true).unwrap();
        assert_eq!(step.technique, Technique::XyzWing);
        assert_eq!(step.rating, 44);
        // Cells seeing r1c1, r1c5 and r2c1: r1c2, r1c3 (row 1 and box 1).
        assert_eq!(step.eliminations[2], CellSet(0b110));
    }
}
