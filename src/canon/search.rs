//! The exact minlex search behind [`Canonicalizer`].
//!
//! The canonical string is built one output row at a time. Every live
//! *candidate* is a partial transformation whose output rows so far equal
//! the best prefix found: transpose flag, the source rows chosen for the
//! output rows so far, what is known of the column permutation, and the
//! greedy digit relabelling those rows forced. For the next output row,
//! every candidate tries every source row the band structure allows and
//! every way to fix the still-open parts of its column permutation; the
//! lexicographically smallest row wins and only candidates producing it
//! survive. A shared "best row" buffer gives pruning: a branch stops at
//! the first cell that is larger than the best row's, and a smaller cell
//! drops every survivor collected so far.
//!
//! Column freedom is kept structurally instead of by listing the 1296
//! column permutations: a column that has been blank in every output row
//! so far is interchangeable with the other such columns of its stack, so
//! those stay an unordered set (they always sit at the left of their
//! stack: blanks sort first), and a stack blank in every row so far stays
//! in an unordered pool of stacks (at the left of the row, for the same
//! reason). They are ordered only when a row first puts a digit in them.
//! This is exact: within the output rows seen so far all members of a set
//! look the same, so every ordering of them gives the same prefix and the
//! same relabelling, and the later rows decide between them.

use crate::grid::{Grid, CELLS};

use super::Transform;

/// Larger than every cell value; marks "no best value yet".
const NONE: u8 = u8::MAX;

/// Digit relabelling under construction: 4 bits per source digit 1..=9
/// (0 = not labelled yet) and the next free label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Labels {
    map: u64,
    next: u8,
}

impl Labels {
    const EMPTY: Labels = Labels { map: 0, next: 1 };

    /// The output value of source value `d` (0 stays 0), labelling `d`
    /// greedily if it is new.
    #[inline(always)]
    fn label(&mut self, d: u8) -> u8 {
        if d == 0 {
            return 0;
        }
        let shift = 4 * u32::from(d);
        let l = ((self.map >> shift) & 0xF) as u8;
        if l != 0 {
            return l;
        }
        let l = self.next;
        self.map |= u64::from(l) << shift;
        self.next += 1;
        l
    }
}

/// A partial transformation whose output so far equals the best prefix.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// 1 when the transposed grid is read.
    transposed: u8,
    /// Source row of each output row decided so far.
    rows: [u8; 9],
    /// Bitmask of source stacks not placed yet; they fill the leftmost
    /// `pool.count_ones()` stack slots, in an order still open.
    pool: u8,
    /// Source stack of each stack slot right of the pool.
    slot_stack: [u8; 3],
    /// Per stack slot right of the pool: bitmask (bit k = column k of the
    /// stack) of columns not placed yet; they fill the leftmost positions
    /// of the slot, in an order still open.
    open_cols: [u8; 3],
    /// Source column of each output column placed so far.
    cols: [u8; 9],
    /// The relabelling forced so far.
    labels: Labels,
}

impl Candidate {
    /// The candidate before any output row is chosen.
    fn start(transposed: u8) -> Candidate {
        Candidate {
            transposed,
            rows: [0; 9],
            pool: 0b111,
            slot_stack: [0; 3],
            open_cols: [0; 3],
            cols: [0; 9],
            labels: Labels::EMPTY,
        }
    }

    /// The complete transformation: open stacks and columns (blank in every
    /// row, so their order does not change the output) are placed in
    /// increasing order, unused digits get the remaining labels in
    /// increasing order.
    fn finish(&self) -> Transform {
        let mut cols = self.cols;
        let pooled = self.pool.count_ones() as usize;
        let mut slot = 0;
        for stack in 0..3u8 {
            if self.pool & (1 << stack) != 0 {
                for k in 0..3 {
                    cols[3 * slot + k] = 3 * stack + k as u8;
                }
                slot += 1;
            }
        }
        for slot in pooled..3 {
            let stack = self.slot_stack[slot];
            let mut pos = 3 * slot;
            for k in 0..3u8 {
                if self.open_cols[slot] & (1 << k) != 0 {
                    cols[pos] = 3 * stack + k;
                    pos += 1;
                }
            }
        }
        let mut labels = self.labels;
        let mut digits = [0u8; 9];
        for d in 1..=9u8 {
            digits[usize::from(d - 1)] = labels.label(d);
        }
        Transform::from_parts(self.transposed == 1, self.rows, cols, digits)
            .unwrap_or_else(|_| Transform::identity())
    }
}

