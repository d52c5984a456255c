//! `batchdoku split --output-dir`: the part files keep the input's layout
//! (issue 42). A CSV's header and rows come back byte for byte (its
//! columns, quoting, delimiter and `0` blanks) plus a last column `split`;
//! JSON lines come back as written plus a key `"split"`; lines as given;
//! `--no-split-column` leaves exactly the input's records, so the part
//! files together are the input's valid records. Invalid records are in no
//! part file and keep their row in `-o`, whose rows are batchdoku's as
//! ever.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::*;

/// Runs `split -q ARGS` and expects exit `code`.
fn split(args: &[&str], code: i32) -> Run {
    let mut all = vec!["split", "-q"];
    all.extend_from_slice(args);
    let r = run(&all, None);
    assert_eq!(r.code, code, "split {args:?}: {}", r.stderr);
    r
}

/// The text of a file.
fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// How many times each line occurs.
fn counted<'a>(lines: impl IntoIterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut counts = BTreeMap::new();
    for line in lines {
        *counts.entry(line).or_default() += 1;
    }
    counts
}

/// A Kaggle-style `quizzes,solutions` CSV of `n` unique puzzles with `0`
/// blanks, each after its solution as the Kaggle files have it, then one
/// record whose puzzle is malformed.
fn kaggle(n: usize) -> String {
    let puzzles = sample_grids(n);
    let solved = run(
        &["solve", "-q", "-k", "2"],
        Some(lines_of(&puzzles).as_bytes()),
    );
    let (h, rows) = solved.csv();
    let mut csv = String::from("quizzes,solutions\n");
    for row in rows.iter().filter(|r| r[col(&h, "status")] == "unique") {
        let quiz = row[col(&h, "puzzle")].replace('.', "0");
        csv.push_str(&format!("{quiz},{}\n", row[col(&h, "solution")]));
    }
    csv.push_str("12x,\n");
    csv
}

#[test]
fn kaggle_csv_parts_are_its_own_rows_plus_split() {
    let dir = tempfile::tempdir().unwrap();
    let input = kaggle(60);
    let path = write(dir.path(), "kaggle.csv", &input);
    let (parts, all) = (dir.path().join("parts"), dir.path().join("all.csv"));
    // The command line, with -o for the rows.
    let args = ["--keep-columns", arg(&path), "-o", arg(&all)];
    split(&[&args[..], &["--output-dir", arg(&parts)]].concat(), 1);
    assert_eq!(names(&parts), ["test.csv", "train.csv", "valid.csv"]);
    // The rows of -o are batchdoku's, the invalid record's among them.
    let (h, rows) = parse_csv(text(&all).as_bytes());
    assert_eq!(
        h,
        [
            "index",
            "line",
            "puzzle",
            "status",
            "split",
            "error",
            "solutions"
        ]
    );
    let input_rows: Vec<&str> = input.lines().skip(1).collect();
    assert_eq!(rows.len(), input_rows.len());
    let last = rows.last().unwrap();
    assert_eq!(
        (&*last[col(&h, "status")], &*last[col(&h, "split")]),
        ("invalid", "")
    );
    // Each part file: the input's header plus `split`, then each record of
    // the part as the input wrote it plus its part, in input order.
    for name in ["train", "valid", "test"] {
        let got = text(&parts.join(format!("{name}.csv")));
        let mut want = String::from("quizzes,solutions,split\n");
        for (row, line) in rows.iter().zip(&input_rows) {
            if row[col(&h, "split")] == name {
                want.push_str(&format!("{line},{name}\n"));
            }
        }
        assert!(want.lines().count() > 1, "{name} is empty");
        assert_text_eq(want.as_bytes(), got.as_bytes(), name);
    }
    // The same bytes at any thread count.
    let again = dir.path().join("again");
    split(
        &[
            "-j",
            "1",
            "--batch-size",
            "7",
            arg(&path),
            "--output-dir",
            arg(&again),
        ],
        1,
    );
    for name in names(&parts) {
        assert_eq!(text(&parts.join(&name)), text(&again.join(&name)), "{name}");
    }
}

