//! The forcing chains of the first chain producer (see [`super::cycles`]):
//! from a candidate assumed on (or off), a breadth-first walk over static
//! links that reaches the same candidate in the other state.
//!
//! The walk goes a whole layer at a time, each layer a cell set per
//! digit. Layers are small (a few cells of one or two digits), so each
//! keeps the mask of the digits it holds and a step touches only those.

use super::best::Best;
use super::links::{offs_imply_ons, ons_imply_offs, Links, Partners};
use super::links_of;
use super::node;
use super::rating::{forcing_kind as kind, HintKey};
use crate::bits::indices;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::{CellSet, PEER_SETS};
use crate::step::{Pattern, Premise, Step};

/// What the cycle walk from an "on" potential met (it walks the same
/// links as the forcing chain from that potential, layer by layer), so
/// that the forcing chain takes its layers from there and walks on only
/// past the layer where the cycle walk stopped.
pub(super) struct Walked {
    /// How many potentials each layer held, from the start's (one) to
    /// the last one reached.
    pub(super) sizes: Vec<u32>,
    /// The layer in which the start's "off" potential was met, if it was
    /// ([`Walked::NEVER`] if not).
    pub(super) target: u32,
    /// The potentials met, "on" then "off", per digit.
    pub(super) met: [[CellSet; 9]; 2],
}

impl Walked {
    /// [`Walked::target`] when the start's "off" potential was not met.
    pub(super) const NEVER: u32 = u32::MAX;

    /// No walk yet.
    pub(super) fn new() -> Walked {
        Walked {
            sizes: Vec::with_capacity(node::NODES),
            target: Walked::NEVER,
            met: [[CellSet::EMPTY; 9]; 2],
        }
    }

    /// A walk begins: one layer, the start (to be marked in `met`).
    pub(super) fn start(&mut self) {
        self.sizes.clear();
        self.sizes.push(1);
        self.target = Walked::NEVER;
        self.met = [[CellSet::EMPTY; 9]; 2];
    }
}

/// The forcing chain from `digit` in `cell` assumed on, offered when the
/// walk reaches the candidate off (first reached: the shortest), which
/// removes it. `walked` is the cycle walk from the same potential with
/// the same links, with its last layer ("on" potentials): its layers are
/// this walk's, counted (for the budget) as this walk counts them; the
/// walk goes on from its last layer (and its `met`, which it updates).
pub(super) fn forcing_chain_from_on(
    cands: &Cands,
    partners: &Partners,
    (cell, digit): (usize, u8),
    links: Links,
    (walked, layer): (&mut Walked, &[u16]),
    best: &mut Best,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let (base, sort_key, technique) = kind(links);
    let last = walked.sizes.len() - 1;
    let mut found = None;
    for k in 0..last {
        // A target reached from layer k has k + 2 potentials.
        if !best.wants(&HintKey::new(base, k as u32 + 2, sort_key)) {
            return Ok(());
        }
        budget.spend(1 + u64::from(walked.sizes[k]))?;
        if walked.target == k as u32 + 1 {
            found = Some(k as u32 + 2);
            break;
        }
        if walked.sizes[k + 1] == 0 {
            return Ok(());
        }
    }
    if found.is_none() {
        // Walk on from the cycle walk's last layer (an "on" one).
        let d0 = usize::from(digit - 1);
        let target = (cell, digit, true);
        let from = Layer {
            depth: last as u32,
            on: true,
        };
        let mut front = [CellSet::EMPTY; 9];
        for &p in layer {
            let p = usize::from(p);
            front[usize::from(node::digit(p) - 1)].insert(node::cell(p));
        }
        let kind = (base, sort_key);
        found = if links.y {
            let state = (&mut front, &mut walked.met);
            walk(cands, partners, target, kind, state, from, best, budget)?
        } else {
            let state = (front[d0], [walked.met[0][d0], walked.met[1][d0]]);
            walk_one_digit(cands, partners, target, kind, state, from, best, budget)?
        };
    }
    if let Some(complexity) = found {
        let key = HintKey::new(base, complexity, sort_key);
        if best.wants(&key) {
            let mut step = Step::removing(technique, key.tenths()).with(Pattern::Chain {
                premise: Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: true,
                },
                links: links_of(complexity),
            });
            step.eliminate(digit, CellSet::single(cell));
            best.offer(key, step);
        }
    }
    Ok(())
}

