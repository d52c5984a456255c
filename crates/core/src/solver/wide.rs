//! The operations over all nine digits' masks at once, one version per
//! instruction set, and the choice among them at run time.
//!
//! The search state keeps one [`Lanes`] (128 bits: the three band masks of
//! a digit) per digit. Most of propagation works on one digit at a time,
//! but a few steps touch all nine: saving and restoring a state, finding
//! the masks that changed, clearing placed cells from every digit, and
//! counting how many digits each cell still has. [`Narrow`] does these one
//! 128-bit vector per digit (SSE2, or plain code without the `simd`
//! feature); [`Avx2`] two digits per 256-bit vector and [`Avx512`] four per
//! 512-bit vector.
//!
//! The search is compiled once per [`SimdPath`] (see `search.rs`): the
//! whole loop, inlined into a function built with that path's target
//! features, so the single-digit code also gets the wider encodings,
//! `popcnt` and BMI. [`SimdPath::detect`] picks the best one the CPU has,
//! once per process, so one binary runs well on any x86-64 machine.

use std::sync::OnceLock;

use super::arrange::{self, Arrangements};
use super::fast;
use super::lanes::Lanes;
use super::node::{self, Contradiction};
use super::tables;

/// The nine-digit operations of the search, per instruction set.
///
/// Every implementation gives the same results as [`Narrow`]; the tests
/// check each against it on random masks.
pub(crate) trait Wide {
    /// Copies the nine digits' masks from `src` to `dst`.
    fn copy(dst: &mut [Lanes; 9], src: &[Lanes; 9]);

    /// Bit `4 * d + k` set where lane `k` of `a[d]` and `b[d]` differ.
    fn differ(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64;

    /// Removes `cells` from every digit's masks; returns the lanes that
    /// changed (bit `4 * d + k` for lane `k` of digit `d`).
    fn clear(masks: &mut [Lanes; 9], cells: Lanes) -> u64;

    /// The segment pattern of a band mask (see [`tables::segments`]).
    fn segments(band: u32) -> usize;

    /// The stack pass's permutation filter of one digit: from the columns
    /// holding it per band (packed, band `b` at bit `9 * b`), those that
    /// fit an arrangement in their stack (same packing); a contradiction
    /// when some stack has none (see [`node::stack_keep`]).
    fn stack_keep(columns: u32) -> Result<u32, Contradiction>;

    /// Bit `4 * d + k` set where lane `k` of `masks[d]` and of `cells`
    /// overlap.
    fn overlap(masks: &[Lanes; 9], cells: Lanes) -> u64;

    /// The cells held by at least one digit and by at least two.
    fn at_least_two(masks: &[Lanes; 9]) -> (Lanes, Lanes);

    /// The cells held by at least one, two and three digits.
    fn at_least_three(masks: &[Lanes; 9]) -> (Lanes, Lanes, Lanes);

    /// Every digit's arrangements left per band and stack (the hard
    /// mode's branch choice; see [`arrange::arrangements`]).
    fn arrangements(masks: &[Lanes; 9]) -> Arrangements;

    /// The triad rule on every band (see [`arrange::triads`]); returns
    /// the lanes changed.
    fn triads(masks: &mut [Lanes; 9]) -> u64;

    /// Per digit, the cells in a row, column or box with one of its
    /// givens (see [`node::covered_nine`]).
    fn covered(givens: &[Lanes; 9], covered: &mut [Lanes; 9]) -> Result<(), Contradiction>;

    /// The root fast path's hidden singles, every digit at once (see
    /// [`fast::lone_cells_nine`]).
    fn lone_cells(
        cand: &[Lanes; 9],
        unsolved: Lanes,
        placed: &[Lanes; 9],
        lone: &mut [Lanes; 9],
    ) -> Result<u64, Contradiction>;
}

/// One 128-bit vector per digit: the [`Lanes`] operations (SSE2 on
/// x86-64 with the `simd` feature, plain code otherwise).
pub(crate) struct Narrow;

impl Wide for Narrow {
    #[inline(always)]
    fn copy(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
        Lanes::copy_nine(dst, src);
    }

    #[inline(always)]
    fn differ(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
        Lanes::differ_nine(a, b)
    }

    #[inline(always)]
    fn clear(masks: &mut [Lanes; 9], cells: Lanes) -> u64 {
        let mut changed = 0;
        for (d, m) in masks.iter_mut().enumerate() {
            changed |= u64::from(m.and(cells).nonzero()) << (4 * d);
            *m = m.and_not(cells);
        }
        changed
    }

    #[inline(always)]
    fn segments(band: u32) -> usize {
        tables::segments(band)
    }

