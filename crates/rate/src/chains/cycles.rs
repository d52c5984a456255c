//! The first chain producer (Sudoku Explainer's `Chaining(false, false,
//! false, 0)`): bidirectional cycles and forcing chains with static links,
//! searched three times (X links only, on one digit; Y links only, from
//! and through bivalue cells; both), from every candidate of every cell
//! with two or more, in row-major order.
//!
//! Cycles: a breadth-first walk alternating "on" and "off" layers in
//! which "on" potentials are met once but "off" ones once per path (only
//! never twice on one path); each time the walk comes back to its start
//! after four or more links, the loop is a cycle and removes every
//! candidate that sees both an "on" and an "off" potential of its digit.
//! Forcing chains: a plain walk from the candidate assumed on (or off)
//! that reaches the same candidate in the other state.

use super::best::Best;
use super::forcing::{forcing_chain_from_off, forcing_chain_from_on, Walked};
use super::links::{self, Links, Partners, Static};
use super::links_of;
use super::node;
use super::rating::{cycle_kind, HintKey};
use super::unit_places::NEW_PEERS;
use crate::bits::{count, digits};
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::{CellSet, PEER_SETS};
use crate::step::{Pattern, Step};

/// Reusable working memory of the search.
pub(super) struct Scratch {
    /// The current layer of the walk (its first `layer_len` potentials;
    /// room for every candidate, as `next`).
    layer: Vec<u16>,
    /// How many potentials `layer` holds.
    layer_len: usize,
    /// The layer being built.
    next: Vec<u16>,
    /// The potential each potential met was first reached from.
    parent: Vec<u16>,
    /// For each "on" potential met, which closing potentials (see
    /// [`cycles`]) lie on its path, one bit each.
    closing_on_path: Vec<u8>,
    /// The cycle closings of the current layer: (the "on" potential, the
    /// closing "off" potential it implies).
    closings: Vec<(u16, u16)>,
    /// What the last walk met, for the forcing chain from its start.
    walked: Walked,
    /// For each potential, its index among the current walk's closing
    /// potentials ([`NOT_CLOSING`] for the others): one load instead of
    /// a search of the list at each potential met.
    closing_index: Vec<u8>,
    /// The closing potentials marked in `closing_index` (cleared at the
    /// next walk's start, so that a walk cut short leaves none behind).
    closing: [usize; 4],
    /// How many of `closing` are in use.
    closing_len: usize,
}

/// [`Scratch::closing_index`] of a potential that does not close a cycle.
const NOT_CLOSING: u8 = u8::MAX;

impl Scratch {
    /// Empty working memory.
    pub(super) fn new() -> Scratch {
        Scratch {
            layer: vec![0; node::CANDIDATES],
            layer_len: 0,
            next: vec![0; node::CANDIDATES],
            parent: vec![0; node::NODES],
            closing_on_path: vec![0; node::NODES],
            closings: Vec::with_capacity(64),
            walked: Walked::new(),
            closing_index: vec![NOT_CLOSING; node::NODES],
            closing: [0; 4],
            closing_len: 0,
        }
    }
}

impl Scratch {
    /// The layer being built, of `len` potentials, is complete: its work
    /// is spent, its size noted, and it becomes the current layer.
    fn end_layer(&mut self, len: usize, budget: &mut Budget) -> Result<(), OutOfBudget> {
        budget.spend(len as u64 + 1)?;
        self.walked.sizes.push(len as u32);
        std::mem::swap(&mut self.layer, &mut self.next);
        self.layer_len = len;
        Ok(())
    }
}

/// Offers every cycle and forcing chain hint of `cands` to `best`, in
/// Sudoku Explainer's order.
pub(super) fn search(
    cands: &Cands,
    best: &mut Best,
    scratch: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let partners = Partners::new(cands);
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        Links { y: true, x: true },
    ] {
        for cell in cands.empty().iter() {
            let here = cands.candidates(cell);
            if count(here) < 2 || (count(here) > 2 && !links.x) {
                continue;
            }
            for digit in digits(here) {
                cycles(cands, &partners, cell, digit, links, best, scratch, budget)?;
                if links.x {
                    // The cycle walk has walked the same links from the
                    // same start as the forcing chain from it "on".
                    let start = (cell, digit);
                    let walked = (&mut scratch.walked, &scratch.layer[..scratch.layer_len]);
                    forcing_chain_from_on(cands, &partners, start, links, walked, best, budget)?;
                    forcing_chain_from_off(cands, &partners, start, links, best, budget)?;
                }
            }
        }
    }
    Ok(())
}

