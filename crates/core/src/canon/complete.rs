//! The canonical form of a complete valid grid (a solution grid), band by
//! band: the same form and the same transformation as the general search
//! of `search.rs`, with about 300 times fewer instructions (41,000 a grid
//! instead of 12.6 million; BENCHMARKS.md, "Complete grids").
//!
//! In a solution grid every row holds the nine digits, so the first
//! output row is always `123456789`: whichever source row and column
//! order are chosen, the greedy relabelling names the digits in the order
//! the row shows them. The column order alone then fixes the relabelling,
//! and everything else follows from three observations.
//!
//! - **The first band.** Given the source rows of output rows 0, 1 and 2
//!   (one band, any order: 2 orientations x 9 x 2 choices), write
//!   `s(x)` for the column of row 0 holding the digit that row 1 has in
//!   column `x`. Output row 1 at position `j` is then `1 +` the output
//!   position of source column `s(col[j])`. Filling positions 0..8 in
//!   order, a column not yet placed at `j` is chosen in every possible way
//!   (only at the first positions of a stack slot in practice), and
//!   `s(col[j])`, if not placed yet, goes to the smallest position it can
//!   still take (the first free one of its stack's slot, or the first slot
//!   not yet given to a stack): any other position gives a larger value
//!   at `j` after an equal prefix, so no minimal transformation is lost.
//!   After row 1 every column is placed and row 2 is read off. A shared
//!   best band prunes every branch at its first larger value. The first
//!   three positions are known in advance: 456 when row 1 holds each box
//!   of row 0 inside one box ("pure" rows), else 457 at best, so only the
//!   starts that reach them are built ([`CompleteCanon::first_three`]).
//! - **The other six rows.** With the first band's rows and columns fixed,
//!   so are the labels, and each of the six remaining source rows reads as
//!   one fixed 9-digit string. Row 3 is the smallest of the six (its band
//!   is the middle band), rows 4 and 5 the other two of that band in
//!   increasing order, rows 6 to 8 the last band in increasing order: two
//!   rows of a solution grid never read alike, so this order is forced.
//! - **Which transformation.** A grid with automorphisms reaches its form
//!   by several transformations; the general search reports the first it
//!   meets, in the order of its choices: transpose flag, source row of
//!   row 0, the stack order, the order of the columns inside each stack
//!   slot from left to right, then the source rows of rows 1 to 8. Every
//!   transformation giving the form is collected here and the first in
//!   that order reported ([`Parts::search_key`]), so the reported
//!   transformation is the general search's too.

use crate::grid::{Grid, CELLS};

use super::{offer, Offer, Transform};

/// Larger than every value; "no best value yet", or "not placed yet".
const FREE: u8 = u8::MAX;

/// A column order under construction.
#[derive(Clone, Copy, Debug)]
struct Cols {
    /// Source column of each output column.
    col: [u8; 9],
    /// Output column of each source column.
    at: [u8; 9],
    /// Source stack of each output stack slot.
    stack: [u8; 3],
    /// Output slot of each source stack.
    slot: [u8; 3],
}

impl Cols {
    const OPEN: Cols = Cols {
        col: [FREE; 9],
        at: [FREE; 9],
        stack: [FREE; 3],
        slot: [FREE; 3],
    };

    /// Puts source column `x` at output column `p`, giving `x`'s stack the
    /// slot of `p` (the caller has checked that they fit).
    #[inline(always)]
    fn put(&mut self, p: usize, x: u8) {
        self.col[p] = x;
        self.at[usize::from(x)] = p as u8;
        let (s, t) = (p / 3, x / 3);
        self.stack[s] = t;
        self.slot[usize::from(t)] = s as u8;
    }
}

/// A first band as small as the best so far: orientation, its source
/// rows in output order, the column order.
#[derive(Clone, Copy, Debug)]
struct BandChoice {
    transposed: u8,
    rows: [u8; 3],
    cols: [u8; 9],
}

/// A whole transformation giving the best grid so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    transposed: u8,
    rows: [u8; 9],
    cols: [u8; 9],
    /// `labels[d]`: the output digit of source digit `d`.
    labels: [u8; 10],
}

impl Parts {
    /// The order in which the general search meets transformations (see
    /// the module docs): transpose flag, row 0, the stacks of slots 0 and
    /// 1, the columns left to right (the stacks being equal, that is the
    /// order inside each slot, slot by slot), then rows 1 to 8.
    fn search_key(&self) -> (u8, u8, u8, u8, [u8; 9], [u8; 9]) {
        (
            self.transposed,
            self.rows[0],
            self.cols[0] / 3,
            self.cols[3] / 3,
            self.cols,
            self.rows,
        )
    }

