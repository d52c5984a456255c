//! Admissible upper bounds on the best score reachable from a search node.
//!
//! The bound is a sum over the nine units of one kind (rows, columns or
//! boxes: each covers every cell once), taking the least of three; each
//! unit's share is its filled cells' score plus a bound on its empty cells:
//!
//! - **capped greedy** (any weights): the digits missing from the unit go
//!   into its empty cells one each, and cell `i` can take no digit above its
//!   highest candidate `h_i`. Relaxing the candidates to `1..=h_i` makes the
//!   sets of cells able to take digit `d` nested (shrinking as `d` grows), so
//!   placing the missing digits from 9 down, each in the heaviest free cell
//!   that allows it, is optimal for the relaxation (exchange argument: if an
//!   optimum puts the largest digit in a lighter cell, swapping it with the
//!   digit of the heavier cell keeps both feasible and loses nothing,
//!   whatever the signs of the weights). If some digit finds no cell, the
//!   node has no solution at all.
//! - **floored greedy** (only for units with a negative weight): the mirror
//!   image, with lowest candidates as floors, smallest digits first into
//!   the lightest cells.
//! - **per cell** (only for units with a negative weight; it is dominated by
//!   the capped greedy otherwise): each empty cell takes its best candidate
//!   alone (highest for a positive weight, lowest for a negative one).
//!
//! The unit orders (cells by weight) are precomputed in [`Weights`]; the
//! scratch space is a few words on the stack.

use super::Weights;
use crate::solver::Node;

/// `HIGH[mask]`: the highest digit in a candidate mask, 0 for 0.
static HIGH: [u8; 512] = build_pick(true);
/// `LOW[mask]`: the lowest digit in a candidate mask, 0 for 0.
static LOW: [u8; 512] = build_pick(false);

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

/// A score no completion can reach: returned for nodes proven dead.
pub(crate) const UNREACHABLE: i64 = i64::MIN;

/// The weights laid out for the bound's inner loops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoundTables {
    /// Per unit, the weights of its cells in [`Weights::unit_order`].
    weight: [[i64; 9]; 27],
    /// Per unit, its cells in [`Weights::unit_order`].
    order: [[u8; 9]; 27],
    /// Per unit, whether any of its cells has a negative weight.
    mixed: [bool; 27],
}

impl BoundTables {
    pub(crate) fn new(weights: &Weights) -> BoundTables {
        let mut t = BoundTables {
            weight: [[0; 9]; 27],
            order: [[0; 9]; 27],
            mixed: [false; 27],
        };
        for u in 0..27 {
            t.order[u] = *weights.unit_order(u);
            for (p, &c) in t.order[u].iter().enumerate() {
                let w = weights.get(c as usize);
                t.weight[u][p] = i64::from(w);
                t.mixed[u] |= w < 0;
            }
        }
        t
    }

    /// An upper bound on the score of every solution below `node`; as soon
    /// as one relaxation is at most `floor` it is returned (the node will be
    /// pruned either way). [`UNREACHABLE`] means the node has no solution.
    #[inline]
    pub(crate) fn bound(&self, node: &Node, floor: i64) -> i64 {
        let mut best = i64::MAX;
        for part in 0..3 {
            let mut total = 0i64;
            for u in part * 9..part * 9 + 9 {
                match self.unit_bound(node, u) {
                    Some(b) => total += b,
                    None => return UNREACHABLE,
                }
            }
            best = best.min(total);
            if best <= floor {
                break;
            }
        }
        best
    }

    /// The bound on unit `u`'s share, `None` if its missing digits cannot
    /// be placed.
    #[inline(always)]
    fn unit_bound(&self, node: &Node, u: usize) -> Option<i64> {
        let order = &self.order[u];
        let weight = &self.weight[u];
        let mut filled = 0i64;
        let mut placed = 0u16;
        // by_cap[h]: positions (in weight order) of empty cells whose
        // highest candidate is h; by_floor likewise for lowest candidates.
        let mut by_cap = [0u16; 10];
        let mut by_floor = [0u16; 10];
        let mut per_cell = 0i64;
        let mixed = self.mixed[u];
        for p in 0..9 {
            let c = order[p] as usize;
            let v = node.value(c);
            // Branch-free: a filled cell has no candidates, so it lands in
            // by_cap[0] / by_floor[0], which the greedy passes never read;
            // an empty cell has v = 0 and adds nothing to `filled`.
            placed |= (1 << v) >> 1;
            filled += weight[p] * i64::from(v);
            let cand = node.candidates(c) as usize & 0x1FF;
            let hi = HIGH[cand];
            by_cap[hi as usize] |= 1 << p;
            if mixed {
                let lo = LOW[cand];
                by_floor[lo as usize] |= 1 << p;
                let best = if weight[p] < 0 { lo } else { hi };
                per_cell += weight[p] * i64::from(best);
            }
        }
        let missing = 0x1FF & !placed;
        if missing == 0 {
            return Some(filled);
        }
        let mut share = capped_greedy(weight, &by_cap, missing)?;
        if mixed {
            share = share
                .min(floored_greedy(weight, &by_floor, missing)?)
                .min(per_cell);
        }
        Some(filled + share)
    }
}

