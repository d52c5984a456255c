//! Four 32-bit lanes, one per band (lane 3 is always zero): the three band
//! masks of one digit side by side, so an operation on all bands of a digit
//! is one 128-bit instruction where the target has one.
//!
//! On x86-64 the operations use SSE2, which every x86-64 CPU has (no
//! `target-cpu` flag or runtime detection needed); elsewhere they are plain
//! array code (which compilers also vectorize where they can). The tests
//! check both versions against each other on every target.

/// Three band masks (lanes 0..3) and a zero lane, aligned for vector loads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Lanes(pub(crate) [u32; 4]);

impl Lanes {
    /// All four lanes zero.
    pub(super) const ZERO: Lanes = Lanes([0; 4]);

    /// `x` in lanes 0..3, zero in lane 3.
    #[inline(always)]
    pub(super) const fn bands(x: u32) -> Lanes {
        Lanes([x, x, x, 0])
    }

    /// `x` in lane `b` only.
    #[inline(always)]
    pub(super) fn only(b: usize, x: u32) -> Lanes {
        imp::only(b, x)
    }

    /// `x` in the two band lanes other than `b`.
    #[inline(always)]
    pub(super) fn others(b: usize, x: u32) -> Lanes {
        imp::others(b, x)
    }

    /// `self` with lane `b` replaced by `x`.
    #[inline(always)]
    pub(super) fn with_lane(self, b: usize, x: u32) -> Lanes {
        imp::with_lane(self, b, x)
    }

    /// Lane-wise `self & other`.
    #[inline(always)]
    pub(super) fn and(self, other: Lanes) -> Lanes {
        imp::and(self, other)
    }

    /// Lane-wise `self | other`.
    #[inline(always)]
    pub(super) fn or(self, other: Lanes) -> Lanes {
        imp::or(self, other)
    }

    /// Lane-wise `self & !other`.
    #[inline(always)]
    pub(super) fn and_not(self, other: Lanes) -> Lanes {
        imp::and_not(self, other)
    }

    /// Whether any lane is non-zero.
    #[inline(always)]
    pub(super) fn any(self) -> bool {
        imp::any(self)
    }

    /// Bit `k` set for each lane `k` that is not zero.
    #[inline(always)]
    pub(super) fn nonzero(self) -> u32 {
        imp::nonzero(self)
    }

    /// The number of set bits over all four lanes.
    #[inline(always)]
    pub(super) fn count_ones(self) -> u32 {
        imp::count_ones(self)
    }

    /// Lane-wise `self >> N`.
    #[inline(always)]
    pub(super) fn shr<const N: i32>(self) -> Lanes {
        imp::shr::<N>(self)
    }

    /// Bit `k` set for each lane `k` where `self` and `other` differ
    /// (the solver uses [`differ_nine`](Self::differ_nine); tests check
    /// one against the other).
    #[cfg(test)]
    pub(super) fn differ(self, other: Lanes) -> u32 {
        imp::differ(self, other)
    }

    /// The givens of a grid (81 cell values, 0 for blank) as band masks,
    /// one per digit: entry `d` holds the cells whose value is `d + 1`.
    #[inline(always)]
    pub(super) fn givens(cells: &[u8; 81]) -> [Lanes; 9] {
        imp::givens(cells)
    }

    /// Copies nine lanes from `src` to `dst` by whole-vector loads and
    /// stores written out one by one: a plain array copy of this size
    /// (144 bytes) becomes a call of libc's `memcpy`.
    #[inline(always)]
    pub(super) fn copy_nine(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
        imp::copy_nine(dst, src)
    }

    /// [`differ`](Self::differ) for nine pairs at once: bit `4 * d + k`
    /// set where lane `k` of `a[d]` and `b[d]` differ.
    #[inline(always)]
    pub(super) fn differ_nine(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
        imp::differ_nine(a, b)
    }
}

/// The portable version of the lane operations.
#[cfg_attr(all(feature = "simd", target_arch = "x86_64"), allow(dead_code))]
mod portable {
    use super::Lanes;

