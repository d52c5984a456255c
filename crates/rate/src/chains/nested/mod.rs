//! Sudoku Explainer's nested forcing chains (`Chaining(true, true, false,
//! n)`, n in 2..=5): dynamic forcing chains whose implications, when the
//! plain links run dry, also come from simpler rules and from lower chain
//! producers run on the grid the chain has reduced so far
//! (`getAdvancedPotentials`).
//!
//! This is a separate, literal rendering of Sudoku Explainer's chaining
//! (potentials with parent lists, [`arena`]; `doChaining`, [`chaining`];
//! the unary and multiple producers, [`unary`] and [`multiple`]), slower
//! than the flat chains of the lower levels but able to tell, for every
//! hint, what Sudoku Explainer asks of a hint used inside a chain: its
//! rule parents, its complexity with the nested chains it uses, and its
//! identity (`FullChain`).
//!
//! The rules of level n, in serate 1.2.1.3's order (its bytecode): the
//! level-1 rules (locking, hidden pair, naked pair, X-wing; see
//! [`PlusRules`]), then for n = 2 the cycles and forcing chains
//! (`Chaining(false, false, false, 0)`), n = 3 also the multiple chains
//! (`Chaining(true, false, false, 0)`), n = 4 the dynamic chains
//! (`Chaining(true, true, false, 0)`) only, n = 5 the dynamic chains and
//! the nested chains of level n - 3. The first rule giving anything wins;
//! a chain producer's hints go in its order (sorted by difficulty,
//! complexity, kind; a hint removing what an earlier one removes is
//! dropped), each counting only if its rule parents are not empty.
//!
//! Known gaps: level 5 is unchecked (no serate step needs it in the
//! puzzles measured); its inner level-2 chains start from grids a chain
//! has reduced, where Sudoku Explainer's "generalized intersections"
//! parents of the locking rule can matter and [`PlusRules`] leaves them
//! out. A hint's `FullChain` identity is a 64-bit hash of its chains'
//! potentials in `getChain` order.

mod arena;
mod chaining;
mod multiple;
mod unary;

use super::plus::PlusRules;
use super::rating::HintKey;
use super::simpler::SimplerRules;
use super::ChainLevel;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::CellSet;
use crate::step::{Pattern, Premise, Step};
use crate::technique::Technique;
use arena::{Arena, Cause, NestedChain};
use chaining::{Lists, Outcome};
use std::cell::RefCell;

thread_local! {
    /// Each nested level's producer with its working memory (its inner
    /// producers' too), kept per thread so that a search allocates little
    /// after the first.
    static SEARCHERS: RefCell<[Option<Box<Searcher>>; 6]> =
        const { RefCell::new([None, None, None, None, None, None]) };
}

/// The first hint of the nested level `depth` (2..=5) in `cands`, with
/// Sudoku Explainer's rating.
pub(crate) fn find(
    cands: &Cands,
    depth: u8,
    budget: &mut Budget,
) -> Result<Option<Step>, OutOfBudget> {
    let depth = depth.min(5);
    SEARCHERS.with(|cell| {
        let mut taken = cell.borrow_mut()[usize::from(depth)].take();
        let searcher = taken.get_or_insert_with(|| {
            Box::new(Searcher::new(Producer::Multiple {
                dynamic: true,
                level: depth,
            }))
        });
        let result = searcher
            .search(cands, None, budget)
            .map(|()| first_step(searcher));
        cell.borrow_mut()[usize::from(depth)] = taken;
        result
    })
}

/// The step of a search's first hint.
fn first_step(searcher: &Searcher) -> Option<Step> {
    searcher.hints.list.first().map(|h| {
        let tenths = h.key.tenths();
        let step = match h.place {
            Some((c, d)) => Step::place(Technique::NestedForcingChain, tenths, c.into(), d),
            None => {
                let mut step = Step::removing(Technique::NestedForcingChain, tenths);
                for &(c, d) in searcher.hints.elims(h) {
                    step.eliminate(d, CellSet::single(c.into()));
                }
                step
            }
        };
        step.with(Pattern::Chain {
            premise: h.premise,
            links: super::links_of(h.key.complexity),
        })
    })
}

/// One of Sudoku Explainer's chain producers.
#[derive(Clone, Copy, Debug)]
enum Producer {
    /// `Chaining(false, false, false, 0)`: cycles and forcing chains.
    Unary,
    /// `Chaining(true, dynamic, false, level)`: multiple (cell, region)
    /// chains, and for dynamic ones contradiction and double chains.
    Multiple {
        /// Dynamic chains.
        dynamic: bool,
        /// The level (rules used inside; 0 none).
        level: u8,
    },
}

