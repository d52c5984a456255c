//! The rater's bit masks, counted and walked in one place: [`count`] gives
//! the number of set bits of a candidate mask (digit `d` at bit `d - 1`),
//! [`indices`] walks the set bits of any mask (`u16` masks of digits or
//! unit positions, `u32` tuples, the 128-bit [`CellSet`]) lowest first,
//! and [`digits`] walks a candidate mask as digits 1..=9.
//!
//! A count is a lookup in a 512-entry table: the crate is built without
//! `target-cpu`, so `count_ones` compiles to a loop of shifts, not one
//! instruction.
//!
//! [`CellSet`]: crate::cells::CellSet

/// The number of set bits of every 9-bit value.
const ONES_IN_NINE: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut value = 0;
    while value < 512 {
        table[value] = (value as u32).count_ones() as u8;
        value += 1;
    }
    table
};

/// The number of set bits of a 9-bit mask (a table lookup).
#[inline(always)]
pub(crate) fn count(mask: u16) -> u32 {
    u32::from(ONES_IN_NINE[usize::from(mask)])
}

/// A mask whose set bits [`SetBits`] walks.
pub(crate) trait Mask: Copy {
    /// Whether no bit is set.
    fn is_zero(self) -> bool;
    /// The index of the lowest set bit (the mask is not zero).
    fn lowest(self) -> usize;
    /// The mask without its lowest set bit.
    fn without_lowest(self) -> Self;
}

/// Implements [`Mask`] for unsigned integers.
macro_rules! impl_mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}

impl_mask!(u16, u32, u128);

/// The indices of the set bits of a mask, lowest first (see [`indices`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SetBits<M>(pub(crate) M);

impl<M: Mask> Iterator for SetBits<M> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }
}

/// The indices of the set bits of `mask`, lowest first.
#[inline(always)]
pub(crate) fn indices<M: Mask>(mask: M) -> SetBits<M> {
    SetBits(mask)
}

/// The digits (1..=9) of a candidate mask (bit `d - 1` for digit `d`),
/// in increasing order.
#[inline(always)]
pub(crate) fn digits(mask: u16) -> impl Iterator<Item = u8> {
    indices(mask).map(|i| i as u8 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_counts_bits() {
        for (value, &n) in ONES_IN_NINE.iter().enumerate() {
            assert_eq!(u32::from(n), (value as u32).count_ones());
        }
        for mask in 0..=0x1FFu16 {
            assert_eq!(count(mask), mask.count_ones());
        }
    }

    #[test]
    fn set_bits_come_lowest_first() {
        assert_eq!(indices(0b1010_0101u16).collect::<Vec<_>>(), [0, 2, 5, 7]);
        assert_eq!(indices(1u128 << 80 | 1).collect::<Vec<_>>(), [0, 80]);
        assert_eq!(indices(0u32).count(), 0);
        assert_eq!(
            digits(0x1FF).collect::<Vec<_>>(),
            (1..=9).collect::<Vec<_>>()
        );
        assert_eq!(digits(0b100_0010).collect::<Vec<_>>(), [2, 7]);
    }
}
