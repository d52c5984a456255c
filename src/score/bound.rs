//! Admissible upper bounds on the best score below a search node, and the
//! reduced costs that let a node drop candidates that cannot beat the best
//! score found so far.
//!
//! # The relaxation
//!
//! Every cell's weight is split into three shares, one for its row, one for
//! its column and one for its box ([`Split`]: the shares of a cell add up to
//! its weight). The score of a grid is then the sum over the 27 units of the
//! unit's share-weighted score, and the best score is at most the sum over
//! the units of each unit's best on its own (a Lagrangian decomposition:
//! each unit only has to hold its missing digits once each). Each unit's
//! best is relaxed once more so that a greedy pass finds it exactly:
//!
//! - **capped** (shares all >= 0): cell `i` may take any missing digit up to
//!   its highest candidate `h_i`. The sets of cells able to take digit `d`
//!   are then nested (shrinking as `d` grows), so placing the missing digits
//!   from 9 down, each in the heaviest free cell that allows it, is optimal
//!   (exchange argument: if an optimum puts the largest digit in a lighter
//!   cell, swapping it with the digit of the heavier cell keeps both feasible
//!   and loses nothing, whatever the signs of the weights). If some digit
//!   finds no cell, the node has no solution at all.
//! - **floored** (shares all <= 0): the mirror image (digit `d` read as
//!   `10 - d`), lowest candidates as floors.
//! - **mixed signs**: the least of the two and of a per-cell relaxation
//!   (each empty cell alone takes its best candidate).
//!
//! With every share in one family (all to the rows, say) this is a plain
//! per-row bound; [`Split`] tunes the shares by subgradient steps so the
//! three families' relaxations agree more, which tightens the sum by tens
//! of points on 24-given puzzles.
//!
//! # Reduced costs
//!
//! Each unit's greedy optimum comes with an optimal dual of its assignment
//! problem (potentials `u` per cell, `v` per digit: in closed form when the
//! digits, from the top, went to ever lighter cells, else by Bellman-Ford
//! over the digits, at most nine nodes). Forcing digit `d` into cell `c`
//! loses at least the reduced cost `u_c + v_d - share_c * d` in each of the
//! cell's three units, so when the three together exceed the node's slack
//! (bound minus the score to beat) `d` is no candidate of `c` in any
//! solution worth finding below this node, or below any descendant, since
//! the score to beat only grows. This "reduced-cost fixing" of integer
//! programming is what makes the search small: dropping candidates feeds
//! the solver's propagation.
//!
//! A unit whose inputs (caps and digits of its cells) and split did not
//! change since the last evaluation reuses its result and duals: about 40%
//! of the units between consecutive evaluations of a search.
//!
//! Nothing is allocated: all tables live in the visitor, per puzzle.

// Positions, cells and families index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use super::split::Split;
use crate::grid::{BOX_OF, CELLS, COL_OF, ROW_OF, UNITS};
use crate::solver::Node;

/// Shares are fixed-point: one weight unit is `SCALE` share units.
pub(crate) const SCALE: i64 = 1 << 12;

/// `HIGH[mask]`: the highest digit in a candidate mask, 0 for 0.
static HIGH: [u8; 512] = build_pick(true);
/// `LOW[mask]`: the lowest digit in a candidate mask, 0 for 0.
static LOW: [u8; 512] = build_pick(false);
/// `MIRROR[mask]`: the mask with digit `d` moved to `10 - d`.
static MIRROR: [u16; 512] = build_mirror();

const fn build_pick(high: bool) -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut m = 1usize;
    while m < 512 {
        t[m] = if high {
            (usize::BITS - m.leading_zeros()) as u8
        } else {
            m.trailing_zeros() as u8 + 1
        };
        m += 1;
    }
    t
}

const fn build_mirror() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut m = 0usize;
    while m < 512 {
        let mut r = 0u16;
        let mut b = 0;
        while b < 9 {
            if m >> b & 1 != 0 {
                r |= 1 << (8 - b);
            }
            b += 1;
        }
        t[m] = r;
        m += 1;
    }
    t
}

