//! Constant tables and small bit tricks for the band representation of
//! [`super::state`], all built at compile time and unit-tested here.
//!
//! A *band mask* holds the 27 cells of one band (three rows of nine) for
//! one digit: bit `9 * r + c` is row `r` (0..3) of the band, column `c`
//! (0..9). A *segment* is the three cells where one row of a band crosses
//! one box; a *segment pattern* has bit `3 * r + k` set when row `r` of
//! the band still has the digit somewhere in box `k` of the band.
//!
//! The locked-candidates table ([`MATCHED_SEGMENTS`]) follows the idea of
//! the band "shrink" tables of JCZSolve (Jean-Christophe Zimmermann's
//! solver, as described on the Sudoku Players' Forum and in tdoku's
//! write-up of band-based solvers): within a band each digit sits once in
//! each row and once in each box, so the rows-to-boxes assignment is a
//! permutation of three, and a segment no such permutation uses can be
//! cleared. This table is our own formulation of that idea.

/// The 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// One row of a band (the nine low bits).
pub(super) const ROW: u32 = 0x1FF;

/// Column 0 of a band: bits 0, 9 and 18. Shift left by `c` for column `c`.
pub(super) const COLUMN_0: u32 = 1 | 1 << 9 | 1 << 18;

/// Box `k` occupancy of a nine-bit row chunk: bit `k` set when the row
/// holds a cell of box `k` (columns `3k..3k+3`).
pub(super) const ROW_BOXES: [u8; 512] = build_row_boxes();

/// For a segment pattern, the union of all row-to-box permutations that
/// fit inside it: the segments that may still hold the digit. Zero when no
/// permutation fits (the band cannot place the digit: a dead end).
pub(super) const MATCHED_SEGMENTS: [u16; 512] = build_matched_segments();

/// The 27-bit cell mask covered by a segment pattern.
pub(super) const SEGMENT_CELLS: [u32; 512] = build_segment_cells();

/// [`MATCHED_SEGMENTS`] as cells: for a segment pattern, the cells of the
/// segments some permutation uses (one lookup instead of two in the band
/// update); zero for a dead end.
pub(super) const MATCHED_CELLS: [u32; 512] = build_matched_cells();

/// The nine cells of each box of a band (box 0 = columns 0..3).
pub(super) const BOX_CELLS: [u32; 3] = [0x1C0E07, 0x1C0E07 << 3, 0x1C0E07 << 6];

/// The number of set bits of a nine-bit value (a table: the crate is built
/// without `target-cpu`, so `count_ones` has no single instruction).
pub(crate) const ONES_IN_NINE: [u8; 512] = build_ones_in_nine();

/// Eight bits spread over the eight bytes of a word: byte `j` is bit `j`.
pub(super) const SPREAD_EIGHT: [u64; 256] = build_spread_eight();

/// The nine cells of box `k` of a band mask, packed into nine bits.
#[inline(always)]
pub(super) fn box_nine(band: u32, k: usize) -> usize {
    let x = band >> (3 * k) & BOX_CELLS[0];
    ((x | x >> 6 | x >> 12) & ROW) as usize
}

/// For cell `p` (0..27) of a band: the other cells of its row, box and
/// column inside the band (its peers within the band). Padded with zeros
/// to 32 entries so an index from `trailing_zeros` of a `u32` needs no
/// bounds check.
pub(super) const BAND_PEERS: [u32; 32] = build_band_peers();

/// The three-bit groups 0, 9 and 18 of a packed value.
#[cfg(test)]
const STACK_0_OF_PACKED: u32 = 7 | 7 << 9 | 7 << 18;

/// For stack `s`, the band-column pattern of a packed per-band column
/// mask: bit `3 * b + c` set when band `b` has column `3 * s + c`. It has
/// the shape of a segment pattern, so [`MATCHED_SEGMENTS`] filters it.
/// (The solver uses [`transpose_groups`]; this is the tests' reference.)
#[cfg(test)]
pub(super) fn stack_pattern(packed: u32, s: u32) -> usize {
    let x = (packed >> (3 * s)) & STACK_0_OF_PACKED;
    ((x | x >> 6 | x >> 12) & ROW) as usize
}

/// The inverse of [`stack_pattern`]: a band-column pattern of stack `s`
/// back to packed per-band columns.
#[cfg(test)]
pub(super) fn unstack_pattern(pattern: u32, s: u32) -> u32 {
    ((pattern & 7) | (pattern & 0o70) << 6 | (pattern & 0o700) << 12) << (3 * s)
}

