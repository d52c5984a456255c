//! What a chain step is worth and which of two steps Sudoku Explainer
//! hands out first: its difficulty (a base per chain kind plus a length
//! adjustment), then its complexity (the number of implications the
//! chains hold), then a sort key per hint kind.
//!
//! Difficulties are computed in `f64` exactly as Sudoku Explainer adds
//! them (the base plus 0.1 added once per length threshold), so that two
//! hints tie, or do not, exactly as they do there.

use super::links::Links;
use crate::technique::Technique;

/// Sudoku Explainer's length adjustment for a chain of `complexity`
/// implications: 0.1 more each time the length (complexity - 2) passes
/// a threshold, the thresholds 4, 6, 8, 12, 16, 24, 32, 48, ... growing
/// by 3/2 and 4/3 in turn.
pub(super) fn length_added(complexity: u32) -> f64 {
    let length = i64::from(complexity) - 2;
    let mut added = 0.0;
    let mut ceil: i64 = 4;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The base difficulty, sort key and technique of a cycle of the first
/// producer with these links.
pub(super) fn cycle_kind(links: Links) -> (f64, u8, Technique) {
    let technique = match (links.x, links.y) {
        (true, true) => Technique::BidirectionalCycle,
        (false, true) => Technique::YCycle,
        _ => Technique::XCycle,
    };
    (technique.base_difficulty(), sort_key(links), technique)
}

/// The base difficulty, sort key and technique of a forcing chain of the
/// first producer with these links (X links always).
pub(super) fn forcing_kind(links: Links) -> (f64, u8, Technique) {
    let technique = if links.y {
        Technique::ForcingChain
    } else {
        Technique::ForcingXChain
    };
    (technique.base_difficulty(), sort_key(links), technique)
}

/// The sort key of a cycle or forcing chain with these links: 2 X, 3 Y,
/// 4 XY (see [`HintKey::sort_key`]).
fn sort_key(links: Links) -> u8 {
    match (links.x, links.y) {
        (true, true) => 4,
        (false, true) => 3,
        _ => 2,
    }
}

/// The order key of a hint: difficulty, then complexity, then the hint
/// kind's sort key (lower first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct HintKey {
    /// The rating as Sudoku Explainer computes it (base + length).
    pub(super) difficulty: f64,
    /// The number of implications (ancestors of the chain targets).
    pub(super) complexity: u32,
    /// The kind's tie-break: 1 double, 2 X-chain, 3 Y-chain, 4 XY-chain,
    /// 5 cell, 6 region, 7 contradiction.
    pub(super) sort_key: u8,
}

impl HintKey {
    /// The key of a hint of `base` difficulty and `complexity`.
    pub(super) fn new(base: f64, complexity: u32, sort_key: u8) -> HintKey {
        HintKey {
            difficulty: base + length_added(complexity),
            complexity,
            sort_key,
        }
    }

    /// Whether a hint with this key comes strictly before one with `other`.
    pub(super) fn precedes(&self, other: &HintKey) -> bool {
        if self.difficulty != other.difficulty {
            return self.difficulty < other.difficulty;
        }
        if self.complexity != other.complexity {
            return self.complexity < other.complexity;
        }
        self.sort_key < other.sort_key
    }

    /// The rating in tenths, as Sudoku Explainer prints it (one decimal).
    pub(super) fn tenths(&self) -> u8 {
        (self.difficulty * 10.0).round() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_thresholds_follow_the_three_halves_four_thirds_ladder() {
        // The first complexity earning k tenths, k = 1..=8.
        let firsts: Vec<u32> = (1..=8)
            .map(|k| {
                (0..400)
                    .find(|&c| length_added(c) > 0.1 * f64::from(k) - 0.05)
                    .unwrap()
            })
            .collect();
        // ceil 4 -> 6 -> 8 -> 12 -> 16 -> 24 -> 32 -> 48: the length must exceed it.
        assert_eq!(firsts, vec![7, 9, 11, 15, 19, 27, 35, 51]);
    }

    #[test]
    fn hand_checked_ratings() {
        // A turbot fish (6 nodes) is a plain forcing X-chain: 6.6.
        assert_eq!(HintKey::new(6.6, 6, 2).tenths(), 66);
        // Complexity 8: length 6 passes 4 only: 7.0 + 0.1.
        assert_eq!(HintKey::new(7.0, 8, 4).tenths(), 71);
        // Complexity 20: length 18 passes 4, 6, 8, 12, 16: 8.5 + 0.5.
        assert_eq!(HintKey::new(8.5, 20, 7).tenths(), 90);
    }

    #[test]
    fn order_is_difficulty_then_complexity_then_sort_key() {
        let a = HintKey::new(6.5, 6, 2);
        let b = HintKey::new(6.6, 4, 2);
        assert!(a.precedes(&b));
        assert!(HintKey::new(7.0, 6, 2).precedes(&HintKey::new(7.0, 6, 4)));
        assert!(HintKey::new(7.0, 5, 4).precedes(&HintKey::new(7.0, 6, 2)));
        assert!(!a.precedes(&a));
    }
}