/// Each cell's unit in the three families: row, column, box.
#[inline(always)]
fn units_of(cell: usize) -> [usize; 3] {
    [
        ROW_OF[cell] as usize,
        9 + COL_OF[cell] as usize,
        18 + BOX_OF[cell] as usize,
    ]
}

/// A node's cells as the bound reads them, taken in one pass over the
/// solver's band masks.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cells {
    /// Candidates of each empty cell (0 for filled cells).
    pub(crate) candidates: [u16; CELLS],
    /// Digit of each filled cell (0 for empty cells).
    pub(crate) values: [u8; CELLS],
    /// Per cell, what a unit's relaxation reads of it: the highest
    /// candidate of an empty cell (1..=9), `16 + digit` for a filled one.
    pub(crate) codes: [u8; CELLS],
}

impl Cells {
    /// No cells read yet.
    pub(crate) const EMPTY: Cells = Cells {
        candidates: [0; CELLS],
        values: [0; CELLS],
        codes: [0; CELLS],
    };

    /// A grid with no givens.
    pub(crate) const BLANK: Cells = Cells {
        candidates: [0x1FF; CELLS],
        values: [0; CELLS],
        codes: [9; CELLS],
    };

    /// The cells of `node`.
    #[inline]
    pub(crate) fn of(node: &Node) -> Cells {
        let mut cells = Cells::EMPTY;
        node.cell_masks(&mut cells.candidates, &mut cells.values);
        for c in 0..CELLS {
            let v = cells.values[c];
            cells.codes[c] = if v != 0 {
                16 | v
            } else {
                HIGH[cells.candidates[c] as usize]
            };
        }
        cells
    }
}

/// The signs of a unit's shares, which decide its relaxation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Plus,
    Minus,
    Mixed,
}

/// Which relaxation bounded a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Relaxed {
    /// No empty cell left.
    Full,
    Capped,
    Floored,
    PerCell,
}

/// One unit's cells that were empty at the root, heaviest share first.
#[derive(Clone, Copy, Debug)]
struct Unit {
    len: u8,
    cells: [u8; 9],
    share: [i64; 9],
    sign: Sign,
    /// Digits given at the root.
    given: u16,
}

/// The relaxation of one puzzle under one split: the units' open cells in
/// share order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relaxation {
    units: [Unit; 27],
    /// Per cell, its position in each of its three units (open cells only).
    position: [[u8; 3]; CELLS],
    /// Per cell, its whole weight in share units (the three shares' sum).
    scaled: [i64; CELLS],
    /// The givens' score in share units.
    base: i64,
    /// The cells open at the root.
    open: [u8; CELLS],
    open_len: u8,
    /// Bumped at every change of split, so cached unit results of an older
    /// split are never reused.
    epoch: u32,
}

/// The outcome of one evaluation: the bound and, per unit, the digits the
/// relaxation gave its empty cells (what a completion "wants").
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eval {
    /// The bound on any completion's score, in share units.
    pub(crate) total: i64,
    digits: [[u8; 9]; 27],
    relaxed: [Relaxed; 27],
    /// Each unit's share of the bound.
    value: [i64; 27],
    /// Each unit's inputs (see [`Relaxation::key`]) when `value`, `digits`
    /// and `relaxed` were computed, 0 for none: a unit whose inputs did not
    /// change since the last evaluation (about 40% of them) is not redone.
    key: [u64; 27],
    /// The relaxation's epoch of those keys.
    epoch: u32,
}

impl Eval {
    /// An evaluation to fill.
    pub(crate) const fn new() -> Eval {
        Eval {
            total: 0,
            digits: [[0; 9]; 27],
            relaxed: [Relaxed::Full; 27],
            value: [0; 27],
            key: [0; 27],
            epoch: u32::MAX,
        }
    }
}

impl Relaxation {
    /// A placeholder until the root is known.
    pub(crate) const EMPTY: Relaxation = Relaxation {
        units: [Unit {
            len: 0,
            cells: [0; 9],
            share: [0; 9],
            sign: Sign::Plus,
            given: 0,
        }; 27],
        position: [[u8::MAX; 3]; CELLS],
        scaled: [0; CELLS],
        base: 0,
        open: [0; CELLS],
        open_len: 0,
        epoch: 0,
    };

