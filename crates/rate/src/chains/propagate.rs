//! One chain propagation (Sudoku Explainer's `doChaining`): from one
//! assumed potential, every potential that must follow, in the order
//! Sudoku Explainer finds them (an "on" potential is expanded as soon as
//! it is found; "off" ones wait in a queue), until nothing follows or a
//! candidate would have to be both on and off (a contradiction).
//!
//! Static chains read the grid as it is. Dynamic chains remove each
//! "off" candidate from a copy of the grid once it is expanded, so later
//! singles see the reduced grid; a potential found that way rests on the
//! removed candidates too (its "hidden parents"), which the ancestor
//! sets record. The complexity of a potential is the number of distinct
//! potentials among itself and its ancestors.

use super::links::{box_row_column, off_to_on, removed_behind, Places, Via};
use super::node::{self, CANDIDATES, NODES};
use super::reads::Reads;
use super::simpler::SimplerRules;
use super::unit_places::{UnitPlaces, NEW_PEERS};
use crate::bits::digits;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::{CellSet, UNIT_SETS};

/// Words of an ancestor set (one bit per discovered potential).
const WORDS: usize = NODES.div_ceil(64);

/// How one propagation draws its implications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mode {
    /// Remove expanded "off" candidates from the working grid.
    pub(super) dynamic: bool,
    /// Use the links inside a cell (naked singles, the other candidates
    /// of an "on" cell); Nishio chains use one digit's links only.
    pub(super) cell_links: bool,
    /// Ask the simpler rules when the plain implications run dry.
    pub(super) simpler: bool,
}

/// What a propagation found: the potentials that follow, in the order
/// found, and the complexity of each.
#[derive(Clone)]
pub(super) struct Outcome {
    /// For each digit (index `d - 1`), the cells whose candidate is on.
    pub(super) on: [CellSet; 9],
    /// For each digit, the cells whose candidate is off.
    pub(super) off: [CellSet; 9],
    /// The potentials found, one bit each by index (`on` and `off` again,
    /// for the one-bit test of [`Outcome::holds`]).
    found: [u64; WORDS],
    /// The "on" potentials in the order found (the assumption first when
    /// it is an "on" one).
    pub(super) on_order: [u16; CANDIDATES],
    /// How many of `on_order` are filled.
    pub(super) on_len: usize,
    /// The "off" potentials in the order found.
    pub(super) off_order: [u16; CANDIDATES],
    /// How many of `off_order` are filled.
    pub(super) off_len: usize,
    /// The complexity of each potential found (index by potential).
    pub(super) complexity: [u16; NODES],
    /// The complexities of the two potentials that clash, when the
    /// propagation stopped on a contradiction (on, then off).
    pub(super) contradiction: Option<(u32, u32)>,
    /// What the propagation read of its grid (see [`Reads`]; not kept
    /// with simpler rules, which read the whole grid).
    pub(super) reads: Reads,
    /// The work units it spent.
    pub(super) spent: u64,
}

impl Outcome {
    /// Whether potential `node` follows.
    #[inline(always)]
    pub(super) fn holds(&self, node: usize) -> bool {
        self.found[node / 64] >> (node % 64) & 1 != 0
    }

    /// Which of the nine potentials from `first` on follow, one bit each
    /// (bit `i` for potential `first + i`).
    #[inline(always)]
    fn nine(&self, first: usize) -> u16 {
        let (word, shift) = (first / 64, first % 64);
        let mut bits = self.found[word] >> shift;
        if shift > 64 - 9 {
            bits |= self.found[word + 1] << (64 - shift);
        }
        (bits & 0x1FF) as u16
    }

    /// The "on" potentials in the order found.
    pub(super) fn ons(&self) -> impl Iterator<Item = usize> + '_ {
        self.on_order[..self.on_len].iter().map(|&n| usize::from(n))
    }

    /// The "off" potentials in the order found.
    pub(super) fn offs(&self) -> impl Iterator<Item = usize> + '_ {
        self.off_order[..self.off_len]
            .iter()
            .map(|&n| usize::from(n))
    }
}

