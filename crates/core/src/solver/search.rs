//! The single search loop: propagate, ask the visitor, branch on the empty
//! cell with the fewest candidates, backtrack from a fixed stack.
//!
//! Every mode (first solution, counting, scored search) runs this loop; what
//! happens at a node and at a solution is decided by a [`Visitor`].
//!
//! A guess on cell `c` with digit `d` pushes a copy of the current state
//! with `d` removed from `c` (the untried alternatives), then places `d`.
//! Backtracking pops that copy and carries on from it (propagation starts
//! from the masks the removal changed: the search keeps a work list of
//! changed masks, `seen`, and propagation looks only at those). Each frame
//! on the stack belongs to one branch point on the current path (see
//! `FRAMES` for how many a path can need).
//!
//! Two modes, chosen per puzzle. Easy mode branches on a cell (as above).
//! Hard mode, for puzzles whose propagated root still has
//! [`HARD_FROM_EMPTY`] empty cells or that have made
//! [`HARD_AFTER_GUESSES`] guesses, adds tdoku's two rules: the triad rule
//! at every fixed point, and a branch on a digit with exactly two
//! arrangements left in the band or stack with the fewest arrangements
//! over all digits (the cell branch when there is none). A visitor's
//! `choose_cell` wins over either.

use super::fast::Singles;
use super::lanes::Lanes;
use super::node::{Node, Seen, Split};
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
use super::wide::{Avx2, Avx512};
use super::wide::{Narrow, SimdPath, Wide};
use super::{Flow, Visitor};
use crate::engine::Stats;
use crate::grid::{Grid, CELLS};

/// Below the root, the fewest empty cells at which propagation runs the
/// stack pass: on fuller grids it finds little and costs more than the
/// guesses it saves. This replaces a limit on depth (the pass ran at
/// depth 4 or less): serg's puzzles take 8% fewer instructions, the
/// forum's hardest about 1% fewer (BENCHMARKS.md, issue 7 sixth round).
/// The root runs it on any grid with an empty cell, so that a puzzle
/// solved by singles (column hidden singles included) never needs a
/// guess.
const STACK_PASS_MIN_EMPTY: u32 = 35;

/// Easy mode branches on the first two-candidate cell of a grid with fewer
/// empty cells than this, and scores the two-candidate cells (see
/// `Node::branch_cell`) only on emptier grids: on fuller ones the choice
/// matters little and the scoring cost more than the guesses it saved
/// (serg's puzzles 4.6% fewer instructions, unbiased 0.2% fewer with 3%
/// more guesses; docs/benchmarks-history.md, issue 29). The same bound as
/// the stack pass's: below it the search does only the cheap steps. Hard mode
/// always scores.
const SCORE_MIN_EMPTY: u32 = 35;

/// A puzzle whose root, propagated, still has at least this many empty
/// cells is searched in hard mode from the start.
const HARD_FROM_EMPTY: u32 = 50;

/// Any other puzzle switches to hard mode once it has made this many
/// guesses.
const HARD_AFTER_GUESSES: u64 = 16;

/// The frames a path can need: one per cell guess (each fills a cell) and
/// one per split (each leaves its digit one arrangement in its band or
/// stack, so no later split on the path takes the same digit there: at
/// most 27 per band and 27 per stack).
const FRAMES: usize = CELLS + 54;

/// A saved alternative: the state to resume, and the digit (0-based) and
/// bands (bit `b`) of the masks that differ from the state the guess was
/// made on.
#[derive(Clone, Copy)]
struct Frame {
    state: Node,
    digit: u8,
    bands: u8,
}

/// The reusable search machinery: one per worker thread, reused for every
/// puzzle, so the search itself never touches the heap.
pub(crate) struct Search {
    stack: Box<[Frame; FRAMES]>,
    seen: Seen,
    path: SimdPath,
    /// Whether the current puzzle is searched in hard mode: triads at
    /// every fixed point, the stack pass at every node, and branching on
    /// a digit's two arrangements in a band or stack (see `expand`).
    hard: bool,
    /// Whether the current search may enter hard mode.
    allow_hard: bool,
    /// When the root tries the fast path (`fast.rs`) first: on the
    /// puzzles it chooses, but for the tests that compare the search with
    /// and without it.
    pub(crate) singles_first: SinglesFirst,
}

impl Search {
    /// The machinery for `path`, which must be available
    /// ([`SimdPath::is_available`]): the search runs that path's code.
    pub(crate) fn new(path: SimdPath) -> Search {
        assert!(path.is_available(), "{path} is not available here");
        let frame = Frame {
            state: Node::blank(),
            digit: 0,
            bands: 1,
        };
        Search {
            stack: Box::new([frame; FRAMES]),
            seen: Seen::blank(),
            path,
            hard: false,
            allow_hard: false,
            singles_first: SinglesFirst::Chosen,
        }
    }

