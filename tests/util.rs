//! What every test file shares, one copy each: the binary and the fixture
//! paths, the puzzles the tests write out, runs of the binary (plain,
//! under a deadline, with a silent stdin), child processes (waiting with a
//! deadline, waiting until a run writes, signals, FIFOs), directory
//! listings, prerequisites that fail under `CI=true` instead of skipping,
//! and [`eqnice!`], a readable comparison of two multi-line outputs.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

// --- puzzles -----------------------------------------------------------

/// The puzzles every crate's tests share: solved by singles alone
/// (`EASY`, with its `EASY_SOLUTION`), Norvig's first "hard" puzzle
/// (`HARD`), a complete valid grid (`SOLVED`).
pub use batchdoku_core::testdata::{EASY, EASY_SOLUTION, HARD, SOLVED};

/// The reader's cap on a line's content (docs/formats.md: "a line over 4 KiB of
/// content" is one invalid record).
pub const MAX_LINE_BYTES: usize = 4096;

// --- paths -------------------------------------------------------------

/// Path of the binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_batchdoku"))
}

/// The crate root (fixtures live below it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture path under `tests/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures").join(name)
}

/// A data path under `data/`.
pub fn data(name: &str) -> PathBuf {
    root().join("data").join(name)
}

/// The bytes of the bundled sample, `data/sample.txt` (211 puzzles).
pub fn sample() -> Vec<u8> {
    std::fs::read(data("sample.txt")).unwrap()
}

/// The bundled sample repeated `copies` times, each copy followed by one
/// invalid record (`not a puzzle`): 212 records a copy, the hardest
/// puzzles first in every copy.
pub fn sample_and_junk(copies: usize) -> Vec<u8> {
    let sample = sample();
    let mut input = Vec::new();
    for _ in 0..copies {
        input.extend_from_slice(&sample);
        input.extend_from_slice(b"not a puzzle\n");
    }
    input
}

/// The first `n` puzzles of the bundled sample (pairwise inequivalent:
/// `canon::sample_puzzles_are_pairwise_inequivalent` checks it).
pub fn sample_grids(n: usize) -> Vec<batchdoku_core::Grid> {
    String::from_utf8(sample())
        .unwrap()
        .lines()
        .take(n)
        .map(|l| batchdoku_core::parse_line(l.as_bytes()).unwrap())
        .collect()
}

/// Grids as a line file, one puzzle a line.
pub fn lines_of(grids: &[batchdoku_core::Grid]) -> String {
    grids.iter().map(|g| g.to_line_string() + "\n").collect()
}

/// `p` with its digits 1 and 2 swapped: equivalent, not equal.
pub fn relabelled(p: &str) -> String {
    p.chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect()
}

/// A path as a command-line argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("test paths are UTF-8")
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The names in `dir`, sorted (every file a run could leave behind).
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The temporary (`*.tmp`) files in `dir`: what an `-o` run writes before
/// it keeps its output.
pub fn temp_files(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

// --- runs ----------------------------------------------------------------

/// The result of one run.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn stdout_str(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    /// Parses stdout as CSV with a header: (header, rows).
    pub fn csv(&self) -> (Vec<String>, Vec<Vec<String>>) {
        parse_csv(&self.stdout)
    }
}

/// Parses CSV bytes with a header row.
pub fn parse_csv(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rdr = csv::Reader::from_reader(bytes);
    let header = rdr.headers().unwrap().iter().map(String::from).collect();
    let rows = rdr
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// A command running the binary with `args`, stdout and stderr piped,
/// stdin null unless the caller sets it.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Runs the binary with `args` and optional stdin bytes.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    run_within(600, args, &[], stdin.map(<[u8]>::to_vec))
}

/// Runs with path arguments mixed in.
pub fn run_paths(args: &[&str], paths: &[&Path]) -> Run {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(paths.iter().map(|p| arg(p)));
    run(&all, None)
}

/// Runs the binary with `args`, extra environment `env` and optional
/// stdin, killing it and failing the test after `secs` seconds (a hang is
/// a failure, not a stuck test run).
pub fn run_within(secs: u64, args: &[&str], env: &[(&str, &str)], stdin: Option<Vec<u8>>) -> Run {
    let mut cmd = command(args);
    cmd.envs(env.iter().copied());
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("spawn batchdoku");
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
    let status = exits_within(&mut child, Duration::from_secs(secs));
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().unwrap(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
    }
}

