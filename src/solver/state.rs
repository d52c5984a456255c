//! The search state: per-cell candidate masks, placed digits per unit, and
//! constraint propagation (naked and hidden singles).
//!
//! Bit layout: a candidate mask is a `u16` whose bit `d - 1` stands for digit
//! `d` (so `0x1FF` is "any digit"). A solved cell has mask 0 and its digit in
//! `cells`. `placed[u]` holds the digits already placed in unit `u` (rows
//! 0..9, columns 9..18, boxes 18..27, as in [`crate::grid::UNITS`]).
//!
//! The state is `Copy` (about 330 bytes) so a guess saves it by value onto
//! the solver's fixed stack: no heap, no undo log.

use crate::grid::{Grid, BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, UNITS};

/// All nine digits as a candidate mask.
pub const ALL_DIGITS: u16 = 0x1FF;

/// A dead end: some cell or unit has no way left to hold a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// The candidate mask bit of digit `d` (1..=9).
#[inline(always)]
pub const fn digit_bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The digit of a single-bit candidate mask.
#[inline(always)]
pub const fn bit_digit(bit: u16) -> u8 {
    bit.trailing_zeros() as u8 + 1
}

/// A list of cells waiting to be assigned their single candidate. Each cell
/// is pushed at most once per node (when its mask falls to one bit), plus
/// once when a saved alternative is resumed, so 96 entries never overflow.
#[derive(Clone, Copy)]
pub(crate) struct SingleQueue {
    cells: [u8; 96],
    len: usize,
}

impl SingleQueue {
    pub(crate) const fn new() -> Self {
        SingleQueue {
            cells: [0; 96],
            len: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, cell: usize) {
        self.cells[self.len] = cell as u8;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cells[self.len] as usize)
        }
    }
}

/// One node of the search: what is placed and what each empty cell may
/// still hold. Visitors see it read-only through [`Node`](crate::solver::Node).
#[derive(Clone, Copy, Debug)]
pub struct State {
    cand: [u16; CELLS],
    cells: [u8; CELLS],
    placed: [u16; 27],
    /// Bit `c` set while cell `c` is empty.
    empty: u128,
}

impl State {
    /// The state of a grid with no givens.
    pub(crate) const fn blank() -> State {
        State {
            cand: [ALL_DIGITS; CELLS],
            cells: [0; CELLS],
            placed: [0; 27],
            empty: (1u128 << CELLS) - 1,
        }
    }

