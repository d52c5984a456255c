//! The CI stand-in for the cargo-fuzz targets: proptest drives the very
//! same invariants ([`invariants`], shared with `fuzz/fuzz_targets/`) with
//! a few thousand generated inputs per target, in a few seconds. The long
//! coverage-guided runs and their figures are in TESTING.md.
//!
//! Inputs are generated both as raw bytes and from pieces that look like
//! the real formats (puzzle lines, block rows, separators, counts, CSV
//! headers, `end`, BOM, CRLF, NUL), since uniformly random bytes almost
//! never reach the interesting states of a reader.

mod invariants;

use proptest::prelude::*;

use invariants::{check_records, check_solve, Engines};

const PUZZLE: &[u8] = crate::util::EASY.as_bytes();
const SOLUTION: &[u8] = crate::util::EASY_SOLUTION.as_bytes();

/// Pieces that real inputs (and near misses of them) are made of.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    let fixed: Vec<&'static [u8]> = vec![
        PUZZLE,
        SOLUTION,
        b"\n",
        b"\r\n",
        b"\r",
        b"\n\n",
        b"\xEF\xBB\xBF",
        b"\0",
        b"\xff\xfe",
        b"# comment\n",
        b"end\n",
        b"2\n",
        b"123456789\n",
        b"7 0 0 9 0 0 0 0 1\n",
        b"..3|.2.|6..\n",
        b"---+---+---\n",
        b"quizzes,solutions\n",
        b"puzzle\r",
        b"\"two\nlines\",",
        b"id,puzzle\n",
        b",",
        b"\"",
        b" ",
        b"\t",
        b"-",
        b"0",
        b"9",
    ];
    prop_oneof![
        4 => prop::sample::select(fixed).prop_map(<[u8]>::to_vec),
        // A puzzle line with one byte changed or cut short.
        2 => (0usize..90, any::<u8>(), 60usize..90).prop_map(|(at, byte, len)| {
            let mut line = [PUZZLE, b"\n"].concat();
            if let Some(b) = line.get_mut(at) {
                *b = byte;
            }
            line.truncate(len.min(line.len()));
            line
        }),
        1 => prop::collection::vec(any::<u8>(), 0..12),
        // Now and then a line past the 4096-byte cap.
        1 => (4000usize..4200, prop::sample::select(b"1.x ,".to_vec()))
            .prop_map(|(n, b)| vec![b; n]),
    ]
}

/// A parse input: a format selector byte, then pieces.
fn parse_input() -> impl Strategy<Value = Vec<u8>> {
    (any::<u8>(), prop::collection::vec(piece(), 0..24)).prop_map(|(selector, pieces)| {
        let mut data = vec![selector];
        for p in pieces {
            data.extend_from_slice(&p);
        }
        data
    })
}

/// A block-format (nine-row) rendering of the sample puzzle, to seed block
/// and Luogu inputs with a real grid.
fn block_grid() -> Vec<u8> {
    batchdoku_core::parse_line(PUZZLE)
        .expect("the sample puzzle is well-formed")
        .to_block_string()
        .into_bytes()
}

/// A solve input: a puzzle with some givens kept (so it is often
/// consistent), possibly some random digits added, and possibly weights.
fn solve_input() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(any::<bool>(), 81),
        prop::collection::vec((0usize..81, 1u8..=9), 0..4),
        prop::option::of(prop::collection::vec(any::<u8>(), 81)),
        any::<bool>(),
    )
        .prop_map(|(keep, extra, weights, from_solution)| {
            let base = if from_solution { SOLUTION } else { PUZZLE };
            let mut cells: Vec<u8> = base
                .iter()
                .zip(&keep)
                .map(|(&b, &k)| if k { b } else { b'.' })
                .collect();
            for (cell, digit) in extra {
                cells[cell] = b'0' + digit;
            }
            if let Some(w) = weights {
                cells.extend_from_slice(&w);
            }
            cells
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// `parse_records` on inputs built from format pieces.
    #[test]
    fn parse_records_on_format_pieces(data in parse_input()) {
        check_records(&data);
    }

    /// `parse_records` on raw bytes.
    #[test]
    fn parse_records_on_raw_bytes(data in prop::collection::vec(any::<u8>(), 0..600)) {
        check_records(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// `parse_records` on block and Luogu inputs built around a real grid.
    #[test]
    fn parse_records_on_grids(
        selector in prop::sample::select(vec![0u8, 3, 4]),
        grids in 0usize..4,
        count in prop::option::of(0u32..6),
        cut in 0usize..200,
    ) {
        let mut data = vec![selector];
        if let Some(c) = count {
            data.extend_from_slice(format!("{c}\n").as_bytes());
        }
        for _ in 0..grids {
            data.extend_from_slice(&block_grid());
            data.push(b'\n');
        }
        data.truncate(data.len().saturating_sub(cut).max(1));
        check_records(&data);
    }

    /// `solve` on near-valid puzzles (both engines, the scored search).
    #[test]
    fn solve_on_near_valid_puzzles(data in solve_input()) {
        let mut engines = Engines::default();
        check_solve(&data, &mut engines);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// `solve` on raw bytes, mostly blanks (raw bytes give 90 % givens and
    /// nearly always conflict).
    #[test]
    fn solve_on_sparse_raw_bytes(
        cells in prop::collection::vec(prop_oneof![6 => Just(b'.'), 1 => any::<u8>()], 81),
    ) {
        let mut engines = Engines::default();
        check_solve(&cells, &mut engines);
    }
}

/// The engines are reused across puzzles in the real pipeline: one set of
/// engines over a sequence of very different grids must keep every
/// invariant (stale state from one puzzle would break agreement or give
/// wrong solutions for the next).
#[test]
fn one_set_of_engines_over_many_puzzles() {
    let mut reused = Engines::default();
    let mut rng = batchdoku_core::Rng::new(8);
    for i in 0..300u32 {
        let mut cells = PUZZLE.to_vec();
        for c in cells.iter_mut() {
            if rng.below(3) == 0 {
                *c = b'.';
            }
        }
        if i % 7 == 0 {
            cells[rng.below(81) as usize] = b'1' + rng.below(9) as u8;
        }
        check_solve(&cells, &mut reused);
    }
}
