//! Solver-only throughput on the public benchmark sets in `../shared/data/`
//! (sets that are absent are skipped), single thread, in first-solution and
//! count-to-2 (uniqueness) modes. Puzzles are parsed before timing.
//!
//! `cargo bench --bench solver` ; set `BATCHDOKU_DATA` to read the sets from
//! elsewhere, `BATCHDOKU_BENCH_SAMPLE` to change how many puzzles of each set
//! are timed (default 2000, spread evenly over the file).

use std::path::PathBuf;
use std::time::Duration;

use batchdoku::{parse, Engine, Grid, Solver};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const SETS: [&str; 8] = [
    "puzzles1_unbiased",
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "top95",
    "hardest",
];

fn data_dir() -> PathBuf {
    std::env::var_os("BATCHDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Up to `n` puzzles spread evenly over the set, or `None` when absent.
fn load(set: &str, n: usize) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(data_dir().join(format!("{set}.txt"))).ok()?;
    let all: Vec<Grid> = text
        .lines()
        .filter_map(|l| parse::parse_line(l.as_bytes()).ok())
        .collect();
    let step = (all.len() / n.max(1)).max(1);
    Some(all.into_iter().step_by(step).take(n).collect())
}

fn solver(c: &mut Criterion) {
    let n = std::env::var("BATCHDOKU_BENCH_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    for mode in [1u64, 2] {
        let mut group = c.benchmark_group(if mode == 1 { "mrv/first" } else { "mrv/count2" });
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_millis(500));
        for set in SETS {
            let Some(puzzles) = load(set, n) else {
                eprintln!("skipping {set}: not found under {}", data_dir().display());
                continue;
            };
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            let mut s = Solver::new();
            group.bench_with_input(BenchmarkId::from_parameter(set), &puzzles, |b, ps| {
                b.iter(|| {
                    let mut found = 0;
                    for p in ps {
                        found += s.count_solutions_up_to(p, mode).map_or(0, |o| o.solutions);
                    }
                    found
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, solver);
criterion_main!(benches);
