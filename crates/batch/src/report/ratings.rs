//! The report's ER distribution: where each puzzle's rating comes from
//! (the input's `er` and `status` columns, as `batchdoku rate` writes
//! them, or [`RateJob`] run by the report itself with `--rate`), and the
//! constant-memory tally of the outcomes. A puzzle without a rating is
//! counted as such, never as ER 0.

use serde::Serialize;

use crate::{Job, RateJob, Row, Status};
use batchdoku_core::{Grid, Record};

/// ER values a tally tells apart: every `u8` of tenths (0.0 to 25.5).
pub const ER_VALUES: usize = 256;

/// Where a report's ratings come from.
#[derive(Clone, Copy, Debug)]
pub enum RatingSource {
    /// The input's columns: the kept field holding `er`, and the one
    /// holding `status` when the input has it.
    Columns {
        /// Kept field of `er`.
        er: usize,
        /// Kept field of `status`.
        status: Option<usize>,
    },
    /// The report rates each puzzle itself (`--rate`).
    Rate(RateJob),
}

impl RatingSource {
    /// The source's name in the JSON report: `columns` or `rate`.
    pub fn name(&self) -> &'static str {
        match self {
            RatingSource::Columns { .. } => "columns",
            RatingSource::Rate(_) => "rate",
        }
    }

    /// The source the input's kept column `names` offer: `er` (and
    /// `status`), matched without regard to case; `None` without `er`.
    pub fn from_columns(names: &[String]) -> Option<RatingSource> {
        let find = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
        Some(RatingSource::Columns {
            er: find("er")?,
            status: find("status"),
        })
    }
}

/// What a puzzle's rating says, as the report counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Rated: ER in tenths.
    Rated(u8),
    /// The rater's budget ran out (`limit`).
    Limit,
    /// Two solutions or more: no rating.
    Multiple,
    /// No solution: no rating.
    Unsolvable,
    /// No rating given (an empty or unreadable `er`, another status).
    Unrated,
}

/// The outcome the input's columns give: the `status` column when it says
/// `limit`, `multiple` or `unsolvable`; else the `er` column's value
/// (one decimal) when it reads as one; else unrated.
pub fn outcome_of_columns(record: &Record, er: usize, status: Option<usize>) -> Outcome {
    let said = status.map(|i| record.kept_text(i));
    match said.as_deref().map(<[u8]>::trim_ascii) {
        Some(b"limit") => return Outcome::Limit,
        Some(b"multiple") => return Outcome::Multiple,
        Some(b"unsolvable") => return Outcome::Unsolvable,
        Some(b"rated") | None => {}
        Some(_) => return Outcome::Unrated,
    }
    tenths(&record.kept_text(er)).map_or(Outcome::Unrated, Outcome::Rated)
}

/// A rating's text (`7.1`, `10`, `2.30`) in tenths; `None` when it is not
/// a number from 0 to 25.5 with at most one significant decimal.
pub fn tenths(text: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(text).ok()?.trim();
    let value: f64 = text.parse().ok()?;
    let scaled = value * 10.0;
    let rounded = scaled.round();
    let whole = (0.0..=255.0).contains(&rounded) && (scaled - rounded).abs() < 1e-6;
    whole.then_some(rounded as u8)
}

/// The outcome of rating `puzzle` with `job` (whose statuses mirror the
/// solve's), using `row` as scratch.
pub fn outcome_of_rating(
    job: &RateJob,
    scratch: &mut <RateJob as Job>::Scratch,
    puzzle: &Grid,
    record: &Record,
    row: &mut Row,
) -> Outcome {
    row.reset(row.index, row.line);
    job.process(scratch, puzzle, record, row);
    match (row.status, &row.ratings) {
        (Status::Rated, Some(r)) => Outcome::Rated(r.er),
        (Status::Limit, _) => Outcome::Limit,
        (Status::Multiple, _) => Outcome::Multiple,
        (Status::Unsolvable, _) => Outcome::Unsolvable,
        _ => Outcome::Unrated,
    }
}

/// Counts of outcomes and rated puzzles per ER value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErTally {
    /// Rated puzzles per ER in tenths.
    pub by_er: [u64; ER_VALUES],
    /// Puzzles whose budget ran out.
    pub limit: u64,
    /// Puzzles with several solutions.
    pub multiple: u64,
    /// Puzzles with none.
    pub unsolvable: u64,
    /// Puzzles with no rating given.
    pub unrated: u64,
}

impl Default for ErTally {
    fn default() -> Self {
        ErTally {
            by_er: [0; ER_VALUES],
            limit: 0,
            multiple: 0,
            unsolvable: 0,
            unrated: 0,
        }
    }
}

