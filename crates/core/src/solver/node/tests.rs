//! Unit tests of the band-form node: loading, placing, propagation and
//! branching, checked against cell-by-cell placement.

use super::*;
use crate::solver::wide::Narrow;
use crate::testdata::{EASY, HARD, PLATINUM, SOLVED};

fn place_cell(s: &mut Node, cell: usize, digit: u8) -> Result<(), Contradiction> {
    s.place::<Narrow>(digit as usize - 1, cell / 27, (cell % 27) as u32)
        .map(|_| ())
}

#[test]
fn load_matches_placing_givens_one_by_one() {
    let puzzles = [HARD, EASY, SOLVED];
    for line in puzzles {
        let grid = crate::parse::parse_line(line.as_bytes()).unwrap();
        let mut bulk = Node::blank();
        bulk.load(&grid).unwrap();
        let mut one_by_one = Node::blank();
        for (cell, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                place_cell(&mut one_by_one, cell, v).unwrap();
            }
        }
        assert_eq!(bulk.bands, one_by_one.bands, "{line}");
        assert_eq!(bulk.unsolved, one_by_one.unsolved, "{line}");
    }
    // Two equal givens in a box.
    let mut cells = [0u8; 81];
    cells[0] = 7;
    cells[10] = 7;
    let clash = Grid::from_cells(cells).unwrap();
    assert_eq!(Node::blank().load(&clash), Err(Contradiction));
}

#[test]
fn place_removes_digit_from_peers_only() {
    let mut s = Node::blank();
    place_cell(&mut s, 40, 5).unwrap();
    assert_eq!(s.value(40), 5);
    assert_eq!(s.candidates(40), 0);
    for cell in 0..81 {
        if cell == 40 {
            continue;
        }
        let (r, c) = (cell / 9, cell % 9);
        let peer = r == 4 || c == 4 || (r / 3 == 1 && c / 3 == 1);
        let has5 = s.candidates(cell) & digit_bit(5) != 0;
        assert_eq!(has5, !peer, "cell {cell}");
        assert_eq!(s.candidates(cell) | digit_bit(5), ALL_DIGITS);
    }
    assert_eq!(s.empty_count(), 80);
    assert_eq!(s.to_grid().get(40), 5);
}

#[test]
fn placing_a_removed_digit_is_a_contradiction() {
    let mut s = Node::blank();
    place_cell(&mut s, 0, 5).unwrap();
    assert_eq!(place_cell(&mut s, 80 - 8 * 9, 5), Err(Contradiction));
}

