//! Shared by the benches: the puzzle sets they time and how to load and
//! sample them.
//!
//! Two kinds of set:
//! - the **tiered sets** committed in `data/bench/` (`easy`, `medium`,
//!   `hard`, a few hundred puzzles each, drawn from the public sets; see
//!   `data/README.md`), compiled into the bench with `include_str!`, so a
//!   fresh clone measures something;
//! - the **public sets** in `../shared/data/` (or `BATCHDOKU_DATA`; see
//!   its SOURCES.md), timed as well when they are present. Each bench
//!   prints one line saying which public sets it found and which it
//!   skipped (point `BATCHDOKU_DATA` at an empty or missing folder to run
//!   the tiered sets alone).
//!
//! Also the complete grids and dug puzzles that the score and canon benches
//! generate with a fixed seed ([`solutions`], [`dig`]).

#![allow(dead_code)] // each bench uses its own subset

use std::path::PathBuf;

use batchdoku_core::{parse_line, ClueTarget, Generator, Grid, Rng, Solver, Spec};

/// The committed tiered sets: name and text (one puzzle per line).
pub const TIERS: [(&str, &str); 3] = [
    ("easy", include_str!("../../data/bench/easy.txt")),
    ("medium", include_str!("../../data/bench/medium.txt")),
    ("hard", include_str!("../../data/bench/hard.txt")),
];

/// The public sets, by file stem, in [`data_dir`] (see its SOURCES.md).
pub const PUBLIC_SETS: [&str; 8] = [
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

/// Every well-formed puzzle of `text`, one per line.
pub fn parse_all(text: &str) -> Vec<Grid> {
    text.lines()
        .filter_map(|l| parse_line(l.as_bytes()).ok())
        .collect()
}

/// The committed tiered sets, parsed.
pub fn tiers() -> Vec<(String, Vec<Grid>)> {
    TIERS
        .iter()
        .map(|(name, text)| (name.to_string(), parse_all(text)))
        .collect()
}

/// Every well-formed puzzle of a public set, or `None` when its file is
/// absent.
pub fn load(set: &str) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(data_dir().join(format!("{set}.txt"))).ok()?;
    Some(parse_all(&text))
}

/// The public sets that are present, whole, after printing (to stderr, as
/// `bench` prints what it is doing) one line naming those used and those
/// skipped.
pub fn public_sets(bench: &str) -> Vec<(String, Vec<Grid>)> {
    let dir = data_dir();
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for set in PUBLIC_SETS {
        match load(set) {
            Some(all) => found.push((set.to_string(), all)),
            None => missing.push(set),
        }
    }
    let names = |v: Vec<&str>| v.join(", ");
    if missing.is_empty() {
        eprintln!(
            "{bench}: public sets used from {}: {}",
            dir.display(),
            names(found.iter().map(|(s, _)| s.as_str()).collect())
        );
    } else if found.is_empty() {
        eprintln!(
            "{bench}: public sets skipped, none under {} (set BATCHDOKU_DATA); timing the tiered sets of data/bench/ only",
            dir.display()
        );
    } else {
        eprintln!(
            "{bench}: public sets used from {}: {}; skipped (not found): {}",
            dir.display(),
            names(found.iter().map(|(s, _)| s.as_str()).collect()),
            names(missing)
        );
    }
    found
}

/// Up to `n` puzzles spread evenly over `all`.
pub fn sample(all: &[Grid], n: usize) -> Vec<Grid> {
    let step = (all.len() / n.max(1)).max(1);
    all.iter().step_by(step).take(n).copied().collect()
}

/// `BATCHDOKU_BENCH_SAMPLE` (default 2000): puzzles of each public set to
/// time.
pub fn sample_size() -> usize {
    std::env::var("BATCHDOKU_BENCH_SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

/// `count` random complete grids: the solutions of a seeded generator's
/// puzzles (dug only down to 40 givens, which is quick), so the benches
/// make no grid of their own.
pub fn solutions(seed: u64, count: usize) -> Vec<Grid> {
    let spec = Spec {
        clues: ClueTarget::AtLeast(40),
        ..Spec::default()
    };
    let generator = Generator::new(spec, seed).expect("a valid spec");
    let mut solver = Solver::new();
    (0..count as u64)
        .map(|i| {
            generator
                .puzzle(i, &mut solver, || false)
                .expect("generation is not stopped")
                .solution
        })
        .collect()
}

/// `solution` with random cells blanked so that exactly `givens` remain
/// (uniqueness is not checked).
pub fn dig(rng: &mut Rng, solution: &Grid, givens: usize) -> Grid {
    let mut order: [u8; 81] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut left = puzzle.given_count();
    for &cell in &order {
        if left <= givens {
            break;
        }
        if puzzle.get(usize::from(cell)) != 0 {
            puzzle.set(usize::from(cell), 0);
            left -= 1;
        }
    }
    puzzle
}
