//! Seeded generation of puzzles with exactly one solution, to a [`Spec`]:
//! how many givens, whether every given must be necessary, and which
//! symmetry the pattern of givens keeps.
//!
//! Puzzle `index` depends only on the seed and `index`: it is drawn from
//! its own stream [`Rng::for_item`]`(seed, index)`, so any thread may make
//! it, in any order, and a run can be split or resumed at any index.
//!
//! One attempt draws a random complete grid and removes givens (whole
//! symmetry orbits) in random order, keeping a removal only while the
//! puzzle keeps exactly one solution ([`minimize_by_orbits`]). An attempt
//! whose result misses the spec (too many givens left for `Exactly`, a
//! given that could still go for `minimal`) is dropped and the next one
//! continues the same stream, so the retries are reproducible too.

use crate::engine::Engine;
use crate::generate::{minimize_by_orbits, random_solution, Orbits, Symmetry};
use crate::grid::{Grid, CELLS};
use crate::rng::Rng;
use crate::solver::Solver;

/// Fewest givens of any puzzle with exactly one solution (McGuire, Tugemann
/// and Civario, 2012).
pub const MIN_UNIQUE_GIVENS: usize = 17;

/// Most givens of any known minimal puzzle; `minimal` with a higher target
/// is refused rather than searched for ever.
pub const MAX_KNOWN_MINIMAL_GIVENS: usize = 40;

/// How many givens a generated puzzle keeps.
///
/// # Example
/// ```
/// use batchdoku_core::{ClueTarget, Generator, Solver, Spec};
/// let mut solver = Solver::new();
/// let mut givens = |clues| {
///     let generator = Generator::new(Spec { clues, ..Spec::default() }, 1).unwrap();
///     generator.puzzle(0, &mut solver, || false).unwrap().puzzle.given_count()
/// };
/// assert_eq!(givens(ClueTarget::Exactly(25)), 25);
/// assert!(givens(ClueTarget::AtLeast(30)) >= 30);
/// assert!(givens(ClueTarget::Fewest) >= 17); // as few as digging reaches
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClueTarget {
    /// Remove givens until none (no orbit, with a symmetry) can go without
    /// losing uniqueness.
    #[default]
    Fewest,
    /// As `Fewest`, but stop removing at this many givens: the result has
    /// at least this many.
    AtLeast(usize),
    /// Exactly this many givens (attempts that get stuck above it, or that
    /// could only go below it, are retried).
    Exactly(usize),
}

/// What to generate.
///
/// # Example
/// ```
/// use batchdoku_core::{ClueTarget, Generator, Solver, Spec, Symmetry};
/// let spec = Spec {
///     clues: ClueTarget::AtLeast(30),
///     minimal: false,
///     symmetry: Symmetry::Central,
/// };
/// assert_eq!(spec.validate(), Ok(()));
/// let generator = Generator::new(spec, 7).unwrap();
/// let generated = generator.puzzle(0, &mut Solver::new(), || false).unwrap();
/// assert!(generated.puzzle.given_count() >= 30);
/// assert!(Symmetry::Central.holds_for(&generated.puzzle));
///
/// // The default: as few givens as digging finds, no symmetry.
/// assert_eq!(Spec::default().clues, ClueTarget::Fewest);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// The number of givens.
    pub clues: ClueTarget,
    /// Every given is necessary: removing any single one (whatever the
    /// symmetry) leaves a puzzle with more than one solution. Attempts that
    /// are not minimal are retried; with [`ClueTarget::AtLeast`] and
    /// [`ClueTarget::Exactly`] the count then only filters minimal puzzles.
    pub minimal: bool,
    /// The symmetry of the pattern of givens.
    pub symmetry: Symmetry,
}

/// A [`Spec`] that no puzzle can meet.
///
/// # Example
/// ```
/// use batchdoku_core::{ClueTarget, Generator, Spec, SpecError, Symmetry};
/// let few = Spec { clues: ClueTarget::Exactly(16), ..Spec::default() };
/// assert_eq!(few.validate(), Err(SpecError::CluesOutOfRange(16)));
///
/// // A quarter-turn pattern is made of fours and the centre cell.
/// let odd = Spec {
///     clues: ClueTarget::Exactly(26),
///     symmetry: Symmetry::Quarter,
///     ..Spec::default()
/// };
/// let err = Generator::new(odd, 1).unwrap_err();
/// assert_eq!(err, SpecError::CountBreaksSymmetry { symmetry: Symmetry::Quarter, givens: 26 });
/// assert!(err.to_string().starts_with("quarter symmetry cannot have exactly 26 givens"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// A target below 17 or above 81 givens.
    #[error("{0} givens: a puzzle with exactly one solution has 17 to 81 givens")]
    CluesOutOfRange(usize),
    /// A given count no union of orbits of the symmetry has.
    #[error(
        "{symmetry} symmetry cannot have exactly {givens} givens (its orbits are fours and \
         the centre: the count must be 0 or 1 modulo 4)",
        symmetry = .symmetry.as_str()
    )]
    CountBreaksSymmetry {
        /// The symmetry.
        symmetry: Symmetry,
        /// The asked count.
        givens: usize,
    },
    /// Minimal puzzles with more givens than any known one.
    #[error("no minimal puzzle with more than 40 givens is known; {0} asked")]
    MinimalTooMany(usize),
}