    fn transform(&self) -> Transform {
        let mut digits = [0u8; 9];
        digits.copy_from_slice(&self.labels[1..]);
        Transform::from_parts(self.transposed == 1, self.rows, self.cols, digits)
            .unwrap_or_else(|_| Transform::identity())
    }
}

/// Scratch of the complete-grid path, kept by the [`super::Canonicalizer`]
/// (its buffers keep their capacity).
#[derive(Debug)]
pub(super) struct CompleteCanon {
    /// The grid and its transpose.
    src: [[u8; CELLS]; 2],
    /// `pos[t][9 * r + d - 1]`: the column of digit `d` in row `r` of
    /// orientation `t`.
    pos: [[u8; CELLS]; 2],
    /// For the band being tried: `s` of row 1 (module docs).
    sigma: [u8; 9],
    /// Orientation and output rows 0..2 of the band being tried.
    trying: (u8, [u8; 3]),
    /// Best values of output rows 1 and 2 so far (`FREE` = unset).
    best: [u8; 18],
    /// First bands equal to `best`.
    bands: Vec<BandChoice>,
    /// Whole transformations giving the best grid.
    ties: Vec<Parts>,
}

impl CompleteCanon {
    pub(super) fn new() -> CompleteCanon {
        CompleteCanon {
            src: [[0; CELLS]; 2],
            pos: [[0; CELLS]; 2],
            sigma: [0; 9],
            trying: (0, [0; 3]),
            best: [FREE; 18],
            bands: Vec::new(),
            ties: Vec::new(),
        }
    }

    /// The canonical form of `grid`, which must be a valid solution grid
    /// ([`Grid::is_valid_solution`]), and the transformation the general
    /// search reports for it.
    pub(super) fn canonical(&mut self, grid: &Grid) -> (Grid, Transform) {
        debug_assert!(grid.is_valid_solution());
        let cells = grid.cells();
        for r in 0..9 {
            for c in 0..9 {
                let (a, b) = (cells[r * 9 + c], cells[c * 9 + r]);
                self.src[0][r * 9 + c] = a;
                self.src[1][r * 9 + c] = b;
                self.pos[0][r * 9 + usize::from(a) - 1] = c as u8;
                self.pos[1][r * 9 + usize::from(b) - 1] = c as u8;
            }
        }
        self.first_bands();
        let parts = self.whole_grids();
        let transform = parts.transform();
        (transform.apply(grid), transform)
    }

    /// How many transformations map `grid`, a valid solution grid, onto
    /// itself: as many as reach its canonical form, which are the ties
    /// [`Self::whole_grids`] collects (the relabelling follows from the
    /// cell permutation in a complete grid).
    pub(super) fn automorphisms(&mut self, grid: &Grid) -> u64 {
        self.canonical(grid);
        self.ties.len() as u64
    }

    /// Every first band equal to the smallest one, into `self.bands`.
    fn first_bands(&mut self) {
        self.best = [FREE; 18];
        self.bands.clear();
        // Rows 0 and 1 of a band are "pure" when row 1 holds the digits of
        // one box of row 0 in one box (then in every box): output row 1
        // can start 456, and from other rows it starts 457 at best.
        let mut pure = [false; 36];
        for (i, p) in pure.iter_mut().enumerate() {
            let (t, r0, r1, _) = config(i);
            let src = &self.src[usize::from(t)][usize::from(r1) * 9..][..3];
            let pos = &self.pos[usize::from(t)][usize::from(r0) * 9..][..9];
            let stack = |x: usize| pos[usize::from(src[x]) - 1] / 3;
            *p = stack(0) == stack(1) && stack(1) == stack(2);
        }
        let any_pure = pure.contains(&true);
        for (i, &p) in pure.iter().enumerate() {
            if p != any_pure {
                continue;
            }
            let (t, r0, r1, r2) = config(i);
            let src = &self.src[usize::from(t)];
            let pos = &self.pos[usize::from(t)][usize::from(r0) * 9..][..9];
            for x in 0..9 {
                self.sigma[x] = pos[usize::from(src[usize::from(r1) * 9 + x]) - 1];
            }
            self.trying = (t, [r0, r1, r2]);
            self.first_three(p);
        }
    }

