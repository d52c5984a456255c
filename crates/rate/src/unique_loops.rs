//! Unique rectangles and loops (types 1 to 4): cells holding the same two
//! candidates around a loop that would give the puzzle two solutions
//! unless one of the few cells with extra candidates takes an extra.
//!
//! As SE does, every loop is searched from every bivalue cell, all hints
//! are gathered, and the easiest (lowest rating, then lowest type, then
//! first found) is the step. Rated 4.5, plus 0.1 for a loop of 6 cells,
//! 0.2 for 8, 0.5 for 10 or more; type 3 adds 0.1 per extra cell of its
//! subset.

use super::bits::{count, digits};
use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::cells::{CellSet, CELL_UNITS, PEER_SETS, UNIT_SETS};
use super::combinations::{Combinations, SubsetsOf};
use super::regions::{cells_at, empty_count, positions, positions_of};
use super::step::{Pattern, Step};
use super::technique::Technique;
use batchdoku_core::internal::CELLS;
use std::cell::RefCell;

/// SE's region kinds in its order, as indices into [`CELL_UNITS`]: box,
/// row, column.
const KINDS: [usize; 3] = [2, 0, 1];

/// The easiest unique loop step, if any.
pub(crate) fn unique_loop(cands: &Cands, budget: &mut Budget) -> Result<Option<Step>, OutOfBudget> {
    MEMORY.with(|memory| {
        let memory = &mut *memory.borrow_mut();
        memory.begin(cands);
        let mut search = LoopSearch {
            cands,
            budget,
            pair: 0,
            holders: CellSet::EMPTY,
            path: [0; 81],
            len: 0,
            on_path: CellSet::EMPTY,
            best: None,
            reads: CellSet::EMPTY,
            useful: false,
            spent: 0,
        };
        for cell in cands.empty().iter() {
            let pair = cands.candidates(cell);
            if count(pair) == 2 {
                if memory.kept[cell] {
                    // The same search as then, which offered nothing.
                    search.budget.spend(memory.spent[cell])?;
                    continue;
                }
                search.pair = pair;
                let [a, b] =
                    [pair.trailing_zeros(), 15 - pair.leading_zeros()].map(|d| d as u8 + 1);
                search.holders = cands.digit_cells(a).and(cands.digit_cells(b));
                (search.reads, search.useful, search.spent) = (CellSet::EMPTY, false, 0);
                search.extend(cell, 2, 0, None)?;
                memory.kept[cell] = !search.useful;
                memory.spent[cell] = search.spent;
                memory.reads[cell] = search.reads;
            }
        }
        Ok(search.best.map(|(_, _, step)| step))
    })
}

/// The searches from each start cell that offered no step, kept from one
/// grid to the next: a search from a start reads only the cells of the
/// units of the cells it goes through (the loop cells' candidates, the
/// holders of the pair there, and the cells a hint would look at or
/// change), so on a grid where none of those changed it goes the same
/// way, offers nothing again and spends the same work, which is spent
/// without searching.
struct Memory {
    /// The candidates of each cell in the last grid searched.
    masks: [u16; CELLS],
    /// By start cell: whether its search is kept.
    kept: [bool; CELLS],
    /// By start cell: the work its search spent.
    spent: [u64; CELLS],
    /// By start cell: the cells its search read.
    reads: [CellSet; CELLS],
}

impl Memory {
    /// Nothing kept.
    const fn new() -> Memory {
        Memory {
            masks: [0; CELLS],
            kept: [false; CELLS],
            spent: [0; CELLS],
            reads: [CellSet::EMPTY; CELLS],
        }
    }

    /// A search of `cands` begins: drops the searches that read a cell
    /// that changed since the last grid, and remembers this one.
    fn begin(&mut self, cands: &Cands) {
        let mut changed = CellSet::EMPTY;
        for cell in 0..CELLS {
            let mask = cands.candidates(cell);
            if mask != self.masks[cell] {
                changed.insert(cell);
                self.masks[cell] = mask;
            }
        }
        for cell in 0..CELLS {
            self.kept[cell] &= self.reads[cell].and(changed).is_empty();
        }
    }
}