impl Spec {
    /// Checks that puzzles meeting the spec can exist.
    pub fn validate(&self) -> Result<(), SpecError> {
        let target = match self.clues {
            ClueTarget::Fewest => return Ok(()),
            ClueTarget::AtLeast(k) | ClueTarget::Exactly(k) => k,
        };
        if !(MIN_UNIQUE_GIVENS..=CELLS).contains(&target) {
            return Err(SpecError::CluesOutOfRange(target));
        }
        if self.minimal && target > MAX_KNOWN_MINIMAL_GIVENS {
            return Err(SpecError::MinimalTooMany(target));
        }
        if let ClueTarget::Exactly(k) = self.clues {
            if !self.symmetry.allows_given_count(k) {
                return Err(SpecError::CountBreaksSymmetry {
                    symmetry: self.symmetry,
                    givens: k,
                });
            }
        }
        Ok(())
    }

    /// True when `count` givens meet the clue target.
    fn accepts_count(&self, count: usize) -> bool {
        match self.clues {
            ClueTarget::Fewest => true,
            ClueTarget::AtLeast(k) => count >= k,
            ClueTarget::Exactly(k) => count == k,
        }
    }

    /// The count below which digging must not go. `minimal` digs all the
    /// way down (stopping early would leave givens untried) and only then
    /// filters on the count.
    fn dig_floor(&self) -> usize {
        match self.clues {
            _ if self.minimal => 0,
            ClueTarget::Fewest => 0,
            ClueTarget::AtLeast(k) | ClueTarget::Exactly(k) => k,
        }
    }
}

/// A generated puzzle and its one solution.
///
/// # Example
/// ```
/// use batchdoku_core::{Engine, Generated, Generator, Solver, Spec};
/// let mut solver = Solver::new();
/// let generated: Generated = Generator::new(Spec::default(), 42)
///     .unwrap()
///     .puzzle(0, &mut solver, || false)
///     .unwrap();
/// let outcome = solver.count_solutions_up_to(&generated.puzzle, 2).unwrap();
/// assert_eq!(outcome.solutions, 1);
/// assert_eq!(outcome.solution, Some(generated.solution));
/// assert!(generated.attempts >= 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Attempts it took (1 when the first one met the spec).
    pub attempts: u64,
    /// Candidates shown to the acceptance test to find it (with
    /// [`Generator::puzzle_where`]: those that
    /// met the spec, the kept one included; else 0).
    pub tested: u64,
}

/// Why [`Generator::puzzle`] returned no puzzle.
///
/// # Example
/// ```
/// use batchdoku_core::{ClueTarget, GenerateError, Generator, Solver, Spec};
/// // Exactly 17 givens takes many attempts; asking to stop at once
/// // ends the search after the first one.
/// let spec = Spec { clues: ClueTarget::Exactly(17), ..Spec::default() };
/// let generator = Generator::new(spec, 2024).unwrap();
/// let stopped = generator.puzzle(0, &mut Solver::new(), || true);
/// assert_eq!(stopped, Err(GenerateError::Stopped));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The stop predicate asked to stop between two attempts.
    #[error("stopped")]
    Stopped,
    /// The final check failed (a bug): the puzzle was not written.
    #[error("internal error: generated puzzle {0} failed its final uniqueness check")]
    Unverified(u64),
}

/// Makes the puzzles of one seed and [`Spec`]. Shared by every worker
/// (read-only); each worker brings its own [`Solver`].
///
/// Puzzle `index` depends only on the seed, the spec and `index`, so any
/// worker may make any puzzle, in any order. To stream many puzzles in
/// parallel into CSV or JSON lines, see `Batch::generate_to_file` in the
/// crate batchdoku-batch.
///
/// # Example
/// ```
/// use batchdoku_core::{Engine, Generator, Solver, Spec};
/// let generator = Generator::new(Spec::default(), 42).unwrap();
/// let mut solver = Solver::new(); // one per worker
/// let puzzles: Vec<_> = (0..3)
///     .map(|i| generator.puzzle(i, &mut solver, || false).unwrap())
///     .collect();
/// for g in &puzzles {
///     assert_eq!(solver.count_solutions_up_to(&g.puzzle, 2).unwrap().solutions, 1);
///     assert!(g.solution.solves(&g.puzzle));
/// }
/// // Reproducible: puzzle 2 of seed 42 again, made alone by another solver.
/// let again = generator.puzzle(2, &mut Solver::new(), || false).unwrap();
/// assert_eq!(again, puzzles[2]);
/// ```
#[derive(Clone, Debug)]
pub struct Generator {
    spec: Spec,
    seed: u64,
    orbits: Orbits,
}

