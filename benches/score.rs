//! Benchmark of the scored search (branch-and-bound over the one search
//! loop) against the same loop with pruning off.
//!
//! The puzzles are made deterministically, with a fixed seed per given
//! count: random complete grids (`common::solutions`: the solutions of the
//! library's seeded `Generator`), blanked down to the given count
//! (`common::dig`). They need not have a
//! unique solution (most have many, which is what makes the scored search
//! hard). No file is read, so the bench runs the same on a fresh clone.
//!
//! Before the criterion groups run, a one-pass report prints a markdown
//! table: per given count, the mean and largest time and the mean nodes
//! per puzzle with pruning, the same without pruning (24 givens and up)
//! and the speed-up, then the empty grid (set
//! `SCORE_BENCH_UNPRUNED_MAX_NODES` to cap the unpruned runs, a capped run
//! is marked; set `SCORE_BENCH_NO_REPORT` to skip the report,
//! `SCORE_BENCH_GIVENS=24,26` to report only some given counts,
//! `SCORE_BENCH_PUZZLES=N` for N puzzles per given count (default 200
//! from 24 givens up, where the speed-up over enumeration is measured and a
//! sample of 20 proved too small, and 20 below),
//! `SCORE_BENCH_REPORT_ONLY` to skip criterion,
//! `SCORE_BENCH_SKIP_UNPRUNED` to leave out the unpruned runs). Node counts are
//! deterministic; times depend on the machine's load. Criterion then times
//! the pruned search per given count, the unpruned one at 28 and 30 givens,
//! and the empty grid.
//!
//! For instruction counts (stable on a busy machine), run the report alone
//! under callgrind and collect only inside `measure_pruned` or
//! `measure_unpruned`, e.g.
//! `SCORE_BENCH_GIVENS=24 SCORE_BENCH_REPORT_ONLY=1 valgrind --tool=callgrind
//! --toggle-collect='score::measure_pruned' target/release/deps/score-*`.

use std::time::{Duration, Instant};

use batchdoku_core::{score, Grid, Rng, ScoreOptions, ScoreOutcome, Solver, Weights};
mod common;

use common::{dig, solutions};
use criterion::{black_box, Criterion};

/// `count` puzzles with exactly `givens` givens each (fixed seed per
/// given count, so every run sees the same puzzles).
fn puzzles(givens: usize, count: usize) -> Vec<Grid> {
    let seed = 0x5C0E_0000 + givens as u64;
    let mut rng = Rng::new(seed);
    solutions(seed, count)
        .iter()
        .map(|solution| dig(&mut rng, solution, givens))
        .collect()
}

fn run(solver: &mut Solver, puzzle: &Grid, weights: &Weights, opts: &ScoreOptions) -> ScoreOutcome {
    score(solver, puzzle, weights, opts).expect("generated puzzles are consistent")
}

/// The given counts measured, and how many puzzles of each.
const LEVELS: [(usize, usize); 11] = [
    (30, 200),
    (28, 200),
    (26, 200),
    (24, 200),
    (22, 20),
    (21, 20),
    (20, 20),
    (19, 20),
    (18, 20),
    (17, 20),
    (0, 1),
];

/// The fewest givens timed by criterion (sample size 10).
const CRITERION_MIN_GIVENS: usize = 17;

/// The fewest givens for which the report also runs the unpruned search.
const UNPRUNED_MIN_GIVENS: usize = 24;

/// One pass over a set of puzzles.
struct Pass {
    /// Mean seconds per puzzle.
    mean: f64,
    /// The slowest puzzle's seconds.
    max: f64,
    /// Mean nodes per puzzle.
    nodes: f64,
    /// Whether any run hit the node limit.
    capped: bool,
    /// Each puzzle's best score (-1: none).
    bests: Vec<i64>,
}

/// [`measure`] with pruning (a separate symbol for callgrind).
#[inline(never)]
fn measure_pruned(set: &[Grid], weights: &Weights) -> Pass {
    measure(set, weights, &ScoreOptions::default())
}

/// [`measure`] without pruning (a separate symbol for callgrind).
#[inline(never)]
fn measure_unpruned(set: &[Grid], weights: &Weights, node_limit: Option<u64>) -> Pass {
    let opts = ScoreOptions {
        prune: false,
        node_limit,
        ..ScoreOptions::default()
    };
    measure(set, weights, &opts)
}

