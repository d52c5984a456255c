//! Property tests over arbitrary bytes: the reader never panics, a line
//! file has one record per content line, and grids round-trip through
//! the line and block formats.

use super::*;

/// Byte soup biased toward the bytes the readers care about.
fn soup() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => any::<u8>().prop_map(|b| vec![b]),
        4 => prop::sample::select(b"0123456789.-_*\n\r ,|#+=\t\"x".to_vec()).prop_map(|b| vec![b]),
        1 => Just(b"end\n".to_vec()),
        1 => Just(b"\xEF\xBB\xBF".to_vec()),
        1 => Just(P1.to_vec()),
        1 => Just(b"7 0 0 9 0 0 0 0 1\n".to_vec()),
        1 => Just(b"3\n".to_vec()),
        1 => Just(b"quizzes,solutions\n".to_vec()),
        1 => Just(b"------+------+------\n".to_vec()),
    ];
    prop::collection::vec(piece, 0..120).prop_map(|v| v.concat())
}

/// One line of a line-format file (without newline).
fn line_piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => Just(P1.to_vec()),
        1 => Just(cat(&[P2, b", rated 3"])),
        1 => Just(b"end".to_vec()),
        1 => Just(b" end \t".to_vec()),
        1 => Just(b"# comment".to_vec()),
        1 => Just(b"".to_vec()),
        1 => Just(b" \t\x0c".to_vec()),
        1 => (1usize..3 * MAX_LINE_BYTES).prop_map(|n| vec![b'9'; n]),
        3 => prop::collection::vec(any::<u8>().prop_filter("no line end", |&b| b != b'\n' && b != b'\r'), 0..100),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn never_panics_on_any_bytes(input in soup()) {
        for format in InputFormat::ALL {
            let (resolved, has_expected, recs) = read_all(&input, format);
            prop_assert_ne!(resolved, InputFormat::Auto);
            let lines = input.split(|&b| b == b'\n' || b == b'\r').count();
            // A Luogu input may add one shortfall record.
            prop_assert!(recs.len() <= lines + 1);
            for r in &recs {
                prop_assert!(r.line >= 1 && r.line as usize <= lines);
                // An empty solution cell is no expected solution.
                prop_assert!(has_expected || r.expected.is_none());
                prop_assert!(r.trailing.len() <= MAX_LINE_BYTES);
            }
        }
    }

    #[test]
    fn line_format_has_one_record_per_content_line(
        lines in prop::collection::vec(line_piece(), 0..40),
        final_newline in any::<bool>(),
    ) {
        let mut input = lines.join(&b'\n');
        if final_newline && !input.is_empty() {
            input.push(b'\n');
        }
        let content: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                let t = l.trim_ascii();
                !t.is_empty() && t[0] != b'#' && t != b"end"
            })
            .map(|(i, _)| i + 1)
            .collect();
        let (_, _, recs) = read_all(&input, InputFormat::Line);
        let got: Vec<usize> = recs.iter().map(|r| r.line as usize).collect();
        prop_assert_eq!(got, content);
        for r in &recs {
            let src = &lines[r.line as usize - 1];
            if src.as_slice() == P1 {
                prop_assert_eq!(r.puzzle, Ok(grid(P1)));
            }
        }
    }

    #[test]
    fn grids_round_trip_through_line_and_block(
        cells in prop::array::uniform32(0u8..=9).prop_flat_map(|a| {
            (Just(a), prop::array::uniform32(0u8..=9), prop::array::uniform17(0u8..=9))
        }),
    ) {
        let mut all = [0u8; CELLS];
        all[..32].copy_from_slice(&cells.0);
        all[32..64].copy_from_slice(&cells.1);
        all[64..].copy_from_slice(&cells.2);
        let g = Grid::from_cells(all).unwrap();
        prop_assert_eq!(parse_line(&g.to_line()), Ok(g));
        prop_assert_eq!(parse_line(&g.to_line_with(b'0')), Ok(g));
        let block = g.to_block_string();
        let (_, _, recs) = read_all(block.as_bytes(), InputFormat::Block);
        prop_assert_eq!(recs.len(), 1);
        prop_assert_eq!(recs[0].puzzle, Ok(g));
    }
}
