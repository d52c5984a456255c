//! The branch-and-bound's upper bound: a Lagrangian relaxation of the
//! units' constraints, with a price per unit and digit.
//!
//! # The relaxation
//!
//! A completion gives each empty cell one candidate so that every row,
//! column and box holds each digit once. Drop the units' constraints
//! ("digit `d` once in unit `k`"), charging a price `p[k][d]` for every
//! cell of unit `k` that takes `d` and paying `p[k][d]` back once per unit
//! and digit not yet placed there. For any prices a real completion takes
//! each such digit exactly once per unit, so its charges and refunds cancel
//! and its score is unchanged; the relaxed problem lets every empty cell
//! take its most profitable candidate, profit `weight * d - p[row][d] -
//! p[column][d] - p[box][d]`. The refunds plus the cells' best profits
//! (plus the filled cells' score) are therefore an admissible bound for
//! every choice of prices. This is the dual of the puzzle's linear
//! programme (cells' best profits as the cell constraints' duals): at the
//! best prices it is the linear-programming bound, which at the roots of
//! the benchmark's 20 puzzles with 24 givens equals the optimum 17 times
//! (1.4 to 2.0 points above it the other 3 times), where the earlier bound
//! (each cell's weight split between its units, untuned) sat 6.7 to 27.6
//! points above.
//! One evaluation is one pass over the empty cells' candidates.
//!
//! A candidate's reduced cost, its cell's best profit minus its own, is
//! what forcing it takes off the bound: a candidate whose reduced cost
//! exceeds the slack (bound minus the score to beat) belongs to no
//! completion worth finding below the node, or below any descendant, since
//! the score to beat only grows (reduced-cost fixing).
//!
//! # The prices
//!
//! [`Lagrange::new`]'s prices are `d` times a third of the unit's mean
//! weight, an even share of each cell's weight between its three units.
//! Three ways tune them (the bound is convex and piecewise linear in the
//! prices):
//!
//! - [`Lagrange::sweep`], coordinate descent: each price in turn moves to
//!   where the bound is least with the others fixed (midway between the
//!   two cells of its unit that gain most by taking the digit). It needs
//!   no target, so it runs at the root before any solution is known. It
//!   can stall short of the best prices: on the empty grid it stops at
//!   2943.3 from the even share, 37 points above the optimum.
//! - [`Lagrange::descend`], subgradient steps (below) with a fading
//!   factor, keeping the best prices met. `Weights` tunes the even share on
//!   the empty grid once, by passes and then this, towards the score of a
//!   first solution; every puzzle starts from those prices. At the
//!   benchmark's 200 24-given roots the bound then starts 15.5 points above
//!   the optimum on average instead of 66.0, and the 4 root passes bring
//!   it to 2.2 (64 of the 200 under one point, which proves the optimum
//!   as soon as it is found), where 8 passes from the even share gave 2.0
//!   (73).
//! - [`Lagrange::step`], a subgradient step: the subgradient for
//!   `p[k][d]` is 1 minus the number of cells of unit `k` whose digit (a
//!   filled cell's own, an empty cell's most profitable) is `d`; Polyak's
//!   rule moves the prices against it towards a target just above the
//!   score to beat. It does not stall, but needs that target.
//!
//! Nothing is allocated: the tables live in the visitor.

// Positions, cells and digits index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::grid::{BOX_OF, CELLS, COL_OF, ROW_OF, UNITS};
use crate::solver::Node;

/// Weights and prices are fixed-point: one weight unit is `SCALE`.
pub(crate) const SCALE: i64 = 1 << 12;

/// Prices are only tuned while every weight is at most this in size: a
/// step moves prices by up to a few times the bound's gap, and with
/// weights up to 2^16 every sum stays well inside `i64`. Larger weights
/// keep the starting prices (still admissible).
const TUNABLE_WEIGHT: i64 = 1 << 16;

/// Whether the prices may be tuned for `weights` (see [`TUNABLE_WEIGHT`]).
pub(crate) fn tunable(weights: &[i32; CELLS]) -> bool {
    weights
        .iter()
        .all(|&w| i64::from(w).abs() <= TUNABLE_WEIGHT)
}