/// One group of output positions still to be filled for the current row:
/// stack slot `slot`, holding source stack `stack`.
#[derive(Clone, Copy, Debug, Default)]
struct Segment {
    slot: u8,
    stack: u8,
}

/// Reusable state for exact canonical forms; one per worker. After the
/// first few puzzles it allocates nothing (its candidate buffers keep
/// their capacity).
#[derive(Debug)]
pub struct Canonicalizer {
    /// The input grid and its transpose.
    src: [[u8; CELLS]; 2],
    /// Candidates alive before the current row.
    alive: Vec<Candidate>,
    /// Candidates producing the best current row found so far.
    next: Vec<Candidate>,
    /// Best value of each position of the current row (`NONE` = unset).
    best: [u8; 9],
    /// Values of the source row being tried, by source column.
    row: [u8; 9],
    /// Stack slots to fill for the current row, in output order.
    segments: [Segment; 3],
    /// Number of valid entries in `segments`.
    segment_count: usize,
}

impl Default for Canonicalizer {
    fn default() -> Self {
        Canonicalizer::new()
    }
}

impl Canonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> Self {
        Canonicalizer {
            src: [[0; CELLS]; 2],
            alive: Vec::new(),
            next: Vec::new(),
            best: [NONE; 9],
            row: [0; 9],
            segments: [Segment::default(); 3],
            segment_count: 0,
        }
    }

    /// The canonical (minlex) form of `grid` and a transformation mapping
    /// `grid` to it. Exact for every grid: complete or not, unique or not,
    /// even with contradictory givens.
    pub fn canonical(&mut self, grid: &Grid) -> (Grid, Transform) {
        let cells = grid.cells();
        for r in 0..9 {
            for c in 0..9 {
                self.src[0][r * 9 + c] = cells[r * 9 + c];
                self.src[1][r * 9 + c] = cells[c * 9 + r];
            }
        }
        self.alive.clear();
        self.alive.push(Candidate::start(0));
        self.alive.push(Candidate::start(1));
        let mut out = [0u8; CELLS];
        for step in 0..9 {
            self.best = [NONE; 9];
            self.next.clear();
            for i in 0..self.alive.len() {
                let cand = self.alive[i];
                self.try_rows(step, &cand);
            }
            out[step * 9..step * 9 + 9].copy_from_slice(&self.best);
            std::mem::swap(&mut self.alive, &mut self.next);
        }
        let transform = self
            .alive
            .first()
            .map_or_else(Transform::identity, Candidate::finish);
        (Grid::from_cells(out).unwrap_or(*grid), transform)
    }

    /// Tries every source row allowed for output row `step` after `cand`.
    fn try_rows(&mut self, step: usize, cand: &Candidate) {
        let (first, count, skip) = match step % 3 {
            0 => (0u8, 9u8, 0u16),
            _ => {
                let band = cand.rows[step - 1] / 3;
                let mut used = 0u16;
                for &r in &cand.rows[step - step % 3..step] {
                    used |= 1 << r;
                }
                (band * 3, 3, used)
            }
        };
        let mut used_bands = 0u8;
        if step % 3 == 0 {
            for b in (0..step).step_by(3) {
                used_bands |= 1 << (cand.rows[b] / 3);
            }
        }
        for r in first..first + count {
            if skip & (1 << r) != 0 || used_bands & (1 << (r / 3)) != 0 {
                continue;
            }
            let base = usize::from(r) * 9;
            self.row
                .copy_from_slice(&self.src[usize::from(cand.transposed)][base..base + 9]);
            let mut c = *cand;
            c.rows[step] = r;
            self.place_row(c);
        }
    }

    /// Fills the current row for candidate `cand` (its row already chosen)
    /// in every way that can still be minimal.
    fn place_row(&mut self, mut cand: Candidate) {
        // Pooled stacks blank in this row stay pooled, at the very left.
        let mut blank_pool = 0u8;
        let mut busy = [0u8; 3];
        let mut busy_count = 0;
        for stack in 0..3u8 {
            if cand.pool & (1 << stack) == 0 {
                continue;
            }
            let s = 3 * usize::from(stack);
            if self.row[s] | self.row[s + 1] | self.row[s + 2] == 0 {
                blank_pool |= 1 << stack;
            } else {
                busy[busy_count] = stack;
                busy_count += 1;
            }
        }
        let blanks = 3 * blank_pool.count_ones() as usize;
        for p in 0..blanks {
            if !self.emit(p, 0) {
                return;
            }
        }
        let pooled = cand.pool.count_ones() as usize;
        cand.pool = blank_pool;
        let first_slot = blank_pool.count_ones() as usize;
        // The stack slots right of the pool, already placed.
        for slot in pooled..3 {
            self.segments[slot - first_slot] = Segment {
                slot: slot as u8,
                stack: cand.slot_stack[slot],
            };
        }
        self.segment_count = 3 - first_slot;
        // Every order of the pooled stacks with a digit in this row.
        let orders: &[[usize; 3]] = match busy_count {
            0 => &[[0, 0, 0]],
            1 => &[[0, 0, 0]],
            2 => &[[0, 1, 0], [1, 0, 0]],
            _ => &[
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ],
        };
        for order in orders {
            for (k, &i) in order.iter().take(busy_count).enumerate() {
                let slot = first_slot + k;
                let stack = busy[i];
                self.segments[k] = Segment {
                    slot: slot as u8,
                    stack,
                };
                cand.slot_stack[slot] = stack;
                cand.open_cols[slot] = 0b111;
            }
            self.fill_segment(0, cand);
        }
    }

    /// Fills segments `k..` of the current row.
    fn fill_segment(&mut self, k: usize, mut cand: Candidate) {
        if k == self.segment_count {
            self.next.push(cand);
            return;
        }
        let Segment { slot, stack } = self.segments[k];
        let slot = usize::from(slot);
        let open = cand.open_cols[slot];
        let base = 3 * usize::from(stack);
        let mut blank = 0u8;
        for j in 0..3 {
            if open & (1 << j) != 0 && self.row[base + j] == 0 {
                blank |= 1 << j;
            }
        }
        let start = 3 * slot;
        let blanks = blank.count_ones() as usize;
        for p in start..start + blanks {
            if !self.emit(p, 0) {
                return;
            }
        }
        cand.open_cols[slot] = blank;
        self.fill_digits(k, open & !blank, start + blanks, cand);
    }

    /// Places the open columns `digits` (each with a digit in this row) of
    /// segment `k` from position `pos` on, in every order that can still be
    /// minimal, then the segment's already placed columns, then the rest.
    fn fill_digits(&mut self, k: usize, digits: u8, pos: usize, cand: Candidate) {
        if digits == 0 {
            let mut cand = cand;
            let end = 3 * usize::from(self.segments[k].slot) + 3;
            for p in pos..end {
                let v = cand.labels.label(self.row[usize::from(cand.cols[p])]);
                if !self.emit(p, v) {
                    return;
                }
            }
            self.fill_segment(k + 1, cand);
            return;
        }
        let base = 3 * self.segments[k].stack;
        let mut rest = digits;
        while rest != 0 {
            let j = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let col = base + j;
            let mut c = cand;
            let v = c.labels.label(self.row[usize::from(col)]);
            if !self.emit(pos, v) {
                continue;
            }
            c.cols[pos] = col;
            self.fill_digits(k, digits & !(1 << j), pos + 1, c);
        }
    }

    /// Offers value `v` at position `p` of the current row, every earlier
    /// position being equal to the best row. Returns false when `v` is
    /// larger than the best (prune); when smaller, it becomes the best and
    /// every survivor collected so far is dropped.
    #[inline(always)]
    fn emit(&mut self, p: usize, v: u8) -> bool {
        let b = self.best[p];
        if v > b {
            return false;
        }
        if v < b {
            self.best[p] = v;
            for q in p + 1..9 {
                self.best[q] = NONE;
            }
            self.next.clear();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_greedy() {
        let mut l = Labels::EMPTY;
        assert_eq!(l.label(7), 1);
        assert_eq!(l.label(0), 0);
        assert_eq!(l.label(3), 2);
        assert_eq!(l.label(7), 1);
        assert_eq!(l.label(3), 2);
        assert_eq!(l.label(9), 3);
    }
}
