//! The constant-memory aggregate behind a report: fixed arrays of counts
//! fed one [`Row`] at a time, merged with commutative sums (and, for the
//! first errors, a minimum by record index), so that the result does not
//! depend on which worker saw which row, nor on the thread count.
//!
//! Memory does not grow with the input: the givens and log-scaled search
//! counters are fixed arrays, the first errors are capped at
//! [`ERRORS_SHOWN`], and the best-score histogram keeps at most
//! [`SCORE_BUCKETS`] buckets, doubling their width when it would need more.

use std::collections::BTreeMap;

use crate::{Expected, Row, Status};
use batchdoku_core::Grid;

use super::ratings::{ErTally, Outcome};

/// The first invalid records a report lists (the rest are counted).
pub const ERRORS_SHOWN: usize = 20;

/// Most buckets the best-score histogram keeps before it halves its
/// resolution.
pub const SCORE_BUCKETS: usize = 4096;

/// Number of log-scaled bins of a `u64` counter: 0, then `[2^(k-1), 2^k)`
/// for k = 1..=64.
pub const LOG_BINS: usize = 65;

/// The log-scaled bin of `n`: 0 for 0, else `k` with `2^(k-1) <= n < 2^k`.
#[inline]
pub fn log_bin(n: u64) -> usize {
    (u64::BITS - n.leading_zeros()) as usize
}

/// The smallest and largest value of log-scaled bin `k`.
pub fn log_bin_range(k: usize) -> (u64, u64) {
    match k {
        0 => (0, 0),
        64 => (1 << 63, u64::MAX),
        k => (1 << (k - 1), (1 << k) - 1),
    }
}

/// An invalid record noted for the report: its number in the run, its
/// line, and its error text as rows carry it (`input:line: message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorNote {
    /// 1-based record number in the run.
    pub index: u64,
    /// Line in its input.
    pub line: u64,
    /// The input's name.
    pub input: String,
    /// The row's error text (without its position).
    pub text: String,
}

/// The first problem records of the audit an expected-solution column
/// makes, per kind, that a report lists (the rest are counted).
pub const AUDIT_SHOWN: usize = 10;

/// A record whose expected solution is wrong or malformed, noted for the
/// report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditNote {
    /// 1-based record number in the run.
    pub index: u64,
    /// Line in its input.
    pub line: u64,
    /// The input's name.
    pub input: String,
    /// The puzzle as read (81 characters, `.` for a blank).
    pub puzzle: String,
    /// The expected solution as a grid (81 characters), when it is one.
    pub given: Option<String>,
    /// Why it is not the puzzle's solution.
    pub why: String,
}

/// The expected-solution audit: rows by their `expected` value (as
/// `solve`'s `expected` column gives it) and the first problem rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditTally {
    /// `expected = match`.
    pub matched: u64,
    /// `expected = mismatch`.
    pub mismatched: u64,
    /// `expected = malformed`.
    pub malformed: u64,
    /// No `expected` value: no expected solution, or an invalid puzzle.
    pub unchecked: u64,
    /// The first mismatches, by record index (at most [`AUDIT_SHOWN`]).
    pub mismatches: Vec<AuditNote>,
    /// The first malformed expected solutions, likewise.
    pub malformed_notes: Vec<AuditNote>,
}

impl AuditTally {
    /// Counts one finished row's `expected` value.
    pub fn add(&mut self, expected: Option<Expected>) {
        match expected {
            Some(Expected::Match) => self.matched += 1,
            Some(Expected::Mismatch) => self.mismatched += 1,
            Some(Expected::Malformed) => self.malformed += 1,
            None => self.unchecked += 1,
        }
    }

    /// Keeps a problem row of `kind` if it is among the first
    /// [`AUDIT_SHOWN`] of its kind; `note` is called only then.
    pub fn note(&mut self, kind: Expected, index: u64, note: impl FnOnce() -> AuditNote) {
        let notes = match kind {
            Expected::Mismatch => &mut self.mismatches,
            Expected::Malformed => &mut self.malformed_notes,
            _ => return,
        };
        if notes.len() == AUDIT_SHOWN && notes.last().is_some_and(|e| e.index < index) {
            return;
        }
        let at = notes.partition_point(|e| e.index < index);
        notes.insert(at, note());
        notes.truncate(AUDIT_SHOWN);
    }

