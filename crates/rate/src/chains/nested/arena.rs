//! Potentials with their parents, kept as Sudoku Explainer keeps them
//! (each `Potential` object with its list of parents), so that a nested
//! chain can answer what Sudoku Explainer asks of a hint: its chains
//! (`getChain`, breadth-first over the parents, each potential once by
//! content), their lengths (`getAncestorCount`), the nested chains they
//! use (`getNestedComplexity`) and the removed candidates they rest on
//! (`collectRuleParents`).
//!
//! The arena is cleared between searches (per cell of a multiple chain
//! search, per start of a unary one), so its vectors are allocated once.

use super::super::node::{self, NODES};
use super::chaining::removed_behind;
use crate::cands::Cands;

/// No potential (an empty slot of a map).
pub(super) const NO: u32 = u32::MAX;

/// Why a potential follows from its first parent (Sudoku Explainer's
/// `Potential.Cause`, with the region kept as the unit itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cause {
    /// An assumption (no cause).
    Root,
    /// A link inside a cell (naked single, or an "on" cell's other digits).
    Cell,
    /// A link inside a unit (hidden single, or an "on" digit's other
    /// places), the unit's index in [`UNIT_SETS`].
    Unit(u8),
    /// Removed by a rule used inside the chain.
    Advanced,
}

/// The nested chain an "advanced" potential was removed by: its
/// fingerprint (Sudoku Explainer's `FullChain` equality, 0 for none) and
/// its complexity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct NestedChain {
    /// Hash of the chain's targets and their chains (0: no nested chain).
    pub(super) fingerprint: u64,
    /// The nested hint's complexity.
    pub(super) complexity: u32,
}

/// One potential.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pot {
    /// The potential (see [`node`]).
    pub(super) node: u16,
    /// Why it follows.
    pub(super) cause: Cause,
    /// Its parents: `links[first..first + len]`.
    first: u32,
    /// How many parents.
    len: u32,
    /// The nested chain behind it, if any.
    pub(super) nested: NestedChain,
}

/// The potentials of a search.
pub(super) struct Arena {
    /// All potentials made.
    pots: Vec<Pot>,
    /// Their parent lists, one after the other.
    links: Vec<u32>,
    /// For each node, the walk that last met it.
    seen: Vec<u32>,
    /// The current walk's number.
    epoch: u32,
    /// The last walk's potentials, in Sudoku Explainer's `getChain` order.
    pub(super) walk: Vec<u32>,
    /// Work lists of a walk.
    todo: Vec<u32>,
    /// Work lists of a walk.
    next: Vec<u32>,
}

impl Arena {
    /// An empty arena.
    pub(super) fn new() -> Arena {
        Arena {
            pots: Vec::with_capacity(4096),
            links: Vec::with_capacity(8192),
            seen: vec![0; NODES],
            epoch: 0,
            walk: Vec::with_capacity(NODES),
            todo: Vec::with_capacity(NODES),
            next: Vec::with_capacity(NODES),
        }
    }

    /// Forgets every potential.
    pub(super) fn clear(&mut self) {
        self.pots.clear();
        self.links.clear();
    }

    /// Makes a potential with these parents; its id.
    pub(super) fn push(&mut self, node: usize, cause: Cause, parents: &[u32]) -> u32 {
        let first = self.links.len() as u32;
        self.links.extend_from_slice(parents);
        self.pots.push(Pot {
            node: node as u16,
            cause,
            first,
            len: parents.len() as u32,
            nested: NestedChain::default(),
        });
        (self.pots.len() - 1) as u32
    }

    /// Sets the nested chain of potential `id`.
    pub(super) fn set_nested(&mut self, id: u32, nested: NestedChain) {
        self.pots[id as usize].nested = nested;
    }

    /// Potential `id`.
    #[inline]
    pub(super) fn pot(&self, id: u32) -> &Pot {
        &self.pots[id as usize]
    }

    /// The node of potential `id`.
    #[inline]
    pub(super) fn node(&self, id: u32) -> usize {
        usize::from(self.pots[id as usize].node)
    }

    /// The parents of potential `id`.
    #[inline]
    pub(super) fn parents(&self, id: u32) -> &[u32] {
        let p = &self.pots[id as usize];
        &self.links[p.first as usize..(p.first + p.len) as usize]
    }

    /// Whether `node` is on the first-parent path above `child` (Sudoku
    /// Explainer's `isParent`, which skips the child itself).
    pub(super) fn is_parent(&self, child: u32, node: usize) -> bool {
        let mut at = child;
        while let Some(&p) = self.parents(at).first() {
            if self.node(p) == node {
                return true;
            }
            at = p;
        }
        false
    }

