//! The forcing-chain producers that compare several propagations
//! (Sudoku Explainer's `getMultipleChainsHintList`), from every cell in
//! row-major order and every candidate of it in increasing order:
//!
//! - contradiction: assuming a candidate on (or off) leads to a clash, so
//!   it is off (or on) — Nishio (one digit's links only) and dynamic;
//! - double: a potential follows both from a candidate on and from it
//!   off (dynamic, cells of three or more candidates);
//! - region: a potential follows from each place of a digit in a box,
//!   row or column (met from its first place);
//! - cell: a potential follows from each candidate of the cell.
//!
//! The propagation from each candidate assumed on is computed once per
//! grid and shared by the cell and region comparisons.

use super::best::Best;
use super::links_of;
use super::memo::Memo;
use super::node;
use super::propagate::{regions_led_by, Mode, Outcome, Propagation};
use super::rating::HintKey;
use super::simpler::SimplerRules;
use super::ChainLevel;
use crate::bits::{count, digits};
use crate::budget::{Budget, OutOfBudget};
use crate::cands::Cands;
use crate::cells::CellSet;
use crate::step::{Pattern, Premise, Step};
use crate::technique::Technique;

/// What a level searches and what its hints are worth.
#[derive(Clone, Copy, Debug)]
struct Kind {
    /// How propagations run.
    mode: Mode,
    /// Nishio: contradictions only, one digit's links.
    nishio: bool,
    /// Base rating (Sudoku Explainer's `Chaining.getDifficulty`).
    base: f64,
    /// The technique its cell and region hints name.
    cell: Technique,
    /// The technique its region hints name.
    region: Technique,
    /// The technique its contradiction and double hints name.
    binary: Technique,
}

impl Kind {
    /// The producer of `level` (not the cycles level).
    fn of(level: ChainLevel) -> Kind {
        let dynamic = |simpler, base, technique| Kind {
            mode: Mode {
                dynamic: true,
                cell_links: true,
                simpler,
            },
            nishio: false,
            base,
            cell: technique,
            region: technique,
            binary: technique,
        };
        match level {
            ChainLevel::Nishio => Kind {
                mode: Mode {
                    dynamic: true,
                    cell_links: false,
                    simpler: false,
                },
                nishio: true,
                base: level.base(),
                cell: Technique::NishioForcingChain,
                region: Technique::NishioForcingChain,
                binary: Technique::NishioForcingChain,
            },
            ChainLevel::Multiple => Kind {
                mode: Mode::STATIC,
                nishio: false,
                base: level.base(),
                cell: Technique::CellForcingChain,
                region: Technique::RegionForcingChain,
                binary: Technique::CellForcingChain,
            },
            ChainLevel::Dynamic => dynamic(false, level.base(), Technique::DynamicForcingChain),
            ChainLevel::DynamicPlus => {
                dynamic(true, level.base(), Technique::DynamicForcingChainPlus)
            }
            ChainLevel::Nested(_) => dynamic(true, level.base(), Technique::NestedForcingChain),
            ChainLevel::Cycles => unreachable!("cycles are searched elsewhere"),
        }
    }
}

/// Reusable working memory: two propagations and the outcomes kept
/// per propagation mode.
pub(super) struct Scratch {
    /// Propagation whose outcomes are kept.
    on: Box<Propagation>,
    /// Propagation from a candidate assumed off, when its outcome is not
    /// kept (simpler rules).
    off: Box<Propagation>,
    /// Outcomes kept: Nishio, static, dynamic, and with simpler rules.
    memos: [Memo; 4],
    /// The memo of the current search.
    current: usize,
}

impl Scratch {
    /// Empty working memory.
    pub(super) fn new() -> Scratch {
        Scratch {
            on: Propagation::new(),
            off: Propagation::new(),
            memos: [
                Memo::new(true),
                Memo::new(true),
                Memo::new(true),
                Memo::new(false),
            ],
            current: 0,
        }
    }