impl ErTally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Rated(er) => self.by_er[usize::from(er)] += 1,
            Outcome::Limit => self.limit += 1,
            Outcome::Multiple => self.multiple += 1,
            Outcome::Unsolvable => self.unsolvable += 1,
            Outcome::Unrated => self.unrated += 1,
        }
    }

    /// Adds another tally's counts.
    pub fn merge(&mut self, other: &ErTally) {
        for (a, b) in self.by_er.iter_mut().zip(other.by_er) {
            *a += b;
        }
        self.limit += other.limit;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.unrated += other.unrated;
    }

    /// The summary a report shows, its ratings from `source`.
    pub fn summary(&self, source: &'static str) -> ErSummary {
        let rated: u64 = self.by_er.iter().sum();
        let sum: u64 = (0u64..).zip(self.by_er).map(|(er, n)| er * n).sum::<u64>();
        let first = self.by_er.iter().position(|&n| n > 0);
        let last = self.by_er.iter().rposition(|&n| n > 0);
        let bins = match (first, last) {
            (Some(lo), Some(hi)) => (lo..=hi)
                .map(|er| ErBin {
                    er: er as f64 / 10.0,
                    puzzles: self.by_er[er],
                })
                .collect(),
            _ => Vec::new(),
        };
        ErSummary {
            source,
            rated,
            limit: self.limit,
            multiple: self.multiple,
            unsolvable: self.unsolvable,
            unrated: self.unrated,
            mean: (rated > 0).then(|| sum as f64 / rated as f64 / 10.0),
            bins,
        }
    }
}

/// The ER distribution as a report states it.
#[derive(Clone, Debug, Serialize)]
pub struct ErSummary {
    /// Where the ratings come from: `columns` (the input's `er`) or
    /// `rate` (`--rate`).
    pub source: &'static str,
    /// Puzzles with a rating.
    pub rated: u64,
    /// Puzzles whose rating ran out of budget (`limit`).
    pub limit: u64,
    /// Puzzles with several solutions (no rating).
    pub multiple: u64,
    /// Puzzles with no solution (no rating).
    pub unsolvable: u64,
    /// Valid puzzles without a rating in the input.
    pub unrated: u64,
    /// Mean ER of the rated puzzles (`None` when none is rated).
    pub mean: Option<f64>,
    /// Rated puzzles per ER, in steps of 0.1 from the lowest ER seen to
    /// the highest.
    pub bins: Vec<ErBin>,
}

/// Rated puzzles with one ER.
#[derive(Clone, Debug, Serialize)]
pub struct ErBin {
    /// The ER (one decimal).
    pub er: f64,
    /// Rated puzzles with that ER.
    pub puzzles: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_read_as_tenths() {
        assert_eq!(tenths(b"7.1"), Some(71));
        assert_eq!(tenths(b" 10 "), Some(100));
        assert_eq!(tenths(b"2.30"), Some(23));
        assert_eq!(tenths(b"0"), Some(0));
        for bad in [&b""[..], b"x", b"-1.0", b"2.35", b"30.0", b"nan"] {
            assert_eq!(tenths(bad), None, "{bad:?}");
        }
    }

    fn record(fields: &[&str]) -> Record {
        let mut r = Record::default();
        for f in fields {
            r.kept.extend_from_slice(f.as_bytes());
            r.kept_ends.push(r.kept.len() as u32);
        }
        r
    }

    #[test]
    fn columns_give_outcomes_and_blanks_are_not_zero() {
        let of = |status: &str, er: &str| outcome_of_columns(&record(&[status, er]), 1, Some(0));
        assert_eq!(of("rated", "4.5"), Outcome::Rated(45));
        assert_eq!(of("limit", ""), Outcome::Limit);
        assert_eq!(of("multiple", ""), Outcome::Multiple);
        assert_eq!(of("unsolvable", ""), Outcome::Unsolvable);
        assert_eq!(of("rated", ""), Outcome::Unrated);
        assert_eq!(of("invalid", ""), Outcome::Unrated);
        // Without a status column the `er` value alone decides.
        let bare = |er: &str| outcome_of_columns(&record(&[er]), 0, None);
        assert_eq!(bare("1.2"), Outcome::Rated(12));
        assert_eq!(bare(""), Outcome::Unrated);
    }

    #[test]
    fn tallies_merge_and_summarize() {
        let outcomes = [
            Outcome::Rated(23),
            Outcome::Rated(12),
            Outcome::Rated(23),
            Outcome::Limit,
            Outcome::Multiple,
            Outcome::Unrated,
        ];
        let mut whole = ErTally::default();
        let mut parts = [ErTally::default(), ErTally::default()];
        for (i, &o) in outcomes.iter().enumerate() {
            whole.add(o);
            parts[i % 2].add(o);
        }
        let mut merged = ErTally::default();
        parts.iter().for_each(|p| merged.merge(p));
        assert_eq!(merged, whole);
        let s = whole.summary("columns");
        assert_eq!((s.rated, s.limit, s.multiple, s.unrated), (3, 1, 1, 1));
        assert_eq!(s.bins.len(), 12, "1.2 to 2.3 in steps of 0.1");
        assert_eq!((s.bins[0].er, s.bins[0].puzzles), (1.2, 1));
        assert_eq!((s.bins[11].er, s.bins[11].puzzles), (2.3, 2));
        assert!((s.mean.unwrap() - (1.2 + 2.3 + 2.3) / 3.0).abs() < 1e-9);
        assert_eq!(ErTally::default().summary("rate").mean, None);
    }
}
