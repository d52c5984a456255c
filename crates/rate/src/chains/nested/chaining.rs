//! The links of Sudoku Explainer's chains (`getOnToOff`, `getOffToOn`)
//! and its propagation `doChaining`, building [`Pot`]s with their parents
//! as it does, for the nested levels and the chain producers used inside
//! them.
//!
//! [`Pot`]: super::arena::Pot

use super::super::node::{self, NODES};
use super::super::propagate::box_row_column;
use super::arena::{Arena, Cause, NO};
use super::Rules;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::{ones, Cands};
use crate::cells::UNIT_SETS;

/// A set of potentials in the order added, one per node (Sudoku
/// Explainer's `LinkedSet<Potential>`), for the "on" and the "off" ones.
pub(super) struct Outcome {
    /// For each node, its potential's id, or [`NO`].
    map: Vec<u32>,
    /// The "on" potentials' ids, in order.
    pub(super) on: Vec<u32>,
    /// The "off" potentials' ids, in order.
    pub(super) off: Vec<u32>,
    /// The nodes added (to clear `map`).
    nodes: Vec<u16>,
}

impl Outcome {
    /// An empty set.
    pub(super) fn new() -> Outcome {
        Outcome {
            map: vec![NO; NODES],
            on: Vec::with_capacity(729),
            off: Vec::with_capacity(729),
            nodes: Vec::with_capacity(NODES),
        }
    }

    /// Empties it.
    pub(super) fn clear(&mut self) {
        for &n in &self.nodes {
            self.map[usize::from(n)] = NO;
        }
        self.nodes.clear();
        self.on.clear();
        self.off.clear();
    }

    /// The potential of `node`, if held.
    #[inline]
    pub(super) fn get(&self, node: usize) -> Option<u32> {
        let id = self.map[node];
        (id != NO).then_some(id)
    }

    /// The "on" potentials' ids (`on`), or the "off" ones, in order.
    #[inline]
    pub(super) fn list(&self, on: bool) -> &[u32] {
        if on {
            &self.on
        } else {
            &self.off
        }
    }

    /// Adds potential `id` (of `node`) unless its node is held; whether
    /// it was added.
    pub(super) fn add(&mut self, node: usize, id: u32) -> bool {
        if self.map[node] != NO {
            return false;
        }
        self.map[node] = id;
        self.nodes.push(node as u16);
        if node::is_on(node) {
            self.on.push(id);
        } else {
            self.off.push(id);
        }
        true
    }
}

/// The "off" potentials "on" potential `p` implies, in Sudoku Explainer's
/// order, each node once: the cell's other digits (with cell links), then
/// the digit's other places in the box, row and column.
pub(super) fn on_to_off(grid: &Cands, p: usize, cell_links: bool, out: &mut Vec<(u16, Cause)>) {
    out.clear();
    let (c, digit) = (node::cell(p), node::digit(p));
    if cell_links {
        let others = grid.candidates(c) & !(1 << (digit - 1));
        for d in 1..=9u8 {
            if others >> (d - 1) & 1 != 0 {
                out.push((node::off(c, d) as u16, Cause::Cell));
            }
        }
    }
    let places = grid.digit_cells(digit);
    let mut seen = crate::cells::CellSet::single(c);
    for unit in box_row_column(c) {
        for x in places.and(UNIT_SETS[unit]).minus(seen).iter() {
            out.push((node::off(x, digit) as u16, Cause::Unit(unit as u8)));
        }
        seen = seen.or(UNIT_SETS[unit]);
    }
}

/// The "on" potentials "off" potential `p` implies, each node once: the
/// other candidate of a bivalue cell (with cell links), the other place
/// of the digit in a box, row or column with two (with unit links).
pub(super) fn off_to_on(
    grid: &Cands,
    p: usize,
    cell_links: bool,
    unit_links: bool,
    out: &mut Vec<(u16, Cause)>,
) {
    out.clear();
    let (c, digit) = (node::cell(p), node::digit(p));
    if cell_links {
        let here = grid.candidates(c);
        if ones(here) == 2 {
            let w = (here & !(1 << (digit - 1))).trailing_zeros() as u8 + 1;
            out.push((node::on(c, w) as u16, Cause::Cell));
        }
    }
    if unit_links {
        for unit in box_row_column(c) {
            let places = grid.digit_cells(digit).and(UNIT_SETS[unit]);
            if places.is_pair() {
                let other = places
                    .minus(crate::cells::CellSet::single(c))
                    .first()
                    .expect("two places");
                let n = node::on(other, digit) as u16;
                if !out.iter().any(|&(m, _)| m == n) {
                    out.push((n, Cause::Unit(unit as u8)));
                }
            }
        }
    }
}

/// Working lists of a propagation, reused.
pub(super) struct Lists {
    /// Pending "on" potentials.
    pending_on: std::collections::VecDeque<u32>,
    /// Pending "off" potentials.
    pending_off: std::collections::VecDeque<u32>,
    /// Links found from one potential.
    found: Vec<(u16, Cause)>,
    /// Parents of one potential being made.
    parents: Vec<u32>,
}

impl Lists {
    /// Empty lists.
    pub(super) fn new() -> Lists {
        Lists {
            pending_on: std::collections::VecDeque::with_capacity(729),
            pending_off: std::collections::VecDeque::with_capacity(729),
            found: Vec::with_capacity(32),
            parents: Vec::with_capacity(16),
        }
    }
}

/// How a propagation runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mode {
    /// Remove expanded "off" candidates from the working grid.
    pub(super) dynamic: bool,
}

