//! Symmetries of the set of givens: a generated puzzle with a symmetry has
//! a given in a cell exactly when it has one in that cell's image, so
//! givens are added and removed a whole orbit at a time.
//!
//! Each symmetry is one geometric map of the 9x9 square; its orbits (the
//! cells it cycles through) partition the 81 cells:
//!
//! | symmetry | map of (row, col) | orbits |
//! |---|---|---|
//! | `None` | identity | 81 single cells |
//! | `Central` | (8 - row, 8 - col), 180° turn | 40 pairs + the centre |
//! | `Quarter` | (col, 8 - row), 90° turn | 20 fours + the centre |
//! | `Mirror` | (row, 8 - col), left-right reflection | 36 pairs + the 9 middle-column cells |
//! | `Diagonal` | (col, row), main-diagonal reflection | 36 pairs + the 9 diagonal cells |
//!
//! Only the pattern of givens is symmetric, not their digits.

use crate::grid::{Grid, CELLS};

/// A symmetry the pattern of givens must keep.
///
/// Only the pattern is symmetric, not the digits: a cell holds a given
/// exactly when its image under the symmetry's map does.
///
/// # Example
/// ```
/// use batchdoku_core::{Grid, Symmetry};
/// let symmetry: Symmetry = "central".parse().unwrap();
/// assert_eq!(symmetry, Symmetry::Central);
/// assert_eq!(symmetry.image(0), 80); // top-left to bottom-right
/// assert_eq!(symmetry.image(40), 40); // the centre stays
///
/// let mut grid = Grid::empty();
/// grid.set(0, 1);
/// assert!(!symmetry.holds_for(&grid));
/// grid.set(80, 7); // any digit: only the pattern counts
/// assert!(symmetry.holds_for(&grid));
///
/// // A quarter turn moves cells in fours around the centre.
/// assert!(Symmetry::Quarter.allows_given_count(25));
/// assert!(!Symmetry::Quarter.allows_given_count(26));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Symmetry {
    /// No constraint.
    #[default]
    None,
    /// 180° rotation about the centre cell.
    Central,
    /// 90° rotation about the centre cell (implies `Central`).
    Quarter,
    /// Reflection in the middle column (left-right mirror).
    Mirror,
    /// Reflection in the main diagonal (top-left to bottom-right).
    Diagonal,
}

impl std::str::FromStr for Symmetry {
    type Err = String;

    /// Parses a symmetry name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Symmetry, String> {
        crate::names::parse_name("symmetry", &Symmetry::ALL, Symmetry::as_str, s)
    }
}

impl Symmetry {
    /// Every symmetry, in the order the command line lists them.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Central,
        Symmetry::Quarter,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The symmetry's name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Central => "central",
            Symmetry::Quarter => "quarter",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// What the symmetry keeps, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Symmetry::None => "no constraint on where the givens are",
            Symmetry::Central => "180-degree rotation (pairs of cells plus the centre)",
            Symmetry::Quarter => "90-degree rotation (fours plus the centre)",
            Symmetry::Mirror => "left-right reflection",
            Symmetry::Diagonal => "reflection in the main diagonal",
        }
    }

    /// The image of `cell` under the symmetry's map.
    pub fn image(self, cell: usize) -> usize {
        let (r, c) = (cell / 9, cell % 9);
        let (r, c) = match self {
            Symmetry::None => (r, c),
            Symmetry::Central => (8 - r, 8 - c),
            Symmetry::Quarter => (c, 8 - r),
            Symmetry::Mirror => (r, 8 - c),
            Symmetry::Diagonal => (c, r),
        };
        r * 9 + c
    }

    /// The orbits of the symmetry's map.
    pub fn orbits(self) -> Orbits {
        let mut orbits = Orbits {
            cells: [0; CELLS],
            starts: [0; CELLS + 1],
            len: 0,
        };
        let mut seen = [false; CELLS];
        let mut filled = 0;
        for first in 0..CELLS {
            if seen[first] {
                continue;
            }
            orbits.starts[orbits.len] = filled as u8;
            let mut cell = first;
            while !seen[cell] {
                seen[cell] = true;
                orbits.cells[filled] = cell as u8;
                filled += 1;
                cell = self.image(cell);
            }
            orbits.len += 1;
        }
        orbits.starts[orbits.len] = filled as u8;
        orbits
    }

    /// True when `grid`'s givens form a union of orbits: every cell is
    /// given exactly when its image is.
    pub fn holds_for(self, grid: &Grid) -> bool {
        (0..CELLS).all(|cell| (grid.get(cell) == 0) == (grid.get(self.image(cell)) == 0))
    }

    /// True when some union of orbits has exactly `givens` cells, i.e. a
    /// puzzle with this symmetry can have that many givens. False only for
    /// `Quarter` with `givens % 4` equal to 2 or 3 (and above 81).
    pub fn allows_given_count(self, givens: usize) -> bool {
        // Subset sums of the orbit sizes, as a bitset over 0..=81.
        let orbits = self.orbits();
        let mut reachable = 1u128;
        for k in 0..orbits.len() {
            reachable |= reachable << orbits.get(k).len();
        }
        givens <= CELLS && reachable & (1u128 << givens) != 0
    }
}

