//! Solver-only throughput on the public benchmark sets in `../shared/data/`
//! (sets that are absent are skipped), single thread, in first-solution and
//! count-to-2 (uniqueness) modes, for both engines (bitmask `mrv/*` and
//! dancing links `dlx/*`). Puzzles are parsed before timing.
//!
//! `cargo bench --bench solver` ; set `BATCHDOKU_DATA` to read the sets from
//! elsewhere, `BATCHDOKU_BENCH_SAMPLE` to change how many puzzles of each set
//! are timed (default 2000, spread evenly over the file).

use std::time::Duration;

use batchdoku::batch::EngineKind;
mod common;

use common::{data_dir, load, sample, sample_size, SETS};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn solver(c: &mut Criterion) {
    let n = sample_size();
    for (engine, mode) in [
        (EngineKind::Mrv, 1u64),
        (EngineKind::Mrv, 2),
        (EngineKind::Dlx, 1),
        (EngineKind::Dlx, 2),
    ] {
        let mode_name = if mode == 1 { "first" } else { "count2" };
        let mut group = c.benchmark_group(format!("{}/{mode_name}", engine.as_str()));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_millis(500));
        for set in SETS {
            let Some(puzzles) = load(set).map(|all| sample(&all, n)) else {
                eprintln!("skipping {set}: not found under {}", data_dir().display());
                continue;
            };
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            let mut s = engine.build();
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
