//! What every writer shares: the CSV, JSON Lines and line formats, the
//! documented schemas (docs/formats.md) against real output, `-o` kept only on
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

/// Directory permissions bind every user but root: the binary runs as
/// another user ([`unprivileged`]).
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
    let Some(mut cmd) = unprivileged(dir.path()) else {
        return;
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
    // The cause is said once (it was also printed as its own cause).
    assert_eq!(
        stderr.matches("No space left on device").count(),
        1,
        "{stderr}"
    );
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

// --- the documented schemas (docs/formats.md) -------------------------------

/// The rows of the first table after `heading` in docs/formats.md, as cells.
fn documented_table(heading: &str) -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(root().join("docs/formats.md")).unwrap();
    let start = readme
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/formats.md has no heading {heading:?}"));
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
    let table = documented_table("### JSONL rows");
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
        "`--difficulty`",
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
        (jsonl(&["--difficulty"], &statuses), when("`--difficulty`")),
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

    // A malformed record's fields hold what docs/formats.md says.
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
    let table = documented_table("### The summary: `--summary-json PATH`");
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

// --- stdout and its aliases (issue 27) ---------------------------------------

/// Runs `script` under `sh -c` in `dir`, with `$B` the binary and `$P` a
/// file of `n` sample puzzles (written to `dir/p.txt`).
fn sh_in(dir: &std::path::Path, n: usize, script: &str) -> Run {
    let puzzles = write(dir, "p.txt", lines_of(&sample_grids(n)));
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("B", bin())
        .env("P", &puzzles)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The data lines (header excluded) of a CSV file of rows.
fn row_count(path: &std::path::Path) -> usize {
    parse_csv(&std::fs::read(path).unwrap()).1.len()
}

/// Every name for stdout is written through it: a file redirected with
/// `>>` is appended to, a pipe stays a pipe, a link to /dev/stdout is
/// followed to the descriptor, never renamed over.
#[test]
fn stdout_by_any_name_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in [
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/1",
        "/dev//stdout",
        "link",
    ] {
        let _ = std::fs::remove_file(d.join("link"));
        std::os::unix::fs::symlink("/dev/stdout", d.join("link")).unwrap();
        std::fs::write(d.join("log.csv"), "earlier\n").unwrap();
        let r = sh_in(
            d,
            30,
            &format!("\"$B\" solve -q -o {name} \"$P\" >> log.csv"),
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let log = std::fs::read_to_string(d.join("log.csv")).unwrap();
        assert!(log.starts_with("earlier\nindex,"), "{name}: {log}");
        assert_eq!(log.lines().count(), 32, "{name}");
        assert!(std::fs::symlink_metadata(d.join("link"))
            .unwrap()
            .file_type()
            .is_symlink());

        let r = sh_in(
            d,
            30,
            &format!("\"$B\" solve -q -o {name} \"$P\" | cat > piped.csv"),
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert_eq!(row_count(&d.join("piped.csv")), 30, "{name}");
        // `| cat` from sh: the exit code is the pipeline's last; check ours.
        let r = sh_in(
            d,
            30,
            &format!("\"$B\" solve -q -o {name} \"$P\" | cat >/dev/null; exit 0"),
        );
        assert!(!r.stderr.contains("cannot write"), "{name}: {}", r.stderr);
    }
    let mut piped = command(&["solve", "-q", "-o", "/dev/stdout", arg(&data("sample.txt"))])
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    piped.stdout.truncate(6);
    assert_eq!(piped.stdout, b"index,");
    assert!(temp_files(d).is_empty(), "{:?}", names(d));
}

/// `-o /dev/stderr` appends to what stderr is redirected to; a summary
/// on stdout (`/dev/stdout` or `-`) beside rows under `-o` is the JSON
/// alone, and the rows file has every row.
#[test]
fn other_descriptors_and_summary_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("err.log"), "earlier\n").unwrap();
    let r = sh_in(d, 20, "\"$B\" solve -q -o /dev/stderr \"$P\" 2>> err.log");
    assert_eq!(r.code, 0);
    let log = std::fs::read_to_string(d.join("err.log")).unwrap();
    assert!(log.starts_with("earlier\nindex,"), "{log}");
    assert_eq!(log.lines().count(), 22);

    for name in ["/dev/stdout", "-", "/dev/fd/1"] {
        let r = sh_in(
            d,
            20,
            &format!("\"$B\" solve -q -o rows.csv --summary-json {name} \"$P\" > summary.json"),
        );
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let summary: Value =
            serde_json::from_slice(&std::fs::read(d.join("summary.json")).unwrap()).unwrap();
        assert_eq!(summary["records"], 20, "{name}");
        assert_eq!(summary["complete"], true, "{name}");
        assert_eq!(row_count(&d.join("rows.csv")), 20, "{name}");
    }
    assert!(temp_files(d).is_empty(), "{:?}", names(d));
}

/// Two outputs that resolve to the same place (both stdout, the same path
/// however spelled, the same file through stdout) are a usage error
/// before any work: nothing is written, nothing is kept. /dev/null may
/// take both.
#[test]
fn outputs_at_the_same_place_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("keep.csv"), "earlier\n").unwrap();
    for script in [
        "\"$B\" solve --summary-json /dev/stdout \"$P\" > out.csv",
        "\"$B\" solve --summary-json - \"$P\" > out.csv",
        "\"$B\" solve -o - --summary-json /proc/self/fd/1 \"$P\" > out.csv",
        "\"$B\" solve -o /dev/stdout --summary-json - \"$P\" > out.csv",
        "\"$B\" solve -o new.csv --summary-json ./new.csv \"$P\" > out.csv",
        "\"$B\" solve -o new.csv --summary-json ../$(basename \"$PWD\")/new.csv \"$P\" > out.csv",
        "\"$B\" solve --summary-json keep.csv \"$P\" >> keep.csv",
        // stdout and stderr on one file: the message is copied back.
        "\"$B\" solve -o /dev/stderr --summary-json - \"$P\" > out.csv 2>&1; \
         s=$?; cat out.csv >&2; exit $s",
    ] {
        let r = sh_in(d, 20, script);
        assert_eq!(r.code, 2, "{script}: {}", r.stderr);
        assert!(r.stderr.contains("same place"), "{script}: {}", r.stderr);
        assert!(!r.stderr.contains("records"), "{script}: ran: {}", r.stderr);
        let out = std::fs::read_to_string(d.join("out.csv")).unwrap_or_default();
        assert!(!out.contains("index,"), "{script}: {out}");
        assert!(!d.join("new.csv").exists(), "{script}");
        assert_eq!(
            std::fs::read_to_string(d.join("keep.csv")).unwrap(),
            "earlier\n"
        );
        assert!(temp_files(d).is_empty(), "{script}: {:?}", names(d));
    }
    let r = sh_in(
        d,
        20,
        "\"$B\" solve -q --summary-json /dev/null \"$P\" > /dev/null",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A stdout closed at exec (`>&-`) is not /dev/null: rows that go there
/// are exit 2 with a clear message before any work, and no summary claims
/// them. With `-o`, a closed stdout does not matter.
#[test]
fn closed_stdout_is_an_unwritable_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for script in [
        "\"$B\" solve \"$P\" >&-",
        "\"$B\" solve -o - \"$P\" >&-",
        "\"$B\" solve -o /dev/stdout \"$P\" >&-",
        "\"$B\" solve --summary-json s.json \"$P\" >&-",
        "\"$B\" solve -o rows.csv --summary-json - \"$P\" >&-",
        "\"$B\" score --summary-json s.json \"$P\" >&-",
        "\"$B\" solve -o rows.csv --summary-json /dev/stderr \"$P\" 2>&-",
    ] {
        let r = sh_in(d, 20, script);
        assert_eq!(r.code, 2, "{script}: {}", r.stderr);
        if !script.contains("2>&-") {
            assert!(r.stderr.contains("is closed"), "{script}: {}", r.stderr);
            assert!(!r.stderr.contains("records"), "{script}: {}", r.stderr);
        }
        assert!(!d.join("s.json").exists(), "{script}");
        assert!(!d.join("rows.csv").exists(), "{script}");
        assert!(temp_files(d).is_empty(), "{script}: {:?}", names(d));
    }
    let r = sh_in(d, 20, "\"$B\" solve -q -o rows.csv \"$P\" >&-");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(row_count(&d.join("rows.csv")), 20);
}

