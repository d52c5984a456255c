//! The work a rating may take: one monstrous puzzle must not hold up a
//! corpus, so every costly search spends from a budget and gives up,
//! with [`OutOfBudget`], when it is gone. A budget can also be stopped from
//! outside ([`Budget::until`]): Ctrl-C reaches inside one rating.

use std::fmt;

/// The budget ran out: the rating is abandoned (status `limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// Work units between two looks at a budget's stop condition: well under a
/// millisecond of rating.
const POLL_UNITS: u64 = 1 << 14;

/// Work units left (a unit is about one propagation step of a chain or
/// one candidate combination tried: cheap, counted in the inner loops),
/// and optionally a condition that stops the work early.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    left: u64,
    /// `stop` is asked again once `left` falls below this (0: never).
    poll_at: u64,
    stop: Option<&'a (dyn Fn() -> bool + 'a)>,
    stopped: bool,
}

impl fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Budget")
            .field("left", &self.left)
            .field("stoppable", &self.stop.is_some())
            .field("stopped", &self.stopped)
            .finish()
    }
}

impl Budget<'static> {
    /// A budget of `units`.
    pub const fn new(units: u64) -> Budget<'static> {
        Budget {
            left: units,
            poll_at: 0,
            stop: None,
            stopped: false,
        }
    }
}

impl<'a> Budget<'a> {
    /// This budget, also gone as soon as `stop()` says so: asked every few
    /// thousand work units (well under a millisecond), so a rating stops
    /// within about a millisecond of the request whatever it would have
    /// cost. A rating stopped this way is [`Unrated::Stopped`](crate::Unrated::Stopped).
    ///
    /// # Example
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use batchdoku_core::parse_line;
    /// use batchdoku_rate::{Budget, Rater, Unrated};
    ///
    /// let puzzle = parse_line(
    ///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    /// )
    /// .unwrap();
    /// let quit = AtomicBool::new(true); // Ctrl-C was pressed
    /// let stop = || quit.load(Ordering::Relaxed);
    /// let rating = Rater::new().rate(&puzzle, Budget::new(u64::MAX).until(&stop));
    /// assert_eq!(rating, Err(Unrated::Stopped));
    /// ```
    pub fn until<'b>(self, stop: &'b (dyn Fn() -> bool + 'b)) -> Budget<'b>
    where
        'a: 'b,
    {
        Budget {
            left: self.left,
            // The first look comes at once.
            poll_at: u64::MAX,
            stop: Some(stop),
            stopped: self.stopped,
        }
    }

    /// Spends `units`; `Err` once the budget is gone (or stopped).
    #[inline(always)]
    pub(crate) fn spend(&mut self, units: u64) -> Result<(), OutOfBudget> {
        match self.left.checked_sub(units) {
            Some(left) => {
                self.left = left;
                if left < self.poll_at {
                    return self.poll();
                }
                Ok(())
            }
            None => {
                self.left = 0;
                Err(OutOfBudget)
            }
        }
    }

    /// Asks the stop condition, and sets the next look.
    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> Result<(), OutOfBudget> {
        self.poll_at = self.left.saturating_sub(POLL_UNITS);
        match self.stop {
            Some(stop) if stop() => {
                self.stopped = true;
                self.left = 0;
                self.poll_at = 0;
                Err(OutOfBudget)
            }
            _ => Ok(()),
        }
    }

    /// Whether the stop condition ended the budget (rather than its units).
    pub(crate) const fn stopped(&self) -> bool {
        self.stopped
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
    use std::cell::Cell;

    #[test]
    fn spending_past_the_budget_fails_and_empties_it() {
        let mut b = Budget::new(10);
        assert_eq!(b.spend(4), Ok(()));
        assert_eq!(b.left(), 6);
        assert_eq!(b.spend(7), Err(OutOfBudget));
        assert_eq!(b.left(), 0);
        assert_eq!(b.spend(0), Ok(()));
        assert!(!b.stopped());
    }

    #[test]
    fn a_stop_ends_the_budget_within_a_poll_of_units() {
        let asked = Cell::new(0u32);
        let raised = Cell::new(false);
        let stop = || {
            asked.set(asked.get() + 1);
            raised.get()
        };
        let mut b = Budget::new(u64::MAX).until(&stop);
        assert_eq!(b.spend(1), Ok(()));
        assert_eq!(asked.get(), 1, "asked at the first unit");
        for _ in 0..POLL_UNITS * 3 {
            b.spend(1).unwrap();
        }
        assert!(
            (3..=4).contains(&asked.get()),
            "asked {} times",
            asked.get()
        );
        raised.set(true);
        let spent = (0..=POLL_UNITS).take_while(|_| b.spend(1).is_ok()).count() as u64;
        assert!(spent < POLL_UNITS, "{spent} units after the stop");
        assert!(b.stopped());
        assert_eq!(b.spend(1), Err(OutOfBudget));
    }
}
