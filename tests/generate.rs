//! `batchdoku generate`: every puzzle has exactly one solution (checked by
//! running `solve` with both engines on the output), `--minimal` puzzles
//! lose uniqueness when any given is removed, the targets and symmetries
//! hold, and the bytes depend only on the seed, never on threads or
//! chunking.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use batchdoku_core::{parse_line, Grid, Symmetry};

use crate::util::*;

/// Runs `generate` quietly with `args`, expecting success; returns stdout.
fn generate(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["generate", "-q"];
    all.extend_from_slice(args);
    let r = run(&all, None);
    assert_eq!(r.code, 0, "generate {args:?}: {}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    r.stdout
}

/// The puzzles of a `--format line` output.
fn puzzles(out: &[u8]) -> Vec<Grid> {
    std::str::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            assert_eq!(l.len(), 81, "{l}");
            parse_line(l.as_bytes()).unwrap()
        })
        .collect()
}

/// Runs `solve -k 2 --solver ENGINE` on `input` and returns the statuses,
/// checking every `expected` column says `match` when there is one.
fn statuses(input: &Path, engine: &str) -> Vec<String> {
    let r = run_paths(&["solve", "-q", "-k", "2", "--solver", engine], &[input]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    let expected = h.iter().position(|c| c == "expected");
    for row in &rows {
        if let Some(e) = expected {
            assert_eq!(row[e], "match", "{row:?}");
        }
    }
    rows.iter()
        .map(|row| row[col(&h, "status")].clone())
        .collect()
}

/// Checks that both engines give each of the `n` records of `input` the
/// status `want`.
fn both_engines_say(input: &Path, n: usize, want: &str, what: &str) {
    for engine in ["mrv", "dlx"] {
        let s = statuses(input, engine);
        assert_eq!(s.len(), n, "{what} {engine}");
        assert!(s.iter().all(|s| s == want), "{what} {engine}: {s:?}");
    }
}

#[test]
fn every_puzzle_is_unique_by_both_engines_and_matches_its_solution() {
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("default", &["-n", "150", "--seed", "1"][..]),
        ("clues", &["-n", "60", "--seed", "2", "--clues", "27"]),
        (
            "central",
            &["-n", "60", "--seed", "3", "--symmetry", "central"],
        ),
    ] {
        let path = dir.path().join(format!("{name}.csv"));
        let mut all = args.to_vec();
        all.extend_from_slice(&["--format", "csv", "-o", arg(&path)]);
        assert!(generate(&all).is_empty(), "-o leaves stdout empty");
        let (h, rows) = parse_csv(&std::fs::read(&path).unwrap());
        assert_eq!(h, ["puzzle", "solution"]);
        let n: usize = args[1].parse().unwrap();
        assert_eq!(rows.len(), n, "{name}");
        for row in &rows {
            assert_solves(&row[0], &row[1]);
        }
        // `solve` reads the puzzle,solution header: each solution must be
        // the one both engines find, and the only one.
        both_engines_say(&path, n, "unique", name);
    }
}

#[test]
fn minimal_puzzles_lose_uniqueness_when_any_given_goes() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["-n", "12", "--seed", "4", "--minimal"][..],
        &[
            "-n",
            "8",
            "--seed",
            "5",
            "--minimal",
            "--symmetry",
            "central",
        ],
        &["-n", "8", "--seed", "6", "--minimal", "--clues", "24"],
    ] {
        let originals = puzzles(&generate(args));
        // Every puzzle with one given removed, all in one file.
        let mut reduced = String::new();
        for p in &originals {
            for cell in (0..81).filter(|&c| p.get(c) != 0) {
                let mut q = *p;
                q.set(cell, 0);
                reduced.push_str(&q.to_line_string());
                reduced.push('\n');
            }
        }
        let path = dir.path().join("reduced.txt");
        std::fs::write(&path, reduced).unwrap();
        let total: usize = originals.iter().map(Grid::given_count).sum();
        both_engines_say(&path, total, "multiple", &format!("{args:?}"));
    }
}

