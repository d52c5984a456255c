//! Sudoku Explainer's first chain producer (`Chaining(false, false,
//! false, 0)`) as a rule inside nested chains: for X links, Y links, then
//! both, from every candidate of every cell (row-major), the cycles
//! (`doCycles`, "off" potentials met once per path) then the forcing
//! chains from the candidate on and off (`doForcingChains`), with their
//! potentials and parents kept (static links: one parent each).

use super::super::links::Links;
use super::super::node;
use super::super::rating::{cycle_kind, forcing_kind};
use super::arena::{Arena, Cause};
use super::chaining::{off_to_on, on_to_off, Outcome};
use super::{conclusion, Searcher, Shape};
use crate::bits::count;
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::{CellSet, PEER_SETS};
use crate::step::Premise;

/// Working lists of one walk.
#[derive(Default)]
struct Walk {
    /// The layer being expanded.
    now: Vec<u32>,
    /// The layer being built.
    next: Vec<u32>,
    /// Links found from one potential.
    found: Vec<(u16, Cause)>,
    /// A cycle's potentials, from its end back to its start.
    path: Vec<u32>,
}

/// The working lists of the search, kept by its [`Searcher`].
#[derive(Default)]
pub(super) struct Scratch {
    /// The walk's lists.
    walk: Walk,
    /// The cycles found from one start.
    cycles: Vec<u32>,
    /// The forcing chains found from one start.
    chains: Vec<u32>,
    /// One hint's removals.
    removals: Vec<(u8, u8)>,
}

/// Finds every cycle and forcing chain hint into `s.hints`.
pub(super) fn search(
    s: &mut Searcher,
    grid: &Cands,
    source: Option<&Cands>,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let mut scratch = std::mem::take(&mut s.unary);
    let result = search_with(s, grid, source, budget, &mut scratch);
    s.unary = scratch;
    result
}

/// [`search`] with its working lists.
fn search_with(
    s: &mut Searcher,
    grid: &Cands,
    source: Option<&Cands>,
    budget: &mut Budget,
    scratch: &mut Scratch,
) -> Result<(), OutOfBudget> {
    while s.outs.len() < 2 {
        s.outs.push(Outcome::new());
    }
    let Scratch {
        walk: w,
        cycles,
        chains,
        removals,
    } = scratch;
    for (y, x) in [(false, true), (true, false), (true, true)] {
        for cell in grid.empty().iter() {
            let here = grid.candidates(cell);
            let card = count(here);
            if card <= 1 || (card > 2 && !x) {
                continue;
            }
            for digit in 1..=9u8 {
                if here >> (digit - 1) & 1 == 0 {
                    continue;
                }
                s.arena.clear();
                cycles.clear();
                chains.clear();
                let start = node::on(cell, digit);
                do_cycles(s, grid, start, (y, x), cycles, w, budget)?;
                if x {
                    do_forcing(s, grid, start, y, chains, w, budget)?;
                    let off = node::conjugate(start);
                    do_forcing(s, grid, off, y, chains, w, budget)?;
                }
                let (base, sort_key, _) = cycle_kind(Links { y, x });
                for &dst_on in cycles.iter() {
                    let dst_off = reversed(s, dst_on, &mut w.path);
                    cycle_removals(s, grid, dst_on, removals);
                    let t = [dst_on, dst_off];
                    let shape = Shape {
                        targets: &t,
                        counted: &t[..1],
                        base,
                        sort_key,
                        root: Cause::Root,
                        place: None,
                        // Never a step of the path: the unary producer
                        // only serves as a rule inside other chains.
                        premise: Premise::Double {
                            cell: cell as u8,
                            digit,
                        },
                    };
                    s.offer(&shape, removals, grid, source);
                }
                let (base, sort_key, _) = forcing_kind(Links { y, x: true });
                for &t in chains.iter() {
                    let n = s.arena.node(t);
                    let place = conclusion(grid, cell, digit, node::is_on(n), removals);
                    let t = [t];
                    let shape = Shape {
                        targets: &t,
                        counted: &t,
                        base,
                        sort_key,
                        root: Cause::Root,
                        place,
                        premise: Premise::Contradiction {
                            cell: cell as u8,
                            digit,
                            on: !node::is_on(n),
                        },
                    };
                    s.offer(&shape, removals, grid, source);
                }
            }
        }
    }
    Ok(())
}

/// The searcher's potentials and its "on" and "off" sets, the sets
/// emptied for a new walk.
fn fresh_sets(s: &mut Searcher) -> (&mut Arena, &mut Outcome, &mut Outcome) {
    let (on_set, off_set) = s.outs.split_at_mut(1);
    let (on_set, off_set) = (&mut on_set[0], &mut off_set[0]);
    on_set.clear();
    off_set.clear();
    (&mut s.arena, on_set, off_set)
}

