//! The search state in band form, and constraint propagation over it.
//!
//! # Bit layout
//!
//! The grid is three *bands* of 27 cells (rows 0-2, 3-5, 6-8). For each
//! digit `d` (0-based, digit `d + 1`) and band `b`, `bands[d].0[b]` is a
//! 27-bit mask of the cells of band `b` that may hold that digit; cell
//! `c` of the grid (0..81, row-major) is bit `c % 27` of band `c / 27`:
//!
//! ```text
//!            column:  0  1  2 | 3  4  5 | 6  7  8
//! band row 0 (bits)   0  1  2 | 3  4  5 | 6  7  8     box 0 | box 1 | box 2
//! band row 1          9 10 11 |12 13 14 |15 16 17     of the band
//! band row 2         18 19 20 |21 22 23 |24 25 26
//!
//! bands[d]  = [band 0 | band 1 | band 2 | 0]   one 128-bit value per digit
//! unsolved  = [band 0 | band 1 | band 2 | 0]   cells not yet placed
//! ```
//!
//! A placed digit stays set in its own mask (and is cleared from the cell
//! in all other digits' masks, and from every peer in its own digit's
//! masks), so a complete, consistent state has exactly the solution's
//! cells in each digit's three masks. This is the representation of
//! JCZSolve (and of the `sudoku` crate's port of it); the code here is our
//! own.
//!
//! # Propagation
//!
//! Propagation keeps a work list of the digit-band masks changed since
//! their last check (`seen`, owned by the search; every step that changes
//! masks reports which, so nothing compares the masks with a copy) and
//! checks each:
//!
//! * locked candidates inside the band (row-to-box permutations, see
//!   [`super::tables::MATCHED_SEGMENTS`]), which also finds a dead end
//!   when a row or box of the band has no place left, then hidden
//!   singles: a row of the band with one cell left places the digit there
//!   (after the permutation filter, a box with one cell left is also alone
//!   in its row);
//! * when nothing changed any more: "at least one / at least two"
//!   accumulated over the nine digits (all three bands at once) give the
//!   empty cells (a dead end) and the naked singles (cells with exactly
//!   one digit);
//! * when there are none either: the same permutation filter on stacks
//!   (which columns of a stack each band may use for a digit) and column
//!   hidden singles, per digit. (JCZSolve stops at the band rules; tdoku
//!   also works on stacks. Here the stack pass cut guesses on 17-clue and
//!   top1465 puzzles by two thirds.) Below the root the search runs it
//!   only on grids with enough empty cells (`Seen::stack_pass_from`): on
//!   fuller ones it costs more than it saves.
//!
//! The state is `Copy` (160 bytes) so a guess saves it by value onto the
//! solver's fixed stack: no heap, no undo log.

use super::lanes::Lanes;
use super::tables::{
    box_nine, lone_in_full_rows, transpose_groups, ARRANGEMENTS, BAND, BAND_PEERS, BOX_CELLS,
    COLUMN_0, MATCHED_CELLS, MATCHED_SEGMENTS, ONES_IN_NINE, ROW, SEGMENT_CELLS, SPREAD_EIGHT,
    TWO_ARRANGEMENTS,
};
use super::wide::Wide;
use crate::grid::{Grid, CELLS};

/// All nine digits as a candidate mask.
#[cfg(test)]
pub(crate) const ALL_DIGITS: u16 = 0x1FF;

/// A dead end: some cell or unit has no way left to hold a digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction;

/// The candidate mask bit of digit `d` (1..=9).
#[cfg(test)]
#[inline(always)]
pub(crate) const fn digit_bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The digit of a single-bit candidate mask.
#[inline(always)]
pub(crate) const fn bit_digit(bit: u16) -> u8 {
    bit.trailing_zeros() as u8 + 1
}

/// Every digit-band lane: bit `4 * d + b` for digit `d` (0-based) and band
/// `b`.
pub(super) const ALL_LANES: u64 = 0x7_7777_7777;