    /// The relaxation of the puzzle whose root is `root`, under `split`.
    pub(crate) fn new(root: &Cells, split: &Split) -> Relaxation {
        let mut r = Relaxation::EMPTY;
        for cell in 0..CELLS {
            r.scaled[cell] = split.weight(cell);
            let v = root.values[cell];
            r.base += r.scaled[cell] * i64::from(v);
            if v == 0 {
                r.open[r.open_len as usize] = cell as u8;
                r.open_len += 1;
            }
        }
        for (u, unit) in r.units.iter_mut().enumerate() {
            for &c in &UNITS[u] {
                let v = root.values[c as usize];
                if v != 0 {
                    unit.given |= 1 << (v - 1);
                } else {
                    unit.cells[unit.len as usize] = c;
                    unit.len += 1;
                }
            }
        }
        r.set_split(split);
        r
    }

    /// Takes the shares of `split` (same puzzle): re-sorts each unit's open
    /// cells by share, starting from the current order (which changes
    /// little between subgradient steps).
    pub(crate) fn set_split(&mut self, split: &Split) {
        self.epoch = self.epoch.wrapping_add(1);
        for (u, unit) in self.units.iter_mut().enumerate() {
            let family = u / 9;
            let len = unit.len as usize;
            let share = |c: u8| split.share(family, c as usize);
            // Insertion sort, heaviest first; ties keep the order.
            for i in 1..len {
                let c = unit.cells[i];
                let s = share(c);
                let mut j = i;
                while j > 0 && share(unit.cells[j - 1]) < s {
                    unit.cells[j] = unit.cells[j - 1];
                    j -= 1;
                }
                unit.cells[j] = c;
            }
            let (mut plus, mut minus) = (false, false);
            for p in 0..len {
                let c = unit.cells[p];
                let s = share(c);
                unit.share[p] = s;
                plus |= s > 0;
                minus |= s < 0;
                self.position[c as usize][family] = p as u8;
            }
            unit.sign = match (plus, minus) {
                (_, false) => Sign::Plus,
                (false, true) => Sign::Minus,
                (true, true) => Sign::Mixed,
            };
        }
    }

    /// Evaluates the bound at `cells` into `eval`; `None` when some unit
    /// cannot place its missing digits (the node has no solution).
    #[inline]
    pub(crate) fn evaluate(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        self.evaluate_with::<true>(cells, eval)
    }

    /// [`evaluate`](Self::evaluate) without keeping the units' keys, for
    /// an evaluation that is never reused (each subgradient step changes
    /// the split).
    #[inline]
    pub(crate) fn evaluate_once(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        self.evaluate_with::<false>(cells, eval)
    }

    #[inline(always)]
    fn evaluate_with<const KEYS: bool>(&self, cells: &Cells, eval: &mut Eval) -> Option<i64> {
        let mut total = self.base;
        let reuse = KEYS && eval.epoch == self.epoch;
        for u in 0..27 {
            let key = if KEYS { self.key(u, cells) } else { 0 };
            if reuse && key != 0 && eval.key[u] == key {
                total += eval.value[u];
                continue;
            }
            // Invalid until recomputed (the greedy writes as it goes).
            eval.key[u] = 0;
            let (value, relaxed) = self.unit_bound(u, cells, &mut eval.digits[u])?;
            eval.relaxed[u] = relaxed;
            eval.value[u] = value;
            eval.key[u] = key;
            total += value;
        }
        // Only now are all keys of this epoch (an early `None` leaves the
        // old epoch, so nothing is reused next time).
        if KEYS && !reuse {
            eval.epoch = self.epoch;
        }
        eval.total = total;
        Some(total)
    }