thread_local! {
    /// The searches kept per thread (see [`Memory`]).
    static MEMORY: RefCell<Memory> = const { RefCell::new(Memory::new()) };
}

/// The state of the loop search from one start cell, and the best hint so
/// far.
struct LoopSearch<'a, 'b> {
    cands: &'a Cands,
    budget: &'a mut Budget<'b>,
    /// The loop's two digits, as a candidate mask.
    pair: u16,
    /// The cells that hold both.
    holders: CellSet,
    /// The cells of the path so far.
    path: [u8; 81],
    len: usize,
    on_path: CellSet,
    /// The easiest hint: rating, type and step.
    best: Option<(u8, u8, Step)>,
    /// The cells the search from the current start read (the units of
    /// the cells it went through).
    reads: CellSet,
    /// Whether the search from the current start offered a step.
    useful: bool,
    /// The work the search from the current start spent.
    spent: u64,
}

impl LoopSearch<'_, '_> {
    /// Adds `cell` to the path and follows every way on (SE's
    /// `checkForLoops`, including how extra digits accumulate across the
    /// cells it looks at).
    fn extend(
        &mut self,
        cell: usize,
        allowed_extra: i32,
        extra: u16,
        last_kind: Option<usize>,
    ) -> Result<(), OutOfBudget> {
        self.budget.spend(1)?;
        self.spent += 1;
        self.reads = self.reads.or(PEER_SETS[cell]).or(CellSet::single(cell));
        self.path[self.len] = cell as u8;
        self.len += 1;
        self.on_path.insert(cell);
        let mut extra = extra;
        for kind in KINDS {
            if Some(kind) == last_kind {
                continue;
            }
            let unit = usize::from(CELL_UNITS[cell][kind]);
            // The unit's cells in order, those that hold the pair (the
            // start among them): no other one goes on or closes the loop.
            for next in UNIT_SETS[unit].and(self.holders).iter() {
                if next == usize::from(self.path[0]) && self.len >= 4 {
                    self.found_loop();
                } else if !self.on_path.contains(next) {
                    let candidates = self.cands.candidates(next);
                    extra |= candidates & !self.pair;
                    let n = count(candidates);
                    if n == 2 || count(extra) == 1 || allowed_extra > 0 {
                        let left = allowed_extra - i32::from(n > 2);
                        self.extend(next, left, extra, Some(kind))?;
                    }
                }
            }
        }
        self.len -= 1;
        self.on_path.remove(cell);
        Ok(())
    }

    /// Checks the closed path and records the hints it gives.
    fn found_loop(&mut self) {
        let cells = &self.path[..self.len];
        if !is_valid_loop(cells) {
            return;
        }
        let base = loop_rating(cells.len());
        let loop_set = self.on_path;
        let mut extras = [0usize; 81];
        let mut n_extras = 0;
        for &c in cells {
            if count(self.cands.candidates(usize::from(c))) > 2 {
                extras[n_extras] = usize::from(c);
                n_extras += 1;
            }
        }
        let pair = self.pair;
        match n_extras {
            1 => {
                let mut step = Step::removing(Technique::UniqueRectangle, base);
                for digit in digits(pair) {
                    step.eliminate(digit, CellSet::single(extras[0]));
                }
                self.offer(1, loop_set, step);
            }
            2 => {
                let (c1, c2) = (extras[0], extras[1]);
                let rest = (self.cands.candidates(c1) | self.cands.candidates(c2)) & !pair;
                if count(rest) == 1 {
                    let step = self.type2(&extras[..2], base);
                    self.offer(2, loop_set, step);
                } else if count(rest) >= 2 {
                    self.type3(loop_set, c1, c2, rest, base);
                }
                if let Some(step) = self.type4(c1, c2, base) {
                    self.offer(4, loop_set, step);
                }
            }
            0 => {}
            _ => {
                let step = self.type2(&extras[..n_extras], base);
                self.offer(2, loop_set, step);
            }
        }
    }