#[test]
fn output_is_the_same_for_any_threads_and_batch_size() {
    let base = ["-n", "200", "--seed", "77", "--format", "csv"];
    let with = |extra: &[&str]| {
        let mut all = base.to_vec();
        all.extend_from_slice(extra);
        generate(&all)
    };
    let one = with(&["-j", "1"]);
    assert_eq!(one.iter().filter(|&&b| b == b'\n').count(), 201);
    for extra in [
        &["-j", "2"][..],
        &["-j", "2", "--batch-size", "1"],
        &["-j", "2", "--batch-size", "7"],
        &["-j", "1", "--batch-size", "1000"],
        &["-j", "3", "--batch-size", "13"],
    ] {
        eqnice!(one, with(extra), "{extra:?} changed the output");
    }
    // Symmetric and exact-count settings are thread independent too.
    let sym = [
        "-n",
        "40",
        "--seed",
        "8",
        "--symmetry",
        "quarter",
        "--clues",
        "28",
    ];
    let a = generate(&[&sym[..], &["-j", "1"]].concat());
    let b = generate(&[&sym[..], &["-j", "2", "--batch-size", "3"]].concat());
    eqnice!(a, b);
}

#[test]
fn seeds_and_start_select_the_puzzles() {
    let a = generate(&["-n", "30", "--seed", "10"]);
    eqnice!(a, generate(&["-n", "30", "--seed", "10"]));
    let b = generate(&["-n", "30", "--seed", "11"]);
    let (pa, pb) = (puzzles(&a), puzzles(&b));
    assert!(pa.iter().zip(&pb).all(|(x, y)| x != y));
    // --start I -n M is puzzles I..I+M-1 of the longer run, counted from 1.
    let tail = generate(&["-n", "12", "--seed", "10", "--start", "19"]);
    assert_eq!(puzzles(&tail), pa[18..]);
    let r = run(&["generate", "-n", "1", "--start", "0"], None);
    assert_eq!(r.code, 2, "--start counts from 1: {}", r.stderr);
    let mut distinct = pa.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 30);
}

#[test]
fn clue_targets_and_symmetries_hold() {
    for p in puzzles(&generate(&["-n", "40", "--seed", "1", "--clues", "25"])) {
        assert_eq!(p.given_count(), 25);
    }
    for p in puzzles(&generate(&["-n", "40", "--seed", "1", "--min-clues", "32"])) {
        assert!(p.given_count() >= 32);
    }
    for symmetry in Symmetry::ALL {
        let out = generate(&["-n", "20", "--seed", "2", "--symmetry", symmetry.as_str()]);
        for p in puzzles(&out) {
            assert!(symmetry.holds_for(&p), "{symmetry:?}: {p}");
        }
    }
    let out = generate(&[
        "-n",
        "10",
        "--seed",
        "2",
        "--symmetry",
        "central",
        "--clues",
        "31",
    ]);
    for p in puzzles(&out) {
        assert!(
            Symmetry::Central.holds_for(&p) && p.given_count() == 31,
            "{p}"
        );
    }
}

#[test]
fn jsonl_and_zero_counts() {
    let out = generate(&[
        "-n", "3", "--seed", "5", "--format", "jsonl", "--start", "4",
    ]);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    // The index counts from 1, as every command's: the first is --start.
    for (k, v) in lines.iter().enumerate() {
        assert_eq!(v["index"], 4 + k as u64);
        assert_solves(
            v["puzzle"].as_str().unwrap(),
            v["solution"].as_str().unwrap(),
        );
    }
    let first = generate(&["-n", "1", "--seed", "5", "--format", "jsonl"]);
    let first: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(first["index"], 1);
    assert!(generate(&["-n", "0", "--seed", "1"]).is_empty());
    assert_eq!(
        generate(&["-n", "0", "--seed", "1", "--format", "csv"]),
        b"puzzle,solution\n"
    );
    let no_header = generate(&["-n", "2", "--seed", "1", "--format", "csv", "--no-header"]);
    assert_eq!(std::str::from_utf8(&no_header).unwrap().lines().count(), 2);
}