    /// Everything unit `u`'s relaxation depends on at `cells`, under the
    /// current split: 5 bits per position (the digit of a filled cell with
    /// bit 4 set, else the cap), and a top bit so no key is 0. Only for
    /// units with non-negative shares (the others depend on floors too and
    /// get 0: never reused).
    #[inline(always)]
    fn key(&self, u: usize, cells: &Cells) -> u64 {
        let unit = &self.units[u];
        if unit.sign != Sign::Plus {
            return 0;
        }
        let mut key = 1u64 << 63;
        for p in 0..unit.len as usize {
            let code = cells.codes[unit.cells[p] as usize];
            key |= u64::from(code) << (5 * p);
        }
        key
    }

    /// Unit `u`'s share of the bound: its filled cells' shares times their
    /// digits plus the relaxation of its empty cells.
    #[inline(always)]
    fn unit_bound(&self, u: usize, cells: &Cells, digits: &mut [u8; 9]) -> Option<(i64, Relaxed)> {
        let unit = &self.units[u];
        let share = &unit.share;
        if unit.sign == Sign::Plus {
            // The common case, branch-free: a filled cell lands in a bucket
            // from 17 up (never read) and an empty one has digit 0.
            let mut placed = unit.given;
            let mut filled = 0i64;
            let mut by_high = [0u16; 32];
            for p in 0..unit.len as usize {
                let c = unit.cells[p] as usize;
                let v = cells.values[c];
                placed |= (1u16 << v) >> 1;
                filled += share[p] * i64::from(v);
                by_high[cells.codes[c] as usize] |= 1 << p;
            }
            let missing = 0x1FF & !placed;
            if missing == 0 {
                return Some((filled, Relaxed::Full));
            }
            let value = greedy::<false>(share, &by_high, missing, digits)?;
            return Some((filled + value, Relaxed::Capped));
        }
        let mut placed = unit.given;
        let mut filled = 0i64;
        let mut open_share = 0i64;
        // Open positions by highest candidate, and by mirrored lowest.
        let mut by_high = [0u16; 10];
        let mut by_low = [0u16; 10];
        let mut open = 0u16;
        for p in 0..unit.len as usize {
            let c = unit.cells[p] as usize;
            let v = cells.values[c];
            if v != 0 {
                placed |= 1 << (v - 1);
                filled += share[p] * i64::from(v);
                continue;
            }
            let m = cells.candidates[c] as usize;
            open |= 1 << p;
            open_share += share[p];
            if unit.sign != Sign::Minus {
                by_high[HIGH[m] as usize] |= 1 << p;
            }
            if unit.sign != Sign::Plus {
                by_low[10 - LOW[m] as usize] |= 1 << p;
            }
        }
        if open == 0 {
            return Some((filled, Relaxed::Full));
        }
        let missing = 0x1FF & !placed;
        let (value, relaxed) = match unit.sign {
            Sign::Plus => (
                greedy::<false>(share, &by_high, missing, digits)?,
                Relaxed::Capped,
            ),
            Sign::Minus => {
                let v = greedy::<true>(share, &by_low, MIRROR[missing as usize], digits)?;
                (v + 10 * open_share, Relaxed::Floored)
            }
            Sign::Mixed => {
                let mut low_digits = [0u8; 9];
                let capped = greedy::<false>(share, &by_high, missing, digits)?;
                let floored =
                    greedy::<true>(share, &by_low, MIRROR[missing as usize], &mut low_digits)?
                        + 10 * open_share;
                let mut per_cell = 0i64;
                let mut rest = open;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let m = cells.candidates[unit.cells[p] as usize] as usize;
                    let best = if share[p] < 0 { LOW[m] } else { HIGH[m] };
                    per_cell += share[p] * i64::from(best);
                }
                if per_cell < capped.min(floored) {
                    let mut rest = open;
                    while rest != 0 {
                        let p = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let m = cells.candidates[unit.cells[p] as usize] as usize;
                        digits[p] = if share[p] < 0 { LOW[m] } else { HIGH[m] };
                    }
                    (per_cell, Relaxed::PerCell)
                } else if floored < capped {
                    *digits = low_digits;
                    (floored, Relaxed::Floored)
                } else {
                    (capped, Relaxed::Capped)
                }
            }
        };
        Some((filled + value, relaxed))
    }

    /// The cells open at the root.
    #[inline]
    pub(crate) fn open_cells(&self) -> &[u8] {
        &self.open[..self.open_len as usize]
    }

    /// The digits the three families' relaxations gave `cell` (open at the
    /// root and empty at the evaluated node).
    #[inline(always)]
    pub(crate) fn digits(&self, eval: &Eval, cell: usize) -> [u8; 3] {
        let units = units_of(cell);
        let pos = self.position[cell];
        [0, 1, 2].map(|f| eval.digits[units[f]][pos[f] as usize])
    }

    /// Calls `drop(cell, digit)` for every candidate whose reduced cost
    /// (summed over the cell's three units) exceeds `slack`: forcing it
    /// would bring the bound to `eval.total - cost < eval.total - slack`.
    /// `eval` must be this relaxation's evaluation of `cells`; `duals` is
    /// scratch space. Also picks the cell to branch on: the one whose two
    /// cheapest remaining candidates differ most in reduced cost (the
    /// second is the likeliest to be pruned soon), with its cheapest.
    #[inline]
    pub(crate) fn fix(
        &self,
        cells: &Cells,
        eval: &Eval,
        slack: i64,
        duals: &mut [Duals; 27],
        mut drop: impl FnMut(usize, u8),
    ) -> Fixed {
        let mut fixed = Fixed { branch: None };
        for u in 0..27 {
            let cached = duals[u].key;
            if cached != 0 && cached == eval.key[u] && duals[u].epoch == self.epoch {
                continue; // same inputs, same split: same duals
            }
            duals[u].key = 0;
            if !self.duals(u, cells, eval, &mut duals[u]) {
                return fixed;
            }
            duals[u].key = eval.key[u];
            duals[u].epoch = self.epoch;
        }
        let mut regret = -1i64;
        for &cell in self.open_cells() {
            let cell = cell as usize;
            let mut m = cells.candidates[cell];
            if m == 0 {
                continue;
            }
            let units = units_of(cell);
            let pos = self.position[cell];
            let w = self.scaled[cell];
            let dual = [0, 1, 2].map(|f| &duals[units[f]]);
            let held = [0, 1, 2].map(|f| eval.digits[units[f]][pos[f] as usize] as usize);
            // The two least costs among the candidates kept, and the digit
            // of the least.
            let (mut c1, mut c2, mut cheapest) = (i64::MAX, i64::MAX, 0u8);
            while m != 0 {
                let d = m.trailing_zeros() as usize + 1;
                m &= m - 1;
                let mut cost = -w * d as i64;
                for f in 0..3 {
                    let side = usize::from(d > held[f]);
                    cost += dual[f].cell[side][pos[f] as usize] + dual[f].digit[side][d];
                }
                if cost > slack {
                    drop(cell, d as u8);
                } else if cost < c1 {
                    (c2, c1, cheapest) = (c1, cost, d as u8);
                } else if cost < c2 {
                    c2 = cost;
                }
            }
            if c2 != i64::MAX && c2 - c1 > regret {
                regret = c2 - c1;
                fixed.branch = Some((cell, cheapest));
            }
        }
        fixed
    }

    /// Optimal duals of unit `u`'s relaxation at `cells` (as evaluated in
    /// `eval`), in original digits: for the cell at position `p` holding
    /// digit `x` in the relaxation, `cell[s][p] + digit[s][d] - share[p] * d`
    /// (`s` = whether `d > x`) is a least loss of forcing `d` into it.
    #[inline]
    fn duals(&self, u: usize, cells: &Cells, eval: &Eval, out: &mut Duals) -> bool {
        let unit = &self.units[u];
        let digits = &eval.digits[u];
        let mirror = match eval.relaxed[u] {
            Relaxed::Full => return true,
            Relaxed::PerCell => {
                for p in 0..unit.len as usize {
                    let pot = unit.share[p] * i64::from(digits[p]);
                    out.cell[0][p] = pot;
                    out.cell[1][p] = pot;
                }
                out.digit = [[0; 10]; 2];
                return true;
            }
            Relaxed::Capped => false,
            Relaxed::Floored => true,
        };
        // Oriented problem: digits (and caps) mirrored for the floored case,
        // shares negated; then every unit is a capped one.
        let mut caps = [0u8; 9];
        let mut assigned = [0u8; 9];
        let mut weight = [0i64; 9];
        let mut open = 0u16;
        let mut missing = 0u16;
        for p in 0..unit.len as usize {
            let c = unit.cells[p] as usize;
            let m = cells.candidates[c] as usize;
            if m == 0 {
                continue;
            }
            open |= 1 << p;
            let (cap, g) = if mirror {
                (10 - LOW[m], 10 - digits[p])
            } else {
                (HIGH[m], digits[p])
            };
            caps[p] = cap;
            assigned[p] = g;
            weight[p] = if mirror {
                -unit.share[p]
            } else {
                unit.share[p]
            };
            missing |= 1 << (g - 1);
        }
        let Some((lo, hi)) = oriented_duals(&Oriented {
            open,
            missing,
            caps,
            assigned,
            weight,
        }) else {
            // Cannot happen (the greedy assignment is optimal, so there is
            // no negative cycle); never fix on unproven duals.
            debug_assert!(false, "Bellman-Ford did not converge");
            return false;
        };
        // Back to original digits: for the mirrored problem the loss of d
        // is the oriented loss of 10 - d, and "below" swaps with "above".
        let (below, above) = if mirror { (&hi, &lo) } else { (&lo, &hi) };
        let mut rest = open;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let g = assigned[p] as usize;
            let shift = if mirror { 10 * unit.share[p] } else { 0 };
            out.cell[0][p] = weight[p] * g as i64 - below[g] + shift;
            out.cell[1][p] = weight[p] * g as i64 - above[g] + shift;
        }
        for d in 1..=9 {
            let o = if mirror { 10 - d } else { d };
            out.digit[0][d] = below[o];
            out.digit[1][d] = above[o];
        }
        true
    }
}

