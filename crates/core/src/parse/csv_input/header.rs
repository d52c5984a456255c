//! Header detection and the layout of a CSV input: which column holds
//! the puzzles and which the expected solutions, from the header's names
//! or, without one, from what the first records hold.

use std::cmp::Reverse;

use super::record::CsvRecord;
use super::ExpectedColumn;
use crate::parse::parse_line;

/// Header names (case-insensitive) of a puzzle column.
const PUZZLE_NAMES: [&[u8]; 5] = [b"quizzes", b"quiz", b"puzzle", b"puzzles", b"question"];
/// Header names (case-insensitive) of a solution column, most telling
/// first: `solution` names a grid, `solutions` is also what `solve`
/// writes for its count.
pub(crate) const SOLUTION_NAMES: [&[u8]; 4] = [b"solution", b"answer", b"solutions", b"answers"];

fn is_one_of(name: &[u8], names: &[&[u8]]) -> bool {
    names.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// True when `name` (already unquoted) names a puzzle column.
pub(crate) fn is_puzzle_header(name: &[u8]) -> bool {
    is_one_of(name, &PUZZLE_NAMES)
}

/// What the first records of a file hold, column by column, to find its
/// puzzle column when no header names it.
#[derive(Debug, Default)]
pub(crate) struct ColumnStats {
    /// Records summed up.
    records: u32,
    /// `grids[i]`: records whose field `i` is a grid.
    grids: Vec<u32>,
    /// `complete[i]`: records whose field `i` is a complete grid.
    complete: Vec<u32>,
    /// `filled[i]`: records whose field `i` is not empty.
    filled: Vec<u32>,
}

impl ColumnStats {
    /// Sums up one record.
    pub(crate) fn add(&mut self, rec: &CsvRecord) {
        self.records += 1;
        if self.filled.len() < rec.len() {
            self.filled.resize(rec.len(), 0);
        }
        for i in 0..rec.len() {
            let Some((field, _)) = rec.field(i) else {
                continue;
            };
            self.filled[i] += u32::from(!field.is_empty());
            let Ok(grid) = parse_line(field) else {
                continue;
            };
            if self.grids.len() <= i {
                self.grids.resize(i + 1, 0);
                self.complete.resize(i + 1, 0);
            }
            self.grids[i] += 1;
            self.complete[i] += u32::from(grid.is_complete());
        }
    }

    /// The column holding the most puzzles (grids with blanks: a column
    /// of complete grids is more likely solutions), then the most grids,
    /// then the leftmost; `None` when none holds a grid.
    pub(crate) fn puzzle_column(&self) -> Option<usize> {
        (0..self.grids.len())
            .filter(|&i| self.grids[i] > 0)
            .max_by_key(|&i| {
                let puzzles = self.grids[i] - self.complete[i];
                (puzzles, self.grids[i], Reverse(i))
            })
    }

    /// True when column `i` holds grids, by [`holds_grids`].
    pub(crate) fn holds_grids(&self, i: usize) -> bool {
        let grids = self.grids.get(i).copied().unwrap_or(0);
        let filled = self.filled.get(i).copied().unwrap_or(0);
        holds_grids(grids, filled)
    }

    /// A column other than `puzzle` holding a complete grid in more than
    /// half of the records (the one with the most; on a tie the leftmost).
    pub(crate) fn solution_column(&self, puzzle: usize) -> Option<usize> {
        (0..self.complete.len())
            .filter(|&i| i != puzzle && 2 * self.complete[i] > self.records)
            .max_by_key(|&i| (self.complete[i], Reverse(i)))
    }
}

/// The one rule for whether a column's (or key's) sampled values are
/// grids: at least half of the non-empty ones are, so a column of counts,
/// ids or ratings never is, and one whose sampled cells are all empty may
/// be.
pub(crate) fn holds_grids(grids: u32, filled: u32) -> bool {
    2 * grids >= filled
}

/// Which fields of a row hold the puzzle and the expected solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CsvLayout {
    /// 0-based field of the puzzle.
    pub(crate) puzzle: usize,
    /// 0-based field of the expected solution, when there is one.
    pub(crate) expected: Option<usize>,
}

