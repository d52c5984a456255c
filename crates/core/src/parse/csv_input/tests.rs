//! Unit tests of the CSV layout: tokenizing, delimiters, header and
//! headerless layouts, column statistics, and field errors.

use super::rows::holds_puzzle;
use super::*;
use crate::parse::lines::MAX_LINE_BYTES;
use crate::parse::ParseErrorKind;

/// Tokenizes `input` (lines separated by `\n`) as one record.
fn record(input: &[u8]) -> CsvRecord {
    let mut rec = CsvRecord::default();
    rec.begin(1, MAX_LINE_BYTES);
    let mut lines = input.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let ended = if lines.peek().is_some() {
            rec.feed(line) || rec.feed(b"\n")
        } else {
            rec.feed(line) || {
                rec.finish();
                true
            }
        };
        if ended {
            assert!(lines.peek().is_none(), "record ended early");
            break;
        }
        rec.new_line();
    }
    rec
}

fn fields(input: &[u8]) -> Vec<Vec<u8>> {
    let rec = record(input);
    (0..rec.len())
        .map(|i| rec.field(i).unwrap().0.to_vec())
        .collect()
}

#[test]
fn tokenizes_as_rfc_4180() {
    let v = |parts: &[&[u8]]| parts.iter().map(|p| p.to_vec()).collect::<Vec<_>>();
    assert_eq!(fields(b"a,b"), v(&[b"a", b"b"]));
    assert_eq!(fields(b"a, b ,"), v(&[b"a", b"b", b""]));
    assert_eq!(
        fields(b"\"b,c\",\"say \"\"hi\"\"\""),
        v(&[b"b,c", b"say \"hi\""])
    );
    assert_eq!(fields(b"\"two\nlines\",x"), v(&[b"two\nlines", b"x"]));
    assert_eq!(fields(b""), Vec::<Vec<u8>>::new());
    assert_eq!(fields(b"\"unclosed,x"), v(&[b"unclosed,x"]));
}

#[test]
fn kept_fields_are_raw_when_quoted() {
    let rec = record(b" a ,\" b \", \"c\" ,\"d\re\"");
    let kept: Vec<&[u8]> = (0..rec.len()).map(|i| rec.kept(i).unwrap()).collect();
    assert_eq!(kept, [&b"a"[..], b" b ", b"c", b"d\re"]);
    assert_eq!(rec.kept(4), None);
}

#[test]
fn an_expected_column_is_named_as_one_and_holds_grids() {
    let mut stats = ColumnStats::default();
    // solve's own output: a count, a grid, a count of guesses.
    let row = [&b"1"[..], P, b"solved", b"1", S, b"12"].join(&b","[..]);
    stats.add(&record(&row));
    let header = record(b"index,puzzle,status,solutions,solution,guesses");
    let at = |expected: ExpectedColumn| {
        CsvLayout::from_header(&header, None, &expected, &stats).map(|l| l.expected)
    };
    assert_eq!(at(ExpectedColumn::Detect), Ok(Some(4)));
    assert_eq!(at(ExpectedColumn::Ignore), Ok(None));
    assert_eq!(at(ExpectedColumn::Named("GUESSES".into())), Ok(Some(5)));
    let err = at(ExpectedColumn::Named("answer".into())).unwrap_err();
    assert!(
        err.contains("'answer'") && err.contains("index, puzzle"),
        "{err}"
    );
    let err = at(ExpectedColumn::Named("puzzle".into())).unwrap_err();
    assert!(err.contains("is the puzzle column"), "{err}");
    // A `solutions` column of counts alone is never one.
    let header = record(b"index,puzzle,status,solutions");
    let counts = CsvLayout::from_header(&header, None, &ExpectedColumn::Detect, &stats);
    assert_eq!(counts.map(|l| l.expected), Ok(None));
    // At least half of the filled cells must be grids; empty cells
    // do not count against a column.
    let mut stats = ColumnStats::default();
    for row in [&[P, S][..], &[P, b""], &[P, &S[..80]], &[P, b"7"]] {
        stats.add(&record(&row.join(&b","[..])));
    }
    assert!(stats.holds_grids(0));
    assert!(!stats.holds_grids(1), "one grid of three filled cells");
    stats.add(&record(&[P, S].join(&b","[..])));
    assert!(stats.holds_grids(1), "two of four");
}

