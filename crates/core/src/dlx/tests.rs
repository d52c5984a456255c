//! Tests of the dancing-links engine: known puzzles, edge cases, and
//! cross-checks against the independent bitmask solver on a generated
//! corpus of every status and on random inputs.

use super::*;
use crate::generate::{dig, random_solution};
use crate::rng::Rng;
use crate::solver::Solver;
use crate::testdata::corpus::mixed_corpus;
use crate::testdata::{grid, EASY, HARD, HARD_SOLUTION, PLATINUM, SEVENTEEN, SOLVED};
use proptest::prelude::*;

/// Checks that both engines agree on `puzzle` for limits 1, 2 and 10:
/// same `Err`, same count, every returned solution solves the puzzle, and
/// identical solutions when the puzzle is unique. Returns the count up to
/// 10 (or `None` for contradictory givens).
fn assert_engines_agree(dlx: &mut DlxSolver, bitmask: &mut Solver, puzzle: &Grid) -> Option<u64> {
    let mut unique = false;
    let mut last = None;
    for limit in [1u64, 2, 10] {
        let a = dlx.count_solutions_up_to(puzzle, limit);
        let b = bitmask.count_solutions_up_to(puzzle, limit);
        match (a, b) {
            (Err(x), Err(y)) => {
                assert_eq!(x, y, "{puzzle}");
                assert!(puzzle.first_conflict().is_some());
                last = None;
            }
            (Ok(x), Ok(y)) => {
                assert_eq!(x.solutions, y.solutions, "limit {limit}: {puzzle}");
                assert!(x.solutions <= limit);
                assert_eq!(x.solution.is_some(), x.solutions > 0, "{puzzle}");
                for s in [x.solution, y.solution].into_iter().flatten() {
                    assert!(s.solves(puzzle), "{s} does not solve {puzzle}");
                }
                assert_eq!(x.stats.stopped, x.solutions == limit, "{puzzle}");
                if limit == 2 {
                    unique = x.solutions == 1;
                }
                if unique {
                    assert_eq!(x.solution, y.solution, "{puzzle}");
                }
                last = Some(x.solutions);
            }
            (a, b) => panic!("engines disagree on {puzzle}: dlx {a:?}, bitmask {b:?}"),
        }
    }
    last
}

#[test]
fn solves_known_puzzles_like_the_bitmask_solver() {
    let mut dlx = DlxSolver::new();
    let mut bitmask = Solver::new();
    for p in [EASY, HARD, PLATINUM, SEVENTEEN] {
        let puzzle = grid(p);
        assert_eq!(
            assert_engines_agree(&mut dlx, &mut bitmask, &puzzle),
            Some(1),
            "{p}"
        );
    }
    let out = dlx.solve_first(&grid(HARD)).unwrap();
    assert_eq!(out.solution, Some(grid(HARD_SOLUTION)));
}

#[test]
fn singles_only_puzzle_needs_no_guess() {
    let mut dlx = DlxSolver::new();
    let puzzle = grid(EASY);
    let out = dlx.count_solutions_up_to(&puzzle, 2).unwrap();
    assert_eq!(out.solutions, 1);
    assert_eq!(out.stats.guesses, 0);
    assert_eq!(out.stats.dead_ends, 0);
    // One column choice per blank cell, no backtracking.
    assert_eq!(out.stats.nodes, 81 - puzzle.given_count() as u64);
    assert!(!out.stats.stopped);
}

#[test]
fn hard_puzzle_needs_guesses_and_meets_dead_ends() {
    let mut dlx = DlxSolver::new();
    let out = dlx.count_solutions_up_to(&grid(PLATINUM), 2).unwrap();
    assert!(out.stats.guesses > 10, "{:?}", out.stats);
    assert!(out.stats.dead_ends > 0);
    assert!(out.stats.nodes > out.stats.guesses);
}

#[test]
fn complete_grid_is_its_own_solution() {
    let mut dlx = DlxSolver::new();
    let g = grid(SOLVED);
    let out = dlx.count_solutions_up_to(&g, 5).unwrap();
    assert_eq!(out.solutions, 1);
    assert_eq!(out.solution, Some(g));
    assert_eq!(out.stats.nodes, 0);
}

#[test]
fn empty_grid_counts_stop_at_limit() {
    let mut dlx = DlxSolver::new();
    for limit in [0u64, 1, 2, 10, 1000] {
        let out = dlx.count_solutions_up_to(&Grid::empty(), limit).unwrap();
        assert_eq!(out.solutions, limit.max(1));
        assert!(out.stats.stopped);
        assert!(out.solution.unwrap().is_valid_solution());
    }
}

