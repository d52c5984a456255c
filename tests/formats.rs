//! Every input format through the real binary: detection, record counts,
//! line numbers, the `expected` audit column and `--keep-trailing`; CSV
//! records that never swallow each other (a quote that does not close),
//! headerless CSVs with an id column, kept fields byte for byte.

use crate::util::*;

/// Runs `solve -k 2` on a format fixture and returns (exit code, header, rows).
fn solve_fixture(name: &str, extra: &[&str]) -> (i32, Vec<String>, Vec<Vec<String>>) {
    let path = fixture(&format!("formats/{name}"));
    let mut args = vec!["solve", "-q", "-k", "2"];
    args.extend_from_slice(extra);
    let r = run_paths(&args, &[&path]);
    let (h, rows) = r.csv();
    (r.code, h, rows)
}

fn statuses(h: &[String], rows: &[Vec<String>]) -> Vec<String> {
    rows.iter().map(|r| r[col(h, "status")].clone()).collect()
}

#[test]
fn line_format_with_comments_and_trailing_text() {
    let (code, h, rows) = solve_fixture("line.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(statuses(&h, &rows), ["unique"; 5]);
    // Line numbers count the comment line.
    assert_eq!(rows[0][col(&h, "line")], "2");
    for row in &rows {
        assert_solves(&row[col(&h, "puzzle")], &row[col(&h, "solution")]);
    }
}

#[test]
fn crlf_bom_and_mixed_blanks() {
    let (code, h, rows) = solve_fixture("line_crlf_bom.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert!(!row[col(&h, "puzzle")].contains(['0', '-', '_', '*']));
        assert_solves(&row[col(&h, "puzzle")], &row[col(&h, "solution")]);
    }
}

#[test]
fn poj_file_ends_at_end_line() {
    for forced in [&[][..], &["--input-format", "poj"][..]] {
        let (code, _, rows) = solve_fixture("poj.txt", forced);
        assert_eq!(code, 0);
        assert_eq!(rows.len(), 3);
    }
}

#[test]
fn kaggle_csv_gains_expected_column() {
    let (code, h, rows) = solve_fixture("kaggle.csv", &[]);
    assert_eq!(code, 0);
    assert_eq!(h.last().unwrap(), "expected");
    let expected: Vec<&str> = rows
        .iter()
        .map(|r| r[col(&h, "expected")].as_str())
        .collect();
    assert_eq!(expected, ["match", "match", "mismatch", "match"]);
    assert_eq!(rows[0][col(&h, "line")], "2");
}

#[test]
fn only_a_named_solution_column_is_expected() {
    // A second column of sources or ids is carried data, not solutions: a
    // valid puzzle stays valid and no `expected` column appears.
    let puzzle =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    for header in ["puzzle,source", "puzzle,sol"] {
        let input = format!("{header}\n{puzzle},kaggle\n");
        let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
        let (h, rows) = r.csv();
        assert_eq!(r.code, 0, "{header}: {}", r.stdout_str());
        assert!(!h.contains(&"expected".to_string()), "{header}: {h:?}");
        assert_eq!(statuses(&h, &rows), ["solved"], "{header}");
    }
}

#[test]
fn block_grids_noip_and_boxed() {
    for (name, n) in [
        ("noip_sample1.txt", 1),
        ("noip_sample2.txt", 1),
        ("block_boxed.txt", 2),
    ] {
        let (code, h, rows) = solve_fixture(name, &[]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(rows.len(), n, "{name}");
        for row in &rows {
            assert_solves(&row[col(&h, "puzzle")], &row[col(&h, "solution")]);
        }
    }
}

#[test]
fn luogu_batches_and_short_files() {
    let (code, _, rows) = solve_fixture("luogu.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 2);
    let (code, h, rows) = solve_fixture("luogu_short.txt", &[]);
    assert_eq!(code, 1, "missing grids are invalid records");
    assert_eq!(rows.len(), 3);
    assert_eq!(statuses(&h, &rows)[1..], ["invalid", "invalid"]);
    assert!(
        rows[2][col(&h, "error")].contains("of 3 promised grids"),
        "{:?}",
        rows[2]
    );
}

#[test]
fn forced_format_overrides_detection() {
    // A block file read as lines: every line is a malformed record.
    let (code, h, rows) = solve_fixture("noip_sample1.txt", &["--input-format", "line"]);
    assert_eq!(code, 1);
    assert_eq!(rows.len(), 9);
    assert!(statuses(&h, &rows).iter().all(|s| s == "invalid"));
}

#[test]
fn hostile_files_never_crash_nor_drop_records() {
    for name in [
        "hostile_binary.bin",
        "hostile_long_line.txt",
        "hostile_bytes.txt",
    ] {
        // Every line with content (not blank, not a `#` comment) is one record.
        let bytes = std::fs::read(fixture(&format!("formats/{name}"))).unwrap();
        let records = bytes
            .split(|&b| b == b'\n' || b == b'\r')
            .filter(|l| !l.trim_ascii().is_empty() && l.trim_ascii()[0] != b'#')
            .count();
        let (code, h, rows) = solve_fixture(name, &[]);
        assert_eq!(code, 1, "{name}: every hostile file has invalid records");
        assert_eq!(rows.len(), records, "{name}");
        for row in &rows {
            let status = &row[col(&h, "status")];
            assert!(
                status == "invalid"
                    || !row[col(&h, "solution")].is_empty()
                    || status == "unsolvable"
            );
        }
    }
}

#[test]
fn keep_trailing_carries_ids_through() {
    let input =
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... id-1\n\
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....,id-2\n";
    let r = run(&["solve", "-q", "--keep-trailing"], Some(input));
    let (h, rows) = r.csv();
    assert_eq!(h.last().unwrap(), "trailing");
    assert_eq!(rows[0][col(&h, "trailing")], "id-1");
    assert_eq!(rows[1][col(&h, "trailing")], "id-2");
    let j = run(
        &["solve", "-q", "--keep-trailing", "--format", "jsonl"],
        Some(input),
    );
    let v: serde_json::Value =
        serde_json::from_str(j.stdout_str().lines().nth(1).unwrap()).unwrap();
    assert_eq!(v["trailing"], "id-2");
}

#[test]
fn csv_column_choice_and_kept_columns_carry_through() {
    let csv = "source,grid,answer,rating\n\
        kaggle,\"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\",483921657967345821251876493548132976729564138136798245372689514814253769695417382,\"1,5\"\n\
        forum,bad,x,\"he said \"\"hi\"\"\"\n\
        short,..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    for j in ["1", "2"] {
        let r = run(
            &["solve", "-j", j, "--column", "GRID", "--keep-columns"],
            Some(csv.as_bytes()),
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        let (h, rows) = r.csv();
        assert_eq!(&h[h.len() - 3..], ["source", "answer", "rating"]);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][col(&h, "status")], "solved");
        assert_eq!(rows[0][col(&h, "expected")], "match");
        assert_eq!(rows[0][col(&h, "rating")], "1,5");
        assert_eq!(rows[1][col(&h, "status")], "invalid");
        assert_eq!(rows[1][col(&h, "source")], "forum");
        assert_eq!(rows[1][col(&h, "rating")], "he said \"hi\"");
        // A row with fewer fields than the header: missing ones are empty.
        assert_eq!(rows[2][col(&h, "source")], "short");
        assert_eq!(rows[2][col(&h, "rating")], "");
    }
    // An input column named like one of ours is prefixed.
    let r = run(
        &["canon", "--keep-columns"],
        Some(b"puzzle,status\n..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..,easy\n"),
    );
    let (h, rows) = r.csv();
    assert_eq!(rows[0][col(&h, "input_status")], "easy");
    assert_eq!(rows[0][col(&h, "status")], "ok");
}

#[test]
fn csv_options_fail_clearly_on_unfit_inputs() {
    let r = run(&["solve", "--column", "board"], Some(b"id,puzzle\n1,x\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no column 'board'"), "{}", r.stderr);
    let line = fixture("formats/line.txt");
    let r = run_paths(&["solve", "--keep-columns"], &[&line]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("need CSV input"), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    std::fs::write(&a, "puzzle,rating\n").unwrap();
    std::fs::write(&b, "puzzle,source\n").unwrap();
    let r = run_paths(&["solve", "--keep-columns"], &[&a, &b]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unlike"), "{}", r.stderr);
}

// ------------------------------------------------------- CSV records

/// The puzzles of `data/sample.txt` (211 distinct ones).
fn sample_puzzles() -> Vec<String> {
    std::fs::read_to_string(data("sample.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Where a broken record's quote opens.
#[derive(Clone, Copy, Debug)]
enum QuoteIn {
    /// The id field, before the puzzle (column 1).
    Id,
    /// The note, after the puzzle.
    Note,
}

/// An `id,puzzle,note` CSV of `n` records (puzzles from `puzzles`, in
/// turn) whose record `at` holds a quote that never closes; the records
/// after it are invalid (a cell short) when `bad_after`. Returns the bytes
/// and the column of the quote.
fn broken_csv(
    puzzles: &[String],
    n: usize,
    at: usize,
    quote: QuoteIn,
    bad_after: bool,
    eol: &str,
) -> (Vec<u8>, usize) {
    let mut out = format!("id,puzzle,note{eol}");
    let mut col = 0;
    for i in 0..n {
        let p = &puzzles[i % puzzles.len()];
        let p = if bad_after && i > at {
            &p[..80]
        } else {
            &p[..]
        };
        let line = match (i == at, quote) {
            (true, QuoteIn::Id) => format!("\"{i},{p},note {i}"),
            (true, QuoteIn::Note) => format!("{i},{p},\"note {i}, never closed"),
            (false, _) => format!("{i},{p},note {i}"),
        };
        if i == at {
            col = line.find('"').unwrap() + 1;
        }
        out.push_str(&line);
        out.push_str(eol);
    }
    (out.into_bytes(), col)
}

#[test]
fn an_unclosed_quote_costs_one_row_and_every_record_after_it_is_read() {
    // Before: 30 records gave 11 rows with exit 0, 200 gave 67, 1,000 gave
    // 334: the quote swallowed the records after it, silently.
    let puzzles = sample_puzzles();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    for n in [10, 30, 200, 1000] {
        for at in [0, n / 2, n - 1] {
            for (quote, bad_after, eol) in [
                (QuoteIn::Note, false, "\n"),
                (QuoteIn::Note, true, "\r\n"),
                (QuoteIn::Id, false, "\r\n"),
                (QuoteIn::Id, true, "\n"),
            ] {
                let what = format!("n {n} at {at} {quote:?} bad_after {bad_after} {eol:?}");
                let (bytes, quote_col) = broken_csv(&puzzles, n, at, quote, bad_after, eol);
                std::fs::write(&path, &bytes).unwrap();
                let r = run_paths(&["solve", "-q", "--keep-columns"], &[&path]);
                assert_eq!(r.code, 1, "{what}: {}", r.stderr);
                let (h, rows) = r.csv();
                assert_eq!(rows.len(), n, "{what}");
                for (i, row) in rows.iter().enumerate() {
                    let line = i + 2;
                    assert_eq!(row[col(&h, "line")], line.to_string(), "{what}");
                    let status = &row[col(&h, "status")];
                    let error = &row[col(&h, "error")];
                    if i == at {
                        assert_eq!(status, "invalid", "{what}");
                        let want = format!(
                            "/broken.csv:{line}: unclosed quote starting at column {quote_col}"
                        );
                        assert!(error.ends_with(&want), "{what}: {error}");
                    } else if bad_after && i > at {
                        assert!(error.contains("expected 81 cells"), "{what}: {row:?}");
                    } else {
                        assert_eq!(status, "solved", "{what}: {row:?}");
                        assert_eq!(row[col(&h, "note")], format!("note {i}"), "{what}");
                        assert_eq!(row[col(&h, "id")], i.to_string(), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_command_reads_past_an_unclosed_quote() {
    let puzzles = sample_puzzles();
    let n = 200;
    let (bytes, _) = broken_csv(&puzzles, n, 100, QuoteIn::Note, false, "\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    std::fs::write(&path, &bytes).unwrap();
    let invalid = |rows: &[Vec<String>], h: &[String]| -> Vec<String> {
        rows.iter()
            .filter(|r| r[col(h, "status")] == "invalid")
            .map(|r| r[col(h, "line")].clone())
            .collect()
    };
    for args in [
        &["solve", "-q"][..],
        &["solve", "-q", "--format", "jsonl"],
        &["score", "-q"],
        &["canon", "-q"],
        &["dedupe", "-q", "--exact"],
    ] {
        let r = run_paths(args, &[&path]);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        if args.contains(&"jsonl") {
            let rows: Vec<serde_json::Value> = r
                .stdout_str()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(rows.len(), n, "{args:?}");
            assert_eq!(rows[100]["line"], 102);
            assert_eq!(rows[100]["status"], "invalid");
            continue;
        }
        let (h, rows) = r.csv();
        assert_eq!(rows.len(), n, "{args:?}");
        assert_eq!(invalid(&rows, &h), ["102"], "{args:?}");
    }
    // Stdin too.
    let r = run(&["solve", "-q", "-"], Some(&bytes));
    assert_eq!((r.code, r.csv().1.len()), (1, n));
    // The report counts every record.
    let r = run_paths(&["report", "-q", "--format", "json"], &[&path]);
    let v: serde_json::Value = serde_json::from_str(r.stdout_str()).unwrap();
    assert_eq!(v["totals"]["records"], n);
    assert_eq!(v["totals"]["invalid"], 1);
    assert_eq!(v["totals"]["errors"][0]["line"], 102);
    // overlap: every valid test record leaks (the splits are one file);
    // the broken record is a row in both splits.
    let r = run_paths(&["overlap", "-q"], &[&path, &path]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    let split = |name: &str| rows.iter().filter(|r| r[col(&h, "split")] == name).count();
    assert_eq!((split("train"), split("test")), (1, n));
}

#[test]
fn a_legitimately_quoted_multi_line_field_is_one_record() {
    let puzzles = sample_puzzles();
    let input = format!(
        "id,puzzle,note\r\n1,{},\"three\r\nlines, with {} inside\r\nend\"\r\n2,{},x\r\n",
        puzzles[0], puzzles[1], puzzles[2]
    );
    let r = run(
        &["solve", "-q", "--keep-columns", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][col(&h, "line")], "5");
    let want = format!("three\r\nlines, with {} inside\r\nend", puzzles[1]);
    assert_eq!(rows[0][col(&h, "note")], want);
}

#[test]
fn a_headerless_csv_with_an_id_column_reads_every_record() {
    // Before: `1,<puzzle>` rows had their first record taken as a header
    // and the id column as the puzzle: every row invalid, record 1 missing.
    let puzzles = sample_puzzles();
    let ids: String = (1..=10).map(|i| format!("{i},{}\n", puzzles[i])).collect();
    for extra in [&[][..], &["--input-format", "csv"]] {
        let mut args = vec!["solve", "-q", "--keep-columns"];
        args.extend_from_slice(extra);
        args.push("-");
        let r = run(&args, Some(ids.as_bytes()));
        assert_eq!(r.code, 0, "{extra:?}: {}", r.stdout_str());
        let (h, rows) = r.csv();
        assert_eq!(rows.len(), 10);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[col(&h, "line")], (i + 1).to_string());
            assert_eq!(row[col(&h, "field_1")], (i + 1).to_string());
            assert_eq!(row[col(&h, "puzzle")], puzzles[i + 1]);
            assert_eq!(row[col(&h, "status")], "solved");
        }
    }
    // One record alone, and `<puzzle>,<id>`.
    let r = run(
        &["solve", "-q", "-"],
        Some(format!("7,{}\n", puzzles[0]).as_bytes()),
    );
    assert_eq!((r.code, r.csv().1.len()), (0, 1));
    let tail: String = (0..5).map(|i| format!("{},id-{i}\n", puzzles[i])).collect();
    let r = run(
        &["solve", "-q", "--input-format", "csv", "-"],
        Some(tail.as_bytes()),
    );
    assert_eq!((r.code, r.csv().1.len()), (0, 5));
    // A real header is still a header, whatever its names say.
    for header in ["id,puzzle", "id,board"] {
        let input = format!("{header}\n{ids}");
        let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
        let (h, rows) = r.csv();
        assert_eq!(r.code, 0, "{header}");
        assert_eq!(rows.len(), 10, "{header}");
        assert_eq!(rows[0][col(&h, "line")], "2", "{header}");
    }
}

#[test]
fn kept_columns_carry_quoted_data_byte_for_byte() {
    // Before: spaces inside quotes were trimmed and CRLF became LF.
    let p = &sample_puzzles()[0];
    let input = format!(
        "puzzle,pad,text,plain\r\n{p},\"  two spaces  \",\"crlf\r\ninside, \"\"quoted\"\"\", bare \r\n{p},\" \",\"lone\rcr\",\r\n"
    );
    let r = run(
        &["solve", "-q", "--keep-columns", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    let kept = |i: usize, name: &str| rows[i][col(&h, name)].clone();
    assert_eq!(kept(0, "pad"), "  two spaces  ");
    assert_eq!(kept(0, "text"), "crlf\r\ninside, \"quoted\"");
    assert_eq!(kept(0, "plain"), "bare");
    assert_eq!(kept(1, "pad"), " ");
    assert_eq!(kept(1, "text"), "lone\rcr");
    let r = run(
        &["solve", "-q", "--keep-columns", "--format", "jsonl", "-"],
        Some(input.as_bytes()),
    );
    let rows: Vec<serde_json::Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["pad"], "  two spaces  ");
    assert_eq!(rows[0]["text"], "crlf\r\ninside, \"quoted\"");
    assert_eq!(rows[1]["text"], "lone\rcr");
}

#[test]
fn an_empty_solution_cell_leaves_a_valid_puzzle_valid() {
    let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let s = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let input = format!("puzzle,solution\n{p},\n{p},{s}\n{p},\"\"\n");
    let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stdout_str());
    let (h, rows) = r.csv();
    assert_eq!(statuses(&h, &rows), ["solved"; 3]);
    let expected: Vec<&str> = rows
        .iter()
        .map(|r| r[col(&h, "expected")].as_str())
        .collect();
    assert_eq!(expected, ["", "match", ""]);
}
