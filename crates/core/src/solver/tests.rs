//! Unit and property tests of the search: known puzzles, every status, and
//! counts checked against a deliberately naive reference counter.

use super::node::digit_bit;
use super::*;
use crate::testdata::{grid, naive_fits, EASY, HARD, PLATINUM, SOLVED};
use proptest::prelude::*;

/// Counts solutions up to `limit` by trying every digit in every blank cell
/// in order: slow, obviously correct.
fn naive_count(g: &mut Grid, limit: u64) -> u64 {
    let Some(cell) = (0..81).find(|&c| g.get(c) == 0) else {
        return 1;
    };
    let mut count = 0;
    for d in 1..=9u8 {
        if naive_fits(g, cell, d) {
            g.set(cell, d);
            count += naive_count(g, limit - count);
            g.set(cell, 0);
            if count >= limit {
                break;
            }
        }
    }
    count
}

/// [`naive_count`], branching on a blank cell with the fewest digits that
/// fit (by the same naive rule): still no propagation and no bitmasks, but
/// quick enough for most sparse random givens, where trying cells in order
/// can take exponential time to find that nothing fits. Gives up (`None`)
/// after `budget` nodes, as a rare sparse puzzle can still take long.
fn naive_count_fewest_first(g: &mut Grid, limit: u64, budget: &mut u32) -> Option<u64> {
    *budget = budget.checked_sub(1)?;
    let mut best: Option<(usize, usize)> = None;
    for cell in (0..81).filter(|&c| g.get(c) == 0) {
        let fits = (1..=9u8).filter(|&d| naive_fits(g, cell, d)).count();
        if best.is_none_or(|(_, n)| fits < n) {
            best = Some((cell, fits));
        }
        if fits == 0 {
            break;
        }
    }
    let Some((cell, _)) = best else {
        return Some(1);
    };
    let mut count = 0;
    for d in 1..=9u8 {
        if naive_fits(g, cell, d) {
            g.set(cell, d);
            let below = naive_count_fewest_first(g, limit - count, budget);
            g.set(cell, 0);
            count += below?;
            if count >= limit {
                break;
            }
        }
    }
    Some(count)
}

#[test]
fn solves_known_puzzles() {
    let mut solver = Solver::new();
    for p in [EASY, HARD, PLATINUM] {
        let puzzle = grid(p);
        let out = solver.solve_first(&puzzle).unwrap();
        assert_eq!(out.solutions, 1, "{p}");
        assert!(out.solution.unwrap().solves(&puzzle), "{p}");
        let out = solver.count_solutions_up_to(&puzzle, 2).unwrap();
        assert_eq!(out.solutions, 1, "{p} should be unique");
    }
}

#[test]
fn easy_puzzle_needs_no_guess() {
    let mut solver = Solver::new();
    let out = solver.solve_first(&grid(EASY)).unwrap();
    assert_eq!(out.stats.guesses, 0);
    assert_eq!(out.stats.nodes, 1);
}

#[test]
fn puzzle_solved_by_singles_needs_no_guess() {
    // Its root propagation goes below the stack pass's threshold of empty
    // cells for nodes below the root and still needs column hidden
    // singles there: the root must run the stack pass on any grid.
    let p = ".................1..2..3.4......2.....4.5....16......7...7.4.....8...32.9..1.....";
    let puzzle = grid(p);
    assert!(crate::solved_by_singles(&puzzle));
    let mut solver = Solver::new();
    let out = solver.count_solutions_up_to(&puzzle, 2).unwrap();
    assert_eq!(
        (out.solutions, out.stats.guesses),
        (1, 0),
        "{:?}",
        out.stats
    );
}

#[test]
fn hard_puzzle_needs_guesses() {
    let mut solver = Solver::new();
    let out = solver.count_solutions_up_to(&grid(PLATINUM), 2).unwrap();
    assert!(out.stats.guesses > 10, "{:?}", out.stats);
    assert!(out.stats.dead_ends > 0);
}