/// Runs the binary with stdin piped and left open (silent): a run that
/// reads its input before failing would wait, and fails the test after
/// 20 s.
pub fn run_with_silent_stdin(args: &[&str]) -> Run {
    let mut child = command(args).stdin(Stdio::piped()).spawn().unwrap();
    let stdin = child.stdin.take().unwrap();
    let status = exits_within(&mut child, Duration::from_secs(20));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `solve -q` on `input` (stdin) with `extra` flags, expecting exit 0 or
/// 1: (exit code, header, rows).
pub fn solve_stdin(input: &[u8], extra: &[&str]) -> (i32, Vec<String>, Vec<Vec<String>>) {
    let mut args = vec!["solve", "-q"];
    args.extend_from_slice(extra);
    let r = run(&args, Some(input));
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let (h, rows) = r.csv();
    (r.code, h, rows)
}

/// The values of column `name` in `rows`.
pub fn column(h: &[String], rows: &[Vec<String>], name: &str) -> Vec<String> {
    let i = col(h, name);
    rows.iter().map(|r| r[i].clone()).collect()
}

/// Index of a column in a header.
pub fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// Checks that a solution string is a complete valid grid keeping the givens.
pub fn assert_solves(puzzle: &str, solution: &str) {
    let p = batchdoku_core::parse_line(puzzle.as_bytes()).unwrap();
    let s = batchdoku_core::parse_line(solution.as_bytes()).unwrap();
    assert!(s.solves(&p), "{solution} does not solve {puzzle}");
}

/// Checks that every row's `solution` solves its `puzzle`.
pub fn assert_rows_solve(h: &[String], rows: &[Vec<String>]) {
    for row in rows {
        assert_solves(&row[col(h, "puzzle")], &row[col(h, "solution")]);
    }
}

/// The NOIP block layout of a line-form puzzle: nine rows of nine digits
/// separated by spaces, `0` for blanks (`Grid::to_block_string`).
pub fn to_block(line: impl AsRef<[u8]>) -> Vec<u8> {
    batchdoku_core::parse_line(line.as_ref())
        .expect("test puzzles are well-formed")
        .to_block_string()
        .into_bytes()
}

// --- child processes -----------------------------------------------------

/// Polls `done` every few milliseconds until it holds, failing the test
/// with `what` after `limit`.
pub fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what} within {limit:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits at most `limit` for `child` to exit; kills it and fails if not.
pub fn exits_within(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// [`exits_within`], then the child's collected output.
pub fn output_within(mut child: Child, limit: Duration) -> Output {
    exits_within(&mut child, limit);
    child.wait_with_output().unwrap()
}

/// Waits until a temporary output file of `child` in `dir` has content
/// (the run has started writing), failing if `child` ends first or
/// nothing is written within 30 s.
pub fn wait_until_writing(child: &mut Child, dir: &Path) {
    wait_until(Duration::from_secs(30), "the run started writing", || {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it started writing"
        );
        std::fs::read_dir(dir).unwrap().flatten().any(|e| {
            e.file_name().to_string_lossy().ends_with(".tmp")
                && e.metadata().is_ok_and(|m| m.len() > 0)
        })
    });
}

/// Waits until `child` has had `settle` to get going (it must not end).
pub fn running_after(child: &mut Child, settle: Duration) {
    std::thread::sleep(settle);
    assert!(
        child.try_wait().unwrap().is_none(),
        "ended before the signal"
    );
}

/// Sends `signal` (`libc::SIGINT`, `SIGTERM`, `SIGKILL`) to `child`.
pub fn signal(child: &Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) only reads its two integer arguments; the pid is our
    // own child, not yet waited for, so it names no other process.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill({pid}, {signal})");
}

/// Makes a named pipe (FIFO) at `path`.
pub fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: the path is a valid NUL-terminated string that outlives the
    // call, which only reads it.
    let made = unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

// --- prerequisites -----------------------------------------------------

/// Whether a test's prerequisite is present (skipped with a message when
/// it is not, but a failure under `CI=true`): the core's test helper, one
/// definition for every crate's tests.
pub use batchdoku_core::testdata::required;

/// The binary as a user other than root, for the tests of directory
/// permissions, which bind every user but root: run as root (CI runs as
/// root), it runs as `nobody` through `setpriv` (util-linux), from a copy
/// in `dir`, which any user must be able to read; otherwise the binary
/// itself. `None` (skip) when `setpriv` is missing ([`required`]).
pub fn unprivileged(dir: &Path) -> Option<Command> {
    // SAFETY: geteuid takes nothing and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Some(Command::new(bin()));
    }
    let what = "setpriv (util-linux), to run as a user other than root";
    if !required(what, have("setpriv")) {
        return None;
    }
    use std::os::unix::fs::PermissionsExt;
    let copy = dir.join("batchdoku");
    std::fs::copy(bin(), &copy).unwrap();
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(copy);
    Some(cmd)
}