    /// Adds another tally's counts and notes.
    pub fn merge(&mut self, other: AuditTally) {
        self.matched += other.matched;
        self.mismatched += other.mismatched;
        self.malformed += other.malformed;
        self.unchecked += other.unchecked;
        for (mine, theirs) in [
            (&mut self.mismatches, other.mismatches),
            (&mut self.malformed_notes, other.malformed_notes),
        ] {
            mine.extend(theirs);
            mine.sort_by_key(|e| e.index);
            mine.truncate(AUDIT_SHOWN);
        }
    }
}

/// The best-score histogram: counts per bucket of `2^shift` scores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreHistogram {
    /// log2 of the bucket width.
    pub shift: u32,
    /// Count per bucket, keyed by `score >> shift`.
    pub buckets: BTreeMap<i64, u64>,
    /// Scores counted.
    pub count: u64,
    /// Sum of the scores.
    pub sum: i128,
    /// Smallest score (meaningful when `count > 0`).
    pub min: i64,
    /// Largest score (meaningful when `count > 0`).
    pub max: i64,
}

impl ScoreHistogram {
    /// Counts one score.
    pub fn add(&mut self, score: i64) {
        if self.count == 0 {
            self.min = score;
            self.max = score;
        } else {
            self.min = self.min.min(score);
            self.max = self.max.max(score);
        }
        self.count += 1;
        self.sum += i128::from(score);
        *self.buckets.entry(score >> self.shift).or_insert(0) += 1;
        while self.buckets.len() > SCORE_BUCKETS {
            self.coarsen();
        }
    }