/// What [`Relaxation::fix`] found besides the candidates it dropped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fixed {
    /// The cell to branch on and the digit to try there first.
    pub(crate) branch: Option<(usize, u8)>,
}

/// A unit's dual potentials, for digits below (`[0]`) and above (`[1]`)
/// a cell's own digit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Duals {
    cell: [[i64; 9]; 2],
    digit: [[i64; 10]; 2],
    /// The unit's key (see [`Relaxation::key`]) and the relaxation's epoch
    /// these duals were computed for; key 0: none.
    key: u64,
    epoch: u32,
}

impl Duals {
    pub(crate) const ZERO: Duals = Duals {
        cell: [[0; 9]; 2],
        digit: [[0; 10]; 2],
        key: 0,
        epoch: 0,
    };
}

/// A unit's relaxation in capped form (the floored one mirrored): open
/// positions, heaviest first, with their caps, weights and the digits the
/// greedy gave them.
#[derive(Clone, Copy, Debug)]
struct Oriented {
    open: u16,
    missing: u16,
    caps: [u8; 9],
    assigned: [u8; 9],
    weight: [i64; 9],
}

impl Oriented {
    /// The least loss, by the duals `(lo, hi)`, of giving position `p`
    /// digit `d` instead of its own.
    #[cfg(test)]
    fn reduced_cost(&self, lo: &[i64; 10], hi: &[i64; 10], p: usize, d: usize) -> i64 {
        let g = self.assigned[p] as usize;
        let pot = if d > g { hi } else { lo };
        self.weight[p] * g as i64 - pot[g] + pot[d] - self.weight[p] * d as i64
    }
}

