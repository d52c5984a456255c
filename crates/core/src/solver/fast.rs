//! The root's fast path: naked and hidden singles alone, on one 128-bit
//! mask per digit, before the search's own propagation (issue 41).
//!
//! Most puzzles of the public easy sets (Kaggle's, 30 to 40 givens) fall to
//! singles, and on those the band-mask propagation does more than needed
//! (locked candidates per band, the stack pass). This path places singles
//! until it solves the puzzle or stalls; the search then starts from its
//! state (see [`Search`](super::search)): a solved grid goes straight to
//! the visitor, a stalled one is propagated as usual from there. Singles
//! are among the propagation's own rules, and every rule only removes
//! candidates whose removal cannot undo another rule's reason, so both
//! ways reach the same fixed point at the root: the same nodes, guesses
//! and answers, whichever way a puzzle goes. A contradiction hands the
//! puzzle to the usual path unchanged (it finds the dead end itself).
//!
//! # Layout and loop
//!
//! The same band lanes as the search's (`node.rs`): per digit one 128-bit
//! [`Lanes`], cell `c` (row-major) at bit `c % 27` of lane `c / 27`, lane
//! 3 zero. `cand[d]` holds the empty-or-not cells that may still hold `d`
//! (a placed cell leaves the other digits' masks lazily: everything reads
//! them through `unsolved`), `placed[d]` the cells holding `d`. So the
//! hand-over to the search is a few vector operations per digit.
//!
//! - Placing `d` in `c` is one AND-NOT of `cand[d]` with `PEERS[c]` (the
//!   cell and its 20 peers).
//! - Naked singles: "at least one" and "at least two" candidates for every
//!   cell at once over the nine masks (the search's own
//!   [`Wide::at_least_two`], four digits per vector on AVX-512), which also
//!   finds empty cells; all found are placed together.
//! - Hidden singles, when there are no naked ones: every house of every
//!   digit at once by bit tricks ([`lone_cells`]): rows by borrows inside
//!   each nine-bit row, columns and boxes by "at least one / two" over
//!   rows; on AVX2 and AVX-512 two or four digits per vector
//!   ([`Wide::lone_cells`]). All found are placed together.
//!
//! The design follows the published description of fsss2 (Mladen
//! Dobrichev's solver: a mask per digit, placement by a peer mask,
//! bit-sliced naked singles, hidden singles only for changed digits); the
//! code is our own. fsss2 also keeps a bit per house still open for the
//! digit, so that its scan visits only those; here the scan of all 27
//! houses at once costs less than visiting them one by one (on serg's
//! benchmark, where the path stalls after a few singles, the path cost
//! about 5,500 instructions a puzzle house by house, about 2,300 digit by
//! digit, changed digits only, and about 1,100 every digit, two to a
//! vector on AVX2).
//!
//! Only puzzles with at least [`MIN_GIVENS`] givens, and at least
//! [`MIN_IN_CHUTE`] in each band and each stack, take this path: on
//! sparser ones singles rarely get far, and the attempt would be paid on
//! top of the usual propagation. (Serg's benchmark, 34 or 35 givens but 5
//! in one band and one stack, stalls after about two singles: forced onto
//! this path it pays about 370 instructions a puzzle for them.)

use super::lanes::Lanes;
use super::node::Contradiction;
use super::tables::{lone_in_full_rows, BAND, BOX_LOW, COLUMN_0 as COLUMN, ROW, ROW_HIGH};
use super::wide::Wide;

/// The fewest givens for which the root tries singles first. Kaggle-like
/// puzzles have 30 to 40; the hard public sets mostly under 28 (serg's
/// benchmark, 34 and 35 givens and 6 guesses a puzzle, is kept off by
/// [`MIN_IN_CHUTE`]).
pub(super) const MIN_GIVENS: u32 = 28;

/// The fewest givens in each band and each stack for which the root tries
/// singles first: with fewer, singles stall in that chute. (Serg's
/// benchmark has 5 in one band and one stack in every puzzle and needs 6
/// guesses a puzzle; of 20,000 Kaggle-like puzzles, which singles solve,
/// 55 have 4 or 5.)
pub(super) const MIN_IN_CHUTE: u32 = 6;

/// The row, column and box (0..9 each) of cell `c`.
const fn houses_of(c: usize) -> (usize, usize, usize) {
    let (r, col) = (c / 9, c % 9);
    (r, col, r / 3 * 3 + col / 3)
}

/// For each cell (`27 * band + bit`): itself and its 20 peers.
const PEERS: [Lanes; 81] = {
    let mut peers = [Lanes([0; 4]); 81];
    let mut c = 0;
    while c < 81 {
        let (r, col, b) = houses_of(c);
        let mut o = 0;
        while o < 81 {
            let (ro, colo, bo) = houses_of(o);
            if ro == r || colo == col || bo == b {
                peers[c].0[o / 27] |= 1 << (o % 27);
            }
            o += 1;
        }
        c += 1;
    }
    peers
};

