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
//! instead (`permuted` below, the same as `batchdoku bench
//! --permute`): lists kept in a canonical form favour a search that tries
//! low digits in the top rows first, and tdoku's benchmark, the source of
//! the anchors in `../shared/ANCHORS.md`, permutes every puzzle too.
//!
//! `--format csv` prints the rows as CSV instead
//! (`set,mode,puzzles,batchdoku_per_s,sudoku_per_s,ratio`, a side not run
//! left empty), for scripts: `scripts/bench/peers.sh` measures one side and one
//! mode at a time this way, interleaved with tdoku's driver.
//!
//! `--write-permuted SEED OUTDIR` measures nothing: it writes each FILE's
//! permuted working set (`working_set` below with SEED: the puzzles
//! repeated to at least 20,000, each copy a different random equivalent,
//! exactly what `--permute SEED` solves) to `OUTDIR/` under the file's own
//! name, as 81-character lines with `.` for blanks. Every program then
//! solves exactly the same permuted puzzles from that file.
//!
//! Usage: `batchdoku-peers [--min-time SECS] [--rounds N] [--only ours|theirs]
//! [--mode first|count2] [--once] [--permute SEED] [--format markdown|csv] FILE...`
//! or `batchdoku-peers --write-permuted SEED OUTDIR FILE...`

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use batchdoku_core::{parse_line, Engine, Grid, Rng, Solver, Transform};
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

/// How the rows are printed.
#[derive(Clone, Copy, PartialEq)]
enum Format {
    Markdown,
    Csv,
}

struct Args {
    /// `--write-permuted SEED OUTDIR`: write permuted files, measure nothing.
    write_permuted: Option<(u64, PathBuf)>,
    format: Format,
    min_time: Duration,
    rounds: usize,
    sides: Sides,
    modes: Vec<Mode>,
    once: bool,
    permute: Option<u64>,
    files: Vec<String>,
}

const USAGE: &str = "usage: batchdoku-peers [--min-time SECS] [--rounds N] \
                     [--only ours|theirs] [--mode first|count2] [--once] [--permute SEED] \
                     [--format markdown|csv] FILE...\n   \
                     or: batchdoku-peers --write-permuted SEED OUTDIR FILE...";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        write_permuted: None,
        format: Format::Markdown,
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
            "--format" => {
                args.format = match it.next().as_deref() {
                    Some("markdown") => Format::Markdown,
                    Some("csv") => Format::Csv,
                    _ => return Err("--format needs markdown or csv".into()),
                };
            }
            "--write-permuted" => {
                let v = it.next().ok_or("--write-permuted needs a seed")?;
                let seed = v
                    .parse()
                    .map_err(|_| format!("bad --write-permuted seed {v}"))?;
                let dir = it.next().ok_or("--write-permuted needs an output folder")?;
                args.write_permuted = Some((seed, dir.into()));
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
        let Ok(g) = parse_line(line.as_bytes()) else {
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
        (true, _) => working_set(&ours, permute),
        (false, Some(seed)) => permuted(&ours, seed),
        (false, None) => ours,
    };
    // A permuted puzzle is valid whenever the original is.
    let theirs = ours
        .iter()
        .map(|g| Sudoku::from_bytes(*g.cells()).expect("a valid puzzle stays valid"))
        .collect();
    Ok((ours, theirs))
}

/// The set's name: the file name without its extension.
fn set_name(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned())
}

/// Writes each file's permuted working set (`--permute`'s: the puzzles
/// repeated to at least 20,000, each copy a different random equivalent) to
/// `dir` under the file's own name. A short set solved over and over in
/// one order lets the branch predictor learn it (top95: about 1.5x the
/// rate of 20,000 different equivalents), so the file holds them all.
/// Every failure is reported; returns whether all files were written.
fn write_permuted(files: &[String], seed: u64, dir: &Path) -> bool {
    let mut ok = true;
    for path in files {
        let written = load(path, true, Some(seed)).and_then(|(puzzles, _)| {
            let name = Path::new(path)
                .file_name()
                .ok_or_else(|| format!("{path}: no file name"))?;
            let out = dir.join(name);
            // Never overwrite a list with its permuted copy.
            if out.canonicalize().ok() == Path::new(path).canonicalize().ok() {
                return Err(format!("{}: would overwrite the input", out.display()));
            }
            let mut text = Vec::with_capacity(puzzles.len() * 82);
            for g in &puzzles {
                text.extend_from_slice(&g.to_line());
                text.push(b'\n');
            }
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))
        });
        if let Err(e) = written {
            eprintln!("{e}");
            ok = false;
        }
    }
    ok
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Measures every file in every mode and prints one row each.
fn measure(args: &Args) {
    // A side not run, or a ratio without both sides, prints as `-` in
    // Markdown and as an empty field in CSV.
    let missing = match args.format {
        Format::Markdown => "-",
        Format::Csv => "",
    };
    match args.format {
        Format::Markdown => {
            println!("| set | mode | puzzles | batchdoku/s | sudoku 0.8/s | ratio |");
            println!("|---|---|---:|---:|---:|---:|");
        }
        Format::Csv => println!("set,mode,puzzles,batchdoku_per_s,sudoku_per_s,ratio"),
    }
    let mut solver = Solver::new();
    for path in &args.files {
        let (ours, theirs) = match load(path, !args.once, args.permute) {
            Ok(sets) => sets,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let name = set_name(path);
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
                    missing.into()
                }
            };
            let ratio = if best_ours > 0.0 && best_theirs > 0.0 {
                format!("{:.2}", best_ours / best_theirs)
            } else {
                missing.into()
            };
            let cells = [
                name.clone(),
                mode.name().into(),
                ours.len().to_string(),
                show(best_ours),
                show(best_theirs),
                ratio,
            ];
            match args.format {
                Format::Markdown => println!("| {} |", cells.join(" | ")),
                Format::Csv => {
                    let fields: Vec<String> = cells.iter().map(|c| csv_field(c)).collect();
                    println!("{}", fields.join(","));
                }
            }
        }
    }
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    match &args.write_permuted {
        Some((seed, dir)) => {
            if !write_permuted(&args.files, *seed, dir) {
                std::process::exit(2);
            }
        }
        None => measure(&args),
    }
}

/// The smallest working set `batchdoku bench` solves: short sets are
/// repeated up to it, so a run is not dominated by start-up.
const MIN_WORKING_SET: usize = 20_000;

/// `puzzles` repeated into a working set of at least [`MIN_WORKING_SET`],
/// each copy then [`permuted`] if a seed is given: `batchdoku bench`'s
/// working set, from the library's public parts.
fn working_set(puzzles: &[Grid], permute: Option<u64>) -> Vec<Grid> {
    let reps = MIN_WORKING_SET.div_ceil(puzzles.len().max(1));
    let set = puzzles.repeat(reps);
    match permute {
        None => set,
        Some(seed) => permuted(&set, seed),
    }
}

/// Each puzzle replaced by a random equivalent, entry `i` drawn from
/// `seed` and `i` alone, as `batchdoku bench --permute` draws it.
fn permuted(puzzles: &[Grid], seed: u64) -> Vec<Grid> {
    puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| Transform::random(&mut Rng::for_item(seed, i as u64)).apply(p))
        .collect()
}