    /// Fills [`Arena::walk`] with `target`'s chain: breadth-first over
    /// the parents, each node once (Sudoku Explainer's `getChain`).
    pub(super) fn chain(&mut self, target: u32) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        self.walk.clear();
        self.todo.clear();
        self.todo.push(target);
        while !self.todo.is_empty() {
            self.next.clear();
            for i in 0..self.todo.len() {
                let id = self.todo[i];
                let n = self.node(id);
                if self.seen[n] == self.epoch {
                    continue;
                }
                self.seen[n] = self.epoch;
                self.walk.push(id);
                let p = self.pots[id as usize];
                self.next
                    .extend_from_slice(&self.links[p.first as usize..(p.first + p.len) as usize]);
            }
            std::mem::swap(&mut self.todo, &mut self.next);
        }
    }

    /// The number of distinct potentials in `target`'s chain (Sudoku
    /// Explainer's `getAncestorCount`).
    pub(super) fn ancestor_count(&mut self, target: u32) -> u32 {
        self.chain(target);
        self.walk.len() as u32
    }

    /// Adds to `out` (without repeats, in order) the removed candidates
    /// ("off" nodes) the "on" potentials of `target`'s chain rest on:
    /// the candidates of `source` missing from `current` in the cell of
    /// a cell link, or among the digit's places in the unit of a unit
    /// link (Sudoku Explainer's `collectRuleParents`). `root` is the
    /// cause given to the chain's assumption (its own cause is none).
    pub(super) fn rule_parents(
        &mut self,
        target: u32,
        root: Cause,
        source: &Cands,
        current: &Cands,
        out: &mut Vec<u16>,
        from: usize,
    ) {
        self.chain(target);
        for i in 0..self.walk.len() {
            let p = self.pots[self.walk[i] as usize];
            let n = usize::from(p.node);
            if !node::is_on(n) {
                continue;
            }
            let cause = if p.cause == Cause::Root {
                root
            } else {
                p.cause
            };
            removed_behind(source, current, n, cause, |off| add_once(out, from, off));
        }
    }
}

/// Appends `node` to `out` unless it is in `out[from..]`.
fn add_once(out: &mut Vec<u16>, from: usize, node: usize) {
    if !out[from..].contains(&(node as u16)) {
        out.push(node as u16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::parse_line;

    #[test]
    fn chains_count_each_node_once_and_walk_breadth_first() {
        let mut a = Arena::new();
        let root = a.push(node::on(0, 1), Cause::Root, &[]);
        let x = a.push(node::off(1, 1), Cause::Unit(0), &[root]);
        let y = a.push(node::off(0, 2), Cause::Cell, &[root]);
        // A second potential of the root's node: counted once.
        let again = a.push(node::on(0, 1), Cause::Cell, &[x]);
        let t = a.push(node::on(2, 2), Cause::Unit(0), &[y, again]);
        assert_eq!(a.ancestor_count(t), 4);
        let order: Vec<usize> = a.walk.iter().map(|&id| a.node(id)).collect();
        assert_eq!(
            order,
            vec![
                node::on(2, 2),
                node::off(0, 2),
                node::on(0, 1),
                node::off(1, 1)
            ]
        );
        assert!(a.is_parent(t, node::off(0, 2)));
        assert!(!a.is_parent(t, node::off(1, 1)));
    }

    #[test]
    fn rule_parents_are_the_removed_candidates_behind_on_links() {
        let source = Cands::new(&parse_line(&[b'.'; 81]).unwrap());
        let mut current = source;
        current.eliminate(2, 5);
        current.eliminate(9, 7);
        current.eliminate(40, 7);
        let mut a = Arena::new();
        let root = a.push(node::on(0, 7), Cause::Root, &[]);
        let off = a.push(node::off(1, 7), Cause::Unit(18), &[root]);
        // Cell link at cell 2 (lost 5); unit link in box 0 (lost 7 at 9).
        let on_cell = a.push(node::on(2, 3), Cause::Cell, &[off]);
        let on_unit = a.push(node::on(10, 7), Cause::Unit(18), &[on_cell]);
        let mut out = vec![99];
        a.rule_parents(on_unit, Cause::Root, &source, &current, &mut out, 1);
        assert_eq!(
            out,
            vec![99, node::off(9, 7) as u16, node::off(2, 5) as u16]
        );
        // A cell hint's assumption counts as a cell link: nothing lost at 0.
        let mut out = Vec::new();
        a.rule_parents(root, Cause::Cell, &source, &current, &mut out, 0);
        assert!(out.is_empty());
    }
}
