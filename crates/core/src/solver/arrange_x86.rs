//! The hard mode's kernels ([`super::arrange`]) and the root fast path's
//! hidden singles ([`super::fast::lone_cells_nine`]) written with AVX2 and
//! AVX-512 vectors: two or four digits' masks per vector, every lane at
//! once (the portable loops are not widened by the compiler).
//!
//! One body ([`kernels`]) is expanded for each width over a handful of
//! vector helpers of the same names; the tests (in `wide.rs`) check both
//! against the portable version on random masks. Each function is built
//! with its path's target features and only reached from the search built
//! for that path, after the CPU was found to have them.

use super::arrange::Arrangements;
use super::lanes::Lanes;
use super::node::{Contradiction, ALL_LANES};
use super::tables::{BOX_LOW, COLUMN_0, ROW, ROW_HIGH};
use std::arch::x86_64::*;

/// The first bit of every segment of a band mask (bits `9 * r + 3 * k`).
const SEGMENT_FIRST: u32 = 0x124_9249;

/// The first column of each stack in a nine-bit column mask.
const STACK_FIRST: u32 = 0x49;

/// Lanes `[1, 2, 0, 3]` of each four (the next band's value in each band
/// lane), as a `shuffle_epi32` immediate.
const NEXT_BAND: i32 = 0b11_00_10_01;

/// Lanes `[2, 0, 1, 3]` of each four (the band after next).
const AFTER_NEXT_BAND: i32 = 0b11_01_00_10;

/// Merges two "at least one / two / three" counts of disjoint digit sets.
#[inline(always)]
fn merge_three(
    a: (__m128i, __m128i, __m128i),
    b: (__m128i, __m128i, __m128i),
) -> (__m128i, __m128i, __m128i) {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        let once = _mm_or_si128(a.0, b.0);
        let twice = _mm_or_si128(_mm_or_si128(a.1, b.1), _mm_and_si128(a.0, b.0));
        let thrice = _mm_or_si128(
            _mm_or_si128(a.2, b.2),
            _mm_or_si128(_mm_and_si128(a.1, b.0), _mm_and_si128(a.0, b.1)),
        );
        (once, twice, thrice)
    }
}

/// The three band lanes of a 128-bit vector.
#[inline(always)]
fn band_lanes(v: __m128i) -> [u32; 3] {
    let mut out = Lanes::ZERO;
    // SAFETY: an aligned 16-byte store into one `Lanes`.
    unsafe { _mm_store_si128(out.0.as_mut_ptr().cast(), v) };
    [out.0[0], out.0[1], out.0[2]]
}

/// Digit 8's masks (the one outside the wide vectors).
#[inline(always)]
fn last(masks: &[Lanes; 9]) -> __m128i {
    // SAFETY: an aligned 16-byte load of one `Lanes`; SSE2 is part of
    // x86-64.
    unsafe { _mm_load_si128(masks[8].0.as_ptr().cast()) }
}

/// Stores digit 8's masks.
#[inline(always)]
fn store_last(masks: &mut [Lanes; 9], v: __m128i) {
    // SAFETY: an aligned 16-byte store into one `Lanes`.
    unsafe { _mm_store_si128(masks[8].0.as_mut_ptr().cast(), v) };
}

