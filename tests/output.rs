//! What every writer shares: the CSV, JSON Lines and line formats, the
//! README's documented schemas against real output, `-o` kept only on
//! success and checked before any input is read, and write failures.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::{Map, Value};

use crate::util::*;

#[test]
fn line_and_jsonl_formats_round_trip() {
    let csv = run_paths(&["solve", "-q", "-k", "2"], &[&fixture("statuses.txt")]);
    let (h, rows) = csv.csv();
    let line = run_paths(
        &["solve", "-q", "-k", "2", "--format", "line"],
        &[&fixture("statuses.txt")],
    );
    let lines: Vec<&str> = line.stdout_str().split_terminator('\n').collect();
    assert_eq!(lines.len(), rows.len());
    for (l, row) in lines.iter().zip(&rows) {
        assert_eq!(*l, row[col(&h, "solution")]);
    }
    let jsonl = run_paths(
        &["solve", "-q", "-k", "2", "--format", "jsonl"],
        &[&fixture("statuses.txt")],
    );
    let objects: Vec<serde_json::Value> = jsonl
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), rows.len());
    for (o, row) in objects.iter().zip(&rows) {
        assert_eq!(o["index"].to_string(), row[col(&h, "index")]);
        assert_eq!(o["status"], row[col(&h, "status")].as_str());
        assert_eq!(o["solutions"].to_string(), row[col(&h, "solutions")]);
        assert_eq!(
            o["solution"].as_str().unwrap_or(""),
            row[col(&h, "solution")]
        );
        assert_eq!(o["error"].as_str().unwrap_or(""), row[col(&h, "error")]);
    }
    let no_header = run_paths(&["solve", "-q", "--no-header"], &[&fixture("statuses.txt")]);
    assert_eq!(no_header.stdout_str().lines().count(), 7);
}

#[test]
fn output_file_appears_only_on_success() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let ok = run(
        &["solve", "-q", "-o", arg(&out), arg(&data("sample.txt"))],
        None,
    );
    assert_eq!(ok.code, 0);
    assert!(ok.stdout.is_empty());
    let (_, rows) = parse_csv(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), 211);
    assert_eq!(names(dir.path()), ["out.csv"], "no temporary file left");

    // A run that fails (the second input is unreadable) leaves nothing.
    let out2 = dir.path().join("out2.csv");
    let sample = data("sample.txt");
    let failed = run_paths(&["solve", "-q", "-o", arg(&out2)], &[&sample, dir.path()]);
    assert_eq!(failed.code, 2);
    assert_eq!(names(dir.path()), ["out.csv"]);

    // An unwritable destination fails at once.
    let bad = run(
        &[
            "solve",
            "-o",
            "/no/such/dir/out.csv",
            arg(&data("sample.txt")),
        ],
        None,
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("/no/such/dir/out.csv"),
        "{}",
        bad.stderr
    );
}

#[test]
fn unwritable_output_fails_before_reading_any_input() {
    // stdin stays open and silent: a run that read its input before
    // opening its output would wait (format detection reads the first
    // line) instead of failing at once. Unlike a read-only directory, a
    // path under a regular file is unwritable even for root.
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "plain", b"x");
    let out = file.join("out.csv");
    let r = run_with_silent_stdin(&["solve", "-o", arg(&out), "-"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("out.csv"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
}

/// Directory permissions bind every user but root. Run as root (CI runs
/// as root), the binary runs as `nobody` through `setpriv` (util-linux),
/// from a copy in the test's directory, which any user can read.
#[test]
fn read_only_directory_fails_before_solving() {
    use std::os::unix::fs::PermissionsExt;
    let chmod = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let dir = tempfile::tempdir().unwrap();
    chmod(dir.path(), 0o755);
    let input = write(dir.path(), "in.txt", sample());
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    chmod(&ro, 0o555);
    let out = ro.join("out.csv");
    // SAFETY: geteuid takes nothing and cannot fail.
    let mut cmd = if unsafe { libc::geteuid() } == 0 {
        let what = "setpriv (util-linux), to run as a user other than root";
        if !required(what, have("setpriv")) {
            return;
        }
        let copy = dir.path().join("batchdoku");
        std::fs::copy(bin(), &copy).unwrap();
        chmod(&copy, 0o755);
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(copy);
        cmd
    } else {
        Command::new(bin())
    };
    let r = cmd
        .args(["solve", "-o", arg(&out), arg(&input)])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("out.csv"), "{stderr}");
    assert!(
        !stderr.contains("records"),
        "no solving before the failure: {stderr}"
    );
    assert_eq!(names(&ro), Vec::<String>::new());
}

#[test]
fn write_error_mid_run_is_fatal() {
    // stdout on /dev/full: every flush fails with ENOSPC.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if !required("/dev/full", full.is_ok()) {
        return;
    }
    let full = full.unwrap();
    let out = Command::new(bin())
        .args(["solve", "-q"])
        .arg(data("sample.txt"))
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("writing output"), "{stderr}");
}

#[test]
fn closed_stdout_ends_the_run_quietly() {
    let input = sample_and_junk(40);
    let mut child = command(&["solve", "-j", "2"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
}

// --- the README's schemas ---------------------------------------------------

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
    let path_arg = arg(&path);
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
