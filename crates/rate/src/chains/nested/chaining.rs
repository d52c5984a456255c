//! The links of Sudoku Explainer's chains (`getOnToOff`, `getOffToOn`)
//! and its propagation `doChaining`, building [`Pot`]s with their parents
//! as it does, for the nested levels and the chain producers used inside
//! them.
//!
//! [`Pot`]: super::arena::Pot

use super::super::links::{self, Via};
use super::super::node::{self, NODES};
use super::arena::{Arena, Cause, NO};
use super::Rules;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;

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

/// The "off" potentials "on" potential `p` implies ([`links::on_to_off`]),
/// with their causes.
pub(super) fn on_to_off(grid: &Cands, p: usize, cell_links: bool, out: &mut Vec<(u16, Cause)>) {
    out.clear();
    let from = (node::cell(p), node::digit(p));
    links::on_to_off(grid, from, cell_links, |x, d, via| {
        out.push((node::off(x, d) as u16, cause(via)));
        false
    });
}

/// The "on" potentials "off" potential `p` implies ([`links::off_to_on`]),
/// with their causes.
pub(super) fn off_to_on(
    grid: &Cands,
    p: usize,
    cell_links: bool,
    unit_links: bool,
    out: &mut Vec<(u16, Cause)>,
) {
    out.clear();
    let from = (node::cell(p), node::digit(p));
    links::off_to_on(grid, from, (cell_links, unit_links), |x, d, via| {
        out.push((node::on(x, d) as u16, cause(via)))
    });
}

/// The cause of a potential reached through `via`.
#[inline(always)]
fn cause(via: Via) -> Cause {
    match via {
        Via::Cell => Cause::Cell,
        Via::Unit(unit) => Cause::Unit(unit as u8),
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
/// missing from `current` behind "on" node `n` reached through `cause`
/// ([`links::removed_behind`]; none behind a root or a rule).
pub(super) fn removed_behind(
    source: &Cands,
    current: &Cands,
    n: usize,
    cause: Cause,
    mut each: impl FnMut(usize),
) {
    let via = match cause {
        Cause::Cell => Via::Cell,
        Cause::Unit(u) => Via::Unit(usize::from(u)),
        Cause::Root | Cause::Advanced => return,
    };
    let from = (node::cell(n), node::digit(n));
    links::removed_behind(source, current, from, via, |x, d| each(node::off(x, d)));
}
