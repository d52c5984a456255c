//! Side-by-side single-thread throughput of batchdoku's solver and the
//! `sudoku` crate 0.8 (the fastest Rust solver, a JCZSolve port).
//!
//! The `sudoku` crate is AGPL: this separate program only *calls* it to
//! measure against it; batchdoku never depends on it and copies none of it.
//!
//! For each file given (one 81-character puzzle per line), the puzzles are
//! parsed once and replicated to at least 20,000, then both solvers run the
//! whole set in first-solution mode and in count-to-2 mode. Measurements
//! are interleaved (ours, theirs, ours, theirs, ...) and the best of
//! `--rounds` is kept for each, so load on a shared machine hits both
//! alike. Solution counts of the two solvers are compared as a sanity
//! check. Output: one Markdown row per set and mode with both rates and
//! their ratio (ours / theirs; above 1 means batchdoku is faster).
//!
//! For profiling one solver under callgrind (instruction and simulated
//! branch-miss counts of each side on the same puzzles), `--only ours` or
//! `--only theirs` runs one side, `--mode first|count2` one mode, and
//! `--once` makes one untimed pass over the file as given (no
//! replication); the passes are `ours_pass` and `theirs_pass`, never
//! inlined, so `--toggle-collect='*ours_pass*'` isolates them.
//!
//! `--permute SEED` gives both solvers a random equivalent of each puzzle
//! instead (`batchdoku::bench::permuted`, the same as `batchdoku bench
//! --permute`): lists kept in a canonical form favour a search that tries
//! low digits in the top rows first, and tdoku's benchmark, the source of
//! the anchors in `../shared/ANCHORS.md`, permutes every puzzle too.
//!
//! Usage: `batchdoku-peers [--min-time SECS] [--rounds N] [--only ours|theirs]
//! [--mode first|count2] [--once] [--permute SEED] FILE...`

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use batchdoku::{bench, parse, Engine, Grid, Solver};
use sudoku::Sudoku;

/// The two modes measured.
#[derive(Clone, Copy)]
enum Mode {
    First,
    Count2,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::First => "first",
            Mode::Count2 => "count2",
        }
    }
}

/// One pass of batchdoku over the set; returns the total solution count.
#[inline(never)]
fn ours_pass(solver: &mut Solver, set: &[Grid], mode: Mode) -> u64 {
    let mut total = 0;
    for g in set {
        let out = match mode {
            Mode::First => solver.solve_first(black_box(g)),
            Mode::Count2 => solver.count_solutions_up_to(black_box(g), 2),
        };
        total += out.map_or(0, |o| o.solutions);
    }
    total
}

/// One pass of the `sudoku` crate over the set; returns the total count.
#[inline(never)]
fn theirs_pass(set: &[Sudoku], mode: Mode) -> u64 {
    let mut total = 0;
    for &s in set {
        total += match mode {
            Mode::First => u64::from(black_box(s).some_solution().is_some()),
            Mode::Count2 => black_box(s).solutions_count_up_to(2) as u64,
        };
    }
    total
}

