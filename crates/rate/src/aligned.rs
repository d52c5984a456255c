//! Aligned exclusion: for two (pair, 6.2) or three (triplet, 7.5) cells,
//! every combination of their candidates that would leave a cell they all
//! see with nothing (or put one digit twice in a region) is impossible; a
//! candidate in no possible combination goes.

use super::bits::{count, digits, indices};
use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::cells::{CellSet, PEER_SETS};
use super::regions::{HOUSE_ORDER, HOUSE_RANK};
use super::step::{Pattern, Step};
use super::technique::Technique;
use batchdoku_core::internal::CELLS;
use std::cell::RefCell;

/// The base cells SE considers, row-major: two or more candidates, no
/// naked single among their house cells, and at least one house cell
/// with 2 to `max_excluder` candidates (an excluder).
struct Bases {
    cells: [u8; 81],
    len: usize,
    /// Each cell's excluders.
    excluders: [CellSet; 81],
    /// Each base cell's index in `cells`.
    index: [u8; 81],
    is_base: CellSet,
}

impl Bases {
    fn new(cands: &Cands, max_excluder: u32) -> Bases {
        let mut b = Bases {
            cells: [0; 81],
            len: 0,
            excluders: [CellSet::EMPTY; 81],
            index: [0; 81],
            is_base: CellSet::EMPTY,
        };
        for cell in cands.empty().iter() {
            if count(cands.candidates(cell)) < 2 {
                continue;
            }
            let mut excluders = CellSet::EMPTY;
            let mut naked_single = false;
            for peer in PEER_SETS[cell].and(cands.empty()).iter() {
                let n = count(cands.candidates(peer));
                naked_single |= n == 1;
                if (2..=max_excluder).contains(&n) {
                    excluders.insert(peer);
                }
            }
            if !naked_single && !excluders.is_empty() {
                b.cells[b.len] = cell as u8;
                b.index[cell] = b.len as u8;
                b.len += 1;
                b.excluders[cell] = excluders;
                b.is_base.insert(cell);
            }
        }
        b
    }
}

impl Bases {
    /// Whether SE's scan met the cells `cells[i]`, `cells[j]` and `third`
    /// at an earlier pair (pairs go `(i, j)` with `j` then `i` upward, a
    /// third among the pair's excluders): that visit found nothing, or
    /// the scan would have stopped, and the set's eliminations do not
    /// depend on the order of its cells.
    fn seen_before(&self, i: usize, j: usize, third: usize) -> bool {
        let k = usize::from(self.index[third]);
        let cell = |n: usize| usize::from(self.cells[n]);
        let twin = |a: usize, b: usize, c: usize| {
            self.excluders[cell(a)]
                .or(self.excluders[cell(b)])
                .contains(cell(c))
        };
        if k > j {
            false
        } else if k > i {
            twin(i, k, j)
        } else {
            twin(k, i, j) || twin(k, j, i)
        }
    }
}

/// The grid of the last scan of one kind (pairs or triplets) that went
/// through every set and found nothing, in a grid without naked singles.
///
/// Whether a scan looks at a set of cells, and what [`exclusion`] finds
/// there, depend only on the candidates of the set's cells and of the
/// cells all of them see (the bases are the cells with two candidates or
/// more and an excluder; the set needs two excluders in common; each set
/// is looked at once, whatever the order of its cells). So a set whose
/// cells, and the cells they all see, kept their candidates since that
/// scan was looked at then, found nothing, and is skipped: the rater's
/// next steps change a few cells each, and most sets stay as they were.
struct Memory {
    /// The candidates of each cell then.
    masks: [u16; CELLS],
    /// Whether there was such a scan.
    valid: bool,
}

impl Memory {
    /// No scan yet.
    const fn new() -> Memory {
        Memory {
            masks: [0; CELLS],
            valid: false,
        }
    }

