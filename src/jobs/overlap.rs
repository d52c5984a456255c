//! `overlap`: finds test records equivalent to some training record (a
//! train/test leak). The training pass fills a [`ClassMap`] with, per
//! class, the first training line; the test pass writes a row for every
//! test record whose class is there. Invalid records of either input get
//! their row, in place, as everywhere.

use super::canon::{class_key, Equivalence};
use super::classes::ClassMap;
use crate::canon::Canonicalizer;
use crate::grid::Grid;
use crate::output::{Row, Status};
use crate::parse::Record;
use crate::pipeline::Job;

/// Which input an [`OverlapJob`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The training input: remember each class's first line.
    Train,
    /// The test input: report records whose class is remembered.
    Test,
}

/// One pass of `overlap` over a shared class map.
#[derive(Debug)]
pub struct OverlapJob<'a> {
    /// The input this pass reads.
    pub split: Split,
    /// Training classes and the first training line of each.
    pub classes: &'a ClassMap<u64>,
}

impl Job for OverlapJob<'_> {
    type Scratch = Canonicalizer;

    fn scratch(&self) -> Canonicalizer {
        Canonicalizer::new()
    }

    fn process(&self, canon: &mut Canonicalizer, puzzle: &Grid, record: &Record, row: &mut Row) {
        let Some(key) = class_key(Equivalence::Class, canon, puzzle, row) else {
            return;
        };
        match self.split {
            Split::Train => self.classes.upsert(key, record.line, |v, new| {
                *v = (*v).min(new);
            }),
            Split::Test => {
                if let Some(line) = self.classes.get(key) {
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
