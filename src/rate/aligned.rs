//! Aligned exclusion: for two (pair, 6.2) or three (triplet, 7.5) cells,
//! every combination of their candidates that would leave a cell they all
//! see with nothing (or put one digit twice in a region) is impossible; a
//! candidate in no possible combination goes.

use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::cells::{CellSet, PEER_SETS};
use super::regions::HOUSE_ORDER;
use super::step::Step;
use super::subsets::digits;
use super::technique::Technique;

/// The base cells SE considers, row-major: two or more candidates, no
/// naked single among their house cells, and at least one house cell
/// with 2 to `max_excluder` candidates (an excluder).
struct Bases {
    cells: [u8; 81],
    len: usize,
    /// Each cell's excluders.
    excluders: [CellSet; 81],
    is_base: CellSet,
}

impl Bases {
    fn new(cands: &Cands, max_excluder: u32) -> Bases {
        let mut b = Bases {
            cells: [0; 81],
            len: 0,
            excluders: [CellSet::EMPTY; 81],
            is_base: CellSet::EMPTY,
        };
        for cell in cands.empty().iter() {
            if cands.candidates(cell).count_ones() < 2 {
                continue;
            }
            let mut excluders = CellSet::EMPTY;
            let mut naked_single = false;
            for peer in PEER_SETS[cell].and(cands.empty()).iter() {
                let n = cands.candidates(peer).count_ones();
                naked_single |= n == 1;
                if (2..=max_excluder).contains(&n) {
                    excluders.insert(peer);
                }
            }
            if !naked_single && !excluders.is_empty() {
                b.cells[b.len] = cell as u8;
                b.len += 1;
                b.excluders[cell] = excluders;
                b.is_base.insert(cell);
            }
        }
        b
    }
}

/// The first aligned pair exclusion that removes something, pairs of base
/// cells in SE's order.
pub(crate) fn aligned_pair(
    cands: &Cands,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    let bases = Bases::new(cands, 2);
    for j in 1..bases.len {
        for i in 0..j {
            budget.spend(1)?;
            let cells = [usize::from(bases.cells[i]), usize::from(bases.cells[j])];
            let common = bases.excluders[cells[0]].and(bases.excluders[cells[1]]);
            if common.len() < 2 {
                continue;
            }
            if let Some(step) =
                exclusion(cands, &cells, common, Technique::AlignedPairExclusion, 62)
            {
                return Ok(Some(step));
            }
        }
    }
    Ok(None)
}

/// The first aligned triplet exclusion that removes something: two base
/// cells in SE's order, then a third among the bases that are excluders
/// of either (in SE's order: the first's house order, then the second's).
pub(crate) fn aligned_triplet(
    cands: &Cands,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    let bases = Bases::new(cands, 3);
    for j in 1..bases.len {
        for i in 0..j {
            let (c0, c1) = (usize::from(bases.cells[i]), usize::from(bases.cells[j]));
            let twin = bases.excluders[c0]
                .or(bases.excluders[c1])
                .and(bases.is_base)
                .minus(CellSet::single(c0))
                .minus(CellSet::single(c1));
            let mut listed = CellSet::EMPTY;
            for &owner in &[c0, c1] {
                for &third in &HOUSE_ORDER[owner] {
                    let third = usize::from(third);
                    if !twin.contains(third) || listed.contains(third) {
                        continue;
                    }
                    listed.insert(third);
                    budget.spend(1)?;
                    let cells = [c0, c1, third];
                    let common = bases.excluders[c0]
                        .and(bases.excluders[c1])
                        .and(bases.excluders[third]);
                    if common.len() < 2 {
                        continue;
                    }
                    let found = exclusion(
                        cands,
                        &cells,
                        common,
                        Technique::AlignedTripletExclusion,
                        75,
                    );
                    if found.is_some() {
                        return Ok(found);
                    }
                }
            }
        }
    }
    Ok(None)
}

/// The eliminations of the aligned exclusion over `cells` (2 or 3) with
/// the excluder cells `common`, as a step if there are any.
fn exclusion(
    cands: &Cands,
    cells: &[usize],
    common: CellSet,
    technique: Technique,
    rating: u8,
) -> Option<Step> {
    let mut excluder_sets = [0u16; 20];
    let mut n = 0;
    for e in common.iter() {
        excluder_sets[n] = cands.candidates(e);
        n += 1;
    }
    let excluder_sets = &excluder_sets[..n];
    let mut allowed = [0u16; 3];
    let mut mask_store = [0u16; 3];
    for (a, &c) in cells.iter().enumerate() {
        mask_store[a] = cands.candidates(c);
    }
    let masks = &mask_store[..cells.len()];
    let mut combo = [0u8; 3];
    combine(cells, masks, 0, &mut combo, &mut |combo| {
        let k = cells.len();
        for a in 0..k {
            for b in a + 1..k {
                if combo[a] == combo[b] && PEER_SETS[cells[a]].contains(cells[b]) {
                    return;
                }
            }
        }
        let used = combo[..k].iter().fold(0u16, |m, &d| m | 1 << (d - 1));
        if excluder_sets.iter().any(|&set| set & !used == 0) {
            return;
        }
        for a in 0..k {
            allowed[a] |= 1 << (combo[a] - 1);
        }
    });
    let mut step = Step::removing(technique, rating);
    for (a, &cell) in cells.iter().enumerate() {
        for digit in digits(masks[a] & !allowed[a]) {
            step.eliminate(digit, CellSet::single(cell));
        }
    }
    step.is_useful(cands).then_some(step)
}

/// Calls `visit` with every combination of one candidate per cell.
fn combine(
    cells: &[usize],
    masks: &[u16],
    at: usize,
    combo: &mut [u8; 3],
    visit: &mut impl FnMut(&[u8; 3]),
) {
    if at == cells.len() {
        visit(combo);
        return;
    }
    for digit in digits(masks[at]) {
        combo[at] = digit;
        combine(cells, masks, at + 1, combo, visit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_line;

    fn keep(c: &mut Cands, cell: usize, digits: &[u8]) {
        for d in 1..=9 {
            if !digits.contains(&d) {
                c.eliminate(cell, d);
            }
        }
    }

    #[test]
    fn pair_exclusion_removes_a_candidate_no_combination_allows() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        // Base cells r1c1 {1,2} and r1c2 {1,2,3}; both see r1c5 {1,3}
        // and r1c6 {2,3}: r1c1=1 forbids r1c2 in {1 (row), 3 (kills
        // r1c5)}, leaving 2; r1c1=2 leaves r1c2 1 or 3... 3 kills r1c6.
        keep(&mut c, 0, &[1, 2]);
        keep(&mut c, 1, &[1, 2, 3]);
        keep(&mut c, 4, &[1, 3]);
        keep(&mut c, 5, &[2, 3]);
        let step = aligned_pair(&c, &mut Budget::new(1 << 20))
            .unwrap()
            .unwrap();
        assert_eq!(step.technique, Technique::AlignedPairExclusion);
        assert_eq!(step.rating, 62);
        // Allowed: (1,2), (2,1); so r1c2 loses 3.
        assert_eq!(step.eliminations[2], CellSet::single(1));
        assert!(step.eliminations[0].is_empty() && step.eliminations[1].is_empty());
    }
}
