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
//! The bound is convex and piecewise linear in the prices; its subgradient
//! for `p[k][d]` is 1 (0 if `d` is placed in `k`) minus the number of cells
//! of unit `k` whose best candidate is `d`. [`Lagrange::step`] moves the
//! prices against it by Polyak's rule towards a target just above the score
//! to beat. Prices start at `d` times a third of the unit's mean weight, an
//! even share of each cell's weight between its three units.
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

    /// The cells of `node`.
    #[inline]
    pub(crate) fn of(node: &Node) -> Cells {
        let mut cells = Cells::EMPTY;
        node.cell_masks(&mut cells.candidates, &mut cells.values);
        cells
    }
}

/// The outcome of one evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// The bound on any completion's score, in share units.
    pub(crate) total: i64,
    /// Each empty cell's best profit (0 for filled cells).
    best: [i64; CELLS],
    /// The digit each empty cell's best profit takes (0 for filled cells).
    pub(crate) assigned: [u8; CELLS],
    /// Per unit (rows, columns, boxes), the digits placed at the node.
    placed: [u16; 27],
}

impl Eval {
    /// An evaluation to fill.
    pub(crate) const fn new() -> Eval {
        Eval {
            total: 0,
            best: [0; CELLS],
            assigned: [0; CELLS],
            placed: [0; 27],
        }
    }
}

/// The weights and the prices of the unit constraints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lagrange {
    /// Each cell's weight in share units.
    weight: [i64; CELLS],
    /// `price[k][d]`: rows `k` 0..9, columns 9..18, boxes 18..27, digit
    /// `d + 1`.
    price: [[i64; 9]; 27],
}

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
        Lagrange { weight, price }
    }

    /// The profit of digit `d + 1` in cell `c` under the prices.
    #[inline(always)]
    fn profit(&self, c: usize, d: usize) -> i64 {
        let [r, k, b] = units_of(c);
        self.weight[c] * (d as i64 + 1) - self.price[r][d] - self.price[k][d] - self.price[b][d]
    }

    /// Evaluates the bound at `cells` into `eval`; `None` when some empty
    /// cell has no candidate.
    #[inline]
    pub(crate) fn evaluate(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        let mut total = 0i64;
        eval.placed = [0; 27];
        for c in 0..CELLS {
            let v = cells.values[c];
            if v != 0 {
                total += self.weight[c] * i64::from(v);
                for k in units_of(c) {
                    eval.placed[k] |= 1 << (v - 1);
                }
            }
        }
        for k in 0..27 {
            let mut open = 0x1FF & !eval.placed[k];
            while open != 0 {
                let d = open.trailing_zeros() as usize;
                open &= open - 1;
                total += self.price[k][d];
            }
        }
        for c in 0..CELLS {
            if cells.values[c] != 0 {
                eval.best[c] = 0;
                eval.assigned[c] = 0;
                continue;
            }
            let mut m = cells.candidates[c];
            if m == 0 {
                return None;
            }
            let (mut best, mut digit) = (i64::MIN, 0);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = self.profit(c, d);
                if p > best {
                    (best, digit) = (p, d);
                }
            }
            eval.best[c] = best;
            eval.assigned[c] = digit as u8 + 1;
            total += best;
        }
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
        let mut g = [[0i64; 9]; 27];
        for k in 0..27 {
            for d in 0..9 {
                g[k][d] = i64::from(eval.placed[k] >> d & 1 == 0);
            }
        }
        for c in 0..CELLS {
            let a = eval.assigned[c];
            if a != 0 {
                for k in units_of(c) {
                    g[k][a as usize - 1] -= 1;
                }
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
        for k in 0..27 {
            for d in 0..9 {
                self.price[k][d] -= moves[(g[k][d] + 8) as usize];
            }
        }
        true
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
            let mut m = cells.candidates[c];
            if m == 0 || cells.values[c] != 0 {
                continue;
            }
            let (mut c1, mut c2, mut cheapest) = (i64::MAX, i64::MAX, 0u8);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let loss = eval.best[c] - self.profit(c, d);
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