/// The forcing chain from `digit` in `cell` assumed off, offered when the
/// walk reaches the candidate on (first reached: the shortest), which
/// places it.
pub(super) fn forcing_chain_from_off(
    cands: &Cands,
    partners: &Partners,
    (cell, digit): (usize, u8),
    links: Links,
    best: &mut Best,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let (base, sort_key, technique) = kind(links);
    let d0 = usize::from(digit - 1);
    let target = (cell, digit, false);
    let start = CellSet::single(cell);
    let from = Layer {
        depth: 0,
        on: false,
    };
    let kind = (base, sort_key);
    let found = if links.y {
        let mut front = [CellSet::EMPTY; 9];
        front[d0] = start;
        let mut met = [[CellSet::EMPTY; 9], front];
        let state = (&mut front, &mut met);
        walk(cands, partners, target, kind, state, from, best, budget)?
    } else {
        let state = (start, [CellSet::EMPTY, start]);
        walk_one_digit(cands, partners, target, kind, state, from, best, budget)?
    };
    if let Some(complexity) = found {
        let key = HintKey::new(base, complexity, sort_key);
        if best.wants(&key) {
            let pattern = Pattern::Chain {
                premise: Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: false,
                },
                links: links_of(complexity),
            };
            best.offer(
                key,
                Step::place(technique, key.tenths(), cell, digit).with(pattern),
            );
        }
    }
    Ok(())
}

/// Where a walk goes on from: the layer's depth and whether it holds
/// "on" potentials.
#[derive(Clone, Copy)]
struct Layer {
    /// Links from the start.
    depth: u32,
    /// Whether the layer's potentials are "on" ones.
    on: bool,
}

/// The walk with both kinds of links (X and Y) from `from`, the layer
/// `front` with `met` met ("on" then "off", per digit), towards the
/// start's candidate (`cell`, `digit`) in the state other than the
/// start's (`from_on`): the chain's complexity (the layer at which the
/// target is first reached, plus two), if found while `best` wants a
/// chain of that kind (`base` difficulty and sort key).
#[allow(clippy::too_many_arguments)]
fn walk(
    cands: &Cands,
    partners: &Partners,
    (cell, digit, from_on): (usize, u8, bool),
    (base, sort_key): (f64, u8),
    (front, met): (&mut [CellSet; 9], &mut [[CellSet; 9]; 2]),
    from: Layer,
    best: &Best,
    budget: &mut Budget,
) -> Result<Option<u32>, OutOfBudget> {
    let d0 = usize::from(digit - 1);
    let mut next = [CellSet::EMPTY; 9];
    let mut live: u16 = 0;
    for (d, f) in front.iter().enumerate() {
        if !f.is_empty() {
            live |= 1 << d;
        }
    }
    let (mut on_layer, mut layer_depth) = (from.on, from.depth);
    while live != 0 {
        // A target reached from this layer has layer_depth + 2 potentials.
        if !best.wants(&HintKey::new(base, layer_depth + 2, sort_key)) {
            return Ok(None);
        }
        let (next_live, visited, met) = if on_layer {
            let (l, v) = ons_imply_offs(cands, front, live, &mut next);
            (l, v, &mut met[1])
        } else {
            let (l, v) = offs_imply_ons(cands, partners, front, live, &mut next);
            (l, v, &mut met[0])
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
/// cell set per layer, `front` and `met` ("on" then "off"), otherwise as
/// [`walk`].
#[allow(clippy::too_many_arguments)]
fn walk_one_digit(
    cands: &Cands,
    partners: &Partners,
    (cell, digit, from_on): (usize, u8, bool),
    (base, sort_key): (f64, u8),
    (mut front, mut met): (CellSet, [CellSet; 2]),
    from: Layer,
    best: &Best,
    budget: &mut Budget,
) -> Result<Option<u32>, OutOfBudget> {
    let places = cands.digit_cells(digit);
    let (mut on_layer, mut layer_depth) = (from.on, from.depth);
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
        let met = &mut met[usize::from(on_layer)];
        front = next.minus(*met);
        *met = met.or(next);
        on_layer = !on_layer;
        layer_depth += 1;
    }
    Ok(None)
}