/// A reusable propagation: the outcome being built and the working state.
pub(super) struct Propagation {
    /// The outcome being built and the ancestry of its potentials.
    pub(super) rec: Record,
    /// The working grid (reduced as it goes, for dynamic chains).
    grid: Cands,
    /// The working grid's places per unit (reduced with it).
    units: UnitPlaces,
    /// The grid the runs start from (see [`Propagation::prepare`]).
    source: Cands,
    /// The source grid's places per unit.
    source_units: UnitPlaces,
    /// Whether the working grid may differ from the source (a dynamic run
    /// reduced it): static runs leave it alone, so after one the next run
    /// need not copy the source again.
    reduced: bool,
}

/// What a propagation has found: the outcome and, by discovery slot, the
/// ancestry of each potential (apart from the grids, so that the links
/// read the grids while a run records what they imply).
pub(super) struct Record {
    /// The outcome of the last run (boxed: a caller keeping outcomes swaps
    /// it out instead of copying its few kilobytes).
    pub(super) out: Box<Outcome>,
    /// The discovery slot of each potential found.
    slot_of: [u16; NODES],
    /// For an "off" slot found from an "on" one: that slot.
    parent_slot: [u16; NODES],
    /// Whether a slot has its own ancestor set (else its parent's plus itself).
    own_set: [bool; NODES],
    /// The ancestor sets, by slot (dynamic runs only).
    sets: Vec<[u64; WORDS]>,
    /// Slots handed out.
    slots: usize,
}

impl Propagation {
    /// An empty propagation (allocates its ancestor sets once).
    pub(super) fn new() -> Box<Propagation> {
        Box::new(Propagation {
            rec: Record {
                out: Box::new(Outcome {
                    on: [CellSet::EMPTY; 9],
                    off: [CellSet::EMPTY; 9],
                    found: [0; WORDS],
                    on_order: [0; CANDIDATES],
                    on_len: 0,
                    off_order: [0; CANDIDATES],
                    off_len: 0,
                    complexity: [0; NODES],
                    contradiction: None,
                    reads: Reads::NONE,
                    spent: 0,
                }),
                slot_of: [0; NODES],
                parent_slot: [0; NODES],
                own_set: [false; NODES],
                sets: vec![[0; WORDS]; NODES],
                slots: 0,
            },
            grid: Cands::new(&batchdoku_core::Grid::empty()),
            units: UnitPlaces::EMPTY,
            source: Cands::new(&batchdoku_core::Grid::empty()),
            source_units: UnitPlaces::EMPTY,
            reduced: true,
        })
    }

    /// Sets the grid that the next runs start from (worked out once per
    /// grid rather than once per run).
    pub(super) fn prepare(&mut self, cands: &Cands) {
        self.source = *cands;
        self.source_units = UnitPlaces::of(cands);
        self.reduced = true;
    }