/// The symmetries a pattern of givens has: the set of [`Symmetry`] maps
/// (`Central`, `Quarter`, `Mirror`, `Diagonal`) under which it is
/// unchanged; `None`, which every pattern keeps, is never in it. As with
/// [`Symmetry`], only the pattern counts, not the digits. A quarter turn
/// applied twice is the central turn, so a set holding `Quarter` holds
/// `Central` too; `Mirror` and `Diagonal` together make a quarter turn.
///
/// Its text form ([`as_str`](Self::as_str)) lists the names in the order
/// of [`Symmetry::ALL`] joined by `+`, or is `none` for the empty set:
/// every name in it is a `--symmetry` that `generate` could have made the
/// pattern with.
///
/// # Example
/// ```
/// use batchdoku_core::{Grid, Symmetries, Symmetry};
/// let mut grid = Grid::empty();
/// assert_eq!(Symmetries::of(&grid).as_str(), "central+quarter+mirror+diagonal");
/// grid.set(0, 5);
/// grid.set(80, 7); // the opposite corner: a 180-degree turn keeps the pattern
/// let set = Symmetries::of(&grid);
/// assert_eq!(set.as_str(), "central+diagonal");
/// assert!(set.contains(Symmetry::Central) && !set.contains(Symmetry::Mirror));
/// grid.set(1, 5);
/// assert!(Symmetries::of(&grid).is_empty());
/// assert_eq!(Symmetries::of(&grid).as_str(), "none");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Symmetries(u8);

impl Symmetries {
    /// The symmetries that can be in a set, in text order (bit `k` of the
    /// set is `MAPS[k]`).
    const MAPS: [Symmetry; 4] = [
        Symmetry::Central,
        Symmetry::Quarter,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The text of each of the 16 sets, by bits.
    const NAMES: [&'static str; 16] = [
        "none",
        "central",
        "quarter",
        "central+quarter",
        "mirror",
        "central+mirror",
        "quarter+mirror",
        "central+quarter+mirror",
        "diagonal",
        "central+diagonal",
        "quarter+diagonal",
        "central+quarter+diagonal",
        "mirror+diagonal",
        "central+mirror+diagonal",
        "quarter+mirror+diagonal",
        "central+quarter+mirror+diagonal",
    ];

    /// The symmetries of the pattern of `grid`'s givens.
    pub fn of(grid: &Grid) -> Symmetries {
        let mut bits = 0;
        for (k, s) in Symmetries::MAPS.iter().enumerate() {
            if s.holds_for(grid) {
                bits |= 1 << k;
            }
        }
        Symmetries(bits)
    }

    /// Whether `symmetry` is in the set (`Symmetry::None` never is).
    pub fn contains(self, symmetry: Symmetry) -> bool {
        Symmetries::MAPS
            .iter()
            .position(|&s| s == symmetry)
            .is_some_and(|k| self.0 & (1 << k) != 0)
    }

    /// True when the pattern has no symmetry.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The symmetries in the set, in the order of [`Symmetry::ALL`].
    pub fn iter(self) -> impl Iterator<Item = Symmetry> {
        Symmetries::MAPS
            .into_iter()
            .enumerate()
            .filter(move |&(k, _)| self.0 & (1 << k) != 0)
            .map(|(_, s)| s)
    }

    /// The text form: the names joined by `+` (`central+mirror`), `none`
    /// for the empty set.
    pub fn as_str(self) -> &'static str {
        Symmetries::NAMES[usize::from(self.0 & 0xF)]
    }
}

impl std::fmt::Display for Symmetries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The orbits of a [`Symmetry`]: a partition of the 81 cells, stored flat
/// (orbit `k` is `cells[starts[k]..starts[k + 1]]`).
#[derive(Clone, Debug)]
pub struct Orbits {
    cells: [u8; CELLS],
    starts: [u8; CELLS + 1],
    len: usize,
}

