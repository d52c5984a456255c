//! Scored exhaustive search: the best `sum(weight * digit)` over all the
//! solutions of a puzzle, found by branch-and-bound.
//!
//! [`ScoreVisitor`] is one more [`Visitor`] over the solver's single search
//! loop. At every node it computes an admissible upper bound on the score
//! of any completion (a Lagrangian relaxation: every unit's "each digit
//! once" is priced per unit and digit, and each empty cell then takes its
//! most profitable candidate; see `lagrange.rs`) and prunes the node when
//! that cannot beat the best solution found so far; at every solution it
//! keeps the best. Three things make the search small:
//!
//! - **Tuned prices.** The prices decide how tight the bound is; at their
//!   best it is the puzzle's linear-programming bound, usually within a
//!   point of the optimum at 24 givens. They start from prices tuned once
//!   per weights table on the empty grid ([`Weights`] keeps them), get a
//!   few passes of coordinate descent at the root before the search starts
//!   (which also makes the first dive, following each cell's most
//!   profitable candidate, land on a good solution), and once a search
//!   runs long, a Polyak subgradient
//!   step at every node the bound does not prune. Any prices are
//!   admissible, so one set serves the whole search; when the root's
//!   bound falls below the best score plus one, the search stops there.
//! - **Reduced-cost fixing.** A candidate's reduced cost (its cell's best
//!   profit minus its own) is what forcing it costs the bound; candidates
//!   whose cost exceeds the node's slack are removed from the node
//!   ([`Flow::Narrowed`]), and the solver's propagation takes it from there.
//! - **Branching.** The search branches on the cell whose two best
//!   candidates differ most in that cost ([`Visitor::choose_cell`]), trying
//!   first the cell's most profitable digit ([`Visitor::choose_digit`]).
//!
//! Nothing is allocated per puzzle: the tables live in the visitor. The
//! public entry point is [`score`], which has an example.

mod lagrange;
mod weights;

pub use weights::{Weights, WeightsError};

use crate::engine::Stats;
use crate::grid::{Conflict, Grid};
use crate::solver::{Flow, Node, Solver, Visitor};
use lagrange::{Cells, Eval, Lagrange, SCALE};

/// Coordinate-descent passes over the prices at the root, before the
/// search starts.
const ROOT_SWEEPS: usize = 4;
/// Nodes searched before the nodes the bound does not prune take a
/// subgradient step each (most 24-given puzzles are done by then).
const STEPS_AFTER: u64 = 200;
/// Polyak step factor.
const LAMBDA: f64 = 0.7;
/// The steps aim this far (in points, times `SCALE`) above the score to
/// beat, a little below the `+ 1` that prunes.
const TARGET_OFFSET: i64 = SCALE * 3 / 10;

/// How to run a scored search.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, score, Grid, ScoreOptions, Solver, Weights};
/// let mut solver = Solver::new();
/// let weights = Weights::target();
///
/// // A node limit bounds the work: the empty grid has billions of
/// // solutions, and the best one found in 100 nodes is not proven best.
/// let limited = ScoreOptions { node_limit: Some(100), ..ScoreOptions::default() };
/// let out = score(&mut solver, &Grid::empty(), &weights, &limited).unwrap();
/// assert!(out.best.is_some() && !out.proven);
/// assert_eq!(out.nodes, 100);
///
/// // Counting every solution as well (a solved grid, first two rows blanked).
/// let mut line = ".".repeat(18);
/// line.push_str("198342567859761423426853791713924856961537284287419635345286179");
/// let puzzle = parse_line(line.as_bytes()).unwrap();
/// let counting = ScoreOptions { count_solutions: true, ..ScoreOptions::default() };
/// let out = score(&mut solver, &puzzle, &weights, &counting).unwrap();
/// assert_eq!(out.solutions, Some(4));
/// assert!(out.proven);
/// ```
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
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, score, ScoreOptions, Solver, Weights};
/// let puzzle = parse_line(
///     b"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
/// )
/// .unwrap();
/// let mut solver = Solver::new();
/// let weights = Weights::target();
/// let out = score(&mut solver, &puzzle, &weights, &ScoreOptions::default()).unwrap();
/// let (best, grid) = out.best.unwrap();
/// assert!(out.proven); // no solution scores more than `best`
/// assert_eq!(weights.score(&grid), best);
/// assert_eq!(out.solutions, None); // not asked to count
///
/// // Stopped after one node: nothing found yet, nothing proven.
/// let one = ScoreOptions { node_limit: Some(1), ..ScoreOptions::default() };
/// let out = score(&mut solver, &puzzle, &weights, &one).unwrap();
/// assert_eq!((out.best, out.proven, out.nodes), (None, false, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreOutcome {
    /// The best score and a solution reaching it; `None` when the puzzle
    /// has no solution (or the node limit came before the first one).
    pub best: Option<(i64, Grid)>,
    /// True when the search ran to the end, so `best` is the maximum over
    /// all solutions; false when the node limit stopped it.
    pub proven: bool,
    /// Nodes the visitor saw: states that survived propagation (dead ends
    /// are counted in `stats` only; a node narrowed by the bound and
    /// propagated again counts once). The node limit applies to this count.
    pub nodes: u64,
    /// The number of solutions, when [`ScoreOptions::count_solutions`] was
    /// set and the search ran to the end; `None` when the node limit cut it
    /// short (a partial count is not a count).
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
    node_limit: u64,
    prune: bool,
    count: bool,
    nodes: u64,
    solutions: u64,
    best_score: i64,
    best: Option<Grid>,
    /// The node being entered was narrowed by this visitor and propagated
    /// again: not a new node.
    reentering: bool,
    /// The bound at the root fell below the best score plus one: the best
    /// is proven and the search was stopped early.
    closed: bool,
    /// The cell to branch on at the node just entered, and the digit to
    /// try there first (0: no preference).
    branch: Option<(usize, u8)>,
    bounds: Bounds,
}