/// Transposes the 3x3 matrix of three-bit groups of a packed per-band
/// column mask: group (band `b`, stack `s`) at bit `9 * b + 3 * s` moves
/// to bit `9 * s + 3 * b`, so nine bits at `9 * s` are
/// the band-column pattern of stack `s` (see `stack_pattern`). Its own
/// inverse. Two delta swaps.
#[inline(always)]
pub(super) fn transpose_groups(packed: u32) -> u32 {
    let t = (packed >> 6 ^ packed) & (7 << 3 | 7 << 15);
    let x = packed ^ (t | t << 6);
    let t = (x >> 12 ^ x) & 7 << 6;
    x ^ (t | t << 12)
}

/// The segment pattern of a band mask: which (row, box) segments are
/// non-empty.
#[inline(always)]
pub(super) fn segments(band: u32) -> usize {
    // The final mask changes nothing (each entry is below 8) but tells the
    // compiler the result indexes a 512-entry table: an `and` instead of a
    // bounds check.
    (ROW_BOXES[(band & ROW) as usize] as usize
        | (ROW_BOXES[((band >> 9) & ROW) as usize] as usize) << 3
        | (ROW_BOXES[((band >> 18) & ROW) as usize] as usize) << 6)
        & 0x1FF
}

/// The high bit (bit 8) of each row of a band.
pub(super) const ROW_HIGH: u32 = 0x100 * COLUMN_0;

/// Bit 0 of each box of a nine-bit row.
pub(super) const BOX_LOW: u32 = 0b001_001_001;

/// The cells of a band mask alone in their row, for a band mask with no
/// empty row (as the locked-candidates filter leaves it), by bit tricks on
/// the three nine-bit rows at once: no table and no branch.
#[inline(always)]
pub(super) fn lone_in_full_rows(band: u32) -> u32 {
    // No row is empty, so subtracting one from each row borrows inside
    // it: `rest` is each row without its lowest cell.
    let rest = band & band.wrapping_sub(COLUMN_0);
    // Bit 8 of each row where `rest` is not empty (the low eight bits plus
    // 0xFF carry into bit 8 when any is set), then spread over the row.
    let low = ROW_HIGH - COLUMN_0;
    let crowded = (((rest & low) + low) | rest) & ROW_HIGH;
    band & !(crowded | (crowded - (crowded >> 8)))
}

const fn build_row_boxes() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if x & (7 << (3 * k)) != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
}

/// The six permutations of three rows onto three boxes (row `r` in box
/// `PERMUTATIONS[i][r]`), or of three bands onto the columns of a stack.
pub(super) const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The six row-to-box arrangements of a digit in a band, as segment
/// patterns (one segment per row and per box). Read the other way, the
/// six band-to-column arrangements of a digit in a stack.
pub(super) const ARRANGEMENTS: [u16; 6] = build_arrangements();

const fn build_arrangements() -> [u16; 6] {
    let mut masks = [0u16; 6];
    let mut i = 0;
    while i < 6 {
        let mut r = 0;
        while r < 3 {
            masks[i] |= 1 << (3 * r + PERMUTATIONS[i][r]);
            r += 1;
        }
        i += 1;
    }
    masks
}

/// Per segment pattern, the first two [`ARRANGEMENTS`] that fit it (in
/// that order; zero where fewer fit): the two children of the hard mode's
/// branch on a pattern with exactly two.
pub(super) const TWO_ARRANGEMENTS: [[u16; 2]; 512] = build_two_arrangements();

const fn build_two_arrangements() -> [[u16; 2]; 512] {
    let masks = ARRANGEMENTS;
    let mut t = [[0u16; 2]; 512];
    let mut p = 0;
    while p < 512 {
        let (mut i, mut n) = (0, 0);
        while i < 6 {
            if masks[i] & !(p as u16) == 0 && n < 2 {
                t[p][n] = masks[i];
                n += 1;
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_matched_segments() -> [u16; 512] {
    let masks = ARRANGEMENTS;
    let mut t = [0u16; 512];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 6 {
            if masks[i] & !(p as u16) == 0 {
                t[p] |= masks[i];
            }
            i += 1;
        }
        p += 1;
    }
    t
}

const fn build_spread_eight() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut j = 0;
        while j < 8 {
            t[x] |= ((x as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        x += 1;
    }
    t
}

const fn build_ones_in_nine() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = (x as u32).count_ones() as u8;
        x += 1;
    }
    t
}

const fn build_matched_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        t[p] = SEGMENT_CELLS[MATCHED_SEGMENTS[p] as usize];
        p += 1;
    }
    t
}