/// A node's cells as the bound reads them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cells {
    /// Candidates of each empty cell (0 for filled cells).
    pub(crate) candidates: [u16; CELLS],
    /// Digit of each filled cell (0 for empty cells).
    pub(crate) values: [u8; CELLS],
}

impl Cells {
    /// No cells read yet.
    pub(crate) const EMPTY: Cells = Cells {
        candidates: [0; CELLS],
        values: [0; CELLS],
    };

    /// The empty grid: every cell empty, every digit a candidate.
    pub(crate) const BLANK: Cells = Cells {
        candidates: [0x1FF; CELLS],
        values: [0; CELLS],
    };

    /// The cells of `node`.
    #[inline]
    pub(crate) fn of(node: &Node) -> Cells {
        let mut cells = Cells::EMPTY;
        cells.read(node);
        cells
    }

    /// Reads the cells of `node` into `self`.
    #[inline]
    pub(crate) fn read(&mut self, node: &Node) {
        node.cell_masks(&mut self.candidates, &mut self.values);
    }
}

/// The outcome of one evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// The bound on any completion's score, in share units.
    pub(crate) total: i64,
    /// Each empty cell's best profit (0 for filled cells).
    best: [i64; CELLS],
    /// Each empty cell's best profit less its second best (-1 with one
    /// candidate and for filled cells: no regret to branch on).
    regret: [i64; CELLS],
    /// Each empty cell's least profit (0 for filled cells).
    worst: [i64; CELLS],
    /// Each cell's part of the total: an empty cell's best profit, a
    /// filled cell's profit.
    part: [i64; CELLS],
    /// The sum of `part`.
    part_sum: i64,
    /// The cells these entries are of (per cell: an entry is only written
    /// with its cell's state; a digit of 10 matches no cell).
    seen: Cells,
    /// Each cell's digit in the relaxation (1..=9): a filled cell's own,
    /// an empty cell's most profitable candidate.
    pub(crate) digits: [u8; CELLS],
}

impl Eval {
    /// An evaluation to fill.
    pub(crate) const fn new() -> Eval {
        Eval {
            total: 0,
            best: [0; CELLS],
            regret: [-1; CELLS],
            worst: [0; CELLS],
            part: [0; CELLS],
            part_sum: 0,
            seen: Cells {
                candidates: [0; CELLS],
                values: [10; CELLS],
            },
            digits: [0; CELLS],
        }
    }
}

/// The weights and the prices of the unit constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lagrange {
    /// Each cell's weight in share units.
    weight: [i64; CELLS],
    /// `price[k][d]`: rows `k` 0..9, columns 9..18, boxes 18..27, digit
    /// `d + 1`.
    price: [[i64; 9]; 27],
    /// `profit[c][d]`: cell `c` taking digit `d + 1`, its weight times
    /// the digit less the digit's prices in its three units (kept in step
    /// with the prices by [`refresh`](Self::refresh)).
    profit: [[i64; 9]; CELLS],
    /// The sum of all prices.
    price_sum: i64,
}

/// The best and second best of `profit` over `candidates` (`i64::MIN`
/// when missing) and the digit (0..9) of the best.
#[inline(always)]
fn top_two(profit: &[i64; 9], mut candidates: u16) -> (i64, i64, u8) {
    let (mut b1, mut b2, mut arg) = (i64::MIN, i64::MIN, 0u8);
    while candidates != 0 {
        let d = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let p = profit[d];
        if p > b1 {
            (b2, b1, arg) = (b1, p, d as u8);
        } else if p > b2 {
            b2 = p;
        }
    }
    (b1, b2, arg)
}

/// [`top_two`] and the least of `profit` over `candidates` (not 0).
#[inline(always)]
fn top_two_and_least(profit: &[i64; 9], mut candidates: u16) -> (i64, i64, i64, u8) {
    let (mut b1, mut b2, mut least, mut arg) = (i64::MIN, i64::MIN, i64::MAX, 0u8);
    while candidates != 0 {
        let d = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let p = profit[d];
        least = least.min(p);
        if p > b1 {
            (b2, b1, arg) = (b1, p, d as u8);
        } else if p > b2 {
            b2 = p;
        }
    }
    (b1, b2, least, arg)
}