    /// The cells whose candidates differ from the remembered grid's (all
    /// cells when there is none).
    fn changed(&self, cands: &Cands) -> CellSet {
        if !self.valid {
            return CellSet::ALL;
        }
        let mut changed = CellSet::EMPTY;
        for (cell, &mask) in self.masks.iter().enumerate() {
            if cands.candidates(cell) != mask {
                changed.insert(cell);
            }
        }
        changed
    }

    /// Remembers `cands`, where a scan found nothing (unless it has a
    /// naked single: the bases then depend on more than their own sets).
    fn remember(&mut self, cands: &Cands) {
        self.valid = true;
        for cell in 0..CELLS {
            let mask = cands.candidates(cell);
            self.valid &= count(mask) != 1;
            self.masks[cell] = mask;
        }
    }
}

thread_local! {
    /// The last empty scans of pairs (0) and triplets (1), per thread.
    static MEMORY: RefCell<[Memory; 2]> = const { RefCell::new([Memory::new(), Memory::new()]) };
}

/// Forgets the last empty scans (tests compare with and without them).
#[cfg(test)]
fn forget() {
    MEMORY.with(|m| *m.borrow_mut() = [Memory::new(), Memory::new()]);
}

/// Whether the set `cells` kept its candidates, and so did every cell
/// all of them see, since the remembered scan (see [`Memory`]).
fn unchanged(cells: &[usize], changed: CellSet) -> bool {
    let seen_by_all = cells.iter().fold(CellSet::ALL, |s, &c| s.and(PEER_SETS[c]));
    let set = cells
        .iter()
        .fold(seen_by_all, |s, &c| s.or(CellSet::single(c)));
    set.and(changed).is_empty()
}

/// The first aligned pair exclusion that removes something, pairs of base
/// cells in SE's order.
pub(crate) fn aligned_pair(
    cands: &Cands,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    remembering(cands, 0, |changed| pairs(cands, changed, budget))
}

/// Runs `scan` with the cells changed since the scan remembered in slot
/// `slot` of `MEMORY` (0: pairs, 1: triplets), and remembers this grid
/// when it finds nothing.
fn remembering(
    cands: &Cands,
    slot: usize,
    scan: impl FnOnce(CellSet) -> Result<Option<Step>, OutOfBudget>,
) -> Result<Option<Step>, OutOfBudget> {
    MEMORY.with(|memory| {
        let memory = &mut memory.borrow_mut()[slot];
        let found = scan(memory.changed(cands))?;
        if found.is_none() {
            memory.remember(cands);
        }
        Ok(found)
    })
}