/// Runs `pass` repeatedly for at least `min_time`; returns puzzles/s and
/// the solution count of one pass.
fn rate(n: usize, min_time: Duration, mut pass: impl FnMut() -> u64) -> (f64, u64) {
    let start = Instant::now();
    let mut passes = 0u64;
    let mut count = 0;
    while passes == 0 || start.elapsed() < min_time {
        count = black_box(pass());
        passes += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    ((passes as f64 * n as f64) / secs, count)
}

/// Which solvers run.
#[derive(Clone, Copy, PartialEq)]
enum Sides {
    Both,
    Ours,
    Theirs,
}

struct Args {
    min_time: Duration,
    rounds: usize,
    sides: Sides,
    modes: Vec<Mode>,
    once: bool,
    permute: Option<u64>,
    files: Vec<String>,
}

const USAGE: &str = "usage: batchdoku-peers [--min-time SECS] [--rounds N] \
                     [--only ours|theirs] [--mode first|count2] [--once] [--permute SEED] FILE...";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        min_time: Duration::from_millis(500),
        rounds: 3,
        sides: Sides::Both,
        modes: vec![Mode::First, Mode::Count2],
        once: false,
        permute: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--min-time" => {
                let v = it.next().ok_or("--min-time needs a value")?;
                let secs: f64 = v.parse().map_err(|_| format!("bad --min-time {v}"))?;
                args.min_time = Duration::from_secs_f64(secs.max(0.0));
            }
            "--rounds" => {
                let v = it.next().ok_or("--rounds needs a value")?;
                args.rounds = v.parse().map_err(|_| format!("bad --rounds {v}"))?;
                args.rounds = args.rounds.max(1);
            }
            "--only" => {
                args.sides = match it.next().as_deref() {
                    Some("ours") => Sides::Ours,
                    Some("theirs") => Sides::Theirs,
                    _ => return Err("--only needs ours or theirs".into()),
                };
            }
            "--mode" => {
                args.modes = match it.next().as_deref() {
                    Some("first") => vec![Mode::First],
                    Some("count2") => vec![Mode::Count2],
                    _ => return Err("--mode needs first or count2".into()),
                };
            }
            "--once" => args.once = true,
            "--permute" => {
                let v = it.next().ok_or("--permute needs a seed")?;
                args.permute = Some(v.parse().map_err(|_| format!("bad --permute {v}"))?);
            }
            "-h" | "--help" => return Err(USAGE.into()),
            _ => args.files.push(a),
        }
    }
    if args.files.is_empty() {
        return Err(USAGE.into());
    }
    if args.once {
        args.rounds = 1;
        args.min_time = Duration::ZERO;
    }
    Ok(args)
}

/// Loads a file's puzzles for both solvers, skipping lines either rejects:
/// replicated to batchdoku's benchmark working set (at least 20,000) if
/// `replicate`, and each entry permuted if `permute` gives a seed.
fn load(
    path: &str,
    replicate: bool,
    permute: Option<u64>,
) -> Result<(Vec<Grid>, Vec<Sudoku>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut ours = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        let Ok(g) = parse::parse_line(line.as_bytes()) else {
            continue;
        };
        if Sudoku::from_bytes(*g.cells()).is_ok() {
            ours.push(g);
        }
    }
    if ours.is_empty() {
        return Err(format!("{path}: no puzzles"));
    }
    let ours = match (replicate, permute) {
        (true, _) => bench::working_set(&ours, permute),
        (false, Some(seed)) => bench::permuted(&ours, seed),
        (false, None) => ours,
    };
    // A permuted puzzle is valid whenever the original is.
    let theirs = ours
        .iter()
        .map(|g| Sudoku::from_bytes(*g.cells()).expect("a valid puzzle stays valid"))
        .collect();
    Ok((ours, theirs))
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    println!("| set | mode | puzzles | batchdoku/s | sudoku 0.8/s | ratio |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut solver = Solver::new();
    for path in &args.files {
        let (ours, theirs) = match load(path, !args.once, args.permute) {
            Ok(sets) => sets,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let name = Path::new(path)
            .file_stem()
            .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
        for &mode in &args.modes {
            let (mut best_ours, mut best_theirs) = (0f64, 0f64);
            for _ in 0..args.rounds {
                let mut ours_count = None;
                if args.sides != Sides::Theirs {
                    let (r, c) = rate(ours.len(), args.min_time, || {
                        ours_pass(&mut solver, &ours, mode)
                    });
                    best_ours = best_ours.max(r);
                    ours_count = Some(c);
                }
                let mut theirs_count = None;
                if args.sides != Sides::Ours {
                    let (r, c) = rate(theirs.len(), args.min_time, || theirs_pass(&theirs, mode));
                    best_theirs = best_theirs.max(r);
                    theirs_count = Some(c);
                }
                if let (Some(ours_count), Some(theirs_count)) = (ours_count, theirs_count) {
                    if ours_count == theirs_count {
                        continue;
                    }
                    eprintln!(
                        "warning: {name} {}: batchdoku found {ours_count} solutions, sudoku {theirs_count}",
                        mode.name()
                    );
                }
            }
            let show = |r: f64| {
                if r > 0.0 {
                    format!("{r:.0}")
                } else {
                    "-".into()
                }
            };
            let ratio = if best_ours > 0.0 && best_theirs > 0.0 {
                format!("{:.2}", best_ours / best_theirs)
            } else {
                "-".into()
            };
            println!(
                "| {name} | {} | {} | {} | {} | {ratio} |",
                mode.name(),
                ours.len(),
                show(best_ours),
                show(best_theirs),
            );
        }
    }
}