#[test]
fn complete_grid_is_its_own_solution() {
    let mut solver = Solver::new();
    let g = grid(SOLVED);
    let out = solver.count_solutions_up_to(&g, 5).unwrap();
    assert_eq!(out.solutions, 1);
    assert_eq!(out.solution, Some(g));
}

#[test]
fn empty_grid_counts_stop_at_limit() {
    let mut solver = Solver::new();
    for limit in [1, 2, 10, 1000] {
        let out = solver.count_solutions_up_to(&Grid::empty(), limit).unwrap();
        assert_eq!(out.solutions, limit);
        assert!(out.stats.stopped);
        assert!(out.solution.unwrap().is_valid_solution());
    }
}

/// A count that keeps no solution counts and searches exactly as one that
/// keeps the first, on every status and at several limits, on both
/// engines.
#[test]
fn counting_without_a_solution_matches_counting_with_one() {
    let mut solver = Solver::new();
    let mut dlx = crate::DlxSolver::new();
    let mut puzzles: Vec<Grid> = [HARD, EASY, PLATINUM, SOLVED].map(grid).to_vec();
    puzzles.push(Grid::empty());
    puzzles.extend(crate::testdata::corpus::mixed_corpus(5, 20));
    for p in &puzzles {
        for limit in [0, 1, 2, 10] {
            let engines: [&mut dyn Engine; 2] = [&mut solver, &mut dlx];
            for engine in engines {
                let full = engine.count_solutions_up_to(p, limit);
                let only = engine.count_solutions_only(p, limit);
                match (full, only) {
                    (Ok(full), Ok(only)) => {
                        assert_eq!((only.solutions, only.stats), (full.solutions, full.stats));
                        assert_eq!(only.solution, None);
                    }
                    (full, only) => assert_eq!(full.err(), only.err()),
                }
            }
        }
    }
}

#[test]
fn multiple_solutions_are_counted() {
    // A "deadly rectangle": two rows of one band and two columns holding
    // a, b / b, a. Blanking its four cells leaves exactly two solutions
    // (the grid and the grid with a and b swapped there): every other
    // cell is filled, so each blank can only take a or b.
    let full = grid(SOLVED);
    let at = |r: usize, c: usize| full.get(r * 9 + c);
    let rect = (0..9)
        .flat_map(|r1| ((r1 + 1)..(r1 / 3 * 3 + 3)).map(move |r2| (r1, r2)))
        .flat_map(|(r1, r2)| {
            (0..9).flat_map(move |c1| ((c1 + 1)..9).map(move |c2| (r1, r2, c1, c2)))
        })
        .find(|&(r1, r2, c1, c2)| at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1))
        .expect("the test grid has a deadly rectangle");
    let (r1, r2, c1, c2) = rect;
    let mut g = full;
    for cell in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
        g.set(cell, 0);
    }
    assert_eq!(naive_count(&mut g.clone(), 100), 2, "rectangle {rect:?}");
    let mut solver = Solver::new();
    let out = solver.count_solutions_up_to(&g, 100).unwrap();
    assert_eq!(out.solutions, 2);
    // A limit of 2 stops at the second; a limit of 1 finds one.
    assert_eq!(solver.count_solutions_up_to(&g, 2).unwrap().solutions, 2);
    assert_eq!(solver.count_solutions_up_to(&g, 1).unwrap().solutions, 1);
}

#[test]
fn contradictory_givens_are_reported_not_searched() {
    let mut solver = Solver::new();
    let mut g = grid(EASY);
    g.set(0, 3); // 3 is already in row 0
    let err = solver.count_solutions_up_to(&g, 2).unwrap_err();
    assert_eq!(err.digit, 3);
}

#[test]
fn consistent_but_unsolvable_has_no_solution() {
    // Row 0 holds 1..8 in cells 1..8 and column 0 holds a 9: cell 0 has no
    // candidate though no unit repeats a digit.
    let mut cells = [0u8; 81];
    for d in 1..=8u8 {
        cells[d as usize] = d;
    }
    cells[9 * 4] = 9;
    let g = Grid::from_cells(cells).unwrap();
    assert!(g.first_conflict().is_none());
    let mut solver = Solver::new();
    let out = solver.count_solutions_up_to(&g, 2).unwrap();
    assert_eq!(out.solutions, 0);
    assert_eq!(out.solution, None);
}

