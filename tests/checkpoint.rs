//! `--checkpoint`: a run stopped at any point (SIGINT, SIGTERM, SIGKILL)
//! keeps the rows it finished in `FILE.partial`, never under FILE; the
//! same command run again resumes and ends with the bytes of one
//! uninterrupted run (CSV, JSON lines, gzip; `solve` and `rate`; files and
//! stdin); the exit code and the summary count the whole run; a partial
//! file of other options or other input is refused (exit 2), untouched;
//! without the flag nothing is kept, as before.
//!
//! The stopping points are random (seeded delays after the run has set up
//! its signal handling, so every run is stopped somewhere different, and
//! the seed and delays are in every failure message), and one test stops
//! at an exact record, fed through a FIFO it controls.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use batchdoku_core::Rng;

use crate::util::*;

/// How long a stopped or refused run may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(60);

/// Runs of a chain at most (a run that is not stopped completes it).
const STOPS: usize = 4;

/// A test directory: the input `in.txt` (`input`) and the output
/// `out.<ext>` beside it.
struct Case {
    dir: tempfile::TempDir,
    input: PathBuf,
    out: PathBuf,
    ext: String,
}

impl Case {
    fn new(input: &[u8], ext: &str) -> Case {
        let dir = tempfile::tempdir().unwrap();
        let input = write(dir.path(), "in.txt", input);
        let out = dir.path().join(format!("out.{ext}"));
        let ext = ext.to_string();
        Case {
            dir,
            input,
            out,
            ext,
        }
    }

    /// The output of one uninterrupted run of `command` with `flags`
    /// without `--checkpoint`, on this input (its name is in the rows),
    /// with its exit code; nothing is left of it.
    fn reference(&self, command: &str, flags: &[&str]) -> (Vec<u8>, i32) {
        let out = self.dir.path().join(format!("reference.{}", self.ext));
        let mut args = vec![command];
        args.extend_from_slice(flags);
        args.extend(["-o", arg(&out), arg(&self.input)]);
        let r = run(&args, None);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        (bytes, r.code)
    }

    /// `FILE.partial`.
    fn partial(&self) -> PathBuf {
        suffixed(&self.out, ".partial")
    }

    /// `FILE.partial.json`.
    fn state(&self) -> PathBuf {
        suffixed(&self.out, ".partial.json")
    }

    /// The arguments of `command` with `flags`, `-o FILE` and the input.
    fn args<'a>(&'a self, command: &'a str, flags: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec![command];
        args.extend_from_slice(flags);
        args.extend(["-o", arg(&self.out), arg(&self.input)]);
        args
    }

    /// The bytes of the partial file and of its state file.
    fn kept(&self) -> (Vec<u8>, Vec<u8>) {
        (
            std::fs::read(self.partial()).unwrap(),
            std::fs::read(self.state()).unwrap(),
        )
    }

    /// The state file, parsed.
    fn state_json(&self) -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(self.state()).unwrap()).unwrap()
    }
}

/// `path` with `suffix` added to its name.
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Starts the binary with `args`, stdout and stderr piped, stdin null.
fn spawn(args: &[&str]) -> Child {
    command(args).spawn().unwrap()
}