    /// Keeps `step` if it removes something and is easier than the best so
    /// far (SE sorts its loop hints by rating, then type, keeping the first
    /// found of equals: a repeat of an earlier hint, which SE drops, has
    /// its rating and type and never replaces it; two type 3 hints on one
    /// loop, a naked and a hidden subset or two regions, are two hints).
    fn offer(&mut self, kind: u8, loop_set: CellSet, step: Step) {
        if !step.is_useful(self.cands) {
            return;
        }
        self.useful = true;
        let better = match &self.best {
            None => true,
            Some((rating, best_kind, _)) => (step.rating, kind) < (*rating, *best_kind),
        };
        if better {
            let step = step.with(Pattern::Loop {
                kind,
                digits: self.pair,
                cells: loop_set,
            });
            self.best = Some((step.rating, kind, step));
        }
    }

    /// Type 2: the extra cells share one extra digit, which leaves every
    /// cell that sees all of them.
    fn type2(&self, extras: &[usize], rating: u8) -> Step {
        let digit = (self.cands.candidates(extras[0]) & !self.pair).trailing_zeros() as u8 + 1;
        let seeing = extras
            .iter()
            .fold(CellSet::ALL, |acc, &c| acc.and(PEER_SETS[c]));
        let mut step = Step::removing(Technique::UniqueRectangle, rating);
        step.eliminate(digit, seeing.and(self.cands.digit_cells(digit)));
        step
    }

    /// Type 3: the two extra cells' extras form a naked or hidden subset
    /// with other cells of a region they share.
    fn type3(&mut self, loop_set: CellSet, c1: usize, c2: usize, extra: u16, base: u8) {
        let cands = self.cands;
        for degree in count(extra)..=7 {
            for kind in KINDS {
                let unit = usize::from(CELL_UNITS[c1][kind]);
                if unit != usize::from(CELL_UNITS[c2][kind]) {
                    continue;
                }
                let empty = empty_count(cands, unit);
                let index1 = positions_of(unit, CellSet::single(c1));
                let index2 = positions_of(unit, CellSet::single(c2));
                if degree * 2 <= empty {
                    // Tuples with a cell of fewer than two candidates, or
                    // with c2, are never kept: only the others are walked.
                    let mut wide = CellSet::EMPTY;
                    for cell in UNIT_SETS[unit].iter() {
                        if count(cands.candidates(cell)) >= 2 {
                            wide.insert(cell);
                        }
                    }
                    let allowed = positions_of(unit, wide) & !index2;
                    for tuple in SubsetsOf::new(degree, allowed) {
                        let tuple = tuple as u16;
                        if tuple & index1 == 0 {
                            continue;
                        }
                        let mut naked = extra & cands.candidates(c1) & cands.candidates(c2);
                        let mut union = 0u16;
                        let mut ok = true;
                        for cell in cells_at(unit, tuple).iter() {
                            let set = if cell == c1 {
                                extra
                            } else {
                                let set = cands.candidates(cell);
                                naked |= set;
                                set
                            };
                            ok &= count(set) >= 2;
                            union |= set;
                        }
                        if count(naked) != degree || !ok || count(union) != degree {
                            continue;
                        }
                        let others = UNIT_SETS[unit]
                            .minus(cells_at(unit, tuple))
                            .minus(CellSet::single(c2));
                        let mut step =
                            Step::removing(Technique::UniqueRectangle, base + degree as u8 - 1);
                        for digit in digits(union) {
                            step.eliminate(digit, others.and(cands.digit_cells(digit)));
                        }
                        self.offer(3, loop_set, step);
                    }
                }
                if degree * 2 < empty {
                    let rest: u16 = 0x1FF & !self.pair & !extra;
                    let mut rest_digits = [0u8; 9];
                    let mut n_rest = 0;
                    for digit in digits(rest) {
                        rest_digits[n_rest] = digit;
                        n_rest += 1;
                    }
                    let rest_digits = &rest_digits[..n_rest];
                    if (degree - 2) as usize > n_rest {
                        continue;
                    }
                    for chosen in Combinations::new(degree - 2, n_rest as u32) {
                        let mut hidden = self.pair;
                        let mut first = true;
                        let mut union = 0u16;
                        let mut empty_first = false;
                        let mut add = |digit: u8| {
                            let set = positions(cands, unit, digit) & !index2;
                            if first && set == 0 {
                                empty_first = true;
                            }
                            first = false;
                            union |= set;
                        };
                        for (i, &digit) in rest_digits.iter().enumerate() {
                            if chosen >> i & 1 != 0 {
                                hidden |= 1 << (digit - 1);
                                add(digit);
                            }
                        }
                        for digit in digits(self.pair) {
                            add(digit);
                        }
                        if empty_first || count(union) != degree {
                            continue;
                        }
                        let hidden_cells = union & !index1 & !index2;
                        let mut step = Step::removing(
                            Technique::UniqueRectangle,
                            base + count(hidden_cells) as u8 - 1,
                        );
                        let cells = cells_at(unit, hidden_cells);
                        for digit in digits(0x1FF & !hidden) {
                            step.eliminate(digit, cells.and(cands.digit_cells(digit)));
                        }
                        self.offer(3, loop_set, step);
                    }
                }
            }
        }
    }

