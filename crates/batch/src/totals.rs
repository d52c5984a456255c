//! Run totals: records per status and search counters, summed per batch
//! and over a run.

use std::ops::AddAssign;

use crate::output::{Expected, Row, Status};

/// Totals over a set of rows; summed per batch, then over the run.
///
/// A run returns them in its [`Report`](crate::Report).
///
/// # Example
/// ```
/// use batchdoku_batch::{Row, Status, Totals};
/// let mut totals = Totals::default();
/// let mut row = Row { status: Status::Unique, guesses: 3, ..Row::default() };
/// totals.add_row(&row);
/// row.status = Status::Duplicate; // counted, but left out of the output
/// totals.add_record(&row);
/// assert_eq!((totals.records, totals.rows), (2, 1));
/// assert_eq!(totals.count(Status::Unique), 1);
/// assert_eq!(totals.count(Status::Duplicate), 1);
/// assert_eq!(totals.guesses, 6);
///
/// let mut run = Totals::default();
/// run += totals; // a batch's totals into the run's
/// assert_eq!(run, totals);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Records read.
    pub records: u64,
    /// Rows written (= records, except for filters such as `dedupe`).
    pub rows: u64,
    /// Records per status, indexed by [`Status::ordinal`].
    pub by_status: [u64; Status::ALL.len()],
    /// Sum of guesses over all rows.
    pub guesses: u64,
    /// Sum of nodes over all rows.
    pub nodes: u64,
    /// Records whose answer disagrees with the input's expected solution.
    pub mismatches: u64,
    /// Records whose expected solution cell is not a complete grid.
    pub malformed_expected: u64,
}

impl Totals {
    /// Counts one record whose row was written.
    #[inline]
    pub fn add_row(&mut self, row: &Row) {
        self.add_record(row);
        self.rows += 1;
    }

    /// Counts one record whose row a filter left out (a `dedupe`
    /// duplicate, an `overlap` record with no leak).
    #[inline]
    pub fn add_record(&mut self, row: &Row) {
        self.records += 1;
        self.by_status[row.status.ordinal()] += 1;
        self.guesses += row.guesses;
        self.nodes += row.nodes;
        match row.expected {
            Some(Expected::Mismatch) => self.mismatches += 1,
            Some(Expected::Malformed) => self.malformed_expected += 1,
            _ => {}
        }
    }

    /// Rows with the given status.
    pub fn count(&self, status: Status) -> u64 {
        self.by_status[status.ordinal()]
    }
}

impl AddAssign for Totals {
    fn add_assign(&mut self, rhs: Totals) {
        self.records += rhs.records;
        self.rows += rhs.rows;
        for (a, b) in self.by_status.iter_mut().zip(rhs.by_status) {
            *a += b;
        }
        self.guesses += rhs.guesses;
        self.nodes += rhs.nodes;
        self.mismatches += rhs.mismatches;
        self.malformed_expected += rhs.malformed_expected;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_up() {
        let mut row = Row {
            status: Status::Unique,
            guesses: 3,
            ..Row::default()
        };
        let mut a = Totals::default();
        a.add_row(&row);
        a.add_row(&row);
        let mut b = Totals::default();
        row.status = Status::Invalid;
        row.guesses = 0;
        b.add_row(&row);
        row.status = Status::Duplicate;
        b.add_record(&row);
        row.expected = Some(Expected::Mismatch);
        b.add_row(&row);
        row.expected = Some(Expected::Malformed);
        b.add_row(&row);
        a += b;
        assert_eq!(a.records, 6);
        assert_eq!(a.rows, 5);
        assert_eq!((a.mismatches, a.malformed_expected), (1, 1));
        assert_eq!(a.count(Status::Duplicate), 3);
        assert_eq!(a.count(Status::Unique), 2);
        assert_eq!(a.count(Status::Invalid), 1);
        assert_eq!(a.guesses, 6);
    }
}
