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

/// Sends `signal` (`-INT`, `-TERM`) to a process.
fn kill(child: &std::process::Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits at most `limit` for `child` to exit; kills it and fails if not.
fn exits_within(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The entries of a directory (every file a run could leave behind).
fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Waits until `child` has had `settle` to get going (it must not end).
fn running_after(child: &mut std::process::Child, settle: Duration) {
    std::thread::sleep(settle);
    assert!(
        child.try_wait().unwrap().is_none(),
        "ended before the signal"
    );
}

#[test]
fn sigterm_exits_143_and_removes_the_temporary_output() {
    let work = tempfile::tempdir().unwrap();
    let input = big_input(work.path(), 300);
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("result.csv");
    let status = interrupt_run(&input, &out, "-TERM");
    assert_eq!(status.code(), Some(143), "SIGTERM exits 143");
    assert_eq!(entries(out_dir.path()), Vec::<String>::new(), "left behind");
}

/// The reader is blocked on a FIFO whose writer (this test) never writes:
/// one SIGINT or SIGTERM still ends the run promptly, with nothing left.
#[cfg(unix)]
#[test]
fn a_signal_ends_a_run_blocked_on_a_stalled_fifo() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("stalled");
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let out_dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(bin())
            .args(["solve", "-q", "-o"])
            .arg(out_dir.path().join("out.csv"))
            .arg(&fifo)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Opening the write end waits for the run to open the read end.
        let _writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        running_after(&mut child, Duration::from_millis(300));
        let sent = Instant::now();
        kill(&child, signal);
        let status = exits_within(&mut child, Duration::from_secs(3));
        assert_eq!(status.code(), Some(code), "{signal}");
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{signal}: slow stop"
        );
        assert_eq!(entries(out_dir.path()), Vec::<String>::new(), "{signal}");
    }
}

/// The same on stdin: a pipe that stays open and never gets a byte.
#[test]
fn sigint_ends_a_run_blocked_on_a_stalled_stdin_pipe() {
    let out_dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin())
        .args(["canon", "-q", "-o"])
        .arg(out_dir.path().join("out.csv"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _stdin = child.stdin.take();
    running_after(&mut child, Duration::from_millis(300));
    kill(&child, "-INT");
    let status = exits_within(&mut child, Duration::from_secs(2));
    assert_eq!(status.code(), Some(130));
    assert_eq!(entries(out_dir.path()), Vec::<String>::new());
}

/// `dedupe -` spools stdin to a temporary file before its first pass; a
/// SIGINT while the spool grows from a never-ending pipe (and while it
/// waits on a stalled one) ends the run, and no spool is left in TMPDIR.
#[test]
fn sigint_while_dedupe_spools_stdin_leaves_no_spool() {
    for stall in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let out_dir = tempfile::tempdir().unwrap();
        let mut child = Command::new(bin())
            .args(["dedupe", "-q", "-o"])
            .arg(out_dir.path().join("out.csv"))
            .arg("-")
            .env("TMPDIR", tmp.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            use std::io::Write;
            let sample = std::fs::read(data("sample.txt")).unwrap();
            loop {
                if stdin.write_all(&sample).is_err() {
                    return; // the run ended
                }
                if stall {
                    // Keep the pipe open without another byte.
                    std::thread::sleep(Duration::from_secs(5));
                    return;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        while entries(tmp.path()).is_empty() {
            assert!(Instant::now() < deadline, "no spool appeared");
            std::thread::sleep(Duration::from_millis(10));
        }
        running_after(&mut child, Duration::from_millis(200));
        kill(&child, "-INT");
        let status = exits_within(&mut child, Duration::from_secs(2));
        assert_eq!(status.code(), Some(130), "stall {stall}");
        assert_eq!(entries(tmp.path()), Vec::<String>::new(), "spool left");
        assert_eq!(entries(out_dir.path()), Vec::<String>::new(), "output left");
        if !stall {
            feeder.join().unwrap();
        }
    }
}

/// One record that takes practically forever (counting every solution of
/// the empty grid): the worker never reaches the next batch, yet a SIGINT
/// ends the run within the grace period.
#[test]
fn sigint_ends_a_run_stuck_on_one_slow_record() {
    let out_dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin())
        .args(["score", "-q", "--count", "-o"])
        .arg(out_dir.path().join("out.csv"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&[b'.'; 81]).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    running_after(&mut child, Duration::from_millis(500));
    kill(&child, "-INT");
    let status = exits_within(&mut child, Duration::from_secs(2));
    assert_eq!(status.code(), Some(130));
    assert_eq!(entries(out_dir.path()), Vec::<String>::new());
}
