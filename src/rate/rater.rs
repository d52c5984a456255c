//! SCAFFOLD for the plumbing branch only (replaced by the engine branch's
//! rater at merge): singles only, the API the engine promises.

use super::budget::{Budget, OutOfBudget};
use super::cands::Cands;
use super::cells::UNIT_SETS;
use super::technique::Technique;
use crate::grid::Grid;

/// A puzzle's ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rating {
    pub(crate) er: u8,
    pub(crate) ep: u8,
    pub(crate) ed: u8,
    pub(crate) hardest: Technique,
    pub(crate) steps: u32,
    pub(crate) counts: [u32; Technique::ALL.len()],
}

/// The rater.
#[derive(Debug, Default)]
pub(crate) struct Rater;

impl Rater {
    pub(crate) fn new() -> Rater {
        Rater
    }

    pub(crate) fn rate(
        &mut self,
        puzzle: &Grid,
        mut budget: Budget,
    ) -> Result<Rating, OutOfBudget> {
        let mut c = Cands::new(puzzle);
        let mut r = Rating {
            er: 0,
            ep: 0,
            ed: 0,
            hardest: Technique::HiddenSingle,
            steps: 0,
            counts: [0; Technique::ALL.len()],
        };
        while !c.is_solved() {
            budget.spend(1)?;
            let mut found = None;
            'u: for u in [
                18usize, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                13, 14, 15, 16, 17,
            ] {
                for d in 1..=9u8 {
                    let p = c.places(u, d);
                    if p.len() == 1 && UNIT_SETS[u].and(c.empty()).len() > 0 {
                        found = Some((
                            p.first().unwrap(),
                            d,
                            Technique::HiddenSingle,
                            if u >= 18 { 12 } else { 15 },
                        ));
                        break 'u;
                    }
                }
            }
            if found.is_none() {
                for cell in c.empty().iter() {
                    if c.candidates(cell).count_ones() == 1 {
                        found = Some((
                            cell,
                            c.candidates(cell).trailing_zeros() as u8 + 1,
                            Technique::NakedSingle,
                            23,
                        ));
                        break;
                    }
                }
            }
            let Some((cell, d, t, rating)) = found else {
                return Err(OutOfBudget);
            };
            c.place(cell, d);
            r.steps += 1;
            r.counts[t as usize] += 1;
            if rating > r.er {
                r.er = rating;
                r.hardest = t;
            }
            if r.ed == 0 {
                r.ed = r.er;
            }
            if r.ep == 0 {
                r.ep = r.er;
            }
        }
        Ok(r)
    }
}
