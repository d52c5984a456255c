//! A mixed corpus of every status (unique, multiple, unsolvable,
//! contradictory) for the cross-checks in the unit tests: each item is
//! built to have a status and the tests check that every engine agrees.
//! Compiled for tests only.

use crate::engine::Engine;
use crate::generate::dig::all_cells;
use crate::generate::{dig, minimize_unique, random_solution, unique_puzzle};
use crate::grid::{Grid, CELLS, PEERS};
use crate::rng::Rng;
use crate::solver::Solver;

/// The status a [`corpus_item`] was built to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PuzzleKind {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
    /// Consistent givens (no repeated digit in a unit) but no solution.
    Unsolvable,
    /// Two equal givens in one unit.
    Contradictory,
}

impl PuzzleKind {
    /// The kind of item `index` of a [`mixed_corpus`]: the four kinds in
    /// turn, so each makes up a quarter of the corpus.
    pub fn of_index(index: u64) -> PuzzleKind {
        match index % 4 {
            0 => PuzzleKind::Unique,
            1 => PuzzleKind::Multiple,
            2 => PuzzleKind::Unsolvable,
            _ => PuzzleKind::Contradictory,
        }
    }
}

/// Number of tries before a generator falls back to a construction that
/// cannot fail (in practice the first few tries succeed).
const MAX_TRIES: usize = 64;

/// A puzzle with two or more solutions: a random solution dug to 20..=28
/// givens, retried until the solver finds a second solution (after
/// `MAX_TRIES` misses, dug to 16 givens, which is never unique).
fn multiple_puzzle(rng: &mut Rng, solver: &mut Solver) -> Grid {
    for _ in 0..MAX_TRIES {
        let solution = random_solution(rng, solver);
        let givens = 20 + rng.index(9);
        let puzzle = dig(rng, &solution, givens);
        if matches!(solver.count_solutions_up_to(&puzzle, 2), Ok(o) if o.solutions == 2) {
            return puzzle;
        }
    }
    let solution = random_solution(rng, solver);
    dig(rng, &solution, 16)
}

/// Sets one blank cell of `puzzle` to a digit that no given peer holds and
/// that `avoid` (the solution's digit, or 0 for none) does not hold, so
/// the givens stay consistent. `None` when no such cell and digit exist.
fn add_consistent_given(rng: &mut Rng, puzzle: &Grid, avoid: &Grid) -> Option<Grid> {
    let mut order = all_cells();
    rng.shuffle(&mut order);
    for &cell in &order {
        let cell = usize::from(cell);
        if puzzle.get(cell) != 0 {
            continue;
        }
        let mut used = 1u16 << avoid.get(cell);
        for &p in &PEERS[cell] {
            used |= 1 << puzzle.get(usize::from(p));
        }
        let free: u16 = !used & 0x3FE;
        if free == 0 {
            continue;
        }
        let pick = rng.index(free.count_ones() as usize);
        let digit = (1..=9u8).filter(|&d| free & (1 << d) != 0).nth(pick)?;
        let mut out = *puzzle;
        out.set(cell, digit);
        return Some(out);
    }
    None
}

/// A consistent puzzle without solution. Half the time a multiple-solution
/// puzzle gets one more consistent given, kept only if the solver finds no
/// solution; otherwise (or after `MAX_TRIES` misses) a unique puzzle gets a
/// consistent given that differs from its solution, which can never be
/// solved. Every result is checked with the solver.
fn unsolvable_puzzle(rng: &mut Rng, solver: &mut Solver) -> Grid {
    let is_unsolvable = |solver: &mut Solver, p: &Grid| matches!(solver.count_solutions_up_to(p, 1), Ok(o) if o.solutions == 0);
    if rng.below(2) == 0 {
        for _ in 0..MAX_TRIES {
            let base = multiple_puzzle(rng, solver);
            if let Some(p) = add_consistent_given(rng, &base, &Grid::empty()) {
                if is_unsolvable(solver, &p) {
                    return p;
                }
            }
        }
    }
    for _ in 0..MAX_TRIES {
        let solution = random_solution(rng, solver);
        let min_givens = 20 + rng.index(11);
        let base = minimize_unique(rng, solver, &solution, min_givens);
        if let Some(p) = add_consistent_given(rng, &base, &solution) {
            if is_unsolvable(solver, &p) {
                return p;
            }
        }
    }
    // Cannot be reached in practice; a fixed unsolvable grid: row 1 holds
    // 1..=8 and column 1 holds the 9, so cell 1 has no candidate.
    let mut cells = [0u8; CELLS];
    for d in 1..=8u8 {
        cells[usize::from(d)] = d;
    }
    cells[36] = 9;
    Grid::from_cells(cells).unwrap_or_default()
}

