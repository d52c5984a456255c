//! Results fed back in: every command reads `solve`'s CSV and JSONL
//! output as it reads the corpus itself, the expected-solution column is
//! only ever a column of grids, and CSV written by spreadsheets (`;`,
//! tab) is read as CSV.

use crate::util::*;

const P: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const S: &str = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
/// A valid grid that is not `P`'s solution (two digits swapped).
const WRONG: &str =
    "583921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// Runs `args` followed by `path`, expecting `code`.
fn on(args: &[&str], path: &std::path::Path, code: i32) -> Run {
    let r = run_paths(args, &[path]);
    assert_eq!(r.code, code, "{args:?} {}: {}", path.display(), r.stderr);
    r
}

/// Column `name` of a command's CSV output.
fn col_of(r: &Run, name: &str) -> Vec<String> {
    let (h, rows) = r.csv();
    column(&h, &rows, name)
}

#[test]
fn every_command_reads_solves_csv_and_jsonl_results() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = data("sample.txt");
    let direct_canon = col_of(&on(&["canon", "-q"], &corpus, 0), "canonical");
    let direct_score = col_of(&on(&["score", "-q"], &corpus, 0), "score");
    let direct_kept = col_of(&on(&["dedupe", "-q"], &corpus, 0), "line");
    let direct_status = col_of(&on(&["solve", "-q", "-k", "2"], &corpus, 0), "status");
    for format in ["csv", "jsonl"] {
        let results = dir.path().join(format!("results.{format}"));
        let out = arg(&results);
        on(
            &["solve", "-q", "-k", "2", "--format", format, "-o", out],
            &corpus,
            0,
        );

        // solve: the `solutions` counts are not expected solutions, the
        // `solution` grids are, and they match.
        let again = on(&["solve", "-q", "-k", "2"], &results, 0);
        assert_eq!(col_of(&again, "status"), direct_status, "{format}");
        let expected = col_of(&again, "expected");
        assert_eq!(expected.len(), direct_status.len());
        assert!(
            expected.iter().all(|e| e == "match"),
            "{format}: {expected:?}"
        );

        let canon = on(&["canon", "-q"], &results, 0);
        assert_eq!(col_of(&canon, "canonical"), direct_canon, "{format}");
        let score = on(&["score", "-q"], &results, 0);
        assert_eq!(col_of(&score, "score"), direct_score, "{format}");
        // Line numbers are the results file's: one line per record, as
        // the sample, so the kept lines are the same (plus the header).
        let kept = col_of(&on(&["dedupe", "-q"], &results, 0), "line");
        let shift = u64::from(format == "csv");
        let kept_direct: Vec<String> = direct_kept
            .iter()
            .map(|l| (l.parse::<u64>().unwrap() + shift).to_string())
            .collect();
        assert_eq!(kept, kept_direct, "{format}");

        let report = on(&["report", "-q", "--format", "json"], &results, 0);
        let json: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
        assert_eq!(json["totals"]["records"], direct_status.len(), "{format}");
        assert_eq!(json["totals"]["invalid"], 0, "{format}: {json}");
    }
    // The other commands' results read back too: each has the puzzle.
    for command in ["canon", "score", "dedupe"] {
        let results = dir.path().join(format!("{command}.csv"));
        on(&[command, "-q", "-o", arg(&results)], &corpus, 0);
        let again = on(&["solve", "-q"], &results, 0);
        assert!(col_of(&again, "status").iter().all(|s| s == "solved"));
    }
}

