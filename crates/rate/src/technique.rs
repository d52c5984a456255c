//! The techniques of Sudoku Explainer 1.2.1's ladder, in the order its
//! rater tries them, with the names the `rate` command writes.

/// One technique of the ladder. The rating of a step is not always the
/// technique's base rating (chains and uniqueness steps add length and
/// size adjustments), so each [`Step`](super::step::Step) carries its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// The last place of a digit in a row, column or box.
    HiddenSingle,
    /// Pointing (box to line) that leaves a hidden single at once.
    DirectPointing,
    /// Claiming (line to box) that leaves a hidden single at once.
    DirectClaiming,
    /// A hidden pair that leaves a hidden single at once.
    DirectHiddenPair,
    /// The last candidate of a cell.
    NakedSingle,
    /// A hidden triplet that leaves a hidden single at once.
    DirectHiddenTriplet,
    /// A digit of a box confined to one row or column.
    Pointing,
    /// A digit of a row or column confined to one box.
    Claiming,
    /// Two cells of a unit holding the same two candidates only.
    NakedPair,
    /// A fish of size 2.
    XWing,
    /// Two digits of a unit confined to the same two cells.
    HiddenPair,
    /// Three cells of a unit holding three candidates between them.
    NakedTriplet,
    /// A fish of size 3.
    Swordfish,
    /// Three digits of a unit confined to the same three cells.
    HiddenTriplet,
    /// A pivot and two pincers, three bivalue cells.
    XyWing,
    /// An XY-wing whose pivot holds the third digit too.
    XyzWing,
    /// Unique rectangles and loops (types 1 to 4).
    UniqueRectangle,
    /// Four cells of a unit holding four candidates between them.
    NakedQuad,
    /// A fish of size 4.
    Jellyfish,
    /// Four digits of a unit confined to the same four cells.
    HiddenQuad,
    /// Bivalue universal grave (types 1 to 4).
    Bug,
    /// Aligned pair exclusion.
    AlignedPairExclusion,
    /// A bidirectional cycle on one digit.
    XCycle,
    /// A forcing chain on one digit.
    ForcingXChain,
    /// A bidirectional cycle on bivalue cells.
    YCycle,
    /// A bidirectional cycle using both cell and unit links.
    BidirectionalCycle,
    /// A forcing chain (several digits, static).
    ForcingChain,
    /// Aligned triplet exclusion.
    AlignedTripletExclusion,
    /// Nishio forcing chains.
    NishioForcingChain,
    /// Cell forcing chains (static).
    CellForcingChain,
    /// Region forcing chains (static).
    RegionForcingChain,
    /// Dynamic forcing chains: contradiction, double implication, cell or
    /// region.
    DynamicForcingChain,
    /// Dynamic forcing chains helped by the simpler rules (the "+").
    DynamicForcingChainPlus,
    /// Forcing chains nested inside forcing chains.
    NestedForcingChain,
}

impl Technique {
    /// Every technique, in ladder order.
    pub const ALL: [Technique; 34] = [
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriplet,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriplet,
        Technique::Swordfish,
        Technique::HiddenTriplet,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::Bug,
        Technique::AlignedPairExclusion,
        Technique::XCycle,
        Technique::ForcingXChain,
        Technique::YCycle,
        Technique::BidirectionalCycle,
        Technique::ForcingChain,
        Technique::AlignedTripletExclusion,
        Technique::NishioForcingChain,
        Technique::CellForcingChain,
        Technique::RegionForcingChain,
        Technique::DynamicForcingChain,
        Technique::DynamicForcingChainPlus,
        Technique::NestedForcingChain,
    ];

