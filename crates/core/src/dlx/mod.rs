//! A dancing-links (DLX) engine: Sudoku as an exact-cover problem, solved
//! by Knuth's Algorithm X on a sparse circular doubly linked matrix.
//!
//! It exists as an independent second engine: it shares no search code with
//! the bitmask [`Solver`](crate::Solver), so agreement between the two on
//! large corpora is strong evidence that both are right, and benchmarkers
//! get a classic reference point. Both implement [`Engine`], so callers can
//! swap them.
//!
//! The matrix has 729 rows (cell `r,c` holds digit `d`) and 324 columns
//! (each cell filled once; each digit once per row, per column and per box).
//! A given selects its own row up front. The search always branches on the
//! column with the fewest remaining rows (Knuth's S heuristic, found by a
//! vectorised blockwise scan of the column sizes that stops early once a
//! column of 0 or 1 rows turns up; see the `matrix` module), and is
//! iterative with a fixed 81-entry stack. Links are `u16` indices into arrays allocated once per
//! [`DlxSolver`]; each puzzle starts by copying a pristine set of links back,
//! so solving never touches the heap.

mod matrix;

use crate::engine::{Engine, Outcome, Stats};
use crate::grid::{Conflict, Grid, CELLS};
use matrix::{cell_digit_of, column_of, Choice, Links};

/// The dancing-links engine. Create one per worker and reuse it: the
/// matrix is built once in [`DlxSolver::new`] and only reset (copied back)
/// for each puzzle.
///
/// Counters in [`Stats`], as this engine defines them:
/// - `nodes`: column choices, i.e. partial covers where a column still had
///   to be chosen (a complete cover, i.e. a solution, is not a node; a
///   complete puzzle therefore takes 0 nodes);
/// - `guesses`: rows tried at a column that had 2 or more rows when it was
///   chosen (one per row tried there, including the first);
/// - `dead_ends`: column choices that found the chosen column empty;
/// - `stopped`: the search ended because `limit` solutions were found.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, DlxSolver, Engine};
/// let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let puzzle = parse_line(line.as_bytes()).unwrap();
/// let mut dlx = DlxSolver::new();
/// let outcome = dlx.count_solutions_up_to(&puzzle, 2).unwrap();
/// assert_eq!(outcome.solutions, 1);
/// assert!(outcome.solution.unwrap().solves(&puzzle));
/// // The same answer as the bitmask solver, found independently.
/// let mrv = batchdoku_core::Solver::new().count_solutions_up_to(&puzzle, 2).unwrap();
/// assert_eq!(outcome.solution, mrv.solution);
/// ```
pub struct DlxSolver {
    /// The full matrix, built once; copied into `work` for each puzzle.
    pristine: Box<Links>,
    /// The matrix being searched.
    work: Box<Links>,
    /// Selected row nodes on the current path (one per filled blank cell).
    stack: [u16; CELLS],
}

impl Default for DlxSolver {
    fn default() -> Self {
        DlxSolver::new()
    }
}

impl std::fmt::Debug for DlxSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DlxSolver")
    }
}

impl DlxSolver {
    /// An engine with its matrix built (the only allocation it ever makes).
    pub fn new() -> DlxSolver {
        let pristine = Box::new(Links::full());
        let work = pristine.clone();
        DlxSolver {
            pristine,
            work,
            stack: [0; CELLS],
        }
    }

    /// The grid made of `puzzle`'s givens plus the rows on the stack.
    fn current_grid(&self, puzzle: &Grid, depth: usize) -> Grid {
        let mut cells = *puzzle.cells();
        for &node in &self.stack[..depth] {
            let (cell, digit) = cell_digit_of(node);
            cells[cell] = digit;
        }
        Grid::from_cells(cells).unwrap_or(*puzzle)
    }

    /// Algorithm X over the current matrix, counting complete covers up to
    /// `limit` (at least 1).
    fn search(&mut self, puzzle: &Grid, limit: u64) -> (u64, Option<Grid>, Stats) {
        let mut stats = Stats::default();
        let mut count = 0u64;
        let mut first = None;
        let mut depth = 0usize;
        'search: loop {
            match self.work.smallest_column() {
                Choice::Complete => {
                    if count == 0 {
                        first = Some(self.current_grid(puzzle, depth));
                    }
                    count += 1;
                    if count >= limit {
                        stats.stopped = true;
                        break 'search;
                    }
                }
                Choice::Column(_, 0) => {
                    stats.nodes += 1;
                    stats.dead_ends += 1;
                }
                Choice::Column(column, size) => {
                    stats.nodes += 1;
                    if size >= 2 {
                        stats.guesses += 1;
                    }
                    self.work.cover(column);
                    let node = self.work.down(column);
                    self.stack[depth] = node;
                    depth += 1;
                    self.work.select_rest(node);
                    continue 'search;
                }
            }
            // Backtrack: move the deepest selection to the next row of its
            // column, or give the column back and go up one more level.
            loop {
                if depth == 0 {
                    break 'search;
                }
                depth -= 1;
                let node = self.stack[depth];
                self.work.deselect_rest(node);
                let column = column_of(node);
                let next = self.work.down(node);
                if next != column {
                    // A second or later row: the column had 2+ rows.
                    stats.guesses += 1;
                    self.stack[depth] = next;
                    depth += 1;
                    self.work.select_rest(next);
                    continue 'search;
                }
                self.work.uncover(column);
            }
        }
        (count, first, stats)
    }
}

impl Engine for DlxSolver {
    /// Counts solutions up to `limit` (0 counts as 1), keeping the first.
    /// Givens repeating a digit in a unit give `Err` without searching.
    fn count_solutions_up_to(&mut self, puzzle: &Grid, limit: u64) -> Result<Outcome, Conflict> {
        if let Some(conflict) = puzzle.first_conflict() {
            return Err(conflict);
        }
        self.work.reset_from(&self.pristine);
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                self.work.select_given(cell, digit);
            }
        }
        let (solutions, solution, stats) = self.search(puzzle, limit.max(1));
        Ok(Outcome {
            solutions,
            solution,
            stats,
        })
    }
}

#[cfg(test)]
mod tests;