/// A cell's [`top_two`] after the profit of digit `d` (0..9) moved by
/// `-delta` to `p`, from the `(best, second, digit of best)` before; `None`
/// when it has to be recomputed (the best fell below the second, or the
/// second best, or a profit tied with it, fell below it). Branch-free in
/// the common cases.
#[inline(always)]
fn moved_top((b1, b2, arg): (i64, i64, u8), p: i64, delta: i64, d: u8) -> Option<(i64, i64, u8)> {
    let was_best = arg == d;
    // p < b2 and d was the best, or was at least the second (p + delta
    // >= b2 with p < b2 implies delta > 0). One branch, rarely taken.
    // (`black_box` keeps the two tests one branch: LLVM would split it.)
    if std::hint::black_box((p < b2) & (was_best | (p + delta >= b2))) {
        return None;
    }
    // d was the best and still is (p >= b2); or it was not: it becomes the
    // best above b1, the second at or above b2, and else changes nothing.
    let best = i64::from(was_best).wrapping_neg(); // all ones when was_best
    let new_b1 = (p & best) | (b1.max(p) & !best);
    let new_b2 = (b2 & best) | (b1.min(b2.max(p)) & !best);
    let rises = u8::from(!was_best & (p > b1)).wrapping_neg();
    let new_arg = (d & rises) | (arg & !rises);
    Some((new_b1, new_b2, new_arg))
}

/// Every cell, as [`changed_cells`] gives them.
const ALL_CELLS: [u64; 2] = [u64::MAX, (1 << (CELLS - 64)) - 1];

/// The cells (bit `c % 64` of word `c / 64`) whose candidates or digit
/// differ between `a` and `b`, without a branch per cell: 16 cells at a
/// time with SSE2 (the scalar version without the `simd` feature).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
#[inline(always)]
fn changed_cells(a: &Cells, b: &Cells) -> [u64; 2] {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi16, _mm_cmpeq_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_packs_epi16,
    };
    let mut same = 0u128;
    for i in 0..CELLS / 16 {
        let at = 16 * i;
        // SAFETY: SSE2 is always available on x86-64; the loads read
        // candidates at..at + 16 and values at..at + 16, inside the arrays
        // (at + 16 <= 80 < CELLS); unaligned loads need no alignment.
        let mask = unsafe {
            let load16 =
                |x: &[u16; CELLS], o: usize| _mm_loadu_si128(x.as_ptr().add(o) as *const __m128i);
            let lo = _mm_cmpeq_epi16(load16(&a.candidates, at), load16(&b.candidates, at));
            let hi = _mm_cmpeq_epi16(load16(&a.candidates, at + 8), load16(&b.candidates, at + 8));
            let values = _mm_cmpeq_epi8(
                _mm_loadu_si128(a.values.as_ptr().add(at) as *const __m128i),
                _mm_loadu_si128(b.values.as_ptr().add(at) as *const __m128i),
            );
            _mm_movemask_epi8(_mm_and_si128(_mm_packs_epi16(lo, hi), values)) as u32 as u16
        };
        same |= u128::from(mask) << at;
    }
    for c in CELLS / 16 * 16..CELLS {
        let eq = (a.candidates[c] == b.candidates[c]) & (a.values[c] == b.values[c]);
        same |= u128::from(eq) << c;
    }
    let changed = !same & ((1u128 << CELLS) - 1);
    [changed as u64, (changed >> 64) as u64]
}

/// [`changed_cells`] one cell at a time (other targets, and the reference
/// in tests).
#[cfg_attr(all(feature = "simd", target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn changed_cells_scalar(a: &Cells, b: &Cells) -> [u64; 2] {
    let mut bits = [0u64; 2];
    for c in 0..CELLS {
        let same = (a.candidates[c] == b.candidates[c]) & (a.values[c] == b.values[c]);
        bits[c >> 6] |= u64::from(!same) << (c & 63);
    }
    bits
}

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
use changed_cells_scalar as changed_cells;