/// Waits until `child`'s signal handling is up (its `-o` temporary file
/// exists in `dir`: it is created after the handlers), or until it ended.
fn handlers_up(child: &mut Child, dir: &Path) {
    let deadline = Instant::now() + LIMIT;
    while temp_files(dir).is_empty() && child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the run never opened its output");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// How one run ended.
struct Ended {
    code: i32,
    stderr: String,
}

/// Waits for `child`, collecting its stderr.
fn ended(child: Child) -> Ended {
    let out = output_within(child, LIMIT);
    Ended {
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `args` (writing into `dir`), and with `stop` sends its signal
/// after its delay once the run's signal handling is up.
fn run_stopped(args: &[&str], dir: &Path, stop: Option<(Duration, libc::c_int)>) -> Ended {
    let mut child = spawn(args);
    if let Some((delay, sig)) = stop {
        handlers_up(&mut child, dir);
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_none() {
            signal(&child, sig);
        }
    }
    ended(child)
}

/// Checks what a stopped run (`what`) left: the partial file and its
/// state, nothing under FILE, no temporary file; the partial file holds
/// at least the length its state records, and that much is whole rows,
/// one a record (after `header` lines). (It ends there exactly unless the
/// run took longer than its grace period to stop, on a loaded machine.)
/// Returns the records it holds.
fn check_stopped(case: &Case, header: usize, what: &str) -> u64 {
    assert!(!case.out.exists(), "{what}: a file under the final name");
    assert_eq!(temp_files(case.dir.path()), Vec::<String>::new(), "{what}");
    let state = case.state_json();
    let done = &state["done"];
    let records = done["records"].as_u64().unwrap();
    let bytes = done["bytes"].as_u64().unwrap() as usize;
    let partial = std::fs::read(case.partial()).unwrap();
    assert!(
        partial.len() >= bytes,
        "{what}: shorter than its state says"
    );
    let kept = &partial[..bytes];
    if records > 0 {
        assert_eq!(kept.last(), Some(&b'\n'), "{what}: whole rows");
        let lines = kept.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(
            lines as u64,
            records + header as u64,
            "{what}: one row a record"
        );
    }
    records
}

/// Runs `args` on `case` again and again, each run stopped by SIGINT or
/// SIGTERM after a random delay below `max_delay` (from `seed`), until a
/// run completes (the last is left to complete). Checks each stop, and
/// that the completed run leaves only FILE. Returns FILE's bytes, the
/// completed run, and how many runs were stopped.
fn resume_until_done(
    case: &Case,
    args: &[&str],
    header: usize,
    seed: u64,
    max_delay: Duration,
) -> (Vec<u8>, Ended, usize) {
    let mut rng = Rng::new(seed);
    let mut stops = 0;
    let mut delays = Vec::new();
    loop {
        let delay = Duration::from_micros(rng.below(max_delay.as_micros() as u64));
        let sig = [libc::SIGINT, libc::SIGTERM][rng.below(2) as usize];
        let stop = (delays.len() < STOPS).then_some((delay, sig));
        delays.push(delay);
        let what = format!("seed {seed}, delays {delays:?}, {args:?}");
        let run = run_stopped(args, case.dir.path(), stop);
        match run.code {
            130 | 143 => {
                assert_eq!(run.code, 128 + sig, "{what}");
                assert!(
                    run.stderr.contains("run the same command again to resume"),
                    "{what}: {}",
                    run.stderr
                );
                check_stopped(case, header, &what);
                stops += 1;
            }
            0 | 1 => {
                assert!(case.out.exists(), "{what}: {}", run.stderr);
                assert_eq!(
                    names(case.dir.path()),
                    vec![
                        "in.txt".to_string(),
                        case.out.file_name().unwrap().to_string_lossy().into()
                    ],
                    "{what}: only the output is left"
                );
                return (std::fs::read(&case.out).unwrap(), run, stops);
            }
            code => panic!("{what}: exit {code}: {}", run.stderr),
        }
    }
}

/// Resumes `command` with `flags` (and `--checkpoint`) from several random
/// stops per output format until it completes, and compares the bytes
/// and the exit code with one uninterrupted run without the flag.
fn resumes_to_the_same_bytes(command: &str, flags: &[&str], input: &[u8], seed: u64) {
    let mut stops = 0;
    for (i, (ext, header)) in [("csv", 1), ("jsonl", 0), ("csv.gz", 1)].iter().enumerate() {
        let case = Case::new(input, ext);
        let started = Instant::now();
        let (expected, code) = case.reference(command, flags);
        let took = started.elapsed();
        let mut with = flags.to_vec();
        with.push("--checkpoint");
        let args = case.args(command, &with);
        // Delays within the first 60 % of a whole run: the first run is
        // nearly always stopped, resumed runs (shorter) often.
        let max_delay = took.mul_f64(0.6);
        let (got, done, stopped) =
            resume_until_done(&case, &args, *header, seed + i as u64, max_delay);
        eqnice!(
            expected,
            got,
            "{command} {ext}: resumed after {stopped} stops"
        );
        assert_eq!(expected, got, "{command} {ext}: the same bytes");
        assert_eq!(done.code, code, "{command} {ext}: {}", done.stderr);
        stops += stopped;
    }
    // Timing decides where each stop falls, not whether the test can
    // fail: a run that completed before its signal is checked the same.
    assert!(stops >= 2, "{command}: only {stops} runs were stopped");
}

#[test]
fn solve_resumes_to_the_bytes_of_one_run_from_random_stops() {
    // 100 copies of the sample, each with an invalid record: exit 1.
    resumes_to_the_same_bytes(
        "solve",
        &["-j", "2", "-k", "2", "--difficulty"],
        &sample_and_junk(100),
        42,
    );
}

#[test]
fn rate_resumes_to_the_bytes_of_one_run_from_random_stops() {
    // Small batches and a work limit: ratings of milliseconds, rows that
    // come steadily (`limit` rows among them).
    resumes_to_the_same_bytes(
        "rate",
        &["-j", "2", "--batch-size", "2", "--limit", "100000"],
        &sample_and_junk(1),
        7,
    );
}

/// A FIFO fed by the test: the run is stopped right after an exact
/// record (it has processed every record it was given and waits for the
/// next), and resumed from the FIFO fed again from the start.
#[test]
fn a_run_stopped_at_an_exact_record_resumes_from_it() {
    let text = sample_and_junk(2);
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let mut rng = Rng::new(3);
    for format in ["csv", "jsonl"] {
        // Past the lines format detection reads ahead.
        let at = 20 + rng.below(lines.len() as u64 - 40) as usize;
        // The reference reads a file by the name the FIFO then takes.
        let case = Case::new(&text, format);
        let (expected, _) = case.reference("solve", &["-k", "2"]);
        let (fifo, out) = (case.input.clone(), case.out.clone());
        std::fs::remove_file(&fifo).unwrap();
        mkfifo(&fifo);
        let args = [
            "solve",
            "-k",
            "2",
            "--batch-size",
            "1",
            "--checkpoint",
            "-o",
            arg(&out),
            arg(&fifo),
        ];
        let mut child = spawn(&args);
        // Opening the FIFO waits for the run to open it, after its
        // signal handling.
        let mut feed = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        feed.write_all(&lines[..at].concat()).unwrap();
        feed.flush().unwrap();
        // Long enough to process and write `at` records, then it waits
        // for the next.
        std::thread::sleep(Duration::from_millis(1000));
        signal(&child, libc::SIGINT);
        let status = exits_within(&mut child, LIMIT);
        drop(feed);
        assert_eq!(status.code(), Some(130));
        let state: serde_json::Value =
            serde_json::from_slice(&std::fs::read(suffixed(&out, ".partial.json")).unwrap())
                .unwrap();
        assert_eq!(
            state["done"]["records"].as_u64(),
            Some(at as u64),
            "{format}: stopped after record {at}"
        );
        // Resumed: the FIFO again, from its first byte.
        let child = spawn(&args);
        let writer = {
            let (fifo, text) = (fifo.clone(), text.clone());
            std::thread::spawn(move || {
                let mut feed = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                feed.write_all(&text).unwrap();
            })
        };
        let done = ended(child);
        writer.join().unwrap();
        assert_eq!(done.code, 1, "{}", done.stderr);
        let resuming = format!("resuming from {}.partial: {at} records done", arg(&out));
        assert!(done.stderr.contains(&resuming), "{}", done.stderr);
        let got = std::fs::read(&out).unwrap();
        eqnice!(expected, got, "{format}, stopped after record {at}");
    }
}

/// SIGKILL cannot be caught: the rows written since the last saved
/// checkpoint lie past the length the state records (a row may be cut in
/// half), and the resumed run cuts them off, wherever the kill fell.
#[test]
fn after_sigkill_the_rows_past_the_last_save_are_cut_off() {
    let input = sample_and_junk(150);
    let flags = ["-j", "1", "-k", "2"];
    let case = Case::new(&input, "csv");
    let (expected, code) = case.reference("solve", &flags);
    let args = case.args("solve", &["-j", "1", "-k", "2", "--checkpoint"]);
    // A stop with rows kept, then half a row past the recorded length, as
    // a kill in the middle of a write leaves.
    stopped_with_rows(&case, &args);
    std::fs::OpenOptions::new()
        .append(true)
        .open(case.partial())
        .unwrap()
        .write_all(b"9999,1,..3.2.6..9..3.5..1..18.64..")
        .unwrap();
    // Resumed and killed at random points.
    let mut rng = Rng::new(11);
    for _ in 0..2 {
        let delay = Duration::from_millis(rng.below(600));
        let run = run_stopped(&args, case.dir.path(), Some((delay, libc::SIGKILL)));
        if run.code != -1 {
            break; // it completed first
        }
        let bytes = case.state_json()["done"]["bytes"].as_u64().unwrap();
        let partial = std::fs::metadata(case.partial()).unwrap().len();
        assert!(
            partial >= bytes,
            "killed after {delay:?}: {partial} < {bytes}"
        );
        // SIGKILL leaves the `-o` temporary file (as without --checkpoint).
        for tmp in temp_files(case.dir.path()) {
            std::fs::remove_file(case.dir.path().join(tmp)).unwrap();
        }
    }
    if !case.out.exists() {
        let done = run_stopped(&args, case.dir.path(), None);
        assert_eq!(done.code, code, "{}", done.stderr);
    }
    assert_eq!(expected, std::fs::read(&case.out).unwrap());
    assert!(!case.partial().exists() && !case.state().exists());
}

/// Stops `args` on `case` once rows are in its partial file (its buffer
/// was flushed), checks the stop, and returns the records kept.
fn stopped_with_rows(case: &Case, args: &[&str]) -> u64 {
    let mut child = spawn(args);
    handlers_up(&mut child, case.dir.path());
    wait_until(LIMIT, "rows in the partial file", || {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::fs::metadata(case.partial()).is_ok_and(|m| m.len() > 0)
    });
    signal(&child, libc::SIGINT);
    let done = ended(child);
    assert_eq!(done.code, 130, "{}", done.stderr);
    let records = check_stopped(case, 1, "stopped with rows");
    assert!(records > 0);
    records
}

/// Other options, or another command, on the rows of a stopped run: exit
/// 2, naming the partial file and what differs, nothing changed; the
/// right command then resumes.
#[test]
fn a_partial_file_of_other_options_is_refused_untouched() {
    let input = sample_and_junk(150);
    let case = Case::new(&input, "csv");
    let flags = ["-k", "2", "--checkpoint"];
    let args = case.args("solve", &flags);
    stopped_with_rows(&case, &args);
    let kept = case.kept();
    let partial = arg(&case.partial()).to_string();
    for (command, other, says) in [
        (
            "solve",
            vec!["-k", "1", "--checkpoint"],
            "--count-limit: 2 then, 1 now",
        ),
        (
            "solve",
            vec!["-k", "2", "--difficulty", "--checkpoint"],
            "--difficulty: false then, true now",
        ),
        (
            "solve",
            vec!["-k", "2", "--keep-trailing", "--checkpoint"],
            "--keep-trailing: false then",
        ),
        (
            "solve",
            vec!["-k", "2", "--no-header", "--checkpoint"],
            "--no-header: false then, true now",
        ),
        (
            "solve",
            vec!["-k", "2", "--format", "jsonl", "--checkpoint"],
            "--format: csv then, jsonl now",
        ),
        (
            "solve",
            vec!["-k", "2", "--solver", "dlx", "--checkpoint"],
            "--solver: mrv then, dlx now",
        ),
        (
            "canon",
            vec!["--checkpoint"],
            "written by `solve`, this is `canon`",
        ),
        (
            "rate",
            vec!["--seed", "1", "--checkpoint"],
            "written by `solve`, this is `rate`",
        ),
    ] {
        let r = run(&case.args(command, &other), None);
        assert_eq!(r.code, 2, "{other:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{other:?}: {}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("{partial} holds the rows of another run")),
            "{}",
            r.stderr
        );
        assert_eq!(case.kept(), kept, "{other:?}: changed");
        assert!(!case.out.exists());
        assert_eq!(temp_files(case.dir.path()), Vec::<String>::new());
    }
    // `rate` compares its own flags: another --seed is refused.
    // Rows of rate are few bytes: they reach the file at the first save.
    let rated = Case::new(&sample_and_junk(8), "csv");
    let rate_args = rated.args(
        "rate",
        &["--batch-size", "1", "--limit", "100000", "--checkpoint"],
    );
    stopped_with_rows(&rated, &rate_args);
    let kept_rated = rated.kept();
    let r = run(
        &rated.args(
            "rate",
            &["--limit", "100000", "--seed", "9", "--checkpoint"],
        ),
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--seed: 0 then, 9 now"), "{}", r.stderr);
    assert_eq!(rated.kept(), kept_rated);
    // The right commands resume (-j and --batch-size may change).
    let (expected, _) = case.reference("solve", &["-k", "2"]);
    let r = run(
        &case.args("solve", &["-k", "2", "-j", "1", "--checkpoint"]),
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(std::fs::read(&case.out).unwrap(), expected);
    let (expected, _) = rated.reference("rate", &["--limit", "100000"]);
    let r = run(
        &rated.args("rate", &["--limit", "100000", "--checkpoint"]),
        None,
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(std::fs::read(&rated.out).unwrap(), expected);
}

/// Another input (by name, or under the same name with other records, or
/// fewer) on the rows of a stopped run: exit 2 naming the partial file,
/// nothing changed.
#[test]
fn a_partial_file_of_other_input_is_refused_untouched() {
    let input = sample_and_junk(150);
    let case = Case::new(&input, "csv");
    let args = case.args("solve", &["--checkpoint"]);
    let records = stopped_with_rows(&case, &args);
    let kept = case.kept();
    let partial = arg(&case.partial()).to_string();
    // Another name.
    let other = write(case.dir.path(), "other.txt", &input);
    let r = run(
        &["solve", "--checkpoint", "-o", arg(&case.out), arg(&other)],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("inputs: "), "{}", r.stderr);
    assert_eq!(case.kept(), kept);
    // The same name, one puzzle changed among the records done.
    let mut changed = input.clone();
    // The first record's last cell: a blank becomes a 1, a digit a blank.
    changed[80] = if changed[80] == b'.' { b'1' } else { b'.' };
    std::fs::write(&case.input, &changed).unwrap();
    let r = run(&args, None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("{partial} holds the rows of other input"))
            && r.stderr
                .contains(&format!("the first {records} records are not those")),
        "{}",
        r.stderr
    );
    assert_eq!(case.kept(), kept);
    // Fewer records than were done: two lines.
    let two = input.iter().position(|&b| b == b'\n').unwrap() + 1;
    let two = two + input[two..].iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&case.input, &input[..two]).unwrap();
    let r = run(&args, None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("the inputs end after 2 records"),
        "{}",
        r.stderr
    );
    assert_eq!(case.kept(), kept);
    assert!(!case.out.exists());
    // The input as it was: resumed.
    std::fs::write(&case.input, &input).unwrap();
    let (expected, _) = case.reference("solve", &[]);
    assert_eq!(run(&args, None).code, 1);
    assert_eq!(std::fs::read(&case.out).unwrap(), expected);
}

/// The exit code and the summary of a resumed run count the rows before
/// the stop too: an invalid record among them still makes it exit 1.
#[test]
fn the_exit_code_and_summary_count_the_whole_run() {
    let mut input = b"not a puzzle\n".to_vec();
    input.extend(sample().repeat(150));
    let case = Case::new(&input, "csv");
    let (expected, code) = case.reference("solve", &["-k", "2"]);
    assert_eq!(code, 1);
    let summary = case.dir.path().join("summary.json");
    let args = case.args(
        "solve",
        &["-k", "2", "--checkpoint", "--summary-json", arg(&summary)],
    );
    let records = stopped_with_rows(&case, &args);
    let stopped: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(stopped["records"].as_u64(), Some(records));
    assert_eq!(stopped["interrupted"], true);
    let r = run(&args, None);
    assert_eq!(
        r.code, 1,
        "the invalid row was written before the stop: {}",
        r.stderr
    );
    assert_eq!(std::fs::read(&case.out).unwrap(), expected);
    let whole: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(whole["records"].as_u64(), Some(1 + 211 * 150));
    assert_eq!(whole["rows"].as_u64(), Some(1 + 211 * 150));
    assert_eq!(whole["statuses"]["invalid"].as_u64(), Some(1));
    assert_eq!(whole["complete"], true);
}

/// Standard input can be resumed too: fed the same bytes again.
#[test]
fn stdin_resumes_when_fed_the_same_bytes() {
    let input = sample_and_junk(150);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.jsonl");
    let args = ["solve", "-k", "2", "--checkpoint", "-o", arg(&out)];
    let feed = |child: &mut Child, bytes: Vec<u8>| {
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    };
    let mut child = command(&args).stdin(Stdio::piped()).spawn().unwrap();
    let writer = feed(&mut child, input.clone());
    let partial = suffixed(&out, ".partial");
    wait_until(LIMIT, "rows in the partial file", || {
        std::fs::metadata(&partial).is_ok_and(|m| m.len() > 0)
    });
    signal(&child, libc::SIGINT);
    assert_eq!(ended(child).code, 130);
    writer.join().unwrap();
    let mut child = command(&args).stdin(Stdio::piped()).spawn().unwrap();
    let writer = feed(&mut child, input.clone());
    let done = ended(child);
    writer.join().unwrap();
    assert_eq!(done.code, 1, "{}", done.stderr);
    let reference = run(
        &["solve", "-q", "-k", "2", "--format", "jsonl"],
        Some(&input),
    );
    assert_eq!(std::fs::read(&out).unwrap(), reference.stdout);
}

/// `--checkpoint` needs `-o FILE` in a text format; refused before any
/// work, leaving nothing.
#[test]
fn checkpoint_needs_a_file_in_a_text_format() {
    let case = Case::new(&sample(), "parquet");
    let input = arg(&case.input);
    for (args, says) in [
        (
            vec!["solve", "--checkpoint", input],
            "--checkpoint needs -o FILE",
        ),
        (
            vec!["solve", "--checkpoint", "-o", "-", input],
            "--checkpoint needs -o FILE",
        ),
        (
            vec!["rate", "--checkpoint", "-o", "/dev/null", input],
            "not a descriptor, device or FIFO",
        ),
        (
            vec!["canon", "--checkpoint", "-o", arg(&case.out), input],
            "cannot resume Parquet",
        ),
    ] {
        let r = run(&args, None);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    assert_eq!(names(case.dir.path()), ["in.txt"]);
    // The commands whose output is not one row per record in one pass
    // have no such flag.
    for command in ["dedupe", "split", "generate"] {
        let r = run(&[command, "--checkpoint", "-o", arg(&case.out)], None);
        assert_eq!(r.code, 2, "{command}");
        assert!(r.stderr.contains("--checkpoint"), "{command}: {}", r.stderr);
    }
}

/// Without `--checkpoint`, a stopped run keeps nothing (as before), and a
/// run leaves a checkpoint's files alone.
#[test]
fn without_the_flag_nothing_is_kept_and_nothing_resumed() {
    let input = sample_and_junk(150);
    let case = Case::new(&input, "csv");
    let mut child = spawn(&case.args("solve", &["-k", "2"]));
    handlers_up(&mut child, case.dir.path());
    std::thread::sleep(Duration::from_millis(100));
    signal(&child, libc::SIGINT);
    assert_eq!(ended(child).code, 130);
    assert_eq!(names(case.dir.path()), ["in.txt"]);
    // A checkpoint's files are neither read nor removed without the flag.
    let args = case.args("solve", &["-k", "2", "--checkpoint"]);
    stopped_with_rows(&case, &args);
    let kept = case.kept();
    let (expected, _) = case.reference("solve", &["-k", "2"]);
    let r = run(&case.args("solve", &["-k", "2"]), None);
    assert_eq!(r.code, 1);
    assert_eq!(std::fs::read(&case.out).unwrap(), expected);
    assert_eq!(case.kept(), kept);
}