/// Optimal digit potentials of an oriented unit, for digits below (`lo`)
/// and above (`hi`) a position's own: the reduced cost of digit `d` at a
/// position holding `g` with weight `w` is `w g - pot[g] + pot[d] - w d`.
/// `None` if Bellman-Ford fails to converge (it cannot, for an optimal
/// assignment).
///
/// Monotone case: the digits, from the top, went to ever lighter positions
/// (caps did not interfere). Then potentials rising from the lowest missing
/// digit with slope = weight of the lower digit's position (`lo`) or of the
/// upper one's (`hi`) are both optimal duals (each constraint is a sum of
/// non-negative slope differences), exact for moves down and up
/// respectively. Otherwise Bellman-Ford from the `lo` sweep (usually a pass
/// or two) gives one optimal dual, used both ways.
fn oriented_duals(unit: &Oriented) -> Option<([i64; 10], [i64; 10])> {
    let mut holder = [0u8; 10];
    let mut rest = unit.open;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        holder[unit.assigned[p] as usize] = p as u8;
    }
    let mut lo = [0i64; 10];
    let mut hi = [0i64; 10];
    let mut monotone = true;
    let mut rest = unit.missing;
    let mut prev: Option<(usize, i64)> = None; // (digit, weight)
    while rest != 0 {
        let d = rest.trailing_zeros() as usize + 1;
        rest &= rest - 1;
        let w = unit.weight[holder[d] as usize];
        if let Some((pd, pw)) = prev {
            monotone &= w >= pw;
            let gap = (d - pd) as i64;
            lo[d] = lo[pd] + pw * gap;
            hi[d] = hi[pd] + w * gap;
        }
        prev = Some((d, w));
    }
    if !monotone {
        if !bellman_ford(unit, &mut lo) {
            return None;
        }
        hi = lo;
    }
    Some((lo, hi))
}

