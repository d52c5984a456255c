//! [`Rng`]: the crate's one seeded pseudo-random generator, xoshiro256**
//! seeded through SplitMix64, with independent per-item streams
//! ([`Rng::for_item`]).
//!
//! `generate` (the puzzles a seed gives are part of its reproducibility
//! promise), `bench --permute`, the canonical-form tests and the test
//! corpus all draw from it, so its output is fixed: the known-answer test
//! below pins the first outputs for fixed seeds, and a change to them is a
//! change of `generate`'s output (a version bump and a CHANGELOG line).

/// The SplitMix64 increment (the golden-ratio constant).
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijection on `u64` that mixes bits
/// well, used to expand seeds into generator states.
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A small seeded pseudo-random generator: xoshiro256** (Blackman and
/// Vigna), its 256-bit state expanded from the seed with SplitMix64 as the
/// authors recommend. Not cryptographic; fast, and reproducible across
/// platforms.
///
/// # Example
/// ```
/// use batchdoku_core::{Rng, Transform};
/// let mut rng = Rng::new(7);
/// let roll = rng.below(6) + 1;
/// assert!((1..=6).contains(&roll));
/// let mut cards = [1, 2, 3, 4, 5];
/// rng.shuffle(&mut cards);
/// cards.sort();
/// assert_eq!(cards, [1, 2, 3, 4, 5]);
///
/// // The same seed gives the same numbers, on every platform.
/// assert_eq!(Rng::new(7).next_u64(), Rng::new(7).next_u64());
/// // Item 3 of a batch has its own stream, whoever draws it and when.
/// assert_eq!(Rng::for_item(7, 3), Rng::for_item(7, 3));
/// assert_ne!(Rng::for_item(7, 3).next_u64(), Rng::for_item(7, 4).next_u64());
///
/// // A random equivalent of a puzzle, as the benchmarks use.
/// let t = Transform::random(&mut rng);
/// assert_eq!(t.inverse().compose(&t), Transform::identity());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator seeded from `seed` (any value, including 0).
    pub fn new(seed: u64) -> Rng {
        let mut s = [0u64; 4];
        for (k, word) in s.iter_mut().enumerate() {
            *word = mix64(seed.wrapping_add(GOLDEN.wrapping_mul(k as u64 + 1)));
        }
        Rng { s }
    }

    /// An independent stream for item `index` of a batch seeded with
    /// `seed`: item `i` is the same whatever thread or order produces it.
    ///
    /// Each state word is `mix(mix(seed) ^ mix(index ^ SALT + k * GOLDEN))`
    /// with the bijective SplitMix64 mix, so every word depends on both
    /// inputs and changing only one of them always changes every word.
    pub fn for_item(seed: u64, index: u64) -> Rng {
        const SALT: u64 = 0xD1B5_4A32_D192_ED03;
        let a = mix64(seed.wrapping_add(GOLDEN));
        let mut s = [0u64; 4];
        for (k, word) in s.iter_mut().enumerate() {
            let b = mix64((index ^ SALT).wrapping_add(GOLDEN.wrapping_mul(k as u64 + 2)));
            *word = mix64(a ^ b);
        }
        Rng { s }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's multiply-and-reject method,
    /// so without modulo bias). Returns 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform index in `0..n` (0 when `n` is 0).
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Shuffles `items` uniformly in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_streams_differ() {
        let a: Vec<u64> = {
            let mut r = Rng::new(42);
            (0..8).map(|_| r.next_u64()).collect()
        };
        let mut r = Rng::new(42);
        let b: Vec<u64> = (0..8).map(|_| r.next_u64()).collect();
        assert_eq!(a, b);
        let mut other = Rng::new(43);
        assert_ne!(other.next_u64(), a[0]);
        let mut s0 = Rng::for_item(42, 0);
        let mut s1 = Rng::for_item(42, 1);
        let mut t0 = Rng::for_item(43, 0);
        let (x, y, z) = (s0.next_u64(), s1.next_u64(), t0.next_u64());
        assert!(x != y && y != z && x != z);
        assert_eq!(Rng::for_item(42, 1).next_u64(), y);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 10];
        for _ in 0..10_000 {
            let v = r.below(10);
            assert!(v < 10);
            seen[v as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k > 800 && k < 1200), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
        let big = r.below(u64::MAX);
        assert!(big < u64::MAX);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(1);
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }

    /// Known answers: the first outputs for fixed seeds are part of
    /// `generate`'s reproducibility promise, so they are pinned here as
    /// literals. They were computed once by an independent Python
    /// implementation of the definitions (SplitMix64 seeding as in
    /// `new`/`for_item`, then xoshiro256** from Blackman and Vigna's
    /// reference C code), itself checked against the reference vector below:
    ///
    /// ```text
    /// M = 2**64 - 1; G = 0x9E3779B97F4A7C15
    /// def mix(z):
    ///     z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & M
    ///     z = ((z ^ z >> 27) * 0x94D049BB133111EB) & M
    ///     return z ^ z >> 31
    /// rotl = lambda x, k: (x << k | x >> 64 - k) & M
    /// new = lambda seed: [mix((seed + G * (k + 1)) & M) for k in range(4)]
    /// def for_item(seed, i):
    ///     a = mix((seed + G) & M)
    ///     return [mix(a ^ mix(((i ^ 0xD1B54A32D192ED03) + G * (k + 2)) & M)) for k in range(4)]
    /// def next(s):
    ///     r = rotl(s[1] * 5 & M, 7) * 9 & M; t = s[1] << 17 & M
    ///     s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
    ///     s[3] = rotl(s[3], 45); return r
    /// ```
    #[test]
    fn known_answers() {
        // xoshiro256** from the state {1, 2, 3, 4}: the reference C code's
        // first outputs (also rand_xoshiro's test vector).
        let mut r = Rng { s: [1, 2, 3, 4] };
        let first: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
        assert_eq!(first, [11520, 0, 1509978240, 1215971899390074240]);

        let outputs = |mut r: Rng| -> Vec<u64> { (0..4).map(|_| r.next_u64()).collect() };
        assert_eq!(
            outputs(Rng::new(0)),
            [
                0x99ec_5f36_cb75_f2b4,
                0xbf6e_1f78_4956_452a,
                0x1a5f_849d_4933_e6e0,
                0x6aa5_94f1_262d_2d2c
            ]
        );
        assert_eq!(
            outputs(Rng::new(42)),
            [
                0x1578_0b2e_0c2e_c716,
                0x6104_d986_6d11_3a7e,
                0xae17_5332_39e4_99a1,
                0xecb8_ad47_03b3_60a1
            ]
        );
        assert_eq!(
            outputs(Rng::for_item(42, 7)),
            [
                0x7536_e3e1_7aa0_abb0,
                0xcf6a_e55b_8fee_c2d0,
                0x3a12_4104_5b09_fd28,
                0x27e5_c804_20b7_df62
            ]
        );
        // Lemire's `below` on top: 64-bit output times n, high word.
        let mut r = Rng::new(42);
        let draws: Vec<u64> = (0..8).map(|_| r.below(10)).collect();
        assert_eq!(draws, [0, 3, 6, 9, 9, 7, 7, 8]);
    }
}