#[test]
fn high_digit_preference_changes_first_solution_of_empty_grid() {
    struct High(Option<Grid>);
    impl Visitor for High {
        fn solution(&mut self, node: &Node) -> Flow {
            let grid = &node.to_grid();
            self.0 = Some(*grid);
            Flow::Stop
        }
        fn choose_digit(&self, _cell: usize, candidates: u16) -> usize {
            15 - candidates.leading_zeros() as usize
        }
    }
    let mut solver = Solver::new();
    let mut v = High(None);
    solver.search(&Grid::empty(), &mut v).unwrap();
    let g = v.0.unwrap();
    assert!(g.is_valid_solution());
    assert_eq!(&g.to_line()[..9], b"987654321");
}

#[test]
fn a_visitor_can_narrow_nodes_and_pick_the_branch_cell() {
    // The visitor knows one solution of an empty grid and, at every node,
    // removes every candidate that disagrees with it (`Flow::Narrowed`) in
    // the first 63 cells, and asks the search to branch on the last empty
    // cell. The search must then find that solution among others that
    // agree with it on the first 63 cells, and branch only where asked.
    struct Steer {
        target: Grid,
        narrowed: u32,
        chosen: Option<usize>,
        branches: std::cell::Cell<u32>,
        found: Vec<Grid>,
    }
    impl Visitor for Steer {
        fn enter(&mut self, node: &mut Node) -> Flow {
            let empty: Vec<usize> = (0..81).filter(|&c| node.candidates(c) != 0).collect();
            self.chosen = empty.last().copied();
            let mut changed = false;
            for &c in empty.iter().filter(|&&c| c < 63) {
                let keep = self.target.get(c);
                let m = node.candidates(c);
                for d in 1..=9u8 {
                    if d != keep && m & digit_bit(d) != 0 {
                        node.eliminate(c, d);
                        changed = true;
                    }
                }
            }
            if changed {
                self.narrowed += 1;
                return Flow::Narrowed;
            }
            Flow::Continue
        }
        fn solution(&mut self, node: &Node) -> Flow {
            let grid = &node.to_grid();
            self.found.push(*grid);
            Flow::Continue
        }
        fn choose_cell(&self) -> Option<usize> {
            self.chosen
        }
        fn choose_digit(&self, cell: usize, candidates: u16) -> usize {
            assert_eq!(Some(cell), self.chosen, "branched elsewhere");
            self.branches.set(self.branches.get() + 1);
            candidates.trailing_zeros() as usize
        }
    }
    let target = shuffled_solution(3);
    let mut steer = Steer {
        target,
        narrowed: 0,
        chosen: None,
        branches: std::cell::Cell::new(0),
        found: Vec::new(),
    };
    Solver::new().search(&Grid::empty(), &mut steer).unwrap();
    assert!(steer.found.contains(&target));
    assert!(
        steer.found.len() > 1,
        "the free cells should leave a choice"
    );
    for g in &steer.found {
        assert!(g.is_valid_solution());
        assert!((0..63).all(|c| g.get(c) == target.get(c)));
    }
    assert!(steer.narrowed >= 1 && steer.branches.get() >= 1);
}

#[test]
fn solver_is_reusable_across_puzzles() {
    let mut solver = Solver::new();
    let a = solver.solve_first(&grid(PLATINUM)).unwrap();
    let _ = solver.solve_first(&grid(EASY)).unwrap();
    let b = solver.solve_first(&grid(PLATINUM)).unwrap();
    assert_eq!(a, b);
}

