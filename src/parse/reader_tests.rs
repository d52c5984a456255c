//! Tests of [`RecordReader`]: each format, detection, every hostile input
//! the reader promises to survive, and property tests over arbitrary bytes.

use super::*;
use proptest::prelude::*;

const P1: &[u8] =
    b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const S1: &[u8] =
    b"483921657967345821251876493548132976729564138136798245372689514814253769695417382";
const P2: &[u8] =
    b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Reads every record of `input` in `format`: (format used, has_expected,
/// records).
fn read_all(input: &[u8], format: InputFormat) -> (InputFormat, bool, Vec<Rec>) {
    let mut reader = RecordReader::new(input, format).expect("in-memory input");
    let mut rec = Record::default();
    let mut out = Vec::new();
    while reader.read_record(&mut rec).expect("in-memory input") {
        out.push(Rec {
            line: rec.line,
            puzzle: rec.puzzle,
            expected: rec.expected,
            trailing: rec.trailing.clone(),
        });
        assert!(out.len() <= input.len() + 1, "reader does not advance");
    }
    assert!(!reader.read_record(&mut rec).unwrap(), "end is sticky");
    (reader.format(), reader.has_expected(), out)
}

#[derive(Debug)]
struct Rec {
    line: u64,
    puzzle: Result<Grid, ParseError>,
    expected: Option<Result<Grid, ParseError>>,
    trailing: Vec<u8>,
}

fn grid(line: &[u8]) -> Grid {
    parse_line(line).expect("test grid")
}

fn kind(r: &Rec) -> ParseErrorKind {
    r.puzzle.expect_err("expected an invalid record").kind
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

// ---------------------------------------------------------------- line

#[test]
fn line_format_skips_blank_comment_and_end_lines() {
    let mixed: Vec<u8> = P1
        .iter()
        .enumerate()
        .map(|(i, &b)| match (b, i % 3) {
            (b'.', 0) => b'0',
            (b'.', 1) => b'-',
            _ => b,
        })
        .collect();
    let input = cat(&[
        b"# a comment\n\n   \t\n",
        P1,
        b"\n  # indented comment\nend\n",
        &mixed,
        b"\n",
        P2,
    ]);
    let (format, has_expected, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert!(!has_expected);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[0].line, 4);
    assert_eq!(recs[0].puzzle, Ok(grid(P1)));
    assert_eq!(recs[1].line, 7);
    assert_eq!(recs[1].puzzle, Ok(grid(P1)), "mixed blanks . 0 -");
    assert_eq!(recs[2].line, 8);
    assert_eq!(recs[2].puzzle, Ok(grid(P2)), "final line without newline");
    assert!(recs.iter().all(|r| r.expected.is_none()));
}

#[test]
fn line_format_keeps_trailing_text_trimmed() {
    for (tail, want) in [
        (&b""[..], &b""[..]),
        (b" ", b""),
        (b"  3.4  ", b"3.4"),
        (b",hard, 12", b"hard, 12"),
        (b"\t# id 7\t", b"id 7"),
        (b";x", b"x"),
        (b"|\xff\x00bytes", b"\xff\x00bytes"),
    ] {
        let input = cat(&[P1, tail, b"\r\n"]);
        let (_, _, recs) = read_all(&input, InputFormat::Line);
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].puzzle, Ok(grid(P1)));
        assert_eq!(recs[0].trailing, want, "tail {tail:?}");
    }
}

#[test]
fn line_format_invalid_lines_are_records_with_columns() {
    let mut nul = P1.to_vec();
    nul[9] = 0;
    let input = cat(&[b"hello\n", &P1[..80], b"\n", &nul, b"\n  ", P1, b"5\n"]);
    let (_, _, recs) = read_all(&input, InputFormat::Line);
    assert_eq!(recs.len(), 4);
    assert_eq!(kind(&recs[0]), ParseErrorKind::BadChar { byte: b'h' });
    assert_eq!(kind(&recs[1]), ParseErrorKind::TooShort { found: 80 });
    let e = recs[2].puzzle.unwrap_err();
    assert_eq!(e.to_string(), "bad byte 0x00 at column 10");
    // Leading whitespace is skipped but columns still count it.
    let e = recs[3].puzzle.unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooLong { found: 82 });
    assert_eq!(e.col, 84);
    assert!(recs.iter().all(|r| r.trailing.is_empty()));
}