/// The bound's state for one puzzle, set up at the root.
#[derive(Debug)]
struct Bounds {
    ready: bool,
    lagrange: Lagrange,
    /// The root's cells, where the prices are tuned.
    root: Cells,
    /// The last evaluation (of the node being expanded).
    eval: Eval,
    /// The node being expanded, as the bound reads it.
    cells: Cells,
    /// Whether the weights are small enough to tune the prices.
    tunable: bool,
    /// Whether `eval` is the evaluation of the node being expanded (the
    /// nodes of the first dive are not evaluated).
    fresh: bool,
}

impl<'w> ScoreVisitor<'w> {
    /// A visitor scoring with `weights` under `opts`.
    pub fn new(weights: &'w Weights, opts: &ScoreOptions) -> ScoreVisitor<'w> {
        ScoreVisitor {
            weights,
            node_limit: opts.node_limit.unwrap_or(u64::MAX),
            prune: opts.prune && !opts.count_solutions,
            count: opts.count_solutions,
            nodes: 0,
            solutions: 0,
            best_score: i64::MIN,
            best: None,
            reentering: false,
            closed: false,
            branch: None,
            bounds: Bounds {
                ready: false,
                lagrange: *weights.start(),
                root: Cells::EMPTY,
                eval: Eval::new(),
                cells: Cells::EMPTY,
                tunable: lagrange::tunable(weights.as_array()),
                fresh: false,
            },
        }
    }

    /// The outcome, given the stats the search returned.
    pub fn finish(&self, stats: Stats) -> ScoreOutcome {
        ScoreOutcome {
            best: self.best.map(|g| (self.best_score, g)),
            proven: !stats.stopped || self.closed,
            nodes: self.nodes,
            solutions: (self.count && !stats.stopped).then_some(self.solutions),
            stats,
        }
    }

    /// The bound's verdict on a propagated node that is not complete.
    #[inline]
    fn bound(&mut self, node: &mut Node) -> Flow {
        let b = &mut self.bounds;
        if !b.ready {
            // The root: tune the prices on it once.
            b.ready = true;
            b.root = Cells::of(node);
            if b.tunable {
                b.lagrange.sweep(&b.root, ROOT_SWEEPS);
            }
        }
        // Until the first solution nothing can be pruned: the first dive
        // follows the root's prices (see `choose_digit`) unevaluated.
        b.fresh = false;
        if self.best.is_none() {
            return Flow::Continue;
        }
        b.cells.read(node);
        b.fresh = true;
        // `eval` holds the last node's evaluation under the current
        // prices (a step re-evaluates at once): read only what changed.
        let Some(mut total) = b.lagrange.reevaluate(&b.cells, &mut b.eval) else {
            return Flow::Prune; // an empty cell without candidates
        };
        let threshold = (self.best_score + 1) * SCALE;
        if total >= threshold && b.tunable && self.nodes > STEPS_AFTER {
            // Tune the prices towards this node (any prices are
            // admissible, so the whole search keeps the progress).
            let target = self.best_score * SCALE + TARGET_OFFSET;
            if b.lagrange.step(&b.eval, target, LAMBDA) {
                let Some(t) = b.lagrange.evaluate(&b.cells, &mut b.eval) else {
                    return Flow::Prune;
                };
                total = t;
            }
        }
        if total < threshold {
            return Flow::Prune;
        }
        let mut narrowed = false;
        let branch = b.lagrange.fix(&b.cells, &b.eval, threshold, |cell, digit| {
            node.eliminate(cell, digit);
            narrowed = true;
        });
        if narrowed {
            self.reentering = true;
            return Flow::Narrowed;
        }
        self.branch = branch;
        Flow::Continue
    }

    /// Whether the bound at the root, under the current prices, proves
    /// that nothing beats the best score: then the search can stop.
    fn root_closed(&mut self) -> bool {
        let b = &mut self.bounds;
        let threshold = (self.best_score + 1) * SCALE;
        b.lagrange
            .bound(&b.root)
            .is_none_or(|total| total < threshold)
    }
}

impl Visitor for ScoreVisitor<'_> {
    #[inline]
    fn enter(&mut self, node: &mut Node) -> Flow {
        if !self.reentering {
            if self.nodes >= self.node_limit {
                return Flow::Stop;
            }
            self.nodes += 1;
        }
        self.reentering = false;
        self.branch = None;
        // A complete grid's bound is its score: `solution` compares that.
        if !self.prune || node.empty_count() == 0 {
            return Flow::Continue;
        }
        self.bound(node)
    }