#[test]
fn delimiters_are_sniffed_from_the_sample_lines() {
    let one = |line: &[u8]| sniff_delimiter(&[line]);
    // One line alone (a header, say): the one that splits it, most often.
    assert_eq!(one(b"quizzes,solutions"), b',');
    assert_eq!(one(b"quizzes;solutions"), b';');
    assert_eq!(one(b"quizzes\tsolutions\tid"), b'\t');
    assert_eq!(one(b"\"a;b;c\",d"), b',', "quoted ones do not count");
    assert_eq!(one(b"a;b,c"), b',', "a tie goes to the comma");
    assert_eq!(one(b"puzzle"), b',');
    assert_eq!(sniff_delimiter(&[]), b',');
    assert_eq!(
        line_fields(&mut CsvRecord::with_delimiter(b';'), b"a;\"b;c\";d"),
        [&b"a"[..], b"b;c", b"d"]
    );
    // No single line decides: a first note full of commas in a
    // `;`-separated file, headerless or under a header.
    let row = |parts: &[&[u8]], d: &[u8]| parts.join(d);
    let noisy = row(&[b"1", P, b"note, with, commas, many"], b";");
    let plain = row(&[b"2", P, b"plain"], b";");
    assert_eq!(sniff_delimiter(&[&noisy, &plain, &plain]), b';');
    assert_eq!(sniff_delimiter(&[&noisy]), b';', "the grid in a field");
    let header = &b"id;puzzle;note, or comment, free text"[..];
    assert_eq!(sniff_delimiter(&[header, &plain, &plain]), b';');
    // Tab-separated with commas and semicolons in the notes.
    let tabbed = row(&[b"7", P, S, b"a, b; c, d"], b"\t");
    assert_eq!(sniff_delimiter(&[&tabbed, &tabbed]), b'\t');
    // Comma-separated with semicolons in a note: still commas.
    let commas = row(&[b"x;y;z;w", P], b",");
    assert_eq!(sniff_delimiter(&[&commas, &row(&[b"1", P], b",")]), b',');
    // Without grids, the field count most lines share decides.
    let bad = [&b"1;abc;x, y, z, w"[..], b"2;def;u", b"3;ghi;v"];
    assert_eq!(sniff_delimiter(&bad), b';');
    // A grid with text cut at another delimiter is not a field of its own.
    let cut = row(&[P, b"note;with;semicolons"], b",");
    assert_eq!(sniff_delimiter(&[&cut, &cut]), b',');
}

#[test]
fn column_stats_choose_puzzles_over_solutions() {
    let stats = |rows: &[&[u8]]| {
        let mut stats = ColumnStats::default();
        for row in rows {
            stats.add(&record(row));
        }
        stats
    };
    let row = |parts: &[&[u8]]| parts.join(&b","[..]);
    let (id_p, p_s, s_p, bad) = (
        row(&[b"1", P]),
        row(&[P, S]),
        row(&[S, P]),
        row(&[b"2", &P[..80], S]),
    );
    let id_p_s = row(&[b"3", P, S]);
    let st = stats(&[&id_p, &id_p]);
    assert_eq!((st.puzzle_column(), st.solution_column(1)), (Some(1), None));
    let st = stats(&[&p_s]);
    assert_eq!(
        (st.puzzle_column(), st.solution_column(0)),
        (Some(0), Some(1))
    );
    let st = stats(&[&s_p, &s_p]);
    assert_eq!(
        (st.puzzle_column(), st.solution_column(1)),
        (Some(1), Some(0))
    );
    // A bad puzzle beside a solution: the other records decide.
    let st = stats(&[&bad, &id_p_s, &id_p_s]);
    assert_eq!(
        (st.puzzle_column(), st.solution_column(1)),
        (Some(1), Some(2))
    );
    // Solutions in a minority of the records are not a column of them.
    let st = stats(&[&id_p_s, &id_p, &id_p]);
    assert_eq!(st.solution_column(1), None);
    assert_eq!(stats(&[b"a,b"]).puzzle_column(), None);
}