#[test]
fn naked_single_is_propagated() {
    let mut s = Node::blank();
    // Row 0 holds 1..8 in cells 1..9: cell 0 must be 9.
    for d in 1..=8u8 {
        place_cell(&mut s, d as usize, d).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    assert_eq!(s.value(0), 9);
}

#[test]
fn hidden_single_in_a_box_is_found() {
    let mut s = Node::blank();
    // Digit 1 in rows 1 and 2 (outside box 0) and in columns 1 and 2:
    // the only place for 1 in box 0 is cell 0.
    for cell in [12usize, 24, 28, 56] {
        place_cell(&mut s, cell, 1).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    assert_eq!(s.value(0), 1);
}

#[test]
fn hidden_single_in_a_row_is_found() {
    let mut s = Node::blank();
    // 7s in columns 0, 1, 3, 4 (below band 0) and digits 1..4 in row
    // 0's columns 2, 5, 6, 7: row 0 keeps 7 only in column 8.
    for (cell, d) in [
        (27, 7),
        (55, 7),
        (39, 7),
        (67, 7),
        (2, 1),
        (5, 2),
        (6, 3),
        (7, 4),
    ] {
        place_cell(&mut s, cell, d).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    assert_eq!(s.value(8), 7);
}

#[test]
fn locked_candidates_pointing_and_claiming() {
    // Pointing: rows 1 and 2 of box 0 are full (digits 4..9), so box 0's
    // 3 lies in row 0, and the rest of row 0 loses the 3.
    let mut s = Node::blank();
    for (cell, d) in [(9, 4), (10, 5), (11, 6), (18, 7), (19, 8), (20, 9)] {
        place_cell(&mut s, cell, d).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    for c in 0..9 {
        assert_eq!(s.candidates(c) & digit_bit(3) != 0, c < 3, "col {c}");
    }
    // Claiming: a 2 in box 4 (row 4) and digits 5..7 in row 3's
    // columns 6..8 leave row 3's 2 inside box 3, so row 5 loses the 2
    // in box 3.
    let mut s = Node::blank();
    for (cell, d) in [(40, 2), (33, 5), (34, 6), (35, 7)] {
        place_cell(&mut s, cell, d).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    for cell in 45..54 {
        let has2 = s.candidates(cell) & digit_bit(2) != 0;
        assert_eq!(has2, cell >= 51, "cell {cell}");
    }
    assert_ne!(s.candidates(27) & digit_bit(2), 0);
}

/// Column 0 rows 0..5 hold 1, 2, 3, 4, 6, 7 and rows 6 and 7 have
/// their 5 elsewhere: column 0's 5 can only be in row 8 (cell 72, whose
/// own 5 could still be in any of columns 0..2).
fn five_alone_in_column_zero() -> Node {
    let mut s = Node::blank();
    let column = [(0, 1), (9, 2), (18, 3), (27, 4), (36, 6), (45, 7)];
    for (cell, d) in column.into_iter().chain([(58, 5), (71, 5)]) {
        place_cell(&mut s, cell, d).unwrap();
    }
    s
}

#[test]
fn hidden_single_in_a_column_is_found() {
    let mut s = five_alone_in_column_zero();
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    assert_eq!(s.value(72), 5);
}

#[test]
fn stack_pass_can_be_left_out() {
    // The column hidden single of the test above needs the stack pass.
    let mut s = five_alone_in_column_zero();
    let mut seen = Seen::blank();
    seen.stack_pass_from = u32::MAX;
    s.propagate::<Narrow>(&mut seen).unwrap();
    assert_eq!(s.value(72), 0);
    assert_ne!(s.candidates(72) & digit_bit(5), 0);
    seen.stack_pass_from = 1;
    s.propagate::<Narrow>(&mut seen).unwrap();
    assert_eq!(s.value(72), 5);
}

#[test]
fn locked_candidates_in_a_stack() {
    // Box 0's columns 1 and 2 are full, so box 0's 3 lies in column 0
    // and the rest of column 0 loses the 3.
    let mut s = Node::blank();
    for (cell, d) in [(1, 1), (2, 2), (10, 4), (11, 5), (19, 6), (20, 7)] {
        place_cell(&mut s, cell, d).unwrap();
    }
    s.propagate::<Narrow>(&mut Seen::blank()).unwrap();
    for r in 0..9 {
        assert_eq!(s.candidates(9 * r) & digit_bit(3) != 0, r < 3, "row {r}");
    }
    assert_ne!(s.candidates(28) & digit_bit(3), 0);
}

#[test]
fn emptied_cell_is_a_contradiction() {
    let mut s = Node::blank();
    for d in 1..=8u8 {
        place_cell(&mut s, d as usize, d).unwrap();
    }
    // Cell 0 can only be 9; a 9 in its column leaves it nothing.
    place_cell(&mut s, 9 * 5, 9).unwrap();
    assert_eq!(
        s.propagate::<Narrow>(&mut Seen::blank()),
        Err(Contradiction)
    );
}

#[test]
fn candidates_and_values_round_trip_through_to_grid() {
    let mut s = Node::blank();
    let line = HARD.as_bytes();
    for (cell, &ch) in line.iter().enumerate() {
        if ch != b'.' {
            place_cell(&mut s, cell, ch - b'0').unwrap();
        }
    }
    let g = s.to_grid();
    for (cell, &ch) in line.iter().enumerate() {
        let v = if ch == b'.' { 0 } else { ch - b'0' };
        assert_eq!(g.get(cell), v);
        assert_eq!(s.value(cell), v);
        assert_eq!(s.candidates(cell) == 0, v != 0);
    }
    assert_eq!(s.empty_count(), 81 - 17);
}

#[test]
fn branch_cell_picks_bivalue_cell_by_row_then_box() {
    let puzzles = [
        HARD,
        PLATINUM,
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        EASY,
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
        "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    ];
    /// Checks every node the search expands against a brute-force
    /// reading of the rule.
    struct Check {
        checked: u32,
    }
    impl crate::solver::Visitor for Check {
        fn enter(&mut self, s: &mut Node) -> crate::solver::Flow {
            let pairs_in_row = |r: usize| {
                (0..9)
                    .filter(|c| s.candidates(9 * r + c).count_ones() == 2)
                    .count()
            };
            let counts: Vec<usize> = (0..9).map(pairs_in_row).collect();
            let most = *counts.iter().max().unwrap();
            if most > 0 {
                self.checked += 1;
                // Boxes in order; in each, its first two-candidate
                // cell in a row with the most; the box with the most
                // empty cells wins, the first on a tie.
                let mut want = None;
                let mut want_empty = 0;
                for bx in 0..9 {
                    let cells = (0..9).map(|i| 27 * (bx / 3) + 9 * (i / 3) + 3 * (bx % 3) + i % 3);
                    let empty = cells.clone().filter(|&c| s.candidates(c) != 0).count();
                    let first = cells
                        .filter(|&c| counts[c / 9] == most)
                        .filter(|&c| s.candidates(c).count_ones() == 2)
                        .min();
                    if let Some(cell) = first {
                        if empty > want_empty {
                            want_empty = empty;
                            want = Some(cell);
                        }
                    }
                }
                let cell = want.unwrap();
                assert_eq!(
                    s.branch_cell::<Narrow>(0),
                    Some((cell / 27, (cell % 27) as u32))
                );
            }
            crate::solver::Flow::Continue
        }
        fn solution(&mut self, _: &Node) -> crate::solver::Flow {
            crate::solver::Flow::Continue
        }
    }
    let mut check = Check { checked: 0 };
    let mut solver = crate::solver::Solver::new();
    for line in puzzles {
        let puzzle = crate::parse::parse_line(line.as_bytes()).unwrap();
        solver.search(&puzzle, &mut check).unwrap();
    }
    let checked = check.checked;
    assert!(
        checked >= 20,
        "only {checked} nodes had two-candidate cells"
    );
}

#[test]
fn branch_cell_prefers_bivalue_then_fewest() {
    let mut s = Node::blank();
    for d in 1..=7u8 {
        place_cell(&mut s, d as usize + 1, d).unwrap();
    }
    // Cells 0 and 1 keep {8, 9}; cell 0 comes first.
    assert_eq!(s.branch_cell::<Narrow>(0), Some((0, 0)));
    assert_eq!(Node::blank().branch_cell::<Narrow>(0), Some((0, 0)));
    // Row 8 holds 1..6 in its first cells: cells 78..80 keep {7, 8, 9},
    // three candidates, fewer than anywhere else.
    let mut s = Node::blank();
    for d in 1..=6u8 {
        place_cell(&mut s, 71 + d as usize, d).unwrap();
    }
    assert_eq!(s.branch_cell::<Narrow>(0), Some((2, 78 - 54)));
}

/// The work list is complete: after a guess, propagating only the lanes
/// the placement reported reaches the same state (or the same dead end)
/// as checking every lane again, for every candidate of every open cell
/// of the root fixed points of a mixed corpus.
#[test]
fn work_list_propagation_matches_checking_everything() {
    let puzzles = crate::testdata::corpus::mixed_corpus(3, 24);
    let mut compared = 0;
    for puzzle in &puzzles {
        let mut root = Node::blank();
        if root.load(puzzle).is_err() || root.propagate::<Narrow>(&mut Seen::blank()).is_err() {
            continue;
        }
        for cell in 0..81 {
            let candidates = root.candidates(cell);
            for d in (0..9).filter(|d| candidates >> d & 1 == 1) {
                let (b, p) = (cell / 27, (cell % 27) as u32);
                let mut listed = root;
                let Ok(changed) = listed.place::<Narrow>(d, b, p) else {
                    continue;
                };
                let mut everything = listed;
                let mut seen = Seen::blank();
                seen.pending = changed;
                let a = listed.propagate::<Narrow>(&mut seen);
                let b = everything.propagate::<Narrow>(&mut Seen::blank());
                assert_eq!(a, b, "cell {cell} digit {}", d + 1);
                if a.is_ok() {
                    assert_eq!(
                        listed.bands,
                        everything.bands,
                        "cell {cell} digit {}",
                        d + 1
                    );
                    assert_eq!(listed.unsolved, everything.unsolved);
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "only {compared} placements compared");
}
