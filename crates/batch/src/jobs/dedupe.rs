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
use crate::output::{Column, Row, Status, DEDUPE_COLUMNS};
use crate::pipeline::Job;
use batchdoku_core::Canonicalizer;
use batchdoku_core::Grid;
use batchdoku_core::Record;

/// Per class: the index of its first record and how many records it has
/// (the values of [`DedupeJob::classes`]; see the [`DedupeJob`] example).
pub type ClassCount = (u64, u64);

/// Which of the two passes a [`DedupeJob`] runs (its example runs both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
    /// Record every valid record's class; write nothing.
    Count,
    /// Write each class's first record and every invalid record.
    Emit,
}

/// One pass of `dedupe` over a shared class map.
///
/// Run [`Pass::Count`] over every record, then [`Pass::Emit`] over the
/// same records again with the same [`ClassMap`]. The command-line tool
/// runs both passes through the pipeline into one output; here they
/// run by hand over puzzles in memory.
///
/// # Example
/// ```
/// use batchdoku_batch::{ClassMap, DedupeJob, Equivalence, Job, Pass, Row, Status};
/// use batchdoku_core::{parse_line, Record, Rng, Transform};
/// let easy = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let hard = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let moved = Transform::random(&mut Rng::new(1)).apply(&easy);
/// let puzzles = [easy, hard, moved]; // the third is a copy of the first
///
/// let classes = ClassMap::new();
/// let mut written = Vec::new();
/// for pass in [Pass::Count, Pass::Emit] {
///     let job = DedupeJob { equivalence: Equivalence::Class, pass, classes: &classes };
///     let (mut scratch, mut row) = (job.scratch(), Row::default());
///     for (i, puzzle) in puzzles.iter().enumerate() {
///         row.reset(i as u64 + 1, i as u64 + 1); // index and line
///         job.process(&mut scratch, puzzle, &Record::default(), &mut row);
///         if job.writes(&row) {
///             written.push((row.index, row.status, row.dropped));
///         }
///     }
/// }
/// // First of each class, with the number of copies dropped.
/// assert_eq!(written, [(1, Status::Ok, Some(1)), (2, Status::Ok, Some(0))]);
/// assert_eq!(classes.len(), 2);
/// ```
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

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

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
