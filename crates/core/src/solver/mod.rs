//! The bitmask MRV solver: the public face of the one search loop.
//!
//! Public on purpose, as the extension point of that loop. Every search in
//! the crate (first solution, counting, the scored search of
//! [`score`](crate::score())) is one loop, compiled for each [`SimdPath`],
//! and what it does at each node and at each solution is decided by a
//! [`Visitor`]. A Rust user who needs a search of their own (collect every
//! solution, enforce an extra constraint, bound the work) writes a visitor
//! and runs it with [`Solver::search`], with the same propagation and speed
//! as the stock searches. Finding and counting solutions needs none of
//! this: [`Solver`] is re-exported at the crate root and implements
//! [`Engine`].
//!
//! [`Solver`] owns a fixed stack and is meant to be created once per worker
//! and reused for every puzzle: solving never allocates. The stock visitors
//! find the first solution ([`FirstSolution`]) or count solutions up to a
//! limit ([`CountUpTo`]); the scored search is another visitor over the
//! same loop. Internally the state is kept as band masks in the manner of
//! JCZSolve; a [`Node`] answers per-cell questions (values and candidate
//! masks, bit `d - 1` for digit `d`) without
//! showing that layout. [`Visitor`] has an example of a visitor of one's
//! own.

mod arrange;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod arrange_x86;
mod fast;
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
///
/// # Example
/// ```
/// use batchdoku_core::solver::{Flow, Node, Visitor};
/// use batchdoku_core::{Grid, Solver};
///
/// /// Counts solutions, giving up after a budget of nodes.
/// struct Budget {
///     nodes_left: u64,
///     solutions: u64,
/// }
///
/// impl Visitor for Budget {
///     fn enter(&mut self, _node: &mut Node) -> Flow {
///         if self.nodes_left == 0 {
///             return Flow::Stop; // ends the whole search
///         }
///         self.nodes_left -= 1;
///         Flow::Continue
///     }
///     fn solution(&mut self, _node: &Node) -> Flow {
///         self.solutions += 1;
///         Flow::Continue // look for more
///     }
/// }
///
/// // The empty grid has billions of solutions: the budget ends the search.
/// let mut budget = Budget { nodes_left: 1_000, solutions: 0 };
/// let stats = Solver::new().search(&Grid::empty(), &mut budget).unwrap();
/// assert!(stats.stopped);
/// assert_eq!(budget.nodes_left, 0);
/// assert!(budget.solutions > 0);
/// ```
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
/// only for what it overrides. Run one with [`Solver::search`].
///
/// # Example
/// ```
/// use batchdoku_core::solver::{Flow, Node, Visitor};
/// use batchdoku_core::{parse_line, Grid, Solver};
///
/// /// Collects up to `max` solutions and counts the nodes entered.
/// struct Collect {
///     max: usize,
///     nodes: u64,
///     found: Vec<Grid>,
/// }
///
/// impl Visitor for Collect {
///     fn enter(&mut self, _node: &mut Node) -> Flow {
///         self.nodes += 1;
///         Flow::Continue
///     }
///
///     fn solution(&mut self, node: &Node) -> Flow {
///         self.found.push(node.to_grid());
///         if self.found.len() == self.max {
///             Flow::Stop
///         } else {
///             Flow::Continue
///         }
///     }
/// }
///
/// // A solved grid with its first two rows blanked.
/// let solved =
///     "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// let line = format!("{}{}", ".".repeat(18), &solved[18..]);
/// let puzzle = parse_line(line.as_bytes()).unwrap();
///
/// let mut solver = Solver::new(); // reuse it for every search
/// let mut collect = Collect { max: 100, nodes: 0, found: Vec::new() };
/// let stats = solver.search(&puzzle, &mut collect).unwrap();
/// assert_eq!(collect.found.len(), 4); // every solution, the original among them
/// assert!(collect.found.iter().all(|g| g.solves(&puzzle)));
/// assert!(collect.found.contains(&parse_line(solved.as_bytes()).unwrap()));
/// assert!(collect.nodes > 0 && !stats.stopped);
///
/// // With a limit of 2 the visitor stops the search.
/// let mut two = Collect { max: 2, nodes: 0, found: Vec::new() };
/// assert!(solver.search(&puzzle, &mut two).unwrap().stopped);
/// assert_eq!(two.found, collect.found[..2]);
/// ```
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
///
/// What [`Engine::solve_first`] runs on a [`Solver`].
///
/// # Example
/// ```
/// use batchdoku_core::solver::FirstSolution;
/// use batchdoku_core::{parse_line, Solver};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let mut first = FirstSolution::default();
/// Solver::new().search(&puzzle, &mut first).unwrap();
/// assert!(first.solution.unwrap().solves(&puzzle));
/// ```
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
///
/// What [`Engine::count_solutions_up_to`] runs on a [`Solver`].
///
/// # Example
/// ```
/// use batchdoku_core::solver::CountUpTo;
/// use batchdoku_core::{Grid, Solver};
/// let mut counter = CountUpTo::new(10);
/// let stats = Solver::new().search(&Grid::empty(), &mut counter).unwrap();
/// assert_eq!(counter.count, 10); // the empty grid has more: stopped at the limit
/// assert!(stats.stopped);
/// assert!(counter.first.unwrap().is_valid_solution());
/// ```
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