    /// The path this search runs.
    pub(crate) fn path(&self) -> SimdPath {
        self.path
    }

    /// Runs the search over all completions of `puzzle` until the visitor
    /// stops it or the tree is exhausted; `None` when two givens clash.
    /// The loop runs as compiled for the search's [`SimdPath`].
    ///
    /// With `allow_hard`, a puzzle that meets the hard mode's rule is
    /// searched in that mode; without it (a visitor that steers the digit
    /// order, which only the cell branch asks for), always in easy mode.
    pub(crate) fn run<V: Visitor>(
        &mut self,
        puzzle: &Grid,
        visitor: &mut V,
        allow_hard: bool,
    ) -> Option<Stats> {
        self.allow_hard = allow_hard;
        match self.path {
            // SAFETY: `new` checked that the CPU has the path's features.
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            SimdPath::Avx512 => unsafe { self.run_avx512(puzzle, visitor) },
            // SAFETY: as above.
            #[cfg(all(feature = "simd", target_arch = "x86_64"))]
            SimdPath::Avx2 => unsafe { self.run_avx2(puzzle, visitor) },
            _ => self.run_with::<V, Narrow>(puzzle, visitor),
        }
    }

    /// [`run`](Self::run) compiled for x86-64-v3 (AVX2, BMI, POPCNT,
    /// LZCNT), with two digits per vector.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn run_avx2<V: Visitor>(&mut self, puzzle: &Grid, visitor: &mut V) -> Option<Stats> {
        self.run_with::<V, Avx2>(puzzle, visitor)
    }

    /// [`run`](Self::run) compiled for x86-64-v4 (AVX-512 F, VL, BW, DQ on
    /// top of v3), with four digits per vector.
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq")]
    fn run_avx512<V: Visitor>(&mut self, puzzle: &Grid, visitor: &mut V) -> Option<Stats> {
        self.run_with::<V, Avx512>(puzzle, visitor)
    }

    /// The search loop, inlined into each path's function so that all of
    /// it is compiled with that path's features.
    #[inline(always)]
    fn run_with<V: Visitor, W: Wide>(&mut self, puzzle: &Grid, visitor: &mut V) -> Option<Stats> {
        let mut stats = Stats::default();
        let mut depth = 0usize;
        let mut cur = Node::blank();
        self.seen = Seen::blank();
        // Singles first, on the fast path's own masks, when the puzzle has
        // enough givens; the usual load when it declines or meets a
        // contradiction (see `fast.rs`: the root's fixed point is the same
        // either way). Both start from the cells each digit's givens
        // cover, which also finds two equal givens that see each other.
        let givens = Lanes::givens(puzzle.cells());
        let filled = givens.iter().fold(Lanes::ZERO, |acc, g| acc.or(*g));
        let mut covered = [Lanes::ZERO; 9];
        W::covered(&givens, &mut covered).ok()?;
        let mut fast = Singles::blank();
        let try_singles = match self.singles_first {
            SinglesFirst::Chosen => Singles::worth_trying(filled),
            SinglesFirst::Always => true,
            SinglesFirst::Never => false,
        };
        let singles = if try_singles {
            fast.load(&givens, filled, &covered);
            fast.run::<W>().ok()
        } else {
            None
        };
        match singles {
            Some(solved) => {
                let (bands, unsolved) = fast.masks();
                cur.set_masks(bands, unsolved);
                if solved {
                    // A full, consistent grid: nothing to check.
                    self.seen.settle();
                }
            }
            None => cur.load_covered(&givens, filled, &covered),
        }
        self.hard = false;
        let mut alive = true;
        loop {
            if alive {
                match self.expand::<V, W>(&mut cur, &mut depth, &mut stats, visitor) {
                    Step::Deeper => continue,
                    Step::Backtrack => {}
                    Step::Stop => {
                        stats.stopped = true;
                        return Some(stats);
                    }
                }
            }
            // Dead end, pruned node, or a solution already reported.
            if depth == 0 {
                return Some(stats);
            }
            depth -= 1;
            let frame = &self.stack[depth];
            cur.copy_from::<W>(&frame.state);
            // Everything but the mask the removal changed is at a fixed
            // point; mark that one as changed.
            self.seen
                .resume::<W>(&frame.state, frame.digit as usize, u32::from(frame.bands));
            alive = true;
        }
    }

    /// Processes one node: propagation, the visitor's verdict, then either
    /// the solution or a guess.
    #[inline(always)]
    fn expand<V: Visitor, W: Wide>(
        &mut self,
        cur: &mut Node,
        depth: &mut usize,
        stats: &mut Stats,
        visitor: &mut V,
    ) -> Step {
        stats.nodes += 1;
        // The stack pass pays on sparse grids (it cuts guesses by two
        // thirds on 17-clue and top1465 puzzles) but on fuller ones it
        // costs more than the guesses it saves (BENCHMARKS.md, issue 7
        // third and sixth rounds).
        // Hard mode runs it everywhere (with triads, it is what makes the
        // arrangement counts small).
        self.seen.stack_pass_from = if *depth == 0 || self.hard {
            1
        } else {
            STACK_PASS_MIN_EMPTY
        };
        loop {
            if cur.propagate::<W>(&mut self.seen).is_err() {
                stats.dead_ends += 1;
                return Step::Backtrack;
            }
            if *depth == 0 && self.allow_hard && cur.empty_count() >= HARD_FROM_EMPTY {
                self.hard = true;
            }
            if self.hard {
                let changed = cur.triads::<W>();
                if changed != 0 {
                    self.seen.changed(changed);
                    continue;
                }
            }
            match visitor.enter(cur) {
                Flow::Continue => break,
                Flow::Narrowed => {
                    self.seen.recheck_all();
                    continue;
                }
                Flow::Prune => return Step::Backtrack,
                Flow::Stop => return Step::Stop,
            }
        }
        let choice = match visitor.choose_cell() {
            Some(cell) if cur.candidates(cell) != 0 => Some((cell / 27, (cell % 27) as u32)),
            _ if self.hard => match cur.split::<W>() {
                Some(split) => return self.split::<W>(cur, split, depth, stats),
                None => cur.branch_cell::<W>(0),
            },
            _ => cur.branch_cell::<W>(SCORE_MIN_EMPTY),
        };
        let Some((band, bit)) = choice else {
            return match visitor.solution(cur) {
                Flow::Stop => Step::Stop,
                Flow::Continue | Flow::Prune | Flow::Narrowed => Step::Backtrack,
            };
        };
        let cell = 27 * band + bit as usize;
        let m = cur.candidates(cell);
        let digit = visitor.choose_digit(cell, m);
        debug_assert!(m >> digit & 1 == 1, "the visitor chose a non-candidate");
        self.count_guess(stats);
        let frame = &mut self.stack[*depth];
        frame.state.copy_from::<W>(cur);
        frame.state.remove_candidate(digit, band, bit);
        frame.digit = digit as u8;
        frame.bands = 1 << band;
        *depth += 1;
        match cur.place::<W>(digit, band, bit) {
            Ok(changed) => {
                self.seen.changed(changed);
                Step::Deeper
            }
            Err(_) => {
                stats.dead_ends += 1;
                Step::Backtrack
            }
        }
    }
}

