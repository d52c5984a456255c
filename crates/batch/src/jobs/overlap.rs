//! `overlap`: finds test records equivalent to some training record (a
//! train/test leak). The training pass fills a [`ClassMap`] with, per
//! class, the first training line; the test pass writes a row for every
//! test record whose class is there. Classes are those of `split` (the
//! same key, [`ClassBy`]): by puzzle, or by solution grid. Invalid records
//! of either input get their row, in place, as everywhere.

use super::classes::ClassMap;
use super::keys::{class_key, key_scratch, ClassBy, KeyScratch};
use crate::output::{Column, Row, Status, OVERLAP_COLUMNS};
use crate::pipeline::Job;
use batchdoku_core::Grid;
use batchdoku_core::Record;

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
/// use batchdoku_batch::{ClassBy, ClassMap, Job, OverlapJob, Row, Split, Status};
/// use batchdoku_core::{parse_line, Record, Rng, Transform};
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
/// let train = OverlapJob { split: Split::Train, by: ClassBy::Puzzle, classes: &classes };
/// let mut scratch = train.scratch();
/// record.line = 3;
/// train.process(&mut scratch, &easy, &record, &mut row);
/// assert!(!train.writes(&row));
///
/// // Test set: a transformed copy of `easy` leaks; `hard` does not.
/// let test = OverlapJob { split: Split::Test, by: ClassBy::Puzzle, classes: &classes };
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
    /// What makes a test record leak: an equivalent puzzle, or (by grid)
    /// an equivalent solution grid.
    pub by: ClassBy,
    /// Training classes and the first training line of each.
    pub classes: &'a ClassMap<u64>,
}

impl OverlapJob<'_> {
    /// The columns of `overlap`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &OVERLAP_COLUMNS;
}

impl Job for OverlapJob<'_> {
    type Scratch = KeyScratch;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> KeyScratch {
        key_scratch()
    }

    fn label(&self, row: &mut Row) {
        row.split = Some(self.split);
    }

    fn process(&self, scratch: &mut KeyScratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        let Some(class) = class_key(self.by, scratch, puzzle, row, false) else {
            return;
        };
        match self.split {
            Split::Train => self.classes.upsert(&class, record.line, |v, new| {
                *v = (*v).min(new);
            }),
            // Only `Train` and `Test` name an input of overlap.
            Split::Test | Split::Named(_) => {
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