/// The empty cells alone in their row, column or box for one digit, per
/// band: `m` holds the digit's candidates in empty cells, `placed` the
/// cells it is placed in (every house then has a cell, or the digit has
/// no place there: a contradiction). All 27 houses at once: rows by
/// borrows inside each nine-bit row, columns and boxes by counting "at
/// least one" and "at least two" over the nine rows (columns) or a band's
/// three rows folded onto each box's three positions (boxes).
#[inline(always)]
fn lone_cells(m: Lanes, placed: Lanes) -> Result<[u32; 3], Contradiction> {
    let mut lone = [0u32; 3];
    let (mut once, mut twice) = (0u32, 0u32);
    // Not zero once some house has no cell: checked once, at the end.
    let mut missing = 0;
    for (b, lone) in lone.iter_mut().enumerate() {
        let f = m.0[b] | placed.0[b];
        // Every row has a cell: bit 8 of each row carries from the low
        // eight or is set itself.
        let low = ROW_HIGH - COLUMN;
        missing |= ((((f & low) + low) | f) & ROW_HIGH) ^ ROW_HIGH;
        let (r0, r1, r2) = (f & ROW, f >> 9 & ROW, f >> 18);
        // The band's three rows folded: its columns with at least one and
        // at least two cells.
        let (o, t) = (r0 | r1 | r2, r0 & r1 | r2 & (r0 | r1));
        // Columns: counted over the three bands.
        twice |= (once & o) | t;
        once |= o;
        // Boxes: each box's three positions.
        let (o0, o1, o2) = (o & BOX_LOW, o >> 1 & BOX_LOW, o >> 2 & BOX_LOW);
        let any = o0 | o1 | o2;
        missing |= any ^ BOX_LOW;
        let two = o0 & o1 | o2 & (o0 | o1) | (t | t >> 1 | t >> 2) & BOX_LOW;
        let boxes = (any & !two) * 7 * COLUMN;
        *lone = (lone_in_full_rows(f) | f & boxes) & m.0[b];
    }
    if missing | (once ^ ROW) != 0 {
        return Err(Contradiction);
    }
    let columns = (once & !twice) * COLUMN;
    for (b, lone) in lone.iter_mut().enumerate() {
        *lone |= m.0[b] & columns;
    }
    Ok(lone)
}

/// [`lone_cells`] for every digit: `cand` the candidates per digit
/// (placed cells included or not), `unsolved` the empty cells, `placed`
/// the cells each digit is placed in; `lone` gets each digit's lone cells.
/// Returns the lanes holding some (bit `4 * d + b`), or a contradiction
/// when some house has no place left for a digit it lacks. The portable
/// version of [`Wide::lone_cells`] (the x86 ones do it two or four
/// digits per vector: `arrange_x86.rs`).
#[inline(always)]
pub(super) fn lone_cells_nine(
    cand: &[Lanes; 9],
    unsolved: Lanes,
    placed: &[Lanes; 9],
    lone: &mut [Lanes; 9],
) -> Result<u64, Contradiction> {
    let mut found = 0;
    for d in 0..9 {
        let [a, b, c] = lone_cells(cand[d].and(unsolved), placed[d])?;
        lone[d] = Lanes([a, b, c, 0]);
        found |= u64::from(lone[d].nonzero()) << (4 * d);
    }
    Ok(found)
}

/// The state of the fast path: candidates (lanes 0..3) and open houses
/// (lane 3) per digit, the cells placed per digit, and the cells still
/// empty (lane 3 zero).
#[derive(Clone, Copy, Debug)]
pub(super) struct Singles {
    cand: [Lanes; 9],
    placed: [Lanes; 9],
    unsolved: Lanes,
}

impl Singles {
    /// A state to load into.
    #[inline(always)]
    pub(super) fn blank() -> Singles {
        Singles {
            cand: [Lanes::ZERO; 9],
            placed: [Lanes::ZERO; 9],
            unsolved: Lanes::ZERO,
        }
    }

    /// Whether the root tries singles first on a puzzle whose givens
    /// fill `filled` (as band lanes): at least [`MIN_GIVENS`] of them, and
    /// at least [`MIN_IN_CHUTE`] in every band and every stack.
    #[inline(always)]
    pub(super) fn worth_trying(filled: Lanes) -> bool {
        let [b0, b1, b2, _] = filled.0;
        let bands = [b0, b1, b2].map(u32::count_ones);
        if bands.iter().sum::<u32>() < MIN_GIVENS || bands.iter().any(|&n| n < MIN_IN_CHUTE) {
            return false;
        }
        // Bands 0 and 1 side by side, then band 2: each stack's cells.
        let two = u64::from(b0) | u64::from(b1) << 27;
        (0..3).all(|s| {
            let stack = (0b111 << (3 * s)) * COLUMN;
            let both = u64::from(stack) | u64::from(stack) << 27;
            (two & both).count_ones() + (b2 & stack).count_ones() >= MIN_IN_CHUTE
        })
    }