    /// Propagates the assumption `root` in the prepared grid (`cands`,
    /// given again to check it); the outcome is in `self.out`.
    pub(super) fn run(
        &mut self,
        cands: &Cands,
        root: usize,
        mode: Mode,
        rules: &mut dyn SimplerRules,
        budget: &mut Budget,
    ) -> Result<(), OutOfBudget> {
        debug_assert!(self.source == *cands, "run on the prepared grid");
        if self.reduced {
            self.grid = self.source;
            self.units = self.source_units;
        }
        self.reduced = mode.dynamic;
        self.rec.out.on = [CellSet::EMPTY; 9];
        self.rec.out.off = [CellSet::EMPTY; 9];
        self.rec.out.found = [0; WORDS];
        self.rec.out.on_len = 0;
        self.rec.out.off_len = 0;
        self.rec.out.contradiction = None;
        self.rec.out.reads = Reads::NONE;
        self.rec.slots = 0;
        self.rec.add_root(root, mode);
        let (mut on_head, mut off_head) = (0, 0);
        let mut spent = 0;
        loop {
            budget.spend(1)?;
            spent += 1;
            let p = if on_head < self.rec.out.on_len {
                on_head += 1;
                usize::from(self.rec.out.on_order[on_head - 1])
            } else if off_head < self.rec.out.off_len {
                off_head += 1;
                usize::from(self.rec.out.off_order[off_head - 1])
            } else {
                break;
            };
            let (c, digit) = (node::cell(p), node::digit(p));
            let d0 = usize::from(digit - 1);
            self.rec.out.reads.read(c, d0, mode.cell_links);
            let stop = if node::is_on(p) {
                self.expand_on(p, mode)
            } else {
                self.expand_off(p, mode)
            };
            if stop {
                self.rec.out.spent = spent;
                return Ok(());
            }
            if mode.simpler && on_head == self.rec.out.on_len && off_head == self.rec.out.off_len {
                self.ask_simpler_rules(rules);
            }
        }
        self.rec.out.spent = spent;
        Ok(())
    }

    /// Expands "on" potential `p`: its [`on_to_off`](super::links::on_to_off) links, in the same
    /// order, a group at a time (the cell's other digits, then the
    /// digit's new places in the box, row and column): a group that holds
    /// no "on" potential cannot clash, so only its potentials not yet
    /// found are visited; one that does is visited in full, in order, up
    /// to the clash. Whether a contradiction stopped it.
    fn expand_on(&mut self, p: usize, mode: Mode) -> bool {
        let rec = &mut self.rec;
        let (c, digit) = node::on_cell_digit(p);
        let d0 = usize::from(digit - 1);
        if mode.cell_links {
            let others = self.grid.candidates(c) & !(1 << d0);
            let first = node::on(c, 1);
            if others & rec.out.nine(first) != 0 {
                for w in digits(others) {
                    if rec.found_off((c, w), p) {
                        return true;
                    }
                }
            } else {
                for w in digits(others & !rec.out.nine(first + CANDIDATES)) {
                    rec.add_off((c, w), p);
                }
            }
        }
        let places = self.grid.digit_cells(digit);
        for peers in &NEW_PEERS[c] {
            let cells = places.and(*peers);
            if !cells.and(rec.out.on[d0]).is_empty() {
                for x in cells.iter() {
                    if rec.found_off((x, digit), p) {
                        return true;
                    }
                }
            } else {
                for x in cells.minus(rec.out.off[d0]).iter() {
                    rec.add_off((x, digit), p);
                }
            }
        }
        false
    }

    /// Expands "off" potential `p`: its [`off_to_on`] links go on; then,
    /// for dynamic chains, the candidate leaves the working grid. Whether
    /// a contradiction stopped it.
    fn expand_off(&mut self, p: usize, mode: Mode) -> bool {
        let (c, digit) = (node::cell(p), node::digit(p));
        // Up to four consequences, each with the link behind it.
        let mut found: [(usize, Via); 4] = [(0, Via::Cell); 4];
        let mut n = 0;
        let grid = Places {
            cands: &self.grid,
            units: &self.units,
        };
        off_to_on(&grid, (c, digit), (mode.cell_links, true), |x, w, via| {
            found[n] = (node::on(x, w), via);
            n += 1;
        });
        let d0 = usize::from(digit - 1);
        if mode.dynamic {
            self.grid.eliminate(c, digit);
            self.units.remove(c, d0);
        }
        for &(q, via) in &found[..n] {
            let off = node::conjugate(q);
            let clash = self.rec.out.holds(off);
            if !clash && self.rec.out.holds(q) {
                continue;
            }
            if mode.dynamic {
                let mut acc = [0u64; WORDS];
                self.rec.gather(p, &mut acc);
                self.gather_hidden(q, via, &mut acc);
                if clash {
                    let q_complexity = ancestor_count(&acc, self.rec.slots) + 1;
                    self.rec.out.contradiction =
                        Some((q_complexity, u32::from(self.rec.out.complexity[off])));
                    return true;
                }
                self.rec.add_with_set(q, acc);
            } else {
                if clash {
                    let q_complexity = u32::from(self.rec.out.complexity[p]) + 1;
                    self.rec.out.contradiction =
                        Some((q_complexity, u32::from(self.rec.out.complexity[off])));
                    return true;
                }
                self.rec.add_static_on(q, p);
            }
        }
        false
    }

