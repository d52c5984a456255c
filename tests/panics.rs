//! A panicking worker never hangs a run: the run ends at once with exit 2
//! and a message naming the record (or generated puzzle), and nothing is
//! kept under `-o`. The panic is injected with the binary's test-only hook
//! `BATCHDOKU_TEST_PANIC_AT=<record>`; every run is under a timeout, and
//! the inputs are far longer than the pipeline's in-flight cap.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

/// Runs the binary with `args`, extra environment `env` and optional
/// stdin, killing it and failing the test after `secs` seconds.
pub fn run_within(secs: u64, args: &[&str], env: &[(&str, &str)], stdin: Option<Vec<u8>>) -> Run {
    let mut child = Command::new(bin())
        .args(args)
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn batchdoku");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("batchdoku {args:?} still running after {secs} s: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
    }
}

/// A line file of `copies` times the sample after one blank line, so that
/// record `i` is on line `i + 1`.
fn long_input(dir: &Path, copies: usize) -> std::path::PathBuf {
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let mut text = b"\n".to_vec();
    for _ in 0..copies {
        text.extend_from_slice(&sample);
    }
    let path = dir.join("in.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// The names in `dir` other than `keep`.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

#[test]
fn a_panicking_worker_ends_solve_with_exit_2_naming_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let input = long_input(dir.path(), 40); // 8,440 records
    let input_name = input.to_str().unwrap();
    let out = dir.path().join("out.csv");
    for (threads, batch, at) in [("1", "1", "1"), ("2", "16", "5000"), ("3", "2048", "8440")] {
        let r = run_within(
            60,
            &[
                "solve",
                "-j",
                threads,
                "--batch-size",
                batch,
                "-o",
                out.to_str().unwrap(),
                input_name,
            ],
            &[("BATCHDOKU_TEST_PANIC_AT", at)],
            None,
        );
        let line = at.parse::<u64>().unwrap() + 1;
        assert_eq!(r.code, 2, "{}", r.stderr);
        let want = format!("batchdoku: worker panicked on record {at} ({input_name}:{line}): ");
        assert!(r.stderr.contains(&want), "{want} not in {}", r.stderr);
        assert!(!out.exists(), "-o kept after a panic");
        assert_eq!(
            others(dir.path(), "in.txt"),
            Vec::<String>::new(),
            "left behind"
        );
    }
}

#[test]
fn a_panicking_worker_ends_solve_from_stdin_and_dedupe() {
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let input: Vec<u8> = sample.repeat(30); // 6,330 records
    let r = run_within(
        60,
        &["solve", "-j", "2", "--batch-size", "8"],
        &[("BATCHDOKU_TEST_PANIC_AT", "3000")],
        Some(input.clone()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("worker panicked on record 3000 (<stdin>:3000): "),
        "{}",
        r.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kept.csv");
    let r = run_within(
        60,
        &["dedupe", "-j", "2", "-o", out.to_str().unwrap(), "-"],
        &[("BATCHDOKU_TEST_PANIC_AT", "6330")],
        Some(input),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("worker panicked on record 6330 (<stdin>:6330): "),
        "{}",
        r.stderr
    );
    assert_eq!(others(dir.path(), ""), Vec::<String>::new(), "left behind");
}

#[test]
fn a_panicking_worker_ends_generate_with_exit_2_naming_the_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("puzzles.txt");
    for (threads, at) in [("1", "0"), ("2", "700")] {
        let r = run_within(
            120,
            &[
                "generate",
                "-n",
                "1000",
                "--seed",
                "7",
                "-j",
                threads,
                "--batch-size",
                "1",
                "--format",
                "line",
                "-o",
                out.to_str().unwrap(),
            ],
            &[("BATCHDOKU_TEST_PANIC_AT", at)],
            None,
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        let want = format!("batchdoku: worker panicked on puzzle {at}: ");
        assert!(r.stderr.contains(&want), "{want} not in {}", r.stderr);
        assert_eq!(others(dir.path(), ""), Vec::<String>::new(), "left behind");
    }
}

#[test]
fn the_hook_is_checked_and_off_by_default() {
    let r = run_within(
        20,
        &["solve", "-q"],
        &[("BATCHDOKU_TEST_PANIC_AT", "soon")],
        Some(b"".to_vec()),
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("BATCHDOKU_TEST_PANIC_AT=soon"),
        "{}",
        r.stderr
    );
    // A record number past the end never fires.
    let r = run_within(
        20,
        &["solve", "-q", data("sample.txt").to_str().unwrap()],
        &[("BATCHDOKU_TEST_PANIC_AT", "212")],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 211);
}