impl Generator {
    /// A generator for `spec` (validated) and `seed`.
    pub fn new(spec: Spec, seed: u64) -> Result<Generator, SpecError> {
        spec.validate()?;
        Ok(Generator {
            spec,
            seed,
            orbits: spec.symmetry.orbits(),
        })
    }

    /// The spec.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Puzzle number `index` (from 0): the same for a given seed and spec
    /// whoever asks. `should_stop` is polled before each retry, so a slow
    /// spec can be interrupted. The result has been checked with `solver`
    /// to have exactly one solution, the one returned, and to meet the
    /// spec.
    pub fn puzzle(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: impl Fn() -> bool,
    ) -> Result<Generated, GenerateError> {
        self.make(index, solver, &should_stop, None)
    }

    /// Puzzle number `index` as [`puzzle`](Generator::puzzle) makes it,
    /// keeping only a candidate that `accept` takes: every candidate that
    /// meets the spec is shown to `accept` (and counted in
    /// [`Generated::tested`]); one it refuses counts as a failed attempt,
    /// and the next continues the same stream, so the puzzles still depend
    /// only on the seed, the spec, the test and the index. A test that no
    /// puzzle passes never ends: stop it through `should_stop`.
    ///
    /// # Example
    /// ```
    /// use batchdoku_core::{ClueTarget, Generator, Solver, Spec};
    /// let spec = Spec { clues: ClueTarget::AtLeast(30), ..Spec::default() };
    /// let generator = Generator::new(spec, 7).unwrap();
    /// // Keep only puzzles with a given in the centre cell.
    /// let g = generator
    ///     .puzzle_where(0, &mut Solver::new(), || false, |p| p.get(40) != 0)
    ///     .unwrap();
    /// assert_ne!(g.puzzle.get(40), 0);
    /// assert!(g.tested >= 1 && g.tested <= g.attempts);
    /// ```
    pub fn puzzle_where(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: impl Fn() -> bool,
        mut accept: impl FnMut(&Grid) -> bool,
    ) -> Result<Generated, GenerateError> {
        self.make(index, solver, &should_stop, Some(&mut accept))
    }

    /// [`puzzle`](Generator::puzzle) and
    /// [`puzzle_where`](Generator::puzzle_where).
    fn make(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: &dyn Fn() -> bool,
        mut accept: Option<&mut dyn FnMut(&Grid) -> bool>,
    ) -> Result<Generated, GenerateError> {
        let spec = &self.spec;
        let mut rng = Rng::for_item(self.seed, index);
        let mut attempts = 0;
        let mut tested = 0;
        loop {
            if attempts > 0 && should_stop() {
                return Err(GenerateError::Stopped);
            }
            attempts += 1;
            let solution = random_solution(&mut rng, solver);
            let puzzle =
                minimize_by_orbits(&mut rng, solver, &solution, &self.orbits, spec.dig_floor());
            if !spec.accepts_count(puzzle.given_count()) {
                continue;
            }
            // Without a symmetry, one pass of single removals down to no
            // floor is already minimal: a given that could not go from a
            // superset of the final puzzle cannot go from the puzzle
            // either. Other cases need the check.
            let dug_minimal = spec.symmetry == Symmetry::None && spec.dig_floor() == 0;
            if spec.minimal && !dug_minimal && !is_minimal(solver, &puzzle) {
                continue;
            }
            let mut generated = Generated {
                puzzle,
                solution,
                attempts,
                tested,
            };
            if !self.verify(solver, &generated) {
                return Err(GenerateError::Unverified(index));
            }
            if let Some(accept) = accept.as_mut() {
                tested += 1;
                generated.tested = tested;
                if !accept(&puzzle) {
                    continue;
                }
            }
            return Ok(generated);
        }
    }

    /// The final check: `solution` is the one solution of `puzzle`, and the
    /// puzzle keeps the spec's count and symmetry.
    fn verify(&self, solver: &mut Solver, g: &Generated) -> bool {
        let unique = matches!(
            solver.count_solutions_up_to(&g.puzzle, 2),
            Ok(o) if o.solutions == 1 && o.solution == Some(g.solution)
        );
        unique
            && g.solution.is_valid_solution()
            && g.solution.solves(&g.puzzle)
            && self.spec.accepts_count(g.puzzle.given_count())
            && self.spec.symmetry.holds_for(&g.puzzle)
    }
}

/// True when `puzzle` has exactly one solution and loses that when any
/// single given is removed (every given is necessary).
pub fn is_minimal<E: Engine>(engine: &mut E, puzzle: &Grid) -> bool {
    let count =
        |engine: &mut E, p: &Grid| engine.count_solutions_only(p, 2).map_or(0, |o| o.solutions);
    if count(engine, puzzle) != 1 {
        return false;
    }
    (0..CELLS).filter(|&c| puzzle.get(c) != 0).all(|c| {
        let mut q = *puzzle;
        q.set(c, 0);
        count(engine, &q) >= 2
    })
}

#[cfg(test)]
mod tests;