#[test]
fn crlf_and_bom() {
    let input = cat(&[b"\xEF\xBB\xBF", P1, b"\r\n\r\n", P2, b"\r\n"]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[0].puzzle), (1, Ok(grid(P1))));
    assert_eq!((recs[1].line, recs[1].puzzle), (3, Ok(grid(P2))));
    // Forced formats drop the BOM too.
    let (_, _, recs) = read_all(&input, InputFormat::Poj);
    assert_eq!(recs[0].puzzle, Ok(grid(P1)));
}

#[test]
fn ten_megabyte_line_is_one_invalid_record() {
    let huge = vec![b'1'; 10 << 20];
    let (_, _, recs) = read_all(&huge, InputFormat::Auto);
    assert_eq!(recs.len(), 1);
    assert_eq!(
        kind(&recs[0]),
        ParseErrorKind::LineTooLong {
            limit: MAX_LINE_BYTES as u32
        }
    );
    assert_eq!(
        recs[0].puzzle.unwrap_err().to_string(),
        "line longer than 4096 bytes"
    );
    // A huge comment line is still a comment.
    let input = cat(&[b"# ", &huge, b"\n", P2]);
    let (_, _, recs) = read_all(&input, InputFormat::Line);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (2, Ok(grid(P2))));
    // A valid puzzle with a huge comment is rejected too, and the next
    // line is still read in step.
    let input = cat(&[P1, b" ", &huge, b"\n", P2, b"\n"]);
    for format in [InputFormat::Auto, InputFormat::Line, InputFormat::Poj] {
        let (_, _, recs) = read_all(&input, format);
        assert_eq!(recs.len(), 2);
        assert!(matches!(kind(&recs[0]), ParseErrorKind::LineTooLong { .. }));
        assert_eq!((recs[1].line, recs[1].puzzle), (2, Ok(grid(P2))));
    }
}

#[test]
fn memory_stays_bounded_on_a_huge_line() {
    let input = cat(&[&vec![b'7'; 10 << 20], b"\n", P1]);
    let mut reader = RecordReader::new(&input[..], InputFormat::Line).unwrap();
    let mut rec = Record::default();
    while reader.read_record(&mut rec).unwrap() {}
    assert!(reader.lines.buf_capacity() <= 2 * MAX_LINE_BYTES + 64);
}

// ---------------------------------------------------------------- poj

#[test]
fn poj_end_stops_the_input() {
    let input = cat(&[P1, b"\n", P2, b"\nend\n", P1, b"\n"]);
    let (format, _, recs) = read_all(&input, InputFormat::Poj);
    assert_eq!(format, InputFormat::Poj);
    assert_eq!(recs.len(), 2);
    // Auto-detected, it is a line file: `end` is skipped, not a record.
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert_eq!(recs.len(), 3);
    assert_eq!(recs[2].line, 4);
    // Without `end`, to the end of input; `end\r\n` and `end` at EOF work.
    assert_eq!(read_all(&input[..82], InputFormat::Poj).2.len(), 1);
    let crlf = cat(&[P1, b"\r\nend\r\n", P2]);
    assert_eq!(read_all(&crlf, InputFormat::Poj).2.len(), 1);
    let last = cat(&[P1, b"\nend"]);
    assert_eq!(read_all(&last, InputFormat::Poj).2.len(), 1);
}

// ---------------------------------------------------------------- csv

// ---------------------------------------------------------------- block

const NOIP1: &[u8] = b"7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n\
2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";
const NOIP2: &[u8] = b"0 0 0 7 0 2 4 5 3\n9 0 0 0 0 8 0 0 0\n7 4 0 0 0 5 0 1 0\n\
1 9 5 0 8 0 0 0 0\n0 7 0 0 0 0 0 2 5\n0 3 0 5 7 9 1 0 8\n0 0 0 6 0 1 0 0 0\n\
0 6 0 9 0 0 0 0 1\n0 0 0 0 0 0 0 0 6\n";