    /// Adds to `acc` the hidden parents of "on" potential `q` reached
    /// through `via`: the candidates removed (by this run) behind it.
    fn gather_hidden(&self, q: usize, via: Via, acc: &mut [u64; WORDS]) {
        let source = Places {
            cands: &self.source,
            units: &self.source_units,
        };
        let current = Places {
            cands: &self.grid,
            units: &self.units,
        };
        let q = (node::cell(q), node::digit(q));
        removed_behind(&source, &current, q, via, |x, w| {
            self.rec.gather(node::off(x, w), acc)
        });
    }

    /// Asks the simpler rules for more "off" potentials on the reduced
    /// grid; each rests on the removed candidates the rule names. Kept
    /// out of line: the levels without simpler rules never call it, and
    /// inlined it slows their propagation loop.
    #[inline(never)]
    fn ask_simpler_rules(&mut self, rules: &mut dyn SimplerRules) {
        let (grid, source) = (self.grid, self.source);
        rules.eliminations(&grid, &source, &mut |cell, digit, parents| {
            let q = node::off(cell, digit);
            if self.rec.out.holds(q) {
                return;
            }
            let mut acc = [0u64; WORDS];
            for &(pc, pd) in parents {
                let parent = node::off(usize::from(pc), pd);
                debug_assert!(
                    self.rec.out.holds(parent),
                    "a rule parent is a removed candidate"
                );
                if self.rec.out.holds(parent) {
                    self.rec.gather(parent, &mut acc);
                }
            }
            self.rec.add_with_set(q, acc);
        });
    }
}

impl Record {
    /// Records the root potential `node` (the first found: slot 0, an
    /// ancestor set of its own).
    fn add_root(&mut self, node: usize, mode: Mode) {
        let slot = self.list(node);
        self.out.complexity[node] = 1;
        self.own_set[slot] = true;
        if mode.dynamic {
            let set = &mut self.sets[slot][..=slot / 64];
            set.fill(0);
            set[slot / 64] |= 1 << (slot % 64);
        }
    }

