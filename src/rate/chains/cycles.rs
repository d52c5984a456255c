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
use super::node;
use super::propagate::box_row_column;
use super::rating::HintKey;
use crate::rate::budget::{Budget, OutOfBudget};
use crate::rate::cands::Cands;
use crate::rate::cells::{CellSet, PEER_SETS, UNIT_SETS};
use crate::rate::step::Step;
use crate::rate::technique::Technique;

/// Which links a search uses.
#[derive(Clone, Copy, Debug)]
struct Links {
    /// Links inside a cell (bivalue cells; an "on" cell's other digits).
    y: bool,
    /// Conjugate links of a digit in a box, row or column.
    x: bool,
}

/// One potential met by the cycle walk, with the entry it came from.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The potential.
    node: u16,
    /// The entry it follows from (`u32::MAX` for the start).
    parent: u32,
    /// Links from the start.
    depth: u16,
    /// For an "on" entry, its index in the path sets.
    path: u32,
}

/// Reusable working memory of the search.
pub(super) struct Scratch {
    /// Every entry of the current cycle walk.
    entries: Vec<Entry>,
    /// For each "on" entry, the "off" potentials on its path (bit
    /// `off - 729` of 729).
    paths: Vec<[u64; 12]>,
    /// The current layer and the next.
    layer: Vec<u32>,
    /// The layer being built.
    next: Vec<u32>,
    /// For the forcing walks: the depth of each potential met.
    depth: Vec<u16>,
}

