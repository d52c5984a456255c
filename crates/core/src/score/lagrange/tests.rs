//! Tests of the Lagrangian bound and its fixing against full enumeration.

use super::*;
use crate::generate::random_solution;
use crate::grid::Grid;
use crate::rng::Rng;
use crate::score::Weights;
use crate::solver::{Flow, Node, Solver, Visitor};

/// All solutions of `puzzle` by plain enumeration (the solver's loop with
/// no pruning).
fn all_solutions(puzzle: &Grid) -> Vec<Grid> {
    struct All(Vec<Grid>);
    impl Visitor for All {
        fn solution(&mut self, node: &Node) -> Flow {
            let grid = &node.to_grid();
            self.0.push(*grid);
            Flow::Continue
        }
    }
    let mut all = All(Vec::new());
    Solver::new().search(puzzle, &mut all).unwrap();
    all.0
}

/// A puzzle from the solution seeded by `seed` with up to `blanks` random
/// cells emptied, and the target weights or a random table in -10..=10.
fn random_case(rng: &mut Rng, seed: u64, blanks: u64, target: bool) -> (Grid, Weights) {
    let mut puzzle = random_solution(&mut Rng::new(seed), &mut Solver::new());
    for _ in 0..blanks {
        puzzle.set(rng.below(81) as usize, 0);
    }
    let weights = if target {
        Weights::target()
    } else {
        let table: Vec<i32> = (0..81).map(|_| rng.below(21) as i32 - 10).collect();
        Weights::new(table.try_into().unwrap())
    };
    (puzzle, weights)
}

/// The propagated root of `puzzle` as the bound reads it (`None` when
/// propagation alone solves it).
fn root_cells(puzzle: &Grid) -> Option<Cells> {
    struct Root(Option<Cells>);
    impl Visitor for Root {
        fn enter(&mut self, node: &mut Node) -> Flow {
            self.0 = Some(Cells::of(node));
            Flow::Stop
        }
        fn solution(&mut self, _: &Node) -> Flow {
            Flow::Stop
        }
    }
    let mut root = Root(None);
    Solver::new().search(puzzle, &mut root).unwrap();
    root.0
}

#[test]
fn any_prices_bound_every_solution_and_fixing_keeps_every_optimum() {
    let mut rng = Rng::new(0x5eed_5eed_5eed_5eed);
    let mut dropped = 0;
    let mut exact = 0;
    for round in 0..60u64 {
        let blanks = 45 + rng.below(20);
        let (puzzle, weights) = random_case(&mut rng, round, blanks, round % 3 == 0);
        let solutions = all_solutions(&puzzle);
        let best = solutions.iter().map(|g| weights.score(g)).max().unwrap();
        let Some(cells) = root_cells(&puzzle) else {
            continue; // solved by propagation alone
        };
        // The starting prices, prices tuned on this root (which drop the
        // most), and random ones: all admissible.
        let start = Lagrange::new(weights.as_array());
        let mut tuned = start;
        let mut eval = Eval::new();
        for _ in 0..60 {
            tuned.evaluate(&cells, &mut eval).unwrap();
            if !tuned.step(&eval, best * SCALE + SCALE / 4, 0.7) {
                break;
            }
        }
        let mut random = start;
        for k in 0..27 {
            for d in 0..9 {
                random.price[k][d] += (rng.below(41) as i64 - 20) * SCALE;
            }
        }
        random.refresh();
        for lagrange in [start, tuned, random] {
            let total = lagrange.evaluate(&cells, &mut eval).unwrap();
            assert!(total >= best * SCALE, "bound below the best score");
            exact += usize::from(total < (best + 1) * SCALE);
            // Keep solutions scoring `best`: the threshold is best itself.
            lagrange.fix(&cells, &eval, best * SCALE, |cell, digit| {
                dropped += 1;
                assert_ne!(cells.candidates[cell] >> (digit - 1) & 1, 0);
                for g in &solutions {
                    assert!(
                        g.get(cell) != digit || weights.score(g) < best,
                        "dropped {digit} from cell {cell}, used by an optimal solution"
                    );
                }
            });
        }
    }
    assert!(dropped > 100, "fixing dropped only {dropped} candidates");
    assert!(exact > 40, "tuning closed the bound only {exact} times");
}

