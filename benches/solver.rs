//! Solver-only throughput, single thread, in first-solution and count-to-2
//! (uniqueness) modes, for both engines (bitmask `mrv/*` and dancing links
//! `dlx/*`). Puzzles are parsed before timing.
//!
//! Sets: always the tiered sets committed in `data/bench/` (`easy`,
//! `medium`, `hard`, compiled in), then the public sets of `../shared/data/`
//! that are present (a line on stderr says which were used and which
//! skipped; see `common`).
//!
//! `cargo bench --bench solver`; `cargo bench --bench solver -- --test`
//! runs each case once (a quick check). Set `BATCHDOKU_DATA` to read the
//! public sets from elsewhere (a missing folder times the tiered sets
//! alone), `BATCHDOKU_BENCH_SAMPLE` to change how many puzzles of each
//! public set are timed (default 2000, spread evenly over the file; the
//! tiered sets are timed whole).

use std::time::Duration;

use batchdoku_core::{DlxSolver, Engine, Solver};
mod common;

use common::{public_sets, sample, sample_size, tiers};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// An engine by its name in the group (`mrv`, `dlx`), fresh for each set.
fn engine(name: &str) -> Box<dyn Engine> {
    match name {
        "mrv" => Box::new(Solver::new()),
        _ => Box::new(DlxSolver::new()),
    }
}

fn solver(c: &mut Criterion) {
    let n = sample_size();
    let mut sets = tiers();
    sets.extend(
        public_sets("solver bench")
            .into_iter()
            .map(|(name, all)| (name, sample(&all, n))),
    );
    eprintln!("solver bench: mrv runs the {} path", Solver::new().simd());
    for (engine_name, mode) in [("mrv", 1u64), ("mrv", 2), ("dlx", 1), ("dlx", 2)] {
        let mode_name = if mode == 1 { "first" } else { "count2" };
        let mut group = c.benchmark_group(format!("{engine_name}/{mode_name}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3))
            .warm_up_time(Duration::from_millis(500));
        for (set, puzzles) in &sets {
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            let mut s = engine(engine_name);
            group.bench_with_input(BenchmarkId::from_parameter(set), puzzles, |b, ps| {
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
