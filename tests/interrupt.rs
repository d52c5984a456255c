//! Stopping on a signal: nothing is ever left half-written under the final
//! name, no temporary file or stdin spool is left behind, the exit code
//! names the signal, a run blocked on a stalled input or stuck on one slow
//! record still stops, and a rerun produces the full output.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::util::*;

/// How long a signalled run may take to stop before it counts as a hang.
/// The binary's own grace period is 0.4 s; what these tests check is the
/// order of events (the run was going, blocked or busy, and ended after
/// the signal with nothing left), so the bound is generous: a loaded
/// 2-core machine never fails a run that did stop.
const STOP: Duration = Duration::from_secs(20);

/// Copies of the sample in [`big_run`]'s input.
const COPIES: usize = 300;

/// A directory with a large input (the sample repeated: hard puzzles in
/// every copy) and an empty `out` directory: (the directory, the input,
/// the output path in `out`).
fn big_run() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "big.txt", sample().repeat(COPIES));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    (dir, input, out_dir.join("result.csv"))
}

/// Starts `solve -o out`, waits until its temporary file has content,
/// sends `sig`, and returns the exit status.
fn interrupt_run(input: &Path, out: &Path, sig: libc::c_int) -> std::process::ExitStatus {
    let mut child = start(&mut command(&[
        "solve",
        "-q",
        "-j",
        "1",
        "-k",
        "2",
        "-o",
        arg(out),
        arg(input),
    ]));
    wait_until_writing(&mut child, out.parent().unwrap());
    signal(&child, sig);
    exits_within(&mut child, STOP)
}

/// Starts `cmd` with its stdin piped (and left to the caller), its stdout
/// and stderr discarded.
fn start(cmd: &mut Command) -> Child {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Starts a [`big_run`], sends `sig` once it writes, and checks that it
/// exits with `code` and leaves nothing in its output directory.
fn stop_cleanly(sig: libc::c_int, code: i32) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, input, out) = big_run();
    let status = interrupt_run(&input, &out, sig);
    assert_eq!(status.code(), Some(code), "signal {sig}");
    let out_dir = out.parent().unwrap();
    assert_eq!(
        names(out_dir),
        Vec::<String>::new(),
        "signal {sig} left a file"
    );
    (dir, input, out)
}

/// Waits until the output's temporary file exists in `dir`: the run has
/// set up its signal handling and opened its output, so a signal from
/// now on is handled (before, it would kill the process outright).
fn output_opened(child: &mut Child, dir: &Path) {
    wait_until(Duration::from_secs(30), "the output opened", || {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        !temp_files(dir).is_empty()
    });
}

#[test]
fn sigint_and_sigkill_leave_no_partial_output() {
    let (_dir, input, out) = stop_cleanly(libc::SIGINT, 130);

    let status = interrupt_run(&input, &out, libc::SIGKILL);
    assert_eq!(status.code(), None, "killed by a signal");
    assert!(!out.exists(), "no file under the final name after SIGKILL");

    // A rerun produces the full, correct output.
    let r = run(
        &["solve", "-q", "-k", "2", "-o", arg(&out), arg(&input)],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = parse_csv(&std::fs::read(&out).unwrap());
    assert_eq!(rows.len(), COPIES * 211);
    let sample = String::from_utf8(sample()).unwrap();
    for (row, line) in rows.iter().zip(sample.lines().cycle()) {
        assert_eq!(row[col(&h, "puzzle")], line);
        assert_solves(line, &row[col(&h, "solution")]);
    }
}

#[test]
fn sigterm_exits_143_and_removes_the_temporary_output() {
    stop_cleanly(libc::SIGTERM, 143);
}

/// Every other signal whose default action ends the process is handled as
/// SIGTERM is: exit 128 + the signal's number, no temporary output left.
#[test]
fn every_terminating_signal_exits_128_plus_it_and_leaves_nothing() {
    for sig in [
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGXCPU,
        libc::SIGPWR,
        libc::SIGABRT,
    ] {
        stop_cleanly(sig, 128 + sig);
    }
}

/// The reader is blocked on a FIFO whose writer (this test) never writes:
/// one SIGINT or SIGTERM still ends the run, with nothing left, while the
/// FIFO is still open and silent (the stop is the signal's, not an end of
/// input).
#[test]
fn a_signal_ends_a_run_blocked_on_a_stalled_fifo() {
    for (sig, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("stalled");
        mkfifo(&fifo);
        let out_dir = tempfile::tempdir().unwrap();
        let out = out_dir.path().join("out.csv");
        let mut child = start(&mut command(&["solve", "-q", "-o", arg(&out), arg(&fifo)]));
        // Opening the write end waits for the run to open the read end,
        // after its signal handling and its output.
        let writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        running_after(&mut child, Duration::from_millis(300));
        signal(&child, sig);
        let status = exits_within(&mut child, STOP);
        drop(writer);
        assert_eq!(status.code(), Some(code), "signal {sig}");
        assert_eq!(names(out_dir.path()), Vec::<String>::new(), "signal {sig}");
    }
}

/// The same on stdin: a pipe that stays open and never gets a byte.
#[test]
fn sigint_ends_a_run_blocked_on_a_stalled_stdin_pipe() {
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out.csv");
    let mut child = start(&mut command(&["canon", "-q", "-o", arg(&out)]));
    let stdin = child.stdin.take();
    output_opened(&mut child, out_dir.path());
    running_after(&mut child, Duration::from_millis(300));
    signal(&child, libc::SIGINT);
    let status = exits_within(&mut child, STOP);
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    assert_eq!(names(out_dir.path()), Vec::<String>::new());
}

/// `dedupe -` spools stdin to a temporary file before its first pass; a
/// SIGINT (and any other terminating signal: SIGHUP, SIGQUIT) while the
/// spool grows from a never-ending pipe (and while it waits on a stalled
/// one) ends the run with 128 + the signal, and no spool is left in TMPDIR.
#[test]
fn a_signal_while_dedupe_spools_stdin_leaves_no_spool() {
    for sig in [libc::SIGINT, libc::SIGHUP, libc::SIGQUIT] {
        for stall in [false, true] {
            stop_while_spooling(sig, stall);
        }
    }
}

/// Starts `dedupe -` fed by a never-ending (or, with `stall`, a stalled)
/// pipe, sends `sig` once its spool exists, and checks the exit code and
/// that nothing is left.
fn stop_while_spooling(sig: libc::c_int, stall: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out.csv");
    let mut child =
        start(command(&["dedupe", "-q", "-o", arg(&out), "-"]).env("TMPDIR", tmp.path()));
    let mut stdin = child.stdin.take().unwrap();
    // Dropped by the test once the run has ended: until then a stalled
    // pipe stays open without another byte.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        let sample = sample();
        loop {
            if stdin.write_all(&sample).is_err() {
                return; // the run ended
            }
            if stall {
                let _ = held.recv();
                return;
            }
        }
    });
    wait_until(Duration::from_secs(30), "a spool appeared", || {
        !names(tmp.path()).is_empty()
    });
    running_after(&mut child, Duration::from_millis(200));
    signal(&child, sig);
    let status = exits_within(&mut child, STOP);
    drop(release);
    feeder.join().unwrap();
    let what = format!("signal {sig}, stall {stall}");
    assert_eq!(status.code(), Some(128 + sig), "{what}");
    assert_eq!(
        names(tmp.path()),
        Vec::<String>::new(),
        "spool left: {what}"
    );
    assert_eq!(
        names(out_dir.path()),
        Vec::<String>::new(),
        "output left: {what}"
    );
}

