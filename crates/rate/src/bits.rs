//! Bit counting for the rater's masks: a candidate mask holds digit `d` at
//! bit `d - 1`, so its count is a lookup in a 512-entry table (the crate
//! is built without `target-cpu`, so `count_ones` compiles to a loop of
//! shifts, not one instruction).

/// The number of set bits of every 9-bit value.
pub(crate) const ONES_IN_NINE: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut value = 0;
    while value < 512 {
        table[value] = (value as u32).count_ones() as u8;
        value += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::ONES_IN_NINE;

    #[test]
    fn the_table_counts_bits() {
        for (value, &count) in ONES_IN_NINE.iter().enumerate() {
            assert_eq!(u32::from(count), (value as u32).count_ones());
        }
    }
}