    /// Lists potential `node` as found (its slot, its bit, its place in
    /// the order found); returns its slot.
    #[inline(always)]
    fn list(&mut self, node: usize) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.slot_of[node] = slot as u16;
        self.out.found[node / 64] |= 1 << (node % 64);
        let d = usize::from(node::digit(node) - 1);
        let c = node::cell(node);
        if node::is_on(node) {
            self.out.on[d].insert(c);
            self.out.on_order[self.out.on_len] = node as u16;
            self.out.on_len += 1;
        } else {
            self.out.off[d].insert(c);
            self.out.off_order[self.out.off_len] = node as u16;
            self.out.off_len += 1;
        }
        slot
    }

    /// Records `node` found with its ancestors already gathered in `acc`
    /// (its own bit not yet in). A slot's ancestors come before it, so
    /// its set is kept only up to its own word (see [`Record::gather`]).
    fn add_with_set(&mut self, node: usize, mut acc: [u64; WORDS]) {
        let slot = self.list(node);
        self.own_set[slot] = true;
        acc[slot / 64] |= 1 << (slot % 64);
        self.out.complexity[node] = ancestor_count(&acc, self.slots) as u16;
        let words = slot / 64 + 1;
        self.sets[slot][..words].copy_from_slice(&acc[..words]);
    }

    /// Adds the ancestors of found "off" potential `q` (itself included)
    /// to `acc`: a set holds only slots up to its own, so only the words
    /// up to its slot's are read.
    fn gather(&self, q: usize, acc: &mut [u64; WORDS]) {
        let s = usize::from(self.slot_of[q]);
        let (from, own) = if self.own_set[s] {
            (s, false)
        } else {
            (usize::from(self.parent_slot[s]), true)
        };
        let words = from / 64 + 1;
        for (a, b) in acc[..words].iter_mut().zip(&self.sets[from][..words]) {
            *a |= b;
        }
        if own {
            acc[s / 64] |= 1 << (s % 64);
        }
    }

    /// Records "on" potential `q` found in a static run from "off"
    /// potential `p` (no ancestry: only dynamic runs read it). Kept out
    /// of line: inlined it slows the propagation loop.
    #[inline(never)]
    fn add_static_on(&mut self, q: usize, p: usize) {
        let (cell, digit) = node::on_cell_digit(q);
        self.out.found[q / 64] |= 1 << (q % 64);
        self.out.on[usize::from(digit - 1)].insert(cell);
        self.out.on_order[self.out.on_len] = q as u16;
        self.out.on_len += 1;
        self.out.complexity[q] = self.out.complexity[p] + 1;
    }

    /// Handles "off" potential `q` found from "on" potential `p`: a
    /// contradiction if its candidate is on, else recorded once.
    #[inline(always)]
    fn found_off(&mut self, (cell, digit): (usize, u8), p: usize) -> bool {
        let q = node::off(cell, digit);
        let on = node::conjugate(q);
        if self.out.holds(on) {
            let q_complexity = u32::from(self.out.complexity[p]) + 1;
            self.out.contradiction = Some((u32::from(self.out.complexity[on]), q_complexity));
            return true;
        }
        if !self.out.holds(q) {
            self.add_off((cell, digit), p);
        }
        false
    }

    /// Records "off" potential `digit` (1..=9) in `cell` as found from
    /// "on" potential `p`, with its slot and parent slot (the ancestry
    /// dynamic runs gather).
    #[inline(always)]
    fn add_off(&mut self, (cell, digit): (usize, u8), p: usize) {
        let q = node::off(cell, digit);
        let slot = self.slots;
        self.slots += 1;
        self.slot_of[q] = slot as u16;
        self.out.found[q / 64] |= 1 << (q % 64);
        self.out.off[usize::from(digit - 1)].insert(cell);
        self.out.off_order[self.out.off_len] = q as u16;
        self.out.off_len += 1;
        self.out.complexity[q] = self.out.complexity[p] + 1;
        self.own_set[slot] = false;
        self.parent_slot[slot] = self.slot_of[p];
    }
}

impl Mode {
    /// Static chains with cell links (forcing and multiple chains).
    pub(super) const STATIC: Mode = Mode {
        dynamic: false,
        cell_links: true,
        simpler: false,
    };
}

/// The units of `cell` (box, row, column) where `cell` is the first of
/// two or more places of `digit`, with those places: Sudoku Explainer's
/// region chains start once per region, from its first place.
pub(super) fn regions_led_by(
    cands: &Cands,
    cell: usize,
    digit: u8,
) -> impl Iterator<Item = (usize, CellSet)> + '_ {
    box_row_column(cell).into_iter().filter_map(move |unit| {
        let places = cands.digit_cells(digit).and(UNIT_SETS[unit]);
        (places.at_least_two() && places.first() == Some(cell)).then_some((unit, places))
    })
}

/// The number of ancestors in `set` (bits set among its first `slots`).
fn ancestor_count(set: &[u64; WORDS], slots: usize) -> u32 {
    set[..slots.div_ceil(64).max(1)]
        .iter()
        .map(|w| w.count_ones())
        .sum()
}
