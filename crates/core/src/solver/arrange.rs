//! The two rules of the hard mode, element-wise over the 27 digit-band
//! masks: how many arrangements each digit has left in each band and stack
//! (for the branch choice), and triads (three digits forced into one
//! three-cell segment take its cells).
//!
//! Both are written as plain loops of shifts, ands, ors and adds over every
//! lane of every digit, with no table and no branch per lane, so that each
//! [`Wide`](super::wide::Wide) path compiles them with its own vector width
//! (the search inlines them into the function built for that path). The
//! tests check them against a per-lane reference built on the permutation
//! tables.
//!
//! Terms (see [`super::tables`]): a *segment* is the three cells where a
//! row of a band crosses a box; its *first bit* is bit `9 * r + 3 * k` of
//! the band mask. A *column segment* is the three cells of one column in
//! one band. A digit's *arrangements* in a band are the row-to-box
//! permutations that fit its candidates; in a stack, the band-to-column
//! ones.

use super::lanes::Lanes;
use super::tables::{COLUMN_0, PERMUTATIONS, ROW};

/// The first bit of every segment of a band mask (bits `9 * r + 3 * k`).
const SEGMENT_FIRST: u32 = 0x124_9249;

/// The first column of each stack in a nine-bit column mask.
const STACK_FIRST: u32 = 0x49;

/// Bit `9 * r + 3 * k` set when row `r` of the band mask has a cell in box
/// `k`.
#[inline(always)]
fn segment_bits(m: u32) -> u32 {
    (m | m >> 1 | m >> 2) & SEGMENT_FIRST
}

/// Bit `c` set when column `c` of the band mask has a cell.
#[inline(always)]
fn column_bits(m: u32) -> u32 {
    (m | m >> 9 | m >> 18) & ROW
}

/// The bits of `x` (at most one per group of three positions `S` apart,
/// groups starting at the bits of `first`) that are alone in their group.
#[inline(always)]
fn alone<const S: u32>(x: u32, first: u32) -> u32 {
    let (k0, k1, k2) = (first, first << S, first << (2 * S));
    let others =
        ((x >> S | x >> (2 * S)) & k0) | ((x << S | x >> S) & k1) | ((x << S | x << (2 * S)) & k2);
    x & !others
}

/// The row-to-box arrangements that fit a band mask's segments (0..=6).
#[inline(always)]
fn row_arrangements(m: u32) -> u32 {
    let t = segment_bits(m);
    PERMUTATIONS.iter().fold(0, |n, p| {
        n + (t >> (3 * p[0]) & t >> (9 + 3 * p[1]) & t >> (18 + 3 * p[2]) & 1)
    })
}

/// For the column masks `x`, `y`, `z` of three bands: the band-to-column
/// arrangements that fit in each stack, stack `s` in bits `3 * s..3 * s + 3`
/// (the count is symmetric in the three bands, so any order gives it).
#[inline(always)]
fn stack_arrangements(x: u32, y: u32, z: u32) -> u32 {
    PERMUTATIONS.iter().fold(0, |n, p| {
        n + (x >> p[0] & y >> p[1] & z >> p[2] & STACK_FIRST)
    })
}

/// What the hard mode's branch choice needs: per band and per stack, the
/// arrangements left summed over the nine digits, and which digits have
/// exactly two there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Arrangements {
    /// Per band (lanes 0..3), the row-to-box arrangements of all digits.
    pub(crate) band_totals: [u32; 3],
    /// Per stack, the band-to-column arrangements of all digits.
    pub(crate) stack_totals: [u32; 3],
    /// Bit `4 * d + b` set when digit `d` has exactly two arrangements in
    /// band `b`.
    pub(crate) band_pairs: u64,
    /// Bit `4 * d + s` set when digit `d` has exactly two arrangements in
    /// stack `s`.
    pub(crate) stack_pairs: u64,
}