#[test]
fn no_split_column_gives_exactly_the_inputs_valid_records() {
    let dir = tempfile::tempdir().unwrap();
    let input = kaggle(60);
    // A copy of a record: the multiset, not the set, must come back.
    let second = input.lines().nth(1).unwrap().to_string();
    let input = format!("{input}{second}\n");
    let path = write(dir.path(), "kaggle.csv", &input);
    let parts = dir.path().join("parts");
    let r = split(
        &[arg(&path), "--no-split-column", "--output-dir", arg(&parts)],
        1,
    );
    assert!(r.stdout.is_empty());
    let mut union = Vec::new();
    for name in names(&parts) {
        let file = text(&parts.join(&name));
        let mut lines = file.lines();
        assert_eq!(lines.next(), Some("quizzes,solutions"), "{name}");
        union.extend(lines.map(str::to_owned));
    }
    let valid = input.lines().skip(1).filter(|l| !l.starts_with("12x"));
    assert_eq!(
        counted(union.iter().map(String::as_str)),
        counted(valid),
        "the part files together are the input's valid records"
    );
    // The flag needs --output-dir.
    let r = split(&[arg(&path), "--no-split-column"], 2);
    assert!(r.stderr.contains("--output-dir"), "{}", r.stderr);
}

#[test]
fn quoted_fields_delimiters_and_ragged_rows_stay_rfc_4180() {
    let dir = tempfile::tempdir().unwrap();
    let [p1, p2, p3] = [0, 1, 2].map(|i| sample_grids(3)[i].to_line_string());
    // Semicolons; a quoted note with the delimiter, a comma, doubled quotes
    // and a line break; a quoted puzzle; a row short of a field.
    let input = format!(
        "id;puzzle;note\n\
         1;{p1};\"a; b, \"\"c\"\"\nd\"\n\
         2;\"{p2}\";plain\n\
         3;{p3}\n"
    );
    let path = write(dir.path(), "semi.csv", &input);
    let parts = dir.path().join("parts");
    split(
        &[
            arg(&path),
            "--ratios",
            "1,1",
            "--names",
            "a;x,b",
            "--output-dir",
            arg(&parts),
        ],
        0,
    );
    let mut got = String::new();
    for name in ["a;x", "b"] {
        let file = text(&parts.join(format!("{name}.csv")));
        assert!(file.starts_with("id;puzzle;note;split\n"), "{file}");
        got.push_str(&file["id;puzzle;note;split\n".len()..]);
    }
    // Every record as written, the short one padded to the header, then its
    // part (quoted where it holds the delimiter).
    for (record, at) in [
        (format!("1;{p1};\"a; b, \"\"c\"\"\nd\""), 0),
        (format!("2;\"{p2}\";plain"), 1),
        (format!("3;{p3};"), 2),
    ] {
        let with_part = |part: &str| format!("{record};{part}\n");
        let found = got.contains(&with_part("\"a;x\"")) || got.contains(&with_part("b"));
        assert!(found, "record {at} not in the part files: {got}");
    }
    // And a CSV reader sees four fields in every row, the note intact.
    let mut notes = Vec::new();
    for name in ["a;x", "b"] {
        let file = text(&parts.join(format!("{name}.csv")));
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b';')
            .from_reader(file.as_bytes());
        for record in reader.records() {
            let record = record.unwrap();
            assert_eq!(record.len(), 4, "{record:?}");
            notes.push(record[2].to_string());
        }
    }
    assert!(notes.contains(&"a; b, \"c\"\nd".to_string()), "{notes:?}");
    // A tab-delimited input gives .tsv parts.
    let tabs = write(dir.path(), "tabs.tsv", input.replace(';', "\t"));
    let tab_parts = dir.path().join("tabs");
    split(
        &[
            arg(&tabs),
            "--ratios",
            "1,1",
            "--output-dir",
            arg(&tab_parts),
        ],
        0,
    );
    assert_eq!(names(&tab_parts), ["test.tsv", "train.tsv"]);
    assert!(text(&tab_parts.join("train.tsv")).starts_with("id\tpuzzle\tnote\tsplit\n"));
}