impl Orbits {
    /// Number of orbits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no orbits (never: the cells are never empty).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cells of orbit `k`.
    pub fn get(&self, k: usize) -> &[u8] {
        &self.cells[usize::from(self.starts[k])..usize::from(self.starts[k + 1])]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted orbit sizes.
    fn sizes(symmetry: Symmetry) -> Vec<usize> {
        let orbits = symmetry.orbits();
        let mut s: Vec<usize> = (0..orbits.len()).map(|k| orbits.get(k).len()).collect();
        s.sort_unstable();
        s
    }

    #[test]
    fn orbits_partition_the_cells_with_the_documented_sizes() {
        for symmetry in Symmetry::ALL {
            let orbits = symmetry.orbits();
            let mut all: Vec<u8> = (0..orbits.len())
                .flat_map(|k| orbits.get(k).to_vec())
                .collect();
            all.sort_unstable();
            assert_eq!(all, (0..81).collect::<Vec<u8>>(), "{symmetry:?}");
            // Each orbit is closed under the map.
            for k in 0..orbits.len() {
                for &c in orbits.get(k) {
                    let image = symmetry.image(usize::from(c)) as u8;
                    assert!(orbits.get(k).contains(&image), "{symmetry:?}");
                }
            }
        }
        let count = |s: Symmetry, size: usize| sizes(s).iter().filter(|&&n| n == size).count();
        assert_eq!(count(Symmetry::None, 1), 81);
        assert_eq!(
            (count(Symmetry::Central, 2), count(Symmetry::Central, 1)),
            (40, 1)
        );
        assert_eq!(
            (count(Symmetry::Quarter, 4), count(Symmetry::Quarter, 1)),
            (20, 1)
        );
        assert_eq!(
            (count(Symmetry::Mirror, 2), count(Symmetry::Mirror, 1)),
            (36, 9)
        );
        assert_eq!(
            (count(Symmetry::Diagonal, 2), count(Symmetry::Diagonal, 1)),
            (36, 9)
        );
    }

    #[test]
    fn maps_move_the_corners_as_documented() {
        // Cell 0 is the top-left corner, 8 top-right, 72 bottom-left.
        assert_eq!(Symmetry::Central.image(0), 80);
        assert_eq!(Symmetry::Quarter.image(0), 8);
        assert_eq!(Symmetry::Quarter.image(8), 80);
        assert_eq!(Symmetry::Mirror.image(0), 8);
        assert_eq!(Symmetry::Diagonal.image(8), 72);
        assert_eq!(Symmetry::Diagonal.image(40), 40);
    }

    #[test]
    fn holds_for_checks_every_cell() {
        let mut g = Grid::empty();
        assert!(Symmetry::ALL.iter().all(|s| s.holds_for(&g)));
        g.set(0, 5);
        assert!(Symmetry::None.holds_for(&g));
        assert!(!Symmetry::Central.holds_for(&g));
        g.set(80, 3);
        assert!(Symmetry::Central.holds_for(&g));
        assert!(!Symmetry::Quarter.holds_for(&g));
        g.set(8, 1);
        g.set(72, 2);
        assert!(Symmetry::Quarter.holds_for(&g));
        assert!(Symmetry::Mirror.holds_for(&g));
        assert!(Symmetry::Diagonal.holds_for(&g));
    }

    #[test]
    fn symmetries_name_each_set_by_its_members() {
        for bits in 0..16u8 {
            let set = Symmetries(bits);
            let names: Vec<&str> = set.iter().map(Symmetry::as_str).collect();
            let want = if names.is_empty() {
                "none".to_string()
            } else {
                names.join("+")
            };
            assert_eq!(set.as_str(), want);
            assert_eq!(set.is_empty(), bits == 0);
            for (k, s) in Symmetries::MAPS.iter().enumerate() {
                assert_eq!(set.contains(*s), bits & (1 << k) != 0);
            }
            assert!(!set.contains(Symmetry::None));
        }
    }

    /// Each symmetry's orbits, filled one at a time on a seeded choice,
    /// make a pattern that has that symmetry; a quarter turn implies the
    /// central one, and mirror with diagonal imply both turns.
    #[test]
    fn patterns_built_from_orbits_have_their_symmetry() {
        let mut rng = crate::rng::Rng::new(7);
        for symmetry in Symmetries::MAPS {
            let orbits = symmetry.orbits();
            for _ in 0..50 {
                let mut g = Grid::empty();
                for k in 0..orbits.len() {
                    if rng.below(3) == 0 {
                        for &c in orbits.get(k) {
                            g.set(usize::from(c), 1 + rng.below(9) as u8);
                        }
                    }
                }
                let set = Symmetries::of(&g);
                assert!(set.contains(symmetry), "{symmetry:?}: {g}");
                if set.contains(Symmetry::Quarter) {
                    assert!(set.contains(Symmetry::Central));
                }
                if set.contains(Symmetry::Mirror) && set.contains(Symmetry::Diagonal) {
                    assert!(set.contains(Symmetry::Quarter));
                }
            }
        }
    }

    #[test]
    fn given_counts_are_limited_only_for_quarter_turns() {
        for k in 0..=81 {
            for s in [
                Symmetry::None,
                Symmetry::Central,
                Symmetry::Mirror,
                Symmetry::Diagonal,
            ] {
                assert!(s.allows_given_count(k), "{s:?} {k}");
            }
            assert_eq!(Symmetry::Quarter.allows_given_count(k), k % 4 < 2, "{k}");
        }
        assert!(!Symmetry::None.allows_given_count(82));
    }
}