/// The arrangement counts of every digit in every band and stack.
#[inline(always)]
pub(crate) fn arrangements(masks: &[Lanes; 9]) -> Arrangements {
    let mut out = Arrangements::default();
    let (mut bands, mut stacks) = ([0u32; 4], [0u32; 4]);
    for (d, m) in masks.iter().enumerate() {
        let m = m.0;
        let cols = m.map(column_bits);
        // Every lane gets the same three stack counts; lane `s` keeps its
        // own stack's (lane 3 is zero: its masks are).
        let rot = |k: usize| [cols[k % 3], cols[(k + 1) % 3], cols[(k + 2) % 3], 0];
        let (x, y) = (rot(1), rot(2));
        for k in 0..4 {
            let row = row_arrangements(m[k]);
            let packed = stack_arrangements(cols[k], x[k], y[k]);
            // (Lane 3: its columns are zero, so `packed` is.)
            let stack = packed >> (3 * k) & 7;
            bands[k] += row;
            stacks[k] += stack;
            out.band_pairs |= u64::from(row == 2) << (4 * d + k);
            out.stack_pairs |= u64::from(stack == 2) << (4 * d + k);
        }
    }
    out.band_totals.copy_from_slice(&bands[..3]);
    out.stack_totals.copy_from_slice(&stacks[..3]);
    out
}