#[test]
fn json_lines_get_a_split_key_and_parquet_rows_come_as_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::new();
    for (i, p) in sample_grids(40).iter().enumerate() {
        // Spacing, nesting and a number as written, kept byte for byte.
        let line = p.to_line_string().replace('.', "0");
        input.push_str(&format!(
            "{{\"id\": {i}.0, \"quiz\":\"{line}\", \"tags\":[\"x\",{{}}]}}\n"
        ));
    }
    input.push_str("{\"id\": 99, \"quiz\": \"12x\"}\n");
    let path = write(dir.path(), "in.jsonl", &input);
    let parts = dir.path().join("parts");
    let all = dir.path().join("all.csv");
    split(
        &[arg(&path), "-o", arg(&all), "--output-dir", arg(&parts)],
        1,
    );
    assert_eq!(names(&parts), ["test.jsonl", "train.jsonl", "valid.jsonl"]);
    let (h, rows) = parse_csv(text(&all).as_bytes());
    for name in ["train", "valid", "test"] {
        let got = text(&parts.join(format!("{name}.jsonl")));
        let want: String = rows
            .iter()
            .zip(input.lines())
            .filter(|(row, _)| row[col(&h, "split")] == name)
            .map(|(_, line)| {
                let body = line.strip_suffix('}').unwrap();
                format!("{body},\"split\":\"{name}\"}}\n")
            })
            .collect();
        assert_text_eq(want.as_bytes(), got.as_bytes(), name);
        for line in got.lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value["split"], name);
        }
    }
    // Without the key: the lines as written.
    let bare = dir.path().join("bare");
    split(
        &[arg(&path), "--no-split-column", "--output-dir", arg(&bare)],
        1,
    );
    let union: String = names(&bare).iter().map(|n| text(&bare.join(n))).collect();
    let valid = input.lines().filter(|l| !l.contains("12x"));
    assert_eq!(counted(union.lines()), counted(valid));
    // An input that has a `split` key already is refused with the column
    // (two would be ambiguous), accepted without it.
    let splitted = write(dir.path(), "again.jsonl", text(&parts.join("train.jsonl")));
    let r = split(
        &[arg(&splitted), "--output-dir", arg(&dir.path().join("x"))],
        2,
    );
    assert!(r.stderr.contains("--no-split-column"), "{}", r.stderr);
    assert!(!dir.path().join("x").exists());
    // Parquet: its rows, as batchdoku reads them (JSON lines), plus the key.
    let parquet = dir.path().join("in.parquet");
    let r = run(
        &[
            "canon",
            "-q",
            arg(&path),
            "--keep-columns",
            "-o",
            arg(&parquet),
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let from_parquet = dir.path().join("pq");
    split(&[arg(&parquet), "--output-dir", arg(&from_parquet)], 1);
    assert_eq!(
        names(&from_parquet),
        ["test.jsonl", "train.jsonl", "valid.jsonl"]
    );
    let train = text(&from_parquet.join("train.jsonl"));
    let first: serde_json::Value = serde_json::from_str(train.lines().next().unwrap()).unwrap();
    for key in ["index", "canonical", "puzzle", "tags", "split"] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
}

#[test]
fn line_input_parts_are_the_lines_as_given() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = String::from("# a comment\n");
    for (i, p) in sample_grids(30).iter().enumerate() {
        let line = p.to_line_string();
        let line = if i % 2 == 0 {
            line.replace('.', "0")
        } else {
            line
        };
        input.push_str(&format!("{line} id-{i}\n"));
    }
    input.push_str("not a puzzle\n");
    let path = write(dir.path(), "in.txt", &input);
    for (flag, dir_name) in [(None, "with"), (Some("--no-split-column"), "without")] {
        let parts = dir.path().join(dir_name);
        let mut args = vec![arg(&path), "--output-dir", arg(&parts)];
        args.extend(flag);
        split(&args, 1);
        assert_eq!(names(&parts), ["test.txt", "train.txt", "valid.txt"]);
        // No room for a part in a line: the file's name is the part.
        let union: String = names(&parts).iter().map(|n| text(&parts.join(n))).collect();
        let valid = input.lines().filter(|l| l.contains(" id-"));
        assert_eq!(counted(union.lines()), counted(valid), "{flag:?}");
    }
}

#[test]
fn inputs_of_two_layouts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lines = write(dir.path(), "a.txt", lines_of(&sample_grids(5)));
    let csv = write(dir.path(), "b.csv", kaggle(5));
    let other = write(
        dir.path(),
        "c.csv",
        kaggle(5).replacen("quizzes", "puzzle", 1),
    );
    for second in [&csv, &other] {
        let first = if second == &csv { &lines } else { &csv };
        let parts = dir.path().join("parts");
        let args = [arg(first), arg(second), "--output-dir", arg(&parts)];
        let r = split(&args, 2);
        assert!(r.stderr.contains("laid out unlike"), "{}", r.stderr);
        assert!(!parts.exists(), "a usage error made {}", parts.display());
    }
    // Two CSVs with one header are one layout; the rows still go to -o.
    let same = write(dir.path(), "d.csv", kaggle(8));
    let parts = dir.path().join("ok");
    let rows = dir.path().join("rows.jsonl");
    let args = [
        arg(&csv),
        arg(&same),
        "-o",
        arg(&rows),
        "--output-dir",
        arg(&parts),
    ];
    split(&args, 1);
    let records: usize = names(&parts)
        .iter()
        .map(|n| text(&parts.join(n)).lines().count() - 1)
        .sum();
    assert_eq!(
        records,
        text(&rows).lines().count() - 2,
        "all but the two invalid"
    );
}
