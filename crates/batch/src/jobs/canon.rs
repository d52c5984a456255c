//! `canon`: the canonical (minlex) form of each record and the
//! transformation that maps the record to it. Also the step `dedupe` and
//! `overlap` share: a record's class key.

use std::fmt::Write as _;

use crate::output::{Column, Row, Status, CANON_COLUMNS};
use crate::pipeline::Job;
use batchdoku_core::Canonicalizer;
use batchdoku_core::Grid;
use batchdoku_core::Record;

/// Writes the canonical form of each puzzle. Puzzles with contradictory
/// givens still get their canonical form (it is well defined) but are
/// `invalid` and get no transformation, as the contract asks.
///
/// # Example
/// ```
/// use batchdoku_batch::{CanonJob, Job, Row, Status};
/// use batchdoku_core::{parse_line, Grid, Record};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let mut canonicalizer = CanonJob.scratch();
/// let (mut row, record) = (Row::default(), Record::default());
/// CanonJob.process(&mut canonicalizer, &puzzle, &record, &mut row);
/// assert_eq!(row.status, Status::Ok);
/// assert_eq!(row.transform.unwrap().apply(&puzzle), row.canonical.unwrap());
///
/// let mut bad = Grid::empty();
/// bad.set(0, 5);
/// bad.set(1, 5);
/// row.reset(2, 2);
/// CanonJob.process(&mut canonicalizer, &bad, &record, &mut row);
/// assert_eq!(row.status, Status::Invalid);
/// assert!(row.canonical.is_some() && row.transform.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CanonJob;

impl CanonJob {
    /// The columns of `canon`, before the optional ones (`expected`, `trailing`,
    /// kept input columns).
    pub const COLUMNS: &'static [Column] = &CANON_COLUMNS;
}

impl Job for CanonJob {
    type Scratch = Canonicalizer;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> Canonicalizer {
        Canonicalizer::new()
    }

    fn process(&self, canon: &mut Canonicalizer, puzzle: &Grid, _: &Record, row: &mut Row) {
        let (form, transform) = canon.canonical(puzzle);
        row.canonical = Some(form);
        if check_givens(puzzle, row) {
            row.transform = Some(transform);
        }
    }
}

/// Marks `row` invalid when `puzzle` has contradictory givens; else `ok`.
/// Returns whether the puzzle is valid.
pub(crate) fn check_givens(puzzle: &Grid, row: &mut Row) -> bool {
    match puzzle.first_conflict() {
        Some(conflict) => {
            row.status = Status::Invalid;
            let _ = write!(row.error, "{conflict}");
            false
        }
        None => {
            row.status = Status::Ok;
            true
        }
    }
}

/// What makes two records the same for `dedupe` and `overlap`.
///
/// # Example
/// ```
/// use batchdoku_batch::{ClassMap, DedupeJob, Equivalence, Job, Pass, Row};
/// use batchdoku_core::{parse_line, Record, Rng, Transform};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let moved = Transform::random(&mut Rng::new(1)).apply(&puzzle); // equivalent, not equal
/// let classes_of = |equivalence| {
///     let classes = ClassMap::new();
///     let job = DedupeJob { equivalence, pass: Pass::Count, classes: &classes };
///     let (mut scratch, mut row) = (job.scratch(), Row::default());
///     for (i, p) in [puzzle, moved].iter().enumerate() {
///         row.reset(i as u64 + 1, i as u64 + 1);
///         job.process(&mut scratch, p, &Record::default(), &mut row);
///     }
///     classes.len()
/// };
/// assert_eq!(classes_of(Equivalence::Class), 1);
/// assert_eq!(classes_of(Equivalence::Exact), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Equivalence {
    /// Equal canonical forms: one is a transformation of the other.
    Class,
    /// Identical puzzles (after parsing: `.` and `0` are the same blank).
    Exact,
}

/// The grid that stands for a valid puzzle's class (its canonical form, or
/// the puzzle itself for exact matching), filling the row's canonical form
/// when classes are by canonical form. `None` (and the row marked invalid)
/// for contradictory givens, which are never merged with anything.
pub(crate) fn class_of(
    equivalence: Equivalence,
    canon: &mut Canonicalizer,
    puzzle: &Grid,
    row: &mut Row,
) -> Option<Grid> {
    if !check_givens(puzzle, row) {
        return None;
    }
    Some(match equivalence {
        Equivalence::Class => {
            let form = canon.canonical(puzzle).0;
            row.canonical = Some(form);
            form
        }
        Equivalence::Exact => *puzzle,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::testdata::{grid, EASY};
    use batchdoku_core::Rng;
    use batchdoku_core::Transform;

    fn run(puzzle: &Grid) -> Row {
        let mut row = Row::default();
        CanonJob.process(
            &mut Canonicalizer::new(),
            puzzle,
            &Record::default(),
            &mut row,
        );
        row
    }

    #[test]
    fn writes_form_and_a_transform_that_reaches_it() {
        let p = grid(EASY);
        let row = run(&p);
        assert_eq!(row.status, Status::Ok);
        let form = row.canonical.unwrap();
        assert_eq!(row.transform.unwrap().apply(&p), form);
        let moved = Transform::random(&mut Rng::new(7)).apply(&p);
        assert_eq!(run(&moved).canonical, Some(form));
    }

    #[test]
    fn contradictory_givens_are_invalid_without_transform() {
        let mut p = Grid::default();
        p.set(0, 5);
        p.set(1, 5);
        let row = run(&p);
        assert_eq!(row.status, Status::Invalid);
        assert!(row.error.contains("contradictory"), "{}", row.error);
        assert!(row.canonical.is_some());
        assert!(row.transform.is_none());
    }

    #[test]
    fn exact_classes_differ_for_equivalent_puzzles_but_canonical_classes_agree() {
        let p = grid(EASY);
        let moved = Transform::random(&mut Rng::new(3)).apply(&p);
        assert_ne!(moved, p);
        let mut c = Canonicalizer::new();
        let mut key = |e, g: &Grid| class_of(e, &mut c, g, &mut Row::default());
        assert_eq!(key(Equivalence::Class, &p), key(Equivalence::Class, &moved));
        assert_ne!(key(Equivalence::Exact, &p), key(Equivalence::Exact, &moved));
        let mut bad = Grid::default();
        bad.set(0, 1);
        bad.set(80, 1);
        bad.set(8, 1);
        assert_eq!(key(Equivalence::Class, &bad), None);
    }
}