impl Producer {
    /// The flat producer ([`super::find`]) that finds a hint exactly when
    /// this one does, if there is one (not for the nested levels).
    fn flat_level(self) -> Option<ChainLevel> {
        match self {
            Producer::Unary => Some(ChainLevel::Cycles),
            Producer::Multiple {
                dynamic: false,
                level: 0,
            } => Some(ChainLevel::Multiple),
            Producer::Multiple {
                dynamic: true,
                level: 0,
            } => Some(ChainLevel::Dynamic),
            Producer::Multiple { .. } => None,
        }
    }

    /// Sudoku Explainer's base difficulty of the multiple producers.
    fn base(self) -> f64 {
        match self {
            Producer::Unary => 0.0,
            Producer::Multiple { dynamic, level } => match (level, dynamic) {
                (0, false) => ChainLevel::Multiple,
                (0, true) => ChainLevel::Dynamic,
                (1, _) => ChainLevel::DynamicPlus,
                _ => ChainLevel::Nested(level),
            }
            .base(),
        }
    }
}

/// A hint found: its key, what it removes (or places), and when the
/// search is a rule inside a chain, its rule parents and identity.
#[derive(Clone, Copy, Debug)]
struct Hint {
    /// Difficulty, complexity (with nested chains), kind.
    key: HintKey,
    /// Its removals: a range of [`Hints::elims`].
    elims: (u32, u32),
    /// Its rule parents ("off" nodes): a range of [`Hints::parents`].
    parents: (u32, u32),
    /// Its `FullChain` fingerprint (rules only).
    fingerprint: u64,
    /// The placement it makes, if an "on" hint.
    place: Option<(u8, u8)>,
    /// What its chains assume, for the step's text.
    premise: Premise,
    /// Its place among the search's hints as found (the sort is stable
    /// through it, without the buffer of a stable sort).
    order: u32,
}

/// The hints of one search.
struct Hints {
    /// The hints, sorted after the search.
    list: Vec<Hint>,
    /// Removals of all hints: (cell, digit).
    elims_all: Vec<(u8, u8)>,
    /// Rule parents of all hints: "off" nodes.
    parents_all: Vec<u16>,
    /// Fingerprints met while adding up nested complexities.
    nested_seen: Vec<u64>,
}

impl Hints {
    /// No hints.
    fn new() -> Hints {
        Hints {
            list: Vec::new(),
            elims_all: Vec::new(),
            parents_all: Vec::new(),
            nested_seen: Vec::new(),
        }
    }

    /// Forgets every hint.
    fn clear(&mut self) {
        self.list.clear();
        self.elims_all.clear();
        self.parents_all.clear();
    }

    /// The removals of `h`.
    fn elims(&self, h: &Hint) -> &[(u8, u8)] {
        &self.elims_all[h.elims.0 as usize..h.elims.1 as usize]
    }

    /// The rule parents of `h`.
    fn parents(&self, h: &Hint) -> &[u16] {
        &self.parents_all[h.parents.0 as usize..h.parents.1 as usize]
    }
}

/// What a hint is, for [`Searcher::offer`].
struct Shape<'a> {
    /// Its chains' targets (`getChainsTargets`).
    targets: &'a [u32],
    /// The targets whose ancestors make its flat complexity.
    counted: &'a [u32],
    /// Base difficulty.
    base: f64,
    /// Sort key.
    sort_key: u8,
    /// The cause given to the assumptions when collecting rule parents.
    root: Cause,
    /// The placement, if an "on" hint.
    place: Option<(u8, u8)>,
    /// What its chains assume, for the step's text.
    premise: Premise,
}

/// The rules used inside the chains of a level (see the module doc).
struct Rules {
    /// The level (0: none).
    level: u8,
    /// The chain producers used as rules, built when first needed.
    producers: Vec<Searcher>,
    /// Scratch: one hint's parents' potential ids.
    ids: Vec<u32>,
    /// Scratch: the removal hashes of the hints taken so far.
    removals: std::collections::HashSet<u64>,
}

impl Rules {
    /// The rules of `level`.
    fn new(level: u8) -> Rules {
        Rules {
            level,
            producers: Vec::new(),
            ids: Vec::new(),
            removals: std::collections::HashSet::new(),
        }
    }