#[test]
fn the_bound_is_the_cells_best_profits_plus_the_refunds() {
    // A complete grid with cells 0 and 1 emptied, each left both of their
    // digits as candidates (set by hand, not propagated).
    let grid = random_solution(&mut Rng::new(7), &mut Solver::new());
    let (a, b) = (0, 1);
    let (x, y) = (grid.get(a), grid.get(b));
    let mut cells = Cells::EMPTY;
    for c in 2..81 {
        cells.values[c] = grid.get(c);
    }
    cells.candidates[a] = 1 << (x - 1) | 1 << (y - 1);
    cells.candidates[b] = cells.candidates[a];
    let weights = Weights::new([1; 81]);
    let mut lagrange = Lagrange::new(weights.as_array());
    lagrange.price = [[0; 9]; 27];
    lagrange.refresh();
    let (high, low) = (i64::from(x.max(y)), i64::from(x.min(y)));
    let given: i64 = (2..81).map(|c| i64::from(grid.get(c))).sum();
    // Zero prices: both cells take the high digit.
    let total = lagrange.evaluate(&cells, &mut Eval::new()).unwrap();
    assert_eq!(total, (given + 2 * high) * SCALE);
    // Price the high digit in the row (refunded once, as it is missing
    // there) and both cells weigh it against the low one.
    lagrange.price[0][high as usize - 1] = 5 * SCALE;
    lagrange.refresh();
    let mut eval = Eval::new();
    let total = lagrange.evaluate(&cells, &mut eval).unwrap();
    let each = (high - 5).max(low);
    assert_eq!(total, (given + 5 + 2 * each) * SCALE);
    // Forcing the other digit costs its reduced cost; with the threshold
    // at the bound, every candidate but the best goes.
    let mut dropped = Vec::new();
    lagrange.fix(&cells, &eval, total, |c, d| dropped.push((c, d)));
    if high - 5 != low {
        let worse = if high - 5 > low { low } else { high } as u8;
        assert_eq!(dropped, [(a, worse), (b, worse)]);
    }
    // No candidate left: no completion.
    cells.candidates[b] = 0;
    assert_eq!(lagrange.evaluate(&cells, &mut Eval::new()), None);
}

#[test]
#[ignore = "a measurement: prints how far the root bound sits above the optimum before and after the sweeps"]
fn root_gap_of_the_benchmark_puzzles() {
    // The benchmark's 200 24-given puzzles (same generator and seed), from
    // the even share and from the starting prices tuned on the empty grid.
    let weights = Weights::target();
    let starts = [
        ("even share", Lagrange::new(weights.as_array())),
        ("tuned start", *weights.start()),
    ];
    let mut rng = Rng::new(0x5C0E_0000 + 24);
    let (mut solver, mut generator) = (Solver::new(), Solver::new());
    let passes = [0, 1, 2, 4, 5, 8, 16];
    let (mut sums, mut closed) = ([[0.0; 7]; 2], [[0; 7]; 2]);
    let count = 200;
    for _ in 0..count {
        let solution = random_solution(&mut rng, &mut generator);
        let puzzle = crate::generate::dig(&mut rng, &solution, 24);
        let opts = crate::score::ScoreOptions::default();
        let best = crate::score::score(&mut solver, &puzzle, &weights, &opts)
            .unwrap()
            .best
            .unwrap()
            .0;
        let cells = root_cells(&puzzle).unwrap();
        for (s, (_, start)) in starts.iter().enumerate() {
            for (i, &n) in passes.iter().enumerate() {
                let mut lagrange = *start;
                lagrange.sweep(&cells, n);
                let total = lagrange.evaluate(&cells, &mut Eval::new()).unwrap();
                assert!(total >= best * SCALE);
                let gap = total as f64 / SCALE as f64 - best as f64;
                sums[s][i] += gap;
                closed[s][i] += usize::from(gap < 1.0);
            }
        }
    }
    for (s, (name, start)) in starts.iter().enumerate() {
        for (i, &n) in passes.iter().enumerate() {
            println!(
                "{name}, {n} passes: mean +{:.2} points, {} of {count} below +1",
                sums[s][i] / count as f64,
                closed[s][i]
            );
        }
        // The empty grid (best 2906).
        let blank = Cells::BLANK;
        for n in passes {
            let mut lagrange = *start;
            lagrange.sweep(&blank, n);
            let total = lagrange.evaluate(&blank, &mut Eval::new()).unwrap();
            println!(
                "{name}, empty grid, {n} passes: {:.2}",
                total as f64 / SCALE as f64
            );
        }
    }
}