/// Each cell's three units: row, column, box.
#[inline(always)]
fn units_of(c: usize) -> [usize; 3] {
    [
        ROW_OF[c] as usize,
        9 + COL_OF[c] as usize,
        18 + BOX_OF[c] as usize,
    ]
}

impl Lagrange {
    /// The starting prices for `weights` (one per cell, row-major): digit
    /// `d` costs `d` times a third of the unit's mean weight in each unit,
    /// so a cell's three prices share out its weight on an even grid.
    pub(crate) fn new(weights: &[i32; CELLS]) -> Lagrange {
        let weight = weights.map(|w| i64::from(w) * SCALE);
        let mut price = [[0; 9]; 27];
        for (k, unit) in UNITS.iter().enumerate() {
            let sum: i64 = unit.iter().map(|&c| weight[c as usize]).sum();
            for d in 0..9 {
                price[k][d] = (d as i64 + 1) * sum / 27;
            }
        }
        let mut lagrange = Lagrange {
            weight,
            price,
            profit: [[0; 9]; CELLS],
            price_sum: 0,
        };
        lagrange.refresh();
        lagrange
    }

    /// Recomputes the profits and the sum of the prices from the prices.
    pub(crate) fn refresh(&mut self) {
        for c in 0..CELLS {
            let [r, k, b] = units_of(c);
            for d in 0..9 {
                self.profit[c][d] = self.weight[c] * (d as i64 + 1)
                    - self.price[r][d]
                    - self.price[k][d]
                    - self.price[b][d];
            }
        }
        self.price_sum = self.price.iter().flatten().sum();
    }

    /// The most profitable of `candidates` (not 0) in cell `c`, 0-based.
    #[inline]
    pub(crate) fn best_digit(&self, c: usize, candidates: u16) -> usize {
        top_two(&self.profit[c], candidates).2 as usize
    }

    /// Evaluates the bound at `cells` into `eval`; `None` when some empty
    /// cell has no candidate.
    ///
    /// Each filled cell covers its digit in its three units once (the
    /// node is consistent), so the refunds of the digits still missing are
    /// all the prices less each filled cell's three: the bound is the sum
    /// of the prices plus every cell's best profit, a filled cell's being
    /// that of its own digit.
    #[inline]
    pub(crate) fn evaluate(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        self.evaluate_cells(cells, eval, false)
    }

    /// [`evaluate`](Self::evaluate), reading again only the cells that
    /// differ from the ones `eval` last saw. `eval` must hold this
    /// relaxation's evaluation under the current prices (of whatever cells
    /// it last saw, or of none): call [`evaluate`](Self::evaluate) after
    /// the prices change.
    #[inline]
    pub(crate) fn reevaluate(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        self.evaluate_cells(cells, eval, true)
    }

    /// The bound at `cells` alone ([`evaluate`](Self::evaluate) without
    /// recording anything).
    pub(crate) fn bound(&self, cells: &Cells) -> Option<i64> {
        let mut total = self.price_sum;
        for c in 0..CELLS {
            let v = cells.values[c];
            total += if v != 0 {
                self.profit[c][v as usize - 1]
            } else {
                let mut m = cells.candidates[c];
                if m == 0 {
                    return None;
                }
                let mut best = i64::MIN;
                while m != 0 {
                    best = best.max(self.profit[c][m.trailing_zeros() as usize]);
                    m &= m - 1;
                }
                best
            };
        }
        Some(total)
    }

    #[inline(always)]
    fn evaluate_cells(&self, cells: &Cells, eval: &mut Eval, reuse: bool) -> Option<i64> {
        let changed = if reuse {
            changed_cells(cells, &eval.seen)
        } else {
            ALL_CELLS
        };
        for (word, mut bits) in changed.into_iter().enumerate() {
            while bits != 0 {
                let c = 64 * word + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (m, v) = (cells.candidates[c], cells.values[c]);
                let part = if v != 0 {
                    eval.best[c] = 0;
                    eval.regret[c] = -1;
                    eval.worst[c] = 0;
                    eval.digits[c] = v;
                    self.profit[c][v as usize - 1]
                } else {
                    if m == 0 {
                        if !reuse {
                            // The later cells' entries may be under other prices.
                            eval.seen.values = [10; CELLS];
                        }
                        return None;
                    }
                    let (best, second, worst, digit) = top_two_and_least(&self.profit[c], m);
                    eval.best[c] = best;
                    eval.regret[c] = if second == i64::MIN {
                        -1
                    } else {
                        best - second
                    };
                    eval.worst[c] = worst;
                    eval.digits[c] = digit + 1;
                    best
                };
                eval.part_sum += part - eval.part[c];
                eval.part[c] = part;
                eval.seen.candidates[c] = m;
                eval.seen.values[c] = v;
            }
        }
        let total = self.price_sum + eval.part_sum;
        eval.total = total;
        Some(total)
    }

