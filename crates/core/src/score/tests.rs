//! Tests of the scored search: the published samples, every outcome
//! (no solution, contradiction, node limit, counting) and a property test
//! against a deliberately naive full enumeration.

use super::*;
use crate::engine::Engine;
use crate::generate::random_solution;
use crate::rng::Rng;
use crate::testdata::naive_fits;
use proptest::prelude::*;

/// The two published samples (rows separated by `|`) and their answers.
const SAMPLES: [(&str, i64); 2] = [
    (
        "7 0 0 9 0 0 0 0 1|1 0 0 0 0 5 9 0 0|0 0 0 2 0 0 0 8 0|0 0 5 0 2 0 0 0 3|0 0 0 0 0 0 6 4 8|\
         4 1 3 0 0 0 0 0 0|0 0 7 0 0 2 0 9 0|2 0 1 0 6 0 8 0 4|0 8 0 5 0 4 0 1 2",
        2829,
    ),
    (
        "0 0 0 7 0 2 4 5 3|9 0 0 0 0 8 0 0 0|7 4 0 0 0 5 0 1 0|1 9 5 0 8 0 0 0 0|0 7 0 0 0 0 0 2 5|\
         0 3 0 5 7 9 1 0 8|0 0 0 6 0 1 0 0 0|0 6 0 9 0 0 0 0 1|0 0 0 0 0 0 0 0 6",
        2852,
    ),
];

/// A grid from digits separated by spaces and `|`.
fn digits(s: &str) -> Grid {
    let cells: Vec<u8> = s
        .split([' ', '|'])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(cells.len(), 81);
    Grid::from_cells(cells.try_into().unwrap()).unwrap()
}

fn run(puzzle: &Grid, weights: &Weights, opts: ScoreOptions) -> ScoreOutcome {
    score(&mut Solver::new(), puzzle, weights, &opts).unwrap()
}

#[test]
fn published_samples() {
    let w = Weights::target();
    for (text, expected) in SAMPLES {
        let puzzle = digits(text);
        let out = run(&puzzle, &w, ScoreOptions::default());
        let (best, grid) = out.best.unwrap();
        assert_eq!(best, expected);
        assert!(out.proven);
        assert!(grid.solves(&puzzle));
        assert_eq!(w.score(&grid), best);
        assert_eq!(out.solutions, None);
        assert!(out.nodes > 0 && out.nodes <= out.stats.nodes);
    }
}

#[test]
fn counting_keeps_the_exact_best_and_matches_the_solver_count() {
    let w = Weights::target();
    let mut solver = Solver::new();
    for (text, expected) in SAMPLES {
        let puzzle = digits(text);
        let opts = ScoreOptions {
            count_solutions: true,
            ..ScoreOptions::default()
        };
        let out = score(&mut solver, &puzzle, &w, &opts).unwrap();
        assert_eq!(out.best.unwrap().0, expected);
        let plain = solver.count_solutions_up_to(&puzzle, u64::MAX).unwrap();
        assert!(plain.solutions > 1);
        assert_eq!(out.solutions, Some(plain.solutions));
        // Counting enumerates everything, so it sees at least as many nodes
        // as the branch-and-bound.
        let pruned = score(&mut solver, &puzzle, &w, &ScoreOptions::default()).unwrap();
        assert!(pruned.nodes <= out.nodes);
    }
}

#[test]
fn unsolvable_puzzle_has_no_best() {
    // Row 0 holds 1..8 in cells 1..8 and column 0 a 9: cell 0 has no
    // candidate, though no unit repeats a digit.
    let mut puzzle = Grid::empty();
    for d in 1..=8u8 {
        puzzle.set(d as usize, d);
    }
    puzzle.set(9 * 4, 9);
    let out = run(&puzzle, &Weights::target(), ScoreOptions::default());
    assert_eq!(out.best, None);
    assert!(out.proven);
}

#[test]
fn contradictory_givens_are_an_error() {
    let mut puzzle = digits(SAMPLES[0].0);
    puzzle.set(1, 7); // 7 is already in cell 0
    let err = score(
        &mut Solver::new(),
        &puzzle,
        &Weights::target(),
        &ScoreOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.digit, 7);
}

#[test]
fn node_limit_gives_best_so_far_unproven() {
    let w = Weights::target();
    let puzzle = digits(SAMPLES[1].0);
    let full = run(&puzzle, &w, ScoreOptions::default());
    assert!(full.nodes > 10, "sample too easy for this test");
    let opts = ScoreOptions {
        node_limit: Some(10),
        ..ScoreOptions::default()
    };
    let out = run(&puzzle, &w, opts);
    assert!(!out.proven);
    assert!(out.stats.stopped);
    assert_eq!(out.nodes, 10);
    let (best, grid) = out.best.expect("the first dive reaches a solution");
    assert!(grid.solves(&puzzle));
    assert_eq!(w.score(&grid), best);
    assert!(best <= SAMPLES[1].1);

    let none = run(
        &puzzle,
        &w,
        ScoreOptions {
            node_limit: Some(0),
            ..ScoreOptions::default()
        },
    );
    assert_eq!((none.best, none.proven, none.nodes), (None, false, 0));

    // Counting, cut short by the limit: no count at all.
    let counting = ScoreOptions {
        node_limit: Some(10),
        count_solutions: true,
        ..ScoreOptions::default()
    };
    let out = run(&puzzle, &w, counting);
    assert!(!out.proven);
    assert_eq!(out.solutions, None);
}