impl Search {
    /// Counts a guess; the puzzle goes to hard mode once it has made
    /// [`HARD_AFTER_GUESSES`].
    #[inline(always)]
    fn count_guess(&mut self, stats: &mut Stats) {
        stats.guesses += 1;
        if stats.guesses >= HARD_AFTER_GUESSES && self.allow_hard {
            self.hard = true;
        }
    }

    /// Branches on `split`: saves the second child, goes on with the
    /// first.
    #[inline(always)]
    fn split<W: Wide>(
        &mut self,
        cur: &mut Node,
        split: Split,
        depth: &mut usize,
        stats: &mut Stats,
    ) -> Step {
        self.count_guess(stats);
        let d = split.digit;
        let frame = &mut self.stack[*depth];
        frame.state.copy_from::<W>(cur);
        frame.state.restrict(d, split.keep[1]);
        frame.digit = d as u8;
        frame.bands = split.bands as u8;
        *depth += 1;
        // Every lane the split may touch is checked again (at least one
        // changed: each child drops the other's segments).
        cur.restrict(d, split.keep[0]);
        self.seen.changed(u64::from(split.bands) << (4 * d));
        Step::Deeper
    }
}

/// When the root tries the fast path (`fast.rs`) before the usual
/// propagation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SinglesFirst {
    /// On puzzles [`Singles::worth_trying`] accepts (the search's own
    /// choice).
    Chosen,
    /// On every puzzle (tests: the fast path's hand-over on any state).
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
    /// Never (tests: the search as it is without the fast path).
    #[cfg_attr(not(test), allow(dead_code))]
    Never,
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