/// A random complete grid: a fixed solution shuffled by a random
/// validity-preserving transformation (the library's one grid shuffler).
pub(crate) fn shuffled_solution(seed: u64) -> Grid {
    crate::canon::Transform::random(&mut crate::rng::Rng::new(seed)).apply(&grid(SOLVED))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solutions_are_valid_and_counts_match_naive(
        seed in any::<u64>(),
        holes in proptest::collection::vec(0usize..81, 0..60),
        limit in 1u64..5,
    ) {
        let full = shuffled_solution(seed);
        prop_assert!(full.is_valid_solution());
        let mut puzzle = full;
        for &h in &holes {
            puzzle.set(h, 0);
        }
        let mut solver = Solver::new();
        let out = solver.count_solutions_up_to(&puzzle, limit).unwrap();
        prop_assert!(out.solutions >= 1);
        prop_assert!(out.solutions <= limit);
        prop_assert!(out.solution.unwrap().solves(&puzzle));
        let first = solver.solve_first(&puzzle).unwrap();
        prop_assert!(first.solution.unwrap().solves(&puzzle));
        if puzzle.given_count() >= 45 {
            let naive = naive_count(&mut puzzle.clone(), limit);
            prop_assert_eq!(out.solutions, naive);
        }
    }

    #[test]
    fn random_givens_never_panic_and_agree_with_naive(
        givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..30),
    ) {
        let mut puzzle = Grid::empty();
        for &(c, d) in &givens {
            puzzle.set(c, d);
        }
        // The naive rule alone decides whether two givens clash.
        let clash = (0..81).any(|c| puzzle.get(c) != 0 && !naive_fits(&puzzle, c, puzzle.get(c)));
        let mut solver = Solver::new();
        match solver.count_solutions_up_to(&puzzle, 3) {
            Err(_) => prop_assert!(clash, "reported a conflict the naive rule does not see"),
            Ok(out) => {
                prop_assert!(!clash, "searched clashing givens");
                prop_assert!(out.solutions <= 3);
                if let Some(s) = out.solution {
                    prop_assert!(s.solves(&puzzle));
                }
                // A case the naive counter cannot finish within its budget
                // is replaced by a new one (proptest fails the test if that
                // happens too often), so every accepted case is compared.
                let naive = naive_count_fewest_first(&mut puzzle.clone(), 3, &mut 2_000);
                prop_assume!(naive.is_some());
                prop_assert_eq!(Some(out.solutions), naive);
            }
        }
    }
}

/// Every path this build and CPU can run gives the same answers, counts
/// and search statistics as the narrowest one, in first-solution,
/// counting and scored search, on puzzles of every status. A SIMD build on
/// x86-64 without AVX2 or AVX-512 compares fewer paths, which under
/// `CI=true` (a machine with both) is a failure.
#[test]
fn every_available_simd_path_searches_alike() {
    let paths: Vec<SimdPath> = SimdPath::ALL
        .into_iter()
        .filter(|p| p.is_available())
        .collect();
    assert!(paths.contains(&SimdPath::detect()));
    if cfg!(all(feature = "simd", target_arch = "x86_64")) {
        for wide in [SimdPath::Avx2, SimdPath::Avx512] {
            crate::testdata::required(&format!("the {wide} path"), paths.contains(&wide));
        }
    }
    let mut puzzles = crate::testdata::corpus::mixed_corpus(5, 40);
    puzzles.extend([EASY, HARD, PLATINUM].map(grid));
    let weights = crate::score::Weights::target();
    let options = crate::score::ScoreOptions::default();
    let reference = paths[0];
    let mut base = Solver::with_simd(reference).unwrap();
    for &path in &paths[1..] {
        let mut other = Solver::with_simd(path).unwrap();
        assert_eq!(other.simd(), path);
        for (i, p) in puzzles.iter().enumerate() {
            let why = format!("puzzle {i} on {path} against {reference}");
            assert_eq!(other.solve_first(p), base.solve_first(p), "{why}");
            assert_eq!(
                other.count_solutions_up_to(p, 3),
                base.count_solutions_up_to(p, 3),
                "{why}"
            );
            let scored = crate::score::score(&mut other, p, &weights, &options);
            let want = crate::score::score(&mut base, p, &weights, &options);
            assert_eq!(format!("{scored:?}"), format!("{want:?}"), "{why}");
        }
    }
}