#[test]
fn a_malformed_expected_cell_leaves_the_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    let short = &S[..80];
    let csv = format!("puzzle,solution\n{P},{S}\n{P},{WRONG}\n{P},{short}\n{P},\n{P},not a grid\n");
    let path = write(dir.path(), "set.csv", &csv);
    let r = on(&["solve", "-k", "2"], &path, 0);
    assert!(col_of(&r, "status").iter().all(|s| s == "unique"));
    assert_eq!(
        col_of(&r, "expected"),
        ["match", "mismatch", "malformed", "", "malformed"]
    );
    assert!(col_of(&r, "error").iter().all(String::is_empty));
    assert!(
        r.stderr
            .contains("expected solutions: 1 mismatch, 2 malformed"),
        "{}",
        r.stderr
    );

    // --fail-on-mismatch gates on the mismatch (a malformed cell is not one).
    let gate = on(&["solve", "-q", "--fail-on-mismatch"], &path, 1);
    assert_eq!(col_of(&gate, "expected")[1], "mismatch");
    let fine = format!("puzzle,solution\n{P},{S}\n{P},{short}\n");
    let fine = write(dir.path(), "fine.csv", fine);
    on(&["solve", "-q", "--fail-on-mismatch"], &fine, 0);

    // The summary file counts them too.
    let summary = dir.path().join("summary.json");
    let out = dir.path().join("out.csv");
    let args = [
        "solve",
        "-q",
        "-o",
        arg(&out),
        "--summary-json",
        arg(&summary),
    ];
    on(&args, &path, 0);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(json["expected_mismatches"], 1);
    assert_eq!(json["expected_malformed"], 2);
}

#[test]
fn the_expected_column_is_chosen_by_flags() {
    let dir = tempfile::tempdir().unwrap();
    let csv = format!("id,puzzle,published,solutions\n1,{P},{WRONG},{S}\n");
    let path = write(dir.path(), "set.csv", csv);
    // Detected: `solutions` holds grids here.
    assert_eq!(
        col_of(&on(&["solve", "-q"], &path, 0), "expected"),
        ["match"]
    );
    let named = on(&["solve", "-q", "--expected-column", "PUBLISHED"], &path, 0);
    assert_eq!(col_of(&named, "expected"), ["mismatch"]);
    let (h, _) = on(&["solve", "-q", "--no-expected"], &path, 0).csv();
    assert!(!h.contains(&"expected".to_string()), "{h:?}");

    let missing = on(&["solve", "-q", "--expected-column", "answer"], &path, 2);
    assert!(
        missing.stderr.contains("'answer'")
            && missing.stderr.contains("id, puzzle, published, solutions"),
        "{}",
        missing.stderr
    );
    let both = on(
        &["solve", "-q", "--expected-column", "x", "--no-expected"],
        &path,
        2,
    );
    assert!(
        both.stderr.contains("cannot be used with"),
        "{}",
        both.stderr
    );
    // Implies CSV: a line file is refused, not silently read as lines.
    let lines = write(dir.path(), "p.txt", format!("{P}\n"));
    let r = on(&["solve", "-q", "--expected-column", "solution"], &lines, 2);
    assert!(r.stderr.contains("--expected-column"), "{}", r.stderr);
}

#[test]
fn semicolon_and_tab_separated_files_are_csv() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sep) in [("semi.csv", ";"), ("tab.tsv", "\t")] {
        let text = format!("quizzes{sep}solutions\r\n{P}{sep}{S}\r\n{P}{sep}{WRONG}\r\n");
        let path = write(dir.path(), name, text);
        let r = on(&["solve", "-q"], &path, 0);
        assert_eq!(col_of(&r, "expected"), ["match", "mismatch"], "{name}");
        assert_eq!(col_of(&r, "line"), ["2", "3"], "{name}");
    }
    // Any other delimiter is named.
    let path = write(dir.path(), "pipe.txt", format!("id|puzzle\n7|{P}\n"));
    let r = on(
        &["solve", "-q", "--delimiter", "|", "--keep-columns"],
        &path,
        0,
    );
    assert_eq!(col_of(&r, "id"), ["7"]);
    assert_eq!(col_of(&r, "status"), ["solved"]);
    let r = on(&["solve", "-q", "--delimiter", "ab"], &path, 2);
    assert!(r.stderr.contains("one character"), "{}", r.stderr);
    // A character a field holds unquoted cannot separate fields: a quote,
    // a letter, and every cell character (digits and the blanks . - _ *),
    // which would cut puzzles apart. Refused before any work (exit 2).
    for bad in ["\"", "x", "7", "0", ".", "-", "_", "*"] {
        let r = on(&["solve", "-q", "--delimiter", bad], &path, 2);
        assert!(
            r.stderr.contains("cannot separate fields"),
            "{bad}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{bad}: wrote rows");
    }
}

