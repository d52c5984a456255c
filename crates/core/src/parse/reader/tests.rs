//! Tests of [`RecordReader`]: each format, detection, every hostile input
//! the reader promises to survive, and property tests over arbitrary bytes.

use super::*;
use proptest::prelude::*;

const P1: &[u8] = crate::testdata::EASY.as_bytes();
const S1: &[u8] = crate::testdata::EASY_SOLUTION.as_bytes();
const P2: &[u8] = crate::testdata::HARD.as_bytes();

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

/// Pseudo-random bytes, reproducible.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = crate::rng::Rng::new(seed);
    (0..len).map(|_| rng.next_u64() as u8).collect()
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
        "{}/../../tests/fixtures/formats/{name}",
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
        "{}/../../tests/fixtures/formats/hostile_binary.bin",
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

mod csv_records {
    //! Tests of [`RecordReader`] on CSV input: Kaggle layouts, column
    //! choice, RFC 4180 records (quoted line breaks), quotes that never close,
    //! headerless files, kept fields byte for byte, hostile rows and long
    //! headers.

    use super::*;

    #[test]
    fn kaggle_csv_with_solutions() {
        let mut wrong = S1.to_vec();
        wrong.swap(0, 1);
        let input = cat(&[
            b"\xEF\xBB\xBFquizzes,solutions\r\n",
            P1,
            b",",
            S1,
            b"\r\n\r\n# note\r\n",
            P1,
            b",",
            &wrong,
            b"\r\n",
            P1,
            b",",
            &S1[..80],
            b".\r\n",
            P1,
            b"\r\n,",
            S1,
        ]);
        let (format, has_expected, recs) = read_all(&input, InputFormat::Auto);
        assert_eq!(format, InputFormat::Csv);
        assert!(has_expected);
        assert_eq!(recs.len(), 5);
        let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 5, 6, 7, 8]);
        assert_eq!(recs[0].puzzle, Ok(grid(P1)));
        assert_eq!(recs[0].expected, Some(Ok(grid(S1))));
        // A wrong but complete solution parses: checking it is not our job.
        assert_eq!(recs[1].expected, Some(Ok(grid(&wrong))));
        let e = recs[2].expected.unwrap().unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Incomplete { blanks: 1 });
        assert_eq!(e.col, 83);
        let e = recs[3].expected.unwrap().unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::MissingColumn, 2));
        assert_eq!(recs[3].puzzle, Ok(grid(P1)));
        assert_eq!(kind(&recs[4]), ParseErrorKind::Empty);
        assert_eq!(recs[4].expected, Some(Ok(grid(S1))));
    }

    #[test]
    fn csv_column_choice_and_quotes() {
        let input = cat(&[
            b"id,\"Puzzle\",Solution,clues\n1,\"",
            P1,
            b"\",",
            S1,
            b",24\n2\n3,x\n",
        ]);
        let (_, has_expected, recs) = read_all(&input, InputFormat::Auto);
        assert!(has_expected);
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].puzzle, Ok(grid(P1)));
        assert_eq!(recs[0].expected, Some(Ok(grid(S1))));
        let e = recs[1].puzzle.unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::MissingColumn, 2));
        assert_eq!(e.to_string(), "missing CSV column 2");
        let e = recs[2].puzzle.unwrap_err();
        assert_eq!((e.kind, e.col), (ParseErrorKind::BadChar { byte: b'x' }, 3));

        // Only a puzzle column: no expected values.
        let input = cat(&[b"puzzle,rating,source\n", P1, b",1.5,x\n"]);
        let (_, has_expected, recs) = read_all(&input, InputFormat::Csv);
        assert!(!has_expected);
        assert_eq!(recs[0].puzzle, Ok(grid(P1)));
        assert_eq!(recs[0].expected, None);
    }

    #[test]
    fn forced_csv_without_header_reads_first_row_as_data() {
        let input = cat(&[P1, b",", S1, b"\n", P2, b",", S1, b"\n"]);
        let (format, has_expected, recs) = read_all(&input, InputFormat::Csv);
        assert_eq!(format, InputFormat::Csv);
        assert!(has_expected);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].line, 1);
        assert_eq!(recs[0].expected, Some(Ok(grid(S1))));
        assert_eq!(recs[1].puzzle, Ok(grid(P2)));
        // Auto sees a line file and keeps the solution as trailing text.
        let (format, _, recs) = read_all(&input, InputFormat::Auto);
        assert_eq!(format, InputFormat::Line);
        assert_eq!(recs[0].trailing, S1);
    }

    #[test]
    fn csv_hostile_rows() {
        let huge = vec![b'5'; 1 << 20];
        // A line too long to keep is one record and never goes on, even in a
        // quote; a quote open before a line that holds a puzzle does not
        // swallow it; a quote open at the end of the input breaks its record.
        let input = cat(&[
            b"quizzes,solutions\n\"",
            &huge,
            b"\n",
            P1,
            b",",
            S1,
            b"\n\"\n",
            P1,
            b",",
            S1,
            b"\n\"",
        ]);
        let (_, _, recs) = read_all(&input, InputFormat::Auto);
        let got: Vec<_> = recs.iter().map(|r| (r.line, r.puzzle)).collect();
        let limit = MAX_LINE_BYTES as u32;
        let unclosed = Err(ParseError::new(ParseErrorKind::UnclosedQuote, 1));
        assert_eq!(
            got,
            [
                (
                    2,
                    Err(ParseError::new(ParseErrorKind::LineTooLong { limit }, 0))
                ),
                (3, Ok(grid(P1))),
                (4, unclosed),
                (5, Ok(grid(P1))),
                (6, unclosed),
            ]
        );
        assert!(matches!(
            recs[0].expected,
            Some(Err(ParseError {
                kind: ParseErrorKind::LineTooLong { .. },
                ..
            }))
        ));
        assert_eq!(recs[2].expected, Some(unclosed));
        // Many short lines after an open quote: the quote breaks after
        // MAX_RECORD_LINES lines, and every line after it is a record again;
        // memory stays bounded.
        let mut long = b"puzzle,note\n".to_vec();
        long.extend_from_slice(P1);
        long.extend_from_slice(b",\"");
        for _ in 0..10_000 {
            long.extend_from_slice(b"0123456789\r\n");
        }
        long.extend_from_slice(b"\"\n");
        long.extend_from_slice(P2);
        let mut reader = RecordReader::new(&long[..], InputFormat::Auto).unwrap();
        let mut rec = Record::default();
        assert!(reader.read_record(&mut rec).unwrap());
        assert_eq!(rec.line, 2);
        assert_eq!(
            rec.puzzle,
            Err(ParseError::new(ParseErrorKind::UnclosedQuote, 83))
        );
        let mut lines = vec![];
        while reader.read_record(&mut rec).unwrap() {
            lines.push(rec.line);
            assert!(reader.csv.out_capacity() <= 2 * MAX_LINE_BYTES);
        }
        // Lines 3 to 10,001 hold digits, 10,002 a quote, 10,003 a puzzle.
        assert_eq!(lines.len(), 10_001);
        assert!(lines.iter().copied().eq(3..=10_003));
        assert_eq!(rec.puzzle, Ok(grid(P2)));
        // Header only, or nothing at all: no records.
        assert!(read_all(b"quizzes,solutions\n", InputFormat::Csv)
            .2
            .is_empty());
        let (_, has_expected, recs) = read_all(b"", InputFormat::Csv);
        assert!(!has_expected && recs.is_empty());
    }

    #[test]
    fn csv_quoted_fields_hold_line_breaks() {
        let input = cat(&[
            b"id,puzzle,note\r\n1,",
            P1,
            b",\"two\nlines\"\r\n\n# between\n2,\"",
            P2,
            b"\",\"a \"\"quoted\"\",\rthree\r\nlines\"\r3,",
            P1,
            b",",
        ]);
        let (format, _, recs) = read_all(&input, InputFormat::Auto);
        assert_eq!(format, InputFormat::Csv);
        let got: Vec<(u64, Result<Grid, ParseError>)> =
            recs.iter().map(|r| (r.line, r.puzzle)).collect();
        assert_eq!(
            got,
            [(2, Ok(grid(P1))), (6, Ok(grid(P2))), (9, Ok(grid(P1)))]
        );
        let options = ReadOptions {
            keep_columns: true,
            ..ReadOptions::default()
        };
        let mut reader = RecordReader::with_options(&input[..], &options).unwrap();
        assert_eq!(reader.kept_names().unwrap(), ["id", "note"]);
        let mut rec = Record::default();
        assert!(reader.read_record(&mut rec).unwrap());
        assert!(reader.read_record(&mut rec).unwrap());
        // Line breaks inside a quoted field are kept as they were.
        assert_eq!(rec.kept_field(1), b"a \"quoted\",\rthree\r\nlines");
    }

    #[test]
    fn a_csv_header_longer_than_the_line_cap_is_read_whole() {
        let names: Vec<String> = (0..800).map(|i| format!("column_{i}")).collect();
        let header = format!("puzzle,{}\n", names.join(","));
        assert!(header.len() > 2 * MAX_LINE_BYTES);
        let input = cat(&[header.as_bytes(), P1, &b",v".repeat(800), b"\n"]);
        let options = ReadOptions {
            keep_columns: true,
            ..ReadOptions::default()
        };
        let mut reader = RecordReader::with_options(&input[..], &options).unwrap();
        assert_eq!(reader.format(), InputFormat::Csv);
        assert_eq!(reader.kept_names().unwrap(), names);
        let mut rec = Record::default();
        assert!(reader.read_record(&mut rec).unwrap());
        assert_eq!(rec.puzzle, Ok(grid(P1)));
        assert_eq!(rec.kept_ends.len(), 800);
        assert_eq!(rec.kept_field(799), b"v");
    }

    #[test]
    fn csv_records_do_not_depend_on_read_sizes() {
        let input = cat(&[
            b" end\n",
            &vec![b'1'; 4080],
            b"quizzes,solutions\n\xef\xbb\xbf",
        ]);
        let (_, _, a) = read_all(&input, InputFormat::Csv);
        let mut reader = RecordReader::new(
            io::BufReader::with_capacity(1, &input[..]),
            InputFormat::Csv,
        )
        .unwrap();
        let mut rec = Record::default();
        let mut b = Vec::new();
        while reader.read_record(&mut rec).unwrap() {
            b.push((rec.line, rec.puzzle));
        }
        let a: Vec<_> = a.iter().map(|r| (r.line, r.puzzle)).collect();
        assert_eq!(a, b);
    }

    /// Every record of CSV `input` read through reads of `chunk` bytes (all
    /// at once when 0): (line, puzzle, expected, kept fields).
    #[allow(clippy::type_complexity)]
    fn csv_rows(
        input: &[u8],
        options: &ReadOptions,
        chunk: usize,
    ) -> Vec<(
        u64,
        Result<Grid, ParseError>,
        Option<Result<Grid, ParseError>>,
        Vec<Vec<u8>>,
    )> {
        let cap = if chunk == 0 {
            input.len().max(1)
        } else {
            chunk
        };
        let rdr = io::BufReader::with_capacity(cap, input);
        let mut reader = RecordReader::with_options(rdr, options).unwrap();
        assert_eq!(reader.format(), InputFormat::Csv);
        let mut rec = Record::default();
        let mut out = Vec::new();
        while reader.read_record(&mut rec).unwrap() {
            let kept = (0..rec.kept_ends.len())
                .map(|i| rec.kept_field(i).to_vec())
                .collect();
            out.push((rec.line, rec.puzzle, rec.expected, kept));
        }
        out
    }

    /// [`csv_rows`], checked to be the same for reads of 1, 2, 3 and 7 bytes.
    #[allow(clippy::type_complexity)]
    fn csv_rows_any_reads(
        input: &[u8],
        options: &ReadOptions,
    ) -> Vec<(
        u64,
        Result<Grid, ParseError>,
        Option<Result<Grid, ParseError>>,
        Vec<Vec<u8>>,
    )> {
        let whole = csv_rows(input, options, 0);
        for chunk in [1, 2, 3, 7] {
            assert_eq!(csv_rows(input, options, chunk), whole, "reads of {chunk}");
        }
        whole
    }

    fn keep() -> ReadOptions {
        ReadOptions {
            keep_columns: true,
            ..ReadOptions::default()
        }
    }

    const UNCLOSED: ParseErrorKind = ParseErrorKind::UnclosedQuote;

    #[test]
    fn an_unclosed_quote_is_one_record_and_every_record_after_it_is_read() {
        // `n` records under a header, record `at` (0-based) with a quote that
        // never closes; the records after it valid or not, LF or CRLF.
        for n in [1usize, 2, 10, 30, 200, 1000] {
            for at in [0, n / 2, n - 1] {
                for bad_after in [false, true] {
                    for eol in [&b"\n"[..], b"\r\n"] {
                        let mut input = cat(&[b"puzzle,note", eol]);
                        for i in 0..n {
                            let puzzle = if bad_after && i > at { &P1[..80] } else { P1 };
                            let note: &[u8] = if i == at { b"\"never closed" } else { b"x" };
                            input.extend_from_slice(&cat(&[puzzle, b",", note, eol]));
                        }
                        let what = format!("n {n} at {at} bad_after {bad_after} eol {eol:?}");
                        let recs = csv_rows(&input, &keep(), 0);
                        assert_eq!(recs.len(), n, "{what}");
                        for (i, (line, puzzle, _, kept)) in recs.iter().enumerate() {
                            assert_eq!(*line, i as u64 + 2, "{what}");
                            if i == at {
                                assert_eq!(*puzzle, Err(ParseError::new(UNCLOSED, 83)), "{what}");
                                assert!(kept.is_empty(), "{what}");
                            } else if bad_after && i > at {
                                assert!(puzzle.is_err(), "{what}");
                                assert_eq!(kept, &[b"x"], "{what}");
                            } else {
                                assert_eq!(*puzzle, Ok(grid(P1)), "{what}");
                                assert_eq!(kept, &[b"x"], "{what}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_quote_goes_on_only_within_bounds_and_never_over_a_record() {
        let header: &[u8] = b"id,puzzle,note\n";
        let lines = |note_lines: usize, width: usize| -> Vec<u8> {
            // A note quoted over `note_lines` lines (the first line's part
            // counts), then a record after it.
            let mut input = cat(&[header, b"1,", P1, b",\"a"]);
            for _ in 1..note_lines {
                input.extend_from_slice(b"\n");
                input.extend_from_slice(&vec![b'n'; width]);
            }
            input.extend_from_slice(&cat(&[b"\"\n2,", P2, b",x\n"]));
            input
        };
        let lines_of = |input: &[u8]| -> Vec<(u64, bool)> {
            csv_rows_any_reads(input, &keep())
                .into_iter()
                .map(|r| (r.0, r.1 == Err(ParseError::new(UNCLOSED, 85))))
                .collect()
        };
        // A record of up to MAX_RECORD_LINES lines closes; one more breaks it,
        // and every line after its first is read again.
        let most = crate::parse::csv_input::MAX_RECORD_LINES;
        assert_eq!(lines_of(&lines(most, 3)), [(2, false), (18, false)]);
        let broken = lines_of(&lines(most + 1, 3));
        assert_eq!(broken.len(), 2 + most);
        assert_eq!(broken[0], (2, true));
        assert_eq!(broken.last(), Some(&(19, false)));
        // The same in bytes: the record's lines hold MAX_LINE_BYTES at most.
        let first = b"1,".len() + P1.len() + b",\"a".len();
        let fits = (MAX_LINE_BYTES - first - 1) / 2;
        assert_eq!(lines_of(&lines(3, fits)), [(2, false), (5, false)]);
        assert_eq!(
            lines_of(&lines(3, fits + 2)),
            [(2, true), (3, false), (4, false), (5, false)]
        );
        // A line holding a puzzle in the puzzle column is a record, never part
        // of a quoted field; a puzzle in another column is just text.
        let input = cat(&[
            header,
            b"1,",
            P1,
            b",\"see\n",
            P2,
            b" for more\nend\"\n2,",
            P2,
            b",x\n",
        ]);
        assert_eq!(lines_of(&input), [(2, false), (5, false)]);
        let rows = csv_rows(&input, &keep(), 0);
        assert_eq!(rows[0].3[1], cat(&[b"see\n", P2, b" for more\nend"]));
        let input = cat(&[header, b"1,", P1, b",\"see\n3,", P2, b",x\nend\"\n"]);
        assert_eq!(lines_of(&input), [(2, true), (3, false), (4, false)]);
        // The end of the input inside a quote breaks the record too.
        let input = cat(&[header, b"1,", P1, b",\"a\nb\nc"]);
        assert_eq!(lines_of(&input), [(2, true), (3, false), (4, false)]);
    }

    #[test]
    fn a_line_break_in_a_quoted_field_before_the_puzzle_is_one_record() {
        let p1 = parse_line(P1).unwrap();
        let p2 = parse_line(P2).unwrap();
        // The quote closes on a line that, read alone, holds a puzzle in the
        // puzzle column: that line ends the record, which holds its puzzle.
        for eol in [&b"\n"[..], b"\r\n"] {
            for header in [&b"note,puzzle"[..], b""] {
                let mut input = Vec::new();
                if !header.is_empty() {
                    input.extend_from_slice(&cat(&[header, eol]));
                }
                input.extend_from_slice(&cat(&[b"\"multi", eol, b"line note\",", P1, eol]));
                input.extend_from_slice(&cat(&[b"\"a", eol, b"b", eol, b"c\",", P2, eol]));
                input.extend_from_slice(&cat(&[b"plain,", P1, eol]));
                let first = u64::from(!header.is_empty()) + 1;
                // (A headerless file whose first line is an open quote
                // is not sniffed as CSV: it is named.)
                let options = ReadOptions {
                    format: InputFormat::Csv,
                    ..keep()
                };
                let rows = csv_rows_any_reads(&input, &options);
                let got: Vec<_> = rows.iter().map(|r| (r.0, r.1)).collect();
                let what = format!("header {:?} eol {eol:?}", String::from_utf8_lossy(header));
                assert_eq!(
                    got,
                    [(first, Ok(p1)), (first + 2, Ok(p2)), (first + 5, Ok(p1))],
                    "{what}"
                );
                assert_eq!(rows[0].3, [cat(&[b"multi", eol, b"line note"])], "{what}");
                assert_eq!(rows[1].3, [cat(&[b"a", eol, b"b", eol, b"c"])], "{what}");
            }
        }
        // A stray quote still costs one row when the quote closes on a record
        // but the record so ended holds no puzzle in the puzzle column.
        let input = cat(&[b"id,puzzle,note\n1,\"", P1, b",a\n2,", P2, b",\"b\"\n"]);
        let got: Vec<_> = csv_rows_any_reads(&input, &keep())
            .into_iter()
            .map(|r| (r.0, r.1))
            .collect();
        assert_eq!(got, [(2, Err(ParseError::new(UNCLOSED, 3))), (3, Ok(p2))]);
    }

    #[test]
    fn a_header_with_an_unclosed_quote_is_its_first_line() {
        let input = cat(&[b"puzzle,\"note\n", P1, b",x\n", P2, b",\"y\"\n"]);
        let options = keep();
        let mut reader = RecordReader::with_options(&input[..], &options).unwrap();
        assert_eq!(reader.kept_names().unwrap(), ["note"]);
        let mut rec = Record::default();
        assert!(reader.read_record(&mut rec).unwrap());
        assert_eq!((rec.line, rec.puzzle), (2, Ok(grid(P1))));
        assert!(reader.read_record(&mut rec).unwrap());
        assert_eq!((rec.line, rec.puzzle), (3, Ok(grid(P2))));
        assert_eq!(rec.kept_field(0), b"y");
        assert!(!reader.read_record(&mut rec).unwrap());
    }

    #[test]
    fn kept_quoted_fields_are_kept_byte_for_byte() {
        let input = cat(&[
            b"puzzle,a,b,c\r\n",
            P1,
            b",\"  two spaces  \", unquoted ,\"crlf\r\ninside\"\r\n",
            P1,
            b",\"lone\rcr\",\"\",\"lf\ninside \"\"quoted\"\"\"\r",
            P1,
            b",\"\r\n\",\" \",\"\"\n",
        ]);
        let rows = csv_rows_any_reads(&input, &keep());
        let kept: Vec<Vec<Vec<u8>>> = rows.iter().map(|r| r.3.clone()).collect();
        let v = |fields: &[&[u8]]| fields.iter().map(|f| f.to_vec()).collect::<Vec<_>>();
        assert_eq!(
            kept,
            [
                v(&[b"  two spaces  ", b"unquoted", b"crlf\r\ninside"]),
                v(&[b"lone\rcr", b"", b"lf\ninside \"quoted\""]),
                v(&[b"\r\n", b" ", b""]),
            ]
        );
        let lines: Vec<u64> = rows.iter().map(|r| r.0).collect();
        assert_eq!(lines, [2, 4, 7]);
        assert!(rows.iter().all(|r| r.1 == Ok(grid(P1))));
    }

    #[test]
    fn a_headerless_file_takes_its_puzzle_column_from_its_records() {
        let rows = |input: &[u8], format| {
            let options = ReadOptions {
                format,
                keep_columns: true,
                ..ReadOptions::default()
            };
            let mut reader = RecordReader::with_options(input, &options).unwrap();
            assert_eq!(reader.format(), InputFormat::Csv);
            let names = reader.kept_names().unwrap().to_vec();
            let has_expected = reader.has_expected();
            let mut rec = Record::default();
            let mut out = Vec::new();
            while reader.read_record(&mut rec).unwrap() {
                out.push((rec.line, rec.puzzle, rec.kept_field(0).to_vec()));
            }
            (names, has_expected, out)
        };
        // `N,<puzzle>`: the first line is a record, the puzzle column is 2.
        for format in [InputFormat::Auto, InputFormat::Csv] {
            let input = cat(&[b"1,", P1, b"\n2,", P2, b"\n3,", &P1[..80], b"\n"]);
            let (names, has_expected, out) = rows(&input, format);
            assert_eq!(names, ["field_1"]);
            assert!(!has_expected);
            assert_eq!(out.len(), 3);
            assert_eq!(out[0], (1, Ok(grid(P1)), b"1".to_vec()));
            assert_eq!(out[1], (2, Ok(grid(P2)), b"2".to_vec()));
            assert_eq!((out[2].0, out[2].2.as_slice()), (3, &b"3"[..]));
            assert!(out[2].1.is_err());
            // One record alone.
            let input = cat(&[b"7,", P1]);
            let (_, _, out) = rows(&input, format);
            assert_eq!(out, [(1, Ok(grid(P1)), b"7".to_vec())]);
        }
        // A first record with a bad puzzle: the others decide the column.
        let input = cat(&[
            b"1,",
            &P1[..80],
            b"x,",
            S1,
            b"\n2,",
            P2,
            b",",
            S1,
            b"\n3,",
            P1,
            b",",
            S1,
            b"\n",
        ]);
        let (names, has_expected, out) = rows(&input, InputFormat::Csv);
        assert_eq!(names, ["field_1", "field_3"]);
        assert!(has_expected);
        let got: Vec<u64> = out.iter().map(|r| r.0).collect();
        assert_eq!(got, [1, 2, 3]);
        assert!(out[0].1.is_err() && out[1].1 == Ok(grid(P2)));
        // `<puzzle>,<id>` and `<puzzle>,<solution>`.
        let input = cat(&[P1, b",id-1\n", P2, b",id-2\n"]);
        let (_, has_expected, out) = rows(&input, InputFormat::Csv);
        assert!(!has_expected);
        assert_eq!(out[1], (2, Ok(grid(P2)), b"id-2".to_vec()));
        // A first record too long for a record is one, however it was read.
        let input = cat(&[
            b"1,",
            P1,
            b",",
            &[b'x'; MAX_LINE_BYTES],
            b"\n2,",
            P2,
            b",y\n",
        ]);
        let (_, _, out) = rows(&input, InputFormat::Csv);
        let limit = MAX_LINE_BYTES as u32;
        let too_long = Err(ParseError::new(ParseErrorKind::LineTooLong { limit }, 0));
        assert_eq!(out[0].1, too_long);
        assert_eq!(out[1], (2, Ok(grid(P2)), b"2".to_vec()));
        // A header whose names do not say: the records say.
        let input = cat(&[b"id,board\n7,", P1, b"\n"]);
        let (names, _, out) = rows(&input, InputFormat::Auto);
        assert_eq!(names, ["id"]);
        assert_eq!(out, [(2, Ok(grid(P1)), b"7".to_vec())]);
        // A header that names the column is a header, whatever follows.
        let input = cat(&[b"puzzle,id\n", P1, b",1\n"]);
        let (names, _, out) = rows(&input, InputFormat::Csv);
        assert_eq!(names, ["id"]);
        assert_eq!(out, [(2, Ok(grid(P1)), b"1".to_vec())]);
        // Reading ahead loses nothing: the sampled records, an unclosed quote
        // among them, are all read again.
        let mut input = Vec::new();
        for i in 0..40 {
            let note: &[u8] = if i == 5 { b"\"open" } else { b"ok" };
            input.extend_from_slice(&cat(&[format!("{i},").as_bytes(), P1, b",", note, b"\r\n"]));
        }
        let (_, _, out) = rows(&input, InputFormat::Csv);
        assert_eq!(out.len(), 40);
        for (i, r) in out.iter().enumerate() {
            assert_eq!(r.0, i as u64 + 1);
            let want = if i == 5 {
                Err(ParseError::new(UNCLOSED, 85))
            } else {
                Ok(grid(P1))
            };
            assert_eq!(r.1, want, "record {i}");
        }
    }

    #[test]
    fn an_empty_solution_cell_is_no_expected_solution() {
        let input = cat(&[
            b"puzzle,solution\n",
            P1,
            b",\n",
            P1,
            b",",
            S1,
            b"\n",
            P1,
            b", \"\" \n",
            P1,
            b",x\n",
        ]);
        let rows = csv_rows_any_reads(&input, &ReadOptions::default());
        let expected: Vec<_> = rows.iter().map(|r| r.2).collect();
        assert_eq!(expected[..3], [None, Some(Ok(grid(S1))), None]);
        assert!(matches!(expected[3], Some(Err(_))));
        assert!(rows.iter().all(|r| r.1 == Ok(grid(P1))));
    }
}