impl CsvLayout {
    /// The layout named by a header record, with `stats` summing up the
    /// records after it: the puzzle column is `column` when given (an
    /// error when the header has no such name), else the first with a
    /// known puzzle name, else the column that holds puzzles in the
    /// records, else the first. The expected solutions are where
    /// `expected` says (see [`expected_column`]).
    pub(crate) fn from_header(
        header: &CsvRecord,
        column: Option<&str>,
        expected: &ExpectedColumn,
        stats: &ColumnStats,
    ) -> Result<CsvLayout, String> {
        let names = header.names();
        let puzzle_pos = header_puzzle(&names, column)?;
        let puzzle = puzzle_pos.or(stats.puzzle_column()).unwrap_or(0);
        let expected = expected_column(&names, puzzle, expected, |i| stats.holds_grids(i))?;
        Ok(CsvLayout { puzzle, expected })
    }

    /// The layout of a headerless file from what its first records hold:
    /// the puzzle column is the one that holds puzzles, and (unless
    /// `expected` is [`ExpectedColumn::Ignore`]) a column of complete
    /// grids in most records holds the expected solutions. `None` when no
    /// column holds a grid.
    pub(crate) fn headerless(stats: &ColumnStats, expected: &ExpectedColumn) -> Option<CsvLayout> {
        let puzzle = stats.puzzle_column()?;
        Some(CsvLayout {
            puzzle,
            expected: match expected {
                ExpectedColumn::Ignore => None,
                _ => stats.solution_column(puzzle),
            },
        })
    }
}

/// The puzzle column a header names: `column` when given (an error when
/// there is no such name), else the first with a known puzzle name;
/// `None` when it names none.
pub(crate) fn header_puzzle(
    names: &[&[u8]],
    column: Option<&str>,
) -> Result<Option<usize>, String> {
    match column {
        Some(wanted) => named_column(names, wanted).map(Some),
        None => Ok(names.iter().position(|n| is_puzzle_header(n))),
    }
}

/// The position of the column named `wanted` (case-insensitive) among
/// `names`, or an error that lists the names there are.
pub(crate) fn named_column(names: &[&[u8]], wanted: &str) -> Result<usize, String> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(wanted.as_bytes()))
        .ok_or_else(|| {
            let names: Vec<String> = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            format!(
                "no column '{wanted}' in the input's header (columns: {})",
                names.join(", ")
            )
        })
}

/// The expected-solution column among `names` (CSV header fields or
/// JSONL keys), by one rule for every input: a column is one only when it
/// is named as one ([`SOLUTION_NAMES`], in that order of preference) and
/// `holds_grids` says its values are grids, so a `solutions` column of
/// counts (what `solve` writes) never is; never the puzzle's column.
/// [`ExpectedColumn::Named`] takes that column whatever it holds (an
/// error when there is none, or when it is the puzzle's).
pub(crate) fn expected_column(
    names: &[&[u8]],
    puzzle: usize,
    expected: &ExpectedColumn,
    holds_grids: impl Fn(usize) -> bool,
) -> Result<Option<usize>, String> {
    match expected {
        ExpectedColumn::Ignore => Ok(None),
        ExpectedColumn::Named(wanted) => {
            let i = named_column(names, wanted)?;
            if i == puzzle {
                return Err(format!(
                    "the expected-solution column '{wanted}' is the puzzle column"
                ));
            }
            Ok(Some(i))
        }
        ExpectedColumn::Detect => Ok(SOLUTION_NAMES.iter().find_map(|want| {
            names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(want))
                .filter(|&i| i != puzzle && holds_grids(i))
        })),
    }
}
