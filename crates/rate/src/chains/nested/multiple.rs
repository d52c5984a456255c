//! Sudoku Explainer's multiple chains producer
//! (`getMultipleChainsHintList`) for the nested levels and the producers
//! used inside them: from every cell (row-major) and digit (upward), the
//! contradiction and double chains (dynamic), the region chains (met from
//! a region's first place) and, after the cell's digits, the cell chains.

use super::super::node;
use super::super::propagate::regions_led_by;
use super::arena::Cause;
use super::chaining::{do_chaining, Mode, Outcome};
use super::{conclusion, Searcher, Shape};
use crate::bits::count;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::step::Premise;

/// The outcome slot of the propagation from a candidate assumed off (the
/// others hold propagations from candidates assumed on, each computed
/// once per search and shared by the binary, region and cell chains).
const OFF: usize = 0;

/// Finds every hint of the producer (see the module doc) into `s.hints`.
pub(super) fn search(
    s: &mut Searcher,
    grid: &Cands,
    dynamic: bool,
    source: Option<&Cands>,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    if s.outs.is_empty() {
        s.outs.push(Outcome::new());
    }
    s.arena.clear();
    s.used = 1;
    s.slot_of.clear();
    s.slot_of.resize(node::CANDIDATES, u32::MAX);
    let base = s.producer.base();
    let mode = Mode { dynamic };
    let (mut removals, mut targets) = std::mem::take(&mut s.multiple);
    for cell in grid.empty().iter() {
        let here = grid.candidates(cell);
        let card = count(here);
        if !(card > 2 || (card > 1 && dynamic)) {
            continue;
        }
        let mut first = None;
        let mut cell_slots = [0usize; 9];
        for digit in 1..=9u8 {
            if here >> (digit - 1) & 1 == 0 {
                continue;
            }
            let (k, absurd) = run_on(s, grid, mode, node::on(cell, digit), budget)?;
            first.get_or_insert(k);
            cell_slots[usize::from(digit - 1)] = k;
            if let (true, Some((a, b))) = (dynamic, absurd) {
                let place = conclusion(grid, cell, digit, false, &mut removals);
                let t = [a, b];
                let premise = Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: true,
                };
                let shape = binary(&t, base, 7, place, premise);
                s.offer(&shape, &removals, grid, source);
            }
            let absurd = if dynamic {
                run(s, grid, mode, OFF, node::off(cell, digit), budget)?
            } else {
                None
            };
            if let (true, Some((a, b))) = (dynamic, absurd) {
                let place = conclusion(grid, cell, digit, true, &mut removals);
                let t = [a, b];
                let premise = Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: false,
                };
                let shape = binary(&t, base, 7, place, premise);
                s.offer(&shape, &removals, grid, source);
            }
            if card >= 3 && dynamic {
                for on in [true, false] {
                    for i in 0..s.outs[k].list(on).len() {
                        let id = s.outs[k].list(on)[i];
                        let n = s.arena.node(id);
                        if let Some(o) = s.outs[OFF].get(n) {
                            let (c, d) = (node::cell(n), node::digit(n));
                            let place = conclusion(grid, c, d, on, &mut removals);
                            let t = [id, o];
                            let premise = Premise::Double {
                                cell: cell as u8,
                                digit,
                            };
                            let shape = binary(&t, base, 1, place, premise);
                            s.offer(&shape, &removals, grid, source);
                        }
                    }
                }
            }
            for (unit, places) in regions_led_by(grid, cell, digit) {
                let mut slots = [0usize; 9];
                let mut n = 0;
                for x in places.iter() {
                    slots[n] = run_on(s, grid, mode, node::on(x, digit), budget)?.0;
                    n += 1;
                }
                let root = Cause::Unit(unit as u8);
                let premise = Premise::Region {
                    unit: unit as u8,
                    digit,
                };
                common(
                    s,
                    grid,
                    source,
                    k,
                    &slots[..n],
                    (base, 6, root, premise),
                    &mut targets,
                    &mut removals,
                );
            }
        }
        let mut slots = [0usize; 9];
        let mut n = 0;
        for digit in 1..=9u8 {
            if here >> (digit - 1) & 1 != 0 {
                slots[n] = cell_slots[usize::from(digit - 1)];
                n += 1;
            }
        }
        if let Some(k) = first {
            common(
                s,
                grid,
                source,
                k,
                &slots[..n],
                (base, 5, Cause::Cell, Premise::Cell { cell: cell as u8 }),
                &mut targets,
                &mut removals,
            );
        }
    }
    // Kept for the next search (a search that ran out of budget drops
    // them: the rating ends there).
    s.multiple = (removals, targets);
    Ok(())
}