    /// The name the `rate` command writes (lower case, as in
    /// `hidden single:54;pointing:3`).
    pub const fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "hidden single",
            Technique::DirectPointing => "direct pointing",
            Technique::DirectClaiming => "direct claiming",
            Technique::DirectHiddenPair => "direct hidden pair",
            Technique::NakedSingle => "naked single",
            Technique::DirectHiddenTriplet => "direct hidden triplet",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "x-wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriplet => "naked triplet",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriplet => "hidden triplet",
            Technique::XyWing => "xy-wing",
            Technique::XyzWing => "xyz-wing",
            Technique::UniqueRectangle => "unique rectangle",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::Bug => "bug",
            Technique::AlignedPairExclusion => "aligned pair exclusion",
            Technique::XCycle => "x-cycle",
            Technique::ForcingXChain => "forcing x-chain",
            Technique::YCycle => "y-cycle",
            Technique::BidirectionalCycle => "bidirectional cycle",
            Technique::ForcingChain => "forcing chain",
            Technique::AlignedTripletExclusion => "aligned triplet exclusion",
            Technique::NishioForcingChain => "nishio forcing chain",
            Technique::CellForcingChain => "cell forcing chain",
            Technique::RegionForcingChain => "region forcing chain",
            Technique::DynamicForcingChain => "dynamic forcing chain",
            Technique::DynamicForcingChainPlus => "dynamic forcing chain (+)",
            Technique::NestedForcingChain => "nested forcing chain",
        }
    }

    /// Sudoku Explainer's base rating of the technique, in tenths (`65`
    /// for 6.5): the one table every technique reads its rating from.
    /// Some steps are worth more (or less) than their technique's base:
    /// chains add a length adjustment,
    /// nested levels 0.5 per level past the first, unique loops their
    /// size, BUG and hidden singles their type (see the constants below).
    pub const fn base_rating(self) -> u8 {
        match self {
            Technique::HiddenSingle => 12,
            Technique::DirectPointing => 17,
            Technique::DirectClaiming => 19,
            Technique::DirectHiddenPair => 20,
            Technique::NakedSingle => 23,
            Technique::DirectHiddenTriplet => 25,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriplet => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriplet => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle => 45,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::Bug => 56,
            Technique::AlignedPairExclusion => 62,
            Technique::XCycle => 65,
            Technique::ForcingXChain => 66,
            Technique::YCycle => 65,
            Technique::BidirectionalCycle => 70,
            Technique::ForcingChain => 70,
            Technique::AlignedTripletExclusion => 75,
            Technique::NishioForcingChain => 75,
            Technique::CellForcingChain => 80,
            Technique::RegionForcingChain => 80,
            Technique::DynamicForcingChain => 85,
            Technique::DynamicForcingChainPlus => 90,
            Technique::NestedForcingChain => 95,
        }
    }

    /// The technique with its [`Technique::base_rating`].
    pub(crate) const fn with_base(self) -> (Technique, u8) {
        (self, self.base_rating())
    }

    /// [`Technique::base_rating`] as the `f64` difficulty the chains add
    /// their length to (exactly Sudoku Explainer's literal: `65 / 10.0`
    /// is the double nearest 6.5, as `6.5` is).
    pub(crate) fn base_difficulty(self) -> f64 {
        f64::from(self.base_rating()) / 10.0
    }
}

/// The rating, in tenths, of a hidden single that is the last empty cell
/// of its unit (a "full house").
pub(crate) const FULL_HOUSE_RATING: u8 = 10;

/// The rating, in tenths, of a hidden single in a row or column (one in a
/// box has [`Technique::HiddenSingle`]'s base rating).
pub(crate) const LINE_SINGLE_RATING: u8 = 15;

/// The rating, in tenths, of a BUG of type 2, 3 or 4 (type 1 has
/// [`Technique::Bug`]'s base rating).
pub(crate) const BUG_TYPES_2_TO_4_RATING: u8 = 57;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_in_ladder_order_with_distinct_names() {
        assert!(Technique::ALL.windows(2).all(|w| w[0] < w[1]));
        let mut names: Vec<_> = Technique::ALL.iter().map(|t| t.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Technique::ALL.len());
    }

    #[test]
    fn base_ratings_grow_along_the_ladder_but_for_serates_exceptions() {
        // Sudoku Explainer tries a few techniques before easier ones.
        let late = [
            Technique::NakedSingle,
            Technique::YCycle,
            Technique::NishioForcingChain,
        ];
        for w in Technique::ALL.windows(2) {
            let grows = w[0].base_rating() <= w[1].base_rating();
            assert!(
                grows || late.contains(&w[1]),
                "{:?} before {:?}",
                w[0],
                w[1]
            );
        }
        assert_eq!(Technique::XCycle.base_difficulty(), 6.5);
        assert_eq!(Technique::ForcingXChain.base_difficulty(), 6.6);
    }
}