    /// Loads `givens` (per digit, as band lanes; together they fill
    /// `filled`) with `covered` from [`Wide::covered`] (which also found
    /// any clash).
    #[inline(always)]
    pub(super) fn load(&mut self, givens: &[Lanes; 9], filled: Lanes, covered: &[Lanes; 9]) {
        let all = Lanes::bands(BAND);
        self.cand = covered.map(|c| all.and_not(c));
        self.placed = *givens;
        self.unsolved = all.and_not(filled);
    }

    /// Places digit `d` in cell `p` of band `b`, which must still be a
    /// candidate of `d`.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, p: u32) {
        self.cand[d] = self.cand[d].and_not(PEERS[27 * b + p as usize]);
        self.unsolved.0[b] &= !(1 << p);
        self.placed[d].0[b] |= 1 << p;
    }

    /// Places every naked single; returns whether there was one. An
    /// empty cell with no candidate is a contradiction.
    #[inline(always)]
    fn naked_singles<W: Wide>(&mut self) -> Result<bool, Contradiction> {
        let (once, twice) = W::at_least_two(&self.cand);
        if self.unsolved.and_not(once).any() {
            return Err(Contradiction);
        }
        let singles = self.unsolved.and_not(twice);
        if !singles.any() {
            return Ok(false);
        }
        // Only the digits some single holds.
        let mut lanes = W::overlap(&self.cand, singles);
        while lanes != 0 {
            let d = lanes.trailing_zeros() as usize / 4;
            let mine = singles.and(self.cand[d]);
            let mut bands = lanes >> (4 * d) & 0xF;
            lanes &= !(0xF << (4 * d));
            while bands != 0 {
                let b = bands.trailing_zeros() as usize;
                bands &= bands - 1;
                let mut cells = mine.0[b];
                self.placed[d].0[b] |= cells;
                while cells != 0 {
                    let p = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    // Two singles of one digit that see each other.
                    if self.cand[d].0[b] >> p & 1 == 0 {
                        return Err(Contradiction);
                    }
                    self.cand[d] = self.cand[d].and_not(PEERS[27 * b + p]);
                }
            }
        }
        self.unsolved = self.unsolved.and_not(singles);
        Ok(true)
    }

    /// Places the hidden singles of every digit, found all at once
    /// ([`Wide::lone_cells`]); returns whether there was one. A house with
    /// no place left for a digit it lacks is a contradiction, and so are
    /// two of them in one cell or seeing each other.
    #[inline(always)]
    fn hidden_singles<W: Wide>(&mut self) -> Result<bool, Contradiction> {
        let mut lone = [Lanes::ZERO; 9];
        let mut found = W::lone_cells(&self.cand, self.unsolved, &self.placed, &mut lone)?;
        if found == 0 {
            return Ok(false);
        }
        while found != 0 {
            let i = found.trailing_zeros() as usize;
            found &= found - 1;
            let (d, b) = (i / 4, i % 4);
            let mut cells = lone[d].0[b];
            while cells != 0 {
                let p = cells.trailing_zeros();
                cells &= cells - 1;
                // Filled by another digit's single, or seen by one of
                // this digit's: all were forced, so a dead end.
                if (self.cand[d].0[b] & self.unsolved.0[b]) >> p & 1 == 0 {
                    return Err(Contradiction);
                }
                self.place(d, b, p);
            }
        }
        Ok(true)
    }

    /// Places singles until none is left; returns whether the grid is
    /// full.
    #[inline(always)]
    pub(super) fn run<W: Wide>(&mut self) -> Result<bool, Contradiction> {
        loop {
            if !self.unsolved.any() {
                return Ok(true);
            }
            if self.naked_singles::<W>()? {
                continue;
            }
            if !self.hidden_singles::<W>()? {
                return Ok(false);
            }
        }
    }

    /// The state as the search's band masks: per digit, its candidates in
    /// empty cells and the cells it was placed in; and the empty cells.
    #[inline(always)]
    pub(super) fn masks(&self) -> ([Lanes; 9], Lanes) {
        let bands = std::array::from_fn(|d| self.cand[d].and(self.unsolved).or(self.placed[d]));
        (bands, self.unsolved)
    }
}

#[cfg(test)]
mod tests;
