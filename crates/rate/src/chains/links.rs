//! The links of Sudoku Explainer's chains (`getOnToOff`, `getOffToOn`),
//! written once for every chain engine: the flat producers (cycles,
//! forcing, multiple and dynamic chains) and the nested ones.
//!
//! - An "on" potential implies "off" the cell's other digits (with cell
//!   links), then the digit's other places in the box, row and column,
//!   in that order, each node once ([`on_to_off`]).
//! - An "off" potential implies "on" the other candidate of a bivalue
//!   cell (with cell links), then the other place of the digit in a box,
//!   row or column where it has two (with unit links), each node once
//!   ([`off_to_on`]).
//! - A dynamic chain's "on" potential also rests on the candidates
//!   removed behind its link, its hidden parents ([`removed_behind`]).
//!
//! The links read a grid through [`LinkGrid`]: the nested chains read
//! [`Cands`] (cell sets), the flat ones [`Places`] (a [`Cands`] with its
//! places per unit as 9-bit masks). Both visit in the same order. The
//! breadth-first forcing chains walk the same links a layer of cells at
//! a time ([`ons_imply_offs`], [`offs_imply_ons`], with the unit links
//! of [`Partners`]).

use super::unit_places::{unit_cell, UnitPlaces, BOX_ROW_COLUMN, SEEN_BEFORE};
use crate::bits::{count, digits, indices};
use crate::cands::Cands;
use crate::cells::{CellSet, CELL_UNITS, PEER_SETS, UNIT_SETS};
use batchdoku_core::internal::CELLS;

/// Which links a search uses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Links {
    /// Links inside a cell (bivalue cells; an "on" cell's other digits).
    pub(super) y: bool,
    /// Conjugate links of a digit in a box, row or column.
    pub(super) x: bool,
}

/// What a link goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Via {
    /// The cell of the potential (its other digits, or its last one).
    Cell,
    /// A unit (index in [`UNIT_SETS`]) of the potential's digit.
    Unit(usize),
}

/// A grid as the links read it.
pub(super) trait LinkGrid {
    /// The candidates of `cell`, bit `d - 1` for digit `d`.
    fn candidates(&self, cell: usize) -> u16;

    /// The places of `digit` in the `k`-th unit of `cell` (box, row,
    /// column), other than `cell` and the cells of its earlier units,
    /// in increasing order.
    fn new_places(&self, cell: usize, k: usize, digit: u8) -> impl Iterator<Item = usize>;

    /// The other place of `digit` in the `k`-th unit of `cell` (box, row,
    /// column) if the digit has exactly two places there (`cell` one of
    /// them; if not, the lower).
    fn partner(&self, cell: usize, k: usize, digit: u8) -> Option<usize>;

    /// The cells of `unit` that may hold `digit` in `self` but not in
    /// `current`, in increasing order.
    fn removed_places(&self, current: &Self, unit: usize, digit: u8)
        -> impl Iterator<Item = usize>;
}

impl LinkGrid for Cands {
    #[inline(always)]
    fn candidates(&self, cell: usize) -> u16 {
        Cands::candidates(self, cell)
    }

    #[inline(always)]
    fn new_places(&self, cell: usize, k: usize, digit: u8) -> impl Iterator<Item = usize> {
        let units = box_row_column(cell);
        let seen = match k {
            0 => CellSet::single(cell),
            1 => UNIT_SETS[units[0]],
            _ => UNIT_SETS[units[0]].or(UNIT_SETS[units[1]]),
        };
        self.places(units[k], digit).minus(seen).iter()
    }

    #[inline(always)]
    fn partner(&self, cell: usize, k: usize, digit: u8) -> Option<usize> {
        let places = self.places(box_row_column(cell)[k], digit);
        if places.is_pair() {
            places.minus(CellSet::single(cell)).first()
        } else {
            None
        }
    }

    #[inline(always)]
    fn removed_places(
        &self,
        current: &Self,
        unit: usize,
        digit: u8,
    ) -> impl Iterator<Item = usize> {
        self.places(unit, digit)
            .minus(current.digit_cells(digit))
            .iter()
    }
}

/// A grid with its places per unit as 9-bit masks (kept in step by the
/// owner), for the flat chains' propagations.
#[derive(Clone, Copy, Debug)]
pub(super) struct Places<'a> {
    /// The candidates.
    pub(super) cands: &'a Cands,
    /// The places of each digit in each unit of `cands`.
    pub(super) units: &'a UnitPlaces,
}

