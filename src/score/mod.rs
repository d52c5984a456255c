//! Scored exhaustive search: the best `sum(weight * digit)` over all the
//! solutions of a puzzle, found by branch-and-bound.
//!
//! [`ScoreVisitor`] is one more [`Visitor`] over the solver's single search
//! loop. At every node it computes an admissible upper bound on the score
//! of any completion (a Lagrangian decomposition of the weights over rows,
//! columns and boxes, each unit relaxed so a greedy pass solves it: see
//! `bound.rs`) and prunes the node when that cannot beat the best solution
//! found so far; at every solution it keeps the best. Three things make the
//! search small:
//!
//! - **Tuned shares.** How each cell's weight is split between its row,
//!   column and box decides how tight the bound is. [`Weights`] carries a
//!   split tuned once on the empty grid; each puzzle tunes it further by
//!   subgradient steps (`split.rs`) when its first solutions are found,
//!   within a budget proportional to the nodes searched.
//! - **Reduced-cost fixing.** The units' optimal duals bound the loss of
//!   putting any candidate in any cell; candidates whose loss exceeds the
//!   node's slack are removed from the node ([`Flow::Narrowed`]), and the
//!   solver's propagation takes it from there.
//! - **Branching.** The search branches on the cell whose two best
//!   candidates differ most in that loss ([`Visitor::choose_cell`]), trying
//!   first the digit the relaxations agree on ([`Visitor::choose_digit`]).
//!
//! Nothing is allocated per puzzle: the tables live in the visitor.
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
mod split;
mod weights;

pub use weights::{Weights, WeightsError};

use crate::grid::{Conflict, Grid};
use crate::solver::{Flow, Node, Solver, Stats, Visitor};
use bound::{Cells, Duals, Eval, Relaxation, SCALE};
use split::{Split, Steps};

/// Subgradient steps when the first solution is found.
const FIRST_STEPS: usize = 30;
/// Subgradient steps at each later improvement.
const LATER_STEPS: usize = 5;
/// Polyak step factor.
const LAMBDA: f64 = 0.2;
/// The steps allowed so far: `STEPS_PER_NODE * nodes` (so an easy puzzle
/// is not charged for a tuning it does not need).
const STEPS_PER_NODE: usize = 2;

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
    /// are counted in `stats` only; a node narrowed by the bound and
    /// propagated again counts once). The node limit applies to this count.
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
    /// The cell to branch on at the node just entered, and the digit to
    /// try there first (0: no preference).
    branch: Option<(usize, u8)>,
    bounds: Bounds,
}

/// The bound's state for one puzzle, set up at the root.
#[derive(Debug)]
struct Bounds {
    ready: bool,
    split: Split,
    relaxation: Relaxation,
    /// The root's cells, where the split is tuned.
    root: Cells,
    /// The last evaluation (of the node being expanded).
    eval: Eval,
    /// Whether the weights are small enough to tune the split.
    tunable: bool,
    /// Improvements of the best score so far.
    improvements: u32,
    /// Subgradient steps taken so far.
    steps: usize,
    /// Scratch space of the reduced costs.
    duals: [Duals; 27],
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
            branch: None,
            bounds: Bounds {
                ready: false,
                split: *weights.split(),
                relaxation: Relaxation::EMPTY,
                root: Cells::EMPTY,
                eval: Eval::new(),
                tunable: Split::tunable(weights),
                improvements: 0,
                steps: 0,
                duals: [Duals::ZERO; 27],
            },
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

    /// The bound's verdict on a propagated node that is not complete.
    #[inline]
    fn bound(&mut self, node: &mut Node) -> Flow {
        let cells = Cells::of(node);
        let b = &mut self.bounds;
        if !b.ready {
            b.ready = true;
            b.root = cells;
            b.relaxation = Relaxation::new(&cells, &b.split);
        }
        let Some(total) = b.relaxation.evaluate(&cells, &mut b.eval) else {
            return Flow::Prune; // some unit cannot place its digits
        };
        if self.best.is_none() {
            return Flow::Continue;
        }
        let threshold = (self.best_score + 1) * SCALE;
        if total < threshold {
            return Flow::Prune;
        }
        let mut narrowed = false;
        let fixed = b.relaxation.fix(
            &cells,
            &b.eval,
            total - threshold,
            &mut b.duals,
            |cell, digit| {
                node.eliminate(cell, digit);
                narrowed = true;
            },
        );
        if narrowed {
            self.reentering = true;
            return Flow::Narrowed;
        }
        self.branch = fixed.branch;
        Flow::Continue
    }

    /// Tunes the split towards proving that nothing beats `best` (after
    /// an improvement), within the step budget.
    fn tune(&mut self, best: i64) {
        let b = &mut self.bounds;
        let wanted = if b.improvements == 0 {
            FIRST_STEPS
        } else {
            LATER_STEPS
        };
        b.improvements += 1;
        let budget = STEPS_PER_NODE * self.nodes as usize;
        let steps = wanted.min(budget.saturating_sub(b.steps));
        if steps == 0 {
            return;
        }
        b.steps += steps;
        let root = b.root;
        let target = Steps::Towards((best + 1) * SCALE, LAMBDA);
        // The root has a solution (one was just found), so this is Some.
        let _ = b.split.descend(&mut b.relaxation, &root, steps, target);
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
    fn solution(&mut self, grid: &Grid) -> Flow {
        self.solutions += 1;
        let s = self.weights.score(grid);
        if self.best.is_none() || s > self.best_score {
            self.best_score = s;
            self.best = Some(*grid);
            if self.prune && self.bounds.ready && self.bounds.tunable {
                self.tune(s);
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
            // The candidate nearest the mean of the three relaxations'
            // digits (ties to the higher).
            let wanted = b.relaxation.digits(&b.eval, cell);
            let sum: i32 = wanted.iter().map(|&d| i32::from(d)).sum();
            if wanted.iter().all(|&d| d != 0) {
                let (mut best, mut best_distance) = (0, i32::MAX);
                let mut rest = candidates;
                while rest != 0 {
                    let d = rest.trailing_zeros() as i32 + 1;
                    rest &= rest - 1;
                    let distance = (3 * d - sum).abs();
                    if distance <= best_distance {
                        (best, best_distance) = (d as usize - 1, distance);
                    }
                }
                return best;
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