/// One record that takes practically forever (counting every solution of
/// the empty grid): the worker never reaches the next batch, yet a SIGINT
/// ends the run (after the binary's grace period).
#[test]
fn sigint_ends_a_run_stuck_on_one_slow_record() {
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out.csv");
    let mut child = start(&mut command(&["score", "-q", "--count", "-o", arg(&out)]));
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&[b'.'; 81]).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    output_opened(&mut child, out_dir.path());
    running_after(&mut child, Duration::from_millis(500));
    signal(&child, libc::SIGINT);
    let status = exits_within(&mut child, STOP);
    assert_eq!(status.code(), Some(130));
    assert_eq!(names(out_dir.path()), Vec::<String>::new());
}

/// A command that runs the binary with `args` under the shell limit
/// `limit` (`-f N`, `-v N`), stdout and stderr piped.
fn limited(limit: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit {limit} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Under `ulimit -f` the output grows past the limit: the write fails
/// (SIGXFSZ is ignored, not fatal) and the run ends as with any unwritable
/// output: exit 2, a message, no temporary file. The same for `dedupe -`'s
/// stdin spool, and for the summary beside it.
#[test]
fn a_write_past_ulimit_f_is_an_unwritable_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", sample().repeat(20));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("r.csv");
    let summary = out_dir.join("s.json");
    // 64 blocks (32 or 64 KiB): the input itself is already larger.
    let runs: [&[&str]; 2] = [
        &[
            "solve",
            "-q",
            "-o",
            arg(&out),
            "--summary-json",
            arg(&summary),
            arg(&input),
        ],
        &["dedupe", "-q", "-o", arg(&out), "-"],
    ];
    for args in runs {
        let tmp = tempfile::tempdir().unwrap();
        let mut cmd = limited("-f 64", args);
        cmd.env("TMPDIR", tmp.path())
            .stdin(std::fs::File::open(&input).unwrap());
        let r = output_within(cmd.spawn().unwrap(), STOP);
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("File too large"), "{args:?}: {stderr}");
        assert_eq!(names(&out_dir), Vec::<String>::new(), "{args:?}");
        assert_eq!(names(tmp.path()), Vec::<String>::new(), "{args:?} spool");
    }
}