    /// Output row 1's first three positions for the band being tried, in
    /// every way that gives 456 (pure) or 457 (not pure), then the rest:
    /// what [`Self::row1`] would do from position 0, without the branches
    /// that cannot be smallest.
    fn first_three(&mut self, pure: bool) {
        let sigma = self.sigma;
        let stack_of = |x: u8| sigma[usize::from(x)] / 3;
        for s0 in 0..3u8 {
            let x = [3 * s0, 3 * s0 + 1, 3 * s0 + 2];
            // (c0, c1, c2) in slot 0: pure, any order; else c0 and c1 are
            // the two columns whose row-1 digits share a box of row 0.
            let mut orders = [[0u8; 3]; 6];
            let n = if pure {
                orders = [
                    [x[0], x[1], x[2]],
                    [x[0], x[2], x[1]],
                    [x[1], x[0], x[2]],
                    [x[1], x[2], x[0]],
                    [x[2], x[0], x[1]],
                    [x[2], x[1], x[0]],
                ];
                6
            } else {
                let lone = if stack_of(x[0]) == stack_of(x[1]) {
                    2
                } else if stack_of(x[0]) == stack_of(x[2]) {
                    1
                } else {
                    0
                };
                let (a, b) = match lone {
                    0 => (x[1], x[2]),
                    1 => (x[0], x[2]),
                    _ => (x[0], x[1]),
                };
                orders[0] = [a, b, x[lone]];
                orders[1] = [b, a, x[lone]];
                2
            };
            let third = if pure { (5, 6) } else { (6, 7) };
            for order in &orders[..n] {
                if !(self.emit(0, 4) && self.emit(1, 5) && self.emit(2, third.1)) {
                    continue;
                }
                if !pure {
                    // Position 3 first, before anything is built: the
                    // column of `sigma(c0)` is placed (slot 0, 3, 4 or 6)
                    // or goes to the first free place of its stack's slot
                    // (5 or 7).
                    let v = sigma[usize::from(sigma[usize::from(order[0])])];
                    let placed = [
                        order[0],
                        order[1],
                        order[2],
                        sigma[usize::from(order[0])],
                        sigma[usize::from(order[1])],
                        FREE,
                        sigma[usize::from(order[2])],
                    ];
                    let p = match placed.iter().position(|&c| c == v) {
                        Some(p) => p as u8,
                        None if stack_of(order[0]) == v / 3 => 5,
                        None => 7,
                    };
                    if p + 1 > self.best[3] {
                        continue;
                    }
                }
                let mut cols = Cols::OPEN;
                for (p, &c) in order.iter().enumerate() {
                    cols.put(p, c);
                }
                cols.put(3, sigma[usize::from(order[0])]);
                cols.put(4, sigma[usize::from(order[1])]);
                cols.put(third.0, sigma[usize::from(order[2])]);
                self.row1(3, cols);
            }
        }
    }

    /// Output row 1 from position `j` on (the module docs' first point):
    /// a loop while every position has one way to go, a branch for each
    /// choice of column otherwise.
    fn row1(&mut self, mut j: usize, mut cols: Cols) {
        while j < 9 {
            if cols.col[j] == FREE {
                // The columns that can go at `j`: those not placed of the
                // slot's stack, or of any stack without a slot.
                let s = j / 3;
                let mut open = 0u16;
                for x in 0..9u8 {
                    let t = cols.stack[s];
                    let fits = if t == FREE {
                        cols.slot[usize::from(x / 3)] == FREE
                    } else {
                        x / 3 == t
                    };
                    if fits && cols.at[usize::from(x)] == FREE {
                        open |= 1 << x;
                    }
                }
                if open.count_ones() != 1 {
                    while open != 0 {
                        let x = open.trailing_zeros() as u8;
                        open &= open - 1;
                        let mut c = cols;
                        c.put(j, x);
                        self.row1(j, c);
                    }
                    return;
                }
                cols.put(j, open.trailing_zeros() as u8);
            }
            // The column holding this digit in row 0, as far left as it
            // can still go.
            let v = self.sigma[usize::from(cols.col[j])];
            let mut p = cols.at[usize::from(v)];
            if p == FREE {
                let s = match cols.slot[usize::from(v / 3)] {
                    FREE => cols.stack.iter().position(|&t| t == FREE).unwrap_or(2),
                    s => usize::from(s),
                };
                let mut q = 3 * s;
                while q < 3 * s + 2 && cols.col[q] != FREE {
                    q += 1;
                }
                cols.put(q, v);
                p = q as u8;
            }
            if !self.emit(j, p + 1) {
                return;
            }
            j += 1;
        }
        self.row2(&cols);
    }

