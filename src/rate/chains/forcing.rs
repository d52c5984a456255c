//! The forcing chains of the first chain producer (see [`super::cycles`]):
//! from a candidate assumed on (or off), a breadth-first walk over static
//! links that reaches the same candidate in the other state.
//!
//! The walk goes a whole layer at a time, each layer a cell set per
//! digit. Layers are small (a few cells of one or two digits), so each
//! keeps the mask of the digits it holds and a step touches only those.

use super::best::Best;
use super::cycles::{Links, Partners};
use super::rating::HintKey;
use crate::rate::budget::{Budget, OutOfBudget};
use crate::rate::cands::{ones, Cands};
use crate::rate::cells::{CellSet, PEER_SETS};
use crate::rate::step::Step;
use crate::rate::technique::Technique;

/// The forcing chain from `start`, `digit` in `cell` assumed on
/// (`from_on`) or off, offered when the walk reaches the same candidate in
/// the other state (first reached: the shortest).
pub(super) fn forcing_chain(
    cands: &Cands,
    partners: &Partners,
    (cell, digit, from_on): (usize, u8, bool),
    links: Links,
    best: &mut Best,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let (base, sort_key, technique) = if links.y {
        (7.0, 4, Technique::ForcingChain)
    } else {
        (6.6, 2, Technique::ForcingXChain)
    };
    let start = (cell, digit, from_on);
    let walk = if links.y {
        walk(cands, partners, start, (base, sort_key), best, budget)?
    } else {
        walk_one_digit(cands, partners, start, (base, sort_key), best, budget)?
    };
    let Some(complexity) = walk else {
        return Ok(());
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

/// The walk with both kinds of links (X and Y): the complexity of the
/// chain found (the layer at which the other state of the start is first
/// reached, plus two), if any, while `best` wants a chain of that kind
/// (`base` difficulty and sort key).
fn walk(
    cands: &Cands,
    partners: &Partners,
    (cell, digit, from_on): (usize, u8, bool),
    (base, sort_key): (f64, u8),
    best: &Best,
    budget: &mut Budget,
) -> Result<Option<u32>, OutOfBudget> {
    let d0 = usize::from(digit - 1);
    let mut met_on = [CellSet::EMPTY; 9];
    let mut met_off = [CellSet::EMPTY; 9];
    let mut front = [CellSet::EMPTY; 9];
    let mut next = [CellSet::EMPTY; 9];
    front[d0] = CellSet::single(cell);
    let mut live: u16 = 1 << d0;
    if from_on {
        met_on[d0] = front[d0];
    } else {
        met_off[d0] = front[d0];
    }
    let mut on_layer = from_on;
    let mut layer_depth: u32 = 0;
    while live != 0 {
        // A target reached from this layer has layer_depth + 2 potentials.
        if !best.wants(&HintKey::new(base, layer_depth + 2, sort_key)) {
            return Ok(None);
        }
        let (next_live, visited, met) = if on_layer {
            let (l, v) = ons_imply_offs(cands, &front, live, &mut next);
            (l, v, &mut met_off)
        } else {
            let (l, v) = offs_imply_ons(cands, partners, &front, live, &mut next);
            (l, v, &mut met_on)
        };
        budget.spend(1 + visited)?;
        // The target is the start's candidate in the other state.
        if on_layer == from_on && next[d0].contains(cell) {
            return Ok(Some(layer_depth + 2));
        }
        let mut new_live = 0;
        for d in indices(live | next_live) {
            front[d] = next[d].minus(met[d]);
            met[d] = met[d].or(next[d]);
            if !front[d].is_empty() {
                new_live |= 1 << d;
            }
        }
        live = new_live;
        on_layer = !on_layer;
        layer_depth += 1;
    }
    Ok(None)
}

/// The walk with X links only, which never leaves the start's digit: one
/// cell set per layer (as [`walk`], without the other digits).
fn walk_one_digit(
    cands: &Cands,
    partners: &Partners,
    (cell, digit, from_on): (usize, u8, bool),
    (base, sort_key): (f64, u8),
    best: &Best,
    budget: &mut Budget,
) -> Result<Option<u32>, OutOfBudget> {
    let places = cands.digit_cells(digit);
    let start = CellSet::single(cell);
    let (mut met_on, mut met_off) = if from_on {
        (start, CellSet::EMPTY)
    } else {
        (CellSet::EMPTY, start)
    };
    let mut front = start;
    let mut on_layer = from_on;
    let mut layer_depth: u32 = 0;
    while !front.is_empty() {
        if !best.wants(&HintKey::new(base, layer_depth + 2, sort_key)) {
            return Ok(None);
        }
        let mut next = CellSet::EMPTY;
        let mut visited = 0;
        for c in front.iter() {
            visited += 1;
            next = next.or(if on_layer {
                PEER_SETS[c].and(places)
            } else {
                partners.set(c, digit)
            });
        }
        budget.spend(1 + visited)?;
        if on_layer == from_on && next.contains(cell) {
            return Ok(Some(layer_depth + 2));
        }
        let met = if on_layer { &mut met_off } else { &mut met_on };
        front = next.minus(*met);
        *met = met.or(next);
        on_layer = !on_layer;
        layer_depth += 1;
    }
    Ok(None)
}

/// The digit indices (0..9) of a mask, in increasing order.
#[inline(always)]
fn indices(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            d
        })
    })
}

/// Writes to `out` the "off" potentials (per digit, the cells) that the
/// "on" potentials `front` (its digits `live`) imply: the other candidates
/// of their cells, the other places of their digits in their units. Returns the mask of the digits `out` holds and how many
/// potentials `front` held (the work done, for the budget).
#[inline(always)]
fn ons_imply_offs(
    cands: &Cands,
    front: &[CellSet; 9],
    live: u16,
    out: &mut [CellSet; 9],
) -> (u16, u64) {
    let mut out_live = 0;
    let mut visited = 0;
    // The cells with an "on" potential, and those with two or more: a
    // cell's other digits are those of the front but its own.
    let (mut any, mut twice) = (CellSet::EMPTY, CellSet::EMPTY);
    for d in indices(live) {
        twice = twice.or(any.and(front[d]));
        any = any.or(front[d]);
    }
    for d in 0..9 {
        let others = any.minus(front[d].minus(twice));
        out[d] = others.and(cands.digit_cells(d as u8 + 1));
        if !out[d].is_empty() {
            out_live |= 1 << d;
        }
    }
    for d in indices(live) {
        let places = cands.digit_cells(d as u8 + 1);
        let mut offs = out[d];
        for c in front[d].iter() {
            visited += 1;
            offs = offs.or(PEER_SETS[c].and(places));
        }
        out[d] = offs;
        if !offs.is_empty() {
            out_live |= 1 << d;
        }
    }
    (out_live, visited)
}

/// Writes to `out` the "on" potentials that the "off" potentials `front`
/// (its digits `live`) imply: the other candidate of a bivalue cell, the
/// other place of a digit with two in a box, row or column. Returns the mask of the digits `out` holds and
/// how many potentials `front` held.
#[inline(always)]
fn offs_imply_ons(
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
            if ones(here) == 2 {
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
