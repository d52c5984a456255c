//! `overlap`: finds test records equivalent to some training record (a
//! train/test leak). The training pass fills a [`ClassMap`] with, per
//! class, the first training line; the test pass writes a row for every
//! test record whose class is there. Invalid records of either input get
//! their row, in place, as everywhere.

use super::canon::{class_of, Equivalence};
use super::classes::ClassMap;
use crate::canon::Canonicalizer;
use crate::grid::Grid;
use crate::output::{Column, Row, Status, OVERLAP_COLUMNS};
use crate::parse::Record;
use crate::pipeline::Job;

/// Which input an [`OverlapJob`] reads (`Train`: remember each class's
/// first line; `Test`: report records whose class is remembered).
pub use crate::output::Split;

/// One pass of `overlap` over a shared class map.
///
/// Run [`Split::Train`] over the training records, then [`Split::Test`]
/// over the test records with the same [`ClassMap`].
///
/// # Example
/// ```
/// use batchdoku::batch::{ClassMap, Job, OverlapJob, Row, Split, Status};
/// use batchdoku::{parse_line, Record, Rng, Transform};
/// let easy = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let hard = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let classes = ClassMap::new();
/// let mut record = Record::default();
/// let mut row = Row::default();
///
/// // Training set: `easy` on line 3.
/// let train = OverlapJob { split: Split::Train, classes: &classes };
/// let mut scratch = train.scratch();
/// record.line = 3;
/// train.process(&mut scratch, &easy, &record, &mut row);
/// assert!(!train.writes(&row));
///
/// // Test set: a transformed copy of `easy` leaks; `hard` does not.
/// let test = OverlapJob { split: Split::Test, classes: &classes };
/// let leaked = Transform::random(&mut Rng::new(9)).apply(&easy);
/// let mut leaks = Vec::new();
/// for (i, puzzle) in [hard, leaked].iter().enumerate() {
///     row.reset(i as u64 + 1, i as u64 + 1);
///     test.process(&mut scratch, puzzle, &record, &mut row);
///     if test.writes(&row) {
///         leaks.push((row.index, row.status, row.train_line));
///     }
/// }
/// assert_eq!(leaks, [(2, Status::Leak, Some(3))]);
/// ```
#[derive(Debug)]
pub struct OverlapJob<'a> {
    /// The input this pass reads.
    pub split: Split,
    /// Training classes and the first training line of each.
    pub classes: &'a ClassMap<u64>,
}

impl OverlapJob<'_> {
    /// The columns of `overlap`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &OVERLAP_COLUMNS;
}

impl Job for OverlapJob<'_> {
    type Scratch = Canonicalizer;

    fn scratch(&self) -> Canonicalizer {
        Canonicalizer::new()
    }

    fn label(&self, row: &mut Row) {
        row.split = Some(self.split);
    }

    fn process(&self, canon: &mut Canonicalizer, puzzle: &Grid, record: &Record, row: &mut Row) {
        let Some(class) = class_of(Equivalence::Class, canon, puzzle, row) else {
            return;
        };
        match self.split {
            Split::Train => self.classes.upsert(&class, record.line, |v, new| {
                *v = (*v).min(new);
            }),
            Split::Test => {
                if let Some(line) = self.classes.get(&class) {
                    row.status = Status::Leak;
                    row.train_line = Some(line);
                }
            }
        }
    }

    fn writes(&self, row: &Row) -> bool {
        matches!(row.status, Status::Leak | Status::Invalid)
    }
}
