//! The work a rating may take: one monstrous puzzle must not hold up a
//! corpus, so every costly search spends from a budget and gives up,
//! with [`OutOfBudget`], when it is gone.

/// The budget ran out: the rating is abandoned (status `limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// Work units left (a unit is about one propagation step of a chain or
/// one candidate combination tried: cheap, counted in the inner loops).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    left: u64,
}

impl Budget {
    /// A budget of `units`.
    pub const fn new(units: u64) -> Budget {
        Budget { left: units }
    }

    /// Spends `units`; `Err` once the budget is gone.
    #[inline(always)]
    pub(crate) fn spend(&mut self, units: u64) -> Result<(), OutOfBudget> {
        match self.left.checked_sub(units) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => {
                self.left = 0;
                Err(OutOfBudget)
            }
        }
    }

    /// The units left.
    #[cfg(test)]
    pub(crate) const fn left(&self) -> u64 {
        self.left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_past_the_budget_fails_and_empties_it() {
        let mut b = Budget::new(10);
        assert_eq!(b.spend(4), Ok(()));
        assert_eq!(b.left(), 6);
        assert_eq!(b.spend(7), Err(OutOfBudget));
        assert_eq!(b.left(), 0);
        assert_eq!(b.spend(0), Ok(()));
    }
}
