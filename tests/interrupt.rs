//! Interruption and write failures: nothing is ever left half-written under
//! the final name, and a rerun produces the full output.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

/// A large input: the sample repeated (hard puzzles in every copy).
fn big_input(dir: &Path, copies: usize) -> std::path::PathBuf {
    let sample = std::fs::read(data("sample.txt")).unwrap();
    let path = dir.join("big.txt");
    let mut all = Vec::with_capacity(sample.len() * copies);
    for _ in 0..copies {
        all.extend_from_slice(&sample);
    }
    std::fs::write(&path, all).unwrap();
    path
}

/// Starts `solve -o out`, waits until its temporary file has content,
/// sends `signal`, and returns the exit status.
fn interrupt_run(input: &Path, out: &Path, signal: &str) -> std::process::ExitStatus {
    let dir = out.parent().unwrap();
    let mut child = Command::new(bin())
        .args(["solve", "-q", "-j", "1", "-k", "2", "-o"])
        .arg(out)
        .arg(input)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let started = std::fs::read_dir(dir).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".tmp") && e.metadata().map(|m| m.len() > 0).unwrap_or(false)
        });
        if started {
            break;
        }
        assert!(Instant::now() < deadline, "run never started writing");
        assert!(
            child.try_wait().unwrap().is_none(),
            "run finished before it could be interrupted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait().unwrap()
}

fn temp_files(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count()
}

#[test]
fn sigint_and_sigkill_leave_no_partial_output() {
    let work = tempfile::tempdir().unwrap();
    let input = big_input(work.path(), 300);
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("result.csv");

    let status = interrupt_run(&input, &out, "-INT");
    assert_eq!(status.code(), Some(130), "SIGINT exits 130");
    assert!(!out.exists(), "no file under the final name after SIGINT");
    assert_eq!(
        temp_files(out_dir.path()),
        0,
        "SIGINT removes the temporary file"
    );

    let status = interrupt_run(&input, &out, "-KILL");
    assert_eq!(status.code(), None, "killed by a signal");
    assert!(!out.exists(), "no file under the final name after SIGKILL");

    // A rerun produces the full, correct output.
    let r = run(
        &[
            "solve",
            "-q",
            "-k",
            "2",
            "-o",
            out.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = parse_csv(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), 300 * 211);
    let sample = std::fs::read_to_string(data("sample.txt")).unwrap();
    for (row, line) in rows.iter().zip(sample.lines().cycle()) {
        assert_eq!(row[col(&h, "puzzle")], line);
        assert_solves(line, &row[col(&h, "solution")]);
    }
}

#[test]
fn write_error_mid_run_is_fatal() {
    // stdout on /dev/full: every flush fails with ENOSPC.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("no /dev/full here; skipped");
        return;
    };
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
fn read_only_directory_fails_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    // Root ignores directory permissions; only check where they apply.
    if std::fs::write(ro.join("probe"), b"x").is_ok() {
        eprintln!("running as root: read-only directories are writable; skipped");
        return;
    }
    let out = ro.join("out.csv");
    let r = run(
        &[
            "solve",
            "-o",
            out.to_str().unwrap(),
            data("sample.txt").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("out.csv"), "{}", r.stderr);
    assert!(
        !r.stderr.contains("records"),
        "no solving before the failure: {}",
        r.stderr
    );
}