    #[inline(always)]
    fn stack_keep(columns: u32) -> Result<u32, Contradiction> {
        node::stack_keep(columns)
    }

    #[inline(always)]
    fn overlap(masks: &[Lanes; 9], cells: Lanes) -> u64 {
        let mut overlap = 0;
        for (d, m) in masks.iter().enumerate() {
            overlap |= u64::from(m.and(cells).nonzero()) << (4 * d);
        }
        overlap
    }

    #[inline(always)]
    fn at_least_two(masks: &[Lanes; 9]) -> (Lanes, Lanes) {
        let (mut once, mut twice) = (Lanes::ZERO, Lanes::ZERO);
        for &m in masks {
            twice = twice.or(once.and(m));
            once = once.or(m);
        }
        (once, twice)
    }

    #[inline(always)]
    fn at_least_three(masks: &[Lanes; 9]) -> (Lanes, Lanes, Lanes) {
        let (mut once, mut twice, mut thrice) = (Lanes::ZERO, Lanes::ZERO, Lanes::ZERO);
        for &m in masks {
            thrice = thrice.or(twice.and(m));
            twice = twice.or(once.and(m));
            once = once.or(m);
        }
        (once, twice, thrice)
    }

    #[inline(always)]
    fn arrangements(masks: &[Lanes; 9]) -> Arrangements {
        arrange::arrangements(masks)
    }

    #[inline(always)]
    fn triads(masks: &mut [Lanes; 9]) -> u64 {
        arrange::triads(masks)
    }

    #[inline(always)]
    fn covered(givens: &[Lanes; 9], covered: &mut [Lanes; 9]) -> Result<(), Contradiction> {
        node::covered_nine(givens, covered)
    }

    #[inline(always)]
    fn lone_cells(
        cand: &[Lanes; 9],
        unsolved: Lanes,
        placed: &[Lanes; 9],
        lone: &mut [Lanes; 9],
    ) -> Result<u64, Contradiction> {
        fast::lone_cells_nine(cand, unsolved, placed, lone)
    }
}

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(crate) use x86::{Avx2, Avx512};

/// A version of the search's machine code, named by the widest vectors it
/// uses.
///
/// [`Solver::new`](crate::Solver::new) runs the best one this CPU has;
/// [`Solver::with_simd`](crate::Solver::with_simd) picks one, to compare
/// them. Every path gives the same answers and the same counters.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, Engine, SimdPath, Solver};
/// let puzzle = parse_line(
///     b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
/// )
/// .unwrap();
/// let best = SimdPath::detect();
/// assert!(best.is_available());
/// let expected = Solver::new().count_solutions_up_to(&puzzle, 2).unwrap();
/// for path in SimdPath::ALL.into_iter().filter(|p| p.is_available()) {
///     let mut solver = Solver::with_simd(path).unwrap();
///     assert_eq!(solver.count_solutions_up_to(&puzzle, 2).unwrap(), expected);
/// }
/// assert_eq!("AVX2".parse::<SimdPath>(), Ok(SimdPath::Avx2));
/// assert_eq!(SimdPath::Avx2.to_string(), "avx2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum SimdPath {
    /// Plain code (a build without the `simd` feature, or not x86-64).
    Portable,
    /// 128-bit SSE2 vectors, which every x86-64 CPU has.
    Sse2,
    /// 256-bit AVX2 vectors, with BMI1/2, POPCNT and LZCNT (x86-64-v3).
    Avx2,
    /// 512-bit AVX-512 vectors (F, VL, BW, DQ) on top of AVX2's set
    /// (x86-64-v4).
    Avx512,
}

impl std::str::FromStr for SimdPath {
    type Err = String;

    /// Parses a path name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<SimdPath, String> {
        crate::names::parse_name("SIMD path", &SimdPath::ALL, SimdPath::as_str, s)
    }
}

impl SimdPath {
    /// Every path, narrowest first.
    pub const ALL: [SimdPath; 4] = [
        SimdPath::Portable,
        SimdPath::Sse2,
        SimdPath::Avx2,
        SimdPath::Avx512,
    ];

