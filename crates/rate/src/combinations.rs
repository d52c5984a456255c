//! The k-element subsets of `0..n` as bit masks, in increasing numeric
//! order (Gosper's hack): the order in which Sudoku Explainer tries
//! tuples of cells, values and lines, which decides the step it finds
//! first.

/// The subsets of `k` elements of `0..n` (`1 <= k <= n <= 31`), smallest
/// mask first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Combinations {
    next: u32,
    end: u32,
}

impl Combinations {
    /// The `k`-subsets of `0..n`: none when `k > n`, only the empty set
    /// when `k == 0` (as SE's generator gives it).
    pub(crate) fn new(k: u32, n: u32) -> Combinations {
        if k > n {
            return Combinations { next: 1, end: 0 };
        }
        if k == 0 {
            return Combinations { next: 0, end: 1 };
        }
        Combinations {
            next: (1 << k) - 1,
            end: 1 << n,
        }
    }
}

impl Iterator for Combinations {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next >= self.end {
            return None;
        }
        let current = self.next;
        if current == 0 {
            self.next = self.end;
            return Some(0);
        }
        let lowest = current & current.wrapping_neg();
        let ripple = current + lowest;
        // Gosper's `/ lowest` as a shift: `lowest` is a power of two.
        self.next = ripple | ((current ^ ripple) >> (2 + current.trailing_zeros()));
        Some(current)
    }
}

/// The subsets of `k` of the bits of `mask`, smallest mask first: the
/// subsets of `k` elements of `0..16` that [`Combinations`] gives and that
/// lie within `mask`, without going through the others.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SubsetsOf {
    /// The subsets of the positions of `mask`'s bits.
    positions: Combinations,
    mask: u32,
}

impl SubsetsOf {
    /// The `k`-subsets of `mask`'s bits (a mask of nine bits: digits,
    /// or the cells of a unit).
    pub(crate) fn new(k: u32, mask: u16) -> SubsetsOf {
        debug_assert!(mask <= 0x1FF, "nine bits at most");
        SubsetsOf {
            positions: Combinations::new(k, crate::bits::count(mask)),
            mask: u32::from(mask),
        }
    }
}

impl Iterator for SubsetsOf {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        // Position i of a subset stands for the i-th lowest bit of the
        // mask: that keeps the order.
        let mut positions = self.positions.next()?;
        let (mut bits, mut subset) = (self.mask, 0);
        while positions != 0 {
            let lowest = bits & bits.wrapping_neg();
            if positions & 1 != 0 {
                subset |= lowest;
            }
            positions >>= 1;
            bits &= bits - 1;
        }
        Some(subset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_increasing_numeric_order() {
        let all: Vec<u32> = Combinations::new(3, 5).collect();
        assert_eq!(
            all,
            vec![
                0b00111, 0b01011, 0b01101, 0b01110, 0b10011, 0b10101, 0b10110, 0b11001, 0b11010,
                0b11100
            ]
        );
        assert_eq!(Combinations::new(2, 9).count(), 36);
        assert_eq!(Combinations::new(4, 4).collect::<Vec<_>>(), vec![0b1111]);
        assert_eq!(Combinations::new(3, 2).count(), 0);
        assert_eq!(Combinations::new(0, 5).collect::<Vec<_>>(), vec![0]);
        // Every k-subset of 0..12 once, in increasing order.
        for k in 1..=12u32 {
            let all: Vec<u32> = Combinations::new(k, 12).collect();
            let expected: Vec<u32> = (0..1u32 << 12).filter(|m| m.count_ones() == k).collect();
            assert_eq!(all, expected, "k = {k}");
        }
    }

    #[test]
    fn subsets_of_a_mask_are_the_combinations_within_it() {
        for mask in [0u16, 0b1, 0b1_0110_1001, 0x1FF, 0b1_0000_0010] {
            for k in 1..=9u32 {
                let within: Vec<u32> = Combinations::new(k, 9)
                    .filter(|&t| t & !u32::from(mask) == 0)
                    .collect();
                let subsets: Vec<u32> = SubsetsOf::new(k, mask).collect();
                assert_eq!(subsets, within, "mask {mask:#b}, k = {k}");
            }
        }
    }
}