impl LinkGrid for Places<'_> {
    #[inline(always)]
    fn candidates(&self, cell: usize) -> u16 {
        self.cands.candidates(cell)
    }

    #[inline(always)]
    fn new_places(&self, cell: usize, k: usize, digit: u8) -> impl Iterator<Item = usize> {
        let unit = usize::from(BOX_ROW_COLUMN[cell][k].0);
        let places = self.units.get(usize::from(digit - 1), unit) & !SEEN_BEFORE[cell][k];
        indices(places).map(move |i| unit_cell(unit, i as u32))
    }

    #[inline(always)]
    fn partner(&self, cell: usize, k: usize, digit: u8) -> Option<usize> {
        let (unit, pos) = BOX_ROW_COLUMN[cell][k];
        let unit = usize::from(unit);
        let places = self.units.get(usize::from(digit - 1), unit);
        // The lower of the two when `cell` is not among them.
        (count(places) == 2).then(|| unit_cell(unit, (places & !(1 << pos)).trailing_zeros()))
    }

    #[inline(always)]
    fn removed_places(
        &self,
        current: &Self,
        unit: usize,
        digit: u8,
    ) -> impl Iterator<Item = usize> {
        let d0 = usize::from(digit - 1);
        let gone = self.units.get(d0, unit) & !current.units.get(d0, unit);
        indices(gone).map(move |i| unit_cell(unit, i as u32))
    }
}

/// Visits the "off" potentials (cell, digit, link) that "on" `digit` in
/// `cell` implies, in Sudoku Explainer's order, each node once: the
/// cell's other digits (with `cell_links`), then the digit's other
/// places in the box, row and column. Stops when `visit` says so;
/// whether it did.
#[inline(always)]
pub(super) fn on_to_off<G: LinkGrid>(
    grid: &G,
    (cell, digit): (usize, u8),
    cell_links: bool,
    mut visit: impl FnMut(usize, u8, Via) -> bool,
) -> bool {
    if cell_links {
        for w in digits(grid.candidates(cell) & !(1 << (digit - 1))) {
            if visit(cell, w, Via::Cell) {
                return true;
            }
        }
    }
    for k in 0..3 {
        for x in grid.new_places(cell, k, digit) {
            if visit(x, digit, Via::Unit(nth_unit(cell, k))) {
                return true;
            }
        }
    }
    false
}

/// Visits the "on" potentials (cell, digit, link) that "off" `digit` in
/// `cell` implies, each node once: the other candidate of a bivalue cell
/// (with `cell_links`), the other place of the digit in a box, row or
/// column with two (with `unit_links`), in that order.
#[inline(always)]
pub(super) fn off_to_on<G: LinkGrid>(
    grid: &G,
    (cell, digit): (usize, u8),
    (cell_links, unit_links): (bool, bool),
    mut visit: impl FnMut(usize, u8, Via),
) {
    if cell_links {
        let here = grid.candidates(cell);
        if count(here) == 2 {
            let w = (here & !(1 << (digit - 1))).trailing_zeros() as u8 + 1;
            visit(cell, w, Via::Cell);
        }
    }
    if unit_links {
        // The row's or the column's partner may be the box's (never each
        // other's: they share only `cell`).
        let mut in_box = None;
        for k in 0..3 {
            if let Some(other) = grid.partner(cell, k, digit) {
                if k == 0 {
                    in_box = Some(other);
                } else if in_box == Some(other) {
                    continue;
                }
                visit(other, digit, Via::Unit(nth_unit(cell, k)));
            }
        }
    }
}

/// Calls `each` with the cell and digit of every candidate of `source`
/// missing from `current` behind "on" `digit` in `cell` reached through
/// `via`: in its cell (digits ascending) or among its digit's places in
/// the unit (cells ascending).
#[inline(always)]
pub(super) fn removed_behind<G: LinkGrid>(
    source: &G,
    current: &G,
    (cell, digit): (usize, u8),
    via: Via,
    mut each: impl FnMut(usize, u8),
) {
    match via {
        Via::Cell => {
            for w in digits(source.candidates(cell) & !current.candidates(cell)) {
                each(cell, w);
            }
        }
        Via::Unit(unit) => {
            for x in source.removed_places(current, unit, digit) {
                each(x, digit);
            }
        }
    }
}