    /// The name shown by `bench` and accepted by `--simd`.
    pub fn as_str(self) -> &'static str {
        match self {
            SimdPath::Portable => "portable",
            SimdPath::Sse2 => "sse2",
            SimdPath::Avx2 => "avx2",
            SimdPath::Avx512 => "avx512",
        }
    }

    /// The best path this build can run on this CPU, detected once per
    /// process.
    pub fn detect() -> SimdPath {
        static BEST: OnceLock<SimdPath> = OnceLock::new();
        *BEST.get_or_init(|| {
            SimdPath::ALL
                .into_iter()
                .rev()
                .find(|p| p.is_available())
                .unwrap_or(SimdPath::Portable)
        })
    }

    /// Whether this build has the path and this CPU can run it. A build
    /// with the `simd` feature on x86-64 has SSE2, AVX2 and AVX-512 (each
    /// where the CPU has it); any other build has only the portable path.
    pub fn is_available(self) -> bool {
        #[cfg(all(feature = "simd", target_arch = "x86_64"))]
        {
            match self {
                SimdPath::Portable => false,
                SimdPath::Sse2 => true,
                SimdPath::Avx2 => x86::has_avx2(),
                SimdPath::Avx512 => x86::has_avx2() && x86::has_avx512(),
            }
        }
        #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
        {
            self == SimdPath::Portable
        }
    }
}

