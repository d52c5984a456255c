//! Shared by the benches: where the public benchmark sets live and how to
//! load and sample them.

#![allow(dead_code)] // each bench uses its own subset

use std::path::PathBuf;

use batchdoku::{parse, Grid};

/// The public sets, by file stem, in `../shared/data/` (see SOURCES.md).
pub const SETS: [&str; 8] = [
    "puzzles1_unbiased",
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "top95",
    "hardest",
];

/// `BATCHDOKU_DATA`, or `../shared/data` beside the crate.
pub fn data_dir() -> PathBuf {
    std::env::var_os("BATCHDOKU_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}

/// Every well-formed puzzle of a set, or `None` when the file is absent.
pub fn load(set: &str) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(data_dir().join(format!("{set}.txt"))).ok()?;
    Some(
        text.lines()
            .filter_map(|l| parse::parse_line(l.as_bytes()).ok())
            .collect(),
    )
}

/// Up to `n` puzzles spread evenly over `all`.
pub fn sample(all: &[Grid], n: usize) -> Vec<Grid> {
    let step = (all.len() / n.max(1)).max(1);
    all.iter().step_by(step).take(n).copied().collect()
}

/// `BATCHDOKU_BENCH_SAMPLE` (default 2000): puzzles of each set to time.
pub fn sample_size() -> usize {
    std::env::var("BATCHDOKU_BENCH_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}