/// Applies the triad rule, on row and on column segments, to every band:
/// where three digits (or more: then the state is dead, and propagation
/// finds it) are each forced into one three-cell segment, the other
/// digits leave its cells. A digit is forced into a segment when its
/// candidates in that segment's box lie in that segment only. Returns the
/// lanes changed (bit `4 * d + b`).
#[inline(always)]
pub(crate) fn triads(masks: &mut [Lanes; 9]) -> u64 {
    // Per digit and band: the first bits of its forced row segments, and
    // the columns of its forced column segments.
    let mut rows = [[0u32; 4]; 9];
    let mut cols = [[0u32; 4]; 9];
    let (mut once, mut twice, mut thrice) = ([0u32; 8], [0u32; 8], [0u32; 8]);
    for d in 0..9 {
        for k in 0..4 {
            let m = masks[d].0[k];
            // Within each box (three segments nine bits apart), the row
            // segment alone; within each stack, the column alone.
            let r = alone::<9>(segment_bits(m), STACK_FIRST);
            let c = alone::<1>(column_bits(m), STACK_FIRST);
            rows[d][k] = r;
            cols[d][k] = c;
            for (j, f) in [(k, r), (k + 4, c)] {
                thrice[j] |= twice[j] & f;
                twice[j] |= once[j] & f;
                once[j] |= f;
            }
        }
    }
    if thrice.iter().all(|&x| x == 0) {
        return 0;
    }
    let spread_row = |x: u32| x | x << 1 | x << 2;
    let mut changed = 0;
    for d in 0..9 {
        for k in 0..4 {
            let m = masks[d].0[k];
            let off_rows = spread_row(thrice[k] & !rows[d][k]);
            let off_cols = (thrice[k + 4] & !cols[d][k]) * COLUMN_0;
            let kept = m & !(off_rows | off_cols);
            changed |= u64::from(kept != m) << (4 * d + k);
            masks[d].0[k] = kept;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::solver::tables::{segments, ARRANGEMENTS, BAND, BOX_CELLS};

    /// Per lane, by the tables: the arrangements of a segment pattern.
    fn fitting(pattern: usize) -> u32 {
        ARRANGEMENTS
            .iter()
            .filter(|&&a| usize::from(a) & !pattern == 0)
            .count() as u32
    }

    /// The stack pattern (bit `3 * b + c`: band `b` has column `3s + c`)
    /// of one digit's masks.
    fn stack_pattern(m: &Lanes, s: usize) -> usize {
        (0..3)
            .map(|b| ((column_bits(m.0[b]) >> (3 * s) & 7) as usize) << (3 * b))
            .fold(0, |a, x| a | x)
    }

    /// The reference: counts by the permutation tables, digit by digit.
    fn arrangements_by_tables(masks: &[Lanes; 9]) -> Arrangements {
        let mut out = Arrangements::default();
        for (d, m) in masks.iter().enumerate() {
            for k in 0..3 {
                let row = fitting(segments(m.0[k]));
                let stack = fitting(stack_pattern(m, k));
                out.band_totals[k] += row;
                out.stack_totals[k] += stack;
                out.band_pairs |= u64::from(row == 2) << (4 * d + k);
                out.stack_pairs |= u64::from(stack == 2) << (4 * d + k);
            }
        }
        out
    }

    /// The reference triad rule, cell by cell: for each segment, the
    /// digits whose candidates in its box lie inside it.
    fn triads_by_cells(masks: &mut [Lanes; 9]) {
        let before = *masks;
        for b in 0..3 {
            for (k, &boxed) in BOX_CELLS.iter().enumerate() {
                let row_segments = (0..3).map(|r| 7u32 << (9 * r + 3 * k));
                let col_segments = (0..3).map(|c| COLUMN_0 << (3 * k + c));
                for seg in row_segments.chain(col_segments) {
                    let forced: Vec<usize> = (0..9)
                        .filter(|&d| {
                            let here = before[d].0[b] & boxed;
                            here != 0 && here & !seg == 0
                        })
                        .collect();
                    if forced.len() >= 3 {
                        for d in (0..9).filter(|d| !forced.contains(d)) {
                            masks[d].0[b] &= !seg;
                        }
                    }
                }
            }
        }
    }

    /// Random band masks, sparse enough that some digits are forced.
    fn random_masks(rng: &mut Rng) -> [Lanes; 9] {
        std::array::from_fn(|_| {
            let mut l = Lanes::ZERO;
            for b in 0..3 {
                l.0[b] = match rng.below(4) {
                    0 => rng.next_u64() as u32 & BAND,
                    1 => (rng.next_u64() & rng.next_u64()) as u32 & BAND,
                    _ => (rng.next_u64() & rng.next_u64() & rng.next_u64()) as u32 & BAND,
                };
            }
            l
        })
    }

    #[test]
    fn arrangements_match_the_tables() {
        let mut rng = Rng::new(29);
        for _ in 0..3000 {
            let masks = random_masks(&mut rng);
            assert_eq!(arrangements(&masks), arrangements_by_tables(&masks));
        }
        let full = [Lanes::bands(BAND); 9];
        let all = arrangements(&full);
        assert_eq!(all.band_totals, [54; 3]);
        assert_eq!(all.stack_totals, [54; 3]);
        assert_eq!((all.band_pairs, all.stack_pairs), (0, 0));
    }

    #[test]
    fn triads_match_the_cell_by_cell_rule() {
        let mut rng = Rng::new(290);
        let mut fired = 0;
        for _ in 0..3000 {
            let masks = random_masks(&mut rng);
            let (mut fast, mut slow) = (masks, masks);
            let changed = triads(&mut fast);
            triads_by_cells(&mut slow);
            assert_eq!(fast, slow);
            assert_eq!(changed, Lanes::differ_nine(&fast, &masks));
            fired += usize::from(changed != 0);
        }
        assert!(fired > 100, "the rule fired only {fired} times");
    }

    #[test]
    fn three_digits_in_one_row_segment_take_it() {
        // Digits 0, 1, 2 only in cells 0..3 of band 0 (row 0, box 0);
        // digit 3 everywhere.
        let mut masks = [Lanes::ZERO; 9];
        for m in masks.iter_mut().take(3) {
            *m = Lanes([0b111, 0, 0, 0]);
        }
        masks[3] = Lanes::bands(BAND);
        let changed = triads(&mut masks);
        assert_eq!(masks[3].0[0], BAND & !0b111);
        assert_eq!(changed, 1 << (4 * 3));
        assert_eq!(masks[0].0[0], 0b111);
    }
}
