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