    /// The chain producers of the level, in order.
    fn producer_list(level: u8) -> Vec<Producer> {
        let multiple = |dynamic, level| Producer::Multiple { dynamic, level };
        match level {
            0 | 1 => vec![],
            2 => vec![Producer::Unary],
            3 => vec![Producer::Unary, multiple(false, 0)],
            4 => vec![multiple(true, 0)],
            _ => vec![multiple(true, 0), multiple(true, level - 3)],
        }
    }

    /// Sudoku Explainer's `getAdvancedPotentials`: adds to `out` (as
    /// "off" potentials resting on their rule parents) what the first
    /// rule giving anything removes in `work`, a chain's reduced grid
    /// that started from `source`.
    fn advanced(
        &mut self,
        work: &Cands,
        source: &Cands,
        arena: &mut Arena,
        out: &mut Outcome,
        budget: &mut Budget,
    ) -> Result<(), OutOfBudget> {
        let mut produced = false;
        PlusRules.eliminations(work, source, &mut |cell, digit, parents| {
            produced = true;
            let n = super::node::off(cell, digit);
            if out.get(n).is_some() {
                return;
            }
            let mut ids = [0u32; 32];
            let mut k = 0;
            for &(pc, pd) in parents {
                if let Some(id) = out.get(super::node::off(usize::from(pc), pd)) {
                    ids[k] = id;
                    k += 1;
                }
            }
            let id = arena.push(n, Cause::Advanced, &ids[..k]);
            out.add(n, id);
        });
        if produced {
            return Ok(());
        }
        if self.producers.is_empty() {
            self.producers = Rules::producer_list(self.level)
                .into_iter()
                .map(Searcher::new)
                .collect();
        }
        let (ids, removals) = (&mut self.ids, &mut self.removals);
        for producer in &mut self.producers {
            // Most of these searches find nothing: the flat producer of the
            // same level says so for a fraction of the literal search's work.
            if let Some(level) = producer.producer.flat_level() {
                if super::find(work, level, budget)?.is_none() {
                    continue;
                }
            }
            producer.search(work, Some(source), budget)?;
            let hints = &producer.hints;
            removals.clear();
            for h in &hints.list {
                // Sudoku Explainer keeps a producer's hints in a set
                // equal on what they remove: a later equal one is dropped.
                let key = removal_hash(hints.elims(h));
                if !removals.insert(key) {
                    continue;
                }
                let parents = hints.parents(h);
                if parents.is_empty() {
                    continue;
                }
                ids.clear();
                for &p in parents {
                    if let Some(id) = out.get(usize::from(p)) {
                        ids.push(id);
                    }
                }
                let nested = NestedChain {
                    fingerprint: h.fingerprint,
                    complexity: h.key.complexity,
                };
                for &(c, d) in hints.elims(h) {
                    produced = true;
                    let n = super::node::off(usize::from(c), d);
                    if out.get(n).is_some() {
                        continue;
                    }
                    let id = arena.push(n, Cause::Advanced, ids);
                    arena.set_nested(id, nested);
                    out.add(n, id);
                }
            }
            if produced {
                break;
            }
        }
        Ok(())
    }
}