/// Missing digits from 9 down, each into the heaviest free position whose
/// cap allows it (positions are in weight order, heaviest first).
#[inline(always)]
fn capped_greedy(weight: &[i64; 9], by_cap: &[u16; 10], missing: u16) -> Option<i64> {
    let mut free = 0u16;
    let mut sum = 0;
    for d in (1..=9usize).rev() {
        free |= by_cap[d];
        if missing & (1 << (d - 1)) != 0 {
            if free == 0 {
                return None;
            }
            let p = free.trailing_zeros() as usize;
            free &= free - 1;
            sum += weight[p] * d as i64;
        }
    }
    Some(sum)
}

/// Missing digits from 1 up, each into the lightest free position whose
/// floor allows it.
#[inline(always)]
fn floored_greedy(weight: &[i64; 9], by_floor: &[u16; 10], missing: u16) -> Option<i64> {
    let mut free = 0u16;
    let mut sum = 0;
    for (d, &bucket) in by_floor.iter().enumerate().skip(1) {
        free |= bucket;
        if missing & (1 << (d - 1)) != 0 {
            if free == 0 {
                return None;
            }
            let p = 15 - free.leading_zeros() as usize;
            free &= !(1 << p);
            sum += weight[p] * d as i64;
        }
    }
    Some(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact optimum of the capped relaxation by brute force over all
    /// permutations of the missing digits.
    fn brute(weight: &[i64], caps: &[u8], floors: &[u8], digits: &[u8]) -> Option<i64> {
        fn go(
            i: usize,
            weight: &[i64],
            caps: &[u8],
            floors: &[u8],
            left: &mut Vec<u8>,
        ) -> Option<i64> {
            if i == weight.len() {
                return Some(0);
            }
            let mut best = None;
            for k in 0..left.len() {
                let d = left[k];
                if d > caps[i] || d < floors[i] {
                    continue;
                }
                left.swap_remove(k);
                if let Some(rest) = go(i + 1, weight, caps, floors, left) {
                    let s = rest + weight[i] * i64::from(d);
                    best = Some(best.map_or(s, |b: i64| b.max(s)));
                }
                left.push(d);
                let last = left.len() - 1;
                left.swap(k, last);
            }
            best
        }
        go(0, weight, caps, floors, &mut digits.to_vec())
    }

    #[test]
    fn greedy_is_exact_for_caps_and_floors() {
        let mut rng = 0x1234_5678_9abc_def1u64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        for _ in 0..3000 {
            let k = 1 + next(6) as usize;
            // k empty cells at the first k positions, weights sorted.
            let mut w: Vec<i64> = (0..k).map(|_| next(21) as i64 - 10).collect();
            w.sort_unstable_by(|a, b| b.cmp(a));
            let mut weight = [0i64; 9];
            weight[..k].copy_from_slice(&w);
            let mut digits: Vec<u8> = (1..=9).collect();
            while digits.len() > k {
                digits.remove(next(digits.len() as u64) as usize);
            }
            let missing = digits.iter().fold(0u16, |m, &d| m | 1 << (d - 1));
            let caps: Vec<u8> = (0..k).map(|_| 1 + next(9) as u8).collect();
            let floors: Vec<u8> = (0..k).map(|_| 1 + next(9) as u8).collect();
            let (mut by_cap, mut by_floor) = ([0u16; 10], [0u16; 10]);
            for p in 0..k {
                by_cap[caps[p] as usize] |= 1 << p;
                by_floor[floors[p] as usize] |= 1 << p;
            }
            assert_eq!(
                capped_greedy(&weight, &by_cap, missing),
                brute(&w, &caps, &vec![1; k], &digits),
                "caps {caps:?} weights {w:?} digits {digits:?}"
            );
            assert_eq!(
                floored_greedy(&weight, &by_floor, missing),
                brute(&w, &vec![9; k], &floors, &digits),
                "floors {floors:?} weights {w:?} digits {digits:?}"
            );
        }
    }
}