/// The `k`-th unit of `cell` in Sudoku Explainer's order (box, row,
/// column): looked up only by the visits that use it.
#[inline(always)]
fn nth_unit(cell: usize, k: usize) -> usize {
    usize::from(BOX_ROW_COLUMN[cell][k].0)
}

/// The units of `cell` in Sudoku Explainer's order: box, row, column.
#[inline(always)]
pub(super) fn box_row_column(cell: usize) -> [usize; 3] {
    let [row, column, bx] = CELL_UNITS[cell];
    [usize::from(bx), usize::from(row), usize::from(column)]
}

/// The unit links of a grid, worked out once per search for the static
/// chains of the first producer: for each digit and cell, the other place
/// of the digit in the cell's box, row and column where it has exactly
/// two, as a list (box, row, column) and as one cell set (for the layer
/// walks).
pub(super) struct Partners {
    /// By digit and cell: the partner in the box, row and column, or
    /// [`Partners::NONE`].
    lists: [[[u8; 3]; CELLS]; 9],
    /// By digit and cell: the cell's partners.
    sets: [[CellSet; CELLS]; 9],
    /// The places of each digit in each unit.
    pub(super) units: UnitPlaces,
}

impl Partners {
    /// No partner in that unit.
    const NONE: u8 = u8::MAX;

    /// The unit links of `cands`.
    pub(super) fn new(cands: &Cands) -> Partners {
        let mut partners = Partners {
            lists: [[[Partners::NONE; 3]; CELLS]; 9],
            sets: [[CellSet::EMPTY; CELLS]; 9],
            units: UnitPlaces::of(cands),
        };
        // [`LinkGrid::partner`] of `cands`, with each cell's units and its
        // digit's places looked up once.
        for d in 0..9 {
            let places = cands.digit_cells(d as u8 + 1);
            for c in places.iter() {
                for (k, unit) in box_row_column(c).into_iter().enumerate() {
                    let here = places.and(UNIT_SETS[unit]);
                    if here.is_pair() {
                        let other = here.minus(CellSet::single(c));
                        partners.lists[d][c][k] = other.first().expect("two places") as u8;
                        partners.sets[d][c] = partners.sets[d][c].or(other);
                    }
                }
            }
        }
        partners
    }

    /// The partners of `digit` (1..=9) in `cell` as a set.
    #[inline(always)]
    pub(super) fn set(&self, cell: usize, digit: u8) -> CellSet {
        self.sets[usize::from(digit - 1)][cell]
    }
}

/// A grid with its [`Partners`] worked out (the static chains of the
/// first producer): [`Places`] whose unit links are look-ups.
#[derive(Clone, Copy)]
pub(super) struct Static<'a> {
    /// The grid and its places per unit.
    places: Places<'a>,
    /// Its unit links.
    partners: &'a Partners,
}

impl<'a> Static<'a> {
    /// The grid `cands` with its unit links `partners`.
    pub(super) fn new(cands: &'a Cands, partners: &'a Partners) -> Static<'a> {
        let units = &partners.units;
        Static {
            places: Places { cands, units },
            partners,
        }
    }
}

impl LinkGrid for Static<'_> {
    #[inline(always)]
    fn candidates(&self, cell: usize) -> u16 {
        self.places.candidates(cell)
    }

    #[inline(always)]
    fn new_places(&self, cell: usize, k: usize, digit: u8) -> impl Iterator<Item = usize> {
        self.places.new_places(cell, k, digit)
    }

    #[inline(always)]
    fn partner(&self, cell: usize, k: usize, digit: u8) -> Option<usize> {
        let other = self.partners.lists[usize::from(digit - 1)][cell][k];
        (other != Partners::NONE).then_some(usize::from(other))
    }

    #[inline(always)]
    fn removed_places(&self, now: &Self, unit: usize, digit: u8) -> impl Iterator<Item = usize> {
        self.places.removed_places(&now.places, unit, digit)
    }
}