/// Under `ulimit -v` an allocation fails somewhere (where depends on the
/// limit): whatever the limit, a run either completes or ends with exit 2
/// and nothing left, never an abort (134) that leaves its temporary file.
/// The limits swept include some where an allocation fails (the message
/// says "out of memory") and some where the run completes. They start
/// where the binary starts at all: below that the loader or the Rust
/// runtime fails before `main` (no code of ours runs, nothing is written),
/// and where that is moves with the binary's size.
#[test]
fn an_allocation_failure_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", sample().repeat(5));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("r.csv");
    // Where a run starts at all: `solve -j 1` on one puzzle, no `-o`, its
    // threads started (glibc aborts, 134, when it cannot allocate a new
    // thread's TLS destructor list: before any code of ours runs there, so
    // the sweep starts where that has succeeded).
    let first_line = sample().split(|&b| b == b'\n').next().unwrap().to_vec();
    let one = write(dir.path(), "one.txt", [first_line, b"\n".to_vec()].concat());
    let starts = |kib: u32| {
        let run = limited(&format!("-v {kib}"), &["solve", "-q", "-j", "1", arg(&one)])
            .output()
            .unwrap();
        run.status.success()
    };
    let floor = (4_000..=60_000)
        .step_by(250)
        .find(|&kib| starts(kib))
        .expect("the binary starts under some limit");
    let (mut failed, mut completed) = (0, 0);
    for kib in (floor..=floor + 52_000).step_by(500) {
        let args = ["solve", "-q", "-j", "1", "-o", arg(&out), arg(&input)];
        let r = output_within(limited(&format!("-v {kib}"), &args).spawn().unwrap(), STOP);
        let stderr = String::from_utf8_lossy(&r.stderr);
        match r.status.code() {
            Some(0) => {
                completed += 1;
                assert_eq!(names(&out_dir), ["r.csv"], "-v {kib}");
                std::fs::remove_file(&out).unwrap();
            }
            Some(2) => {
                failed += usize::from(stderr.contains("out of memory"));
                assert_eq!(names(&out_dir), Vec::<String>::new(), "-v {kib}: {stderr}");
            }
            other => panic!("-v {kib}: exit {other:?}: {stderr}"),
        }
    }
    assert!(failed > 0, "no limit made an allocation fail");
    assert!(completed > 0, "no limit let the run complete");
}

/// Once `-o` is renamed into place the run has completed: a SIGINT while
/// the summary waits on a stderr nobody reads (a full FIFO) ends the run
/// with the completed run's code (0, or 1 with an invalid record), and the
/// kept output and summary are whole.
#[test]
fn a_signal_after_the_rename_exits_as_completed() {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    for (input, code) in [(sample(), 0), (sample_and_junk(1), 1)] {
        let dir = tempfile::tempdir().unwrap();
        let input = write(dir.path(), "in.txt", input);
        let fifo = dir.path().join("stderr");
        mkfifo(&fifo);
        // A reader that never reads, so that opening for writing does not
        // wait; the FIFO is filled until a write would block.
        let _reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let mut filler = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        while filler.write(&[b'x'; 4096]).is_ok() {}
        let stderr = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let out_dir = dir.path().join("out");
        std::fs::create_dir(&out_dir).unwrap();
        let out = out_dir.join("r.csv");
        let summary = out_dir.join("s.json");
        let mut child = command(&[
            "solve",
            "-o",
            arg(&out),
            "--summary-json",
            arg(&summary),
            arg(&input),
        ])
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
        wait_until(Duration::from_secs(30), "the output renamed", || {
            assert!(child.try_wait().unwrap().is_none(), "the run ended");
            out.exists()
        });
        running_after(&mut child, Duration::from_millis(300));
        signal(&child, libc::SIGINT);
        let status = exits_within(&mut child, STOP);
        assert_eq!(status.code(), Some(code), "kept, so completed");
        assert_eq!(names(&out_dir), ["r.csv", "s.json"]);
        let (_, rows) = parse_csv(&std::fs::read(&out).unwrap());
        assert_eq!(rows.len(), 211 + code as usize);
        let json = std::fs::read_to_string(&summary).unwrap();
        assert!(json.contains("\"interrupted\": false"), "{json}");
    }
}

/// A rating that takes seconds (nested forcing chains, ER 11.8): a SIGINT
/// reaches inside it, so the run stops at once and, as every command,
/// writes its `--summary-json` saying it was interrupted.
#[test]
fn sigint_inside_one_rating_stops_at_once_and_writes_the_summary() {
    const NESTED: &str =
        "54...8...3.......8..8.9.....1.2..7......6..1...59....4..4..9..3....1..2..5.7..6..";
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "nested.txt", format!("{NESTED}\n").repeat(4));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("rated.csv");
    let summary = dir.path().join("summary.json");
    let mut child = start(&mut command(&[
        "rate",
        "-q",
        "-j",
        "1",
        "--summary-json",
        arg(&summary),
        "-o",
        arg(&out),
        arg(&input),
    ]));
    output_opened(&mut child, &out_dir);
    running_after(&mut child, Duration::from_millis(700));
    signal(&child, libc::SIGINT);
    let sent = std::time::Instant::now();
    let status = exits_within(&mut child, STOP);
    assert_eq!(status.code(), Some(130));
    // Within a second when the machine is idle; CI runs tests side by side.
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "stopped {:?} after the signal",
        sent.elapsed()
    );
    assert_eq!(names(&out_dir), Vec::<String>::new());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["interrupted"], true, "{json}");
    assert_eq!(json["complete"], false, "{json}");
}
