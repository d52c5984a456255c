//! Tests of the row schema and the encoders: header names, quoting, every
//! format, and encoding without allocation once warm.

use super::encode::*;
use super::schema::*;
use batchdoku_core::Record;

use batchdoku_core::testdata::SOLVED;

fn rec(trailing: &[u8]) -> Record {
    Record {
        trailing: trailing.to_vec(),
        ..Record::default()
    }
}

#[test]
fn kept_columns_are_named_from_the_input_and_quoted() {
    let cols = [Column::Status, Column::Kept(0), Column::Kept(1)];
    let names = ["status".to_string(), "rating".to_string()];
    assert_eq!(
        RowEncoder::header(OutputFormat::Csv, &cols, &names),
        b"status,input_status,rating\n"
    );
    let mut record = Record::default();
    for field in [&b"a,b"[..], b"9.5"] {
        record.kept.extend_from_slice(field);
        record.kept_ends.push(record.kept.len() as u32);
    }
    let mut out = Vec::new();
    let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &names);
    enc.encode(&sample_row(), &record, &mut out).unwrap();
    assert_eq!(out, b"unique,\"a,b\",9.5\n");
    let mut enc = RowEncoder::new(OutputFormat::Jsonl, &cols, &names);
    out.clear();
    enc.encode(&sample_row(), &record, &mut out).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["input_status"], "a,b");
    assert_eq!(v["rating"], "9.5");
}

fn sample_row() -> Row {
    let g = batchdoku_core::parse_line(SOLVED.as_bytes()).unwrap();
    let mut row = Row::default();
    row.reset(3, 7);
    row.puzzle = Some(g);
    row.status = Status::Unique;
    row.solutions = 1;
    row.solution = Some(g);
    row.guesses = 2;
    row
}

#[test]
fn csv_row_has_every_column_in_order() {
    let cols = [
        Column::Index,
        Column::Line,
        Column::Status,
        Column::Solution,
        Column::Error,
    ];
    let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
    let mut out = Vec::new();
    enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("3,7,unique,{SOLVED},\n")
    );
    assert_eq!(
        RowEncoder::header(OutputFormat::Csv, &cols, &[]),
        b"index,line,status,solution,error\n"
    );
}

#[test]
fn csv_quotes_errors_with_commas() {
    let cols = [Column::Status, Column::Error, Column::Trailing];
    let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
    let mut row = Row::default();
    row.error.push_str("bad, \"char\"");
    let mut out = Vec::new();
    enc.encode(&row, &rec(b"id,7"), &mut out).unwrap();
    assert_eq!(out, b"invalid,\"bad, \"\"char\"\"\",\"id,7\"\n");
}

#[test]
fn csv_empty_first_field_and_quotes_round_trip() {
    let cols = [
        Column::Puzzle,
        Column::Error,
        Column::Status,
        Column::Trailing,
    ];
    let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
    let mut row = Row::default();
    row.error.push_str("a \"q\"\nb");
    let mut out = Vec::new();
    enc.encode(&row, &rec(b"x"), &mut out).unwrap();
    enc.encode(&row, &rec(b""), &mut out).unwrap();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&out[..]);
    let recs: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(&recs[0][0], "");
    assert_eq!(&recs[0][1], "a \"q\"\nb");
    assert_eq!(&recs[0][2], "invalid");
    assert_eq!(&recs[0][3], "x");
    assert_eq!(&recs[1][3], "");
}

#[test]
fn csv_single_plain_column_and_quotes_after_plain_fields() {
    let mut enc = RowEncoder::new(OutputFormat::Csv, &[Column::Index], &[]);
    let mut out = Vec::new();
    enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
    enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
    assert_eq!(out, b"3\n3\n");
    let cols = [
        Column::Error,
        Column::Index,
        Column::Trailing,
        Column::Status,
    ];
    let mut enc = RowEncoder::new(OutputFormat::Csv, &cols, &[]);
    let mut row = sample_row();
    row.error.push_str("a,b");
    let mut out = Vec::new();
    enc.encode(&row, &rec(b"x\"y"), &mut out).unwrap();
    enc.encode(&row, &rec(b""), &mut out).unwrap();
    assert_eq!(out, b"\"a,b\",3,\"x\"\"y\",unique\n\"a,b\",3,,unique\n");
}

