//! In-memory throughput measurement for `batchdoku bench`: puzzles are
//! parsed once, then solved again and again for at least a minimum time on
//! each thread count, with no I/O in the timed part.

use std::time::{Duration, Instant};

use serde::Serialize;

use batchdoku_batch::EngineKind;
use batchdoku_core::Grid;
use batchdoku_core::Rng;
use batchdoku_core::SimdPath;
use batchdoku_core::Transform;

/// Small sets are repeated up to this many puzzles so that every thread has
/// work and warm-up does not dominate.
const MIN_WORKING_SET: usize = 20_000;

/// What one measurement found.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// Threads used.
    pub threads: usize,
    /// Puzzles solved in the timed runs.
    pub solved: u64,
    /// Seconds timed.
    pub seconds: f64,
    /// Puzzles per second.
    pub puzzles_per_second: f64,
    /// Microseconds per puzzle per thread (`threads / rate`).
    pub micros_per_puzzle: f64,
    /// Percent of puzzles solved without a guess.
    pub no_guess_percent: f64,
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    solved: u64,
    no_guess: u64,
    guesses: u64,
}

/// The puzzles a measurement solves: `puzzles` repeated into a working set
/// of at least 20,000, each copy then [`permuted`] if a seed is given.
pub fn working_set(puzzles: &[Grid], permute: Option<u64>) -> Vec<Grid> {
    let reps = if puzzles.is_empty() {
        0
    } else {
        MIN_WORKING_SET.div_ceil(puzzles.len())
    };
    let set = puzzles.repeat(reps);
    match permute {
        None => set,
        Some(seed) => permuted(&set, seed),
    }
}

/// Each puzzle replaced by a random equivalent one: digits relabelled,
/// rows and columns shuffled within their bands and stacks, bands and
/// stacks shuffled, maybe transposed; entry `i` is drawn from `seed` and
/// `i` alone. Published lists are often kept in a canonical form (low
/// digits and dense rows first), which favours a search that tries low
/// digits in the top rows first; permuting removes that bias, as tdoku's
/// benchmark (the one behind most published solver rates) does by
/// default.
pub fn permuted(puzzles: &[Grid], seed: u64) -> Vec<Grid> {
    puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| Transform::random(&mut Rng::for_item(seed, i as u64)).apply(p))
        .collect()
}

/// Solves `set` (see [`working_set`]) with `threads` threads, each owning
/// an engine (the mrv solver on `simd`, an available path) and a
/// contiguous share, looping until `min_time` has passed.
/// Invalid puzzles count as solved (they are rejected quickly, as in a
/// real run).
pub fn measure(
    set: &[Grid],
    threads: usize,
    count_limit: u64,
    engine: EngineKind,
    simd: SimdPath,
    min_time: Duration,
) -> Measurement {
    let threads = threads.max(1);
    let share = set.len().div_ceil(threads).max(1);
    let start = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = set
            .chunks(share)
            .map(|part| {
                s.spawn(move || {
                    let mut engine = engine.build_on(simd);
                    let mut tally = Tally::default();
                    let mut first_pass = true;
                    loop {
                        for p in part {
                            // Only the count is measured: no solution is
                            // kept (the `sudoku` crate's count keeps none
                            // either).
                            let outcome = if count_limit <= 1 {
                                engine.solve_first(p)
                            } else {
                                engine.count_solutions_only(p, count_limit)
                            };
                            tally.solved += 1;
                            // Guess statistics from exactly one pass over
                            // the working set, so they do not depend on
                            // where the clock stopped each thread.
                            if first_pass {
                                let guesses = outcome.map_or(0, |o| o.stats.guesses);
                                tally.guesses += guesses;
                                tally.no_guess += u64::from(guesses == 0);
                            }
                        }
                        first_pass = false;
                        if start.elapsed() >= min_time {
                            return tally;
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let total = tallies.iter().fold(Tally::default(), |a, t| Tally {
        solved: a.solved + t.solved,
        no_guess: a.no_guess + t.no_guess,
        guesses: a.guesses + t.guesses,
    });
    let rate = total.solved as f64 / seconds;
    let n = set.len().max(1) as f64;
    Measurement {
        threads,
        solved: total.solved,
        seconds,
        puzzles_per_second: rate,
        micros_per_puzzle: if rate > 0.0 {
            threads as f64 * 1e6 / rate
        } else {
            0.0
        },
        no_guess_percent: 100.0 * total.no_guess as f64 / n,
        guesses_per_puzzle: total.guesses as f64 / n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_every_thread_and_counts_guesses() {
        let easy = batchdoku_core::parse_line(
            b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        )
        .unwrap();
        let m = measure(
            &working_set(&[easy], None),
            2,
            2,
            EngineKind::Mrv,
            SimdPath::detect(),
            Duration::from_millis(1),
        );
        assert_eq!(m.threads, 2);
        assert!(m.solved >= 20_000);
        // The first of the forum's hardest list: no solver here does it
        // without guessing.
        let hard = batchdoku_core::parse_line(
            b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        )
        .unwrap();
        let one = measure(
            &working_set(&[easy, hard], None),
            1,
            2,
            EngineKind::Mrv,
            SimdPath::detect(),
            Duration::from_millis(1),
        );
        let two = measure(
            &working_set(&[easy, hard], None),
            2,
            2,
            EngineKind::Mrv,
            SimdPath::detect(),
            Duration::from_millis(30),
        );
        assert_eq!(one.no_guess_percent, 50.0);
        assert_eq!(
            one.guesses_per_puzzle, two.guesses_per_puzzle,
            "independent of threads and time"
        );
        assert_eq!(m.no_guess_percent, 100.0);
        assert_eq!(m.guesses_per_puzzle, 0.0);
        assert!(m.puzzles_per_second > 0.0);
    }

    #[test]
    fn permuted_working_set_holds_equivalent_puzzles() {
        let lines = [
            &b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"[..],
            &b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"[..],
        ];
        let puzzles: Vec<Grid> = lines
            .iter()
            .map(|l| batchdoku_core::parse_line(l).unwrap())
            .collect();
        let plain = working_set(&puzzles, None);
        assert_eq!(plain.len(), 20_000);
        assert!(plain
            .iter()
            .zip(puzzles.iter().cycle())
            .all(|(a, b)| a == b));
        let permuted = working_set(&puzzles, Some(3));
        assert_eq!(permuted, working_set(&puzzles, Some(3)), "reproducible");
        assert_ne!(permuted, working_set(&puzzles, Some(4)));
        let mut canon = batchdoku_core::Canonicalizer::new();
        let forms: Vec<Grid> = puzzles.iter().map(|p| canon.canonical(p).0).collect();
        let mut changed = 0;
        for (i, p) in permuted.iter().take(200).enumerate() {
            let original = &puzzles[i % puzzles.len()];
            assert_eq!(canon.canonical(p).0, forms[i % puzzles.len()], "entry {i}");
            assert_eq!(p.given_count(), original.given_count());
            changed += usize::from(p != original);
        }
        assert!(changed >= 190, "only {changed} of 200 entries were changed");
    }
}