/// The kernels over the module's vector type `V` and helpers: `load` and
/// `store` (digits `d..d + DIGITS`, zero beyond digit 8), `splat`, `and`,
/// `or`, `andnot` (`a & !b`), `add`, `sub`, `mul`, `shr`, `shl`, `next_band`,
/// `after_next_band`, `fields` (lane `j` of each four: bits `3j..3j + 3`),
/// `eq_bits` and `ne_bits` (one bit per lane), `fold_sum` and `fold3`
/// (over the four-lane groups) and `broadcast`.
macro_rules! kernels {
    ($features:literal) => {
        /// How many vectors hold the nine digits.
        const VECTORS: usize = 9usize.div_ceil(DIGITS);

        /// `x`'s bits alone in their group of three (`s` apart, groups
        /// starting at `first`).
        #[target_feature(enable = $features)]
        #[inline]
        fn alone(x: V, s: i32, first: u32) -> V {
            let (k0, k1, k2) = (splat(first), splat(first << s), splat(first << (2 * s)));
            let others = or(
                or(
                    and(or(shr(x, s), shr(x, 2 * s)), k0),
                    and(or(shl(x, s), shr(x, s)), k1),
                ),
                and(or(shl(x, s), shl(x, 2 * s)), k2),
            );
            andnot(x, others)
        }

        /// `(x >> n) & bits`.
        #[target_feature(enable = $features)]
        #[inline]
        fn pick(x: V, n: i32, bits: V) -> V {
            and(shr(x, n), bits)
        }

        /// The sum over the six permutations `p` of `a[p0] & b[p1] & c[p2]`.
        #[target_feature(enable = $features)]
        #[inline]
        fn permanent(a: [V; 3], b: [V; 3], c: [V; 3]) -> V {
            let term = |i: usize, j: usize, k: usize| and(and(a[i], b[j]), c[k]);
            let s = add(
                add(term(0, 1, 2), term(0, 2, 1)),
                add(term(1, 0, 2), term(1, 2, 0)),
            );
            add(s, add(term(2, 0, 1), term(2, 1, 0)))
        }

        /// See [`super::super::arrange::arrangements`].
        #[target_feature(enable = $features)]
        #[inline]
        pub(crate) fn arrangements(masks: &[Lanes; 9]) -> Arrangements {
            let (one, two, first) = (splat(1), splat(2), splat(STACK_FIRST));
            let (mut rows_total, mut stacks_total) = (splat(0), splat(0));
            let mut out = Arrangements::default();
            for i in 0..VECTORS {
                let m = load(masks, i * DIGITS);
                // Row r, box k present: bit 0 of t >> (9r + 3k).
                let t = and(or(or(m, shr(m, 1)), shr(m, 2)), splat(SEGMENT_FIRST));
                let row = |r: i32| {
                    [
                        pick(t, 9 * r, one),
                        pick(t, 9 * r + 3, one),
                        pick(t, 9 * r + 6, one),
                    ]
                };
                let rows = permanent(row(0), row(1), row(2));
                // Column c present: bit c; the next bands' in the same lane.
                let x = and(or(or(m, shr(m, 9)), shr(m, 18)), splat(ROW));
                let (y, z) = (next_band(x), after_next_band(x));
                let at = |v: V| [pick(v, 0, first), pick(v, 1, first), pick(v, 2, first)];
                let stacks = fields(permanent(at(x), at(y), at(z)));
                rows_total = add(rows_total, rows);
                stacks_total = add(stacks_total, stacks);
                out.band_pairs |= eq_bits(rows, two) << (4 * DIGITS * i);
                out.stack_pairs |= eq_bits(stacks, two) << (4 * DIGITS * i);
            }
            out.band_totals = band_lanes(fold_sum(rows_total));
            out.stack_totals = band_lanes(fold_sum(stacks_total));
            out
        }

        /// See [`super::super::arrange::triads`].
        #[target_feature(enable = $features)]
        #[inline]
        pub(crate) fn triads(masks: &mut [Lanes; 9]) -> u64 {
            let zero = splat(0);
            let (mut ms, mut rs, mut cs) = ([zero; VECTORS], [zero; VECTORS], [zero; VECTORS]);
            let (mut o_r, mut t_r, mut h_r) = (zero, zero, zero);
            let (mut o_c, mut t_c, mut h_c) = (zero, zero, zero);
            for i in 0..VECTORS {
                let m = load(masks, i * DIGITS);
                let seg = and(or(or(m, shr(m, 1)), shr(m, 2)), splat(SEGMENT_FIRST));
                let r = alone(seg, 9, STACK_FIRST);
                let col = and(or(or(m, shr(m, 9)), shr(m, 18)), splat(ROW));
                let c = alone(col, 1, STACK_FIRST);
                h_r = or(h_r, and(t_r, r));
                t_r = or(t_r, and(o_r, r));
                o_r = or(o_r, r);
                h_c = or(h_c, and(t_c, c));
                t_c = or(t_c, and(o_c, c));
                o_c = or(o_c, c);
                (ms[i], rs[i], cs[i]) = (m, r, c);
            }
            let (_, _, thrice_r) = fold3(o_r, t_r, h_r);
            let (_, _, thrice_c) = fold3(o_c, t_c, h_c);
            if _mm_testz_si128(
                _mm_or_si128(thrice_r, thrice_c),
                _mm_or_si128(thrice_r, thrice_c),
            ) != 0
            {
                return 0;
            }
            let (tr, tc) = (broadcast(thrice_r), broadcast(thrice_c));
            let mut changed = 0;
            for i in 0..VECTORS {
                let off_r = andnot(tr, rs[i]);
                let off_r = or(or(off_r, shl(off_r, 1)), shl(off_r, 2));
                let off_c = andnot(tc, cs[i]);
                let off_c = or(or(off_c, shl(off_c, 9)), shl(off_c, 18));
                let kept = andnot(ms[i], or(off_r, off_c));
                changed |= ne_bits(kept, ms[i]) << (4 * DIGITS * i);
                store(masks, i * DIGITS, kept);
            }
            changed
        }

        /// See [`super::super::node::covered_nine`]: per digit, the cells
        /// in a house with one of its givens.
        #[target_feature(enable = $features)]
        #[inline]
        pub(crate) fn covered(
            givens: &[Lanes; 9],
            covered: &mut [Lanes; 9],
        ) -> Result<(), Contradiction> {
            let (row, column, box_low, one) =
                (splat(ROW), splat(COLUMN_0), splat(BOX_LOW), splat(1));
            let (row_high, low) = (splat(ROW_HIGH), splat(ROW_HIGH - COLUMN_0));
            let mut clash = splat(0);
            for i in 0..VECTORS {
                let g = load(givens, i * DIGITS);
                let (r0, r1, r2) = (and(g, row), pick(g, 9, row), shr(g, 18));
                // Rows with a given: bit 8 set or carried into, spread
                // over the row.
                let rows = and(or(add(and(g, low), low), g), row_high);
                let rows = or(rows, sub(rows, shr(rows, 8)));
                // Columns per band, then over the three bands; boxes by
                // each box's three columns.
                let o = or(or(r0, r1), r2);
                let (o_next, o_after) = (next_band(o), after_next_band(o));
                let columns = mul(or(or(o, o_next), o_after), column);
                let (o0, o1, o2) = (and(o, box_low), pick(o, 1, box_low), pick(o, 2, box_low));
                let boxes = mul(or(or(o0, o1), o2), splat(7 * COLUMN_0));
                store(covered, i * DIGITS, or(or(rows, columns), boxes));
                // Two givens in a row, in a column (one band or two), or
                // in two columns of a box.
                let twice_in = |r: V| and(r, sub(r, one));
                let in_rows = or(or(twice_in(r0), twice_in(r1)), twice_in(r2));
                let in_band = or(and(r0, r1), and(r2, or(r0, r1)));
                let across = or(and(o, o_next), and(o_after, or(o, o_next)));
                let in_boxes = or(and(o0, o1), and(o2, or(o0, o1)));
                clash = or(clash, or(or(in_rows, in_band), or(across, in_boxes)));
            }
            if ne_bits(clash, splat(0)) != 0 {
                return Err(Contradiction);
            }
            Ok(())
        }

        /// See [`super::super::fast::lone_cells_nine`]: the cells alone
        /// in a row, column or box for their digit, every digit at once.
        #[target_feature(enable = $features)]
        #[inline]
        pub(crate) fn lone_cells(
            cand: &[Lanes; 9],
            unsolved: Lanes,
            placed: &[Lanes; 9],
            lone: &mut [Lanes; 9],
        ) -> Result<u64, Contradiction> {
            // SAFETY: an aligned 16-byte load of one `Lanes`.
            let unsolved = broadcast(unsafe { _mm_load_si128(unsolved.0.as_ptr().cast()) });
            let (row, column, box_low) = (splat(ROW), splat(COLUMN_0), splat(BOX_LOW));
            let (row_high, low) = (splat(ROW_HIGH), splat(ROW_HIGH - COLUMN_0));
            let zero = splat(0);
            let (mut missing, mut found) = (0, 0);
            for i in 0..VECTORS {
                let m = and(load(cand, i * DIGITS), unsolved);
                let f = or(m, load(placed, i * DIGITS));
                // Rows with no cell: bit 8 neither set nor carried into.
                let empty_rows = andnot(row_high, or(add(and(f, low), low), f));
                // Each band's rows folded: columns with at least one and
                // at least two cells; then each box's three positions.
                let (r0, r1, r2) = (and(f, row), pick(f, 9, row), shr(f, 18));
                let o = or(or(r0, r1), r2);
                let t = or(and(r0, r1), and(r2, or(r0, r1)));
                let (o0, o1, o2) = (and(o, box_low), pick(o, 1, box_low), pick(o, 2, box_low));
                let any = or(or(o0, o1), o2);
                let spread = and(or(or(t, shr(t, 1)), shr(t, 2)), box_low);
                let two = or(or(and(o0, o1), and(o2, or(o0, o1))), spread);
                let boxes = mul(andnot(any, two), splat(7 * COLUMN_0));
                // Columns: counted over the three bands of the digit.
                let (o_next, o_after) = (next_band(o), after_next_band(o));
                let once = or(or(o, o_next), o_after);
                let t_all = or(or(t, next_band(t)), after_next_band(t));
                let twice = or(t_all, or(and(o, o_next), and(o_after, or(o, o_next))));
                let columns = mul(andnot(once, twice), column);
                // Rows: each row without its lowest cell, then the rows
                // where that leaves something.
                let rest = and(f, sub(f, column));
                let crowded = and(or(add(and(rest, low), low), rest), row_high);
                let rows = andnot(f, or(crowded, sub(crowded, shr(crowded, 8))));
                let here = and(or(or(rows, and(f, boxes)), columns), m);
                let empty = or(or(empty_rows, andnot(box_low, any)), andnot(row, once));
                missing |= ne_bits(empty, zero) << (4 * DIGITS * i);
                found |= ne_bits(here, zero) << (4 * DIGITS * i);
                store(lone, i * DIGITS, here);
            }
            if missing & ALL_LANES != 0 {
                return Err(Contradiction);
            }
            Ok(found & ALL_LANES)
        }
    };
}

