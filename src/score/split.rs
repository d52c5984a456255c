//! How each cell's weight is shared between its row, column and box, and
//! the subgradient steps that tune the shares for one puzzle.
//!
//! Any split gives an admissible bound (see [`super::bound`]); the best
//! split minimises the bound. The bound is a convex, piecewise linear
//! function of the shares (a sum of maxima of linear functions), and its
//! subgradient for the share of family `f` at cell `c` is the digit
//! family `f`'s relaxation gives `c`. Moving shares away from the families
//! whose digit is above the cell's mean digit (keeping each cell's sum)
//! makes the three families agree more and lowers the bound. Step lengths
//! follow Polyak's rule, `lambda * (bound - target) / |g|^2`, with the
//! score to beat as the target, or shrink geometrically while there is
//! none yet.

// Positions, cells and families index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use super::bound::{Cells, Eval, Relaxation, SCALE};
use super::Weights;
use crate::grid::CELLS;

/// The three shares of every cell, in units of `1 / SCALE` of a weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    shares: [[i64; CELLS]; 3],
}

/// How a [`Split::descend`] run picks its step lengths.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Steps {
    /// Polyak steps towards this bound (share units), scaled by lambda.
    Towards(i64, f64),
    /// Steps of `first` weight units per unit of digit gap, times `decay`
    /// after each step.
    Shrinking { first: f64, decay: f64 },
}

/// Subgradient steps of [`Split::for_weights`].
const WARM_STEPS: usize = 100;

/// Shares are only tuned while every weight is at most this in size: a
/// step moves shares by up to a few times the bound's gap, and with
/// weights up to 2^16 that keeps every sum well inside `i64` (shares
/// below 2^45, sums below 2^55). Larger weights keep equal thirds.
const TUNABLE_WEIGHT: i64 = 1 << 16;

impl Split {
    /// The split for `weights` that every puzzle starts from: equal thirds
    /// tuned on the empty grid, by steps shrinking from half a weight unit
    /// (the optimum is unknown there, so there is no Polyak target).
    pub(crate) fn for_weights(weights: &Weights) -> Split {
        let mut split = Split::thirds(weights);
        if !Split::tunable(weights) {
            return split;
        }
        let blank = Cells::BLANK;
        let mut relaxation = Relaxation::new(&blank, &split);
        let steps = Steps::Shrinking {
            first: 0.5,
            decay: 0.97,
        };
        // The blank grid has solutions, so the relaxation is never dead.
        let _ = split.descend(&mut relaxation, &blank, WARM_STEPS, steps);
        split
    }

    /// Whether shares may be tuned for `weights` (see [`TUNABLE_WEIGHT`]).
    pub(crate) fn tunable(weights: &Weights) -> bool {
        weights
            .as_array()
            .iter()
            .all(|&w| i64::from(w).abs() <= TUNABLE_WEIGHT)
    }

    /// All shares zero (a placeholder).
    pub(crate) const fn zero() -> Split {
        Split {
            shares: [[0; CELLS]; 3],
        }
    }

    /// Equal thirds (the box family takes the rounding).
    pub(crate) fn thirds(weights: &Weights) -> Split {
        let mut shares = [[0i64; CELLS]; 3];
        for c in 0..CELLS {
            let w = i64::from(weights.get(c)) * SCALE;
            shares[0][c] = w / 3;
            shares[1][c] = w / 3;
            shares[2][c] = w - 2 * (w / 3);
        }
        Split { shares }
    }

    /// The share of `family` (0 rows, 1 columns, 2 boxes) at `cell`.
    #[inline(always)]
    pub(crate) fn share(&self, family: usize, cell: usize) -> i64 {
        self.shares[family][cell]
    }

    /// The whole weight of `cell` in share units.
    #[inline(always)]
    pub(crate) fn weight(&self, cell: usize) -> i64 {
        self.shares[0][cell] + self.shares[1][cell] + self.shares[2][cell]
    }