#[test]
fn complete_grid_scores_itself() {
    let w = Weights::target();
    let g = shuffled_solution(7);
    let out = run(&g, &w, ScoreOptions::default());
    assert_eq!(out.best, Some((w.score(&g), g)));
    assert_eq!(out.nodes, 1);
}

#[test]
fn blank_top_band_matches_naive_for_both_signs() {
    // Blanking the whole top band leaves many solutions; the negated
    // weights must find the minimum of the target score, not the maximum.
    let full = shuffled_solution(11);
    let w = Weights::target();
    let neg = Weights::new(w.as_array().map(|x| -x));
    let mut puzzle = full;
    for c in 0..27 {
        puzzle.set(c, 0);
    }
    let hi = run(&puzzle, &w, ScoreOptions::default());
    let lo = run(&puzzle, &neg, ScoreOptions::default());
    let (naive_hi, count) = naive_best(&puzzle, &w);
    let (naive_lo, _) = naive_best(&puzzle, &neg);
    assert!(count > 1);
    assert!(naive_lo.unwrap() > -naive_hi.unwrap());
    assert_eq!(hi.best.unwrap().0, naive_hi.unwrap());
    assert_eq!(lo.best.unwrap().0, naive_lo.unwrap());
}

#[test]
fn extreme_and_large_weights_match_naive() {
    // Weights at the ends of the i32 range (the split is not tuned there,
    // and the fixed-point sums must not overflow), and large ones that are
    // still tuned.
    let extreme: [i32; 81] = std::array::from_fn(|c| match c % 3 {
        0 => i32::MAX,
        1 => i32::MIN,
        _ => (c as i32 - 40) * 50_000_000,
    });
    let large: [i32; 81] = std::array::from_fn(|c| ((c * 7919) % 131_071) as i32 - 65_535);
    for (seed, table) in [(5, extreme), (6, large), (7, large)] {
        let holes: Vec<usize> = (0..81).filter(|c| (c * 37 + seed) % 3 == 0).collect();
        let puzzle = blanked(seed as u64, &holes);
        check_against_naive(&puzzle, &Weights::new(table)).unwrap();
    }
}

/// A random complete grid from the project's seeded generator.
fn shuffled_solution(seed: u64) -> Grid {
    let out = random_solution(&mut Rng::new(seed), &mut Solver::new());
    assert!(out.is_valid_solution());
    out
}

/// The best score and the number of solutions, by trying every digit in
/// every blank cell in order: slow, obviously correct.
fn naive_best(puzzle: &Grid, weights: &Weights) -> (Option<i64>, u64) {
    fn walk(g: &mut Grid, w: &Weights, best: &mut Option<i64>, count: &mut u64) {
        let Some(cell) = (0..81).find(|&c| g.get(c) == 0) else {
            let s: i64 = (0..81)
                .map(|c| i64::from(w.get(c)) * i64::from(g.get(c)))
                .sum();
            *best = Some(best.map_or(s, |b| b.max(s)));
            *count += 1;
            return;
        };
        for d in 1..=9u8 {
            if naive_fits(g, cell, d) {
                g.set(cell, d);
                walk(g, w, best, count);
                g.set(cell, 0);
            }
        }
    }
    let (mut best, mut count) = (None, 0);
    walk(&mut puzzle.clone(), weights, &mut best, &mut count);
    (best, count)
}

fn check_against_naive(puzzle: &Grid, weights: &Weights) -> Result<(), TestCaseError> {
    let (naive, naive_count) = naive_best(puzzle, weights);
    let mut solver = Solver::new();
    let out = score(&mut solver, puzzle, weights, &ScoreOptions::default()).unwrap();
    prop_assert!(out.proven);
    prop_assert_eq!(out.best.map(|b| b.0), naive);
    let (best, grid) = out.best.unwrap();
    prop_assert!(grid.solves(puzzle));
    prop_assert_eq!(weights.score(&grid), best);

    let counted = ScoreOptions {
        count_solutions: true,
        ..ScoreOptions::default()
    };
    let out = score(&mut solver, puzzle, weights, &counted).unwrap();
    prop_assert_eq!(out.solutions, Some(naive_count));
    prop_assert_eq!(out.best.map(|b| b.0), naive);

    let unpruned = ScoreOptions {
        prune: false,
        ..ScoreOptions::default()
    };
    let out = score(&mut solver, puzzle, weights, &unpruned).unwrap();
    prop_assert_eq!(out.best.map(|b| b.0), naive);
    Ok(())
}

/// A complete grid with the given cells blanked (duplicates allowed).
fn blanked(seed: u64, holes: &[usize]) -> Grid {
    let mut puzzle = shuffled_solution(seed);
    for &h in holes {
        puzzle.set(h, 0);
    }
    puzzle
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn target_best_matches_naive_enumeration(
        seed in any::<u64>(),
        holes in proptest::sample::subsequence((0..81).collect::<Vec<usize>>(), 10..=35),
    ) {
        check_against_naive(&blanked(seed, &holes), &Weights::target())?;
    }

    #[test]
    fn random_weights_best_matches_naive_enumeration(
        seed in any::<u64>(),
        holes in proptest::sample::subsequence((0..81).collect::<Vec<usize>>(), 10..=35),
        table in proptest::collection::vec(-20i32..=20, 81),
    ) {
        let weights = Weights::new(table.try_into().unwrap());
        check_against_naive(&blanked(seed, &holes), &weights)?;
    }
}