/// What propagation must look at again: the digit-band masks changed since
/// their last check, and the masks as the stack pass last saw them. Owned
/// by the search (not saved with each state).
#[derive(Clone, Copy)]
pub(crate) struct Seen {
    /// The digit-band masks to check (bit `4 * d + b`), a work list: every
    /// step that changes a mask adds its lane, so nothing has to compare
    /// the masks with a copy (that comparison, wide loads right after
    /// narrow stores of the same masks, stalled on store forwarding).
    pending: u64,
    /// The masks as the stack pass last saw them, per digit.
    stacks: [Lanes; 9],
    /// Propagation runs the stack pass when at least this many cells are
    /// empty (set by the search; `u32::MAX`: never).
    pub(crate) stack_pass_from: u32,
}

impl Seen {
    /// For a state just loaded: everything to check.
    pub(crate) const fn blank() -> Seen {
        Seen {
            pending: ALL_LANES,
            stacks: Node::blank().bands,
            stack_pass_from: 1,
        }
    }

    /// Resets to `state`, a fixed point of propagation except that the
    /// masks of digit `d` in the bands of `bands` (bit `b` for band `b`,
    /// at least one) have changed since.
    #[inline(always)]
    pub(crate) fn resume<W: Wide>(&mut self, state: &Node, d: usize, bands: u32) {
        self.pending = u64::from(bands) << (4 * d);
        // Whole-vector writes: the stack pass loads these as vectors, and
        // a narrow store cannot be forwarded to a wide load.
        let b = bands.trailing_zeros() as usize & 3;
        let flipped = state.bands[d].with_lane(b, !state.bands[d].0[b]);
        W::copy(&mut self.stacks, &state.bands);
        self.stacks[d] = flipped;
    }

    /// Empties the work list: for a state known to be a fixed point (the
    /// root's fast path filled the grid).
    #[inline(always)]
    pub(crate) fn settle(&mut self) {
        self.pending = 0;
    }

    /// Adds the lanes in `changed` (bit `4 * d + b`) to the work list: the
    /// masks a step outside propagation changed (a guess placed).
    #[inline(always)]
    pub(crate) fn changed(&mut self, changed: u64) {
        self.pending |= changed;
    }

    /// Marks every mask to be checked again (after a visitor narrowed the
    /// node, without saying which masks it changed).
    #[inline(always)]
    pub(crate) fn recheck_all(&mut self) {
        self.pending = ALL_LANES;
    }
}

/// Packs the three band lanes (nine bits each) into one word, band `b` at
/// bit `9 * b`.
#[inline(always)]
fn pack(l: Lanes) -> u32 {
    l.0[0] | l.0[1] << 9 | l.0[2] << 18
}

/// The columns holding any of `cells` (a band mask), as a band mask.
#[inline(always)]
fn columns_of(cells: u32) -> u32 {
    ((cells | cells >> 9 | cells >> 18) & ROW) * COLUMN_0
}