/// After `| head`, the summary says the run did not complete, and counts
/// what was written; a run that completes says so.
#[test]
fn summary_after_a_closed_stdout_says_the_run_did_not_complete() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = sh_in(
        d,
        usize::MAX,
        "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat \"$P\"; done > big.txt; \
         \"$B\" solve -q --summary-json s.json big.txt | head -n 2 > head.csv",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let total = std::fs::read_to_string(d.join("big.txt"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(
        std::fs::read_to_string(d.join("head.csv"))
            .unwrap()
            .lines()
            .count(),
        2
    );
    let summary: Value = serde_json::from_slice(&std::fs::read(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["broken_pipe"], true, "{summary}");
    assert_eq!(summary["complete"], false, "{summary}");
    assert_eq!(summary["interrupted"], false, "{summary}");
    let records = summary["records"].as_u64().unwrap();
    assert!(records < total as u64, "{summary}");
    assert_eq!(summary["rows"], records);
    let by_status: u64 = summary["statuses"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(by_status, records);

    let r = sh_in(
        d,
        50,
        "\"$B\" solve -q --summary-json s.json \"$P\" > all.csv",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: Value = serde_json::from_slice(&std::fs::read(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["records"], 50);
    assert_eq!(summary["complete"], true);
    assert_eq!(summary["broken_pipe"], false);
}

/// An output path that cannot be a file (`newdir/`, `.`, an existing
/// directory, a missing directory) fails before any work: nothing runs
/// (no summary line on stderr), nothing is kept under the other output.
#[test]
fn unwritable_output_forms_fail_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("existing")).unwrap();
    for bad in [
        "newdir/",
        "newdir/s.json",
        ".",
        "..",
        "existing",
        "existing/",
        "existing/.",
        "existing/..",
        "/dev/fd/9",
    ] {
        for script in [
            format!("\"$B\" solve -o rows.csv --summary-json {bad} \"$P\""),
            format!("\"$B\" solve -o {bad} --summary-json s.json \"$P\""),
            format!("\"$B\" dedupe -o rows.csv --summary-json {bad} \"$P\""),
        ] {
            let r = sh_in(d, 200, &script);
            assert_eq!(r.code, 2, "{script}: {}", r.stderr);
            assert!(r.stderr.contains(bad), "{script}: {}", r.stderr);
            assert!(!r.stderr.contains("records"), "{script}: ran: {}", r.stderr);
            assert!(!d.join("rows.csv").exists(), "{script}");
            assert!(!d.join("s.json").exists(), "{script}");
            assert!(!d.join("newdir").exists(), "{script}");
            assert!(temp_files(d).is_empty(), "{script}: {:?}", names(d));
            assert!(
                temp_files(&d.join("existing")).is_empty(),
                "{script}: {:?}",
                names(d)
            );
        }
    }
}

/// An output that is one of the inputs (`-o`, `--summary-json`, or stdout
/// appending to it; by its own name or through a link) is refused before
/// any work: exit 2, the input untouched, nothing else written.
#[test]
fn an_output_that_is_an_input_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "puzzles.txt", sample());
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let out = dir.path().join("out.csv");
    let cases: [Vec<&str>; 5] = [
        vec!["solve", arg(&input), "-o", arg(&input)],
        vec!["score", arg(&link), "-o", arg(&input)],
        vec![
            "solve",
            arg(&input),
            "-o",
            arg(&out),
            "--summary-json",
            arg(&link),
        ],
        vec!["dedupe", arg(&input), "-o", arg(&link)],
        vec!["overlap", arg(&out), arg(&input), "-o", arg(&input)],
    ];
    std::fs::write(&out, sample()).unwrap();
    for args in &cases {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("both an input and an output"),
            "{}",
            r.stderr
        );
        assert_eq!(std::fs::read(&input).unwrap(), sample(), "{args:?}");
    }
    // stdout appending to the input.
    let sh = format!(
        "{} solve {} >> {}",
        bin().display(),
        arg(&input),
        arg(&input)
    );
    let status = std::process::Command::new("sh")
        .args(["-c", &sh])
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    assert_eq!(std::fs::read(&input).unwrap(), sample());
    assert_eq!(names(dir.path()), ["link.txt", "out.csv", "puzzles.txt"]);
}