    /// Doubles the bucket width.
    fn coarsen(&mut self) {
        let mut wider = BTreeMap::new();
        for (&key, &n) in &self.buckets {
            *wider.entry(key >> 1).or_insert(0) += n;
        }
        self.buckets = wider;
        self.shift += 1;
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, mut other: ScoreHistogram) {
        if other.count == 0 {
            return;
        }
        if self.count == 0 {
            *self = other;
            return;
        }
        while self.shift < other.shift {
            self.coarsen();
        }
        while other.shift < self.shift {
            other.coarsen();
        }
        for (key, n) in other.buckets {
            *self.buckets.entry(key).or_insert(0) += n;
        }
        while self.buckets.len() > SCORE_BUCKETS {
            self.coarsen();
        }
        self.count += other.count;
        self.sum += other.sum;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// About `target` equal-width bins `(low, high, count)` covering
    /// `min..=max`, each a whole number of buckets wide (exact when the
    /// buckets are single scores). Empty when nothing was counted.
    pub fn bins(&self, target: usize) -> Vec<(i64, i64, u64)> {
        if self.count == 0 {
            return Vec::new();
        }
        let span = (i128::from(self.max) - i128::from(self.min) + 1) as u128;
        let bucket = 1u128 << self.shift;
        let mut width = span.div_ceil(target.max(1) as u128).max(1);
        width = width.div_ceil(bucket) * bucket;
        // Start on a bucket boundary so that no bucket straddles two bins.
        let start = i128::from(self.min >> self.shift) << self.shift;
        let n = ((i128::from(self.max) - start) as u128 / width + 1) as usize;
        let mut bins: Vec<(i64, i64, u64)> = (0..n)
            .map(|i| {
                let low = start + (i as u128 * width) as i128;
                let high = low + width as i128 - 1;
                (clamp(low), clamp(high), 0)
            })
            .collect();
        for (&key, &count) in &self.buckets {
            let low = i128::from(key) << self.shift;
            let i = ((low - start) as u128 / width) as usize;
            bins[i.min(n - 1)].2 += count;
        }
        if let Some(first) = bins.first_mut() {
            first.0 = first.0.max(self.min);
        }
        if let Some(last) = bins.last_mut() {
            last.1 = last.1.min(self.max);
        }
        bins
    }
}

fn clamp(v: i128) -> i64 {
    v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Everything a report counts, for one worker or for the whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aggregate {
    /// Records read.
    pub records: u64,
    /// Records per status, indexed by [`Status::ordinal`].
    pub by_status: [u64; Status::ALL.len()],
    /// The first invalid records, by record index (at most
    /// [`ERRORS_SHOWN`]).
    pub errors: Vec<ErrorNote>,
    /// Valid records per number of givens.
    pub givens: [u64; Grid::CELLS + 1],
    /// Unique puzzles per number of givens.
    pub unique_by_givens: [u64; Grid::CELLS + 1],
    /// Unique puzzles solved by singles alone, per number of givens.
    pub singles_by_givens: [u64; Grid::CELLS + 1],
    /// Valid records per log-scaled bin of guesses.
    pub guesses: [u64; LOG_BINS],
    /// Valid records per log-scaled bin of backtracks.
    pub backtracks: [u64; LOG_BINS],
    /// Sum of guesses over valid records.
    pub guesses_sum: u64,
    /// Sum of backtracks over valid records.
    pub backtracks_sum: u64,
    /// Best scores, when scored.
    pub scores: ScoreHistogram,
    /// Rating outcomes, when the report has ratings.
    pub ratings: ErTally,
    /// The expected-solution audit (counted for every run; shown when an
    /// input has an expected-solution column).
    pub audit: AuditTally,
}

impl Default for Aggregate {
    fn default() -> Self {
        Aggregate {
            records: 0,
            by_status: [0; Status::ALL.len()],
            errors: Vec::new(),
            givens: [0; Grid::CELLS + 1],
            unique_by_givens: [0; Grid::CELLS + 1],
            singles_by_givens: [0; Grid::CELLS + 1],
            guesses: [0; LOG_BINS],
            backtracks: [0; LOG_BINS],
            guesses_sum: 0,
            backtracks_sum: 0,
            scores: ScoreHistogram::default(),
            ratings: ErTally::default(),
            audit: AuditTally::default(),
        }
    }
}

impl Aggregate {
    /// Counts one finished row (its error already names input and line).
    pub fn add(&mut self, row: &Row) {
        self.records += 1;
        self.by_status[row.status.ordinal()] += 1;
        self.audit.add(row.expected);
        match row.status {
            Status::Invalid => self.note_error(row),
            Status::Unique | Status::Multiple | Status::Unsolvable => {
                let givens = row.puzzle.map_or(0, |p| p.given_count());
                self.givens[givens] += 1;
                self.guesses[log_bin(row.guesses)] += 1;
                self.backtracks[log_bin(row.backtracks)] += 1;
                self.guesses_sum += row.guesses;
                self.backtracks_sum += row.backtracks;
                if row.status == Status::Unique {
                    self.unique_by_givens[givens] += 1;
                    if row.singles == Some(true) {
                        self.singles_by_givens[givens] += 1;
                    }
                }
                if let Some(score) = row.score {
                    self.scores.add(score);
                }
            }
            _ => {}
        }
    }

    /// Counts one valid puzzle's rating outcome.
    pub fn add_rating(&mut self, outcome: Outcome) {
        self.ratings.add(outcome);
    }

    /// Keeps the error of `row` if it is among the first
    /// [`ERRORS_SHOWN`]; allocates only then.
    fn note_error(&mut self, row: &Row) {
        if self.errors.len() == ERRORS_SHOWN
            && self.errors.last().is_some_and(|e| e.index < row.index)
        {
            return;
        }
        let at = self.errors.partition_point(|e| e.index < row.index);
        self.errors.insert(
            at,
            ErrorNote {
                index: row.index,
                line: row.line,
                input: row.source.to_string(),
                text: row.error.clone(),
            },
        );
        self.errors.truncate(ERRORS_SHOWN);
    }

    /// Adds another aggregate's counts.
    pub fn merge(&mut self, other: Aggregate) {
        self.records += other.records;
        add_arrays(&mut self.by_status, &other.by_status);
        add_arrays(&mut self.givens, &other.givens);
        add_arrays(&mut self.unique_by_givens, &other.unique_by_givens);
        add_arrays(&mut self.singles_by_givens, &other.singles_by_givens);
        add_arrays(&mut self.guesses, &other.guesses);
        add_arrays(&mut self.backtracks, &other.backtracks);
        self.guesses_sum += other.guesses_sum;
        self.backtracks_sum += other.backtracks_sum;
        self.scores.merge(other.scores);
        self.ratings.merge(&other.ratings);
        self.audit.merge(other.audit);
        self.errors.extend(other.errors);
        self.errors.sort_by_key(|e| e.index);
        self.errors.truncate(ERRORS_SHOWN);
    }

    /// Records with `status`.
    pub fn count(&self, status: Status) -> u64 {
        self.by_status[status.ordinal()]
    }

    /// Records with valid givens (unique, multiple or unsolvable).
    pub fn valid(&self) -> u64 {
        self.count(Status::Unique) + self.count(Status::Multiple) + self.count(Status::Unsolvable)
    }
}

fn add_arrays(a: &mut [u64], b: &[u64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::Grid;

    #[test]
    fn log_bins_cover_every_value_once() {
        assert_eq!(log_bin(0), 0);
        assert_eq!(log_bin(1), 1);
        assert_eq!(log_bin(2), 2);
        assert_eq!(log_bin(3), 2);
        assert_eq!(log_bin(4), 3);
        assert_eq!(log_bin(u64::MAX), 64);
        for n in (0..5000).chain([u64::MAX, 1 << 63, (1 << 63) - 1]) {
            let (lo, hi) = log_bin_range(log_bin(n));
            assert!(lo <= n && n <= hi, "{n} outside bin {lo}..={hi}");
        }
        for k in 1..LOG_BINS {
            assert_eq!(log_bin_range(k).0, log_bin_range(k - 1).1 + 1);
        }
    }

    fn row(index: u64, status: Status, guesses: u64) -> Row {
        let mut puzzle = Grid::default();
        for cell in 0..(index as usize % 30) {
            puzzle.set(cell, 1 + (cell % 9) as u8);
        }
        Row {
            index,
            line: index + 1,
            puzzle: (status != Status::Invalid).then_some(puzzle),
            status,
            guesses,
            backtracks: guesses / 2,
            singles: Some(guesses == 0),
            score: (status == Status::Unique).then_some(index as i64 * 7 - 300),
            error: if status == Status::Invalid {
                format!("in:{}: bad", index + 1)
            } else {
                String::new()
            },
            ..Row::default()
        }
    }

    /// Split any way among workers and merged in any order, the rows
    /// give the aggregate of one worker that saw them all in order.
    #[test]
    fn merging_does_not_depend_on_the_split() {
        let statuses = [
            Status::Unique,
            Status::Invalid,
            Status::Multiple,
            Status::Unsolvable,
            Status::Unique,
        ];
        let rows: Vec<Row> = (1..=500u64)
            .map(|i| row(i, statuses[(i * 7 % 5) as usize], i * i % 97))
            .collect();
        let mut whole = Aggregate::default();
        rows.iter().for_each(|r| whole.add(r));
        for parts in [2, 3, 7] {
            let mut shards = vec![Aggregate::default(); parts];
            for (i, r) in rows.iter().enumerate().rev() {
                shards[(i * 31) % parts].add(r);
            }
            let mut merged = Aggregate::default();
            for s in shards.into_iter().rev() {
                merged.merge(s);
            }
            assert_eq!(merged, whole, "{parts} parts");
        }
        assert_eq!(whole.records, 500);
        assert_eq!(whole.errors.len(), ERRORS_SHOWN);
        assert!(whole.errors.windows(2).all(|w| w[0].index < w[1].index));
        assert_eq!(whole.givens.iter().sum::<u64>(), whole.valid());
        assert_eq!(whole.guesses.iter().sum::<u64>(), whole.valid());
    }

    #[test]
    fn score_bins_are_exact_and_coarsen_past_the_cap() {
        let mut h = ScoreHistogram::default();
        assert!(h.bins(20).is_empty());
        for s in [-5i64, -5, 0, 3, 14] {
            h.add(s);
        }
        let bins = h.bins(20);
        assert_eq!(bins.first().unwrap().0, -5);
        assert_eq!(bins.last().unwrap().1, 14);
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 5);
        assert_eq!(bins.iter().find(|b| b.0 == -5).unwrap().2, 2);
        // Many distinct scores: the buckets widen, the totals stay.
        let mut wide = ScoreHistogram::default();
        let mut halves = [ScoreHistogram::default(), ScoreHistogram::default()];
        for s in 0..20_000i64 {
            wide.add(s * 3 - 9_000);
            halves[(s % 2) as usize].add(s * 3 - 9_000);
        }
        assert!(wide.shift > 0 && wide.buckets.len() <= SCORE_BUCKETS);
        let [a, b] = halves;
        let mut merged = a;
        merged.merge(b);
        assert_eq!(merged.count, wide.count);
        assert_eq!(merged.sum, wide.sum);
        let bins = merged.bins(20);
        assert!(bins.len() <= 21, "{}", bins.len());
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 20_000);
        assert_eq!((bins[0].0, bins.last().unwrap().1), (-9_000, 50_997));
        // One score: one bin.
        let mut one = ScoreHistogram::default();
        one.add(i64::MAX);
        assert_eq!(one.bins(20), vec![(i64::MAX, i64::MAX, 1)]);
    }
}