#[test]
fn descent_lowers_the_bound_and_keeps_it_admissible() {
    let mut rng = Rng::new(0xde5c_e4d0_0000_0001);
    let (mut lowered, mut open) = (0, 0);
    for round in 0..30u64 {
        let blanks = 60 + rng.below(15);
        let (puzzle, weights) = random_case(&mut rng, 100 + round, blanks, round % 2 == 0);
        let best = all_solutions(&puzzle)
            .iter()
            .map(|g| weights.score(g))
            .max()
            .unwrap();
        let Some(cells) = root_cells(&puzzle) else {
            continue;
        };
        let start = Lagrange::new(weights.as_array());
        let before = start.evaluate(&cells, &mut Eval::new()).unwrap();
        // Only bounds a point or more above the best have room to fall.
        let room = before >= (best + 1) * SCALE;
        open += usize::from(room);
        // A target below the best (out of reach: the factor has to halve)
        // and one just above it.
        for target in [(best - 5) * SCALE, best * SCALE + SCALE / 4] {
            let mut tuned = start;
            tuned.descend(&cells, target, 100);
            let after = tuned.evaluate(&cells, &mut Eval::new()).unwrap();
            assert!(after <= before, "descent raised the bound");
            assert!(after >= best * SCALE, "bound below the best score");
            lowered += usize::from(room && after < before);
            // The profits and the sum match the prices.
            let mut refreshed = tuned;
            refreshed.refresh();
            assert_eq!(refreshed, tuned);
        }
    }
    assert!(open >= 10, "only {open} roots with room");
    assert_eq!(
        lowered,
        2 * open,
        "descent lowered the bound only {lowered} times"
    );
}

/// The parts of an evaluation the search reads.
fn outcome(eval: &Eval) -> (i64, [i64; CELLS], [i64; CELLS], [i64; CELLS], [u8; CELLS]) {
    (eval.total, eval.best, eval.regret, eval.worst, eval.digits)
}