#[test]
fn deadly_rectangle_has_exactly_two_solutions() {
    // Find four cells in two rows of one band and two columns holding
    // a,b / b,a: blanking only them leaves exactly two solutions.
    let mut solver = Solver::new();
    let mut dlx = DlxSolver::new();
    let mut found = 0;
    for seed in 0..50 {
        let s = random_solution(&mut Rng::new(seed), &mut solver);
        let rect =
            (0..9)
                .flat_map(|r1| (0..9).map(move |c1| (r1, c1)))
                .find_map(|(r1, c1)| {
                    let r2 = (r1 / 3) * 3 + (r1 + 1) % 3;
                    (0..9).find_map(|c2| {
                        let (a, b) = (s.get(r1 * 9 + c1), s.get(r1 * 9 + c2));
                        (c2 != c1 && s.get(r2 * 9 + c1) == b && s.get(r2 * 9 + c2) == a)
                            .then_some([r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2])
                    })
                });
        let Some(cells) = rect else { continue };
        let mut p = s;
        for c in cells {
            p.set(c, 0);
        }
        let out = dlx.count_solutions_up_to(&p, 10).unwrap();
        assert_eq!(out.solutions, 2, "{p}");
        assert!(!out.stats.stopped);
        found += 1;
    }
    assert!(found >= 5, "only {found} rectangles found");
}

#[test]
fn contradictory_givens_are_reported_not_searched() {
    let mut dlx = DlxSolver::new();
    let mut g = grid(EASY);
    g.set(0, 3); // 3 is already in row 0
    let err = dlx.count_solutions_up_to(&g, 2).unwrap_err();
    assert_eq!(Some(err), g.first_conflict());
}

#[test]
fn consistent_but_unsolvable_has_no_solution() {
    let mut cells = [0u8; 81];
    for d in 1..=8u8 {
        cells[d as usize] = d;
    }
    cells[9 * 4] = 9;
    let g = Grid::from_cells(cells).unwrap();
    let mut dlx = DlxSolver::new();
    let out = dlx.count_solutions_up_to(&g, 2).unwrap();
    assert_eq!(out.solutions, 0);
    assert_eq!(out.solution, None);
    assert_eq!(out.stats.dead_ends, 1);
    assert_eq!(out.stats.nodes, 1);
}

#[test]
fn reuse_after_a_stopped_search_gives_fresh_results() {
    let mut fresh = DlxSolver::new();
    let expected = fresh.count_solutions_up_to(&grid(PLATINUM), 2).unwrap();
    let mut reused = DlxSolver::new();
    reused.count_solutions_up_to(&Grid::empty(), 3).unwrap();
    reused.solve_first(&grid(HARD)).unwrap();
    let mut bad = grid(EASY);
    bad.set(0, 3);
    assert!(reused.count_solutions_up_to(&bad, 2).is_err());
    assert_eq!(
        reused.count_solutions_up_to(&grid(PLATINUM), 2).unwrap(),
        expected
    );
}

#[test]
fn engines_agree_on_a_mixed_corpus() {
    // A few thousand puzzles in release builds; fewer in debug builds.
    let n = if cfg!(debug_assertions) { 200 } else { 3000 };
    let corpus = mixed_corpus(2024, n);
    let mut dlx = DlxSolver::new();
    let mut bitmask = Solver::new();
    let mut tally = [0usize; 4]; // contradictory, unsolvable, unique, multiple
    for puzzle in &corpus {
        match assert_engines_agree(&mut dlx, &mut bitmask, puzzle) {
            None => tally[0] += 1,
            Some(0) => tally[1] += 1,
            Some(1) => tally[2] += 1,
            Some(_) => tally[3] += 1,
        }
    }
    assert_eq!(tally, [n / 4; 4]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn engines_agree_on_random_holes(seed in any::<u64>(), givens in 0usize..=81) {
        let mut bitmask = Solver::new();
        let mut rng = Rng::new(seed);
        let solution = random_solution(&mut rng, &mut bitmask);
        let puzzle = dig(&mut rng, &solution, givens);
        let mut dlx = DlxSolver::new();
        let count = assert_engines_agree(&mut dlx, &mut bitmask, &puzzle);
        prop_assert!(count.unwrap_or(0) >= 1);
    }

    #[test]
    fn engines_agree_on_random_givens(
        givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..30),
    ) {
        let mut puzzle = Grid::empty();
        for &(c, d) in &givens {
            puzzle.set(c, d);
        }
        let mut dlx = DlxSolver::new();
        let mut bitmask = Solver::new();
        let count = assert_engines_agree(&mut dlx, &mut bitmask, &puzzle);
        prop_assert_eq!(count.is_none(), puzzle.first_conflict().is_some());
    }
}
