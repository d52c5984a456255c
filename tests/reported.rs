//! What is reported is true (issue 19, section 3), through the real
//! binary: `--summary-json` checked before any work and kept only with
//! `-o`; a full or closed stderr never panics; a closed stdout never gets
//! a summary claiming unfinished work; `overlap` names each row's split;
//! `-o -`, dangling `-o` links and stdin's other names; `bench`'s CSV,
//! write errors and `--min-time` bounds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

const P1: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const P2: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// `P1` with its digits relabelled (1 <-> 2): equivalent, not equal.
fn relabelled(p: &str) -> String {
    p.chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect()
}

/// Writes `text` to `dir/name`.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the binary with stdin piped and left open (silent): a run that
/// reads its input before failing would wait. Returns the exit code and
/// stderr, failing the test if it waits more than 20 s.
fn run_with_silent_stdin(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} waited for its input instead of failing at once");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// --- 1. --summary-json ------------------------------------------------

#[test]
fn summary_json_in_a_missing_directory_fails_before_reading_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let json = dir.path().join("no/such/dir/s.json");
    for cmd in ["solve", "score", "canon", "dedupe"] {
        let (code, stderr) =
            run_with_silent_stdin(&[cmd, "-o", s(&out), "--summary-json", s(&json), "-"]);
        assert_eq!(code, 2, "{cmd}: {stderr}");
        assert!(stderr.contains("s.json"), "{cmd}: {stderr}");
        assert!(!stderr.contains("panicked"), "{cmd}: {stderr}");
        assert!(
            names(dir.path()).is_empty(),
            "{cmd}: {:?}",
            names(dir.path())
        );
    }
    // Under a regular file: unwritable even for root.
    let plain = write(dir.path(), "plain", "x");
    let json = plain.join("s.json");
    let (code, stderr) = run_with_silent_stdin(&["solve", "--summary-json", s(&json), "-"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn summary_json_that_cannot_be_written_keeps_nothing_under_o() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\n{P2}\n"));
    let out = dir.path().join("out.csv");
    // /dev/full opens, then every write fails (ENOSPC).
    for cmd in ["solve", "dedupe"] {
        let r = run(
            &[
                cmd,
                "-q",
                "-o",
                s(&out),
                "--summary-json",
                "/dev/full",
                s(&input),
            ],
            None,
        );
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(r.stderr.contains("/dev/full"), "{cmd}: {}", r.stderr);
        assert_eq!(names(dir.path()), ["in.txt"], "{cmd}: -o kept");
    }
}

#[test]
fn summary_json_is_written_atomically_beside_a_kept_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\nbad\n{P2}\n"));
    let out = dir.path().join("out.csv");
    let json = dir.path().join("s.json");
    fs::write(&json, "old").unwrap();
    let r = run(
        &[
            "solve",
            "-q",
            "-o",
            s(&out),
            "--summary-json",
            s(&json),
            s(&input),
        ],
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(names(dir.path()), ["in.txt", "out.csv", "s.json"]);
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["records"], 3);
    assert_eq!(v["statuses"]["invalid"], 1);
    assert_eq!(parse_csv(&fs::read(&out).unwrap()).1.len(), 3);
    // The same file for both is refused before any work.
    let r = run(
        &[
            "solve",
            "-q",
            "-o",
            s(&out),
            "--summary-json",
            s(&out),
            s(&input),
        ],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

// --- 2. stderr that cannot be written ---------------------------------

/// Runs `args` with stderr on /dev/full (every write fails).
fn run_with_full_stderr(args: &[&str]) -> (i32, Vec<u8>) {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(full)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

#[test]
fn a_full_stderr_never_panics_and_the_output_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\n{P2}\n{P1}\n"));
    let train = write(dir.path(), "train.txt", &format!("{P2}\n"));
    let cases: Vec<(Vec<&str>, i32, usize)> = vec![
        (vec!["solve", s(&input)], 0, 3),
        (vec!["score", s(&input)], 0, 3),
        (vec!["canon", s(&input)], 0, 3),
        (vec!["dedupe", s(&input)], 0, 2),
        (vec!["overlap", s(&train), s(&input)], 1, 1),
        (
            vec!["generate", "-n", "3", "--seed", "1", "--format", "csv"],
            0,
            3,
        ),
        // Interrupted by nothing, with --progress drawing plain lines.
        (vec!["solve", "--progress", s(&input)], 0, 3),
    ];
    for (args, want, rows) in cases {
        let out = dir.path().join("out.csv");
        let _ = fs::remove_file(&out);
        let mut all = args.clone();
        all.extend(["-o", s(&out)]);
        let (code, _) = run_with_full_stderr(&all);
        assert_eq!(code, want, "{all:?}");
        let kept = fs::read(&out).unwrap_or_else(|e| panic!("{args:?}: -o not kept: {e}"));
        assert_eq!(parse_csv(&kept).1.len(), rows, "{args:?}");
    }
    // bench writes its table on stdout; its skipped-file note on stderr.
    let empty = write(dir.path(), "empty.txt", "");
    let (code, table) = run_with_full_stderr(&[
        "bench",
        "--min-time",
        "0",
        "-j",
        "1",
        "--format",
        "csv",
        s(&empty),
        s(&input),
    ]);
    assert_eq!(code, 0);
    assert_eq!(parse_csv(&table).1.len(), 1);
    // A usage error with nowhere to print it is still a usage error.
    let (code, _) = run_with_full_stderr(&["solve", "--no-such-flag"]);
    assert_eq!(code, 2);
}

#[test]
fn a_closed_stderr_pipe_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\n{P2}\n"));
    let out = dir.path().join("out.csv");
    // stderr into a pipe whose reader exits at once; the status of the
    // batchdoku side of the pipe is printed.
    let script = r#""$0" "$@" 2>&1 >/dev/null | true; echo "${PIPESTATUS[0]}""#;
    let r = Command::new("bash")
        .args(["-c", script])
        .arg(bin())
        .args(["solve", "--progress", "-o", s(&out), s(&input)])
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&r.stdout).trim().to_string();
    assert_eq!(code, "0");
    assert_eq!(parse_csv(&fs::read(&out).unwrap()).1.len(), 2);
}

