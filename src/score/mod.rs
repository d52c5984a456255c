//! Scored exhaustive search: the best `sum(weight * digit)` over all the
//! solutions of a puzzle, found by branch-and-bound.
//!
//! [`ScoreVisitor`] is one more [`Visitor`] over the solver's single search
//! loop. At every node it computes an admissible upper bound on the score
//! of any completion and prunes the node when that cannot beat the best
//! solution found so far; at every solution it keeps the best. Digits are tried from 9 down in positively weighted
//! cells so good solutions, hence strong pruning, come early.
//!
//! The bound is the least of a per-cell relaxation (each empty cell takes
//! its best candidate) and per-unit relaxations (the digits missing from a
//! row, column or box, largest first, paired with that unit's heaviest empty
//! cells). Nothing is allocated per puzzle: the unit orders live in
//! [`Weights`] and the bound's scratch space is on the stack.
//!
//! ```
//! use batchdoku::score::{score, ScoreOptions, Weights};
//! use batchdoku::{parse::parse_line, Solver};
//! let puzzle = parse_line(
//!     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
//! )
//! .unwrap();
//! let mut solver = Solver::new();
//! let out = score(&mut solver, &puzzle, &Weights::target(), &ScoreOptions::default()).unwrap();
//! let (best, grid) = out.best.unwrap();
//! assert!(out.proven);
//! assert!(grid.solves(&puzzle));
//! assert_eq!(best, Weights::target().score(&grid));
//! ```

mod bound;
mod weights;

pub use weights::{Weights, WeightsError};

use crate::grid::{Conflict, Grid};
use crate::solver::{Flow, Node, Solver, Stats, Visitor};
use bound::BoundTables;

/// How to run a scored search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreOptions {
    /// Stop after visiting this many nodes; the outcome is then the best
    /// found so far and not [`proven`](ScoreOutcome::proven).
    pub node_limit: Option<u64>,
    /// Also count every solution. This needs the full enumeration, so the
    /// search does not prune; the best score is still exact.
    pub count_solutions: bool,
    /// Use the branch-and-bound (the default). `false` enumerates every
    /// solution through the same loop: only for tests and benchmarks.
    pub prune: bool,
}

impl Default for ScoreOptions {
    /// No node limit, no counting, pruning on.
    fn default() -> Self {
        ScoreOptions {
            node_limit: None,
            count_solutions: false,
            prune: true,
        }
    }
}

/// The result of a scored search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreOutcome {
    /// The best score and a solution reaching it; `None` when the puzzle
    /// has no solution (or the node limit came before the first one).
    pub best: Option<(i64, Grid)>,
    /// True when the search ran to the end, so `best` is the maximum over
    /// all solutions; false when the node limit stopped it.
    pub proven: bool,
    /// Nodes the visitor saw: states that survived propagation (dead ends
    /// are counted in `stats` only). The node limit applies to this count.
    pub nodes: u64,
    /// The number of solutions, when [`ScoreOptions::count_solutions`] was
    /// set (a lower bound if not `proven`).
    pub solutions: Option<u64>,
    /// The search loop's own counters.
    pub stats: Stats,
}

/// The branch-and-bound visitor behind [`score`].
///
/// Use [`score`] unless the visitor has to be driven by hand; then call
/// [`Solver::search`] with it and [`finish`](ScoreVisitor::finish) with the
/// returned stats.
#[derive(Debug)]
pub struct ScoreVisitor<'w> {
    weights: &'w Weights,
    tables: BoundTables,
    node_limit: u64,
    prune: bool,
    count: bool,
    nodes: u64,
    solutions: u64,
    best_score: i64,
    best: Option<Grid>,
}

impl<'w> ScoreVisitor<'w> {
    /// A visitor scoring with `weights` under `opts`.
    pub fn new(weights: &'w Weights, opts: &ScoreOptions) -> ScoreVisitor<'w> {
        ScoreVisitor {
            weights,
            tables: BoundTables::new(weights),
            node_limit: opts.node_limit.unwrap_or(u64::MAX),
            prune: opts.prune && !opts.count_solutions,
            count: opts.count_solutions,
            nodes: 0,
            solutions: 0,
            best_score: i64::MIN,
            best: None,
        }
    }

    /// The outcome, given the stats the search returned.
    pub fn finish(&self, stats: Stats) -> ScoreOutcome {
        ScoreOutcome {
            best: self.best.map(|g| (self.best_score, g)),
            proven: !stats.stopped,
            nodes: self.nodes,
            solutions: self.count.then_some(self.solutions),
            stats,
        }
    }
}

impl Visitor for ScoreVisitor<'_> {
    #[inline]
    fn enter(&mut self, node: &Node) -> Flow {
        if self.nodes >= self.node_limit {
            return Flow::Stop;
        }
        self.nodes += 1;
        // A complete grid's bound is its score: `solution` compares that.
        if self.prune
            && self.best.is_some()
            && node.empty_count() != 0
            && self.tables.bound(node, self.best_score) <= self.best_score
        {
            return Flow::Prune;
        }
        Flow::Continue
    }

    #[inline]
    fn solution(&mut self, grid: &Grid) -> Flow {
        self.solutions += 1;
        let s = self.weights.score(grid);
        if self.best.is_none() || s > self.best_score {
            self.best_score = s;
            self.best = Some(*grid);
        }
        Flow::Continue
    }

    #[inline(always)]
    fn prefers_high_digits(&self, cell: usize) -> bool {
        self.weights.get(cell) > 0
    }
}

/// The best score of `puzzle` under `weights` over all its solutions.
///
/// `Ok` with `best: None` means the puzzle has no solution (the CLI prints
/// -1); contradictory givens (a digit twice in a unit) give `Err`. Nothing
/// is allocated: reuse one `solver` per worker.
pub fn score(
    solver: &mut Solver,
    puzzle: &Grid,
    weights: &Weights,
    opts: &ScoreOptions,
) -> Result<ScoreOutcome, Conflict> {
    let mut visitor = ScoreVisitor::new(weights, opts);
    let stats = solver.search(puzzle, &mut visitor)?;
    Ok(visitor.finish(stats))
}

#[cfg(test)]
mod tests;