/// NOIP sample 1 as a grid, through the line parser (its 81 digits).
fn noip1_grid() -> Grid {
    let digits: Vec<u8> = NOIP1.iter().copied().filter(u8::is_ascii_digit).collect();
    grid(&digits)
}

#[test]
fn block_grids_detected_and_read() {
    let (format, _, recs) = read_all(NOIP1, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (1, Ok(noip1_grid())));

    let input = cat(&[b"\xEF\xBB\xBF# two grids\n\n", NOIP1, NOIP2]);
    let input: Vec<u8> = input
        .split(|&b| b == b'\n')
        .flat_map(|l| [l, b"\r\n"].concat())
        .collect();
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[0].puzzle), (3, Ok(noip1_grid())));
    assert_eq!(recs[1].line, 12);
    assert_eq!(recs[1].puzzle.unwrap().get(3), 7);
}

#[test]
fn block_detected_from_separator_line() {
    let input = cat(&[
        b"------+-------+------\n",
        b"7 . . | 9 . . | . . 1\n1 . . | . . 5 | 9 . .\n. . . | 2 . . | . 8 .\n",
        b"------+-------+------\n",
        b". . 5 | . 2 . | . . 3\n. . . | . . . | 6 4 8\n4 1 3 | . . . | . . .\n",
        b"------+-------+------\n",
        b". . 7 | . . 2 | . 9 .\n2 . 1 | . 6 . | 8 . 4\n. 8 . | 5 . 4 | . 1 2\n",
        b"------+-------+------\n",
    ]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (2, Ok(noip1_grid())));
}

// ---------------------------------------------------------------- luogu

fn compact(block: &[u8]) -> Vec<u8> {
    block.iter().copied().filter(|&b| b != b' ').collect()
}

#[test]
fn luogu_batch_reads_promised_grids_and_extras() {
    let input = cat(&[b"2\n", &compact(NOIP1), &compact(NOIP2)]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[0].puzzle), (2, Ok(noip1_grid())));
    assert_eq!(recs[1].line, 11);

    // More grids than promised: read them too, no complaint.
    let input = cat(&[b"1\n", NOIP1, b"\n", NOIP2]);
    let (_, _, recs) = read_all(&input, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
}