    /// Type 4: one of the loop's digits is confined, in a region the two
    /// extra cells share, to those two cells; they lose the other digit.
    fn type4(&self, c1: usize, c2: usize, base: u8) -> Option<Step> {
        let v1 = self.pair.trailing_zeros() as u8 + 1;
        let v2 = 16 - self.pair.leading_zeros() as u8;
        let both = CellSet::single(c1).or(CellSet::single(c2));
        let mut locks_v1 = false;
        let mut locks_v2 = false;
        for kind in KINDS {
            let unit = usize::from(CELL_UNITS[c1][kind]);
            if unit != usize::from(CELL_UNITS[c2][kind]) {
                continue;
            }
            locks_v1 |= self.cands.places(unit, v1).minus(both).is_empty();
            locks_v2 |= self.cands.places(unit, v2).minus(both).is_empty();
        }
        let removed = if locks_v1 {
            v2
        } else if locks_v2 {
            v1
        } else {
            return None;
        };
        let mut step = Step::removing(Technique::UniqueRectangle, base);
        step.eliminate(removed, both);
        Some(step)
    }
}

/// SE's loop test: going round, cells at even and at odd positions each
/// visit every region at most once, and both visit the same regions.
fn is_valid_loop(cells: &[u8]) -> bool {
    let mut visited = [0u32; 2];
    for (i, &cell) in cells.iter().enumerate() {
        for &unit in &CELL_UNITS[usize::from(cell)] {
            let bit = 1u32 << unit;
            if visited[i % 2] & bit != 0 {
                return false;
            }
            visited[i % 2] |= bit;
        }
    }
    visited[0] == visited[1]
}

/// The base rating of a loop of `len` cells, in tenths.
fn loop_rating(len: usize) -> u8 {
    let mut rating = Technique::UniqueRectangle.base_rating();
    if len >= 10 {
        rating += 3;
    }
    if len >= 8 {
        rating += 2;
    } else if len >= 6 {
        rating += 1;
    }
    rating
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn loop_ratings_grow_with_length() {
        assert_eq!(loop_rating(4), 45);
        assert_eq!(loop_rating(6), 46);
        assert_eq!(loop_rating(8), 47);
        assert_eq!(loop_rating(10), 50);
    }

    #[test]
    fn a_rectangle_over_two_boxes_is_a_valid_loop() {
        // r1c1 r1c4 r2c4 r2c1 (cells 0, 3, 12, 9).
        assert!(is_valid_loop(&[0, 3, 12, 9]));
        // Four cells in one box do not make a loop SE accepts.
        assert!(!is_valid_loop(&[0, 1, 10, 9]));
    }

    #[test]
    fn type_1_strips_the_pair_from_the_one_extra_cell() {
        let mut c = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        c.keep_only(0, &[1, 2]);
        c.keep_only(3, &[1, 2]);
        c.keep_only(9, &[1, 2]);
        c.keep_only(12, &[1, 2, 5]);
        let step = unique_loop(&c, &mut Budget::new(1 << 20)).unwrap().unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangle);
        assert_eq!(step.rating, 45);
        assert_eq!(step.eliminations[0], CellSet::single(12));
        assert_eq!(step.eliminations[1], CellSet::single(12));
    }
}
