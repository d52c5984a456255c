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
