//! Tests of [`RecordReader`] on CSV input: Kaggle layouts, column
//! choice, RFC 4180 records (quoted line breaks), hostile rows and long
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
    // RFC 4180: the quote opened on line 2 closes on line 4, so lines 2-4
    // are one record (too long to keep); line 5 is the next.
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
    assert_eq!(recs.len(), 3);
    assert!(matches!(kind(&recs[0]), ParseErrorKind::LineTooLong { .. }));
    assert!(matches!(
        recs[0].expected,
        Some(Err(ParseError {
            kind: ParseErrorKind::LineTooLong { .. },
            ..
        }))
    ));
    assert_eq!((recs[1].line, recs[1].puzzle), (5, Ok(grid(P1))));
    // An unclosed quote runs to the end of the input: one record.
    assert_eq!((recs[2].line, kind(&recs[2])), (6, ParseErrorKind::Empty));
    // Many short lines inside one quoted field: one record, bounded.
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
    assert!(matches!(
        rec.puzzle,
        Err(ParseError {
            kind: ParseErrorKind::LineTooLong { .. },
            ..
        })
    ));
    assert!(reader.csv.out_capacity() <= 2 * MAX_LINE_BYTES);
    assert!(reader.read_record(&mut rec).unwrap());
    assert_eq!((rec.line, rec.puzzle), (10_003, Ok(grid(P2))));
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
    // Line breaks inside a field come out as `\n`.
    assert_eq!(rec.kept_field(1), b"a \"quoted\",\nthree\nlines");
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
