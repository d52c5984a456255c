//! The streaming pipeline as a user sees it: ordering across threads,
//! several inputs, compressed inputs, output formats, `-o` atomicity,
//! broken pipes.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use crate::util::*;

/// The sample repeated, with its hardest puzzles first in every copy, cut
/// into tiny batches so that later batches finish before earlier ones.
fn mixed_input(copies: usize) -> Vec<u8> {
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let mut input = Vec::new();
    for _ in 0..copies {
        input.extend_from_slice(&sample);
        input.extend_from_slice(b"not a puzzle\n");
    }
    input
}

#[test]
fn output_is_identical_for_one_and_two_threads() {
    let input = mixed_input(3);
    let one = run(
        &["solve", "-q", "-k", "2", "-j", "1", "--batch-size", "3"],
        Some(&input),
    );
    let two = run(
        &["solve", "-q", "-k", "2", "-j", "2", "--batch-size", "3"],
        Some(&input),
    );
    let many = run(
        &["solve", "-q", "-k", "2", "-j", "7", "--batch-size", "1"],
        Some(&input),
    );
    assert_eq!(one.code, 1);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, many.stdout);
    let (h, rows) = two.csv();
    assert_eq!(rows.len(), 3 * 212);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row[col(&h, "index")],
            (i + 1).to_string(),
            "rows out of order"
        );
    }
    // The invalid record sits in place, naming its line.
    let bad = &rows[211];
    assert_eq!(bad[col(&h, "status")], "invalid");
    assert_eq!(bad[col(&h, "line")], "212");
    assert!(
        bad[col(&h, "error")].starts_with("<stdin>:212: "),
        "{:?}",
        bad
    );
}

#[test]
fn several_inputs_and_stdin_each_record_once() {
    let stdin_part =
        b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
    let sample = data("sample.txt");
    let statuses = fixture("statuses.txt");
    let r = run(
        &[
            "solve",
            "-q",
            "-j",
            "2",
            sample.to_str().unwrap(),
            "-",
            statuses.to_str().unwrap(),
        ],
        Some(stdin_part),
    );
    assert_eq!(r.code, 1);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 211 + 1 + 7);
    assert_eq!(rows[211][col(&h, "line")], "1");
    assert_eq!(rows[212][col(&h, "line")], "1");
    assert!(rows[214][col(&h, "error")].contains("statuses.txt:3:"));
    let twice = run(&["solve", "-", "-"], Some(b""));
    assert_eq!(twice.code, 2);
}

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
fn compressed_inputs_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let gz = dir.path().join("sample.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&sample).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let zst = dir.path().join("sample.txt.zst");
    std::fs::write(&zst, zstd::encode_all(&sample[..], 3).unwrap()).unwrap();
    let plain = run_paths(&["solve", "-q"], &[&data("sample.txt")]);
    for path in [&gz, &zst] {
        let r = run_paths(&["solve", "-q"], &[path]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout, plain.stdout);
    }
    // Compressed stdin, detected by its magic bytes.
    let r = run(&["solve", "-q"], Some(&std::fs::read(&zst).unwrap()));
    assert_eq!(r.stdout, plain.stdout);
}

#[test]
fn output_file_appears_only_on_success() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let ok = run(
        &[
            "solve",
            "-q",
            "-o",
            out.to_str().unwrap(),
            data("sample.txt").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(ok.code, 0);
    assert!(ok.stdout.is_empty());
    let (_, rows) = parse_csv(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), 211);
    let listing = || std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(listing(), 1, "no temporary file left");

    // A run that fails (the second input is unreadable) leaves nothing.
    let out2 = dir.path().join("out2.csv");
    let failed = run(
        &[
            "solve",
            "-q",
            "-o",
            out2.to_str().unwrap(),
            data("sample.txt").to_str().unwrap(),
            dir.path().to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(failed.code, 2);
    assert!(!out2.exists());
    assert_eq!(listing(), 1);

    // An unwritable destination fails at once.
    let bad = run(
        &[
            "solve",
            "-o",
            "/no/such/dir/out.csv",
            data("sample.txt").to_str().unwrap(),
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
fn closed_stdout_ends_the_run_quietly() {
    let input = mixed_input(40);
    let mut child = Command::new(bin())
        .args(["solve", "-j", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
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

/// `--progress` with stderr not a terminal (a pipe here; a log file, a CI
/// job) writes plain lines at a steady interval (one second): records and
/// rate (the percentage when the total is known is unit-tested beside the
/// line's formatting, and generate's total beside its stream).
#[test]
fn progress_shows_plain_lines_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let mut child = Command::new(bin())
        .args(["solve", "--progress", "-j", "2", "--batch-size", "10", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Stdin comes in two parts with a pause between, so lines are written
    // while the first 210 records (21 batches) are done and the rest wait.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&sample).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    stdin.write_all(&sample).unwrap();
    drop(stdin);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(done.stderr).unwrap();
    assert_eq!(done.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains(['\r', '\x1b']),
        "not plain lines: {stderr:?}"
    );
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("batchdoku: "))
        .collect();
    assert!(
        progress
            .iter()
            .any(|l| l.starts_with("batchdoku: 210 puzzles, ")),
        "{stderr}"
    );
    for line in &progress {
        // `batchdoku: 210 puzzles, 840/s, 0.3 s`: no percentage on stdin.
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(
            fields[1].ends_with("/s") && fields[2].ends_with(" s"),
            "{line}"
        );
    }
    assert_eq!(parse_csv(&std::fs::read(&out).unwrap()).1.len(), 422);

    // Without --progress, a pipe gets no progress, only the summary.
    let quiet = run(&["solve", data("sample.txt").to_str().unwrap()], None);
    assert!(!quiet.stderr.contains("batchdoku: "), "{}", quiet.stderr);
}

/// One Ctrl-C stops a run at once even while its reader is blocked on a
/// stalled pipe: the pipeline polls the quit flag and does not wait for a
/// reader stuck in a read once it has stopped.
#[test]
fn one_sigint_stops_a_run_whose_reader_is_stalled() {
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let mut child = Command::new(bin())
        .args(["solve", "--progress", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let sample = std::fs::read_to_string(data("sample.txt")).unwrap();
    // More lines than format detection looks at (16), so that the run
    // starts before its input stalls.
    let head: String = sample.lines().take(40).map(|l| format!("{l}\n")).collect();
    stdin.write_all(head.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // The first progress line says the pipeline runs; its reader now
    // waits for more input that does not come.
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(first.starts_with("batchdoku: "), "{first}");
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("one SIGINT did not stop a run with a stalled reader");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    assert!(took < Duration::from_secs(2), "stopped after {took:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
