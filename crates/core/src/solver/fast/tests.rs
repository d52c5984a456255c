//! The fast path against the crate's independent singles propagator
//! (`crate::singles`) and against the search without it.

use super::*;
use crate::engine::Engine;
use crate::grid::Grid;
use crate::rng::Rng;
use crate::singles::solved_by_singles;
use crate::solver::wide::Narrow;
use crate::solver::Solver;
use crate::testdata::corpus::mixed_corpus;
use crate::testdata::{grid, plain_singles, EASY, HARD, PLATINUM, SEVENTEEN, SOLVED};
use proptest::prelude::*;

/// The fast path on `puzzle` whatever its givens: `None` for clashing
/// givens, else what `run` returns with the grid it placed.
fn singles(puzzle: &Grid) -> Option<(Result<bool, Contradiction>, Grid)> {
    let mut s = Singles::blank();
    let givens = Lanes::givens(puzzle.cells());
    let mut covered = [Lanes::ZERO; 9];
    Narrow::covered(&givens, &mut covered).ok()?;
    s.load(&givens, filled(&givens), &covered);
    let result = s.run::<Narrow>();
    let mut g = Grid::default();
    for (d, placed) in s.placed.iter().enumerate() {
        for c in 0..81 {
            if placed.0[c / 27] >> (c % 27) & 1 != 0 {
                assert_eq!(g.get(c), 0, "cell {c} placed twice");
                g.set(c, d as u8 + 1);
            }
        }
    }
    Some((result, g))
}

/// The cells `givens` fill.
fn filled(givens: &[Lanes; 9]) -> Lanes {
    givens.iter().fold(Lanes::ZERO, |a, g| a.or(*g))
}

/// [`Singles::worth_trying`] on `givens`.
fn worth_trying(givens: &[Lanes; 9]) -> bool {
    Singles::worth_trying(filled(givens))
}

/// A Kaggle-like puzzle: a complete grid from the generator's stream,
/// cells removed in random order while singles still solve it, down to
/// `givens` (or as far as they go).
fn kaggle_like(seed: u64, givens: usize, solver: &mut Solver) -> Grid {
    let mut rng = Rng::for_item(seed, 0);
    let solution = crate::generate::random_solution(&mut rng, solver);
    let mut order: [usize; 81] = std::array::from_fn(|c| c);
    rng.shuffle(&mut order);
    let mut puzzle = solution;
    let mut left = 81;
    for c in order {
        if left == givens {
            break;
        }
        let d = puzzle.get(c);
        puzzle.set(c, 0);
        if solved_by_singles(&puzzle) {
            left -= 1;
        } else {
            puzzle.set(c, d);
        }
    }
    puzzle
}

/// Checks the fast path against `plain_singles` on `p`: the same grid at
/// a stall, the solution when singles solve it, and a contradiction
/// exactly when `plain_singles` finds one (clashing givens are refused at
/// loading).
fn agrees_with_plain_singles(p: &Grid) {
    let want = plain_singles(p);
    match singles(p) {
        None => {
            assert!(p.first_conflict().is_some(), "refused without a clash");
            assert_eq!(want, None);
        }
        Some((Err(Contradiction), _)) => assert_eq!(want, None, "{p:?}"),
        Some((Ok(full), g)) => {
            assert_eq!(Some(g), want, "{p:?}");
            assert_eq!(full, g.is_complete());
            assert!(g
                .cells()
                .iter()
                .zip(p.cells())
                .all(|(a, b)| *b == 0 || a == b));
        }
    }
}

#[test]
fn solves_what_singles_solve_and_stalls_where_they_stall() {
    let (ok, solved) = singles(&grid(EASY)).unwrap();
    assert_eq!(ok, Ok(true));
    assert!(solved.is_valid_solution() && solved.solves(&grid(EASY)));
    assert_eq!(singles(&grid(SOLVED)).unwrap().0, Ok(true));
    for hard in [HARD, PLATINUM, SEVENTEEN] {
        let (ok, g) = singles(&grid(hard)).unwrap();
        assert_eq!(ok, Ok(false), "{hard}");
        assert!(!g.is_complete());
        assert_eq!(Some(g), plain_singles(&grid(hard)));
    }
    // The empty grid: nothing to place.
    assert_eq!(singles(&Grid::empty()).unwrap(), (Ok(false), Grid::empty()));
}