#[test]
fn a_line_holds_a_puzzle_in_a_column_when_read_alone() {
    const P: &[u8] =
        b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let mut probe = CsvRecord::default();
    let line = [&b"7,"[..], P, b",\"open"].concat();
    assert!(holds_puzzle(&mut probe, &line, Some(1)));
    assert!(holds_puzzle(&mut probe, &line, None));
    assert!(!holds_puzzle(&mut probe, &line, Some(0)));
    assert!(!holds_puzzle(&mut probe, b"lines\"", None));
    let quoted = [&b"\""[..], P].concat();
    assert!(holds_puzzle(&mut probe, &quoted, Some(0)));
}

#[test]
fn too_long_records_keep_bounded_memory() {
    let mut rec = CsvRecord::default();
    rec.begin(1, 8);
    assert!(!rec.feed(b"\"0123456789"));
    assert!(!rec.feed(b"\n"));
    assert!(rec.feed(b"\",x\n"));
    assert!(rec.too_long());
    assert!(rec.out.len() <= 8);
}

const P: &[u8] =
    b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const S: &[u8] =
    b"483921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// Stats of rows whose every field is a grid (what a column of
/// solutions holds), `width` fields each.
fn grid_stats(width: usize) -> ColumnStats {
    let mut stats = ColumnStats::default();
    stats.add(&record(&vec![S; width].join(&b","[..])));
    stats
}

fn layout(line: &[u8]) -> CsvLayout {
    let stats = grid_stats(8);
    CsvLayout::from_header(&record(line), None, &ExpectedColumn::Detect, &stats).unwrap()
}

#[test]
fn header_layouts() {
    let both = |puzzle, expected| CsvLayout { puzzle, expected };
    assert_eq!(layout(b"quizzes,solutions"), both(0, Some(1)));
    assert_eq!(layout(b"id,Puzzle,Solution,clues"), both(1, Some(2)));
    assert_eq!(layout(b"\"QUESTION\", \"answer\""), both(0, Some(1)));
    // `solution` is preferred to `solutions` (solve's count column).
    assert_eq!(layout(b"puzzle,solutions,solution"), both(0, Some(2)));
    assert_eq!(layout(b"puzzle,sol"), both(0, None));
    assert_eq!(layout(b"puzzle,source"), both(0, None));
    assert_eq!(layout(b"puzzle,sol,x"), both(0, None));
    assert_eq!(layout(b"grid,rating"), both(0, None));
    assert_eq!(layout(b"rating,quiz"), both(1, None));
    assert_eq!(layout(b"puzzle"), both(0, None));
}

#[test]
fn a_named_column_wins_or_is_an_error() {
    let stats = grid_stats(8);
    let named = |line: &[u8], col| {
        CsvLayout::from_header(&record(line), Some(col), &ExpectedColumn::Detect, &stats)
    };
    let both = |puzzle, expected| CsvLayout { puzzle, expected };
    assert_eq!(named(b"id,Grid,answer", "grid"), Ok(both(1, Some(2))));
    assert_eq!(
        named(b"quizzes,solutions,other", "other"),
        Ok(both(2, Some(1)))
    );
    assert_eq!(named(b"answer,x", "answer"), Ok(both(0, None)));
    let err = named(b"id,puzzle", "board").unwrap_err();
    assert!(
        err.contains("'board'") && err.contains("id, puzzle"),
        "{err}"
    );
}

#[test]
fn field_errors_name_the_line_column() {
    let rec = record(b"abc, ..x");
    let e = parse_puzzle_field(&rec, 1).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::BadChar { byte: b'x' });
    assert_eq!(e.col, 8);
    let e = parse_puzzle_field(&rec, 2).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::MissingColumn);
    assert_eq!(e.to_string(), "missing CSV column 3");
    let e = parse_puzzle_field(&record(b"x,"), 1).unwrap_err();
    assert_eq!((e.kind, e.col), (ParseErrorKind::Empty, 3));
    // Past an opening quote.
    let e = parse_puzzle_field(&record(b"x,\"..x\""), 1).unwrap_err();
    assert_eq!((e.kind, e.col), (ParseErrorKind::BadChar { byte: b'x' }, 6));
}

#[test]
fn solution_must_be_complete() {
    let solved = crate::testdata::SOLVED.as_bytes();
    let mut line = b"p,".to_vec();
    line.extend_from_slice(solved);
    assert!(parse_solution_field(&record(&line), 1).is_ok());
    line[5] = b'.';
    line[9] = b'0';
    let e = parse_solution_field(&record(&line), 1).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::Incomplete { blanks: 2 });
    assert_eq!(e.to_string(), "solution has 2 blank cells");
}