/// Sudoku Explainer's `doCycles` from `start` ("on"): each time an "off"
/// potential leads back to the start after four or more links, the "on"
/// potential met there goes to `cycles`.
fn do_cycles(
    s: &mut Searcher,
    grid: &Cands,
    start: usize,
    (y, x): (bool, bool),
    cycles: &mut Vec<u32>,
    w: &mut Walk,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let (arena, on_set, off_set) = fresh_sets(s);
    let root = arena.push(start, Cause::Root, &[]);
    on_set.add(start, root);
    w.now.clear();
    w.now.push(root);
    let mut length = 0;
    while !w.now.is_empty() {
        length += 1;
        w.next.clear();
        for i in 0..w.now.len() {
            let p = w.now[i];
            budget.spend(1)?;
            on_to_off(grid, arena.node(p), y, &mut w.found);
            for &(n, cause) in &w.found {
                let n = usize::from(n);
                if !arena.is_parent(p, n) {
                    let id = arena.push(n, cause, &[p]);
                    w.next.push(id);
                    off_set.add(n, id);
                }
            }
        }
        length += 1;
        std::mem::swap(&mut w.now, &mut w.next);
        w.next.clear();
        for i in 0..w.now.len() {
            let p = w.now[i];
            budget.spend(1)?;
            off_to_on(grid, arena.node(p), y, x, &mut w.found);
            for &(n, cause) in &w.found {
                let n = usize::from(n);
                let closes = length >= 4 && n == start;
                if !closes && on_set.get(n).is_some() {
                    continue;
                }
                let id = arena.push(n, cause, &[p]);
                if closes {
                    cycles.push(id);
                }
                if on_set.add(n, id) {
                    w.next.push(id);
                }
            }
        }
        std::mem::swap(&mut w.now, &mut w.next);
    }
    Ok(())
}

/// Sudoku Explainer's `doForcingChains` from `root` (on or off): the
/// potentials met that are `root`'s conjugate go to `chains` (each node
/// once).
fn do_forcing(
    s: &mut Searcher,
    grid: &Cands,
    root: usize,
    y: bool,
    chains: &mut Vec<u32>,
    w: &mut Walk,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let (arena, on_set, off_set) = fresh_sets(s);
    let id = arena.push(root, Cause::Root, &[]);
    let target = node::conjugate(root);
    let (pending_on, pending_off) = (&mut w.now, &mut w.next);
    pending_on.clear();
    pending_off.clear();
    if node::is_on(root) {
        on_set.add(root, id);
        pending_on.push(id);
    } else {
        off_set.add(root, id);
        pending_off.push(id);
    }
    while !pending_on.is_empty() || !pending_off.is_empty() {
        for &p in pending_on.iter() {
            budget.spend(1)?;
            on_to_off(grid, arena.node(p), y, &mut w.found);
            for &(n, cause) in &w.found {
                let n = usize::from(n);
                let found = n == target && !chains.iter().any(|&c| arena.node(c) == n);
                let fresh = off_set.get(n).is_none() && !arena.is_parent(p, n);
                if !found && !fresh {
                    continue;
                }
                let id = arena.push(n, cause, &[p]);
                if found {
                    chains.push(id);
                }
                if fresh {
                    off_set.add(n, id);
                    pending_off.push(id);
                }
            }
        }
        pending_on.clear();
        for &p in pending_off.iter() {
            budget.spend(1)?;
            off_to_on(grid, arena.node(p), y, true, &mut w.found);
            for &(n, cause) in &w.found {
                let n = usize::from(n);
                let found = n == target && !chains.iter().any(|&c| arena.node(c) == n);
                if !found && on_set.get(n).is_some() {
                    continue;
                }
                let id = arena.push(n, cause, &[p]);
                if found {
                    chains.push(id);
                }
                if on_set.add(n, id) {
                    pending_on.push(id);
                }
            }
        }
        pending_off.clear();
    }
    Ok(())
}

/// Sudoku Explainer's `getReversedCycle`: the cycle ending at `dst_on`
/// walked backwards, each potential in the other state with its cause;
/// the reversed root's id.
fn reversed(s: &mut Searcher, dst_on: u32, path: &mut Vec<u32>) -> u32 {
    path.clear();
    let mut at = Some(dst_on);
    while let Some(p) = at {
        path.push(p);
        at = s.arena.parents(p).first().copied();
    }
    let mut prev: Option<u32> = None;
    for &p in path.iter() {
        let pot = *s.arena.pot(p);
        let n = node::conjugate(usize::from(pot.node));
        let parents: &[u32] = match &prev {
            Some(q) => std::slice::from_ref(q),
            None => &[],
        };
        prev = Some(s.arena.push(n, pot.cause, parents));
    }
    prev.expect("a cycle has potentials")
}

/// The removals of the cycle ending at `dst_on` (Sudoku Explainer's
/// `createCycleHint`): candidates outside the cycle that see both an
/// "on" and an "off" potential of their digit on it.
fn cycle_removals(s: &Searcher, grid: &Cands, dst_on: u32, out: &mut Vec<(u8, u8)>) {
    let mut cells = CellSet::EMPTY;
    let mut at = dst_on;
    while let Some(&p) = s.arena.parents(at).first() {
        cells.insert(node::cell(s.arena.node(at)));
        at = p;
    }
    let mut forw = [CellSet::EMPTY; 9];
    let mut back = [CellSet::EMPTY; 9];
    let mut at = dst_on;
    while let Some(&p) = s.arena.parents(at).first() {
        let n = s.arena.node(at);
        let (c, d) = (node::cell(n), node::digit(n));
        let sees = PEER_SETS[c].and(grid.digit_cells(d)).minus(cells);
        let set = if node::is_on(n) { &mut forw } else { &mut back };
        set[usize::from(d - 1)] = set[usize::from(d - 1)].or(sees);
        at = p;
    }
    out.clear();
    for c in 0..81 {
        for d in 1..=9u8 {
            let k = usize::from(d - 1);
            if forw[k].contains(c) && back[k].contains(c) {
                out.push((c as u8, d));
            }
        }
    }
}