impl Scratch {
    /// Empty working memory.
    pub(super) fn new() -> Scratch {
        Scratch {
            entries: Vec::with_capacity(1 << 12),
            paths: Vec::with_capacity(node::CANDIDATES),
            layer: Vec::with_capacity(1 << 10),
            next: Vec::with_capacity(1 << 10),
            depth: vec![0; node::NODES],
        }
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
    for links in [
        Links { y: false, x: true },
        Links { y: true, x: false },
        Links { y: true, x: true },
    ] {
        for cell in cands.empty().iter() {
            let here = cands.candidates(cell);
            if here.count_ones() < 2 || (here.count_ones() > 2 && !links.x) {
                continue;
            }
            for digit in digits(here) {
                cycles(cands, cell, digit, links, best, scratch, budget)?;
                if links.x {
                    for from_on in [true, false] {
                        forcing_chain(cands, cell, digit, from_on, links, best, scratch, budget)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The digits (1..=9) of a candidate mask, in increasing order.
fn digits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as u8 + 1;
            mask &= mask - 1;
            d
        })
    })
}

/// The "off" potentials an "on" one implies, in Sudoku Explainer's order
/// (the cell's other digits with Y links, then the digit's other places
/// in the box, row and column), each once.
fn on_to_off(cands: &Cands, p: usize, links: Links, mut visit: impl FnMut(usize)) {
    let (c, digit) = (node::cell(p), node::digit(p));
    if links.y {
        for w in digits(cands.candidates(c) & !(1 << (digit - 1))) {
            visit(node::off(c, w));
        }
    }
    let mut seen = CellSet::single(c);
    let places = cands.digit_cells(digit);
    for unit in box_row_column(c) {
        for x in places.and(UNIT_SETS[unit]).minus(seen).iter() {
            visit(node::off(x, digit));
        }
        seen = seen.or(UNIT_SETS[unit]);
    }
}

/// The "on" potentials an "off" one implies: the other candidate of a
/// bivalue cell (Y links), the other place of a digit with two in a box,
/// row or column (X links).
fn off_to_on(cands: &Cands, p: usize, links: Links, mut visit: impl FnMut(usize)) {
    let (c, digit) = (node::cell(p), node::digit(p));
    if links.y {
        let here = cands.candidates(c);
        if here.count_ones() == 2 {
            let w = (here & !(1 << (digit - 1))).trailing_zeros() as u8 + 1;
            visit(node::on(c, w));
        }
    }
    if links.x {
        for unit in box_row_column(c) {
            let places = cands.digit_cells(digit).and(UNIT_SETS[unit]);
            if places.len() == 2 {
                if let Some(other) = places.minus(CellSet::single(c)).first() {
                    visit(node::on(other, digit));
                }
            }
        }
    }
}

/// The base rating and sort key of a cycle with these links.
fn cycle_kind(links: Links) -> (f64, u8, Technique) {
    match (links.x, links.y) {
        (true, true) => (7.0, 4, Technique::BidirectionalCycle),
        (false, true) => (6.5, 3, Technique::YCycle),
        _ => (6.5, 2, Technique::XCycle),
    }
}

/// The cycle walk from `digit` on in `cell`, offering each cycle found.
#[allow(clippy::too_many_arguments)]
fn cycles(
    cands: &Cands,
    cell: usize,
    digit: u8,
    links: Links,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let start = node::on(cell, digit);
    s.entries.clear();
    s.paths.clear();
    s.layer.clear();
    s.entries.push(Entry {
        node: start as u16,
        parent: u32::MAX,
        depth: 0,
        path: 0,
    });
    s.paths.push([0; 12]);
    s.layer.push(0);
    let mut met_on = [CellSet::EMPTY; 9];
    met_on[usize::from(digit - 1)].insert(cell);
    let mut length = 0;
    while !s.layer.is_empty() {
        // "On" layer: every implied "off" not already on the path.
        length += 1;
        s.next.clear();
        for i in 0..s.layer.len() {
            let at = s.layer[i];
            let e = s.entries[at as usize];
            let path = s.paths[e.path as usize];
            let (entries, next) = (&mut s.entries, &mut s.next);
            on_to_off(cands, usize::from(e.node), links, |q| {
                let bit = q - node::CANDIDATES;
                if path[bit / 64] >> (bit % 64) & 1 == 0 {
                    next.push(entries.len() as u32);
                    entries.push(Entry {
                        node: q as u16,
                        parent: at,
                        depth: e.depth + 1,
                        path: u32::MAX,
                    });
                }
            });
        }
        budget.spend(s.next.len() as u64 + 1)?;
        std::mem::swap(&mut s.layer, &mut s.next);
        // "Off" layer: every implied "on" met for the first time; a
        // return to the start closes a cycle.
        length += 1;
        s.next.clear();
        for i in 0..s.layer.len() {
            let at = s.layer[i];
            let e = s.entries[at as usize];
            let mut ons = [0usize; 4];
            let mut n = 0;
            off_to_on(cands, usize::from(e.node), links, |q| {
                ons[n] = q;
                n += 1;
            });
            for &q in &ons[..n] {
                if length >= 4 && q == start {
                    offer_cycle(cands, start, at, links, best, &s.entries);
                }
                let (qd, qc) = (usize::from(node::digit(q) - 1), node::cell(q));
                if !met_on[qd].contains(qc) {
                    met_on[qd].insert(qc);
                    let parent_on = s.entries[e.parent as usize];
                    let mut path = s.paths[parent_on.path as usize];
                    let bit = usize::from(e.node) - node::CANDIDATES;
                    path[bit / 64] |= 1 << (bit % 64);
                    s.paths.push(path);
                    s.next.push(s.entries.len() as u32);
                    s.entries.push(Entry {
                        node: q as u16,
                        parent: at,
                        depth: e.depth + 1,
                        path: s.paths.len() as u32 - 1,
                    });
                }
            }
        }
        budget.spend(s.next.len() as u64 + 1)?;
        std::mem::swap(&mut s.layer, &mut s.next);
    }
    Ok(())
}

/// Offers the cycle closed by "off" entry `last` coming back to `start`.
fn offer_cycle(
    cands: &Cands,
    start: usize,
    last: u32,
    links: Links,
    best: &mut Best,
    entries: &[Entry],
) {
    let (base, sort_key, technique) = cycle_kind(links);
    let complexity = u32::from(entries[last as usize].depth) + 1;
    let key = HintKey::new(base, complexity, sort_key);
    if !best.wants(&key) {
        return;
    }
    // The cycle's potentials: the start (as the closing "on") and every
    // entry back to, not including, the first.
    let mut cells = CellSet::single(node::cell(start));
    let mut seen_on = [CellSet::EMPTY; 9];
    let mut seen_off = [CellSet::EMPTY; 9];
    let mut mark = |p: usize| {
        let (c, d) = (node::cell(p), node::digit(p));
        let sees = PEER_SETS[c].and(cands.digit_cells(d));
        let set = if node::is_on(p) {
            &mut seen_on
        } else {
            &mut seen_off
        };
        set[usize::from(d - 1)] = set[usize::from(d - 1)].or(sees);
    };
    mark(start);
    let mut at = last;
    while entries[at as usize].parent != u32::MAX {
        let p = usize::from(entries[at as usize].node);
        cells.insert(node::cell(p));
        mark(p);
        at = entries[at as usize].parent;
    }
    let mut step = Step::removing(technique, key.tenths());
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

/// The forcing chain from `digit` in `cell` assumed on (`from_on`) or
/// off, offered when the walk reaches the same candidate in the other
/// state.
#[allow(clippy::too_many_arguments)]
fn forcing_chain(
    cands: &Cands,
    cell: usize,
    digit: u8,
    from_on: bool,
    links: Links,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let start = if from_on {
        node::on(cell, digit)
    } else {
        node::off(cell, digit)
    };
    let target = node::conjugate(start);
    let mut met = [[CellSet::EMPTY; 9]; 2];
    let mark = |met: &mut [[CellSet; 9]; 2], q: usize| -> bool {
        let set = &mut met[usize::from(!node::is_on(q))][usize::from(node::digit(q) - 1)];
        let fresh = !set.contains(node::cell(q));
        set.insert(node::cell(q));
        fresh
    };
    mark(&mut met, start);
    s.depth[start] = 0;
    s.layer.clear();
    s.layer.push(start as u32);
    let mut found = None;
    // Layers alternate; the start's own layer kind comes first.
    let mut on_layer = from_on;
    while !s.layer.is_empty() && found.is_none() {
        s.next.clear();
        for i in 0..s.layer.len() {
            let p = s.layer[i] as usize;
            let (depth, next) = (&mut s.depth, &mut s.next);
            let mut visit = |q: usize| {
                if q == target && found.is_none() {
                    found = Some(u32::from(depth[p]) + 2);
                }
                if mark(&mut met, q) {
                    depth[q] = depth[p] + 1;
                    next.push(q as u32);
                }
            };
            if on_layer {
                on_to_off(cands, p, links, &mut visit);
            } else {
                off_to_on(cands, p, Links { x: true, ..links }, &mut visit);
            }
            if found.is_some() {
                break;
            }
        }
        budget.spend(s.next.len() as u64 + 1)?;
        std::mem::swap(&mut s.layer, &mut s.next);
        on_layer = !on_layer;
    }
    let Some(complexity) = found else {
        return Ok(());
    };
    let (base, sort_key, technique) = if links.y {
        (7.0, 4, Technique::ForcingChain)
    } else {
        (6.6, 2, Technique::ForcingXChain)
    };
    let key = HintKey::new(base, complexity, sort_key);
    if best.wants(&key) {
        let step = if from_on {
            let mut step = Step::removing(technique, key.tenths());
            step.eliminate(digit, CellSet::single(cell));
            step
        } else {
            Step::place(technique, key.tenths(), cell, digit)
        };
        best.offer(key, step);
    }
    Ok(())
}