/// The "on" potentials an "off" one implies ([`links::off_to_on`], cell
/// links with Y links, unit links with X links), with their cells and
/// digits.
#[inline(always)]
fn off_to_on(
    cands: &Cands,
    partners: &Partners,
    p: usize,
    links: Links,
    mut visit: impl FnMut(usize, usize, u8),
) {
    let grid = Static::new(cands, partners);
    let from = node::on_cell_digit(node::conjugate(p));
    links::off_to_on(&grid, from, (links.y, links.x), |x, d, _| {
        visit(node::on(x, d), x, d)
    });
}

/// The cycle walk from `digit` on in `cell`, offering each cycle found.
///
/// Sudoku Explainer's walk meets "off" potentials once per path, but
/// only the first meeting of each can reach an "on" potential not yet
/// met, so the walk here is a plain breadth-first one; the other
/// meetings matter only when they close a cycle, which only the few
/// "closing" potentials (those that imply the start) can do: each time
/// an "on" potential implies one that is not on its own path, a cycle
/// of that length closes, in the order Sudoku Explainer meets it.
#[allow(clippy::too_many_arguments)]
fn cycles(
    cands: &Cands,
    partners: &Partners,
    cell: usize,
    digit: u8,
    links: Links,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let start = node::on(cell, digit);
    let target = node::conjugate(start);
    let mut closing = [usize::MAX; 4];
    let mut n = 0;
    off_to_on_sources(cands, partners, start, links, |q| {
        closing[n] = q;
        n += 1;
    });
    s.walked.start();
    mark(&mut s.walked.met, true, cell, digit);
    s.layer[0] = start as u16;
    s.layer_len = 1;
    if n == 0 {
        return Ok(());
    }
    let closing = &closing[..n];
    let (base, sort_key, _) = cycle_kind(links);
    s.closing_on_path[start] = 0;
    for &q in &s.closing[..s.closing_len] {
        s.closing_index[q] = NOT_CLOSING;
    }
    for (k, &q) in closing.iter().enumerate() {
        // The first index of a potential listed twice, as a search finds.
        if s.closing_index[q] == NOT_CLOSING {
            s.closing_index[q] = k as u8;
        }
    }
    // The cells of the closing potentials, per digit.
    let mut closing_cells = [CellSet::EMPTY; 9];
    for &q in closing {
        closing_cells[usize::from(node::digit(q) - 1)].insert(node::cell(q));
    }
    s.closing[..n].copy_from_slice(closing);
    s.closing_len = n;
    let mut iteration: u32 = 0;
    while s.layer_len != 0 {
        iteration += 1;
        // Cycles closing in this iteration have 2 * iteration potentials.
        if iteration >= 2 && !best.wants(&HintKey::new(base, 2 * iteration, sort_key)) {
            break;
        }
        s.closings.clear();
        // The walk's arrays as slices held here, so that the loop keeps
        // them in registers instead of reading them back after each store.
        let mut reached_len = 0;
        let (next, parent) = (&mut s.next[..], &mut s.parent[..]);
        let (closings, closing_index) = (&mut s.closings, &s.closing_index[..]);
        let (paths, walked) = (&s.closing_on_path[..], &mut s.walked);
        for &p in &s.layer[..s.layer_len] {
            let p = usize::from(p);
            let on_path = paths[p];
            let met = &mut walked.met;
            let walked_target = &mut walked.target;
            let mut closes = |q: usize| {
                if iteration >= 2 {
                    let k = closing_index[q];
                    if k != NOT_CLOSING && on_path >> k & 1 == 0 {
                        closings.push((p as u16, q as u16));
                    }
                }
            };
            let mut reached = |q: usize| {
                parent[q] = p as u16;
                next[reached_len] = q as u16;
                reached_len += 1;
                if q == target {
                    *walked_target = 2 * iteration - 1;
                }
            };
            // The links of [`links::on_to_off`] in its order, the cell's
            // other digits one by one (with Y links), then the digit's new
            // places in the box, row and column a unit at a time: only
            // the places of closing potentials are tested for a cycle,
            // only the places not met yet are walked on.
            let (c, digit) = node::on_cell_digit(p);
            let d0 = usize::from(digit - 1);
            if links.y {
                for w in digits(cands.candidates(c) & !(1 << d0)) {
                    let q = node::off(c, w);
                    closes(q);
                    if mark(met, false, c, w) {
                        reached(q);
                    }
                }
            }
            let places = cands.digit_cells(digit);
            for peers in &NEW_PEERS[c] {
                let cells = places.and(*peers);
                for x in cells.and(closing_cells[d0]).iter() {
                    closes(node::off(x, digit));
                }
                let fresh = cells.minus(met[1][d0]);
                met[1][d0] = met[1][d0].or(cells);
                for x in fresh.iter() {
                    reached(node::off(x, digit));
                }
            }
        }
        for i in 0..s.closings.len() {
            let (p, q) = s.closings[i];
            let (p, q) = (usize::from(p), usize::from(q));
            // `p` is in the layer met in 2 * (iteration - 1) links.
            let depth = 2 * (iteration - 1);
            offer_cycle(cands, start, (p, depth), q, links, best, s);
        }
        s.end_layer(reached_len, budget)?;
        let mut reached_len = 0;
        let (next, parent) = (&mut s.next[..], &mut s.parent[..]);
        let (paths, closing_index) = (&mut s.closing_on_path[..], &s.closing_index[..]);
        let met = &mut s.walked.met;
        for &q in &s.layer[..s.layer_len] {
            let q = usize::from(q);
            let p = usize::from(parent[q]);
            let k = closing_index[q];
            let bit = if k == NOT_CLOSING { 0 } else { 1u8 << k };
            let on_path = paths[p] | bit;
            off_to_on(cands, partners, q, links, |r, x, d| {
                if mark(met, true, x, d) {
                    parent[r] = q as u16;
                    paths[r] = on_path;
                    next[reached_len] = r as u16;
                    reached_len += 1;
                }
            });
        }
        s.end_layer(reached_len, budget)?;
    }
    Ok(())
}