    /// Loads the givens of `puzzle`. The caller has already checked that no
    /// unit repeats a given; a blank cell left with no candidate gives
    /// `Contradiction` (the puzzle has no solution).
    pub(crate) fn load(
        &mut self,
        puzzle: &Grid,
        queue: &mut SingleQueue,
    ) -> Result<(), Contradiction> {
        *self = State::blank();
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                self.assign(cell, digit_bit(v), queue)?;
            }
        }
        Ok(())
    }

    /// The candidate mask of a cell (0 once the cell is filled).
    #[inline(always)]
    pub fn candidates(&self, cell: usize) -> u16 {
        self.cand[cell]
    }

    /// The digit in a cell, 0 while empty.
    #[inline(always)]
    pub fn value(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// The number of empty cells.
    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empty.count_ones()
    }

    /// The filled cells as a grid.
    #[inline]
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.cells).expect("cells hold 0..=9")
    }

    /// Removes digit `bit` from the candidates of `cell` (a saved
    /// alternative after that digit was tried).
    #[inline(always)]
    pub(crate) fn remove_candidate(&mut self, cell: usize, bit: u16) {
        self.cand[cell] &= !bit;
    }

    /// Places the digit `bit` in `cell` and removes it from the cell's 20
    /// peers, queueing any peer left with a single candidate.
    #[inline]
    pub(crate) fn assign(
        &mut self,
        cell: usize,
        bit: u16,
        queue: &mut SingleQueue,
    ) -> Result<(), Contradiction> {
        if self.cand[cell] & bit == 0 {
            return Err(Contradiction);
        }
        self.cells[cell] = bit_digit(bit);
        self.cand[cell] = 0;
        self.empty &= !(1u128 << cell);
        self.placed[ROW_OF[cell] as usize] |= bit;
        self.placed[9 + COL_OF[cell] as usize] |= bit;
        self.placed[18 + BOX_OF[cell] as usize] |= bit;
        for &p in &PEERS[cell] {
            let p = p as usize;
            let m = self.cand[p];
            if m & bit != 0 {
                let m = m & !bit;
                self.cand[p] = m;
                if m & m.wrapping_sub(1) == 0 {
                    if m == 0 {
                        return Err(Contradiction);
                    }
                    queue.push(p);
                }
            }
        }
        Ok(())
    }

    /// Assigns queued naked singles, then hidden singles (a digit with one
    /// place left in a unit), until neither finds anything.
    pub(crate) fn propagate(&mut self, queue: &mut SingleQueue) -> Result<(), Contradiction> {
        loop {
            while let Some(cell) = queue.pop() {
                if self.cells[cell] == 0 {
                    let m = self.cand[cell];
                    if m == 0 || m & (m - 1) != 0 {
                        // Only single-candidate cells are queued; a mask
                        // that is empty here was emptied after queueing.
                        if m == 0 {
                            return Err(Contradiction);
                        }
                        continue;
                    }
                    self.assign(cell, m, queue)?;
                }
            }
            if self.empty == 0 || !self.hidden_singles(queue)? {
                return Ok(());
            }
        }
    }

    /// One pass of hidden singles over all 27 units. Returns whether any
    /// digit was placed.
    fn hidden_singles(&mut self, queue: &mut SingleQueue) -> Result<bool, Contradiction> {
        let mut placed_any = false;
        for (u, unit) in UNITS.iter().enumerate() {
            let mut once = 0u16;
            let mut twice = 0u16;
            for &c in unit {
                let m = self.cand[c as usize];
                twice |= once & m;
                once |= m;
            }
            if once | self.placed[u] != ALL_DIGITS {
                return Err(Contradiction);
            }
            let hidden = once & !twice;
            if hidden == 0 {
                continue;
            }
            for &c in unit {
                let c = c as usize;
                let h = self.cand[c] & hidden;
                if h != 0 {
                    if h & (h - 1) != 0 {
                        return Err(Contradiction);
                    }
                    self.assign(c, h, queue)?;
                    placed_any = true;
                }
            }
        }
        Ok(placed_any)
    }

    /// The empty cell with the fewest candidates (minimum remaining
    /// values), the first such in cell order; `None` when the grid is full.
    #[inline]
    pub(crate) fn branch_cell(&self) -> Option<usize> {
        let mut empty = self.empty;
        let mut best = None;
        let mut best_count = u32::MAX;
        while empty != 0 {
            let c = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let n = self.cand[c].count_ones();
            if n < best_count {
                best_count = n;
                best = Some(c);
                if n <= 2 {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assign_removes_digit_from_peers() {
        let mut s = State::blank();
        let mut q = SingleQueue::new();
        s.assign(0, digit_bit(5), &mut q).unwrap();
        assert_eq!(s.value(0), 5);
        assert_eq!(s.candidates(0), 0);
        assert_eq!(s.candidates(1) & digit_bit(5), 0);
        assert_eq!(s.candidates(80) & digit_bit(5), digit_bit(5));
        assert_eq!(s.empty_count(), 80);
    }

    #[test]
    fn naked_single_is_propagated() {
        let mut s = State::blank();
        let mut q = SingleQueue::new();
        // Row 0 holds 1..8 in cells 1..9: cell 0 must be 9.
        for d in 1..=8u8 {
            s.assign(d as usize, digit_bit(d), &mut q).unwrap();
        }
        s.propagate(&mut q).unwrap();
        assert_eq!(s.value(0), 9);
    }

    #[test]
    fn hidden_single_is_found() {
        let mut s = State::blank();
        let mut q = SingleQueue::new();
        // Digit 1 in rows 1 and 2 (box 0 excluded) and in columns 1 and 2:
        // the only place for 1 in box 0 is cell 0.
        for cell in [12usize, 24, 28, 56] {
            s.assign(cell, digit_bit(1), &mut q).unwrap();
        }
        s.propagate(&mut q).unwrap();
        assert_eq!(s.value(0), 1);
    }

    #[test]
    fn emptied_cell_is_a_contradiction() {
        let mut s = State::blank();
        let mut q = SingleQueue::new();
        for d in 1..=8u8 {
            s.assign(d as usize, digit_bit(d), &mut q).unwrap();
        }
        // Cell 0 can only be 9; a 9 in its column leaves it nothing.
        assert_eq!(s.assign(9 * 5, digit_bit(9), &mut q), Err(Contradiction));
    }

    #[test]
    fn branch_cell_prefers_fewest_candidates() {
        let mut s = State::blank();
        let mut q = SingleQueue::new();
        for d in 1..=7u8 {
            s.assign(d as usize + 1, digit_bit(d), &mut q).unwrap();
        }
        // Cells 0 and 1 keep {8, 9}; cell 0 comes first.
        assert_eq!(s.branch_cell(), Some(0));
    }
}