/// Two digits per 256-bit vector.
pub(crate) mod avx2 {
    use super::*;

    /// The vector: two digits' masks.
    type V = __m256i;

    /// Digits per vector.
    const DIGITS: usize = 2;

    /// Digits `d..d + DIGITS` (zero past digit 8).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(masks: &[Lanes; 9], d: usize) -> V {
        if d == 8 {
            return _mm256_zextsi128_si256(last(masks));
        }
        // SAFETY: digits `d` and `d + 1` (d <= 6) are 32 bytes inside the
        // array.
        unsafe { _mm256_loadu_si256(masks[d..].as_ptr().cast()) }
    }

    /// Stores digits `d..d + DIGITS` (only digit 8 for the last vector).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store(masks: &mut [Lanes; 9], d: usize, v: V) {
        if d == 8 {
            return store_last(masks, _mm256_castsi256_si128(v));
        }
        // SAFETY: as in `load`.
        unsafe { _mm256_storeu_si256(masks[d..].as_mut_ptr().cast(), v) }
    }

    /// `x` in every lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn splat(x: u32) -> V {
        _mm256_set1_epi32(x as i32)
    }

    /// Lane-wise `a & b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm256_and_si256(a, b)
    }

    /// Lane-wise `a | b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm256_or_si256(a, b)
    }

    /// Lane-wise `a & !b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn andnot(a: V, b: V) -> V {
        _mm256_andnot_si256(b, a)
    }

    /// Lane-wise `a + b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn add(a: V, b: V) -> V {
        _mm256_add_epi32(a, b)
    }

    /// Lane-wise `a - b`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        _mm256_sub_epi32(a, b)
    }

    /// Lane-wise `a * b` (the low 32 bits).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn mul(a: V, b: V) -> V {
        _mm256_mullo_epi32(a, b)
    }

    /// Lane-wise `a >> n`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn shr(a: V, n: i32) -> V {
        _mm256_srl_epi32(a, _mm_cvtsi32_si128(n))
    }

    /// Lane-wise `a << n`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn shl(a: V, n: i32) -> V {
        _mm256_sll_epi32(a, _mm_cvtsi32_si128(n))
    }

    /// Each band lane gets the next band's value (lanes 1, 2, 0, 3 of each four).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn next_band(a: V) -> V {
        _mm256_shuffle_epi32::<NEXT_BAND>(a)
    }

    /// Each band lane gets the value of the band after next (lanes 2, 0, 1, 3).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn after_next_band(a: V) -> V {
        _mm256_shuffle_epi32::<AFTER_NEXT_BAND>(a)
    }

    /// Lane `j` (0..3) of each four: bits `3j..3j + 3` of it; lane 3: zero.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn fields(a: V) -> V {
        let shifts = _mm256_setr_epi32(0, 3, 6, 0, 0, 3, 6, 0);
        // Lane 3 (no band) keeps nothing.
        let keep = _mm256_setr_epi32(7, 7, 7, 0, 7, 7, 7, 0);
        _mm256_and_si256(_mm256_srlv_epi32(a, shifts), keep)
    }

    /// One bit per lane where `a` and `b` are equal.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn eq_bits(a: V, b: V) -> u64 {
        let eq = _mm256_cmpeq_epi32(a, b);
        u64::from(_mm256_movemask_ps(_mm256_castsi256_ps(eq)) as u8)
    }

    /// One bit per lane where `a` and `b` differ.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn ne_bits(a: V, b: V) -> u64 {
        !eq_bits(a, b) & 0xFF
    }

    /// The two 128-bit halves.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn halves(v: V) -> (__m128i, __m128i) {
        (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
    }

    /// The lane-wise sum of the 128-bit groups.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn fold_sum(v: V) -> __m128i {
        let (a, b) = halves(v);
        _mm_add_epi32(a, b)
    }

    /// Merges the "at least one / two / three" counts of the 128-bit groups into one.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn fold3(once: V, twice: V, thrice: V) -> (__m128i, __m128i, __m128i) {
        let ((o0, o1), (t0, t1), (h0, h1)) = (halves(once), halves(twice), halves(thrice));
        merge_three((o0, t0, h0), (o1, t1, h1))
    }

    /// `x` in every 128-bit group.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn broadcast(x: __m128i) -> V {
        _mm256_broadcastsi128_si256(x)
    }

    kernels!("avx2,bmi1,bmi2,popcnt,lzcnt");
}

