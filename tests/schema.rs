//! The README's documented schemas against real output: every field of
//! the JSONL row table and of the `--summary-json` table is present in
//! real output, and no field the README does not document.

use crate::util::{fixture, root, run_paths};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The rows of the first table after `heading` in README.md, as cells.
fn readme_table(heading: &str) -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no heading {heading:?}"));
    let rows: Vec<Vec<String>> = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    assert!(!rows.is_empty(), "no table under {heading:?}");
    rows
}

/// The backticked names in a table cell, in order.
fn ticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

fn keys(obj: &Map<String, Value>) -> BTreeSet<String> {
    obj.keys().cloned().collect()
}

fn jsonl(args: &[&str], path: &std::path::Path) -> Vec<Map<String, Value>> {
    let mut all = vec!["solve", "--format", "jsonl", "-q"];
    all.extend_from_slice(args);
    let r = run_paths(&all, &[path]);
    assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
    r.stdout_str()
        .lines()
        .map(|l| match serde_json::from_str(l).unwrap() {
            Value::Object(m) => m,
            v => panic!("not an object: {v}"),
        })
        .collect()
}

#[test]
fn jsonl_rows_have_exactly_the_documented_fields() {
    let table = readme_table("### JSONL rows");
    let field = |row: &Vec<String>| ticked(&row[0]).remove(0);
    let when = |cond: &str| -> BTreeSet<String> {
        table
            .iter()
            .filter(|r| r[2] == cond || r[2] == "always")
            .map(field)
            .collect()
    };
    let conditions: BTreeSet<&str> = table.iter().map(|r| r[2].as_str()).collect();
    let expected_conditions = BTreeSet::from([
        "always",
        "`--rate`",
        "CSV input with a solution column",
        "`--keep-trailing`",
    ]);
    assert_eq!(
        conditions, expected_conditions,
        "a new condition needs a run here"
    );

    let statuses = fixture("statuses.txt");
    let kaggle = fixture("formats/kaggle.csv");
    let runs = [
        (jsonl(&["-k", "2"], &statuses), when("always")),
        (jsonl(&["--rate"], &statuses), when("`--rate`")),
        (
            jsonl(&[], &kaggle),
            when("CSV input with a solution column"),
        ),
        (
            jsonl(&["--keep-trailing"], &statuses),
            when("`--keep-trailing`"),
        ),
    ];
    let mut seen = BTreeSet::new();
    for (rows, want) in &runs {
        assert!(!rows.is_empty());
        for row in rows {
            assert_eq!(&keys(row), want, "row {row:?}");
            seen.extend(keys(row));
        }
    }
    let documented: BTreeSet<String> = table.iter().map(field).collect();
    assert_eq!(seen, documented);

    // A malformed record's fields hold what the README says.
    let rows = &runs[1].0;
    let bad = rows.iter().find(|r| r["line"] == 3).unwrap();
    assert_eq!(bad["status"], "invalid");
    assert_eq!(bad["puzzle"], Value::Null);
    assert_eq!(bad["solution"], Value::Null);
    assert_eq!(bad["solutions"], 0);
    assert_eq!(bad["guesses"], 0);
    assert_eq!(bad["backtracks"], 0);
    assert_eq!(bad["singles"], Value::Null);
    let error = bad["error"].as_str().unwrap();
    assert!(
        error.ends_with("statuses.txt:3: expected 81 cells, found 79"),
        "{error}"
    );
    // Contradictory givens keep their puzzle.
    let contradictory = rows.iter().find(|r| r["line"] == 5).unwrap();
    assert_eq!(contradictory["status"], "invalid");
    assert!(contradictory["puzzle"].is_string());
    // A valid row has no error.
    assert_eq!(rows[0]["error"], Value::Null);
}

#[test]
fn summary_json_has_exactly_the_documented_fields() {
    let table = readme_table("### The summary: `--summary-json PATH`");
    let documented: BTreeSet<String> = table.iter().map(|r| ticked(&r[0]).remove(0)).collect();
    let statuses_row = table.iter().find(|r| r[0] == "`statuses`").unwrap();
    let documented_statuses: BTreeSet<String> = ticked(&statuses_row[2]).into_iter().collect();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("summary.json");
    let path_arg = path.to_str().unwrap();
    let r = run_paths(
        &[
            "solve",
            "-q",
            "--summary-json",
            path_arg,
            "-o",
            dir.path().join("out.csv").to_str().unwrap(),
        ],
        &[&fixture("statuses.txt")],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let summary: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let summary = summary.as_object().unwrap();
    assert_eq!(keys(summary), documented);
    let statuses = summary["statuses"].as_object().unwrap();
    assert_eq!(keys(statuses), documented_statuses);
    assert_eq!(summary["command"], "solve");
    assert_eq!(summary["records"], 7);
    assert_eq!(statuses["invalid"], 3);
    assert_eq!(summary["interrupted"], false);
}