/// Makes `v` optimal digit potentials of an oriented unit by Bellman-Ford:
/// for each open position p holding g and each other missing digit d it
/// could take, `v[g] <= v[d] + w_p (g - d)`. At most nine nodes, so at most
/// nine passes; false if that was not enough.
fn bellman_ford(unit: &Oriented, v: &mut [i64; 10]) -> bool {
    for _ in 0..=9 {
        let mut changed = false;
        let mut rest = unit.open;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let g = unit.assigned[p] as usize;
            let mut others = unit.missing & ((1u16 << unit.caps[p]) - 1) & !(1 << (g - 1));
            while others != 0 {
                let d = others.trailing_zeros() as usize + 1;
                others &= others - 1;
                let through = v[d] + unit.weight[p] * (g as i64 - d as i64);
                if through < v[g] {
                    v[g] = through;
                    changed = true;
                }
            }
        }
        if !changed {
            return true;
        }
    }
    false
}

/// Places the missing digits (oriented: mirrored when `MIRROR`) from 9
/// down, each into the heaviest free open position whose cap allows it;
/// `by_cap[h]` holds the positions whose cap is `h`. Positions are in
/// share order, heaviest first, so the heaviest oriented weight is the
/// lowest free position, or with `MIRROR` (weights negated) the highest.
/// Returns the oriented value (`sum share * digit` for the capped case,
/// `sum -share * (10 - digit)` mirrored) and writes the original digits.
#[inline(always)]
fn greedy<const MIRROR: bool>(
    share: &[i64; 9],
    by_cap: &[u16],
    missing: u16,
    digits: &mut [u8; 9],
) -> Option<i64> {
    // at_least[d]: the positions whose cap is d or more.
    let mut at_least = [0u16; 10];
    let mut acc = 0u16;
    let by_cap = &by_cap[..10];
    for d in (1..=9).rev() {
        acc |= by_cap[d];
        at_least[d] = acc;
    }
    let mut used = 0u16;
    let mut rest = missing;
    let mut sum = 0;
    while rest != 0 {
        let d = 16 - rest.leading_zeros() as usize;
        rest ^= 1 << (d - 1);
        let free = at_least[d] & !used;
        if free == 0 {
            return None;
        }
        let p = if MIRROR {
            15 - free.leading_zeros() as usize
        } else {
            free.trailing_zeros() as usize
        };
        used |= 1 << p;
        if MIRROR {
            sum -= share[p] * d as i64;
            digits[p] = (10 - d) as u8;
        } else {
            sum += share[p] * d as i64;
            digits[p] = d as u8;
        }
    }
    Some(sum)
}

#[cfg(test)]
mod tests;
