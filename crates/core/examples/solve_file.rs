//! The solver alone on a file, for instruction counts and quick timings
//! without building the binary:
//! `cargo run --release -p batchdoku-core --example solve_file -- FILE K [SEED] [SECONDS]`.
//!
//! Reads one puzzle per line (the first 81 characters; lines starting with
//! `#` or shorter are skipped), replaces each by a random equivalent when
//! SEED is a number (as `batchdoku bench --permute SEED` does: puzzle `i`
//! by `Transform::random(Rng::for_item(SEED, i))`; `-` keeps the file as
//! given), then solves every puzzle once (K = 1: first solution; K >= 2:
//! count up to K, keeping none, as `bench` does) and prints the puzzles,
//! solutions and guesses. With SECONDS > 0 it then solves the set again and
//! again for that long and prints puzzles/s. With SEED and the word
//! `write` as SECONDS it prints the permuted puzzles instead (for peers
//! that read files).
//!
//! Under `valgrind --tool=callgrind --toggle-collect='*as batchdoku_core::engine::Engine>::*'`
//! the instructions collected divided by the puzzles are the solver's cost
//! per puzzle.

use std::time::{Duration, Instant};

use batchdoku_core::{parse_line, Engine, Grid, Rng, Solver, Transform};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .expect("usage: solve_file FILE K [SEED|-] [SECONDS|write]");
    let k: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed: Option<u64> = args.get(2).and_then(|s| s.parse().ok());
    let seconds = args.get(3).map_or("0", String::as_str);
    let text = std::fs::read_to_string(path).expect("a readable file");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'))
        .filter_map(|l| parse_line(&l.as_bytes()[..81]).ok())
        .collect();
    if let Some(seed) = seed {
        for (i, p) in puzzles.iter_mut().enumerate() {
            *p = Transform::random(&mut Rng::for_item(seed, i as u64)).apply(p);
        }
    }
    if seconds == "write" {
        for p in &puzzles {
            let line: String = p
                .cells()
                .iter()
                .map(|&c| if c == 0 { '.' } else { char::from(b'0' + c) })
                .collect();
            println!("{line}");
        }
        return;
    }
    let mut solver = Solver::new();
    let mut solve = |p: &Grid| {
        if k <= 1 {
            solver.solve_first(p)
        } else {
            solver.count_solutions_only(p, k)
        }
    };
    let (mut solutions, mut guesses) = (0u64, 0u64);
    for p in &puzzles {
        if let Ok(o) = solve(p) {
            solutions += o.solutions;
            guesses += o.stats.guesses;
        }
    }
    let n = puzzles.len().max(1) as f64;
    println!(
        "{} puzzles, {solutions} solutions, {:.3} guesses/puzzle",
        puzzles.len(),
        guesses as f64 / n
    );
    let seconds: f64 = seconds.parse().unwrap_or(0.0);
    if seconds > 0.0 {
        let start = Instant::now();
        let mut solved = 0u64;
        while start.elapsed() < Duration::from_secs_f64(seconds) {
            for p in &puzzles {
                let _ = solve(p);
            }
            solved += puzzles.len() as u64;
        }
        println!(
            "{:.0} puzzles/s",
            solved as f64 / start.elapsed().as_secs_f64()
        );
    }
}