    #[inline(always)]
    pub(super) fn only(b: usize, x: u32) -> Lanes {
        let mut l = Lanes::ZERO;
        l.0[b] = x;
        l
    }

    #[inline(always)]
    pub(super) fn others(b: usize, x: u32) -> Lanes {
        let mut l = Lanes::bands(x);
        l.0[b] = 0;
        l
    }

    #[inline(always)]
    pub(super) fn with_lane(mut l: Lanes, b: usize, x: u32) -> Lanes {
        l.0[b] = x;
        l
    }

    #[inline(always)]
    pub(super) fn and(a: Lanes, b: Lanes) -> Lanes {
        Lanes(std::array::from_fn(|k| a.0[k] & b.0[k]))
    }

    #[inline(always)]
    pub(super) fn or(a: Lanes, b: Lanes) -> Lanes {
        Lanes(std::array::from_fn(|k| a.0[k] | b.0[k]))
    }

    #[inline(always)]
    pub(super) fn and_not(a: Lanes, b: Lanes) -> Lanes {
        Lanes(std::array::from_fn(|k| a.0[k] & !b.0[k]))
    }

    #[inline(always)]
    pub(super) fn any(a: Lanes) -> bool {
        (a.0[0] | a.0[1] | a.0[2] | a.0[3]) != 0
    }

    #[inline(always)]
    pub(super) fn nonzero(a: Lanes) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            m |= u32::from(a.0[k] != 0) << k;
        }
        m
    }

    #[inline(always)]
    pub(super) fn count_ones(a: Lanes) -> u32 {
        a.0.iter().map(|x| x.count_ones()).sum()
    }

    #[inline(always)]
    pub(super) fn shr<const N: i32>(a: Lanes) -> Lanes {
        Lanes(a.0.map(|x| x >> N))
    }

    #[inline(always)]
    pub(super) fn differ(a: Lanes, b: Lanes) -> u32 {
        let mut m = 0;
        for k in 0..4 {
            m |= u32::from(a.0[k] != b.0[k]) << k;
        }
        m
    }

    #[inline(always)]
    pub(super) fn copy_nine(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
        *dst = *src;
    }

    pub(super) fn givens(cells: &[u8; 81]) -> [Lanes; 9] {
        // Index 0 collects the blanks, so the loop has no branch.
        let mut masks = [Lanes::ZERO; 10];
        for (c, &v) in cells.iter().enumerate() {
            masks[usize::from(v).min(9)].0[c / 27] |= 1 << (c % 27);
        }
        std::array::from_fn(|d| masks[d + 1])
    }

    #[inline(always)]
    pub(super) fn differ_nine(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
        let mut m = 0;
        for d in 0..9 {
            m |= u64::from(differ(a[d], b[d])) << (4 * d);
        }
        m
    }
}