#[test]
fn summary_names_the_seed_and_quiet_silences_it() {
    let r = run(&["generate", "-n", "5", "--seed", "123", "-j", "1"], None);
    assert_eq!(r.code, 0);
    assert!(
        r.stderr.contains("5 puzzles (seed 123,"),
        "summary: {}",
        r.stderr
    );
    // Without --seed the summary gives the seed drawn, which reproduces it.
    let r = run(&["generate", "-n", "4", "-j", "1"], None);
    assert_eq!(r.code, 0);
    let seed = r
        .stderr
        .split("(seed ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .unwrap_or_else(|| panic!("no seed in {}", r.stderr));
    eqnice!(r.stdout, generate(&["-n", "4", "--seed", seed]));
}

#[test]
fn bad_flags_exit_2_with_nothing_written() {
    for args in [
        &["generate", "-n", "5", "--clues", "16"][..],
        &["generate", "-n", "5", "--clues", "82"],
        &["generate", "-n", "5", "--min-clues", "10"],
        &["generate", "-n", "5", "--clues", "25", "--min-clues", "25"],
        &[
            "generate",
            "-n",
            "5",
            "--clues",
            "22",
            "--symmetry",
            "quarter",
        ],
        &["generate", "-n", "5", "--clues", "45", "--minimal"],
        &["generate", "-n", "5", "--symmetry", "spiral"],
        &["generate", "-n", "5", "--format", "xml"],
        &["generate", "-n", "-1"],
        &["generate", "--seed", "3"],
        &["generate", "-n", "5", "-j", "0"],
    ] {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn output_file_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("puzzles.txt");
    let stdout = generate(&["-n", "20", "--seed", "9"]);
    assert!(generate(&["-n", "20", "--seed", "9", "-o", arg(&out)]).is_empty());
    eqnice!(stdout, std::fs::read(&out).unwrap());
    assert_eq!(names(dir.path()), ["puzzles.txt"]);
    // A missing directory fails before any work.
    let bad = dir.path().join("no/such/dir/p.txt");
    let r = run(&["generate", "-n", "5", "-o", arg(&bad)], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("p.txt"), "{}", r.stderr);
}

#[test]
fn sigint_exits_130_and_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("many.txt");
    let args = ["generate", "-q", "-j", "1", "-n", "10000000", "--seed", "1"];
    let mut child = command(&[&args[..], &["-o", arg(&out)]].concat())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Once the temporary file has content (the buffer was flushed).
    wait_until_writing(&mut child, dir.path());
    signal(&child, libc::SIGINT);
    let status = exits_within(&mut child, Duration::from_secs(20));
    assert_eq!(status.code(), Some(130));
    assert_eq!(names(dir.path()), Vec::<String>::new());
}

#[test]
fn closed_stdout_ends_quietly() {
    let mut child = command(&["generate", "-j", "2", "-n", "10000000", "--seed", "1"])
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim_end().len(), 81);
    // The reader is gone: the next write fails with EPIPE.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--er MIN..MAX`: every puzzle kept rates in the range when `batchdoku
/// rate` rates it again, the summary (stderr and `--summary-json`) says
/// how many candidates were rated, and the bytes do not depend on `-j`.
#[test]
fn er_target_keeps_puzzles_in_range_and_counts_the_tries() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let args = [
        "generate",
        "-n",
        "12",
        "--seed",
        "9",
        "--min-clues",
        "30",
        "--er",
        "1.2..1.5",
    ];
    let mut with_summary = args.to_vec();
    with_summary.extend(["-j", "2", "--summary-json", summary.to_str().unwrap()]);
    let r = run(&with_summary, None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("candidates rated"), "{}", r.stderr);
    let facts: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(facts["puzzles"], 12);
    let tried = facts["tried"].as_u64().unwrap();
    assert!(
        tried >= 12 && tried <= facts["attempts"].as_u64().unwrap(),
        "{facts}"
    );
    let (range, budget) = (
        facts["out_of_range"].as_u64().unwrap(),
        facts["out_of_budget"].as_u64().unwrap(),
    );
    assert_eq!(
        tried,
        12 + range + budget,
        "every candidate not kept says why: {facts}"
    );
    assert!(
        r.stderr.contains(&format!(
            "{tried} candidates rated ({range} out of range, {budget} out of budget)"
        )),
        "{}",
        r.stderr
    );
    let out = write(dir.path(), "kept.txt", &r.stdout);
    let rated = run_paths(&["rate", "-q"], &[&out]);
    let (h, rows) = rated.csv();
    assert_eq!(rows.len(), 12);
    for er in column(&h, &rows, "er") {
        let er: f64 = er.parse().expect("every kept puzzle is rated");
        assert!((1.2..=1.5).contains(&er), "{er}");
    }
    let mut one = args.to_vec();
    one.extend(["-j", "1", "-q"]);
    assert_eq!(run(&one, None).stdout, r.stdout, "-j 1 and -j 2 differ");
    let bad = run(&["generate", "-n", "1", "--er", "5..4"], None);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    // The budget is rate's: the default spelled out changes nothing, and
    // it needs --er.
    let mut budget = one.clone();
    budget.extend(["--limit", "1000000000"]);
    assert_eq!(run(&budget, None).stdout, r.stdout);
    let bad = run(&["generate", "-n", "1", "--limit", "5"], None);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--er"), "{}", bad.stderr);
}

