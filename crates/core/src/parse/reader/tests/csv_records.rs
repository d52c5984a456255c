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

/// A delimiter that a field holds unquoted (a cell character, a letter, a
/// quote) is refused when the reader opens, whatever the input: one rule
/// with the command line's `--delimiter`.
#[test]
fn a_delimiter_that_can_be_a_cell_is_refused() {
    for bad in [b'.', b'-', b'_', b'*', b'0', b'5', b'x', b'"', b'\n'] {
        let options = ReadOptions {
            delimiter: Some(bad),
            ..ReadOptions::default()
        };
        let err = RecordReader::with_options(P1, &options).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("cannot separate fields"), "{err}");
    }
    for good in [b',', b';', b'\t', b'|', b' ', b':'] {
        let options = ReadOptions {
            delimiter: Some(good),
            ..ReadOptions::default()
        };
        assert!(
            RecordReader::with_options(P1, &options).is_ok(),
            "{}",
            good as char
        );
    }
}

#[test]
fn the_delimiter_is_the_one_the_first_records_say() {
    // A `;`-separated file whose first note holds commas: every record
    // read, detected or forced CSV, headerless or under a header, with
    // the notes kept whole (a comma sniffed from the first line alone
    // made every record invalid, and forced CSV took record 1 for a
    // header).
    let body = cat(&[
        b"1;",
        P1,
        b";note, with, commas, four\n",
        b"2;",
        P2,
        b";plain\r\n",
        b"3;",
        &P1[..80],
        b";short\n",
        b"# a comment\n",
        b"4;",
        P2,
        b";\"quoted; semi, comma\"\n",
    ]);
    let header = cat(&[b"id;puzzle;note, free text\n", &body]);
    for (input, first) in [(&body, 1), (&header, 2)] {
        for format in [InputFormat::Auto, InputFormat::Csv] {
            let options = ReadOptions { format, ..keep() };
            let mut reader = RecordReader::with_options(&input[..], &options).unwrap();
            assert_eq!(reader.format(), InputFormat::Csv);
            let mut rec = Record::default();
            let mut out = Vec::new();
            while reader.read_record(&mut rec).unwrap() {
                out.push((rec.line, rec.puzzle.is_ok(), rec.kept_field(1).to_vec()));
            }
            let lines: Vec<u64> = out.iter().map(|r| r.0).collect();
            assert_eq!(lines, [first, first + 1, first + 2, first + 4]);
            let ok: Vec<bool> = out.iter().map(|r| r.1).collect();
            assert_eq!(ok, [true, true, false, true], "{format:?}");
            assert_eq!(out[0].2, b"note, with, commas, four");
            assert_eq!(out[3].2, b"quoted; semi, comma");
        }
    }
    // A named delimiter is still the one used.
    let options = ReadOptions {
        delimiter: Some(b','),
        ..ReadOptions::default()
    };
    let mut reader = RecordReader::with_options(&body[..], &options).unwrap();
    let mut rec = Record::default();
    assert!(reader.read_record(&mut rec).unwrap());
    assert!(rec.puzzle.is_err());
}
