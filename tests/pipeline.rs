//! The streaming pipeline's progress lines, and one SIGINT stopping a run
//! whose reader is stalled (the two tests rewritten when the progress
//! interval hook went). The pipeline's other tests are in the files of
//! what they test: `solve.rs` (rows in order whatever the threads),
//! `input.rs` (several inputs, compressed inputs), `output.rs` (formats,
//! `-o`, a closed stdout), `interrupt.rs` (signals).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::util::*;

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
    // The reader stalls for ever: any stop at all shows the run did not
    // wait for it; the bound is generous for a loaded 2-core machine.
    assert!(took < Duration::from_secs(5), "stopped after {took:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
