//! Benchmark of the scored search (branch-and-bound over the one search
//! loop) against the same loop with pruning off.
//!
//! The puzzles are made deterministically: complete grids obtained from a
//! fixed solution by relabelling digits and permuting bands, rows, stacks
//! and columns (and transposing), then blanked down to a given count with a
//! fixed seed. They need not have a unique solution (most have many, which
//! is what makes the scored search hard).
//!
//! Before the criterion groups run, a one-pass report prints a markdown
//! table: per given count, the mean time and mean nodes per puzzle with and
//! without pruning and the speed-up, then the empty grid under a node limit
//! (set `SCORE_BENCH_UNPRUNED_MAX_NODES` to cap the unpruned runs, a capped
//! run is marked; set `SCORE_BENCH_NO_REPORT` to skip the report). Node
//! counts are deterministic; times depend on the machine's load. Criterion
//! then times the pruned search per given count (22 givens and up), the
//! unpruned one at 28 and 30 givens, and the empty grid under a node limit.

use std::time::{Duration, Instant};

use batchdoku::generate::{dig, random_solution, Rng};
use batchdoku::score::{score, ScoreOptions, ScoreOutcome, Weights};
use batchdoku::{Grid, Solver};
use criterion::{black_box, Criterion};

/// `count` puzzles with exactly `givens` givens each (fixed seed per
/// given count, so every run sees the same puzzles).
fn puzzles(givens: usize, count: usize) -> Vec<Grid> {
    let mut rng = Rng::new(0x5C0E_0000 + givens as u64);
    let mut solver = Solver::new();
    (0..count)
        .map(|_| {
            let solution = random_solution(&mut rng, &mut solver);
            dig(&mut rng, &solution, givens)
        })
        .collect()
}

fn run(solver: &mut Solver, puzzle: &Grid, weights: &Weights, opts: &ScoreOptions) -> ScoreOutcome {
    score(solver, puzzle, weights, opts).expect("generated puzzles are consistent")
}

/// The given counts measured, and how many puzzles of each. Below 22
/// givens a puzzle takes seconds, so those only appear in the one-pass
/// report, with few puzzles.
const LEVELS: [(usize, usize); 9] = [
    (30, 20),
    (28, 20),
    (26, 20),
    (24, 20),
    (22, 10),
    (21, 5),
    (20, 3),
    (18, 2),
    (17, 2),
];

/// The fewest givens timed by criterion (sample size 10).
const CRITERION_MIN_GIVENS: usize = 22;

/// The fewest givens for which the report also runs the unpruned search.
const UNPRUNED_MIN_GIVENS: usize = 24;

/// Mean seconds and mean nodes per puzzle over `set`; also whether any run
/// hit the node limit.
fn measure(set: &[Grid], weights: &Weights, opts: &ScoreOptions) -> (f64, f64, bool, Vec<i64>) {
    let mut solver = Solver::new();
    let mut nodes = 0u64;
    let mut capped = false;
    let mut bests = Vec::with_capacity(set.len());
    let start = Instant::now();
    for p in set {
        let out = run(&mut solver, p, weights, opts);
        nodes += out.nodes;
        capped |= !out.proven;
        bests.push(out.best.map_or(-1, |b| b.0));
    }
    let secs = start.elapsed().as_secs_f64();
    let n = set.len() as f64;
    (secs / n, nodes as f64 / n, capped, bests)
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
    println!("| givens | puzzles | pruned: mean time | pruned: mean nodes | unpruned: mean time | unpruned: mean nodes | speed-up (time) |");
    println!("|---|---|---|---|---|---|---|");
    for (givens, count) in LEVELS {
        let set = puzzles(givens, count);
        let (t, n, capped, bests) = measure(&set, weights, &ScoreOptions::default());
        let mark = if capped { " (capped)" } else { "" };
        let mut row = format!("| {givens} | {count} | {}{mark} | {n:.0} |", fmt_time(t));
        if givens >= UNPRUNED_MIN_GIVENS {
            let opts = ScoreOptions {
                prune: false,
                node_limit: unpruned_cap,
                ..ScoreOptions::default()
            };
            let (tu, nu, capped_u, bests_u) = measure(&set, weights, &opts);
            if !capped_u {
                assert_eq!(bests, bests_u, "pruning changed a best score");
            }
            let mark = if capped_u { " (capped)" } else { "" };
            row += &format!(" {}{mark} | {nu:.0} | {:.0}x |", fmt_time(tu), tu / t);
        } else {
            row += " - | - | - |";
        }
        println!("{row}");
    }
    let limit = 1_000_000;
    let opts = ScoreOptions {
        node_limit: Some(limit),
        ..ScoreOptions::default()
    };
    let mut solver = Solver::new();
    let start = Instant::now();
    let out = run(&mut solver, &Grid::empty(), weights, &opts);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "empty grid: {} nodes in {} ({:.2} M nodes/s), proven {}, best so far {:?}",
        out.nodes,
        fmt_time(secs),
        out.nodes as f64 / secs / 1e6,
        out.proven,
        out.best.map(|b| b.0)
    );
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
    let opts = ScoreOptions {
        node_limit: Some(100_000),
        ..ScoreOptions::default()
    };
    group.bench_function("100k-nodes", |b| {
        b.iter(|| black_box(run(&mut solver, &Grid::empty(), weights, &opts)))
    });
    group.finish();
}

fn main() {
    let weights = Weights::target();
    if std::env::var_os("SCORE_BENCH_NO_REPORT").is_none() {
        report(&weights);
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c, &weights);
    c.final_summary();
}