    #[inline]
    fn solution(&mut self, node: &Node) -> Flow {
        self.solutions += 1;
        let grid = &node.to_grid();
        let s = self.weights.score(grid);
        if self.best.is_none() || s > self.best_score {
            self.best_score = s;
            self.best = Some(*grid);
            if self.prune && self.bounds.ready && self.root_closed() {
                self.closed = true;
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    #[inline(always)]
    fn choose_cell(&self) -> Option<usize> {
        self.branch.map(|(cell, _)| cell)
    }

    #[inline(always)]
    fn choose_digit(&self, cell: usize, candidates: u16) -> usize {
        if let Some((c, d)) = self.branch {
            if c == cell && d != 0 && candidates >> (d - 1) & 1 != 0 {
                return d as usize - 1;
            }
        }
        let b = &self.bounds;
        if self.prune && b.ready {
            // The cell's most profitable candidate.
            if b.fresh {
                let d = b.eval.digits[cell];
                if d != 0 && candidates >> (d - 1) & 1 != 0 {
                    return d as usize - 1;
                }
            } else {
                return b.lagrange.best_digit(cell, candidates);
            }
        }
        if self.weights.get(cell) > 0 {
            15 - candidates.leading_zeros() as usize
        } else {
            candidates.trailing_zeros() as usize
        }
    }
}

/// The best score of `puzzle` under `weights` over all its solutions.
///
/// `Ok` with `best: None` means the puzzle has no solution (the CLI prints
/// -1); contradictory givens (a digit twice in a unit) give `Err`. Nothing
/// is allocated: reuse one `solver` per worker.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, score, ScoreOptions, Solver, Weights};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let mut solver = Solver::new();
/// let out = score(&mut solver, &puzzle, &Weights::target(), &ScoreOptions::default()).unwrap();
/// let (best, grid) = out.best.unwrap();
/// assert!(out.proven);
/// assert!(grid.solves(&puzzle));
/// assert_eq!(best, Weights::target().score(&grid));
///
/// // Consistent givens without a solution: `best` is `None`.
/// let line = format!("12345678.........9{}", ".".repeat(63));
/// let stuck = parse_line(line.as_bytes()).unwrap();
/// let out = score(&mut solver, &stuck, &Weights::target(), &ScoreOptions::default()).unwrap();
/// assert!(out.best.is_none() && out.proven);
///
/// // Contradictory givens are an error.
/// let mut bad = puzzle;
/// bad.set(0, 3); // a second 3 in row 1
/// assert!(score(&mut solver, &bad, &Weights::target(), &ScoreOptions::default()).is_err());
/// ```
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