#[test]
fn luogu_shortfall_is_reported_once() {
    // T=3, one grid and four rows of another.
    let input = cat(&[b"\n3\n", NOIP1, &NOIP2[..4 * 18]]);
    let (_, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(recs.len(), 3);
    assert!(recs[0].puzzle.is_ok());
    assert_eq!(kind(&recs[1]), ParseErrorKind::Truncated { rows: 4 });
    assert_eq!(recs[1].line, 12);
    let e = recs[2].puzzle.unwrap_err();
    assert_eq!(
        e.kind,
        ParseErrorKind::MissingGrids {
            found: 2,
            promised: 3
        }
    );
    assert_eq!(e.to_string(), "input ends after 2 of 3 promised grids");
    assert_eq!(recs[2].line, 2, "points at the count line");

    // Exactly T grids, the last one partial: no extra record.
    let input = cat(&[b"2\n", NOIP1, &NOIP2[..4 * 18]]);
    assert_eq!(read_all(&input, InputFormat::Luogu).2.len(), 2);
    // A count and nothing else.
    let (_, _, recs) = read_all(b"5\n", InputFormat::Auto);
    assert_eq!(recs.len(), 1);
    assert_eq!(
        kind(&recs[0]),
        ParseErrorKind::MissingGrids {
            found: 0,
            promised: 5
        }
    );
    assert!(read_all(b"0\n", InputFormat::Auto).2.is_empty());
}

#[test]
fn forced_luogu_without_count_reports_once_then_reads_blocks() {
    // The first line is a grid row: reported, then kept for the grid.
    let (_, _, recs) = read_all(NOIP1, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        (recs[0].line, kind(&recs[0])),
        (1, ParseErrorKind::BadCount)
    );
    assert_eq!(
        recs[0].puzzle.unwrap_err().to_string(),
        "first line is not a puzzle count"
    );
    assert_eq!((recs[1].line, recs[1].puzzle), (1, Ok(noip1_grid())));
    // A garbage first line is consumed by its BadCount record.
    let input = cat(&[b"# c\nthree\n", NOIP1]);
    let (_, _, recs) = read_all(&input, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        (recs[0].line, kind(&recs[0])),
        (2, ParseErrorKind::BadCount)
    );
    assert_eq!((recs[1].line, recs[1].puzzle), (3, Ok(noip1_grid())));
}

// ---------------------------------------------------------------- detection

#[test]
fn empty_and_comment_only_inputs_have_no_records() {
    for input in [
        &b""[..],
        b"\n\n",
        b"\xEF\xBB\xBF",
        b"# only\n# comments",
        b"  \r\n\t",
    ] {
        for format in InputFormat::ALL {
            let (resolved, _, recs) = read_all(input, format);
            assert_ne!(resolved, InputFormat::Auto);
            assert!(recs.is_empty(), "{input:?} as {format:?}");
        }
    }
}

#[test]
fn detection_skips_any_preamble_without_losing_lines() {
    // 6000 comment lines (over 100 KiB), a 20 KiB whitespace line and a
    // 20 KiB comment line, then a block grid: still found, lines true.
    let mut input = Vec::new();
    for i in 0..6000 {
        input.extend_from_slice(format!("# comment {i:05}\n").as_bytes());
    }
    input.extend_from_slice(&vec![b' '; 20_000]);
    input.extend_from_slice(b"\r\n# ");
    input.extend_from_slice(&vec![b'x'; 20_000]);
    input.extend_from_slice(b"\r");
    let preamble = input.clone();
    input.extend_from_slice(NOIP1);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (6003, Ok(noip1_grid())));
    let input = cat(&[&preamble, P1]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert_eq!((recs[0].line, recs[0].puzzle), (6003, Ok(grid(P1))));
}

#[test]
fn a_bad_first_line_stays_a_record() {
    for bad in [
        &b"hello, world"[..],
        b"7 0 0 9 0 0 0 0 1",
        b"700900001",
        b"1234",
        b"2",
        b"x,\"y\"",
    ] {
        let input = cat(&[b"# head\n\n", bad, b"\n", P1, b"\n", P2, b"\n"]);
        let (format, _, recs) = read_all(&input, InputFormat::Auto);
        assert_eq!(format, InputFormat::Line, "{bad:?}");
        let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 4, 5], "{bad:?}");
        assert!(recs[0].puzzle.is_err() && recs[1].puzzle.is_ok(), "{bad:?}");
    }
    // A one-column CSV named by its header is CSV.
    let input = cat(&[b"Puzzle\r\n", P1, b"\r\n", P2, b"\r\n"]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Csv);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[1].line, recs[1].puzzle), (3, Ok(grid(P2))));
}

#[test]
fn overlong_first_line_is_detected_from_its_start() {
    let input = cat(&[P1, &vec![b' '; 3 * MAX_LINE_BYTES], b"x\n", P2]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert_eq!(recs.len(), 2);
    assert!(matches!(kind(&recs[0]), ParseErrorKind::LineTooLong { .. }));
    assert_eq!(recs[1].puzzle, Ok(grid(P2)));
}

/// Pseudo-random bytes (xorshift), reproducible.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

#[test]
fn binary_input_gives_invalid_records_in_every_format() {
    let bin = noise(200_000, 0x9E37_79B9_7F4A_7C15);
    let lines = bin.split(|&b| b == b'\n' || b == b'\r').count();
    for format in InputFormat::ALL {
        let (_, _, recs) = read_all(&bin, format);
        assert!(!recs.is_empty(), "{format:?}");
        assert!(recs.len() <= lines + 1, "{format:?}");
        assert!(recs.iter().all(|r| r.puzzle.is_err()), "{format:?}");
    }
}

#[test]
fn io_errors_are_returned() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let input = io::Cursor::new(cat(&[P1, b"\n"])).chain(Failing);
    let mut reader = RecordReader::new(io::BufReader::new(input), InputFormat::Line).unwrap();
    let mut rec = Record::default();
    assert!(reader.read_record(&mut rec).unwrap());
    let err = reader.read_record(&mut rec).unwrap_err();
    assert_eq!(err.to_string(), "disk on fire");
    let failing = io::BufReader::new(Failing);
    assert!(RecordReader::new(failing, InputFormat::Auto).is_err());
}