/// Whether the program `name` runs here (found on the PATH).
pub fn have(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

// --- readable comparisons ----------------------------------------------

/// Asserts that two outputs (anything that is bytes: `Vec<u8>`, `&str`,
/// `String`) are equal, and on a mismatch prints both as text blocks with
/// a line-by-line marker of the first difference, instead of two arrays of
/// numbers. An optional message (format arguments) says what differs.
macro_rules! eqnice {
    ($expected:expr, $got:expr $(,)?) => {
        $crate::util::assert_text_eq(
            ::std::convert::AsRef::<[u8]>::as_ref(&$expected),
            ::std::convert::AsRef::<[u8]>::as_ref(&$got),
            "",
        )
    };
    ($expected:expr, $got:expr, $($msg:tt)+) => {
        $crate::util::assert_text_eq(
            ::std::convert::AsRef::<[u8]>::as_ref(&$expected),
            ::std::convert::AsRef::<[u8]>::as_ref(&$got),
            &format!($($msg)+),
        )
    };
}
pub(crate) use eqnice;

/// Lines shown around the first difference of a long text.
const CONTEXT: usize = 4;

/// What [`eqnice!`] runs.
#[track_caller]
pub fn assert_text_eq(expected: &[u8], got: &[u8], what: &str) {
    if expected == got {
        return;
    }
    let (expected, got) = (
        String::from_utf8_lossy(expected),
        String::from_utf8_lossy(got),
    );
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    // The first line that differs (or the line past the shorter text when
    // one is a prefix of the other, line breaks included).
    let first = e
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(e.len().min(g.len()));
    let block = |name: &str, lines: &[&str]| {
        let rule = "~".repeat(72);
        let (from, to) = if lines.len() <= 2 * CONTEXT + 8 {
            (0, lines.len())
        } else {
            (
                first.saturating_sub(CONTEXT),
                (first + CONTEXT + 1).min(lines.len()),
            )
        };
        let mut out = format!("{name} ({} lines):\n{rule}\n", lines.len());
        if from > 0 {
            out += &format!("[... {from} lines ...]\n");
        }
        for line in &lines[from..to] {
            out += line;
            out.push('\n');
        }
        if to < lines.len() {
            out += &format!("[... {} lines ...]\n", lines.len() - to);
        }
        out + &rule + "\n"
    };
    let marker = |sign: char, line: Option<&&str>| match line {
        Some(line) => format!("{sign} {:>5} | {line}\n", first + 1),
        None => format!("{sign} {:>5} | <end of text>\n", first + 1),
    };
    let mut diff = String::new();
    if first > 0 {
        diff += &format!("  {:>5} | {}\n", first, e[first - 1]);
    }
    diff += &marker('-', e.get(first));
    diff += &marker('+', g.get(first));
    if e.len() == g.len() && e == g {
        diff += "(the lines are equal: the texts differ in line endings)\n";
    }
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(": {what}")
    };
    panic!(
        "outputs differ{what}\n\n{}\n{}\nfirst difference (- expected, + got):\n{diff}",
        block("expected", &e),
        block("got", &g),
    );
}

/// [`eqnice!`] passes on equal outputs and, on different ones, names the
/// first differing line with both versions and shows a window of a long
/// text around it.
#[test]
fn eqnice_marks_the_first_difference() {
    eqnice!(b"a\nb\n".to_vec(), "a\nb\n");
    let message = |expected: String, got: String| {
        let err = std::panic::catch_unwind(|| eqnice!(expected, got, "rows")).unwrap_err();
        err.downcast_ref::<String>().unwrap().clone()
    };
    let m = message("a\nb\nc\n".into(), "a\nB\nc\n".into());
    assert!(m.starts_with("outputs differ: rows\n"), "{m}");
    assert!(m.contains("      1 | a\n-     2 | b\n+     2 | B\n"), "{m}");
    let long: Vec<String> = (0..100).map(|i| format!("row {i}")).collect();
    let mut changed = long.clone();
    changed[60] = "row sixty".into();
    changed.push("row 100".into());
    let m = message(long.join("\n"), changed.join("\n"));
    assert!(
        m.contains("expected (100 lines)") && m.contains("got (101 lines)"),
        "{m}"
    );
    assert!(m.contains("[... 56 lines ...]\nrow 56\n"), "{m}");
    assert!(!m.contains("row 10\n"), "{m}");
    assert!(m.contains("-    61 | row 60\n+    61 | row sixty\n"), "{m}");
    let m = message("a\n".into(), "a\nb\n".into());
    assert!(m.contains("-     2 | <end of text>\n+     2 | b\n"), "{m}");
}