#[test]
fn a_multi_line_quoted_field_does_not_hide_the_expected_column() {
    // The records that choose the expected column are read as the run
    // reads them: a quoted note that goes on past a line holding the
    // solution stays one record (CRLF inside it, `;` between fields).
    let dir = tempfile::tempdir().unwrap();
    let text = format!("puzzle;note;solution\r\n{P};\"multi\r\nline\";{S}\r\n{P};x;{WRONG}\r\n");
    let path = write(dir.path(), "notes.csv", text);
    let r = on(&["solve", "-q", "--keep-columns"], &path, 0);
    assert_eq!(col_of(&r, "expected"), ["match", "mismatch"]);
    assert_eq!(col_of(&r, "note"), ["multi\r\nline", "x"]);
    assert_eq!(col_of(&r, "line"), ["2", "4"]);
}

#[test]
fn jsonl_lines_that_are_not_records_are_invalid_in_place() {
    let input = format!(
        "{{\"puzzle\":\"{P}\",\"solution\":\"{S}\"}}\n\n# note\nnot json\n{{\"puzzle\":7}}\n\
         {{\"other\":\"{P}\"}}\n{{\"puzzle\":\"{P}\",\"solution\":\"{WRONG}\"}}\n"
    );
    let r = run(&["solve", "-q"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(col_of(&r, "line"), ["1", "4", "5", "6", "7"]);
    assert_eq!(
        col_of(&r, "status"),
        ["solved", "invalid", "invalid", "invalid", "solved"]
    );
    assert_eq!(col_of(&r, "expected"), ["match", "", "", "", "mismatch"]);
    let errors = col_of(&r, "error");
    assert!(
        errors[1].ends_with(":4: not a JSON object (at column 1)"),
        "{errors:?}"
    );
    assert!(
        errors[2].ends_with("the value at column 11 is not a JSON string"),
        "{errors:?}"
    );
    assert!(errors[3].contains("no puzzle key"), "{errors:?}");
}

/// The lines of a JSONL output.
fn lines_of_output(r: &Run) -> Vec<String> {
    String::from_utf8(r.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn jsonl_values_are_kept_exactly_as_written() {
    // Numbers no float holds, spellings a float would change, objects
    // deeper than serde's recursion limit and a lone surrogate (what
    // Python's json.dumps writes for one): each a valid RFC 8259 object.
    let huge = "7".repeat(3_900);
    let deep = format!("{}0{}", "[".repeat(2_000), "]".repeat(2_000));
    let kept = [
        ("id", "123456789012345678901234567890".to_string()),
        ("hundred", "1e2".to_string()),
        ("zero", "-0".to_string()),
        ("far", "1.0e400".to_string()),
        ("huge", huge.clone()),
        ("deep", deep),
        ("note", r#""caf\u00e9 \ud800 \"q\"""#.to_string()),
        ("tags", r#"{"a": [1, 2.50, true, null]}"#.to_string()),
        ("none", "null".to_string()),
    ];
    let members: Vec<String> = kept.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    let line = format!("{{\"puzzle\":\"{P}\",{}}}\n", members.join(","));
    let r = run(
        &["solve", "-q", "--keep-columns", "--format", "jsonl"],
        Some(line.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = lines_of_output(&r);
    assert_eq!(out.len(), 1);
    for (key, value) in &kept {
        let member = format!("\"{key}\":{value}");
        assert!(out[0].contains(&member), "{key} not kept as {value:.40}");
    }
    // Read back, the output keeps them again: a fixed point.
    let again = run(
        &["solve", "-q", "--keep-columns", "--format", "jsonl"],
        Some(r.stdout.as_slice()),
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    for (key, value) in &kept {
        assert!(lines_of_output(&again)[0].contains(&format!("\"{key}\":{value}")));
    }
    // As CSV, a string is its text and any other value its JSON text.
    let csv = run(&["solve", "-q", "--keep-columns"], Some(line.as_bytes()));
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    assert_eq!(col_of(&csv, "id"), ["123456789012345678901234567890"]);
    assert_eq!(col_of(&csv, "hundred"), ["1e2"]);
    assert_eq!(col_of(&csv, "zero"), ["-0"]);
    assert_eq!(col_of(&csv, "huge"), [huge]);
    assert_eq!(col_of(&csv, "note"), ["café \u{FFFD} \"q\""]);
    assert_eq!(col_of(&csv, "none"), [""]);
}

#[test]
fn jsonl_expected_solutions_follow_the_csv_rule() {
    // The first record has no solution (empty, null, or no key at all);
    // the second's is wrong. JSONL and CSV agree: the mismatch is found
    // and --fail-on-mismatch fails on it.
    let csv = format!("puzzle,solution\n{P},\n{P},{WRONG}\n{P},{S}\n");
    let csv_run = run(&["solve", "-q", "--fail-on-mismatch"], Some(csv.as_bytes()));
    assert_eq!(csv_run.code, 1);
    assert_eq!(col_of(&csv_run, "expected"), ["", "mismatch", "match"]);
    for first in [
        format!(r#"{{"puzzle":"{P}","solution":""}}"#),
        format!(r#"{{"puzzle":"{P}","solution":null}}"#),
        format!(r#"{{"puzzle":"{P}"}}"#),
    ] {
        let jsonl = format!(
            "{first}\n{{\"puzzle\":\"{P}\",\"solution\":\"{WRONG}\"}}\n\
             {{\"solution\":\"{S}\",\"puzzle\":\"{P}\"}}\n"
        );
        let r = run(
            &["solve", "-q", "--fail-on-mismatch"],
            Some(jsonl.as_bytes()),
        );
        assert_eq!(r.code, 1, "{first}: {}", r.stderr);
        assert_eq!(col_of(&r, "expected"), ["", "mismatch", "match"], "{first}");
    }
}

#[test]
fn what_we_write_as_jsonl_we_read_back() {
    // Kept notes that escape to long JSON lines (control bytes take six
    // bytes each): every line is longer than the other formats' 4 KiB.
    let dir = tempfile::tempdir().unwrap();
    let note = "\u{1}".repeat(1_900);
    let mut csv = String::from("id,puzzle,note,other\n");
    for i in 0..20 {
        csv.push_str(&format!("{i},{P},\"{note}\",\"{note}{i}\"\n"));
    }
    let input = write(dir.path(), "notes.csv", csv);
    let out = dir.path().join("results.jsonl");
    on(
        &[
            "solve",
            "-q",
            "--keep-columns",
            "--format",
            "jsonl",
            "-o",
            arg(&out),
        ],
        &input,
        0,
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.lines().all(|l| l.len() > 20_000), "lines are long");
    let again = on(&["solve", "-q", "--keep-columns"], &out, 0);
    assert!(col_of(&again, "status").iter().all(|s| s == "solved"));
    let notes = col_of(&again, "note");
    assert_eq!(notes.len(), 20);
    assert!(notes.iter().all(|n| *n == note));
    assert_eq!(col_of(&again, "other")[7], format!("{note}7"));
}

#[test]
fn jsonl_errors_name_the_lines_column() {
    let input = format!(
        "{{\"puzzle\":\"{}x\"}}\n{{\"puzzle\":\"\\u0031{}x\"}}\n{{\"puzzle\": [1]}}\n{{\"puzzle\":\"1\" x}}\n",
        &P[..40],
        &P[..39],
    );
    let r = run(&["solve", "-q"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let errors = col_of(&r, "error");
    // Column 52 of line 1 is the `x` (11 bytes of key and quote, 40 cells).
    assert!(
        errors[0].ends_with(":1: bad character 'x' at column 52"),
        "{errors:?}"
    );
    // The `\u0031` escape is one cell written in six bytes: the `x`
    // after it and 39 more cells is at column 57 of the line.
    assert_eq!(input.lines().nth(1).unwrap().as_bytes()[56], b'x');
    assert!(
        errors[1].ends_with(":2: bad character 'x' at column 57"),
        "{errors:?}"
    );
    assert!(
        errors[2].ends_with("the value at column 12 is not a JSON string"),
        "{errors:?}"
    );
    assert!(
        errors[3].ends_with("not a JSON object (at column 15)"),
        "{errors:?}"
    );
}