/// The SSE2 version of the lane operations (SSE2 is part of x86-64; off
/// without the `simd` feature).
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod sse2 {
    use super::Lanes;
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_add_epi8, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps,
        _mm_cmpeq_epi32, _mm_cmpeq_epi8, _mm_cvtsi128_si32, _mm_load_si128, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_movemask_ps, _mm_or_si128, _mm_packs_epi16, _mm_packs_epi32,
        _mm_sad_epu8, _mm_set1_epi32, _mm_set1_epi8, _mm_setzero_si128, _mm_srli_epi16,
        _mm_srli_epi32, _mm_srli_si128, _mm_store_si128, _mm_sub_epi8,
    };

    #[inline(always)]
    fn load(a: &Lanes) -> __m128i {
        // SAFETY: `Lanes` is 16 bytes, 16-byte aligned (`repr(align(16))`),
        // and SSE2 is always available on x86-64.
        unsafe { _mm_load_si128(a.0.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(v: __m128i) -> Lanes {
        let mut out = Lanes::ZERO;
        // SAFETY: as in `load`.
        unsafe { _mm_store_si128(out.0.as_mut_ptr().cast(), v) };
        out
    }

    /// All ones in lane `b` (for `b` in 0..3), zero elsewhere. The fourth
    /// entry (no band) is never used: it lets an index known to be below
    /// four (`i & 3` in the propagation loop) go without a bounds check.
    static LANE: [Lanes; 4] = [
        Lanes([!0, 0, 0, 0]),
        Lanes([0, !0, 0, 0]),
        Lanes([0, 0, !0, 0]),
        Lanes([0, 0, 0, 0]),
    ];

    /// All ones in the three band lanes.
    static BAND_LANES: Lanes = Lanes([!0, !0, !0, 0]);

    // `only` and `others` splat `x` in a register and mask it: writing one
    // lane of a vector in memory and loading it whole stalls the load
    // (store forwarding cannot combine a narrow store into a wide load).
    #[inline(always)]
    pub(super) fn only(b: usize, x: u32) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe { _mm_and_si128(_mm_set1_epi32(x as i32), load(&LANE[b])) })
    }

    #[inline(always)]
    pub(super) fn others(b: usize, x: u32) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe {
            let splat = _mm_and_si128(_mm_set1_epi32(x as i32), load(&BAND_LANES));
            _mm_andnot_si128(load(&LANE[b]), splat)
        })
    }

    #[inline(always)]
    pub(super) fn with_lane(l: Lanes, b: usize, x: u32) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe {
            let lane = load(&LANE[b]);
            _mm_or_si128(
                _mm_andnot_si128(lane, load(&l)),
                _mm_and_si128(_mm_set1_epi32(x as i32), lane),
            )
        })
    }

    #[inline(always)]
    pub(super) fn and(a: Lanes, b: Lanes) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe { _mm_and_si128(load(&a), load(&b)) })
    }

    #[inline(always)]
    pub(super) fn or(a: Lanes, b: Lanes) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe { _mm_or_si128(load(&a), load(&b)) })
    }

    #[inline(always)]
    pub(super) fn and_not(a: Lanes, b: Lanes) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe { _mm_andnot_si128(load(&b), load(&a)) })
    }

    #[inline(always)]
    pub(super) fn any(a: Lanes) -> bool {
        // SAFETY: SSE2 is always available on x86-64.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi32(load(&a), _mm_setzero_si128())) != 0xFFFF }
    }

    #[inline(always)]
    pub(super) fn nonzero(a: Lanes) -> u32 {
        // SAFETY: SSE2 is always available on x86-64.
        let zero = unsafe {
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(
                load(&a),
                _mm_setzero_si128(),
            )))
        };
        !(zero as u32) & 0xF
    }

    /// Bits counted per byte by the usual halving steps, then the bytes
    /// summed by `psadbw` against zero (without `target-cpu`,
    /// `u32::count_ones` is a scalar bit trick per lane).
    #[inline(always)]
    pub(super) fn count_ones(a: Lanes) -> u32 {
        // SAFETY: SSE2 is always available on x86-64.
        unsafe {
            let x = load(&a);
            let x = _mm_sub_epi8(
                x,
                _mm_and_si128(_mm_srli_epi16::<1>(x), _mm_set1_epi8(0x55)),
            );
            let m = _mm_set1_epi8(0x33);
            let x = _mm_add_epi8(
                _mm_and_si128(x, m),
                _mm_and_si128(_mm_srli_epi16::<2>(x), m),
            );
            let x = _mm_and_si128(_mm_add_epi8(x, _mm_srli_epi16::<4>(x)), _mm_set1_epi8(0x0F));
            let sums = _mm_sad_epu8(x, _mm_setzero_si128());
            _mm_cvtsi128_si32(_mm_add_epi64(sums, _mm_srli_si128::<8>(sums))) as u32
        }
    }

    #[inline(always)]
    pub(super) fn shr<const N: i32>(a: Lanes) -> Lanes {
        // SAFETY: SSE2 is always available on x86-64.
        store(unsafe { _mm_srli_epi32::<N>(load(&a)) })
    }

    #[cfg(test)]
    #[inline(always)]
    pub(super) fn differ(a: Lanes, b: Lanes) -> u32 {
        // SAFETY: SSE2 is always available on x86-64.
        let same =
            unsafe { _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(load(&a), load(&b)))) };
        !(same as u32) & 0xF
    }

    #[inline(always)]
    pub(super) fn copy_nine(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
        // All nine loads first, then the stores, each written out: a loop
        // here would be recognised as a copy and turned back into a call.
        let [v0, v1, v2, v3, v4, v5, v6, v7, v8] = [
            load(&src[0]),
            load(&src[1]),
            load(&src[2]),
            load(&src[3]),
            load(&src[4]),
            load(&src[5]),
            load(&src[6]),
            load(&src[7]),
            load(&src[8]),
        ];
        let [d0, d1, d2, d3, d4, d5, d6, d7, d8] = dst;
        // SAFETY: as in `load`.
        unsafe {
            _mm_store_si128(d0.0.as_mut_ptr().cast(), v0);
            _mm_store_si128(d1.0.as_mut_ptr().cast(), v1);
            _mm_store_si128(d2.0.as_mut_ptr().cast(), v2);
            _mm_store_si128(d3.0.as_mut_ptr().cast(), v3);
            _mm_store_si128(d4.0.as_mut_ptr().cast(), v4);
            _mm_store_si128(d5.0.as_mut_ptr().cast(), v5);
            _mm_store_si128(d6.0.as_mut_ptr().cast(), v6);
            _mm_store_si128(d7.0.as_mut_ptr().cast(), v7);
            _mm_store_si128(d8.0.as_mut_ptr().cast(), v8);
        }
    }

    /// The 27 cells of a band.
    const BAND: u32 = (1 << 27) - 1;

    /// Five 16-byte compares per digit cover cells 0..80; cell 80 is
    /// read on its own.
    #[inline(always)]
    pub(super) fn givens(cells: &[u8; 81]) -> [Lanes; 9] {
        // SAFETY: the five unaligned loads read bytes 0..80 of the 81, and
        // SSE2 is always available on x86-64.
        unsafe {
            let chunk = |i: usize| _mm_loadu_si128(cells.as_ptr().add(16 * i).cast());
            let v = [chunk(0), chunk(1), chunk(2), chunk(3), chunk(4)];
            let last = cells[80];
            std::array::from_fn(|d| {
                let digit = d as u8 + 1;
                let key = _mm_set1_epi8(digit as i8);
                let bits = |i: usize| _mm_movemask_epi8(_mm_cmpeq_epi8(v[i], key)) as u32 as u64;
                let low = bits(0) | bits(1) << 16 | bits(2) << 32 | bits(3) << 48;
                let high = bits(4) | u64::from(last == digit) << 16;
                let band = |x: u64| x as u32 & BAND;
                Lanes([band(low), band(low >> 27), band(low >> 54 | high << 10), 0])
            })
        }
    }

    #[inline(always)]
    pub(super) fn differ_nine(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
        // Equal lanes become -1, packed with saturation (which keeps 0 and
        // -1) from 32 to 8 bits: four digits' sixteen lanes per byte mask.
        // SAFETY: SSE2 is always available on x86-64.
        unsafe {
            let eq = |d: usize| _mm_cmpeq_epi32(load(&a[d]), load(&b[d]));
            let low = _mm_packs_epi16(_mm_packs_epi32(eq(0), eq(1)), _mm_packs_epi32(eq(2), eq(3)));
            let high =
                _mm_packs_epi16(_mm_packs_epi32(eq(4), eq(5)), _mm_packs_epi32(eq(6), eq(7)));
            let same = _mm_movemask_epi8(low) as u32 as u64
                | (_mm_movemask_epi8(high) as u32 as u64) << 16
                | (_mm_movemask_ps(_mm_castsi128_ps(eq(8))) as u32 as u64) << 32;
            !same & ((1 << 36) - 1)
        }
    }
}

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
use sse2 as imp;