    /// Output row 2, every column placed; a band as small as the best
    /// joins `self.bands`.
    fn row2(&mut self, cols: &Cols) {
        let (t, [r0, _, r2]) = self.trying;
        let (t, r0, r2) = (usize::from(t), usize::from(r0), usize::from(r2));
        let mut below = [0u8; 9];
        below.copy_from_slice(&self.src[t][r2 * 9..][..9]);
        let mut pos = [0u8; 9];
        pos.copy_from_slice(&self.pos[t][r0 * 9..][..9]);
        for j in 0..9 {
            let v = cols.at[usize::from(pos[usize::from(below[usize::from(cols.col[j])]) - 1])];
            if !self.emit(9 + j, v + 1) {
                return;
            }
        }
        let (transposed, rows) = self.trying;
        self.bands.push(BandChoice {
            transposed,
            rows,
            cols: cols.col,
        });
    }

    /// Offers value `v` at position `p` of rows 1 and 2, the earlier ones
    /// being equal to the best: false when larger (prune); when smaller it
    /// becomes the best and the bands collected so far are dropped.
    #[inline(always)]
    fn emit(&mut self, p: usize, v: u8) -> bool {
        match offer(&mut self.best, p, v, FREE) {
            Offer::Worse => false,
            Offer::Tie => true,
            Offer::Better => {
                self.bands.clear();
                true
            }
        }
    }

    /// Completes every best first band (the module docs' second point)
    /// and returns the transformation the general search would report.
    fn whole_grids(&mut self) -> Parts {
        self.ties.clear();
        let mut best = [u64::MAX; 6];
        for i in 0..self.bands.len() {
            let band = self.bands[i];
            let src = &self.src[usize::from(band.transposed)];
            let mut labels = [0u8; 10];
            let r0 = usize::from(band.rows[0]) * 9;
            for (j, &c) in band.cols.iter().enumerate() {
                labels[usize::from(src[r0 + usize::from(c)])] = j as u8 + 1;
            }
            // The six other rows as 9-digit numbers, by source band.
            let first = band.rows[0] / 3;
            let mut others = [[(0u64, 0u8); 3]; 2];
            let mut k = 0;
            for b in 0..3u8 {
                if b == first {
                    continue;
                }
                for (i, slot) in others[k].iter_mut().enumerate() {
                    let r = 3 * b + i as u8;
                    let line = &src[usize::from(r) * 9..][..9];
                    let code = band.cols.iter().fold(0u64, |acc, &c| {
                        acc << 4 | u64::from(labels[usize::from(line[usize::from(c)])])
                    });
                    *slot = (code, r);
                }
                sort3(&mut others[k]);
                k += 1;
            }
            if others[1][0].0 < others[0][0].0 {
                others.swap(0, 1);
            }
            let mut tail = [0u64; 6];
            let mut rows = [0u8; 9];
            rows[..3].copy_from_slice(&band.rows);
            for (n, &(code, r)) in others.iter().flatten().enumerate() {
                tail[n] = code;
                rows[3 + n] = r;
            }
            if tail > best {
                continue;
            }
            if tail < best {
                best = tail;
                self.ties.clear();
            }
            self.ties.push(Parts {
                transposed: band.transposed,
                rows,
                cols: band.cols,
                labels,
            });
        }
        self.ties
            .iter()
            .min_by_key(|p| p.search_key())
            .copied()
            .unwrap_or(Parts {
                transposed: 0,
                rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
                labels: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            })
    }
}

/// Configuration `i` of 0..36 of the first band: orientation, source
/// rows of output rows 0, 1 and 2.
fn config(i: usize) -> (u8, u8, u8, u8) {
    let (t, r0, k) = ((i / 18) as u8, (i % 18 / 2) as u8, (i % 2) as u8);
    let base = r0 - r0 % 3;
    let others = [0, 1, 2].map(|d| base + d);
    let mut rest = others.iter().copied().filter(|&r| r != r0);
    let (a, b) = (rest.next().unwrap_or(base), rest.next().unwrap_or(base));
    if k == 0 {
        (t, r0, a, b)
    } else {
        (t, r0, b, a)
    }
}

/// Sorts three (code, row) pairs by code.
#[inline(always)]
fn sort3(a: &mut [(u64, u8); 3]) {
    if a[1].0 < a[0].0 {
        a.swap(0, 1);
    }
    if a[2].0 < a[1].0 {
        a.swap(1, 2);
        if a[1].0 < a[0].0 {
            a.swap(0, 1);
        }
    }
}