proptest::proptest! {
    /// Any record comes out byte for byte as the `csv` crate's default
    /// writer writes it (quoting, doubled quotes, the lone empty field).
    #[test]
    fn fields_match_the_csv_writer(
        records in proptest::collection::vec(
            proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(b"a1 ,\"\r\n;\xff".to_vec()), 0..5),
                1..4,
            ),
            1..4,
        ),
    ) {
        let mut ours = Vec::new();
        let mut csv = CsvFields::new();
        let mut theirs = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
        for record in &records {
            for field in record {
                csv.field(&mut ours, field);
            }
            csv.end(&mut ours);
            theirs.write_record(record).unwrap();
        }
        proptest::prop_assert_eq!(ours, theirs.into_inner().unwrap());
    }
}

#[test]
fn numbers_are_written_in_full() {
    let mut out = Vec::new();
    let mut csv = CsvFields::new();
    for n in [0, 7, -1, 10, 99, 100, -305, 1_234_567, i64::MAX, i64::MIN] {
        csv.num(&mut out, n);
    }
    csv.end(&mut out);
    let expected = format!("0,7,-1,10,99,100,-305,1234567,{},{}\n", i64::MAX, i64::MIN);
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn jsonl_row_is_one_object_per_line() {
    let cols = [
        Column::Index,
        Column::Status,
        Column::Solution,
        Column::Score,
        Column::Error,
    ];
    let mut enc = RowEncoder::new(OutputFormat::Jsonl, &cols, &[]);
    let mut out = Vec::new();
    enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.ends_with('\n'));
    let v: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
    assert_eq!(v["index"], 3);
    assert_eq!(v["status"], "unique");
    assert_eq!(v["solution"], SOLVED);
    assert!(v["score"].is_null());
    assert!(v["error"].is_null());
}

#[test]
fn line_format_writes_solution_or_empty_line() {
    let mut enc = RowEncoder::new(OutputFormat::Line, &[], &[]);
    let mut out = Vec::new();
    enc.encode(&sample_row(), &rec(b""), &mut out).unwrap();
    enc.encode(&Row::default(), &rec(b""), &mut out).unwrap();
    assert_eq!(out, format!("{SOLVED}\n\n").as_bytes());
}

#[test]
fn analyze_measures_are_written_and_empty_without_an_analysis() {
    let easy = batchdoku_core::parse_line(batchdoku_core::testdata::EASY.as_bytes()).unwrap();
    let mut row = sample_row();
    row.analysis = Some(batchdoku_core::Analysis {
        minimal: Some(false),
        redundant: Some(21),
        symmetry: Some(batchdoku_core::Symmetries::of(&easy)),
        automorphisms: Some(648),
        te: Some(2),
        backdoor: Some(4),
    });
    let cols = &ANALYZE_COLUMNS[3..10];
    let mut out = Vec::new();
    RowEncoder::new(OutputFormat::Csv, cols, &[])
        .encode(&row, &rec(b""), &mut out)
        .unwrap();
    assert_eq!(out, b"unique,false,21,central+mirror,648,2,4\n");
    out.clear();
    RowEncoder::new(OutputFormat::Jsonl, cols, &[])
        .encode(&row, &rec(b""), &mut out)
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["minimal"], false);
    assert_eq!(v["symmetry"], "central+mirror");
    assert_eq!(
        (&v["redundant"], &v["automorphisms"]),
        (&21.into(), &648.into())
    );
    assert_eq!((&v["te"], &v["backdoor"]), (&2.into(), &4.into()));
    // A measure not asked for, or a row without measures: empty, null.
    row.analysis = Some(batchdoku_core::Analysis {
        te: Some(0),
        ..Default::default()
    });
    out.clear();
    RowEncoder::new(OutputFormat::Csv, cols, &[])
        .encode(&row, &rec(b""), &mut out)
        .unwrap();
    assert_eq!(out, b"unique,,,,,0,\n");
    row.analysis = None;
    out.clear();
    RowEncoder::new(OutputFormat::Jsonl, cols, &[])
        .encode(&row, &rec(b""), &mut out)
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(cols[1..].iter().all(|c| v[c.name()].is_null()), "{v}");
}
