//! Resuming a run that was stopped: the records whose rows an earlier run
//! already wrote are read again (so that numbering, lines and positions
//! carry on as in one run) but not processed, and they must be the same
//! records. A digest of every record read (where it came from, its line,
//! its puzzle or parse error, its expected solution, its kept fields and
//! trailing text) is kept as the run goes; the run tells the caller the
//! digest with each batch written ([`Written`]), and a resumed run checks
//! the records it skips against the digest it was given before it
//! processes any record.

use std::fmt::Write as _;
use std::hash::Hasher as _;
use std::io;

use xxhash_rust::xxh3::Xxh3;

use batchdoku_core::{Grid, ParseError, Record};

use super::Sink;
use crate::totals::Totals;

/// What a resumable run is told and tells: the records to skip, with the
/// digest they must have, and a callback after each batch written.
///
/// A run started with `skip: 0` is a resumable run from the start: its
/// [`Written`] digests are what a later run resumes from.
pub struct Resume<'a> {
    /// Records whose rows an earlier run wrote: read and checked, not
    /// processed. The first record processed is numbered `skip + 1`.
    pub skip: u64,
    /// The digest of those records, as the earlier run's last
    /// [`Written::digest`] gave it (ignored when `skip` is 0).
    pub digest: u64,
    /// Called after each batch of rows is written to the sink, in order:
    /// the place to flush the sink and record how far the run got. An
    /// error ends the run ([`Fatal::Write`](super::Fatal::Write)).
    pub written: &'a mut dyn FnMut(&mut Sink, &Written) -> io::Result<()>,
}

impl std::fmt::Debug for Resume<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resume")
            .field("skip", &self.skip)
            .field("digest", &format_args!("{:016x}", self.digest))
            .finish_non_exhaustive()
    }
}

/// How far a resumable run got: told after each batch written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Records whose rows this run wrote (the skipped ones not counted).
    pub records: u64,
    /// Their totals.
    pub totals: Totals,
    /// The digest of every record read up to the last one written, the
    /// skipped ones included: what a later run resumes from.
    pub digest: u64,
}

/// The running digest of the records a resumable run has read.
#[derive(Clone, Default)]
pub(crate) struct Digest(Xxh3);

impl std::fmt::Debug for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Digest({:016x})", self.value())
    }
}

impl Digest {
    /// The digest of the records added so far.
    pub(crate) fn value(&self) -> u64 {
        self.0.digest()
    }

    /// Adds one record read from input number `source`.
    pub(crate) fn add(&mut self, source: usize, record: &Record) {
        let h = &mut self.0;
        h.write_u64(source as u64);
        h.write_u64(record.line);
        self.grid_or_error(0, Some(&record.puzzle));
        self.grid_or_error(1, record.expected.as_ref());
        let h = &mut self.0;
        for bytes in [&record.trailing, &record.kept] {
            h.write_u64(bytes.len() as u64);
            h.update(bytes);
        }
        h.write_u64(record.kept_ends.len() as u64);
        for end in &record.kept_ends {
            h.write_u32(*end);
        }
        h.write_u8(u8::from(record.kept_is_json));
    }

    /// Adds a grid or the error in its place (`tag` tells the puzzle from
    /// the expected solution), or that there is none.
    fn grid_or_error(&mut self, tag: u8, value: Option<&Result<Grid, ParseError>>) {
        self.0.write_u8(tag);
        match value {
            None => self.0.write_u8(0),
            Some(Ok(grid)) => {
                self.0.write_u8(1);
                self.0.update(grid.cells());
            }
            Some(Err(error)) => {
                self.0.write_u8(2);
                let _ = write!(Text(&mut self.0), "{error}");
                self.0.write_u8(0xff); // not UTF-8: ends the text
            }
        }
    }
}

/// Formats text straight into the hasher (no allocation).
struct Text<'a>(&'a mut Xxh3);

impl std::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

/// What a resumed run checks: the records to skip and the digest they
/// must have, and the digest of all it has read.
#[derive(Debug, Default)]
pub(crate) struct Skip {
    /// Records still to skip.
    pub(crate) left: u64,
    /// The digest the skipped records must have.
    pub(crate) expected: u64,
    /// Records skipped so far.
    pub(crate) skipped: u64,
    /// Every record read so far.
    pub(crate) digest: Digest,
}

