//! The hint a chain producer hands out first: Sudoku Explainer sorts its
//! hints by [`HintKey`] with a stable sort, so the first is the least key,
//! the earliest found among equals. Hints are offered in the order Sudoku
//! Explainer finds them and only a strictly better one replaces the best.

use super::rating::HintKey;
use crate::step::Step;

/// The best hint offered so far.
#[derive(Default)]
pub(super) struct Best {
    /// Its key and step.
    found: Option<(HintKey, Step)>,
}

impl Best {
    /// Whether a hint with `key` would replace the best (check before
    /// building its step).
    #[inline(always)]
    pub(super) fn wants(&self, key: &HintKey) -> bool {
        match &self.found {
            None => true,
            Some((best, _)) => key.precedes(best),
        }
    }

    /// Offers a hint; kept if it comes strictly before the best.
    pub(super) fn offer(&mut self, key: HintKey, step: Step) {
        if self.wants(&key) {
            self.found = Some((key, step));
        }
    }

    /// The best hint's step.
    pub(super) fn into_step(self) -> Option<Step> {
        self.found.map(|(_, step)| step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::technique::Technique;

    #[test]
    fn the_first_of_equal_keys_stays() {
        let mut best = Best::default();
        let a = Step::removing(Technique::ForcingChain, 71);
        let b = Step::place(Technique::ForcingChain, 71, 3, 4);
        best.offer(HintKey::new(7.0, 8, 4), a);
        best.offer(HintKey::new(7.0, 8, 4), b);
        assert_eq!(best.into_step(), Some(a));
        let mut best = Best::default();
        best.offer(HintKey::new(7.0, 8, 4), a);
        best.offer(HintKey::new(7.0, 7, 4), b);
        assert_eq!(best.into_step(), Some(b));
    }
}