    /// One Polyak step on the prices from `eval` (this relaxation's
    /// evaluation at some node) towards `target`: `lambda * (bound -
    /// target) / |g|^2` along the subgradient `g`. False when there is
    /// nothing to do (the bound is at the target, or the cells' choices
    /// already satisfy every unit: then the bound is exact).
    pub(crate) fn step(&mut self, eval: &Eval, target: i64, lambda: f64) -> bool {
        if eval.total <= target {
            return false;
        }
        // 1 minus the cells of the unit whose digit is d (filled or not).
        let mut g = [[1i64; 9]; 27];
        for c in 0..CELLS {
            let d = eval.digits[c] as usize - 1;
            for k in units_of(c) {
                g[k][d] -= 1;
            }
        }
        let norm: i64 = g.iter().flatten().map(|x| x * x).sum();
        if norm == 0 {
            return false;
        }
        let t = lambda * (eval.total - target) as f64 / norm as f64;
        // A unit's entry is 1 minus the cells choosing the digit there (at
        // most 9): the moves for -8..=1, truncated.
        let moves: [i64; 10] = std::array::from_fn(|i| (t * (i as f64 - 8.0)) as i64);
        // Only the prices that move change profits: those of the unit's
        // cells for that digit.
        for (k, unit) in UNITS.iter().enumerate() {
            for d in 0..9 {
                let m = moves[(g[k][d] + 8) as usize];
                if m == 0 {
                    continue;
                }
                self.price[k][d] -= m;
                self.price_sum -= m;
                for &c in unit {
                    self.profit[c as usize][d] += m;
                }
            }
        }
        true
    }

    /// Up to `steps` Polyak steps at `cells` towards `target` (which may
    /// lie below the least bound: the factor halves whenever 20 steps in a
    /// row fail to lower the bound), keeping the prices of the least
    /// bound met. Needs every empty cell of `cells` to have a candidate.
    pub(crate) fn descend(&mut self, cells: &Cells, target: i64, steps: usize) {
        let mut eval = Eval::new();
        let Some(mut least) = self.evaluate(cells, &mut eval) else {
            return;
        };
        let mut best = *self;
        let (mut lambda, mut stale) = (1.0, 0);
        for _ in 0..steps {
            if !self.step(&eval, target, lambda) {
                break;
            }
            let Some(total) = self.evaluate(cells, &mut eval) else {
                break;
            };
            if total < least {
                (least, best, stale) = (total, *self, 0);
            } else {
                stale += 1;
                if stale == 20 {
                    (lambda, stale) = (lambda / 2.0, 0);
                }
            }
        }
        *self = best;
    }

