//! The hook through which dynamic chains "plus" and nested chains use
//! simpler rules inside their implications (Sudoku Explainer's
//! `getAdvancedPotentials`): when a chain's plain implications run dry,
//! the rules look at the grid the chain has reduced so far and may remove
//! more candidates, each removal resting on candidates the chain removed.

use crate::cands::Cands;

/// Receives one elimination: the cell, the digit (1..=9), and the removed
/// candidates `(cell, digit)` it rests on.
pub(crate) type Found<'a> = dyn FnMut(usize, u8, &[(u8, u8)]) + 'a;

/// Simpler rules applied inside a dynamic chain.
///
/// Contract (Sudoku Explainer's `getAdvancedPotentials`): try the rules
/// in their order (locking, hidden pair, naked pair, X-wing, then for
/// nested levels the lower chain levels) on `current`; each rule visits
/// all its patterns (hints) in its own order, and a pattern counts when
/// it removes something and rests on at least one candidate removed
/// since `source` (a candidate of `source` missing from `current`): its
/// "parents", those removed candidates the pattern relies on. Report,
/// through `found`, every elimination of every counting pattern of the
/// *first* rule that has one (cell, digit, and the pattern's parents as
/// `(cell, digit)`), then stop: later rules are not asked. Patterns that
/// rest on no removed candidate are not reported (they hold without the
/// chain). The caller skips eliminations it already knows (the first
/// report of a candidate wins).
pub(crate) trait SimplerRules {
    /// Reports the first rule's eliminations as described on the trait.
    fn eliminations(&mut self, current: &Cands, source: &Cands, found: &mut Found<'_>);
}

/// No simpler rules: the plain dynamic chains (level 0).
pub(crate) struct NoSimplerRules;

impl SimplerRules for NoSimplerRules {
    fn eliminations(&mut self, _: &Cands, _: &Cands, _: &mut Found<'_>) {}
}