/// Per digit, the cells in a row, column or box holding one of its
/// `givens` (the givens included), into `covered`; a contradiction when
/// two givens of a digit share a house. The portable version of
/// [`Wide::covered`] (the x86 ones: `arrange_x86.rs`).
#[inline(always)]
pub(crate) fn covered_nine(
    givens: &[Lanes; 9],
    covered: &mut [Lanes; 9],
) -> Result<(), Contradiction> {
    for (covered, given) in covered.iter_mut().zip(givens) {
        let mut peers = Lanes::ZERO;
        for b in 0..3 {
            let mut rest = given.0[b];
            if rest == 0 {
                continue;
            }
            peers = peers.or(Lanes::others(b, columns_of(rest)));
            while rest != 0 {
                peers.0[b] |= BAND_PEERS[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        if given.and(peers).any() {
            return Err(Contradiction);
        }
        *covered = peers.or(*given);
    }
    Ok(())
}

/// The stack pass's permutation filter of one digit (the portable
/// version of [`Wide::stack_keep`]): from the columns holding it per band
/// (packed, band `b` at bit `9 * b`), those that fit an arrangement in
/// their stack, same packing; a contradiction when some stack has none.
#[inline(always)]
pub(crate) fn stack_keep(columns: u32) -> Result<u32, Contradiction> {
    // The three stacks' band-column patterns side by side (stack `s` at
    // bit `9 * s`), each filtered by the permutation table.
    let stacked = transpose_groups(columns);
    let allowed = |s: u32| u32::from(MATCHED_SEGMENTS[(stacked >> (9 * s) & ROW) as usize]);
    let (a0, a1, a2) = (allowed(0), allowed(1), allowed(2));
    if a0 == 0 || a1 == 0 || a2 == 0 {
        return Err(Contradiction);
    }
    Ok(transpose_groups(a0 | a1 << 9 | a2 << 18))
}

/// A branch of the hard mode: digit `digit` (0-based) has exactly two
/// arrangements left in one band or stack, and each child keeps one of
/// them (its masks ANDed with that child's `keep`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Split {
    /// The digit split.
    pub(crate) digit: usize,
    /// The first child's masks, then the second's, for the digit.
    pub(crate) keep: [Lanes; 2],
    /// The bands whose masks the split changes (bit `b`).
    pub(crate) bands: u32,
}

/// The two arrangements (of [`ARRANGEMENTS`]) that fit a segment
/// pattern known to have exactly two.
#[inline(always)]
fn two_arrangements(pattern: usize) -> [u32; 2] {
    let out = TWO_ARRANGEMENTS[pattern & 0x1FF].map(u32::from);
    debug_assert!(
        out[1] != 0
            && ARRANGEMENTS
                .iter()
                .filter(|&&a| usize::from(a) & !pattern == 0)
                .count()
                == 2,
        "pattern {pattern:09b} has not two arrangements"
    );
    out
}

/// One node of the search: what is placed and what each empty cell may
/// still hold. A [`Visitor`](crate::solver::Visitor) gets it at each node
/// and at each solution.
///
/// Candidate masks have bit `d - 1` set when digit `d` may go in the cell.
///
/// # Example
/// ```
/// use batchdoku_core::solver::{Flow, Node, Visitor};
/// use batchdoku_core::{Grid, Solver};
///
/// /// Finds a solution with a 9 in the top-left cell, by removing the
/// /// other candidates of that cell.
/// #[derive(Default)]
/// struct NineFirst {
///     root_empty: Option<u32>,
///     solution: Option<Grid>,
/// }
///
/// impl Visitor for NineFirst {
///     fn enter(&mut self, node: &mut Node) -> Flow {
///         self.root_empty.get_or_insert(node.empty_count());
///         let bit = |d: u8| 1u16 << (d - 1); // a digit's bit in a candidate mask
///         let others = node.candidates(0) & !bit(9);
///         if others == 0 {
///             return Flow::Continue; // the cell is filled, or 9 is all it may hold
///         }
///         for d in (1..=8).filter(|&d| others & bit(d) != 0) {
///             node.eliminate(0, d);
///         }
///         Flow::Narrowed // propagate again, then enter again
///     }
///
///     fn solution(&mut self, node: &Node) -> Flow {
///         assert_eq!(node.value(0), 9);
///         self.solution = Some(node.to_grid());
///         Flow::Stop
///     }
/// }
///
/// let mut visitor = NineFirst::default();
/// Solver::new().search(&Grid::empty(), &mut visitor).unwrap();
/// assert_eq!(visitor.root_empty, Some(81));
/// let solution = visitor.solution.unwrap();
/// assert_eq!(solution.get(0), 9);
/// assert!(solution.is_valid_solution());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Node {
    bands: [Lanes; 9],
    unsolved: Lanes,
}

impl Node {
    /// The state of a grid with no givens.
    pub(crate) const fn blank() -> Node {
        Node {
            bands: [Lanes::bands(BAND); 9],
            unsolved: Lanes::bands(BAND),
        }
    }

    /// Loads the givens of `puzzle` onto a blank state, all at once (see
    /// [`load_covered`](Self::load_covered)). Two equal givens that see
    /// each other are a contradiction; propagation (not done here) finds
    /// the rest.
    #[cfg(test)]
    pub(crate) fn load(&mut self, puzzle: &Grid) -> Result<(), Contradiction> {
        let givens = Lanes::givens(puzzle.cells());
        let mut covered = [Lanes::ZERO; 9];
        covered_nine(&givens, &mut covered)?;
        let filled = givens.iter().fold(Lanes::ZERO, |acc, g| acc.or(*g));
        self.load_covered(&givens, filled, &covered);
        Ok(())
    }

    /// Loads the givens (per digit, as band masks: entry `d` holds the
    /// cells whose value is `d + 1`; together they fill `filled`) onto a
    /// blank state, with `covered` from [`Wide::covered`]: each digit's
    /// masks lose the other digits' givens and every cell in a house with
    /// one of its own, but keep its givens.
    #[inline(always)]
    pub(crate) fn load_covered(
        &mut self,
        givens: &[Lanes; 9],
        filled: Lanes,
        covered: &[Lanes; 9],
    ) {
        let all = Lanes::bands(BAND);
        self.unsolved = all.and_not(filled);
        for ((mask, covered), given) in self.bands.iter_mut().zip(covered).zip(givens) {
            *mask = self.unsolved.and_not(*covered).or(*given);
        }
    }

    /// A state from its masks: per digit, its candidates in empty cells
    /// and the cells it is placed in; and the empty cells (the root's
    /// fast path hands over this way).
    #[inline(always)]
    pub(crate) fn set_masks(&mut self, bands: [Lanes; 9], unsolved: Lanes) {
        self.bands = bands;
        self.unsolved = unsolved;
    }

    /// The candidate mask of a cell: bit `d - 1` set when digit `d` may
    /// still go there (0 once the cell is filled).
    #[inline]
    pub fn candidates(&self, cell: usize) -> u16 {
        let (b, p) = (cell / 27, cell % 27);
        if self.unsolved.0[b] >> p & 1 == 0 {
            return 0;
        }
        self.gather(b, p)
    }

    /// Every cell's candidate mask (0 once filled) and digit (0 while
    /// empty), in one pass over the band masks: cheaper than 81 calls of
    /// [`candidates`](Self::candidates) and [`value`](Self::value).
    #[inline]
    pub fn cell_masks(&self, candidates: &mut [u16; CELLS], values: &mut [u8; CELLS]) {
        *candidates = [0; CELLS];
        *values = [0; CELLS];
        for d in 0..9 {
            for b in 0..3 {
                let mask = self.bands[d].0[b];
                let mut open = mask & self.unsolved.0[b];
                while open != 0 {
                    let p = open.trailing_zeros() as usize;
                    open &= open - 1;
                    candidates[27 * b + p] |= 1 << d;
                }
                let mut placed = mask & !self.unsolved.0[b];
                while placed != 0 {
                    let p = placed.trailing_zeros() as usize;
                    placed &= placed - 1;
                    values[27 * b + p] = d as u8 + 1;
                }
            }
        }
    }

    /// The digits whose mask holds cell `p` of band `b`, placed or not.
    #[inline(always)]
    fn gather(&self, b: usize, p: usize) -> u16 {
        let mut m = 0u16;
        for d in 0..9 {
            m |= ((self.bands[d].0[b] >> p & 1) as u16) << d;
        }
        m
    }

    /// Removes `digit` (1..=9) from the candidates of an empty `cell`
    /// (a visitor narrowing a node; the search propagates it afterwards).
    #[inline]
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        let (b, p) = (cell / 27, cell % 27);
        if self.unsolved.0[b] >> p & 1 != 0 {
            self.bands[digit as usize - 1].0[b] &= !(1 << p);
        }
    }

    /// The digit in a cell, 0 while empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        let (b, p) = (cell / 27, cell % 27);
        if self.unsolved.0[b] >> p & 1 != 0 {
            return 0;
        }
        let m = self.gather(b, p);
        if m == 0 {
            0
        } else {
            bit_digit(m)
        }
    }

    /// The number of empty cells.
    #[inline]
    pub fn empty_count(&self) -> u32 {
        self.unsolved.count_ones()
    }

    /// Whether at least `n` cells are empty: without counting them for
    /// `n` of 1 (the hard mode's stack pass asks at every fixed point).
    #[inline(always)]
    fn empty_at_least(&self, n: u32) -> bool {
        match n {
            0 => true,
            1 => self.unsolved.any(),
            _ => self.empty_count() >= n,
        }
    }

    /// The filled cells as a grid.
    ///
    /// Built from four bit planes of the cell values (plane `k` holds the
    /// placed cells whose digit has bit `k` set), eight cells at a time by
    /// a table that spreads eight bits over eight bytes: no loop over
    /// cells.
    #[inline]
    pub fn to_grid(&self) -> Grid {
        let mut planes = [Lanes::ZERO; 4];
        for (d, mask) in self.bands.iter().enumerate() {
            let placed = mask.and_not(self.unsolved);
            for (k, plane) in planes.iter_mut().enumerate() {
                if (d + 1) >> k & 1 == 1 {
                    *plane = plane.or(placed);
                }
            }
        }
        // Each plane as one 81-bit number, cell c at bit c.
        let planes = planes
            .map(|p| u128::from(p.0[0]) | u128::from(p.0[1]) << 27 | u128::from(p.0[2]) << 54);
        let mut bytes = [0u8; 88];
        for (g, chunk) in bytes.chunks_exact_mut(8).enumerate() {
            let mut values = 0u64;
            for (k, plane) in planes.iter().enumerate() {
                values |= SPREAD_EIGHT[(plane >> (8 * g)) as usize & 0xFF] << k;
            }
            chunk.copy_from_slice(&values.to_le_bytes());
        }
        let mut cells = [0u8; CELLS];
        cells.copy_from_slice(&bytes[..CELLS]);
        Grid::from_cells(cells).expect("a placed cell holds one digit")
    }

    /// Overwrites `self` with `other`, inline (see [`Lanes::copy_nine`]):
    /// the search saves and restores a state at every guess and backtrack.
    #[inline(always)]
    pub(crate) fn copy_from<W: Wide>(&mut self, other: &Node) {
        W::copy(&mut self.bands, &other.bands);
        self.unsolved = other.unsolved;
    }

    /// Removes digit `d` (0-based) from cell `p` of band `b`: the saved
    /// alternative after that digit was tried there.
    #[inline(always)]
    pub(crate) fn remove_candidate(&mut self, d: usize, b: usize, p: u32) {
        self.bands[d].0[b] &= !(1 << p);
    }

    /// Places digit `d` (0-based) in cell `p` of band `b`: clears the cell
    /// from the other digits, the cell's column from the digit's other
    /// bands and the cell's row, box and column mates from its own band.
    /// A digit no longer possible there is a contradiction.
    /// Returns the lanes it changed (bit `4 * d + b`), for [`Seen`].
    #[inline(always)]
    pub(crate) fn place<W: Wide>(
        &mut self,
        d: usize,
        b: usize,
        p: u32,
    ) -> Result<u64, Contradiction> {
        let bit = 1u32 << p;
        let mine = self.bands[d].0[b];
        if mine & bit == 0 {
            return Err(Contradiction);
        }
        // Lane `b` of digit `d` is among the changed: it held the cell.
        let changed = self.fill::<W>(d, b, bit);
        self.bands[d].0[b] = mine & !BAND_PEERS[p as usize];
        Ok(changed)
    }

    /// Marks `cells` of band `b` filled with digit `d`: clears them from
    /// every digit's masks and their columns from the digit's masks (its
    /// own lane `b` too: the caller sets that lane, which it reports as
    /// changed or masks out, so clearing it whole saves picking the other
    /// two). Returns the lanes that changed.
    #[inline(always)]
    fn fill<W: Wide>(&mut self, d: usize, b: usize, cells: u32) -> u64 {
        self.unsolved.0[b] &= !cells;
        W::clear(&mut self.bands, Lanes::only(b, cells))
            | self.remove(d, Lanes::bands(columns_of(cells)))
    }

    /// The mask of lane `i` (bit `i` of a lane set: digit `i / 4`, band
    /// `i % 4`), by one index into the 36 lanes in a row (cheaper to
    /// address than the digit, then the band).
    #[inline(always)]
    fn lane(&mut self, i: usize) -> &mut u32 {
        // SAFETY: `Lanes` is `repr(C)` over `[u32; 4]` (16 bytes, no
        // padding), so the nine of `bands` are 36 `u32`s in a row, and the
        // borrow of `self` covers them.
        let all = unsafe { &mut *self.bands.as_mut_ptr().cast::<[u32; 36]>() };
        &mut all[i]
    }

    /// Removes `cells` from digit `d`'s masks; returns the lanes that
    /// changed (bit `4 * d + b`).
    #[inline(always)]
    fn remove(&mut self, d: usize, cells: Lanes) -> u64 {
        let changed = u64::from(self.bands[d].and(cells).nonzero()) << (4 * d);
        self.bands[d] = self.bands[d].and_not(cells);
        changed
    }

    /// Checks the mask of digit `d` in band `b`: locked candidates in the
    /// band, then rows of the band with one cell left (hidden singles),
    /// placed all at once.
    ///
    /// After the permutation filter a row with one cell left owns its box
    /// in every permutation, so the filter has already cleared that cell's
    /// box (and so column) mates in this band: placing it only has to clear
    /// the cell from the other digits and its column from the other bands.
    ///
    /// Returns the other lanes it changed (bit `4 * d + b`); the checked
    /// mask itself is left at its fixed point (the filter keeps what it
    /// keeps, and the singles are placed).
    #[inline(always)]
    fn update<W: Wide>(&mut self, i: usize) -> Result<u64, Contradiction> {
        let (d, b) = (i >> 2, i & 3);
        let mask = *self.lane(i);
        let allowed = MATCHED_CELLS[W::segments(mask)];
        if allowed == 0 {
            return Err(Contradiction);
        }
        let band = mask & allowed;
        let lone = lone_in_full_rows(band) & self.unsolved.0[b];
        let changed = if lone != 0 {
            self.fill::<W>(d, b, lone) & !(1 << i)
        } else {
            0
        };
        *self.lane(i) = band;
        Ok(changed)
    }

    /// Places every naked single (a cell with one digit left); returns the
    /// lanes changed (bit `4 * d + b`; none when no single was found). An
    /// empty cell is a contradiction, and so are two singles of one digit
    /// that see each other.
    #[inline(always)]
    fn naked_singles<W: Wide>(&mut self) -> Result<u64, Contradiction> {
        let (once, twice) = W::at_least_two(&self.bands);
        if self.unsolved.and_not(once).any() {
            return Err(Contradiction);
        }
        let singles = self.unsolved.and_not(twice);
        if !singles.any() {
            return Ok(0);
        }
        let mut changed = 0;
        self.unsolved = self.unsolved.and_not(singles);
        // A single's cell holds no other digit, so only its own digit's
        // masks change: its band mates and its column in the other bands.
        // The digits holding a single, all at once (each step below
        // changes only its own digit's masks).
        let mut digits = W::overlap(&self.bands, singles);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize / 4;
            digits &= !(0xF << (4 * d));
            let mine = singles.and(self.bands[d]);
            let mut clear = Lanes::ZERO;
            for b in 0..3 {
                let cells = mine.0[b];
                if cells == 0 {
                    continue;
                }
                let mut peers = 0;
                let mut rest = cells;
                while rest != 0 {
                    peers |= BAND_PEERS[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                clear.0[b] |= peers;
                clear = clear.or(Lanes::others(b, columns_of(cells)));
            }
            if mine.and(clear).any() {
                return Err(Contradiction);
            }
            // The single's own lanes too: a cell newly placed changes what
            // the band check of its digit may place.
            changed |= self.remove(d, clear) | u64::from(mine.nonzero()) << (4 * d);
        }
        Ok(changed)
    }

    /// The column-wise counterpart of [`update`](Self::update), for every
    /// digit: in each stack the three bands hold the digit in three
    /// different columns of the stack (a permutation again, so the same
    /// table filters band-column segments), and a column left with one
    /// cell for the digit is a hidden single. Returns the lanes it changed
    /// (bit `4 * d + b`). Only digits whose masks differ from `seen` are
    /// looked at (and `seen` is brought up to date).
    #[inline(always)]
    fn stacks<W: Wide>(&mut self, seen: &mut [Lanes; 9]) -> Result<u64, Contradiction> {
        let row = Lanes::bands(ROW);
        let mut changed = 0;
        // Digits unchanged since the last pass have nothing new. (A digit
        // that changes during this pass, by a single placed here, is left
        // to the next one: this pass then reports a change.)
        let mut digits = W::differ(&self.bands, seen);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize / 4;
            digits &= !(0xF << (4 * d));
            seen[d] = self.bands[d];
            // Per band (all three at once): the columns holding the digit,
            // those holding it in one row only, and those where it is
            // placed; then packed into one word, band `b` at bit `9 * b`.
            let v = self.bands[d];
            let (r0, r1, r2) = (v.and(row), v.shr::<9>().and(row), v.shr::<18>());
            let once = r0.or(r1).or(r2);
            let twice = r0.and(r1).or(r2.and(r0.or(r1)));
            let placed = v.and_not(self.unsolved);
            let placed = placed.or(placed.shr::<9>()).or(placed.shr::<18>());
            let columns = pack(once);
            let lone = pack(once.and_not(twice));
            let placed = pack(placed.and(row));
            let placed = (placed | placed >> 9 | placed >> 18) & ROW;
            let keep = W::stack_keep(columns)?;
            if keep != columns {
                let spread = |b: u32| (keep >> (9 * b) & ROW) * COLUMN_0;
                let kept = Lanes([spread(0), spread(1), spread(2), 0]);
                changed |= u64::from(self.bands[d].and_not(kept).nonzero()) << (4 * d);
                self.bands[d] = self.bands[d].and(kept);
            }
            // Columns left in exactly one band, in one row there, and not
            // yet holding the digit: hidden singles.
            let (k0, k1, k2) = (keep & ROW, keep >> 9 & ROW, keep >> 18);
            let one_band = (k0 | k1 | k2) & !((k0 & k1) | (k2 & (k0 | k1))) & !placed;
            let singles = keep & lone & (one_band * COLUMN_0);
            if singles != 0 {
                for b in 0..3 {
                    let columns = singles >> (9 * b) & ROW;
                    let mut cells = self.bands[d].0[b] & (columns * COLUMN_0) & self.unsolved.0[b];
                    while cells != 0 {
                        let p = cells.trailing_zeros();
                        cells &= cells - 1;
                        changed |= self.place::<W>(d, b, p)?;
                    }
                }
            }
        }
        Ok(changed)
    }

    /// Propagates until nothing changes: every mask on `seen`'s work list
    /// is checked (and what that changes joins the list) until the list
    /// is empty, then naked singles are placed, and again while they find
    /// anything, then (if at least `seen.stack_pass_from` cells are empty)
    /// the stack pass. On success the work list is empty.
    #[inline(always)]
    pub(crate) fn propagate<W: Wide>(&mut self, seen: &mut Seen) -> Result<(), Contradiction> {
        // The work list in a local: kept in a register across the band
        // checks, not stored back after each one (the work list is only
        // read again by the next propagation, after a success; a dead end
        // is followed by `Seen::resume`, which sets it anew).
        let mut pending = seen.pending;
        seen.pending = 0;
        loop {
            while pending != 0 {
                let i = pending.trailing_zeros() as usize;
                pending &= pending - 1;
                pending |= self.update::<W>(i)?;
            }
            let mut changed = self.naked_singles::<W>()?;
            if changed == 0 && self.empty_at_least(seen.stack_pass_from) {
                changed = self.stacks::<W>(&mut seen.stacks)?;
            }
            if changed == 0 {
                return Ok(());
            }
            pending = changed;
        }
    }

    /// The empty cell to branch on, as (band, bit): a cell with two
    /// candidates if there is one, else the first with the fewest
    /// (minimum remaining values); `None` when the grid is full. Meant for
    /// a propagated state, where no empty cell has fewer than two.
    ///
    /// With fewer than `score_from` empty cells it takes the first
    /// two-candidate cell in band order. Otherwise it scores them: it
    /// takes those in the rows holding the most of them (their
    /// eliminations reinforce each other), and among those the one whose
    /// box has the most empty cells (the guess reaches more cells); ties
    /// go to the first box in band order, then the first such cell of
    /// that box.
    #[inline(always)]
    pub(crate) fn branch_cell<W: Wide>(&self, score_from: u32) -> Option<(usize, u32)> {
        if !self.unsolved.any() {
            return None;
        }
        let (_, twice, thrice) = W::at_least_three(&self.bands);
        let pairs = self.unsolved.and(twice).and_not(thrice);
        if self.empty_count() < score_from {
            for b in 0..3 {
                if pairs.0[b] != 0 {
                    return Some((b, pairs.0[b].trailing_zeros()));
                }
            }
            return self.fewest_candidates();
        }
        // The most two-candidate cells in a row (fewer guesses than the
        // first two-candidate cell by a fifth on top1465 and the forum's
        // hardest lists), then the rows holding that many. Counted by
        // table: without `target-cpu`, `count_ones` is a long bit trick.
        let counts: [[u8; 3]; 3] = std::array::from_fn(|b| {
            std::array::from_fn(|r| ONES_IN_NINE[(pairs.0[b] >> (9 * r) & ROW) as usize])
        });
        let most = counts.iter().flatten().fold(0, |m, &n| m.max(n));
        if most == 0 {
            return self.fewest_candidates();
        }
        let mut best = None;
        let mut best_empty = 0;
        for b in 0..3 {
            let lane = pairs.0[b];
            let mut rows = 0;
            for (r, &n) in counts[b].iter().enumerate() {
                if n == most {
                    rows |= lane & ROW << (9 * r);
                }
            }
            if rows == 0 {
                continue;
            }
            for (k, cells) in BOX_CELLS.into_iter().enumerate() {
                let here = rows & cells;
                if here != 0 {
                    let empty = ONES_IN_NINE[box_nine(self.unsolved.0[b], k)];
                    if empty > best_empty {
                        best_empty = empty;
                        best = Some((b, here.trailing_zeros()));
                    }
                }
            }
        }
        best
    }

    /// The hard mode's triad rule (see [`Wide::triads`]); returns the
    /// lanes changed (bit `4 * d + b`).
    #[inline(always)]
    pub(crate) fn triads<W: Wide>(&mut self) -> u64 {
        W::triads(&mut self.bands)
    }

    /// The hard mode's branch: among the bands and stacks where some digit
    /// has exactly two arrangements left, the one with the fewest
    /// arrangements over all nine digits (ties: bands first, then the
    /// lowest), split on the first such digit there. `None` when no digit
    /// has two anywhere. Meant for a propagated state.
    #[inline(always)]
    pub(crate) fn split<W: Wide>(&self) -> Option<Split> {
        let a = W::arrangements(&self.bands);
        // Bit `4 * d` for every digit.
        const DIGITS: u64 = 0x1_1111_1111;
        let mut best: Option<(u32, bool, usize)> = None;
        for (is_stack, totals, pairs) in [
            (false, a.band_totals, a.band_pairs),
            (true, a.stack_totals, a.stack_pairs),
        ] {
            for (k, &total) in totals.iter().enumerate() {
                if pairs & DIGITS << k != 0 && best.is_none_or(|(t, _, _)| total < t) {
                    best = Some((total, is_stack, k));
                }
            }
        }
        let (_, is_stack, k) = best?;
        let pairs = if is_stack {
            a.stack_pairs
        } else {
            a.band_pairs
        };
        let d = (pairs & DIGITS << k).trailing_zeros() as usize / 4;
        let mask = self.bands[d];
        let all = Lanes::bands(BAND);
        if !is_stack {
            let [x, y] = two_arrangements(W::segments(mask.0[k]));
            let keep = |a: u32| all.with_lane(k, SEGMENT_CELLS[a as usize]);
            return Some(Split {
                digit: d,
                keep: [keep(x), keep(y)],
                bands: 1 << k,
            });
        }
        // Stack `k`: bit `3 * b + c` when band `b` has column `3k + c`.
        let pattern = (0..3).fold(0, |p, b| {
            let m = mask.0[b];
            let columns = (m | m >> 9 | m >> 18) >> (3 * k) & 7;
            p | (columns as usize) << (3 * b)
        });
        let [x, y] = two_arrangements(pattern);
        let keep = |a: u32| {
            let mut l = all;
            for b in 0..3 {
                let off = (7 & !(a >> (3 * b))) << (3 * k);
                l.0[b] = BAND & !(off * COLUMN_0);
            }
            l
        };
        Some(Split {
            digit: d,
            keep: [keep(x), keep(y)],
            bands: 0b111,
        })
    }

    /// Keeps only `keep` of digit `d`'s masks (a child of a [`Split`]);
    /// returns the lanes changed (bit `4 * d + b`).
    #[inline(always)]
    pub(crate) fn restrict(&mut self, d: usize, keep: Lanes) -> u64 {
        let changed = u64::from(self.bands[d].and_not(keep).nonzero()) << (4 * d);
        self.bands[d] = self.bands[d].and(keep);
        changed
    }

    /// The first empty cell with the fewest candidates, by counting (the
    /// rare case where no cell has two).
    #[cold]
    fn fewest_candidates(&self) -> Option<(usize, u32)> {
        let mut best = None;
        let mut best_count = u32::MAX;
        for b in 0..3 {
            let mut unsolved = self.unsolved.0[b];
            while unsolved != 0 {
                let p = unsolved.trailing_zeros();
                unsolved &= unsolved - 1;
                let n = self.gather(b, p as usize).count_ones();
                if n < best_count {
                    best_count = n;
                    best = Some((b, p));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests;
