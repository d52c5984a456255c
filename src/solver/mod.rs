//! The bitmask MRV solver: the public face of the one search loop.
//!
//! Internally the state is kept as band masks in the manner of JCZSolve
//! (see `node.rs` for the bit layout and `tables.rs` for the locked-candidate
//! tables); [`Node`] still answers per-cell questions.
//!
//! [`Solver`] owns a fixed stack and is meant to be created once per worker
//! and reused for every puzzle: solving never allocates. What the search
//! does at each node and at each solution is decided by a [`Visitor`]; the
//! stock visitors find the first solution ([`FirstSolution`]) or count
//! solutions up to a limit ([`CountUpTo`]). The scored search in
//! [`crate::score`] is another visitor over the same loop.

mod lanes;
mod node;
mod search;
mod tables;
mod wide;

pub use node::{Contradiction, Node};
pub use wide::SimdPath;

use crate::engine::{Engine, Outcome, Stats};
use crate::grid::{Conflict, Grid};
use search::Search;

/// What a visitor tells the search to do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flow {
    /// Keep going (expand this node, or look for more solutions).
    Continue,
    /// Abandon this node's subtree (branch-and-bound); at a solution the
    /// same as `Continue`.
    Prune,
    /// End the whole search now.
    Stop,
    /// The visitor removed candidates from the node: propagate it again
    /// and call [`Visitor::enter`] once more.
    Narrowed,
}

/// Decides what happens at each node and at each solution of the search.
///
/// All methods but [`solution`](Visitor::solution) have defaults that keep
/// the plain search, and they are inlined into the loop, so a visitor pays
/// only for what it overrides.
pub trait Visitor {
    /// Called at every node once propagation succeeded, before branching.
    #[inline(always)]
    fn enter(&mut self, _node: &mut Node) -> Flow {
        Flow::Continue
    }

    /// Called at each complete grid the search reaches (a node with no
    /// empty cell). The grid itself is [`Node::to_grid`], built only by
    /// visitors that keep or score it: counting past the first solution
    /// then costs nothing per solution.
    fn solution(&mut self, node: &Node) -> Flow;

    /// The cell to branch on at the node just entered, if the visitor has
    /// a preference (an empty cell); `None` keeps the solver's choice.
    #[inline(always)]
    fn choose_cell(&self) -> Option<usize> {
        None
    }

    /// The digit (0-based) to try first in `cell`, one of the bits of
    /// `candidates` (at least two are set); the others are tried later, as
    /// this is asked again. The default takes the lowest.
    #[inline(always)]
    fn choose_digit(&self, _cell: usize, candidates: u16) -> usize {
        candidates.trailing_zeros() as usize
    }
}

/// Stops at the first solution and keeps it.
#[derive(Debug, Default)]
pub struct FirstSolution {
    /// The solution, once found.
    pub solution: Option<Grid>,
}

impl Visitor for FirstSolution {
    #[inline]
    fn solution(&mut self, node: &Node) -> Flow {
        self.solution = Some(node.to_grid());
        Flow::Stop
    }
}

/// Counts solutions, stopping when `limit` are found; keeps the first.
#[derive(Debug)]
pub struct CountUpTo {
    /// Stop after this many solutions.
    pub limit: u64,
    /// Solutions seen so far.
    pub count: u64,
    /// The first solution seen.
    pub first: Option<Grid>,
}

impl CountUpTo {
    /// A counter that stops at `limit` solutions (a limit of 0 counts as 1).
    pub fn new(limit: u64) -> CountUpTo {
        CountUpTo {
            limit: limit.max(1),
            count: 0,
            first: None,
        }
    }
}

impl Visitor for CountUpTo {
    #[inline]
    fn solution(&mut self, node: &Node) -> Flow {
        if self.count == 0 {
            self.first = Some(node.to_grid());
        }
        self.count += 1;
        if self.count >= self.limit {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}

/// The bitmask MRV solver. Create one per worker and reuse it.
///
/// Counters in [`Stats`], as this engine defines them:
/// - `nodes`: states propagated (the root, each guess and each resumed
///   alternative);
/// - `guesses`: branch points, a digit tried on a cell with two or more
///   candidates;
/// - `dead_ends`: nodes where propagation found a contradiction;
/// - `stopped`: the visitor ended the search early.
///
/// ```
/// use batchdoku::{Grid, Solver, Engine};
/// let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let puzzle: Grid = batchdoku::parse_line(line.as_bytes()).unwrap();
/// let mut solver = Solver::new();
/// let outcome = solver.count_solutions_up_to(&puzzle, 2).unwrap();
/// assert_eq!(outcome.solutions, 1);
/// assert!(outcome.solution.unwrap().solves(&puzzle));
/// println!("guesses: {}", outcome.stats.guesses);
/// ```
pub struct Solver {
    search: Search,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({})", self.search.path())
    }
}

impl Solver {
    /// A solver with its stack allocated (once; solving never allocates),
    /// running the best [`SimdPath`] this CPU has.
    pub fn new() -> Solver {
        Solver {
            search: Search::new(SimdPath::detect()),
        }
    }

    /// A solver running `path`, or `None` when this build or CPU lacks it
    /// (to compare paths; every path gives the same answers and counts).
    pub fn with_simd(path: SimdPath) -> Option<Solver> {
        path.is_available().then(|| Solver {
            search: Search::new(path),
        })
    }

    /// The [`SimdPath`] this solver runs.
    pub fn simd(&self) -> SimdPath {
        self.search.path()
    }

    /// Runs the search over `puzzle`, letting `visitor` decide what to do
    /// at each node and solution. Contradictory givens are reported as a
    /// [`Conflict`] without searching.
    pub fn search<V: Visitor>(
        &mut self,
        puzzle: &Grid,
        visitor: &mut V,
    ) -> Result<Stats, Conflict> {
        // Loading the givens fails exactly when two of them clash; only
        // then is the (slower) conflict report built.
        match self.search.run(puzzle, visitor) {
            Some(stats) => Ok(stats),
            None => match puzzle.first_conflict() {
                Some(conflict) => Err(conflict),
                None => Ok(Stats {
                    nodes: 1,
                    dead_ends: 1,
                    ..Stats::default()
                }),
            },
        }
    }
}

impl Engine for Solver {
    fn count_solutions_up_to(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict> {
        let mut counter = CountUpTo::new(limit);
        let stats = self.search(puzzle, &mut counter)?;
        Ok(Outcome {
            solutions: counter.count,
            solution: counter.first,
            stats,
        })
    }

    fn solve_first(&mut self, puzzle: &Grid) -> Result<Outcome, Conflict> {
        let mut first = FirstSolution::default();
        let stats = self.search(puzzle, &mut first)?;
        Ok(Outcome {
            solutions: u64::from(first.solution.is_some()),
            solution: first.solution,
            stats,
        })
    }
}

#[cfg(test)]
mod tests;