/// Writes to `out` the "off" potentials (per digit, the cells) that the
/// "on" potentials `front` (its digits `live`) imply, [`on_to_off`] a
/// layer at a time. Returns the mask of the digits `out` holds and how
/// many potentials `front` held (the work done, for the budget).
#[inline(always)]
pub(super) fn ons_imply_offs(
    cands: &Cands,
    front: &[CellSet; 9],
    live: u16,
    out: &mut [CellSet; 9],
) -> (u16, u64) {
    *out = [CellSet::EMPTY; 9];
    let mut out_live = 0;
    let mut visited = 0;
    // One pass over the front's cells: a cell's other candidates go off
    // (fronts hold a few cells: cell by cell is cheaper than digit by
    // digit), and its digit's places among its peers. A digit's "off"
    // cells from other digits' cells are in `out_live` already.
    for d in indices(live) {
        let places = cands.digit_cells(d as u8 + 1);
        let mut offs = CellSet::EMPTY;
        for c in front[d].iter() {
            visited += 1;
            let others = cands.candidates(c) & !(1 << d);
            out_live |= others;
            for w in indices(others) {
                out[w].insert(c);
            }
            offs = offs.or(PEER_SETS[c].and(places));
        }
        out[d] = out[d].or(offs);
        if !offs.is_empty() {
            out_live |= 1 << d;
        }
    }
    (out_live, visited)
}

/// Writes to `out` the "on" potentials that the "off" potentials `front`
/// (its digits `live`) imply, [`off_to_on`] a layer at a time. Returns
/// the mask of the digits `out` holds and how many potentials `front`
/// held.
#[inline(always)]
pub(super) fn offs_imply_ons(
    cands: &Cands,
    partners: &Partners,
    front: &[CellSet; 9],
    live: u16,
    out: &mut [CellSet; 9],
) -> (u16, u64) {
    *out = [CellSet::EMPTY; 9];
    let mut out_live = 0;
    let mut visited = 0;
    for d in indices(live) {
        let digit = d as u8 + 1;
        for c in front[d].iter() {
            visited += 1;
            let here = cands.candidates(c);
            if count(here) == 2 {
                let w = (here & !(1 << d)).trailing_zeros() as usize;
                out[w].insert(c);
                out_live |= 1 << w;
            }
            out[d] = out[d].or(partners.set(c, digit));
        }
        if !out[d].is_empty() {
            out_live |= 1 << d;
        }
    }
    (out_live, visited)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chains::node;
    use batchdoku_core::parse_line;

    /// The links of "on" (or "off") `digit` in `cell` read through `grid`.
    fn links_of<G: LinkGrid>(grid: &G, from: (usize, u8), on: bool) -> Vec<(usize, Via)> {
        let mut out = Vec::new();
        if on {
            on_to_off(grid, from, true, |x, d, via| {
                out.push((node::off(x, d), via));
                false
            });
        } else {
            off_to_on(grid, from, (true, true), |x, d, via| {
                out.push((node::on(x, d), via))
            });
        }
        out
    }

    /// The links of `from` read through both grid views, which agree.
    fn both_views(grid: &Cands, from: (usize, u8), on: bool) -> Vec<(usize, Via)> {
        let units = UnitPlaces::of(grid);
        let places = Places {
            cands: grid,
            units: &units,
        };
        let out = links_of(grid, from, on);
        assert_eq!(out, links_of(&places, from, on));
        out
    }

    #[test]
    fn links_come_in_sudoku_explainers_order_each_node_once() {
        let mut grid = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        let out = both_views(&grid, (0, 1), true);
        // Eight other digits, then box 0 (8 cells), row 0 and column 0
        // outside the box (6 each).
        assert_eq!(out.len(), 8 + 8 + 6 + 6);
        assert_eq!(out[0], (node::off(0, 2), Via::Cell));
        assert_eq!(out[8], (node::off(1, 1), Via::Unit(18)));
        assert_eq!(out[16], (node::off(3, 1), Via::Unit(0)));
        assert_eq!(out[22], (node::off(27, 1), Via::Unit(9)));
        // 1 in row 0 only at cells 0 and 1 (so also box 0's only two):
        // the box link comes first, the row's is the same node.
        for c in (2..9).chain(9..12).chain(18..21) {
            grid.eliminate(c, 1);
        }
        grid.keep_only(0, &[1, 2]);
        let out = both_views(&grid, (0, 1), false);
        assert_eq!(
            out,
            vec![(node::on(0, 2), Via::Cell), (node::on(1, 1), Via::Unit(18))]
        );
    }
}
