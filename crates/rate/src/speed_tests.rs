//! Measures the rater's speed on one thread (ignored: run by hand).
//!
//! `RATE_FILE=../shared/data/puzzles1_unbiased.txt cargo test --release
//! --lib rate::speed_tests -- --ignored --nocapture` prints puzzles per
//! second, overall and for the puzzles that need no chain; with
//! `RATE_OUT=path` it also writes each puzzle's `ER/EP/ED` in serate's
//! format and the techniques used (or `-` when it needs a chain).

use super::budget::Budget;
use super::rater::{Rater, Unrated};
use super::technique::Technique;
use batchdoku_core::parse_line;
use std::io::Write;
use std::time::Instant;

#[test]
#[ignore]
fn rate_a_file_and_print_the_speed() {
    let path = std::env::var("RATE_FILE").expect("set RATE_FILE");
    let limit: usize = std::env::var("RATE_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles: Vec<_> = text
        .lines()
        .filter_map(|l| l.get(..81).and_then(|p| parse_line(p.as_bytes()).ok()))
        .take(limit)
        .collect();
    let mut out = std::env::var("RATE_OUT")
        .ok()
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    let mut rater = Rater::new();
    let (mut rated, mut stuck, mut limited) = (0u32, 0u32, 0u32);
    let mut rated_time = 0f64;
    let start = Instant::now();
    for puzzle in &puzzles {
        let t = Instant::now();
        let result = rater.rate(puzzle, Budget::new(20_000_000));
        let took = t.elapsed().as_secs_f64();
        let line = match result {
            Ok(r) => {
                rated += 1;
                rated_time += took;
                let used: Vec<String> = Technique::ALL
                    .iter()
                    .zip(r.counts)
                    .filter(|&(_, n)| n > 0)
                    .map(|(t, n)| format!("{}:{n}", t.name()))
                    .collect();
                format!(
                    "{}.{}/{}.{}/{}.{}\t{}",
                    r.er / 10,
                    r.er % 10,
                    r.ep / 10,
                    r.ep % 10,
                    r.ed / 10,
                    r.ed % 10,
                    used.join(";")
                )
            }
            Err(Unrated::NoTechnique) => {
                stuck += 1;
                "-".to_string()
            }
            Err(Unrated::OutOfBudget) => {
                limited += 1;
                "limit".to_string()
            }
        };
        if let Some(out) = out.as_mut() {
            writeln!(out, "{line}").unwrap();
        }
    }
    let all = start.elapsed().as_secs_f64();
    eprintln!(
        "{} puzzles in {all:.2}s: {:.0}/s overall; {rated} need no chain: {:.0}/s; {stuck} need a chain; {limited} over budget",
        puzzles.len(),
        puzzles.len() as f64 / all,
        f64::from(rated) / rated_time.max(1e-9),
    );
}
