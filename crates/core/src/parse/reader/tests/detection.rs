//! Tests of format detection and of hostile input in every format:
//! empty and preamble inputs, a bad first line, binary bytes, I/O
//! errors, and buffers reused from record to record.

use super::*;

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
        b"{Forum puzzles, 2024}",
        b"{\"source\": \"forum\"}",
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
fn json_lines_are_read_when_their_lines_say_so() {
    // A junk first line in a JSONL file is one invalid record of it.
    let object = |p: &[u8]| cat(&[b"{\"puzzle\": \"", p, b"\"}\n"]);
    let input = cat(&[b"{Forum puzzles, 2024}\n", &object(P1), &object(P2)]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Jsonl);
    let lines: Vec<u64> = recs.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3]);
    assert!(recs[0].puzzle.is_err());
    assert_eq!(
        (&recs[1].puzzle, &recs[2].puzzle),
        (&Ok(grid(P1)), &Ok(grid(P2)))
    );
    // Objects that are not records in a line file are invalid lines of it.
    let input = cat(&[&object(P1), P1, b"\n", P2, b"\n"]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Line);
    assert_eq!(recs.len(), 3);
    assert!(recs[0].puzzle.is_err() && recs[1].puzzle.is_ok() && recs[2].puzzle.is_ok());
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
