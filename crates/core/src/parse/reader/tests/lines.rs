//! Tests of the line and POJ formats: blank, comment and `end` lines,
//! trailing text, line endings and BOM, and lines past the length cap.

use super::*;

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
