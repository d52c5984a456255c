//! Many inputs, bounded resources: a run over thousands of files holds one
//! open at a time (it works under `ulimit -n 256`) and its memory does not
//! grow with their number (the same puzzles in one file or in 2,000 files
//! take about the same peak memory).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{bin, data};

/// Files, and puzzles in each.
const FILES: usize = 2000;
const PER_FILE: usize = 5;

/// Runs `solve` on `inputs` under `ulimit -n 256`, writing to `out`;
/// returns the exit code and the child's peak resident memory in KiB.
// The child is reaped by wait4 (for its rusage), not by Child::wait.
#[allow(clippy::zombie_processes)]
fn solve_under_fd_limit(inputs: &[String], out: &Path) -> (i32, i64) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -n 256 && exec "$0" "$@""#)
        .arg(bin())
        .args(["solve", "-q", "-j", "2", "-o"])
        .arg(out)
        .args(inputs)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, waited for once, here.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    assert!(libc::WIFEXITED(status), "killed by a signal: {status}");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// The (puzzle, status, solution) of every row of a `solve` CSV, in order.
fn results(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},{},{}", f[2], f[3], f[5])
        })
        .collect()
}

#[test]
fn two_thousand_inputs_run_under_ulimit_256_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(data("sample.txt")).unwrap();
    let puzzles: Vec<&str> = sample
        .lines()
        .filter(|l| l.len() == 81)
        .cycle()
        .take(FILES * PER_FILE)
        .collect();
    let mut paths = Vec::with_capacity(FILES);
    for (i, chunk) in puzzles.chunks(PER_FILE).enumerate() {
        let path = dir.path().join(format!("in{i:04}.txt"));
        std::fs::write(&path, chunk.join("\n") + "\n").unwrap();
        paths.push(path.to_str().unwrap().to_owned());
    }
    let one = dir.path().join("all.txt");
    std::fs::write(&one, puzzles.join("\n") + "\n").unwrap();

    let (code_many, peak_many) = solve_under_fd_limit(&paths, &dir.path().join("many.csv"));
    let (code_one, peak_one) = solve_under_fd_limit(
        &[one.to_str().unwrap().to_owned()],
        &dir.path().join("one.csv"),
    );
    assert_eq!((code_many, code_one), (0, 0));
    let (many, all) = (
        results(&dir.path().join("many.csv")),
        results(&dir.path().join("one.csv")),
    );
    assert_eq!(many.len(), FILES * PER_FILE);
    assert_eq!(many, all, "the same puzzles give the same results");
    // Opening every input at once cost about 260 KiB each (500 MiB here);
    // one at a time, the 2,000 files cost what the one file does, give or
    // take a few MiB of per-input names and allocator slack.
    assert!(
        peak_many < peak_one + 16 * 1024,
        "peak memory {peak_many} KiB for {FILES} files against {peak_one} KiB for one"
    );
}