/// Four digits per 512-bit vector.
pub(crate) mod avx512 {
    use super::*;

    /// The vector: four digits' masks.
    type V = __m512i;

    /// Digits per vector.
    const DIGITS: usize = 4;

    /// Digits `d..d + DIGITS` (zero past digit 8).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn load(masks: &[Lanes; 9], d: usize) -> V {
        if d == 8 {
            return _mm512_zextsi128_si512(last(masks));
        }
        // SAFETY: digits `d..d + 4` (d <= 4) are 64 bytes inside the
        // array.
        unsafe { _mm512_loadu_si512(masks[d..].as_ptr().cast()) }
    }

    /// Stores digits `d..d + DIGITS` (only digit 8 for the last vector).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn store(masks: &mut [Lanes; 9], d: usize, v: V) {
        if d == 8 {
            return store_last(masks, _mm512_castsi512_si128(v));
        }
        // SAFETY: as in `load`.
        unsafe { _mm512_storeu_si512(masks[d..].as_mut_ptr().cast(), v) }
    }

    /// `x` in every lane.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn splat(x: u32) -> V {
        _mm512_set1_epi32(x as i32)
    }

    /// Lane-wise `a & b`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn and(a: V, b: V) -> V {
        _mm512_and_si512(a, b)
    }

    /// Lane-wise `a | b`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn or(a: V, b: V) -> V {
        _mm512_or_si512(a, b)
    }

    /// Lane-wise `a & !b`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn andnot(a: V, b: V) -> V {
        _mm512_andnot_si512(b, a)
    }

    /// Lane-wise `a + b`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add(a: V, b: V) -> V {
        _mm512_add_epi32(a, b)
    }

    /// Lane-wise `a - b`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        _mm512_sub_epi32(a, b)
    }

    /// Lane-wise `a * b` (the low 32 bits).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn mul(a: V, b: V) -> V {
        _mm512_mullo_epi32(a, b)
    }

    /// Lane-wise `a >> n`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn shr(a: V, n: i32) -> V {
        _mm512_srl_epi32(a, _mm_cvtsi32_si128(n))
    }

    /// Lane-wise `a << n`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn shl(a: V, n: i32) -> V {
        _mm512_sll_epi32(a, _mm_cvtsi32_si128(n))
    }

    /// Each band lane gets the next band's value (lanes 1, 2, 0, 3 of each four).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn next_band(a: V) -> V {
        _mm512_shuffle_epi32::<NEXT_BAND>(a)
    }

    /// Each band lane gets the value of the band after next (lanes 2, 0, 1, 3).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn after_next_band(a: V) -> V {
        _mm512_shuffle_epi32::<AFTER_NEXT_BAND>(a)
    }

    /// Lane `j` (0..3) of each four: bits `3j..3j + 3` of it; lane 3: zero.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn fields(a: V) -> V {
        let shifts = _mm512_setr_epi32(0, 3, 6, 0, 0, 3, 6, 0, 0, 3, 6, 0, 0, 3, 6, 0);
        // Lane 3 (no band) keeps nothing.
        let keep = _mm512_setr_epi32(7, 7, 7, 0, 7, 7, 7, 0, 7, 7, 7, 0, 7, 7, 7, 0);
        _mm512_and_si512(_mm512_srlv_epi32(a, shifts), keep)
    }

    /// One bit per lane where `a` and `b` are equal.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn eq_bits(a: V, b: V) -> u64 {
        u64::from(_mm512_cmpeq_epi32_mask(a, b))
    }

    /// One bit per lane where `a` and `b` differ.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn ne_bits(a: V, b: V) -> u64 {
        u64::from(_mm512_cmpneq_epi32_mask(a, b))
    }

    /// The four 128-bit groups of a vector.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn quarters(v: V) -> [__m128i; 4] {
        [
            _mm512_castsi512_si128(v),
            _mm512_extracti32x4_epi32::<1>(v),
            _mm512_extracti32x4_epi32::<2>(v),
            _mm512_extracti32x4_epi32::<3>(v),
        ]
    }

    /// The lane-wise sum of the 128-bit groups.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn fold_sum(v: V) -> __m128i {
        let [a, b, c, d] = quarters(v);
        _mm_add_epi32(_mm_add_epi32(a, b), _mm_add_epi32(c, d))
    }

    /// Merges the "at least one / two / three" counts of the 128-bit groups into one.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn fold3(once: V, twice: V, thrice: V) -> (__m128i, __m128i, __m128i) {
        let (o, t, h) = (quarters(once), quarters(twice), quarters(thrice));
        let a = merge_three((o[0], t[0], h[0]), (o[1], t[1], h[1]));
        let b = merge_three((o[2], t[2], h[2]), (o[3], t[3], h[3]));
        merge_three(a, b)
    }

    /// `x` in every 128-bit group.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn broadcast(x: __m128i) -> V {
        _mm512_broadcast_i32x4(x)
    }

    kernels!("avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq");
}