    /// Up to `iterations` subgradient steps on the bound at `cells` (the
    /// root of the search), keeping `relaxation` in step with the split.
    /// Ends on the best split seen; returns its bound, or `None` when the
    /// relaxation proves `cells` has no solution.
    pub(crate) fn descend(
        &mut self,
        relaxation: &mut Relaxation,
        cells: &Cells,
        iterations: usize,
        steps: Steps,
    ) -> Option<i64> {
        let mut eval = Eval::new();
        let mut best = (i64::MAX, *self);
        let mut rate = match steps {
            Steps::Shrinking { first, .. } => first * SCALE as f64,
            Steps::Towards(..) => 0.0,
        };
        for i in 0..=iterations {
            let bound = relaxation.evaluate_once(cells, &mut eval)?;
            if bound < best.0 {
                best = (bound, *self);
            }
            if i == iterations {
                break;
            }
            // The subgradient per open cell, times 3 to stay integral:
            // 3 * digit_f - (sum of the three digits).
            let mut gaps = [[0i64; 3]; CELLS];
            let open = relaxation.open_cells();
            let mut norm = 0i64;
            for (i, &c) in open.iter().enumerate() {
                let a = relaxation.digits(&eval, c as usize).map(i64::from);
                let sum = a[0] + a[1] + a[2];
                gaps[i] = a.map(|x| 3 * x - sum);
                norm += gaps[i].iter().map(|g| g * g).sum::<i64>();
            }
            if norm == 0 {
                break; // the families agree: the bound is exact here
            }
            // A step of `step` share units per unit of (3 * gap).
            let step = match steps {
                Steps::Towards(target, lambda) => {
                    if bound < target {
                        break; // already below the target
                    }
                    lambda * (bound - target) as f64 * 3.0 / norm as f64
                }
                Steps::Shrinking { decay, .. } => {
                    let s = rate / 3.0;
                    rate *= decay;
                    s
                }
            };
            for (i, &c) in open.iter().enumerate() {
                let c = c as usize;
                let total = self.weight(c);
                for f in 0..2 {
                    self.shares[f][c] -= (step * gaps[i][f] as f64) as i64;
                }
                self.shares[2][c] = total - self.shares[0][c] - self.shares[1][c];
            }
            relaxation.set_split(self);
        }
        *self = best.1;
        relaxation.set_split(self);
        Some(best.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_each_cells_weight_and_lower_the_bound() {
        let weights = Weights::target();
        let blank = Cells::BLANK;
        for steps in [
            Steps::Shrinking {
                first: 0.5,
                decay: 0.97,
            },
            Steps::Towards(2883 * SCALE, 0.5),
        ] {
            let mut split = Split::thirds(&weights);
            let mut relaxation = Relaxation::new(&blank, &split);
            let start = relaxation.evaluate(&blank, &mut Eval::new()).unwrap();
            let end = split.descend(&mut relaxation, &blank, 60, steps).unwrap();
            // The empty grid's best is at least 2882 (a known solution).
            assert!(end < start - 30 * SCALE && end >= 2882 * SCALE);
            for c in 0..CELLS {
                assert_eq!(split.weight(c), i64::from(weights.get(c)) * SCALE);
            }
            // The relaxation follows the split it ended on.
            assert_eq!(relaxation.evaluate(&blank, &mut Eval::new()), Some(end));
        }
    }

    #[test]
    fn the_weights_carry_a_tuned_split() {
        let weights = Weights::target();
        let blank = Cells::BLANK;
        let thirds = Split::thirds(&weights);
        let bound = |split: &Split| {
            Relaxation::new(&blank, split)
                .evaluate(&blank, &mut Eval::new())
                .unwrap()
        };
        assert!(bound(weights.split()) < bound(&thirds) - 50 * SCALE);
        assert_eq!(weights.split(), Weights::target().split());
    }
}