const fn build_segment_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut s = 0;
        while s < 9 {
            if p & (1 << s) != 0 {
                let (r, k) = (s / 3, s % 3);
                t[p] |= 7 << (9 * r + 3 * k);
            }
            s += 1;
        }
        p += 1;
    }
    t
}

const fn build_band_peers() -> [u32; 32] {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = ROW << (9 * r);
        let column = COLUMN_0 << c;
        let boxed = SEGMENT_CELLS[0b1001001 << (c / 3)];
        t[p] = (row | column | boxed) & !(1 << p);
        p += 1;
    }
    t
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // tables are indexed by the pattern they describe
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Reference: is (r, c) of the band set?
    fn has(band: u32, r: usize, c: usize) -> bool {
        band & 1 << (9 * r + c) != 0
    }

    #[test]
    fn row_boxes_marks_each_box_touched() {
        assert_eq!(ROW_BOXES[0], 0);
        assert_eq!(ROW_BOXES[0b000_000_001], 0b001);
        assert_eq!(ROW_BOXES[0b000_100_000], 0b010);
        assert_eq!(ROW_BOXES[0b110_000_010], 0b101);
        assert_eq!(ROW_BOXES[0x1FF], 0b111);
    }

    #[test]
    fn segments_match_a_cell_by_cell_scan() {
        let mut rng = Rng::new(0x2545_F491);
        for _ in 0..2000 {
            let x = rng.next_u64() as u32;
            let band = x & BAND & (x >> 3 | x << 7);
            let mut want = 0;
            for r in 0..3 {
                for c in 0..9 {
                    if has(band, r, c) {
                        want |= 1 << (3 * r + c / 3);
                    }
                }
            }
            assert_eq!(segments(band), want, "{band:027b}");
        }
    }

    #[test]
    fn matched_segments_keep_only_permutations() {
        // Everything open: every segment is on some permutation.
        assert_eq!(MATCHED_SEGMENTS[0x1FF], 0x1FF);
        // A permutation alone is kept whole.
        assert_eq!(MATCHED_SEGMENTS[0b100_010_001], 0b100_010_001);
        // An empty row: no permutation.
        assert_eq!(MATCHED_SEGMENTS[0b111_111_000], 0);
        // Two rows only in box 0: no permutation.
        assert_eq!(MATCHED_SEGMENTS[0b111_001_001], 0);
        // Row 0 only in box 0 (claiming): rows 1 and 2 lose box 0.
        assert_eq!(MATCHED_SEGMENTS[0b111_111_001], 0b110_110_001);
        // Box 2 only in row 1 (pointing): row 1 keeps only box 2.
        assert_eq!(MATCHED_SEGMENTS[0b011_111_011], 0b011_100_011);
    }

    #[test]
    fn matched_segments_are_exactly_the_permutable_segments() {
        for p in 0..512usize {
            let mut want = 0u16;
            for perm in PERMUTATIONS {
                let m: u16 = (0..3).map(|r| 1u16 << (3 * r + perm[r])).sum();
                if m as usize & !p == 0 {
                    want |= m;
                }
            }
            assert_eq!(MATCHED_SEGMENTS[p], want, "{p:09b}");
            assert_eq!(MATCHED_SEGMENTS[p] as usize & !p, 0);
        }
    }

    #[test]
    fn segment_cells_cover_three_cells_per_segment() {
        assert_eq!(SEGMENT_CELLS[0], 0);
        assert_eq!(SEGMENT_CELLS[1], 0b111);
        assert_eq!(SEGMENT_CELLS[1 << 5], 0b111_000_000 << 9);
        assert_eq!(SEGMENT_CELLS[0x1FF], BAND);
        for p in 0..512usize {
            assert_eq!(SEGMENT_CELLS[p].count_ones(), 3 * p.count_ones());
            assert_eq!(segments(SEGMENT_CELLS[p]), p);
        }
    }

    #[test]
    fn box_cells_are_the_three_boxes_of_a_band() {
        for (k, &cells) in BOX_CELLS.iter().enumerate() {
            assert_eq!(cells, SEGMENT_CELLS[0b1001001 << k]);
        }
    }

    #[test]
    fn box_nine_packs_the_box_and_counts_match() {
        let mut rng = Rng::new(0x2545_F491);
        for _ in 0..2000 {
            let x = rng.next_u64() as u32;
            let band = x & BAND;
            for (k, cells) in BOX_CELLS.into_iter().enumerate() {
                let packed = box_nine(band, k);
                assert_eq!(packed as u32 & !ROW, 0);
                assert_eq!(u32::from(ONES_IN_NINE[packed]), (band & cells).count_ones());
            }
        }
        for v in 0..512usize {
            assert_eq!(u32::from(ONES_IN_NINE[v]), v.count_ones());
        }
    }

    #[test]
    fn spread_eight_puts_bit_j_in_byte_j() {
        for x in 0..256usize {
            let bytes = SPREAD_EIGHT[x].to_le_bytes();
            for (j, &byte) in bytes.iter().enumerate() {
                assert_eq!(u32::from(byte), (x as u32 >> j) & 1, "{x:08b} byte {j}");
            }
        }
    }

    #[test]
    fn band_peers_are_row_box_and_column_mates() {
        assert!(BAND_PEERS[27..].iter().all(|&p| p == 0), "padding");
        for p in 0..27 {
            let (r, c) = (p / 9, p % 9);
            let peers = BAND_PEERS[p];
            assert_eq!(peers.count_ones(), 8 + 6, "cell {p}");
            for r2 in 0..3 {
                for c2 in 0..9 {
                    let mate = (r2, c2) != (r, c) && (r2 == r || c2 == c || c2 / 3 == c / 3);
                    assert_eq!(has(peers, r2, c2), mate, "cell {p} vs ({r2},{c2})");
                    // Symmetric: a peer has this cell among its own peers.
                    let back = BAND_PEERS[9 * r2 + c2] & 1 << p != 0;
                    assert_eq!(back, mate, "cell ({r2},{c2}) vs {p}");
                }
            }
        }
    }

    #[test]
    fn stack_patterns_round_trip_and_pick_the_right_bits() {
        // Band 1 has column 4 (stack 1, column 1 of the stack): bit 3*1+1.
        assert_eq!(stack_pattern(1 << (9 + 4), 1), 1 << 4);
        assert_eq!(stack_pattern(1 << (9 + 4), 0), 0);
        assert_eq!(stack_pattern(1 << (9 + 4), 2), 0);
        // Band 2, column 8: stack 2, bit 3*2+2.
        assert_eq!(stack_pattern(1 << 26, 2), 1 << 8);
        let mut rng = Rng::new(0x1234_5678);
        for _ in 0..1000 {
            let x = rng.next_u64() as u32;
            let packed = x & BAND;
            let mut back = 0;
            for s in 0..3 {
                let p = stack_pattern(packed, s);
                for b in 0..3 {
                    for c in 0..3 {
                        let want = packed >> (9 * b + 3 * s + c) & 1;
                        assert_eq!((p >> (3 * b + c)) as u32 & 1, want);
                    }
                }
                back |= unstack_pattern(p as u32, s);
            }
            assert_eq!(back, packed);
            let transposed = transpose_groups(packed);
            for s in 0..3 {
                assert_eq!(
                    (transposed >> (9 * s) & ROW) as usize,
                    stack_pattern(packed, s)
                );
            }
            assert_eq!(transpose_groups(transposed), packed);
        }
    }

    #[test]
    fn matched_cells_are_the_cells_of_matched_segments() {
        for p in 0..512usize {
            assert_eq!(
                MATCHED_CELLS[p],
                SEGMENT_CELLS[MATCHED_SEGMENTS[p] as usize]
            );
        }
    }

    #[test]
    fn lone_in_full_rows_matches_the_table_on_every_full_band() {
        // Every row pattern with at least one cell, in each row position,
        // against the table version (rows are independent).
        for a in 1..512u32 {
            for b in [1u32, 2, 3, 0x100, 0x101, 0x1FF, a] {
                for band in [
                    a | b << 9 | 1 << 18,
                    b | a << 9 | b << 18,
                    b | 0x80 << 9 | a << 18,
                ] {
                    assert_eq!(
                        lone_in_full_rows(band),
                        lone_by_counting(band),
                        "{band:027b}"
                    );
                }
            }
        }
    }

    /// Reference: the cells of rows holding exactly one cell.
    fn lone_by_counting(band: u32) -> u32 {
        (0..3)
            .map(|r| band & ROW << (9 * r))
            .filter(|row| row.count_ones() == 1)
            .sum()
    }

    #[test]
    fn lone_in_full_rows_finds_single_cells() {
        assert_eq!(lone_in_full_rows(BAND), 0);
        // Row 0: one cell (col 4); row 1: two cells; row 2: one cell (col 8).
        let band = 1 << 4 | 0b11 << 9 | 1 << 26;
        assert_eq!(lone_in_full_rows(band), 1 << 4 | 1 << 26);
        for (a, b, c) in [(0, 9, 18), (8, 17, 26), (3, 13, 23)] {
            assert_eq!(
                lone_in_full_rows(1 << a | 1 << b | 1 << c),
                1 << a | 1 << b | 1 << c
            );
        }
    }
}