#[test]
fn record_buffers_are_reused() {
    let input = cat(&[P1, b" some trailing text\n", P2, b"\n"]);
    let mut reader = RecordReader::new(&input[..], InputFormat::Line).unwrap();
    let mut rec = Record::default();
    assert!(reader.read_record(&mut rec).unwrap());
    assert_eq!(rec.trailing, b"some trailing text");
    let ptr = rec.trailing.as_ptr();
    assert!(reader.read_record(&mut rec).unwrap());
    assert!(rec.trailing.is_empty());
    assert_eq!(rec.trailing.as_ptr(), ptr);
    assert!(format!("{reader:?}").contains("Line"));
}

// ---------------------------------------------------------------- properties

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

// ---------------------------------------------------------------- fixtures

/// Reads a fixture of `tests/fixtures/formats/` with detection.
fn fixture(name: &str) -> (InputFormat, bool, Vec<Rec>) {
    let path = format!(
        "{}/tests/fixtures/formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_all(&bytes, InputFormat::Auto)
}

#[test]
fn fixtures_read_as_documented() {
    let valid = |recs: &[Rec]| recs.iter().filter(|r| r.puzzle.is_ok()).count();
    for (name, format, records, ok) in [
        ("line.txt", InputFormat::Line, 5, 5),
        ("line_crlf_bom.txt", InputFormat::Line, 3, 3),
        ("poj.txt", InputFormat::Line, 3, 3),
        ("kaggle.csv", InputFormat::Csv, 4, 4),
        ("noip_sample1.txt", InputFormat::Block, 1, 1),
        ("noip_sample2.txt", InputFormat::Block, 1, 1),
        ("block_boxed.txt", InputFormat::Block, 2, 2),
        ("luogu.txt", InputFormat::Luogu, 2, 2),
        ("luogu_short.txt", InputFormat::Luogu, 3, 1),
        ("hostile_long_line.txt", InputFormat::Line, 2, 1),
        ("hostile_bytes.txt", InputFormat::Line, 3, 2),
    ] {
        let (got_format, _, recs) = fixture(name);
        assert_eq!(got_format, format, "{name}");
        assert_eq!(recs.len(), records, "{name}");
        assert_eq!(valid(&recs), ok, "{name}");
    }
    // Binary: read as lines, every line an invalid record.
    let (format, _, bin) = fixture("hostile_binary.bin");
    assert_eq!(format, InputFormat::Line);
    let bytes = std::fs::read(format!(
        "{}/tests/fixtures/formats/hostile_binary.bin",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let content_lines = bytes
        .split(|&b| b == b'\n' || b == b'\r')
        .filter(|l| !l.trim_ascii().is_empty() && l.trim_ascii()[0] != b'#')
        .count();
    assert_eq!(bin.len(), content_lines);
    assert_eq!(valid(&bin), 0);

    // The two NOIP samples read the same in every layout.
    let noip: Vec<Grid> = ["noip_sample1.txt", "noip_sample2.txt"]
        .iter()
        .map(|n| fixture(n).2[0].puzzle.unwrap())
        .collect();
    let boxed: Vec<Grid> = fixture("block_boxed.txt")
        .2
        .iter()
        .map(|r| r.puzzle.unwrap())
        .collect();
    let luogu: Vec<Grid> = fixture("luogu.txt")
        .2
        .iter()
        .map(|r| r.puzzle.unwrap())
        .collect();
    assert_eq!(noip[0], noip1_grid());
    assert_eq!(boxed, noip);
    assert_eq!(luogu, noip);

    // kaggle.csv: every solution solves its puzzle except row 3's.
    let (_, has_expected, recs) = fixture("kaggle.csv");
    assert!(has_expected);
    let solves: Vec<bool> = recs
        .iter()
        .map(|r| r.expected.unwrap().unwrap().solves(&r.puzzle.unwrap()))
        .collect();
    assert_eq!(solves, [true, true, false, true]);
}

#[path = "reader_csv_tests.rs"]
mod csv_records;
