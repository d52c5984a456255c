//! Measures the rater's speed on one thread: rates every puzzle of the
//! file `RATE_FILE` (default: the workspace's `data/sample.txt`, which the
//! crate has as `benches/sample.txt`: a symbolic link in the repository, a
//! copy in the packaged crate), the first 81 characters of each line, with
//! a budget of 20 million work units each; `RATE_LIMIT=n` keeps the first
//! `n` puzzles.
//!
//! `RATE_FILE=../shared/data/puzzles1_unbiased.txt cargo bench -p
//! batchdoku-rate --bench rate` reports puzzles per second (criterion's
//! element throughput). Puzzles the ladder cannot finish or that run
//! over the budget count like the others (their work is done too).

use batchdoku_core::{parse_line, Grid};
use batchdoku_rate::{Budget, Rater};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// The sample rated when `RATE_FILE` is not set.
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/sample.txt");

/// The work units each puzzle may spend.
const BUDGET: u64 = 20_000_000;

/// The puzzles of `RATE_FILE` (or the sample), at most `RATE_LIMIT`.
fn puzzles() -> (String, Vec<Grid>) {
    let path = std::env::var("RATE_FILE").unwrap_or_else(|_| SAMPLE.to_string());
    let limit: usize = std::env::var("RATE_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let grids = text
        .lines()
        .filter_map(|l| l.get(..81).and_then(|p| parse_line(p.as_bytes()).ok()))
        .take(limit)
        .collect();
    (path, grids)
}

/// Rates the file's puzzles one after the other on one thread.
fn rate_file(c: &mut Criterion) {
    let (path, grids) = puzzles();
    assert!(!grids.is_empty(), "{path}: no puzzle");
    let mut group = c.benchmark_group("rate");
    group.sample_size(10);
    group.throughput(Throughput::Elements(grids.len() as u64));
    let mut rater = Rater::new();
    let name = std::path::Path::new(&path)
        .file_name()
        .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
    group.bench_function(name, |b| {
        b.iter(|| {
            for grid in &grids {
                let _ = black_box(rater.rate(grid, Budget::new(BUDGET)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, rate_file);
criterion_main!(benches);