#[test]
fn detects_contradictions() {
    // Two equal givens in a row: refused at loading.
    let mut clash = Grid::empty();
    clash.set(0, 3);
    clash.set(5, 3);
    assert!(singles(&clash).is_none());
    // A cell with no candidate left: row 0 holds 1..8, column 8 a 9.
    let mut empty_cell = Grid::empty();
    for c in 0..8 {
        empty_cell.set(c, c as u8 + 1);
    }
    empty_cell.set(9 * 4 + 8, 9);
    assert_eq!(singles(&empty_cell).unwrap().0, Err(Contradiction));
    // A digit with no place in a house: 1s in boxes 1 and 2 and in
    // columns 1 and 2 leave row 0 only cell 0 for a 1, and a 2 is there.
    let mut no_place = Grid::empty();
    for (row, col) in [(1, 4), (2, 7), (4, 1), (7, 2)] {
        no_place.set(9 * row + col, 1);
    }
    no_place.set(0, 2);
    assert!(no_place.first_conflict().is_none());
    assert_eq!(singles(&no_place).unwrap().0, Err(Contradiction));
    // Both as the independent propagator finds them.
    agrees_with_plain_singles(&no_place);
    agrees_with_plain_singles(&empty_cell);
}

#[test]
fn the_bounds_on_givens() {
    let givens = Lanes::givens(grid(HARD).cells());
    assert!(!worth_trying(&givens), "HARD has under 28 givens");
    assert!(worth_trying(&Lanes::givens(grid(SOLVED).cells())));
    // Serg's benchmark: 34 givens, 5 of them in band 0 and in stack 0.
    let serg = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let serg = crate::parse_line(serg.as_bytes()).unwrap();
    assert!(!worth_trying(&Lanes::givens(serg.cells())));
    // A full grid left with 6 givens in band 2, then in stack 2.
    let solved = grid(SOLVED);
    for keep in [|c: usize| c < 54, |c: usize| c % 9 < 6] {
        let mut cells = *solved.cells();
        let mut left: Vec<usize> = (0..81).filter(|&c| !keep(c)).collect();
        left.truncate(left.len() - 6);
        for c in left {
            cells[c] = 0;
        }
        let mut fewer = cells;
        fewer[(0..81).rev().find(|&c| !keep(c) && cells[c] != 0).unwrap()] = 0;
        assert!(worth_trying(&Lanes::givens(&cells)));
        assert!(!worth_trying(&Lanes::givens(&fewer)));
    }
}

/// Every puzzle of a mixed corpus (every status, clashes included): the
/// fast path agrees with the independent propagator, and the search with
/// the fast path gives the same outcomes and counters as without it, both
/// on the puzzles it chooses and forced onto every puzzle.
#[test]
fn agrees_with_plain_singles_and_leaves_the_search_as_it_was() {
    let mut fast = Solver::new();
    let mut forced = Solver::new().always_fast_path();
    let mut usual = Solver::new().without_fast_path();
    let mut puzzles = mixed_corpus(11, 300);
    let mut solver = Solver::new();
    puzzles.extend((0..100).map(|i| kaggle_like(i, 30 + i as usize % 11, &mut solver)));
    // Kaggle-like puzzles with one given blanked more: often no longer
    // solved by singles, some with several solutions.
    puzzles.extend((0..100).map(|i| {
        let mut p = kaggle_like(1000 + i, 28 + i as usize % 6, &mut solver);
        let c = (0..81).rev().find(|&c| p.get(c) != 0).unwrap();
        p.set(c, 0);
        p
    }));
    for p in &puzzles {
        agrees_with_plain_singles(p);
        let first = usual.solve_first(p);
        let count = usual.count_solutions_up_to(p, 2);
        for solver in [&mut fast, &mut forced] {
            assert_eq!(solver.solve_first(p), first, "{p:?}");
            assert_eq!(solver.count_solutions_up_to(p, 2), count, "{p:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random Kaggle-like puzzles: solved by the fast path exactly, to the
    /// full solver's unique solution, with no guess.
    #[test]
    fn kaggle_like_puzzles_are_solved_exactly(seed in any::<u64>(), givens in 30usize..=40) {
        let mut solver = Solver::new();
        let p = kaggle_like(seed, givens, &mut solver);
        prop_assert!(solved_by_singles(&p));
        let (ok, g) = singles(&p).unwrap();
        prop_assert_eq!(ok, Ok(true));
        let out = solver.count_solutions_up_to(&p, 2).unwrap();
        prop_assert_eq!(out.solutions, 1);
        prop_assert_eq!(out.solution, Some(g));
        prop_assert_eq!(out.stats.guesses, 0);
        prop_assert_eq!(out.stats.nodes, 1);
    }
}
