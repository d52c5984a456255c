//! The single search loop: propagate, ask the visitor, branch on the empty
//! cell with the fewest candidates, backtrack from a fixed stack.
//!
//! Every mode (first solution, counting, scored search) runs this loop; what
//! happens at a node and at a solution is decided by a [`Visitor`].
//!
//! A guess on cell `c` with digit `d` pushes a copy of the current state
//! with `d` removed from `c` (the untried alternatives), then places `d`.
//! Backtracking pops that copy and carries on from it (propagation starts
//! from the one mask the removal changed). Each frame on the stack belongs
//! to one branch point on the current path and each branch point fills at
//! least one more cell, so 81 frames always suffice.

use super::state::State;
use super::{Flow, Stats, Visitor};
use crate::grid::{Grid, CELLS};

/// The reusable search machinery: one per worker thread, reused for every
/// puzzle, so the search itself never touches the heap. Each stack entry
/// is a saved alternative: the state to resume.
pub(crate) struct Search {
    stack: Box<[State; CELLS]>,
}

impl Search {
    pub(crate) fn new() -> Search {
        Search {
            stack: Box::new([State::blank(); CELLS]),
        }
    }

    /// Runs the search over all completions of `puzzle` (whose givens are
    /// already known not to repeat within a unit) until the visitor stops it
    /// or the tree is exhausted.
    pub(crate) fn run<V: Visitor>(&mut self, puzzle: &Grid, visitor: &mut V) -> Stats {
        let mut stats = Stats::default();
        let mut depth = 0usize;
        let mut cur = State::blank();
        let mut alive = cur.load(puzzle).is_ok();
        loop {
            if alive {
                match self.expand(&mut cur, &mut depth, &mut stats, visitor) {
                    Step::Deeper => continue,
                    Step::Backtrack => {}
                    Step::Stop => {
                        stats.stopped = true;
                        return stats;
                    }
                }
            }
            // Dead end, pruned node, or a solution already reported.
            if depth == 0 {
                return stats;
            }
            depth -= 1;
            cur = self.stack[depth];
            alive = true;
        }
    }

    /// Processes one node: propagation, the visitor's verdict, then either
    /// the solution or a guess.
    #[inline]
    fn expand<V: Visitor>(
        &mut self,
        cur: &mut State,
        depth: &mut usize,
        stats: &mut Stats,
        visitor: &mut V,
    ) -> Step {
        stats.nodes += 1;
        if cur.propagate().is_err() {
            stats.dead_ends += 1;
            return Step::Backtrack;
        }
        match visitor.enter(cur) {
            Flow::Continue => {}
            Flow::Prune => return Step::Backtrack,
            Flow::Stop => return Step::Stop,
        }
        let Some((band, bit)) = cur.branch_cell() else {
            return match visitor.solution(&cur.to_grid()) {
                Flow::Stop => Step::Stop,
                Flow::Continue | Flow::Prune => Step::Backtrack,
            };
        };
        let cell = 27 * band + bit as usize;
        let m = cur.candidates(cell);
        let digit = if visitor.prefers_high_digits(cell) {
            15 - m.leading_zeros() as usize
        } else {
            m.trailing_zeros() as usize
        };
        stats.guesses += 1;
        let frame = &mut self.stack[*depth];
        *frame = *cur;
        frame.remove_candidate(digit, band, bit);
        *depth += 1;
        if cur.place(digit, band, bit).is_err() {
            stats.dead_ends += 1;
            return Step::Backtrack;
        }
        Step::Deeper
    }
}

/// What the loop does after expanding one node.
enum Step {
    /// A guess was made: expand the new current state.
    Deeper,
    /// Dead end, pruned, or solution reported: resume the last alternative.
    Backtrack,
    /// The visitor ended the search.
    Stop,
}