/// `--er` ranges the rater cannot give are usage errors before any work
/// (exit 2, nothing written): below its easiest step (1.0), above its
/// highest rating, or above 0.0 for complete grids (`--clues 81`). The
/// message names the rater's range. A range below 1.0 ran until Ctrl-C.
#[test]
fn er_ranges_the_rater_cannot_give_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let summary = dir.path().join("summary.json");
    for (range, extra) in [
        ("0.0..0.9", None),
        ("0.5..0.5", None),
        ("20.0..25.5", None),
        ("1.0..9.0", Some("81")),
    ] {
        let mut args = vec![
            "generate",
            "-n",
            "1",
            "--er",
            range,
            "-o",
            arg(&out),
            "--summary-json",
            arg(&summary),
        ];
        if let Some(k) = extra {
            args.extend(["--clues", k]);
        }
        let r = run_within(20, &args, &[], None);
        assert_eq!(r.code, 2, "{range}: {}", r.stderr);
        assert!(
            r.stderr.contains("no puzzle can rate in this range") && r.stderr.contains("from 1.0"),
            "{range}: {}",
            r.stderr
        );
        assert!(!out.exists() && !summary.exists(), "{range} left a file");
    }
    // The edges themselves are accepted: 1.0 is the easiest step.
    let r = run_within(
        60,
        &[
            "generate", "-q", "-n", "1", "--seed", "1", "--er", "0.0..1.2",
        ],
        &[],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout_str().lines().count(), 1);
}

/// A budget no candidate can meet (`--limit 1`) stops the run once the
/// first 16 candidates all ran out of it: exit 2, a message that says so
/// with the budget, no output left. It ran forever, silently.
#[test]
fn a_budget_no_candidate_meets_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let r = run_within(
        60,
        &[
            "generate",
            "-n",
            "5",
            "--seed",
            "3",
            "--er",
            "1.0..3.0",
            "--limit",
            "1",
            "-o",
            arg(&out),
        ],
        &[],
        None,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--limit 1") && r.stderr.contains("ran out of the rating budget"),
        "{}",
        r.stderr
    );
    assert!(!out.exists(), "the stopped run left its output");
}

/// Interrupted while no candidate is in range, the summary on stderr
/// still counts what was tried: every candidate rated, and why none was
/// kept (it said nothing of them, and `tried: 0`).
#[test]
fn an_interrupted_er_run_counts_its_candidates() {
    let mut child = command(&[
        "generate",
        "-n",
        "1",
        "--seed",
        "1",
        "--min-clues",
        "30",
        "--er",
        "9.0..9.5",
        "-j",
        "1",
    ])
    .spawn()
    .unwrap();
    running_after(&mut child, Duration::from_millis(1500));
    signal(&child, libc::SIGINT);
    let out = output_within(child, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (before, after) = stderr
        .split_once(" candidates rated (")
        .unwrap_or_else(|| panic!("no count: {stderr}"));
    let number = |t: &str| {
        t.parse::<u64>()
            .unwrap_or_else(|_| panic!("{t:?}: {stderr}"))
    };
    let tried = number(before.rsplit(' ').next().unwrap());
    let (range, rest) = after.split_once(" out of range, ").unwrap();
    let budget = rest.split_once(" out of budget").unwrap().0;
    assert!(tried > 0, "{stderr}");
    assert_eq!(number(range) + number(budget), tried, "{stderr}");
}