// --- 3. a closed stdout -----------------------------------------------

/// Runs `args` with stdout closed before the first write; returns the
/// exit code and stderr.
fn run_with_closed_stdout(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_gets_no_summary_of_unfinished_work() {
    let dir = tempfile::tempdir().unwrap();
    // Enough invalid training rows (about 1 MB) that the pipe breaks in
    // the training pass, as `| head -1` does.
    let junk = "not a puzzle\n".repeat(10_000);
    let train = write(dir.path(), "train.txt", &format!("{junk}{P1}\n"));
    let test = write(
        dir.path(),
        "test.txt",
        &format!("{}\n{P2}\n", relabelled(P1)),
    );
    let (code, stderr) = run_with_closed_stdout(&["overlap", s(&train), s(&test)]);
    // 0, as for every closed stdout: the run did not finish, so it found
    // no leak and no invalid record to fail on.
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("leak"), "overlap claims results: {stderr}");
    assert!(!stderr.contains("test record"), "{stderr}");

    let many = format!("{P1}\n{P2}\n").repeat(5_000);
    let input = write(dir.path(), "in.txt", &format!("{junk}{many}"));
    let (code, stderr) = run_with_closed_stdout(&["dedupe", s(&input)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("kept"), "dedupe claims results: {stderr}");
    assert!(!stderr.contains("duplicates"), "{stderr}");
    // A small run whose pipe breaks only in the final flush: still 0.
    let small = write(dir.path(), "small.txt", &format!("{P1}\nbad\n"));
    let (code, stderr) = run_with_closed_stdout(&["solve", s(&small)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stderr.contains("records"),
        "summary after a closed stdout: {stderr}"
    );
}

// --- 4. overlap's split column ----------------------------------------

#[test]
fn overlap_rows_name_their_split_and_count_within_it() {
    let dir = tempfile::tempdir().unwrap();
    // Train: 3 records (the second invalid). Test: a blank line first, so
    // line and index differ; 4 records: a leak, an invalid, a puzzle not
    // in train, and a second leak.
    let train = write(dir.path(), "train.txt", &format!("{P1}\nbad train\n{P1}\n"));
    let test = write(
        dir.path(),
        "test.txt",
        &format!("\n{}\nbad test\n{P2}\n{P1}\n", relabelled(P1)),
    );
    let r = run(&["overlap", s(&train), s(&test)], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(h[0], "split");
    let got: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|row| {
            (
                row[col(&h, "split")].as_str(),
                row[col(&h, "index")].as_str(),
                row[col(&h, "line")].as_str(),
                row[col(&h, "status")].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("train", "2", "2", "invalid"),
            ("test", "1", "2", "leak"),
            ("test", "2", "3", "invalid"),
            ("test", "4", "5", "leak"),
        ]
    );
    assert!(
        r.stderr
            .contains("3 train records (1 class), 4 test records, 2 leaks"),
        "{}",
        r.stderr
    );
    // JSONL names the split too.
    let r = run(&["overlap", "--format", "jsonl", s(&train), s(&test)], None);
    let splits: Vec<String> = r
        .stdout_str()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{}{}", v["split"].as_str().unwrap(), v["index"])
        })
        .collect();
    assert_eq!(splits, ["train2", "test1", "test2", "test4"]);
    // And the help says what index counts.
    let help = run(&["overlap", "--help"], None);
    let help = help.stdout_str().split_whitespace().collect::<Vec<_>>();
    let help = help.join(" ");
    assert!(
        help.contains("`index` counts records within its split"),
        "{help}"
    );
}

// --- 5. -o -, dangling links, stdin's names ---------------------------

#[test]
fn dash_o_dash_writes_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\n{P2}\n"));
    let plain = run(&["solve", "-q", s(&input)], None);
    let dashed = run(&["solve", "-q", "-o", "-", s(&input)], None);
    assert_eq!(dashed.code, 0, "{}", dashed.stderr);
    assert_eq!(dashed.stdout, plain.stdout);
    assert_eq!(names(dir.path()), ["in.txt"], "a file named '-' was made");
}