#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
use portable as imp;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_builders_place_values() {
        assert_eq!(Lanes::bands(7), Lanes([7, 7, 7, 0]));
        assert_eq!(Lanes::only(1, 5), Lanes([0, 5, 0, 0]));
        assert_eq!(Lanes::others(2, 9), Lanes([9, 9, 0, 0]));
        assert_eq!(Lanes([1, 2, 3, 0]).with_lane(1, 7), Lanes([1, 7, 3, 0]));
    }

    #[test]
    fn lane_ops_are_lane_wise() {
        let a = Lanes([0b1100, 0b1010, 0xFFFF, 0]);
        let b = Lanes([0b1010, 0b1010, 0x00F0, 0]);
        assert_eq!(a.and(b), Lanes([0b1000, 0b1010, 0x00F0, 0]));
        assert_eq!(a.or(b), Lanes([0b1110, 0b1010, 0xFFFF, 0]));
        assert_eq!(a.and_not(b), Lanes([0b0100, 0, 0xFF0F, 0]));
        assert_eq!(a.differ(b), 0b101);
        assert_eq!(a.differ(a), 0);
        assert!(a.any());
        assert!(!Lanes::ZERO.any());
        assert!(Lanes([0, 0, 0, 1]).any());
        assert_eq!(
            Lanes([0b1011, 0, 0x8000_0001, 0xFFFF_FFFF]).count_ones(),
            37
        );
        assert_eq!(Lanes::ZERO.count_ones(), 0);
    }

    /// The vector and portable versions agree (on x86-64; elsewhere both
    /// names are the portable version).
    #[test]
    fn vector_and_portable_versions_agree() {
        let mut rng = crate::rng::Rng::new(0x9E37_79B9);
        // Often equal lanes, sometimes zero, so `differ` and `any` see
        // every case.
        let mut next = || rng.below(5) as u32;
        for _ in 0..5000 {
            let a = Lanes(std::array::from_fn(|_| next() << 7));
            let b = Lanes(std::array::from_fn(|_| next() << 7));
            assert_eq!(imp::and(a, b), portable::and(a, b));
            assert_eq!(imp::or(a, b), portable::or(a, b));
            assert_eq!(imp::and_not(a, b), portable::and_not(a, b));
            assert_eq!(imp::any(a), portable::any(a));
            assert_eq!(imp::nonzero(a), portable::nonzero(a));
            assert_eq!(portable::nonzero(a), portable::differ(a, Lanes::ZERO));
            let wide = Lanes(std::array::from_fn(|_| {
                next().wrapping_mul(0x9E37_79B9) ^ next()
            }));
            assert_eq!(imp::count_ones(wide), portable::count_ones(wide));
            assert_eq!(imp::count_ones(a), portable::count_ones(a));
            assert_eq!(imp::differ(a, b), portable::differ(a, b));
            assert_eq!(imp::shr::<9>(a), portable::shr::<9>(a));
            assert_eq!(imp::shr::<18>(b), portable::shr::<18>(b));
            let (x, band) = (next() << 20 | next(), next() as usize % 3);
            assert_eq!(imp::only(band, x), portable::only(band, x));
            assert_eq!(imp::others(band, x), portable::others(band, x));
            assert_eq!(imp::with_lane(a, band, x), portable::with_lane(a, band, x));
        }
        for _ in 0..2000 {
            let cells: [u8; 81] = std::array::from_fn(|_| (next() * 3 + next()) as u8 % 10);
            let want = portable::givens(&cells);
            assert_eq!(imp::givens(&cells), want);
            for (c, &v) in cells.iter().enumerate() {
                for (d, mask) in want.iter().enumerate() {
                    let set = mask.0[c / 27] >> (c % 27) & 1 == 1;
                    assert_eq!(set, usize::from(v) == d + 1, "cell {c}");
                }
            }
        }
        for _ in 0..2000 {
            let a: [Lanes; 9] = std::array::from_fn(|_| Lanes(std::array::from_fn(|_| next())));
            let b: [Lanes; 9] = std::array::from_fn(|_| Lanes(std::array::from_fn(|_| next())));
            let want = portable::differ_nine(&a, &b);
            for d in 0..9 {
                assert_eq!(want >> (4 * d) & 0xF, u64::from(a[d].differ(b[d])));
            }
            assert_eq!(imp::differ_nine(&a, &b), want);
            assert_eq!(imp::differ_nine(&a, &a), 0);
            let mut copy = [Lanes::ZERO; 9];
            imp::copy_nine(&mut copy, &a);
            assert_eq!(copy, a);
        }
    }
}