    /// The outcome of assuming `root`, computed once per grid (see
    /// [`Memo::outcome`]): its place in [`Scratch::cache`].
    fn outcome(
        &mut self,
        root: usize,
        mode: Mode,
        rules: &mut dyn SimplerRules,
        budget: &mut Budget,
    ) -> Result<usize, OutOfBudget> {
        self.memos[self.current].outcome(&mut self.on, root, mode, rules, budget)
    }

    /// The outcomes of the current search.
    fn cache(&self) -> &[Box<Outcome>] {
        &self.memos[self.current].cache
    }
}

/// The memo of a kind's propagations (see [`Scratch::memos`]).
fn memo_of(kind: Kind) -> usize {
    match (kind.mode.simpler, kind.mode.dynamic, kind.nishio) {
        (true, _, _) => 3,
        (false, false, _) => 1,
        (false, true, true) => 0,
        (false, true, false) => 2,
    }
}

/// Offers every hint of `level`'s producer in `cands` to `best`, in
/// Sudoku Explainer's order.
pub(super) fn search(
    cands: &Cands,
    level: ChainLevel,
    rules: &mut dyn SimplerRules,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    let kind = Kind::of(level);
    s.current = memo_of(kind);
    s.memos[s.current].begin(cands);
    s.on.prepare(cands);
    s.off.prepare(cands);
    let min = if kind.mode.dynamic { 2 } else { 3 };
    for cell in cands.empty().iter() {
        let here = cands.candidates(cell);
        if count(here) < min {
            continue;
        }
        for digit in digits(here) {
            let at = s.outcome(node::on(cell, digit), kind.mode, rules, budget)?;
            if kind.mode.dynamic {
                binary(cands, cell, digit, at, kind, rules, best, s, budget)?;
            }
            if !kind.nishio {
                regions(cands, cell, digit, kind, rules, best, s, budget)?;
            }
        }
        if !kind.nishio {
            let mut outcomes = [0usize; 9];
            let mut n = 0;
            for digit in digits(here) {
                // Computed above: no work spent again.
                outcomes[n] = s.outcome(node::on(cell, digit), kind.mode, rules, budget)?;
                n += 1;
            }
            let premise = Premise::Cell { cell: cell as u8 };
            let source = (5, kind.cell, premise);
            offer_common(cands, s.cache(), &outcomes[..n], source, kind, best);
        }
    }
    Ok(())
}

/// Contradiction and double hints of `digit` in `cell` (whose "on"
/// outcome is `cache[at]`).
#[allow(clippy::too_many_arguments)]
fn binary(
    cands: &Cands,
    cell: usize,
    digit: u8,
    at: usize,
    kind: Kind,
    rules: &mut dyn SimplerRules,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    if let Some((a, b)) = s.cache()[at].contradiction {
        let key = HintKey::new(kind.base, a + b, 7);
        if best.wants(&key) {
            let mut step = Step::removing(kind.binary, key.tenths()).with(Pattern::Chain {
                premise: Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: true,
                },
                links: links_of(key.complexity),
            });
            step.eliminate(digit, CellSet::single(cell));
            best.offer(key, step);
        }
    }
    let root = node::off(cell, digit);
    let kept = if kind.mode.simpler {
        s.off.run(cands, root, kind.mode, rules, budget)?;
        None
    } else {
        Some(s.outcome(root, kind.mode, rules, budget)?)
    };
    let from_off: &Outcome = match kept {
        Some(i) => &s.cache()[i],
        None => &s.off.rec.out,
    };
    if let Some((a, b)) = from_off.contradiction {
        let key = HintKey::new(kind.base, a + b, 7);
        if best.wants(&key) {
            let pattern = Pattern::Chain {
                premise: Premise::Contradiction {
                    cell: cell as u8,
                    digit,
                    on: false,
                },
                links: links_of(key.complexity),
            };
            best.offer(
                key,
                Step::place(kind.binary, key.tenths(), cell, digit).with(pattern),
            );
        }
    }
    if kind.nishio || count(cands.candidates(cell)) < 3 {
        return Ok(());
    }
    let from_on = &s.cache()[at];
    for p in from_on.ons().chain(from_on.offs()) {
        if from_off.holds(p) {
            let complexity = u32::from(from_on.complexity[p]) + u32::from(from_off.complexity[p]);
            let premise = Premise::Double {
                cell: cell as u8,
                digit,
            };
            offer_target(
                cands,
                p,
                HintKey::new(kind.base, complexity, 1),
                (kind.binary, premise),
                best,
            );
        }
    }
    Ok(())
}

