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
//! column permutations. Within a stack slot the output positions are cut
//! into *runs*; the columns of a run have had identical values in every
//! output row so far (blank so far, or the same digit in every row), so
//! every order of them gives the same prefix and the same relabelling, and
//! their order is left open. A new row splits each run by its values in
//! that row, in the only order that can be minimal: blanks first, then
//! digits already labelled by increasing label, then new digits, larger
//! groups first (a new digit's label repeats over its group), the only
//! branching being among new digits with groups of equal size. Likewise a
//! stack blank in every row so far stays in an unordered pool of stacks at
//! the left of the row (a blank stack segment is smaller than any other).
//! This is exact — members of a run or of the pool are interchangeable for
//! everything decided so far, and the later rows decide between them — and
//! it keeps near-empty grids and grids with repeated digits from
//! multiplying candidates by up to 6^4.

use crate::grid::{Grid, CELLS};

use super::complete::CompleteCanon;
use super::{offer, Offer, Transform};

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

    /// The label of `d` (1..=9) if it has one, else 0.
    #[inline(always)]
    fn peek(&self, d: u8) -> u8 {
        ((self.map >> (4 * u32::from(d))) & 0xF) as u8
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
    /// Bit p set when output column p starts a run (see the module docs);
    /// always set at the first position of a stack slot right of the pool.
    run_start: u16,
    /// Source column of each output column right of the pool; inside a
    /// run the order is arbitrary (any order gives the same output).
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
            run_start: 0,
            cols: [0; 9],
            labels: Labels::EMPTY,
        }
    }

    /// How many whole cell permutations this candidate stands for, once
    /// every row is placed: the orders of the pooled stacks and of their
    /// columns, and of the columns of each run.
    fn open_orders(&self) -> u64 {
        const FACTORIAL: [u64; 4] = [1, 1, 2, 6];
        let pooled = self.pool.count_ones() as usize;
        let mut orders = FACTORIAL[pooled] * 6u64.pow(pooled as u32);
        let mut run = 0;
        for p in 3 * pooled..9 {
            if self.run_start & (1 << p) != 0 {
                orders *= FACTORIAL[run];
                run = 0;
            }
            run += 1;
        }
        orders * FACTORIAL[run]
    }

    /// The complete transformation: pooled stacks (blank in every row, so
    /// their order does not change the output) are placed in increasing
    /// order, unused digits get the remaining labels in increasing order.
    fn finish(&self) -> Transform {
        let mut cols = self.cols;
        let mut slot = 0;
        for stack in 0..3u8 {
            if self.pool & (1 << stack) != 0 {
                for k in 0..3 {
                    cols[3 * slot + k] = 3 * stack + k as u8;
                }
                slot += 1;
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

/// Reusable state for exact canonical forms; one per worker. After the
/// first few puzzles it allocates nothing (its candidate buffers keep
/// their capacity).
///
/// The canonical form is the "minlex" form: the lexicographically smallest
/// 81-character string (blanks written `0`) over every [`Transform`] of
/// the grid, so two grids are equivalent exactly when their forms are
/// equal.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, Canonicalizer, Transform};
/// let p = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let mut canonicalizer = Canonicalizer::new(); // one per worker
/// let (canon, how) = canonicalizer.canonical(&p);
/// assert_eq!(how.apply(&p), canon);
/// assert_eq!(
///     &canon.to_line_with(b'0')[..],
///     b"000000000001002003240560780000000000002003007350680940000070050520308406710405208"
/// );
/// // Any equivalent puzzle has the same canonical form.
/// let t: Transform = "T;rows=210345876;cols=345012678;digits=918273645".parse().unwrap();
/// assert_ne!(t.apply(&p), p);
/// assert_eq!(canonicalizer.canonical(&t.apply(&p)).0, canon);
/// ```
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
    /// The path for complete valid grids (`complete.rs`).
    complete: CompleteCanon,
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
            complete: CompleteCanon::new(),
        }
    }

    /// The canonical (minlex) form of `grid` and a transformation mapping
    /// `grid` to it. Exact for every grid: complete or not, unique or not,
    /// even with contradictory givens.
    ///
    /// A valid solution grid takes a band-by-band path (`complete.rs`,
    /// microseconds) that gives the same form and the same transformation
    /// as the general search (milliseconds on such a grid).
    pub fn canonical(&mut self, grid: &Grid) -> (Grid, Transform) {
        // `is_complete` stops at the first blank: puzzles pay nothing.
        if grid.is_complete() && grid.is_valid_solution() {
            return self.complete.canonical(grid);
        }
        self.search(grid)
    }

    /// How many [`Transform`]s map `grid` onto itself (its automorphisms,
    /// the identity included): 1 for most puzzles, 3,359,232 x 9! for the
    /// empty grid. Exact for every grid, as [`canonical`](Self::canonical).
    ///
    /// The transformations taking a grid to its canonical form are one
    /// coset of its automorphisms, so there are as many of them, and the
    /// canonical search finds them all: each transformation still alive
    /// at the end, times the orders it left open (columns alike in every
    /// row, stacks blank in every row), times the relabellings of the
    /// digits the grid does not hold.
    ///
    /// # Example
    /// ```
    /// use batchdoku_core::{parse_line, Canonicalizer, Grid};
    /// let mut canonicalizer = Canonicalizer::new();
    /// // The most symmetric solution grid: 648 automorphisms, the most any
    /// // grid has.
    /// let grid = parse_line(
    ///     b"123456789456789123789123456231564897564897231897231564312645978645978312978312645",
    /// )
    /// .unwrap();
    /// assert_eq!(canonicalizer.automorphisms(&grid), 648);
    /// // One given in the centre: the cell maps that keep the centre
    /// // (2 x 144 x 144), times the 8! relabellings of the other digits.
    /// let mut one = Grid::empty();
    /// one.set(40, 7);
    /// assert_eq!(canonicalizer.automorphisms(&one), 2 * 144 * 144 * 40_320);
    /// assert_eq!(canonicalizer.automorphisms(&Grid::empty()), 3_359_232 * 362_880);
    /// ```
    pub fn automorphisms(&mut self, grid: &Grid) -> u64 {
        let held = (1..=9u8).filter(|&d| grid.cells().contains(&d)).count();
        let relabellings: u64 = (1..=9 - held as u64).product();
        if grid.is_complete() && grid.is_valid_solution() {
            return self.complete.automorphisms(grid) * relabellings;
        }
        self.search(grid);
        self.alive.iter().map(Candidate::open_orders).sum::<u64>() * relabellings
    }

    /// The general search, for any grid.
    pub(super) fn search(&mut self, grid: &Grid) -> (Grid, Transform) {
        let cells = grid.cells();
        for r in 0..9 {
            for c in 0..9 {
                self.src[0][r * 9 + c] = cells[r * 9 + c];
                self.src[1][r * 9 + c] = cells[c * 9 + r];
            }
        }
        // The two buffers swap roles at every step (9 per call), so each
        // call starts with them the other way round: keep both at the same
        // capacity, or a warm canonicalizer would still allocate.
        let capacity = self.alive.capacity().max(self.next.capacity());
        self.alive.clear();
        self.next.clear();
        self.alive.reserve(capacity);
        self.next.reserve(capacity);
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
        if step.is_multiple_of(3) {
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
        if cand.pool == 0 && cand.run_start == 0x1FF {
            // Every column placed: one way to write the row.
            for p in 0..9 {
                let v = cand.labels.label(self.row[usize::from(cand.cols[p])]);
                if !self.emit(p, v) {
                    return;
                }
            }
            self.next.push(cand);
            return;
        }
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
        cand.pool = blank_pool;
        let first_slot = blank_pool.count_ones() as usize;
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
                for j in 0..3 {
                    cand.cols[3 * slot + j] = 3 * stack + j as u8;
                }
                cand.run_start = (cand.run_start & !(0b111 << (3 * slot))) | 1 << (3 * slot);
            }
            self.fill_run(3 * first_slot, cand);
        }
    }

    /// Fills the run starting at position `pos` of the current row, then
    /// the rest of the row; a complete row joins the survivors.
    fn fill_run(&mut self, pos: usize, mut cand: Candidate) {
        if pos == 9 {
            self.next.push(cand);
            return;
        }
        let slot_end = pos - pos % 3 + 3;
        let mut end = pos + 1;
        while end < slot_end && cand.run_start & (1 << end) == 0 {
            end += 1;
        }
        if end == pos + 1 {
            let v = cand.labels.label(self.row[usize::from(cand.cols[pos])]);
            if self.emit(pos, v) {
                self.fill_run(end, cand);
            }
            return;
        }
        // Blanks, then labelled digits by increasing label, then new
        // digits (key 10): a stable sort of at most three columns.
        let mut members = [0u8; 3];
        let mut keys = [0u8; 3];
        let n = end - pos;
        for i in 0..n {
            let col = cand.cols[pos + i];
            let d = self.row[usize::from(col)];
            let key = if d == 0 {
                0
            } else {
                match cand.labels.peek(d) {
                    0 => 10,
                    l => l,
                }
            };
            let mut j = i;
            while j > 0 && keys[j - 1] > key {
                members[j] = members[j - 1];
                keys[j] = keys[j - 1];
                j -= 1;
            }
            members[j] = col;
            keys[j] = key;
        }
        let mut p = pos;
        let mut i = 0;
        while i < n && keys[i] < 10 {
            if !self.emit(p, keys[i]) {
                return;
            }
            if i > 0 && keys[i] != keys[i - 1] {
                cand.run_start |= 1 << p;
            }
            cand.cols[p] = members[i];
            p += 1;
            i += 1;
        }
        if i == n {
            return self.fill_run(end, cand);
        }
        if i > 0 {
            cand.run_start |= 1 << p;
        }
        // New digits: group by digit, larger groups first.
        let fresh = &members[i..n];
        let m = fresh.len();
        let row = self.row;
        let digit = |c: u8| row[usize::from(c)];
        let distinct = match m {
            1 => true,
            2 => digit(fresh[0]) != digit(fresh[1]),
            _ => {
                let (a, b, c) = (digit(fresh[0]), digit(fresh[1]), digit(fresh[2]));
                a != b && b != c && a != c
            }
        };
        if distinct {
            let mut set = [0u8; 3];
            set[..m].copy_from_slice(fresh);
            return self.fill_distinct(&set[..m], p, end, cand);
        }
        // Two or three columns of one new digit, maybe one of another:
        // the bigger group first, the order is forced.
        let mut order = [0u8; 3];
        order[..m].copy_from_slice(fresh);
        if m == 3 {
            // Move the odd one out (if any) to the end.
            let (a, b, c) = (digit(order[0]), digit(order[1]), digit(order[2]));
            if a != b && a == c {
                order.swap(1, 2);
            } else if a != b && b == c {
                order.swap(0, 2);
            }
        }
        for j in 0..m {
            let v = cand.labels.label(digit(order[j]));
            if !self.emit(p + j, v) {
                return;
            }
            if j > 0 && digit(order[j]) != digit(order[j - 1]) {
                cand.run_start |= 1 << (p + j);
            }
            cand.cols[p + j] = order[j];
        }
        self.fill_run(end, cand)
    }

    /// Places the columns `set` (distinct new digits in this row) at
    /// positions `pos..end` in every order that can still be minimal,
    /// each as a run of its own, then the rest of the row.
    fn fill_distinct(&mut self, set: &[u8], pos: usize, end: usize, cand: Candidate) {
        if set.is_empty() {
            return self.fill_run(end, cand);
        }
        for (i, &col) in set.iter().enumerate() {
            let mut c = cand;
            let v = c.labels.label(self.row[usize::from(col)]);
            if !self.emit(pos, v) {
                continue;
            }
            c.cols[pos] = col;
            c.run_start |= 1 << pos;
            let mut rest = [0u8; 3];
            let mut r = 0;
            for (j, &other) in set.iter().enumerate() {
                if j != i {
                    rest[r] = other;
                    r += 1;
                }
            }
            self.fill_distinct(&rest[..r], pos + 1, end, c);
        }
    }

    /// Offers value `v` at position `p` of the current row, every earlier
    /// position being equal to the best row. Returns false when `v` is
    /// larger than the best (prune); when smaller, it becomes the best and
    /// every survivor collected so far is dropped.
    #[inline(always)]
    fn emit(&mut self, p: usize, v: u8) -> bool {
        match offer(&mut self.best, p, v, NONE) {
            Offer::Worse => false,
            Offer::Tie => true,
            Offer::Better => {
                self.next.clear();
                true
            }
        }
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
