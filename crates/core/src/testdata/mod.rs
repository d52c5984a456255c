//! Puzzles shared by the unit tests of several modules (compiled for tests
//! only), so each engine's tests start from the same known cases.

use crate::grid::{Grid, BOX_OF, COL_OF, ROW_OF};
use crate::parse::parse_line;

pub mod corpus;

/// Solved by singles alone.
pub const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// The unique solution of [`EASY`].
pub const EASY_SOLUTION: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
/// Norvig's first "hard" puzzle (top95 #1).
pub const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// The unique solution of [`HARD`].
pub const HARD_SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
/// The first puzzle of the forum "hardest" list (HardestDatabase110626).
pub const PLATINUM: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
/// A 17-clue puzzle.
pub const SEVENTEEN: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
/// A complete valid grid.
pub const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Whether this is a CI run (`CI` set, and not to `false` or `0`): there
/// a test's missing prerequisite is a failure, not a skip.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// Whether a test's prerequisite `what` is `present`. When it is not, the
/// test is skipped with a message, except under `CI=true`, where it fails:
/// CI's machine has every prerequisite, so a test that quietly passed
/// there without running would hide a regression.
pub fn required(what: &str, present: bool) -> bool {
    if !present {
        assert!(!on_ci(), "CI=true, and this machine lacks {what}");
        eprintln!("skipped: this machine lacks {what} (a failure under CI=true)");
    }
    present
}

/// Parses a test puzzle line.
pub fn grid(s: &str) -> Grid {
    parse_line(s.as_bytes()).expect("test puzzles are well-formed")
}

/// Whether digit `d` may go in `cell` of `g`: no peer holds it. The one
/// rule of the deliberately naive reference searches in the tests.
pub fn naive_fits(g: &Grid, cell: usize, d: u8) -> bool {
    !(0..81).any(|o| {
        o != cell
            && g.get(o) == d
            && (ROW_OF[o] == ROW_OF[cell] || COL_OF[o] == COL_OF[cell] || BOX_OF[o] == BOX_OF[cell])
    })
}

/// The grid naked and hidden singles reach from `puzzle`, `None` when they
/// meet a contradiction: the rules applied in the plainest way (every
/// empty cell's candidates recomputed from its peers on every sweep), as
/// the reference the incremental propagator and the analysis measures
/// are checked against.
pub fn plain_singles(puzzle: &Grid) -> Option<Grid> {
    let mut g = *puzzle;
    if g.first_conflict().is_some() {
        return None;
    }
    loop {
        let mut placed = false;
        for cell in 0..81 {
            if g.get(cell) != 0 {
                continue;
            }
            let fits: Vec<u8> = (1..=9).filter(|&d| naive_fits(&g, cell, d)).collect();
            match fits.len() {
                0 => return None,
                1 => {
                    g.set(cell, fits[0]);
                    placed = true;
                }
                _ => {}
            }
        }
        for unit in crate::grid::UNITS {
            for d in 1..=9u8 {
                if unit.iter().any(|&c| g.get(usize::from(c)) == d) {
                    continue;
                }
                let places: Vec<usize> = unit
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|&c| g.get(c) == 0 && naive_fits(&g, c, d))
                    .collect();
                match places.len() {
                    0 => return None,
                    1 => {
                        g.set(places[0], d);
                        placed = true;
                    }
                    _ => {}
                }
            }
        }
        // A sweep may place two clashing singles: that is a contradiction.
        if g.first_conflict().is_some() {
            return None;
        }
        if !placed {
            return Some(g);
        }
    }
}

/// The puzzles of a public set in `../shared/data` (beside the checkout),
/// for ignored tests that measure agreement on it; panics, naming the
/// path, when the file is not there.
pub fn shared_set(name: &str) -> Vec<Grid> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (this ignored test needs the shared data)",
            path.display()
        )
    });
    text.lines()
        .filter_map(|l| parse_line(l.as_bytes()).ok())
        .collect()
}

/// The sample the analysis measures are checked on by hand: top95 and
/// the first 300 of magictour's top1465 (395 puzzles, see [`shared_set`]).
pub fn shared_hard_sample() -> Vec<Grid> {
    let mut puzzles = shared_set("top95.txt");
    puzzles.extend(
        shared_set("puzzles3_magictour_top1465.txt")
            .into_iter()
            .take(300),
    );
    puzzles
}

/// Every value of a vocabulary (`all`, named by `name`) parses back from
/// its name, in any case, and a wrong name's error lists the first name.
pub fn round_trip<T>(all: &[T], name: fn(T) -> &'static str)
where
    T: Copy + PartialEq + std::fmt::Debug + std::str::FromStr<Err = String>,
{
    for &v in all {
        assert_eq!(name(v).parse::<T>(), Ok(v));
        assert_eq!(name(v).to_ascii_uppercase().parse::<T>(), Ok(v));
    }
    let err = "nonsense".parse::<T>().unwrap_err();
    assert!(err.contains(name(all[0])), "{err}");
}

/// `text` as UTF-16, big- or little-endian, with or without a byte order
/// mark (as Windows tools save text), for the tests of UTF-16 detection.
pub fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    if bom {
        bytes.extend_from_slice(if big_endian { b"\xFE\xFF" } else { b"\xFF\xFE" });
    }
    for unit in text.encode_utf16() {
        let pair = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        bytes.extend_from_slice(&pair);
    }
    bytes
}