/// A binary (contradiction or double) hint's shape.
fn binary(
    targets: &[u32; 2],
    base: f64,
    sort_key: u8,
    place: Option<(u8, u8)>,
    premise: Premise,
) -> Shape<'_> {
    Shape {
        targets,
        counted: targets,
        base,
        sort_key,
        root: Cause::Root,
        place,
        premise,
    }
}

/// Offers each potential that follows in every outcome of `slots` (the
/// "on" ones of `first`'s order, then its "off" ones): region or cell
/// hints.
#[allow(clippy::too_many_arguments)]
fn common(
    s: &mut Searcher,
    grid: &Cands,
    source: Option<&Cands>,
    first: usize,
    slots: &[usize],
    (base, sort_key, root, premise): (f64, u8, Cause, Premise),
    targets: &mut Vec<u32>,
    removals: &mut Vec<(u8, u8)>,
) {
    for on in [true, false] {
        let len = if on {
            s.outs[first].on.len()
        } else {
            s.outs[first].off.len()
        };
        for i in 0..len {
            let id = if on {
                s.outs[first].on[i]
            } else {
                s.outs[first].off[i]
            };
            let n = s.arena.node(id);
            targets.clear();
            for &slot in slots {
                match s.outs[slot].get(n) {
                    Some(t) => targets.push(t),
                    None => break,
                }
            }
            if targets.len() != slots.len() {
                continue;
            }
            let (c, d) = (node::cell(n), node::digit(n));
            let place = conclusion(grid, c, d, on, removals);
            let t = std::mem::take(targets);
            let shape = Shape {
                targets: &t,
                counted: &t,
                base,
                sort_key,
                root,
                place,
                premise,
            };
            s.offer(&shape, removals, grid, source);
            *targets = t;
        }
    }
}

/// The outcome slot of the propagation from "on" potential `root` and
/// its clash, computed once per search.
fn run_on(
    s: &mut Searcher,
    grid: &Cands,
    mode: Mode,
    root: usize,
    budget: &mut Budget,
) -> Result<(usize, Option<(u32, u32)>), OutOfBudget> {
    let known = s.slot_of[root];
    if known != u32::MAX {
        let slot = known as usize;
        return Ok((slot, s.absurd[slot]));
    }
    let slot = s.used;
    s.used += 1;
    if s.outs.len() <= slot {
        s.outs.push(Outcome::new());
        s.absurd.push(None);
    }
    while s.absurd.len() <= slot {
        s.absurd.push(None);
    }
    let absurd = run(s, grid, mode, slot, root, budget)?;
    s.absurd[slot] = absurd;
    s.slot_of[root] = slot as u32;
    Ok((slot, absurd))
}

/// Propagates `root` into outcome `slot`; the clash, if any.
fn run(
    s: &mut Searcher,
    grid: &Cands,
    mode: Mode,
    slot: usize,
    root: usize,
    budget: &mut Budget,
) -> Result<Option<(u32, u32)>, OutOfBudget> {
    let out = &mut s.outs[slot];
    out.clear();
    let id = s.arena.push(root, Cause::Root, &[]);
    out.add(root, id);
    do_chaining(
        grid,
        mode,
        &mut s.arena,
        out,
        &mut s.lists,
        &mut s.rules,
        budget,
    )
}