/// Counts solutions, stopping when `limit` are found, and keeps none: what
/// [`Engine::count_solutions_only`] runs on a [`Solver`] (no grid built
/// per solution).
struct CountOnly {
    /// Stop after this many solutions (at least 1).
    limit: u64,
    /// Solutions seen so far.
    count: u64,
}

impl Visitor for CountOnly {
    #[inline]
    fn solution(&mut self, _node: &Node) -> Flow {
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
/// For searches of your own, see [`Solver::search`] and [`Visitor`].
///
/// # Example
/// ```
/// use batchdoku_core::{Engine, Grid, Solver};
/// let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let puzzle: Grid = batchdoku_core::parse_line(line.as_bytes()).unwrap();
/// let mut solver = Solver::new(); // one per worker, reused for every puzzle
/// let outcome = solver.count_solutions_up_to(&puzzle, 2).unwrap();
/// assert_eq!(outcome.solutions, 1);
/// assert!(outcome.solution.unwrap().solves(&puzzle));
/// assert!(outcome.stats.nodes >= 1);
/// assert_eq!(solver.simd(), batchdoku_core::SimdPath::detect()); // the best this CPU has
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

    /// This solver without the root's singles fast path, for tests that
    /// compare the search with and without it.
    #[cfg(test)]
    pub(crate) fn without_fast_path(mut self) -> Solver {
        self.search.singles_first = search::SinglesFirst::Never;
        self
    }

    /// This solver with the root's singles fast path on every puzzle,
    /// whatever its givens, for the same tests.
    #[cfg(test)]
    pub(crate) fn always_fast_path(mut self) -> Solver {
        self.search.singles_first = search::SinglesFirst::Always;
        self
    }

    /// The [`SimdPath`] this solver runs.
    pub fn simd(&self) -> SimdPath {
        self.search.path()
    }

    /// Runs the search over `puzzle`, letting `visitor` decide what to do
    /// at each node and solution, and returns the search's counters.
    /// Contradictory givens are reported without searching, as by
    /// [`Grid::first_conflict`]. See [`Visitor`] for an example.
    ///
    /// This search always branches on cells (easy mode), so that
    /// [`Visitor::choose_digit`] is asked at every branch; finding and
    /// counting solutions through [`Engine`] also uses the hard mode on
    /// hard puzzles (see `docs/DESIGN.md`).
    pub fn search<V: Visitor>(
        &mut self,
        puzzle: &Grid,
        visitor: &mut V,
    ) -> Result<Stats, Conflict> {
        self.run(puzzle, visitor, false)
    }

    /// [`search`](Self::search), in hard mode too when `allow_hard` and
    /// the puzzle meets the rule.
    fn run<V: Visitor>(
        &mut self,
        puzzle: &Grid,
        visitor: &mut V,
        allow_hard: bool,
    ) -> Result<Stats, Conflict> {
        // Loading the givens fails exactly when two of them clash; only
        // then is the (slower) conflict report built.
        match self.search.run(puzzle, visitor, allow_hard) {
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
        let stats = self.run(puzzle, &mut counter, true)?;
        Ok(Outcome {
            solutions: counter.count,
            solution: counter.first,
            stats,
        })
    }

    fn count_solutions_only(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict> {
        let mut counter = CountOnly {
            limit: limit.max(1),
            count: 0,
        };
        let stats = self.run(puzzle, &mut counter, true)?;
        Ok(Outcome {
            solutions: counter.count,
            solution: None,
            stats,
        })
    }

    fn solve_first(&mut self, puzzle: &Grid) -> Result<Outcome, Conflict> {
        let mut first = FirstSolution::default();
        let stats = self.run(puzzle, &mut first, true)?;
        Ok(Outcome {
            solutions: u64::from(first.solution.is_some()),
            solution: first.solution,
            stats,
        })
    }
}

#[cfg(test)]
mod tests;