impl Skip {
    /// A check that skips `records` with digest `expected`.
    pub(crate) fn new(records: u64, expected: u64) -> Skip {
        Skip {
            left: records,
            expected,
            ..Skip::default()
        }
    }

    /// Counts one skipped record from input `source`.
    pub(crate) fn skipped(&mut self, source: usize, record: &Record) {
        self.digest.add(source, record);
        self.left -= 1;
        self.skipped += 1;
    }

    /// After the last record to skip: whether they were the records
    /// expected.
    pub(crate) fn check(&self) -> Result<(), Diverged> {
        if self.skipped > 0 && self.digest.value() != self.expected {
            return Err(Diverged::Other {
                records: self.skipped,
            });
        }
        Ok(())
    }
}

/// Why a resumed run's inputs are not those of the run it resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Diverged {
    /// The first `records` records are not those the earlier run read.
    #[error("the first {records} records are not those the run being resumed read")]
    Other {
        /// Records compared.
        records: u64,
    },
    /// The inputs end after `found` records, before the `records` the
    /// earlier run had written.
    #[error(
        "the inputs end after {found} records, but the run being resumed had written {records}"
    )]
    Shorter {
        /// Records the earlier run wrote.
        records: u64,
        /// Records the inputs hold now.
        found: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::{parse_line, testdata::EASY, ParseErrorKind};

    fn record(line: u64, text: &[u8]) -> Record {
        Record {
            line,
            puzzle: parse_line(text),
            ..Record::default()
        }
    }

    fn digest_of(records: &[(usize, Record)]) -> u64 {
        let mut digest = Digest::default();
        for (source, record) in records {
            digest.add(*source, record);
        }
        digest.value()
    }

    #[test]
    fn the_digest_sees_every_part_of_a_record() {
        let base = || record(1, EASY.as_bytes());
        let grid = parse_line(EASY.as_bytes()).unwrap();
        let same = digest_of(&[(0, base())]);
        assert_eq!(same, digest_of(&[(0, base())]), "deterministic");
        let changes: [fn(&mut Record, Grid); 7] = [
            |r, _| r.line = 2,
            |r, _| r.puzzle = Err(ParseError::new(ParseErrorKind::Empty, 0)),
            |r, g| r.expected = Some(Ok(g)),
            |r, _| r.trailing = b"id 7".to_vec(),
            |r, _| {
                r.kept = b"ab".to_vec();
                r.kept_ends = vec![1, 2];
            },
            |r, _| {
                r.kept = b"ab".to_vec();
                r.kept_ends = vec![2, 2];
            },
            |r, _| r.kept_is_json = true,
        ];
        let mut seen = vec![same, digest_of(&[(1, base())])];
        assert_ne!(seen[0], seen[1], "the input it came from");
        for change in changes {
            let mut changed = base();
            change(&mut changed, grid);
            let d = digest_of(&[(0, changed)]);
            assert!(!seen.contains(&d), "a change went unseen");
            seen.push(d);
        }
    }

    #[test]
    fn where_one_field_ends_is_part_of_the_digest() {
        let mut a = record(1, b"bad");
        a.trailing = b"xy".to_vec();
        let mut b = record(1, b"bad");
        b.trailing = b"x".to_vec();
        b.kept = b"y".to_vec();
        assert_ne!(digest_of(&[(0, a)]), digest_of(&[(0, b)]));
    }

    #[test]
    fn skipping_checks_the_records_against_the_digest() {
        let records: Vec<_> = (1..=3).map(|i| (0, record(i, EASY.as_bytes()))).collect();
        let expected = digest_of(&records);
        let mut skip = Skip::new(3, expected);
        for (source, r) in &records {
            skip.skipped(*source, r);
        }
        assert_eq!((skip.left, skip.skipped), (0, 3));
        assert_eq!(skip.check(), Ok(()));
        let mut skip = Skip::new(3, expected ^ 1);
        for (source, r) in &records {
            skip.skipped(*source, r);
        }
        assert_eq!(skip.check(), Err(Diverged::Other { records: 3 }));
        // Nothing to skip is always the same records.
        assert_eq!(Skip::new(0, 12345).check(), Ok(()));
    }
}