/// The "off" potentials that imply `start` (an "on" potential): the
/// other candidate of its cell if bivalue (Y links), the other place of
/// its digit in a box, row or column with two (X links).
fn off_to_on_sources(
    cands: &Cands,
    partners: &Partners,
    start: usize,
    links: Links,
    mut visit: impl FnMut(usize),
) {
    // The links are symmetric: what `start` off implies on, off implies it.
    off_to_on(cands, partners, node::conjugate(start), links, |q, _, _| {
        visit(node::conjugate(q))
    });
}

/// Marks the potential of `digit` (1..=9) in `cell`, "on" or not, met;
/// whether it is new.
#[inline(always)]
fn mark(met: &mut [[CellSet; 9]; 2], on: bool, cell: usize, digit: u8) -> bool {
    let set = &mut met[usize::from(!on)][usize::from(digit - 1)];
    let fresh = !set.contains(cell);
    set.insert(cell);
    fresh
}

/// Offers the cycle closed when "on" potential `p` (met `depth` links
/// from the start) implies `closing`, which implies the start again.
fn offer_cycle(
    cands: &Cands,
    start: usize,
    (p, depth): (usize, u32),
    closing: usize,
    links: Links,
    best: &mut Best,
    s: &Scratch,
) {
    let (base, sort_key, technique) = cycle_kind(links);
    let complexity = depth + 2;
    let key = HintKey::new(base, complexity, sort_key);
    if !best.wants(&key) {
        return;
    }
    // The cycle's potentials: the start, the closing one, and the path
    // from `p` back to the start.
    let mut cells = CellSet::single(node::cell(start));
    let mut cycle_digits = 0u16;
    let mut seen_on = [CellSet::EMPTY; 9];
    let mut seen_off = [CellSet::EMPTY; 9];
    let mut mark_seen = |q: usize| {
        let (c, d) = (node::cell(q), node::digit(q));
        cycle_digits |= 1 << (d - 1);
        let sees = PEER_SETS[c].and(cands.digit_cells(d));
        let set = if node::is_on(q) {
            &mut seen_on
        } else {
            &mut seen_off
        };
        set[usize::from(d - 1)] = set[usize::from(d - 1)].or(sees);
    };
    mark_seen(start);
    cells.insert(node::cell(closing));
    mark_seen(closing);
    let mut at = p;
    while at != start {
        cells.insert(node::cell(at));
        mark_seen(at);
        at = usize::from(s.parent[at]);
    }
    let mut step = Step::removing(technique, key.tenths()).with(Pattern::Cycle {
        digits: cycle_digits,
        cells,
        links: links_of(complexity),
    });
    let mut any = false;
    for d in 0..9 {
        let gone = seen_on[d].and(seen_off[d]).minus(cells);
        if !gone.is_empty() {
            any = true;
            step.eliminate(d as u8 + 1, gone);
        }
    }
    if any {
        best.offer(key, step);
    }
}