/// A puzzle with two equal givens in one unit: a dug random solution in
/// which a peer of a random given is overwritten with that given's digit.
fn contradictory_puzzle(rng: &mut Rng, solver: &mut Solver) -> Grid {
    let solution = random_solution(rng, solver);
    let givens = 17 + rng.index(20);
    let mut puzzle = dig(rng, &solution, givens);
    let mut order = all_cells();
    rng.shuffle(&mut order);
    if let Some(&cell) = order.iter().find(|&&c| puzzle.get(usize::from(c)) != 0) {
        let cell = usize::from(cell);
        let peer = usize::from(PEERS[cell][rng.index(20)]);
        puzzle.set(peer, puzzle.get(cell));
    }
    puzzle
}

/// Item `index` of the mixed corpus with seed `seed`, and the status it was
/// built to have ([`PuzzleKind::of_index`]). Reproducible on its own: it
/// depends only on `seed` and `index` (through [`Rng::for_item`]).
///
/// - `Unique`: [`unique_puzzle`] with a random target of 20..=30 givens;
/// - `Multiple`: a random solution dug to 20..=28 givens, checked to have
///   a second solution;
/// - `Unsolvable`: see above, checked to have no solution;
/// - `Contradictory`: a dug solution with a given copied onto a peer.
pub fn corpus_item(seed: u64, index: u64, solver: &mut Solver) -> (PuzzleKind, Grid) {
    let mut rng = Rng::for_item(seed, index);
    let kind = PuzzleKind::of_index(index);
    let puzzle = match kind {
        PuzzleKind::Unique => {
            let min_givens = 20 + rng.index(11);
            unique_puzzle(&mut rng, solver, min_givens)
        }
        PuzzleKind::Multiple => multiple_puzzle(&mut rng, solver),
        PuzzleKind::Unsolvable => unsolvable_puzzle(&mut rng, solver),
        PuzzleKind::Contradictory => contradictory_puzzle(&mut rng, solver),
    };
    (kind, puzzle)
}

/// `n` puzzles of every status for cross-checks: items `0..n` of
/// [`corpus_item`] (unique, multiple, unsolvable and contradictory in turn,
/// a quarter each). Same `seed` and `n`, same puzzles.
pub fn mixed_corpus(seed: u64, n: usize) -> Vec<Grid> {
    let mut solver = Solver::new();
    (0..n as u64)
        .map(|i| corpus_item(seed, i, &mut solver).1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_corpus_has_every_status_as_built() {
        let mut solver = Solver::new();
        let n = 80;
        let corpus = mixed_corpus(11, n);
        assert_eq!(corpus.len(), n);
        let mut tally = [0usize; 4];
        for (i, p) in corpus.iter().enumerate() {
            let kind = PuzzleKind::of_index(i as u64);
            let status = match solver.count_solutions_up_to(p, 2) {
                Err(_) => PuzzleKind::Contradictory,
                Ok(o) if o.solutions == 0 => PuzzleKind::Unsolvable,
                Ok(o) if o.solutions == 1 => PuzzleKind::Unique,
                Ok(_) => PuzzleKind::Multiple,
            };
            assert_eq!(status, kind, "item {i}: {p}");
            tally[i % 4] += 1;
        }
        assert_eq!(tally, [n / 4; 4]);
        // Determinism: same seed, same corpus; item i alone matches too.
        assert_eq!(mixed_corpus(11, n), corpus);
        assert_eq!(corpus_item(11, 37, &mut solver).1, corpus[37]);
        assert_ne!(mixed_corpus(12, 8), corpus[..8].to_vec());
    }
}