fn measure(set: &[Grid], weights: &Weights, opts: &ScoreOptions) -> Pass {
    let mut solver = Solver::new();
    let mut nodes = 0u64;
    let mut capped = false;
    let mut bests = Vec::with_capacity(set.len());
    let mut max = 0f64;
    let start = Instant::now();
    for p in set {
        let one = Instant::now();
        let out = run(&mut solver, p, weights, opts);
        max = max.max(one.elapsed().as_secs_f64());
        nodes += out.nodes;
        capped |= !out.proven;
        bests.push(out.best.map_or(-1, |b| b.0));
    }
    let secs = start.elapsed().as_secs_f64();
    let n = set.len() as f64;
    Pass {
        mean: secs / n,
        max,
        nodes: nodes as f64 / n,
        capped,
        bests,
    }
}

fn fmt_time(secs: f64) -> String {
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.2} ms", secs * 1e3)
    } else {
        format!("{:.1} us", secs * 1e6)
    }
}

/// The one-pass table (see the module docs).
fn report(weights: &Weights) {
    let unpruned_cap = std::env::var("SCORE_BENCH_UNPRUNED_MAX_NODES")
        .ok()
        .and_then(|s| s.parse().ok());
    println!("| givens | puzzles | pruned: mean time | pruned: max time | pruned: mean nodes | unpruned: mean time | unpruned: mean nodes | speed-up (time) | node ratio |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let only: Option<Vec<usize>> = std::env::var("SCORE_BENCH_GIVENS")
        .ok()
        .map(|s| s.split(',').filter_map(|g| g.trim().parse().ok()).collect());
    let puzzles_per_level: Option<usize> = std::env::var("SCORE_BENCH_PUZZLES")
        .ok()
        .and_then(|s| s.parse().ok());
    for (givens, count) in LEVELS {
        if only.as_ref().is_some_and(|o| !o.contains(&givens)) {
            continue;
        }
        let count = match puzzles_per_level {
            Some(n) if givens > 0 => n,
            _ => count,
        };
        let set = puzzles(givens, count);
        let pruned = measure_pruned(&set, weights);
        let mark = if pruned.capped { " (capped)" } else { "" };
        let label = if givens == 0 {
            "0 (empty grid)".to_string()
        } else {
            givens.to_string()
        };
        let mut row = format!(
            "| {label} | {count} | {}{mark} | {} | {:.0} |",
            fmt_time(pruned.mean),
            fmt_time(pruned.max),
            pruned.nodes
        );
        let skip_unpruned = std::env::var_os("SCORE_BENCH_SKIP_UNPRUNED").is_some();
        if givens >= UNPRUNED_MIN_GIVENS && !skip_unpruned {
            let plain = measure_unpruned(&set, weights, unpruned_cap);
            if !plain.capped {
                assert_eq!(pruned.bests, plain.bests, "pruning changed a best score");
            }
            let mark = if plain.capped { " (capped)" } else { "" };
            row += &format!(
                " {}{mark} | {:.0} | {:.1}x | {:.0}x |",
                fmt_time(plain.mean),
                plain.nodes,
                plain.mean / pruned.mean,
                plain.nodes / pruned.nodes
            );
        } else {
            row += " - | - | - | - |";
        }
        println!("{row}");
        if givens == 0 {
            let out = run(
                &mut Solver::new(),
                &Grid::empty(),
                weights,
                &ScoreOptions::default(),
            );
            println!(
                "empty grid: best {:?}, proven {}, {} nodes",
                out.best.map(|b| b.0),
                out.proven,
                out.nodes
            );
        }
    }
}

fn benches(c: &mut Criterion, weights: &Weights) {
    let mut solver = Solver::new();
    for (givens, count) in LEVELS {
        if givens < CRITERION_MIN_GIVENS {
            continue;
        }
        let set = puzzles(givens, count);
        let mut group = c.benchmark_group(format!("score/{givens}-givens-x{count}"));
        group.bench_function("pruned", |b| {
            b.iter(|| {
                for p in &set {
                    black_box(run(&mut solver, p, weights, &ScoreOptions::default()));
                }
            })
        });
        if givens >= 28 {
            let opts = ScoreOptions {
                prune: false,
                ..ScoreOptions::default()
            };
            group.bench_function("unpruned", |b| {
                b.iter(|| {
                    for p in &set {
                        black_box(run(&mut solver, p, weights, &opts));
                    }
                })
            });
        }
        group.finish();
    }
    let mut group = c.benchmark_group("score/empty-grid");
    group.bench_function("pruned", |b| {
        b.iter(|| {
            black_box(run(
                &mut solver,
                &Grid::empty(),
                weights,
                &ScoreOptions::default(),
            ))
        })
    });
    group.finish();
}

fn main() {
    let weights = Weights::target();
    if std::env::var_os("SCORE_BENCH_NO_REPORT").is_none() {
        report(&weights);
    }
    if std::env::var_os("SCORE_BENCH_REPORT_ONLY").is_some() {
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c, &weights);
    c.final_summary();
}