/// Sudoku Explainer's `doChaining`: completes `out` (holding the
/// assumption, one potential) with every potential that follows in
/// `grid`; returns the clash (the "on" potential and the "off" one) if a
/// candidate would be both. `rules` (level > 0) are asked when the plain
/// links run dry.
#[allow(clippy::too_many_arguments)]
pub(super) fn do_chaining(
    grid: &Cands,
    mode: Mode,
    arena: &mut Arena,
    out: &mut Outcome,
    lists: &mut Lists,
    rules: &mut Rules,
    budget: &mut Budget,
) -> Result<Option<(u32, u32)>, OutOfBudget> {
    let source = *grid;
    let mut work = *grid;
    lists.pending_on.clear();
    lists.pending_off.clear();
    lists.pending_on.extend(out.on.iter().copied());
    lists.pending_off.extend(out.off.iter().copied());
    while !lists.pending_on.is_empty() || !lists.pending_off.is_empty() {
        budget.spend(1)?;
        if let Some(p) = lists.pending_on.pop_front() {
            on_to_off(&work, arena.node(p), true, &mut lists.found);
            for i in 0..lists.found.len() {
                let (n, cause) = lists.found[i];
                let n = usize::from(n);
                let id = arena.push(n, cause, &[p]);
                if let Some(on) = out.get(node::conjugate(n)) {
                    return Ok(Some((on, id)));
                }
                if out.add(n, id) {
                    lists.pending_off.push_back(id);
                }
            }
        } else if let Some(p) = lists.pending_off.pop_front() {
            let pn = arena.node(p);
            off_to_on(&work, pn, true, true, &mut lists.found);
            let mut made = [NO; 4];
            for (i, &(n, cause)) in lists.found.iter().enumerate() {
                let n = usize::from(n);
                lists.parents.clear();
                lists.parents.push(p);
                if mode.dynamic {
                    hidden_parents(&work, &source, n, cause, out, &mut lists.parents);
                }
                made[i] = arena.push(n, cause, &lists.parents);
            }
            if mode.dynamic {
                work.eliminate(node::cell(pn), node::digit(pn));
            }
            for (i, &id) in made[..lists.found.len()].iter().enumerate() {
                let n = usize::from(lists.found[i].0);
                if let Some(off) = out.get(node::conjugate(n)) {
                    return Ok(Some((id, off)));
                }
                if out.add(n, id) {
                    lists.pending_on.push_back(id);
                }
            }
        }
        if lists.pending_on.is_empty() && lists.pending_off.is_empty() && rules.level > 0 {
            let before = out.off.len();
            rules.advanced(&work, &source, arena, out, budget)?;
            lists.pending_off.extend(out.off[before..].iter().copied());
        }
    }
    Ok(None)
}

/// The hidden parents of "on" potential `n` found through `cause`: the
/// "off" potentials of the candidates removed (since `source`) behind it
/// (Sudoku Explainer's `addHiddenParentsOfCell` and
/// `addHiddenParentsOfRegion`).
fn hidden_parents(
    work: &Cands,
    source: &Cands,
    n: usize,
    cause: Cause,
    out: &Outcome,
    parents: &mut Vec<u32>,
) {
    removed_behind(source, work, n, cause, |off| {
        if let Some(id) = out.get(off) {
            parents.push(id);
        }
    });
}

/// Calls `each` with the "off" node of every candidate of `source`
/// missing from `current` behind "on" node `n` reached through `cause`:
/// in its cell (a cell link, digits ascending) or among its digit's
/// places in the unit (a unit link, cells ascending).
pub(super) fn removed_behind(
    source: &Cands,
    current: &Cands,
    n: usize,
    cause: Cause,
    mut each: impl FnMut(usize),
) {
    let (c, digit) = (node::cell(n), node::digit(n));
    match cause {
        Cause::Cell => {
            let gone = source.candidates(c) & !current.candidates(c);
            for d in 1..=9u8 {
                if gone >> (d - 1) & 1 != 0 {
                    each(node::off(c, d));
                }
            }
        }
        Cause::Unit(u) => {
            let gone = source
                .digit_cells(digit)
                .minus(current.digit_cells(digit))
                .and(UNIT_SETS[usize::from(u)]);
            for x in gone.iter() {
                each(node::off(x, digit));
            }
        }
        Cause::Root | Cause::Advanced => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn links_come_in_sudoku_explainers_order_each_node_once() {
        let mut grid = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        let mut out = Vec::new();
        on_to_off(&grid, node::on(0, 1), true, &mut out);
        // Eight other digits, then box 0 (8 cells), row 0 and column 0
        // outside the box (6 each).
        assert_eq!(out.len(), 8 + 8 + 6 + 6);
        assert_eq!(out[0], (node::off(0, 2) as u16, Cause::Cell));
        assert_eq!(out[8], (node::off(1, 1) as u16, Cause::Unit(18)));
        assert_eq!(out[16], (node::off(3, 1) as u16, Cause::Unit(0)));
        assert_eq!(out[22], (node::off(27, 1) as u16, Cause::Unit(9)));
        // 1 in row 0 only at cells 0 and 1 (so also box 0's only two):
        // the box link comes first, the row's is the same node.
        for c in (2..9).chain(9..12).chain(18..21) {
            grid.eliminate(c, 1);
        }
        grid.keep_only(0, &[1, 2]);
        off_to_on(&grid, node::off(0, 1), true, true, &mut out);
        assert_eq!(
            out,
            vec![
                (node::on(0, 2) as u16, Cause::Cell),
                (node::on(1, 1) as u16, Cause::Unit(18)),
            ]
        );
    }
}