/// Region hints of `digit` met first at `cell`.
#[allow(clippy::too_many_arguments)]
fn regions(
    cands: &Cands,
    cell: usize,
    digit: u8,
    kind: Kind,
    rules: &mut dyn SimplerRules,
    best: &mut Best,
    s: &mut Scratch,
    budget: &mut Budget,
) -> Result<(), OutOfBudget> {
    for (unit, places) in regions_led_by(cands, cell, digit) {
        let mut outcomes = [0usize; 9];
        let mut n = 0;
        for x in places.iter() {
            outcomes[n] = s.outcome(node::on(x, digit), kind.mode, rules, budget)?;
            n += 1;
        }
        let premise = Premise::Region {
            unit: unit as u8,
            digit,
        };
        let source = (6, kind.region, premise);
        offer_common(cands, s.cache(), &outcomes[..n], source, kind, best);
    }
    Ok(())
}

/// Offers each potential that follows in every one of `outcomes` (in the
/// order the first found them: "on" ones, then "off" ones), as hints of
/// `sort_key` and `technique` from `premise`.
fn offer_common(
    cands: &Cands,
    cache: &[Box<Outcome>],
    outcomes: &[usize],
    (sort_key, technique, premise): (u8, Technique, Premise),
    kind: Kind,
    best: &mut Best,
) {
    let first = &cache[outcomes[0]];
    let mut on = first.on;
    let mut off = first.off;
    for &o in &outcomes[1..] {
        for d in 0..9 {
            on[d] = on[d].and(cache[o].on[d]);
            off[d] = off[d].and(cache[o].off[d]);
        }
    }
    // The common potentials, met in the first outcome's order: the walk
    // stops at the last of them.
    let mut left = cells_in(&on) + cells_in(&off);
    for p in first.ons().chain(first.offs()) {
        if left == 0 {
            break;
        }
        let set = if node::is_on(p) { &on } else { &off };
        if !set[usize::from(node::digit(p) - 1)].contains(node::cell(p)) {
            continue;
        }
        left -= 1;
        let complexity = outcomes
            .iter()
            .map(|&o| u32::from(cache[o].complexity[p]))
            .sum();
        offer_target(
            cands,
            p,
            HintKey::new(kind.base, complexity, sort_key),
            (technique, premise),
            best,
        );
    }
}

/// How many cells `sets` hold in all (a few at most here: counted bit by
/// bit, cheaper than a population count without the instruction).
fn cells_in(sets: &[CellSet; 9]) -> u32 {
    let mut n = 0;
    for s in sets {
        let mut bits = s.0;
        while bits != 0 {
            bits &= bits - 1;
            n += 1;
        }
    }
    n
}

/// Offers the hint that potential `p` holds: a placement for an "on"
/// potential (worth it only if its cell has other candidates), an
/// elimination for an "off" one.
fn offer_target(
    cands: &Cands,
    p: usize,
    key: HintKey,
    (technique, premise): (Technique, Premise),
    best: &mut Best,
) {
    if !best.wants(&key) {
        return;
    }
    let (cell, digit) = (node::cell(p), node::digit(p));
    let pattern = Pattern::Chain {
        premise,
        links: links_of(key.complexity),
    };
    if node::is_on(p) {
        if cands.candidates(cell) & !(1 << (digit - 1)) != 0 {
            best.offer(
                key,
                Step::place(technique, key.tenths(), cell, digit).with(pattern),
            );
        }
    } else {
        let mut step = Step::removing(technique, key.tenths()).with(pattern);
        step.eliminate(digit, CellSet::single(cell));
        best.offer(key, step);
    }
}