/// [`aligned_pair`]'s scan, skipping the pairs that `changed` shows were
/// looked at in vain by the remembered scan.
fn pairs(
    cands: &Cands,
    changed: CellSet,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    let bases = Bases::new(cands, 2);
    for j in 1..bases.len {
        for i in 0..j {
            budget.spend(1)?;
            let cells = [usize::from(bases.cells[i]), usize::from(bases.cells[j])];
            let common = bases.excluders[cells[0]].and(bases.excluders[cells[1]]);
            if !common.at_least_two() || unchanged(&cells, changed) {
                continue;
            }
            if let Some(step) = exclusion(
                cands,
                &cells,
                common,
                Technique::AlignedPairExclusion,
                Technique::AlignedPairExclusion.base_rating(),
            ) {
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
    remembering(cands, 1, |changed| triplets(cands, changed, budget))
}

/// [`aligned_triplet`]'s scan, skipping the triplets that `changed` shows
/// were looked at in vain by the remembered scan.
fn triplets(
    cands: &Cands,
    changed: CellSet,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    let bases = Bases::new(cands, 3);
    for j in 1..bases.len {
        for i in 0..j {
            let (c0, c1) = (usize::from(bases.cells[i]), usize::from(bases.cells[j]));
            // Three cells need two excluders in common: so do the first two.
            if !bases.excluders[c0].and(bases.excluders[c1]).at_least_two() {
                continue;
            }
            budget.spend(1)?;
            let twin = bases.excluders[c0]
                .or(bases.excluders[c1])
                .and(bases.is_base)
                .minus(CellSet::single(c0))
                .minus(CellSet::single(c1));
            // Each triplet of the pair lies, with the cells it all sees,
            // within these: none changed, every triplet is skipped below.
            let reach = twin
                .or(CellSet::single(c0))
                .or(CellSet::single(c1))
                .or(PEER_SETS[c0].and(PEER_SETS[c1]));
            if reach.and(changed).is_empty() {
                continue;
            }
            // The thirds not listed yet (each lies in the houses of c0
            // or of c1).
            let mut unlisted = twin;
            for &owner in &[c0, c1] {
                let here = unlisted.and(PEER_SETS[owner]);
                unlisted = unlisted.minus(here);
                // Their positions in the owner's house order, one bit each.
                let ranks = here.iter().fold(0u32, |m, c| m | 1 << HOUSE_RANK[owner][c]);
                for rank in indices(ranks) {
                    let third = usize::from(HOUSE_ORDER[owner][rank]);
                    if bases.seen_before(i, j, third) {
                        continue;
                    }
                    let cells = [c0, c1, third];
                    let common = bases.excluders[c0]
                        .and(bases.excluders[c1])
                        .and(bases.excluders[third]);
                    if !common.at_least_two() || unchanged(&cells, changed) {
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
/// the excluder cells `common`, as a step if there are any: a candidate
/// goes when every combination of the other cells' candidates with it
/// either repeats a digit in a region or covers all of an excluder's
/// candidates.
fn exclusion(
    cands: &Cands,
    cells: &[usize],
    common: CellSet,
    technique: Technique,
    rating: u8,
) -> Option<Step> {
    // Only an excluder whose candidates the cells can cover rules out
    // anything.
    let union = cells.iter().fold(0u16, |m, &c| m | cands.candidates(c));
    let mut excluder_store = [0u16; 20];
    let mut n = 0;
    for e in common.iter() {
        let set = cands.candidates(e);
        if set & !union == 0 {
            excluder_store[n] = set;
            n += 1;
        }
    }
    let excluders = &excluder_store[..n];
    // For a pair, each excluder rules out at most one candidate of the
    // other cell once a digit is chosen, and a shared region one more: a
    // cell with more candidates than that keeps every combination.
    if cells.len() == 2
        && cells
            .iter()
            .all(|&c| count(cands.candidates(c)) as usize > n + 1)
    {
        return None;
    }
    // Without one, only a digit repeated in a region rules a combination
    // out, and that removes nothing unless all the cells see each other
    // (each has two candidates or more).
    let mutual = cells
        .iter()
        .all(|&a| cells.iter().all(|&b| a == b || PEER_SETS[a].contains(b)));
    if n == 0 && !(cells.len() == 3 && mutual) {
        return None;
    }
    let mut step = Step::removing(technique, rating).with(Pattern::Aligned {
        cells: cells
            .iter()
            .fold(CellSet::EMPTY, |s, &c| s.or(CellSet::single(c))),
    });
    for (a, &cell) in cells.iter().enumerate() {
        let others: [usize; 2] = match (cells.len(), a) {
            (2, 0) => [cells[1], usize::MAX],
            (2, _) => [cells[0], usize::MAX],
            (_, 0) => [cells[1], cells[2]],
            (_, 1) => [cells[0], cells[2]],
            _ => [cells[0], cells[1]],
        };
        for digit in digits(cands.candidates(cell)) {
            let allowed = if others[1] == usize::MAX {
                pair_allows(cands, cell, digit, others[0], excluders)
            } else {
                triplet_allows(cands, cell, digit, others, excluders)
            };
            if !allowed {
                step.eliminate(digit, CellSet::single(cell));
            }
        }
    }
    step.is_useful(cands).then_some(step)
}

/// Whether `cell` = `digit` leaves `other` a candidate that neither
/// repeats `digit` in a shared region nor covers an excluder with it.
fn pair_allows(cands: &Cands, cell: usize, digit: u8, other: usize, excluders: &[u16]) -> bool {
    let bit = 1u16 << (digit - 1);
    let mut blocked = 0u16;
    if PEER_SETS[cell].contains(other) {
        blocked |= bit;
    }
    for &e in excluders {
        let rest = e & !bit;
        if count(rest) == 1 {
            blocked |= rest;
        }
    }
    cands.candidates(other) & !blocked != 0
}

/// Whether `cell` = `digit` leaves the two `others` a pair of candidates
/// that repeats no digit in a shared region and covers no excluder.
fn triplet_allows(
    cands: &Cands,
    cell: usize,
    digit: u8,
    others: [usize; 2],
    excluders: &[u16],
) -> bool {
    let bit = 1u16 << (digit - 1);
    let [b, c] = others;
    // Digits x of b ruled out whatever c holds, digits y of c ruled out
    // whatever b holds, and pairs (x, y) ruled out together.
    let mut x_out = 0u16;
    let mut y_out = 0u16;
    let mut pairs = [0u16; 9];
    if PEER_SETS[cell].contains(b) {
        x_out |= bit;
    }
    if PEER_SETS[cell].contains(c) {
        y_out |= bit;
    }
    for &e in excluders {
        let rest = e & !bit;
        match count(rest) {
            1 => {
                x_out |= rest;
                y_out |= rest;
            }
            2 => {
                let w1 = rest.trailing_zeros() as usize;
                let w2 = 15 - rest.leading_zeros() as usize;
                pairs[w1] |= 1 << w2;
                pairs[w2] |= 1 << w1;
            }
            _ => {}
        }
    }
    let b_c_share = PEER_SETS[b].contains(c);
    let ys = cands.candidates(c) & !y_out;
    for x in indices(cands.candidates(b) & !x_out) {
        let mut left = ys & !pairs[x];
        if b_c_share {
            left &= !(1 << x);
        }
        if left != 0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn pair_exclusion_removes_a_candidate_no_combination_allows() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        // Base cells r1c1 {1,2} and r1c2 {1,2,3}; both see r1c5 {1,3}
        // and r1c6 {2,3}: r1c1=1 forbids r1c2 in {1 (row), 3 (kills
        // r1c5)}, leaving 2; r1c1=2 leaves r1c2 1 or 3... 3 kills r1c6.
        c.keep_only(0, &[1, 2]);
        c.keep_only(1, &[1, 2, 3]);
        c.keep_only(4, &[1, 3]);
        c.keep_only(5, &[2, 3]);
        let step = aligned_pair(&c, &mut Budget::new(1 << 20))
            .unwrap()
            .unwrap();
        assert_eq!(step.technique, Technique::AlignedPairExclusion);
        assert_eq!(step.rating, 62);
        // Allowed: (1,2), (2,1); so r1c2 loses 3.
        assert_eq!(step.eliminations[2], CellSet::single(1));
        assert!(step.eliminations[0].is_empty() && step.eliminations[1].is_empty());
    }

    /// SE's exclusion by brute force: every combination of the cells'
    /// candidates, ruled out by a digit repeated among cells that see each
    /// other or by an excluder whose candidates it covers.
    fn brute_force(cands: &Cands, cells: &[usize], common: CellSet) -> [u16; 3] {
        let mut allowed = [0u16; 3];
        let masks: Vec<u16> = cells.iter().map(|&c| cands.candidates(c)).collect();
        let mut combo = vec![0u8; cells.len()];
        let total: usize = masks.iter().map(|m| count(*m) as usize).product();
        for mut n in 0..total {
            for (a, m) in masks.iter().enumerate() {
                let ds: Vec<u8> = digits(*m).collect();
                combo[a] = ds[n % ds.len()];
                n /= ds.len();
            }
            let repeats = (0..cells.len()).any(|a| {
                (a + 1..cells.len())
                    .any(|b| combo[a] == combo[b] && PEER_SETS[cells[a]].contains(cells[b]))
            });
            let used = combo.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
            let covered = common.iter().any(|e| cands.candidates(e) & !used == 0);
            if !repeats && !covered {
                for a in 0..cells.len() {
                    allowed[a] |= 1 << (combo[a] - 1);
                }
            }
        }
        allowed
    }

    /// States along the paths of the serate fixtures that need a chain
    /// (every fourth step, and the last): rich in cells with few
    /// candidates.
    fn stuck_states() -> Vec<Cands> {
        use crate::rater::Rater;
        let mut rater = Rater::with_path();
        let mut states = Vec::new();
        for fixture in crate::oracle_tests::fixtures().into_iter().take(300) {
            if fixture.er < 65 {
                continue; // no chain on its path
            }
            let puzzle = fixture.puzzle;
            let _ = rater.rate(&puzzle, Budget::new(1 << 26));
            let mut c = Cands::new(&puzzle);
            for (n, step) in rater.path().iter().enumerate() {
                if n % 4 == 0 {
                    states.push(c);
                }
                step.apply(&mut c);
            }
            states.push(c);
        }
        states
    }

    #[test]
    fn exclusion_agrees_with_brute_force_on_real_states() {
        let states = stuck_states();
        assert!(states.len() > 20);
        let (mut tried, mut removing) = (0, 0);
        for c in &states {
            let bases = Bases::new(c, 3);
            let list: Vec<usize> = bases.cells[..bases.len]
                .iter()
                .map(|&x| usize::from(x))
                .collect();
            for (j, &b) in list.iter().enumerate() {
                for &a in &list[..j] {
                    let pair_common = bases.excluders[a].and(bases.excluders[b]);
                    if !pair_common.at_least_two() {
                        continue;
                    }
                    for &t in list.iter().step_by(3) {
                        if t == a || t == b {
                            continue;
                        }
                        let common = pair_common.and(bases.excluders[t]);
                        if !common.at_least_two() {
                            continue;
                        }
                        let cells = [a, b, t];
                        tried += 1;
                        let allowed = brute_force(c, &cells, common);
                        let got = exclusion(
                            c,
                            &cells,
                            common,
                            Technique::AlignedTripletExclusion,
                            Technique::AlignedTripletExclusion.base_rating(),
                        );
                        for (k, &cell) in cells.iter().enumerate() {
                            let expected = c.candidates(cell) & !allowed[k];
                            let removed = got.map_or(0, |s| {
                                (1..=9u8)
                                    .filter(|&d| s.eliminations[usize::from(d - 1)].contains(cell))
                                    .fold(0u16, |m, d| m | 1 << (d - 1))
                            });
                            assert_eq!(removed, expected, "cells {cells:?}");
                            removing += usize::from(expected != 0);
                        }
                    }
                }
            }
        }
        assert!(tried > 1000, "only {tried} triplets tried");
        assert!(removing > 0, "no triplet removed anything");
    }

    #[test]
    fn remembered_scans_change_no_result() {
        let states = stuck_states();
        let scan = |c: &Cands| {
            let pair = aligned_pair(c, &mut Budget::new(1 << 30));
            (pair, aligned_triplet(c, &mut Budget::new(1 << 30)))
        };
        let mut reused = 0;
        for c in &states {
            // With what the scans of the states before left...
            let changed = MEMORY.with(|m| m.borrow()[1].changed(c));
            reused += usize::from(changed != CellSet::ALL);
            let remembering = scan(c);
            // ...and without.
            forget();
            assert_eq!(remembering, scan(c));
        }
        assert!(reused > 20, "the memory served only {reused} times");
    }
}
