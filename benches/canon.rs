//! Canonical-form (minlex) throughput, single thread, one reused
//! [`Canonicalizer`]. Puzzles are parsed before timing. Sets: the tiered
//! sets committed in `data/bench/` (compiled in), the public sets of
//! `../shared/data/` that are present (a line on stderr says which were
//! used and which skipped; see `common`), then complete grids (generated
//! with a fixed seed) and sparse multi-solution puzzles, the cases with
//! the most ties.
//!
//! `cargo bench --bench canon`. Before criterion runs, a one-pass report
//! prints puzzles/s over each whole set, how many puzzles are already in
//! canonical form and how many distinct forms the set has (skip it with
//! `CANON_BENCH_NO_REPORT`). `BATCHDOKU_DATA` reads the public sets from
//! elsewhere; `BATCHDOKU_BENCH_SAMPLE` sets how many puzzles of each set
//! criterion times (default 2000, spread evenly over the file).

use std::time::{Duration, Instant};

use batchdoku_core::{Canonicalizer, Grid, Rng};
mod common;

use common::{dig, public_sets, sample, sample_size, solutions, tiers};
use criterion::{black_box, BenchmarkId, Criterion, Throughput};

/// Generated sets: `n / 10` complete grids (the band-by-band path of
/// `canon/complete.rs`, a few microseconds each; 2 ms before issue 42,
/// when the first row tied under all 1296 column orders), and `n` puzzles
/// dug to 8-16 givens (many solutions, many empty rows: the tie-heavy
/// puzzles).
fn generated(n: usize) -> Vec<(&'static str, Vec<Grid>)> {
    let mut rng = Rng::new(0xCA_B0_0C);
    let grids = solutions(0xCA_B0_0C, (n / 10).max(1));
    let sparse: Vec<Grid> = solutions(0xCA_B0_0D, n)
        .iter()
        .map(|g| {
            let givens = 8 + rng.below(9) as usize;
            dig(&mut rng, g, givens)
        })
        .collect();
    vec![("complete-grids", grids), ("sparse-8-16-givens", sparse)]
}

fn rate(canon: &mut Canonicalizer, set: &[Grid]) -> f64 {
    let start = Instant::now();
    for p in set {
        black_box(canon.canonical(black_box(p)));
    }
    set.len() as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let n = sample_size();
    let mut sets = tiers();
    sets.extend(public_sets("canon bench"));
    sets.extend(generated(n).into_iter().map(|(s, g)| (s.to_string(), g)));
    let mut canon = Canonicalizer::new();
    if std::env::var_os("CANON_BENCH_NO_REPORT").is_none() {
        println!("| set | puzzles | puzzles/s (one thread) | already canonical | distinct forms |");
        println!("|---|---|---|---|---|");
        for (name, all) in &sets {
            let r = rate(&mut canon, all);
            let forms: Vec<Grid> = all.iter().map(|p| canon.canonical(p).0).collect();
            let fixed = all.iter().zip(&forms).filter(|(p, c)| p == c).count();
            let distinct = forms.iter().collect::<std::collections::HashSet<_>>().len();
            println!("| {name} | {} | {r:.0} | {fixed} | {distinct} |", all.len());
        }
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    let mut group = c.benchmark_group("canon");
    for (name, all) in &sets {
        let set = sample(all, n);
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &set, |b, set| {
            b.iter(|| {
                for p in set {
                    black_box(canon.canonical(black_box(p)));
                }
            })
        });
    }
    group.finish();
    c.final_summary();
}