/// A hash of a list of removals (a hint's identity in Sudoku Explainer's
/// hint sets).
fn removal_hash(elims: &[(u8, u8)]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &(c, d) in elims {
        h = (h ^ (u64::from(c) << 8 | u64::from(d))).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One chain producer with its working memory.
struct Searcher {
    /// Which producer.
    producer: Producer,
    /// Its potentials.
    arena: Arena,
    /// Its propagations' sets.
    outs: Vec<Outcome>,
    /// Its propagation lists.
    lists: Lists,
    /// The rules inside its chains.
    rules: Rules,
    /// The hints found by the last search.
    hints: Hints,
    /// For each candidate, the outcome slot of its propagation "on" in
    /// this search (`u32::MAX`: not yet).
    slot_of: Vec<u32>,
    /// The clash of each outcome slot's propagation.
    absurd: Vec<Option<(u32, u32)>>,
    /// Outcome slots in use.
    used: usize,
    /// The unary producer's working lists.
    unary: unary::Scratch,
    /// The multiple producers' working lists: one hint's removals and
    /// targets.
    multiple: (Vec<(u8, u8)>, Vec<u32>),
}

impl Searcher {
    /// A producer, ready to search.
    fn new(producer: Producer) -> Searcher {
        let level = match producer {
            Producer::Unary => 0,
            Producer::Multiple { level, .. } => level,
        };
        Searcher {
            producer,
            arena: Arena::new(),
            outs: Vec::new(),
            lists: Lists::new(),
            rules: Rules::new(level),
            hints: Hints::new(),
            slot_of: Vec::new(),
            absurd: Vec::new(),
            used: 0,
            unary: unary::Scratch::default(),
            multiple: (Vec::new(), Vec::new()),
        }
    }

    /// Finds every hint of the producer in `grid`, sorted as Sudoku
    /// Explainer sorts them (stable: difficulty, complexity, sort key).
    /// `source`: when the search is a rule inside a chain that started
    /// from `source`, each hint's rule parents and identity are kept.
    fn search(
        &mut self,
        grid: &Cands,
        source: Option<&Cands>,
        budget: &mut Budget,
    ) -> Result<(), OutOfBudget> {
        self.hints.clear();
        match self.producer {
            Producer::Unary => unary::search(self, grid, source, budget)?,
            Producer::Multiple { dynamic, .. } => {
                multiple::search(self, grid, dynamic, source, budget)?
            }
        }
        self.hints.list.sort_unstable_by(|a, b| {
            a.key
                .difficulty
                .partial_cmp(&b.key.difficulty)
                .expect("finite")
                .then(a.key.complexity.cmp(&b.key.complexity))
                .then(a.key.sort_key.cmp(&b.key.sort_key))
                .then(a.order.cmp(&b.order))
        });
        Ok(())
    }

    /// Records a hint of `shape` removing `removals` (none: not worth
    /// it, dropped).
    fn offer(
        &mut self,
        shape: &Shape<'_>,
        removals: &[(u8, u8)],
        grid: &Cands,
        source: Option<&Cands>,
    ) {
        if removals.is_empty() {
            return;
        }
        let arena = &mut self.arena;
        let hints = &mut self.hints;
        let flat: u32 = shape.counted.iter().map(|&t| arena.ancestor_count(t)).sum();
        hints.nested_seen.clear();
        let mut nested = 0;
        for &t in shape.targets {
            arena.chain(t);
            for &id in &arena.walk {
                let n = arena.pot(id).nested;
                if n.fingerprint != 0 && !hints.nested_seen.contains(&n.fingerprint) {
                    hints.nested_seen.push(n.fingerprint);
                    nested += n.complexity;
                }
            }
        }
        let key = HintKey::new(shape.base, flat + nested, shape.sort_key);
        let e0 = hints.elims_all.len() as u32;
        hints.elims_all.extend_from_slice(removals);
        let p0 = hints.parents_all.len() as u32;
        let mut fingerprint = 0;
        if let Some(source) = source {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for &t in shape.targets {
                arena.rule_parents(
                    t,
                    shape.root,
                    source,
                    grid,
                    &mut hints.parents_all,
                    p0 as usize,
                );
                arena.chain(t);
                h = (h ^ 0xffff).wrapping_mul(0x0100_0000_01b3);
                for &id in &arena.walk {
                    h = (h ^ arena.node(id) as u64).wrapping_mul(0x0100_0000_01b3);
                }
            }
            fingerprint = h.max(1);
        }
        let p1 = hints.parents_all.len() as u32;
        let order = hints.list.len() as u32;
        hints.list.push(Hint {
            order,
            key,
            elims: (e0, hints.elims_all.len() as u32),
            parents: (p0, p1),
            fingerprint,
            place: shape.place,
            premise: shape.premise,
        });
    }
}

/// The removals of a hint that concludes `digit` at `cell` is `on` (a
/// placement: the cell's other candidates) or off (the candidate itself)
/// into `out`; the placement, if `on`.
fn conclusion(
    grid: &Cands,
    cell: usize,
    digit: u8,
    on: bool,
    out: &mut Vec<(u8, u8)>,
) -> Option<(u8, u8)> {
    out.clear();
    if !on {
        out.push((cell as u8, digit));
        return None;
    }
    let here = grid.candidates(cell) & !(1 << (digit - 1));
    for d in 1..=9u8 {
        if here >> (d - 1) & 1 != 0 {
            out.push((cell as u8, d));
        }
    }
    Some((cell as u8, digit))
}

/// The rating (tenths) and complexity of the first hint of nested level
/// `depth` in `cands`, and its step, for the oracle comparison.
#[cfg(test)]
fn first_key(cands: &Cands, depth: u8) -> Option<((u8, u32), Step)> {
    let mut searcher = Searcher::new(Producer::Multiple {
        dynamic: true,
        level: depth,
    });
    searcher
        .search(cands, None, &mut Budget::new(u64::MAX))
        .unwrap();
    let step = first_step(&searcher)?;
    searcher
        .hints
        .list
        .first()
        .map(|h| ((h.key.tenths(), h.key.complexity), step))
}

#[cfg(test)]
mod tests;