#[test]
fn o_through_a_dangling_link_creates_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", &format!("{P1}\n"));
    fs::create_dir(dir.path().join("sub")).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("sub/target.csv", &link).unwrap();
    let r = run(&["solve", "-q", "-o", s(&link), s(&input)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let rows = parse_csv(&fs::read(dir.path().join("sub/target.csv")).unwrap()).1;
    assert_eq!(rows.len(), 1);
    assert_eq!(names(&dir.path().join("sub")), ["target.csv"]);
}

#[test]
fn stdin_by_any_name_counts_once() {
    // Any path to the stdin pipe counts, such as a link to /dev/stdin.
    let dir = tempfile::tempdir().unwrap();
    let alias = dir.path().join("alias");
    std::os::unix::fs::symlink("/dev/stdin", &alias).unwrap();
    for other in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", s(&alias)] {
        for args in [["solve", "-", other], ["solve", other, "-"]] {
            let r = run(&args, Some(format!("{P1}\n").as_bytes()));
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains("more than once"),
                "{args:?}: {}",
                r.stderr
            );
            assert!(r.stdout.is_empty());
        }
    }
    // A device given twice is not stdin given twice (stdin is /dev/null
    // here too), and stdin by one other name alone is read.
    let r = run(&["solve", "/dev/null", "/dev/null"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &["solve", "-q", "/dev/stdin"],
        Some(format!("{P1}\n").as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 1);
}

// --- 6. bench -------------------------------------------------------

#[test]
fn bench_csv_quotes_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let odd = write(dir.path(), "a,b \"c\".txt", &format!("{P1}\n{P2}\n"));
    let r = run(
        &[
            "bench",
            "--min-time",
            "0",
            "-j",
            "1,2",
            "--format",
            "csv",
            s(&odd),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(r.stdout.as_slice());
    let width = rdr.headers().unwrap().len();
    assert_eq!(width, 11);
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row.len(), width, "{row:?}");
        assert_eq!(&row[0], s(&odd));
    }
}

#[test]
fn bench_table_write_failure_exits_2() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(bin())
        .args(["bench", "--min-time", "0", "-j", "1"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bench_min_time_out_of_range_is_a_usage_error() {
    for bad in ["1e308", "inf", "NaN", "-1", "86401", "soon"] {
        let flag = format!("--min-time={bad}");
        let r = run(&["bench", &flag], None);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("--min-time"), "{bad}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{bad}: {}", r.stderr);
    }
}
