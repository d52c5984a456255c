//! The class key of `split` and `overlap`: which records must stay on one
//! side of a split. By puzzle, the key is the puzzle's canonical form (as
//! `dedupe` defines a class); by solution grid, it is the canonical form of
//! the puzzle's unique solution, so that puzzles whose solutions are
//! equivalent share a key. One function serves both commands.

use crate::output::{Row, Status};
use batchdoku_core::solver::Solver;
use batchdoku_core::Canonicalizer;
use batchdoku_core::Engine;
use batchdoku_core::Grid;

use super::canon::check_givens;

/// What makes records belong together in `split` and `overlap` (`--by`).
///
/// With [`ClassBy::Grid`], a puzzle with exactly one solution is keyed by
/// the canonical form of that solution grid; a puzzle with no solution or
/// with several falls back to its own canonical form (so it still stays
/// with its equivalent copies), and its row's status says which it is
/// (`unsolvable`, `multiple`). A complete grid has one solution, so the two
/// kinds of keys never meet.
///
/// # Example
/// ```
/// use batchdoku_batch::ClassBy;
/// assert_eq!("grid".parse::<ClassBy>(), Ok(ClassBy::Grid));
/// assert_eq!(ClassBy::ALL.map(ClassBy::as_str), ["puzzle", "grid"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ClassBy {
    /// The puzzle's canonical form (the classes of `dedupe`).
    #[default]
    Puzzle,
    /// The canonical form of the puzzle's unique solution grid.
    Grid,
}

impl ClassBy {
    /// Every choice, the default first.
    pub const ALL: [ClassBy; 2] = [ClassBy::Puzzle, ClassBy::Grid];

    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ClassBy::Puzzle => "puzzle",
            ClassBy::Grid => "grid",
        }
    }

    /// What the choice means, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            ClassBy::Puzzle => "equivalent puzzles (same canonical form) stay together",
            ClassBy::Grid => {
                "puzzles whose unique solutions are equivalent grids stay together \
                 (no or several solutions: by the puzzle)"
            }
        }
    }
}

impl std::str::FromStr for ClassBy {
    type Err = String;

    /// Parses a name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<ClassBy, String> {
        batchdoku_core::internal::parse_name("class key", &ClassBy::ALL, ClassBy::as_str, s)
    }
}

/// Per-worker state of [`class_key`]: a canonicalizer and a solver (a
/// pair of public types, so that the jobs' `Scratch` is nameable).
pub(crate) type KeyScratch = (Canonicalizer, Solver);

/// Fresh [`KeyScratch`], once per worker.
pub(crate) fn key_scratch() -> KeyScratch {
    (Canonicalizer::new(), Solver::new())
}

/// The grid that stands for a puzzle's class under `by`, and fills the
/// row: `canonical` is that grid; the status is `ok`, or after a solve
/// (by grid, or when `solve` asks for one) `unique`, `multiple` or
/// `unsolvable`, with `solutions` (counted up to two), `solution` and
/// `guesses` as `solve -k 2` gives them. `None`, and the row invalid, for
/// contradictory givens, which belong to no class.
pub(crate) fn class_key(
    by: ClassBy,
    scratch: &mut KeyScratch,
    puzzle: &Grid,
    row: &mut Row,
    solve: bool,
) -> Option<Grid> {
    if !check_givens(puzzle, row) {
        return None;
    }
    let mut unique = None;
    if solve || by == ClassBy::Grid {
        // Givens were checked: the solver finds no conflict.
        let outcome = scratch.1.count_solutions_up_to(puzzle, 2).ok()?;
        row.solutions = outcome.solutions;
        row.solution = outcome.solution;
        row.guesses = outcome.stats.guesses;
        row.status = match outcome.solutions {
            0 => Status::Unsolvable,
            1 => Status::Unique,
            _ => Status::Multiple,
        };
        if outcome.solutions == 1 {
            unique = outcome.solution;
        }
    }
    let stands_for = match (by, unique) {
        (ClassBy::Grid, Some(solution)) => solution,
        _ => *puzzle,
    };
    let form = scratch.0.canonical(&stands_for).0;
    row.canonical = Some(form);
    Some(form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::testdata::{grid, EASY, HARD};
    use batchdoku_core::Rng;
    use batchdoku_core::Transform;

    fn key(by: ClassBy, puzzle: &Grid) -> (Option<Grid>, Status) {
        let mut row = Row::default();
        let key = class_key(by, &mut key_scratch(), puzzle, &mut row, false);
        (key, row.status)
    }

    #[test]
    fn by_puzzle_is_the_canonical_form_of_the_puzzle() {
        let p = grid(EASY);
        let moved = Transform::random(&mut Rng::new(4)).apply(&p);
        assert_eq!(key(ClassBy::Puzzle, &p), key(ClassBy::Puzzle, &moved));
        assert_eq!(key(ClassBy::Puzzle, &p).1, Status::Ok);
        assert_ne!(
            key(ClassBy::Puzzle, &p).0,
            key(ClassBy::Puzzle, &grid(HARD)).0
        );
    }

    #[test]
    fn by_grid_joins_different_puzzles_with_equivalent_solutions() {
        let p = grid(EASY);
        let mut row = Row::default();
        class_key(ClassBy::Grid, &mut key_scratch(), &p, &mut row, false);
        let solution = row.solution.unwrap();
        // Another puzzle of the same solution: one more given, moved.
        let mut more = p;
        let cell = (0..81).find(|&i| p.get(i) == 0).unwrap();
        more.set(cell, solution.get(cell));
        let more = Transform::random(&mut Rng::new(8)).apply(&more);
        assert_ne!(key(ClassBy::Puzzle, &p).0, key(ClassBy::Puzzle, &more).0);
        assert_eq!(key(ClassBy::Grid, &p), key(ClassBy::Grid, &more));
        assert_eq!(key(ClassBy::Grid, &p).1, Status::Unique);
        // The key is the canonical form of the solution itself.
        assert_eq!(key(ClassBy::Grid, &p).0, key(ClassBy::Puzzle, &solution).0);
    }

    #[test]
    fn by_grid_without_a_unique_solution_falls_back_to_the_puzzle() {
        let empty = Grid::default();
        assert_eq!(
            key(ClassBy::Grid, &empty),
            (key(ClassBy::Puzzle, &empty).0, Status::Multiple)
        );
        let mut bad = Grid::default();
        bad.set(0, 1);
        bad.set(1, 1);
        assert_eq!(key(ClassBy::Grid, &bad), (None, Status::Invalid));
    }

    #[test]
    fn names_parse() {
        assert_eq!("PUZZLE".parse::<ClassBy>(), Ok(ClassBy::Puzzle));
        assert!("solution".parse::<ClassBy>().is_err());
    }
}