#[test]
fn reevaluation_matches_a_fresh_evaluation() {
    let mut rng = Rng::new(0x4e3e_7a1e_0000_0005);
    let weights = Weights::target();
    let mut lagrange = *weights.start();
    let mut eval = Eval::new();
    let (mut partial, mut none) = (0, 0);
    let mut grid = Grid::empty();
    let mut cells = Cells::EMPTY;
    for round in 0..400u64 {
        // Random cells: a random solution's digits, some cells emptied
        // with random candidates (sometimes none); every fourth round new
        // ones, else a few cells of the round before changed.
        let fresh_cells = round % 4 == 0;
        if fresh_cells {
            grid = random_solution(&mut Rng::new(round), &mut Solver::new());
            for c in 0..CELLS {
                (cells.values[c], cells.candidates[c]) = (grid.get(c), 0);
            }
        }
        for _ in 0..rng.below(if fresh_cells { 70 } else { 5 }) {
            let c = rng.below(81) as usize;
            if rng.below(3) == 0 {
                (cells.values[c], cells.candidates[c]) = (grid.get(c), 0);
            } else {
                cells.values[c] = 0;
                cells.candidates[c] = rng.below(512) as u16 | 1 << (grid.get(c) - 1);
            }
        }
        if rng.below(5) == 0 {
            let c = rng.below(81) as usize;
            (cells.values[c], cells.candidates[c]) = (0, 0);
        }
        if rng.below(10) == 0 {
            // New prices: a full evaluation first, as the search does.
            for price in lagrange.price.iter_mut().flatten() {
                *price += (rng.below(5) as i64 - 2) * SCALE;
            }
            lagrange.refresh();
            lagrange.evaluate(&cells, &mut eval);
        }
        let again = lagrange.reevaluate(&cells, &mut eval);
        let mut fresh = Eval::new();
        let expected = lagrange.evaluate(&cells, &mut fresh);
        assert_eq!(again, expected);
        assert_eq!(lagrange.bound(&cells), expected);
        if expected.is_some() {
            assert_eq!(outcome(&eval), outcome(&fresh));
            partial += 1;
        } else {
            none += 1;
        }
    }
    assert!(
        partial > 200 && none > 20,
        "{partial} evaluated, {none} without candidates"
    );
}

#[test]
fn moved_top_matches_a_fresh_top_two() {
    // Small profits make ties common; every candidate set and move.
    let mut rng = Rng::new(0x5eed_0000_0000_0006);
    let (mut kept, mut recomputed) = (0, 0);
    for _ in 0..200_000 {
        let candidates = (rng.below(511) + 1) as u16;
        let mut profit = [0i64; 9];
        for p in &mut profit {
            *p = rng.below(7) as i64 - 3;
        }
        let before = top_two(&profit, candidates);
        let members: Vec<usize> = (0..9).filter(|d| candidates >> d & 1 != 0).collect();
        let d = members[rng.below(members.len() as u64) as usize];
        let delta = rng.below(9) as i64 - 4;
        profit[d] -= delta;
        let (b1, b2, arg) = top_two(&profit, candidates);
        match moved_top(before, profit[d], delta, d as u8) {
            Some((m1, m2, marg)) => {
                kept += 1;
                assert_eq!((m1, m2), (b1, b2), "{profit:?} {candidates:#x} d {d}");
                // Among tied best digits any may be kept.
                assert!(candidates >> marg & 1 != 0 && profit[marg as usize] == m1);
                let _ = arg;
            }
            None => recomputed += 1,
        }
    }
    // The shortcut must cover most moves, or it saves nothing.
    assert!(
        kept > 3 * recomputed,
        "{kept} kept, {recomputed} recomputed"
    );
}

#[test]
fn changed_cells_finds_exactly_the_cells_that_differ() {
    let mut rng = Rng::new(0x5eed_0000_0000_0007);
    for round in 0..2_000 {
        let mut a = Cells::EMPTY;
        for c in 0..CELLS {
            a.candidates[c] = rng.below(512) as u16;
            a.values[c] = rng.below(10) as u8;
        }
        let mut b = a;
        // From no change to most cells changed, in either array.
        for _ in 0..round % 90 {
            let c = rng.below(CELLS as u64) as usize;
            if rng.below(2) == 0 {
                b.candidates[c] ^= 1 << rng.below(16);
            } else {
                b.values[c] ^= 1 << rng.below(8);
            }
        }
        let mut expected = [0u64; 2];
        for c in 0..CELLS {
            if a.candidates[c] != b.candidates[c] || a.values[c] != b.values[c] {
                expected[c / 64] |= 1 << (c % 64);
            }
        }
        assert_eq!(changed_cells(&a, &b), expected);
        assert_eq!(changed_cells_scalar(&a, &b), expected);
        assert_eq!(changed_cells(&a, &a), [0, 0]);
    }
}
