//! `dedupe`: keeps the first record of each equivalence class, in input
//! order, with the number of copies dropped.
//!
//! The count of copies is only known at the end of the input, so dedupe
//! makes two passes over it: [`Pass::Count`] fills a [`ClassMap`] with,
//! per class, the index of its first record and its number of records;
//! [`Pass::Emit`] reads the input again and writes exactly the records
//! that are first of their class. Both passes are order-independent (a
//! minimum and a sum), so the output does not depend on the thread count.
//! Invalid records are never merged: each keeps its row, in place.

use super::canon::{class_of, Equivalence};
use super::classes::ClassMap;
use crate::canon::Canonicalizer;
use crate::grid::Grid;
use crate::output::{Column, Row, Status, DEDUPE_COLUMNS};
use crate::parse::Record;
use crate::pipeline::Job;

/// Per class: the index of its first record and how many records it has.
pub type ClassCount = (u64, u64);

/// Which of the two passes a [`DedupeJob`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
    /// Record every valid record's class; write nothing.
    Count,
    /// Write each class's first record and every invalid record.
    Emit,
}

/// One pass of `dedupe` over a shared class map.
#[derive(Debug)]
pub struct DedupeJob<'a> {
    /// What counts as the same puzzle.
    pub equivalence: Equivalence,
    /// The pass to run.
    pub pass: Pass,
    /// The classes, filled by the count pass and read by the emit pass.
    pub classes: &'a ClassMap<ClassCount>,
}

impl DedupeJob<'_> {
    /// The columns of `dedupe`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &DEDUPE_COLUMNS;
}

impl Job for DedupeJob<'_> {
    type Scratch = Canonicalizer;

    fn scratch(&self) -> Canonicalizer {
        Canonicalizer::new()
    }

    fn process(&self, canon: &mut Canonicalizer, puzzle: &Grid, _: &Record, row: &mut Row) {
        let Some(class) = class_of(self.equivalence, canon, puzzle, row) else {
            return;
        };
        match self.pass {
            Pass::Count => self.classes.upsert(&class, (row.index, 1), |v, new| {
                v.0 = v.0.min(new.0);
                v.1 += new.1;
            }),
            Pass::Emit => match self.classes.get(&class) {
                Some((first, _)) if first != row.index => row.status = Status::Duplicate,
                Some((_, count)) => row.dropped = Some(count - 1),
                // Only when the input changed between the passes.
                None => row.dropped = Some(0),
            },
        }
    }

    fn writes(&self, row: &Row) -> bool {
        self.pass == Pass::Emit && row.status != Status::Duplicate
    }
}