    /// `rounds` passes of coordinate descent over the prices at `cells`:
    /// each price of a digit missing in its unit in turn moves to where the
    /// bound is least with the others fixed, midway between the two cells
    /// of the unit that gain most by taking that digit over their best
    /// other candidate (the bound's slope in that price is zero there).
    /// Needs no target, unlike [`step`](Self::step), but can stall short of
    /// the best prices.
    pub(crate) fn sweep(&mut self, cells: &Cells, rounds: usize) {
        if rounds == 0 {
            return;
        }
        // The (unit, digit) prices to move, with the unit's cells that can
        // take the digit.
        let mut blocks = [(0u8, 0u8, 0u8); 243];
        let mut members = [[0u8; 9]; 243];
        let mut len = 0;
        for (k, unit) in UNITS.iter().enumerate() {
            let mut placed = 0u16;
            for &c in unit {
                // Digit v's bit, none for an empty cell (v = 0).
                placed |= (1u16 << cells.values[c as usize]) >> 1;
            }
            for d in 0..9 {
                if placed >> d & 1 != 0 {
                    continue;
                }
                let mut n = 0;
                for &c in unit {
                    // Written always, kept only when the cell can take d.
                    members[len][n] = c;
                    n += (cells.candidates[c as usize] >> d & 1) as usize;
                }
                if n > 0 {
                    blocks[len] = (k as u8, d as u8, n as u8);
                    len += 1;
                }
            }
        }
        // Every candidate's profit, and per empty cell its best and second
        // best profits and the digit of the best.
        let profit = &mut self.profit;
        let mut top = [(i64::MIN, i64::MIN, 0u8); CELLS];
        for c in 0..CELLS {
            let m = cells.candidates[c];
            if m != 0 {
                top[c] = top_two(&profit[c], m);
            }
        }
        for _ in 0..rounds {
            for (&(k, d, n), members) in blocks[..len].iter().zip(&members) {
                let (k, d, members) = (k as usize, d as usize, &members[..n as usize]);
                // The two largest gains `profit(d) - best other` (the
                // price's own part left out: it shifts them all alike).
                let (mut g1, mut g2) = (i64::MIN, i64::MIN);
                for &c in members {
                    let (b1, b2, arg) = top[c as usize];
                    let other = if arg as usize == d { b2 } else { b1 };
                    // None when d is its only candidate.
                    let gain = if other == i64::MIN {
                        i64::MIN
                    } else {
                        profit[c as usize][d] - other
                    };
                    (g1, g2) = (g1.max(gain), g2.max(g1.min(gain)));
                }
                let delta = if g2 != i64::MIN {
                    (g1 + g2) / 2
                } else if g1 != i64::MIN {
                    g1
                } else {
                    continue;
                };
                if delta == 0 {
                    continue;
                }
                self.price[k][d] += delta;
                for &c in members {
                    let c = c as usize;
                    let p = profit[c][d] - delta;
                    profit[c][d] = p;
                    top[c] = moved_top(top[c], p, delta, d as u8)
                        .unwrap_or_else(|| top_two(&profit[c], cells.candidates[c]));
                }
            }
        }
        self.refresh();
    }

    /// Calls `drop(cell, digit)` for every candidate whose reduced cost
    /// (its cell's best profit minus its own) takes the bound below
    /// `threshold`. `eval` must be this relaxation's evaluation of `cells`.
    /// Returns the cell to branch on, the one whose two smallest reduced
    /// costs among kept candidates differ most, with its cheapest digit.
    pub(crate) fn fix(
        &self,
        cells: &Cells,
        eval: &Eval,
        threshold: i64,
        mut drop: impl FnMut(usize, u8),
    ) -> Option<(usize, u8)> {
        let slack = eval.total - threshold;
        let mut branch = None;
        let mut regret = -1i64;
        for c in 0..CELLS {
            // A filled cell (no candidates) has best and worst 0 and
            // regret -1: it takes the first branch and is never chosen.
            let best = eval.best[c];
            if best - eval.worst[c] <= slack {
                // Nothing to drop: the two smallest reduced costs are 0
                // and the second best's.
                let r = eval.regret[c];
                if r > regret {
                    regret = r;
                    branch = Some((c, eval.digits[c]));
                }
                continue;
            }
            let mut m = cells.candidates[c];
            let (mut c1, mut c2, mut cheapest) = (i64::MAX, i64::MAX, 0u8);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let loss = eval.best[c] - self.profit[c][d];
                if loss > slack {
                    drop(c, d as u8 + 1);
                    continue;
                }
                if loss < c1 {
                    (c2, c1, cheapest) = (c1, loss, d as u8 + 1);
                } else if loss < c2 {
                    c2 = loss;
                }
            }
            if c2 != i64::MAX && c2 - c1 > regret {
                regret = c2 - c1;
                branch = Some((c, cheapest));
            }
        }
        branch
    }
}

#[cfg(test)]
mod tests;
