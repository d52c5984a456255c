//! Propagation outcomes kept for one kind of propagation from one search
//! to the next: the rating loop searches again after each step, on a
//! grid that differs from the last one in a few places, and an outcome
//! whose propagation read none of them (see [`Reads`]) is the one it
//! would compute again, with the same work, which is spent again when
//! the outcome is first used in the new search (so that budgets run out
//! exactly where they would).

use super::node::NODES;
use super::propagate::{Mode, Outcome, Propagation};
use super::reads::Reads;
use super::simpler::SimplerRules;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;

/// Outcomes by root potential, for one propagation mode.
pub(super) struct Memo {
    /// Whether outcomes outlive a search (not with simpler rules, whose
    /// propagations read the whole grid).
    lasting: bool,
    /// The grid of the current search.
    grid: Cands,
    /// The outcomes (boxed, swapped with the propagation's).
    pub(super) cache: Vec<Box<Outcome>>,
    /// For each root potential, its place in `cache` (`u32::MAX`: none).
    index: Vec<u32>,
    /// Places in `cache` that hold no kept outcome (reused first, so that
    /// the cache holds no more outcomes than one search needs and keeps).
    free: Vec<u32>,
    /// For each root potential, whether its place holds its outcome in
    /// the current grid.
    kept: Vec<bool>,
    /// For each root potential, the search that last used its outcome
    /// (and spent its work).
    used_in: Vec<u32>,
    /// The current search.
    search: u32,
}

impl Memo {
    /// An empty memo; `lasting` as on [`Memo::lasting`].
    pub(super) fn new(lasting: bool) -> Memo {
        Memo {
            lasting,
            grid: Cands::new(&batchdoku_core::Grid::empty()),
            cache: Vec::new(),
            index: vec![u32::MAX; NODES],
            // Never more free places than roots: no growth later.
            free: Vec::with_capacity(NODES),
            kept: vec![false; NODES],
            used_in: vec![0; NODES],
            search: 0,
        }
    }

    /// A search on `cands` begins: the outcomes whose propagations read
    /// a part of the grid that changed are dropped.
    pub(super) fn begin(&mut self, cands: &Cands) {
        self.search = self.search.wrapping_add(1);
        let changed = Reads::changed(&self.grid, cands);
        for root in 0..NODES {
            let at = self.index[root];
            if at == u32::MAX {
                continue;
            }
            if !(self.lasting && self.cache[at as usize].reads.disjoint(&changed)) {
                self.kept[root] = false;
                self.index[root] = u32::MAX;
                self.free.push(at);
            }
        }
        self.grid = *cands;
    }

    /// The place in `cache` of the outcome of assuming `root`, computed
    /// with `prop` (prepared for this grid) unless kept; its work is
    /// spent once per search.
    pub(super) fn outcome(
        &mut self,
        prop: &mut Propagation,
        root: usize,
        mode: Mode,
        rules: &mut dyn SimplerRules,
        budget: &mut Budget,
    ) -> Result<usize, OutOfBudget> {
        let at = self.index[root];
        if self.kept[root] {
            if self.used_in[root] != self.search {
                budget.spend(self.cache[at as usize].spent)?;
                self.used_in[root] = self.search;
            }
            return Ok(at as usize);
        }
        prop.run(&self.grid, root, mode, rules, budget)?;
        let at = match self.free.pop() {
            Some(at) => {
                std::mem::swap(&mut self.cache[at as usize], &mut prop.rec.out);
                at as usize
            }
            None => {
                self.cache.push(prop.rec.out.clone());
                self.cache.len() - 1
            }
        };
        self.index[root] = at as u32;
        self.kept[root] = true;
        self.used_in[root] = self.search;
        Ok(at)
    }
}
