//! Helpers to run the built binary and read its CSV output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// Runs the binary with `args` and optional stdin bytes.
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn batchdoku");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().unwrap();
    Run {
        code: status.code().unwrap_or(-1),
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Runs with path arguments mixed in.
pub fn run_paths(args: &[&str], paths: &[&Path]) -> Run {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(paths.iter().map(|p| p.to_string_lossy().into_owned()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    run(&refs, None)
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
    let p = batchdoku::parse_line(puzzle.as_bytes()).unwrap();
    let s = batchdoku::parse_line(solution.as_bytes()).unwrap();
    assert!(s.solves(&p), "{solution} does not solve {puzzle}");
}