impl std::fmt::Display for SimdPath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The AVX2 and AVX-512 versions. Each function is built with its target
/// features and is only reached from a search built with the same ones,
/// after [`SimdPath::is_available`] said yes: that is what makes the
/// `unsafe` calls sound.
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod x86 {
    use super::{Arrangements, Contradiction, Lanes, Wide};
    use std::arch::x86_64::*;

    /// The features of [`super::SimdPath::Avx2`].
    pub(super) fn has_avx2() -> bool {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("lzcnt")
    }

    /// The features [`super::SimdPath::Avx512`] adds to AVX2's.
    pub(super) fn has_avx512() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
    }

    /// The first cell of each (row, box) segment of a band.
    const SEGMENT_FIRST: u32 = 0x124_9249;

    /// [`super::tables::segments`] by one bit gather (BMI2's `pext`)
    /// instead of three table loads: each segment's cells folded onto its
    /// first, then the nine first cells packed. The band check runs it for
    /// every mask it looks at: 4-6% fewer instructions on every set
    /// (issue 41). (`pext` is microcoded, and slow, on AMD CPUs before
    /// Zen 3; fast on Intel since Haswell and on Zen 3 and later.)
    #[target_feature(enable = "bmi2")]
    #[inline]
    fn segments(band: u32) -> usize {
        // The mask changes nothing (nine bits gathered) but tells the
        // compiler the result indexes a 512-entry table: an `and` instead
        // of a bounds check.
        (_pext_u32(band | band >> 1 | band >> 2, SEGMENT_FIRST) & 0x1FF) as usize
    }

    /// The columns of stack 0 in a packed per-band column mask (bits
    /// `9 * b..9 * b + 3`); stack `s`'s are these shifted by `3 * s`.
    const STACK_0: u32 = 0x1C_0E07;

    /// [`super::node::stack_keep`] by bit gathers and deposits (BMI2's
    /// `pext` and `pdep`): each stack's band-column pattern gathered
    /// straight from the packed columns, and each filtered pattern put
    /// back, instead of transposing the 3x3 groups twice with shifts.
    #[target_feature(enable = "bmi2")]
    #[inline]
    fn stack_keep(columns: u32) -> Result<u32, Contradiction> {
        let mut keep = 0;
        for s in 0..3 {
            let stack = STACK_0 << (3 * s);
            let pattern = (_pext_u32(columns, stack) & 0x1FF) as usize;
            let allowed = u32::from(super::tables::MATCHED_SEGMENTS[pattern]);
            if allowed == 0 {
                return Err(Contradiction);
            }
            keep |= _pdep_u32(allowed, stack);
        }
        Ok(keep)
    }

    /// Two digits per vector: digits 0-1, 2-3, 4-5 and 6-7 as 256-bit
    /// vectors, digit 8 as a 128-bit one.
    pub(crate) struct Avx2;

    /// Four digits per vector: digits 0-3 and 4-7 as 512-bit vectors,
    /// digit 8 as a 128-bit one.
    pub(crate) struct Avx512;

    // Pointer helpers. `Lanes` is 16 bytes and 16-byte aligned, so the
    // nine masks are 144 contiguous bytes; wider loads are unaligned ones.
    #[inline(always)]
    fn at(masks: &[Lanes; 9], d: usize) -> *const Lanes {
        masks[d..].as_ptr()
    }

    #[inline(always)]
    fn at_mut(masks: &mut [Lanes; 9], d: usize) -> *mut Lanes {
        masks[d..].as_mut_ptr()
    }

    /// Digit 8 (the one outside the wide vectors).
    #[inline(always)]
    fn last(masks: &[Lanes; 9]) -> __m128i {
        // SAFETY: an aligned 16-byte load of one `Lanes`; SSE2 is part of
        // x86-64.
        unsafe { _mm_load_si128(at(masks, 8).cast()) }
    }

    #[inline(always)]
    fn lanes(v: __m128i) -> Lanes {
        let mut out = Lanes::ZERO;
        // SAFETY: an aligned 16-byte store into one `Lanes`.
        unsafe { _mm_store_si128(out.0.as_mut_ptr().cast(), v) };
        out
    }

    #[inline(always)]
    fn vector(l: Lanes) -> __m128i {
        // SAFETY: an aligned 16-byte load of one `Lanes`.
        unsafe { _mm_load_si128(l.0.as_ptr().cast()) }
    }

    /// Merges two "at least one / two" counts of disjoint digit sets.
    #[inline(always)]
    fn merge_two(a: (__m128i, __m128i), b: (__m128i, __m128i)) -> (__m128i, __m128i) {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let once = _mm_or_si128(a.0, b.0);
            let twice = _mm_or_si128(_mm_or_si128(a.1, b.1), _mm_and_si128(a.0, b.0));
            (once, twice)
        }
    }

    /// Merges two "at least one / two / three" counts of disjoint digit
    /// sets.
    #[inline(always)]
    fn merge_three(
        a: (__m128i, __m128i, __m128i),
        b: (__m128i, __m128i, __m128i),
    ) -> (__m128i, __m128i, __m128i) {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let (once, twice) = merge_two((a.0, a.1), (b.0, b.1));
            let thrice = _mm_or_si128(
                _mm_or_si128(a.2, b.2),
                _mm_or_si128(_mm_and_si128(a.1, b.0), _mm_and_si128(a.0, b.1)),
            );
            (once, twice, thrice)
        }
    }

    /// The low and high 128-bit halves of a 256-bit vector.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn halves(v: __m256i) -> (__m128i, __m128i) {
        (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
    }

    /// The low and high 256-bit halves of a 512-bit vector.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn halves512(v: __m512i) -> (__m256i, __m256i) {
        (_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v))
    }

    mod avx2 {
        use super::*;

        pub(super) use crate::solver::arrange_x86::avx2::{
            arrangements, covered, lone_cells, triads,
        };

        #[target_feature(enable = "avx2")]
        #[inline]
        fn pair(masks: &[Lanes; 9], d: usize) -> __m256i {
            // SAFETY: digits `d` and `d + 1` (d <= 6) are 32 bytes inside
            // the array.
            unsafe { _mm256_loadu_si256(at(masks, d).cast()) }
        }

        /// Bit `4 * d + k` set where lane `k` of digit `d`'s (0..8) entry
        /// in `all` is all ones (entry `i` holds digits `2i` and `2i + 1`,
        /// each lane all ones or zero): one byte per lane by two rounds of
        /// packing, put back in digit order, then one byte mask (four
        /// moves of four bits each, with their shifts and ors, before).
        #[target_feature(enable = "avx2")]
        #[inline]
        fn lane_bits(all: [__m256i; 4]) -> u64 {
            // Words: digits 0, 2 | 1, 3 (per 128-bit half), and 4, 6 | 5, 7.
            let low = _mm256_packs_epi32(all[0], all[1]);
            let high = _mm256_packs_epi32(all[2], all[3]);
            // Bytes, four per digit: 0, 2, 4, 6 | 1, 3, 5, 7.
            let bytes = _mm256_packs_epi16(low, high);
            let ordered =
                _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            u64::from(_mm256_movemask_epi8(ordered) as u32)
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn copy(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
            let [a, b, c, d] = [pair(src, 0), pair(src, 2), pair(src, 4), pair(src, 6)];
            let e = last(src);
            // SAFETY: stores of the same extents into `dst`.
            unsafe {
                _mm256_storeu_si256(at_mut(dst, 0).cast(), a);
                _mm256_storeu_si256(at_mut(dst, 2).cast(), b);
                _mm256_storeu_si256(at_mut(dst, 4).cast(), c);
                _mm256_storeu_si256(at_mut(dst, 6).cast(), d);
                _mm_store_si128(at_mut(dst, 8).cast(), e);
            }
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn differ(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
            // Equal lanes become all ones.
            let eq = [0, 2, 4, 6].map(|d| _mm256_cmpeq_epi32(pair(a, d), pair(b, d)));
            let eq8 = _mm_cmpeq_epi32(last(a), last(b));
            let same8 = _mm_movemask_ps(_mm_castsi128_ps(eq8)) as u32 as u64;
            let same = lane_bits(eq) | same8 << 32;
            !same & ((1 << 36) - 1)
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn clear(masks: &mut [Lanes; 9], cells: Lanes) -> u64 {
            let narrow = vector(cells);
            let wide = _mm256_broadcastsi128_si256(narrow);
            // Lanes whose overlap with `cells` is zero keep their value.
            let mut kept = [_mm256_setzero_si256(); 4];
            for (i, d) in [0, 2, 4, 6].into_iter().enumerate() {
                let m = pair(masks, d);
                kept[i] = _mm256_cmpeq_epi32(_mm256_and_si256(m, wide), _mm256_setzero_si256());
                // SAFETY: the extent `pair` loaded.
                unsafe {
                    _mm256_storeu_si256(at_mut(masks, d).cast(), _mm256_andnot_si256(wide, m))
                };
            }
            let mut same = lane_bits(kept);
            let m = last(masks);
            let kept = _mm_cmpeq_epi32(_mm_and_si128(m, narrow), _mm_setzero_si128());
            same |= (_mm_movemask_ps(_mm_castsi128_ps(kept)) as u32 as u64) << 32;
            // SAFETY: digit 8's own 16 bytes, aligned.
            unsafe { _mm_store_si128(at_mut(masks, 8).cast(), _mm_andnot_si128(narrow, m)) };
            !same & ((1 << 36) - 1)
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn overlap(masks: &[Lanes; 9], cells: Lanes) -> u64 {
            let narrow = vector(cells);
            let wide = _mm256_broadcastsi128_si256(narrow);
            let apart = [0, 2, 4, 6].map(|d| {
                _mm256_cmpeq_epi32(
                    _mm256_and_si256(pair(masks, d), wide),
                    _mm256_setzero_si256(),
                )
            });
            let mut none = lane_bits(apart);
            let apart = _mm_cmpeq_epi32(_mm_and_si128(last(masks), narrow), _mm_setzero_si128());
            none |= (_mm_movemask_ps(_mm_castsi128_ps(apart)) as u32 as u64) << 32;
            !none & ((1 << 36) - 1)
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn at_least_two(masks: &[Lanes; 9]) -> (Lanes, Lanes) {
            let (mut once, mut twice) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for d in [0, 2, 4, 6] {
                let m = pair(masks, d);
                twice = _mm256_or_si256(twice, _mm256_and_si256(once, m));
                once = _mm256_or_si256(once, m);
            }
            let (o0, o1) = halves(once);
            let (t0, t1) = halves(twice);
            let m = last(masks);
            let (once, twice) = merge_two(merge_two((o0, t0), (o1, t1)), (m, _mm_setzero_si128()));
            (lanes(once), lanes(twice))
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn at_least_three(masks: &[Lanes; 9]) -> (Lanes, Lanes, Lanes) {
            let zero = _mm256_setzero_si256();
            let (mut once, mut twice, mut thrice) = (zero, zero, zero);
            for d in [0, 2, 4, 6] {
                let m = pair(masks, d);
                thrice = _mm256_or_si256(thrice, _mm256_and_si256(twice, m));
                twice = _mm256_or_si256(twice, _mm256_and_si256(once, m));
                once = _mm256_or_si256(once, m);
            }
            let (o0, o1) = halves(once);
            let (t0, t1) = halves(twice);
            let (h0, h1) = halves(thrice);
            let none = _mm_setzero_si128();
            let (once, twice, thrice) = merge_three(
                merge_three((o0, t0, h0), (o1, t1, h1)),
                (last(masks), none, none),
            );
            (lanes(once), lanes(twice), lanes(thrice))
        }
    }

    mod avx512 {
        use super::*;

        pub(super) use crate::solver::arrange_x86::avx512::{
            arrangements, covered, lone_cells, triads,
        };

        #[target_feature(enable = "avx512f")]
        #[inline]
        fn quad(masks: &[Lanes; 9], d: usize) -> __m512i {
            // SAFETY: digits `d..d + 4` (d <= 4) are 64 bytes inside the
            // array.
            unsafe { _mm512_loadu_si512(at(masks, d).cast()) }
        }

        #[target_feature(enable = "avx512f")]
        #[inline]
        pub(super) fn copy(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
            let (a, b, e) = (quad(src, 0), quad(src, 4), last(src));
            // SAFETY: stores of the same extents into `dst`.
            unsafe {
                _mm512_storeu_si512(at_mut(dst, 0).cast(), a);
                _mm512_storeu_si512(at_mut(dst, 4).cast(), b);
                _mm_store_si128(at_mut(dst, 8).cast(), e);
            }
        }

        #[target_feature(enable = "avx512f,avx512vl")]
        #[inline]
        pub(super) fn differ(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
            // One mask bit per differing lane, sixteen per vector.
            let low = _mm512_cmpneq_epi32_mask(quad(a, 0), quad(b, 0));
            let high = _mm512_cmpneq_epi32_mask(quad(a, 4), quad(b, 4));
            let eight = _mm_cmpneq_epi32_mask(last(a), last(b));
            u64::from(low) | u64::from(high) << 16 | u64::from(eight & 0xF) << 32
        }

        #[target_feature(enable = "avx512f,avx512vl")]
        #[inline]
        pub(super) fn clear(masks: &mut [Lanes; 9], cells: Lanes) -> u64 {
            let narrow = vector(cells);
            let wide = _mm512_broadcast_i32x4(narrow);
            let mut changed = 0u64;
            for d in [0, 4] {
                let m = quad(masks, d);
                // One mask bit per lane that overlaps `cells`.
                changed |= u64::from(_mm512_test_epi32_mask(m, wide)) << (4 * d);
                // SAFETY: the extent `quad` loaded.
                unsafe {
                    _mm512_storeu_si512(at_mut(masks, d).cast(), _mm512_andnot_si512(wide, m))
                };
            }
            let m = last(masks);
            changed |= u64::from(_mm_test_epi32_mask(m, narrow) & 0xF) << 32;
            // SAFETY: digit 8's own 16 bytes, aligned.
            unsafe { _mm_store_si128(at_mut(masks, 8).cast(), _mm_andnot_si128(narrow, m)) };
            changed
        }

        #[target_feature(enable = "avx512f,avx512vl")]
        #[inline]
        pub(super) fn overlap(masks: &[Lanes; 9], cells: Lanes) -> u64 {
            let narrow = vector(cells);
            let wide = _mm512_broadcast_i32x4(narrow);
            let low = _mm512_test_epi32_mask(quad(masks, 0), wide);
            let high = _mm512_test_epi32_mask(quad(masks, 4), wide);
            let eight = _mm_test_epi32_mask(last(masks), narrow) & 0xF;
            u64::from(low) | u64::from(high) << 16 | u64::from(eight) << 32
        }

        /// Folds a 512-bit "at least one / two" count of four digit groups
        /// into one 128-bit count.
        #[target_feature(enable = "avx512f,avx2")]
        #[inline]
        fn fold_two(once: __m512i, twice: __m512i) -> (__m128i, __m128i) {
            let (o0, o1) = halves512(once);
            let (t0, t1) = halves512(twice);
            let once = _mm256_or_si256(o0, o1);
            let twice = _mm256_or_si256(_mm256_or_si256(t0, t1), _mm256_and_si256(o0, o1));
            let (o0, o1) = halves(once);
            let (t0, t1) = halves(twice);
            merge_two((o0, t0), (o1, t1))
        }

        #[target_feature(enable = "avx512f,avx2")]
        #[inline]
        pub(super) fn at_least_two(masks: &[Lanes; 9]) -> (Lanes, Lanes) {
            let (a, b) = (quad(masks, 0), quad(masks, 4));
            let (once, twice) = fold_two(_mm512_or_si512(a, b), _mm512_and_si512(a, b));
            let (once, twice) = merge_two((once, twice), (last(masks), _mm_setzero_si128()));
            (lanes(once), lanes(twice))
        }

        #[target_feature(enable = "avx512f,avx2")]
        #[inline]
        pub(super) fn at_least_three(masks: &[Lanes; 9]) -> (Lanes, Lanes, Lanes) {
            // Two vectors of four digits each: per lane position, counts
            // of one vector's pair of digits, merged step by step.
            let (a, b) = (quad(masks, 0), quad(masks, 4));
            let (once, twice) = (_mm512_or_si512(a, b), _mm512_and_si512(a, b));
            let (o0, o1) = halves512(once);
            let (t0, t1) = halves512(twice);
            let once256 = _mm256_or_si256(o0, o1);
            let twice256 = _mm256_or_si256(_mm256_or_si256(t0, t1), _mm256_and_si256(o0, o1));
            let thrice256 = _mm256_or_si256(_mm256_and_si256(t0, o1), _mm256_and_si256(o0, t1));
            let (o0, o1) = halves(once256);
            let (t0, t1) = halves(twice256);
            let (h0, h1) = halves(thrice256);
            let none = _mm_setzero_si128();
            let (once, twice, thrice) = merge_three(
                merge_three((o0, t0, h0), (o1, t1, h1)),
                (last(masks), none, none),
            );
            (lanes(once), lanes(twice), lanes(thrice))
        }
    }

    /// Implements [`Wide`] for `$path` by calling the functions of module
    /// `$module`, built with that path's target features.
    ///
    /// The trait methods are inlined into the search built for the same
    /// features (`search.rs`), where the calls are inlined in turn.
    macro_rules! wide_path {
        ($path:ty, $module:ident) => {
            impl Wide for $path {
                #[inline(always)]
                fn copy(dst: &mut [Lanes; 9], src: &[Lanes; 9]) {
                    // SAFETY: reached only from the search built for this
                    // path, run once its features were detected (see the
                    // module).
                    unsafe { $module::copy(dst, src) }
                }

                #[inline(always)]
                fn differ(a: &[Lanes; 9], b: &[Lanes; 9]) -> u64 {
                    // SAFETY: as above.
                    unsafe { $module::differ(a, b) }
                }

                #[inline(always)]
                fn clear(masks: &mut [Lanes; 9], cells: Lanes) -> u64 {
                    // SAFETY: as above.
                    unsafe { $module::clear(masks, cells) }
                }

                #[inline(always)]
                fn segments(band: u32) -> usize {
                    // SAFETY: as above.
                    unsafe { segments(band) }
                }

                #[inline(always)]
                fn stack_keep(columns: u32) -> Result<u32, Contradiction> {
                    // SAFETY: as above.
                    unsafe { stack_keep(columns) }
                }

                #[inline(always)]
                fn overlap(masks: &[Lanes; 9], cells: Lanes) -> u64 {
                    // SAFETY: as above.
                    unsafe { $module::overlap(masks, cells) }
                }

                #[inline(always)]
                fn at_least_two(masks: &[Lanes; 9]) -> (Lanes, Lanes) {
                    // SAFETY: as above.
                    unsafe { $module::at_least_two(masks) }
                }

                #[inline(always)]
                fn at_least_three(masks: &[Lanes; 9]) -> (Lanes, Lanes, Lanes) {
                    // SAFETY: as above.
                    unsafe { $module::at_least_three(masks) }
                }

                #[inline(always)]
                fn arrangements(masks: &[Lanes; 9]) -> Arrangements {
                    // SAFETY: as above.
                    unsafe { $module::arrangements(masks) }
                }

                #[inline(always)]
                fn triads(masks: &mut [Lanes; 9]) -> u64 {
                    // SAFETY: as above.
                    unsafe { $module::triads(masks) }
                }

                #[inline(always)]
                fn covered(
                    givens: &[Lanes; 9],
                    covered: &mut [Lanes; 9],
                ) -> Result<(), Contradiction> {
                    // SAFETY: as above.
                    unsafe { $module::covered(givens, covered) }
                }

                #[inline(always)]
                fn lone_cells(
                    cand: &[Lanes; 9],
                    unsolved: Lanes,
                    placed: &[Lanes; 9],
                    lone: &mut [Lanes; 9],
                ) -> Result<u64, Contradiction> {
                    // SAFETY: as above.
                    unsafe { $module::lone_cells(cand, unsolved, placed, lone) }
                }
            }
        };
    }

    wide_path!(Avx2, avx2);
    wide_path!(Avx512, avx512);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    use crate::solver::tables::BAND;
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    use crate::testdata::required;
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    use crate::testdata::{grid, SOLVED};

    /// Random masks, with repeats and zeros so every case of each
    /// operation comes up.
    fn random_masks(rng: &mut Rng) -> [Lanes; 9] {
        let base = rng.next_u64() as u32;
        std::array::from_fn(|_| {
            Lanes(std::array::from_fn(|_| match rng.below(4) {
                0 => 0,
                1 => base,
                _ => (rng.next_u64() & rng.next_u64()) as u32,
            }))
        })
    }

    /// Checks `W`'s operations against [`Narrow`]'s on many random masks.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    fn agree_with_narrow<W: Wide>() {
        let mut rng = Rng::new(0x2545_F491);
        for _ in 0..3000 {
            let a = random_masks(&mut rng);
            let mut b = random_masks(&mut rng);
            if rng.below(3) == 0 {
                b = a;
                b[rng.index(9)].0[rng.index(4)] ^= 1 << rng.below(27);
            }
            assert_eq!(W::differ(&a, &b), Narrow::differ(&a, &b));
            assert_eq!(W::differ(&a, &a), 0);
            assert_eq!(W::at_least_two(&a), Narrow::at_least_two(&a));
            assert_eq!(W::overlap(&a, b[3]), Narrow::overlap(&a, b[3]));
            let band = a[0].0[0] & BAND;
            assert_eq!(W::segments(band), Narrow::segments(band));
            for columns in [a[1].0[0], a[2].0[1] | a[3].0[2], !a[4].0[0]] {
                let columns = columns & BAND;
                assert_eq!(W::stack_keep(columns), Narrow::stack_keep(columns));
            }
            assert_eq!(W::at_least_three(&a), Narrow::at_least_three(&a));
            assert_eq!(W::arrangements(&a), Narrow::arrangements(&a));
            let (mut wide, mut narrow) = (a, a);
            assert_eq!(W::triads(&mut wide), Narrow::triads(&mut narrow));
            assert_eq!(wide, narrow);
            let mut copy = [Lanes::ZERO; 9];
            W::copy(&mut copy, &a);
            assert_eq!(copy, a);
            let (mut wide, mut narrow) = (a, a);
            let changed = W::clear(&mut wide, b[4]);
            assert_eq!(changed, Narrow::clear(&mut narrow, b[4]));
            assert_eq!(wide, narrow);
            assert_eq!(changed, Narrow::differ(&wide, &a));
            // The fast path's masks: lane 3 zero, placed cells out of
            // `unsolved`; often a contradiction, so also near-solved ones.
            let band = |l: Lanes| l.and(Lanes::bands(BAND));
            let unsolved = band(b[0]);
            let cand = a.map(band);
            let placed = b.map(|p| band(p).and_not(unsolved));
            let full = cand.map(|c| c.or(unsolved.and_not(b[1])));
            // Givens: a solution's cells, some left out, one sometimes
            // changed (often a clash).
            let mut cells = *grid(SOLVED).cells();
            for c in &mut cells {
                if rng.below(3) == 0 {
                    *c = 0;
                }
            }
            if rng.below(2) == 0 {
                cells[rng.index(81)] = 1 + rng.below(9) as u8;
            }
            let givens = Lanes::givens(&cells);
            let (mut wide, mut narrow) = ([Lanes::ZERO; 9], [Lanes::ZERO; 9]);
            let w = W::covered(&givens, &mut wide);
            assert_eq!(w, Narrow::covered(&givens, &mut narrow));
            if w.is_ok() {
                assert_eq!(wide, narrow);
            }
            for cand in [cand, full] {
                let (mut wide, mut narrow) = ([Lanes::ZERO; 9], [Lanes::ZERO; 9]);
                let w = W::lone_cells(&cand, unsolved, &placed, &mut wide);
                assert_eq!(w, Narrow::lone_cells(&cand, unsolved, &placed, &mut narrow));
                if w.is_ok() {
                    assert_eq!(wide, narrow);
                }
            }
        }
    }

    #[test]
    fn narrow_counts_match_a_count_per_bit() {
        let mut rng = Rng::new(7);
        for _ in 0..500 {
            let masks = random_masks(&mut rng);
            let (once, twice, thrice) = Narrow::at_least_three(&masks);
            let mut cleared = masks;
            let changed = Narrow::clear(&mut cleared, masks[0]);
            assert_eq!(changed, Narrow::differ(&cleared, &masks));
            assert_eq!(Narrow::at_least_two(&masks), (once, twice));
            for k in 0..4 {
                for bit in 0..32 {
                    let n = masks.iter().filter(|m| m.0[k] >> bit & 1 == 1).count();
                    assert_eq!(once.0[k] >> bit & 1 == 1, n >= 1);
                    assert_eq!(twice.0[k] >> bit & 1 == 1, n >= 2);
                    assert_eq!(thrice.0[k] >> bit & 1 == 1, n >= 3);
                }
            }
        }
    }

    /// Skipped (with a message) on a CPU without AVX2, but a failure under
    /// `CI=true`: CI's machine has it, so there the test must run.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    #[test]
    fn avx2_agrees_with_narrow() {
        if required("AVX2", SimdPath::Avx2.is_available()) {
            agree_with_narrow::<Avx2>();
        }
    }

    /// As [`avx2_agrees_with_narrow`], for AVX-512.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    #[test]
    fn avx512_agrees_with_narrow() {
        if required("AVX-512", SimdPath::Avx512.is_available()) {
            agree_with_narrow::<Avx512>();
        }
    }

    #[test]
    fn paths_have_names_and_the_best_is_available() {
        for path in SimdPath::ALL {
            assert_eq!(path.as_str().parse::<SimdPath>(), Ok(path));
        }
        assert!("mmx".parse::<SimdPath>().is_err());
        assert!(SimdPath::detect().is_available());
        let simd = cfg!(all(feature = "simd", target_arch = "x86_64"));
        assert_eq!(SimdPath::Sse2.is_available(), simd);
        assert_eq!(SimdPath::Portable.is_available(), !simd);
    }
}
