//! The record side of the ordered pipeline: the [`Feed`] that cuts the
//! inputs' records into batches (one input after the other, a batch never
//! spanning two; a resumed run's first records read, checked and skipped,
//! see `resume`), and the [`Work`] that runs a command's [`Job`] on each
//! record and encodes its row.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::output::{Row, RowEncoder};
use crate::totals::Totals;
use batchdoku_core::Record;

use super::resume::{Diverged, Skip};
use super::{
    fill_row_until, Config, Fatal, Feed, Halt, Input, Job, PanicSite, Position, Stop, Work,
};

/// A batch of records, reused: only the first `len` are this batch's.
#[derive(Debug, Default)]
pub(crate) struct Records {
    /// Which input they come from (an index into the run's inputs).
    source: usize,
    /// The run-wide 1-based number of the first record.
    first_index: u64,
    records: Vec<Record>,
    len: usize,
}

/// Bytes of kept fields, trailing and written text after which a batch
/// ends early,
/// whatever its record count: records may carry up to a 64 KiB JSON line
/// each, and a batch of them must not hold 1,024 such lines.
const BATCH_TEXT_BYTES: usize = 4 << 20;

/// Reads the inputs in order into batches of `batch_size` records (fewer
/// when their kept text passes [`BATCH_TEXT_BYTES`]).
pub(crate) struct RecordFeed {
    /// The input being read, with its index, and the ones after it.
    current: Option<(usize, Input)>,
    rest: std::iter::Enumerate<std::vec::IntoIter<Input>>,
    batch_size: usize,
    /// The number of the next record.
    index: u64,
    bytes_read: Arc<AtomicU64>,
    total_bytes: Option<u64>,
    /// A resumable run's digest of the records read, and the records it
    /// skips first; `None` for a run that keeps no digest.
    resume: Option<Skip>,
}

impl RecordFeed {
    /// A feed over `inputs`, opened with the byte counter `bytes_read`.
    /// With `resume`, it keeps a digest of the records it reads and first
    /// skips (reads, hashes, never yields) the records it says, failing
    /// unless they have its digest.
    pub(crate) fn new(
        inputs: Vec<Input>,
        batch_size: usize,
        bytes_read: Arc<AtomicU64>,
        resume: Option<Skip>,
    ) -> Self {
        let total_bytes = inputs.iter().map(|i| i.size).sum::<Option<u64>>();
        let mut rest = inputs.into_iter().enumerate();
        RecordFeed {
            current: rest.next(),
            rest,
            batch_size: batch_size.max(1),
            index: 1,
            bytes_read,
            total_bytes,
            resume,
        }
    }

    /// Reads, hashes and drops the records a resumed run skips, then
    /// checks them against the digest it was given. Their numbers are
    /// used up: the first record yielded carries on from them.
    fn skip_done(&mut self, record: &mut Record) -> Result<(), Fatal> {
        let Some(skip) = self.resume.as_mut().filter(|s| s.left > 0) else {
            return Ok(());
        };
        while skip.left > 0 {
            let Some((source, input)) = self.current.as_mut() else {
                return Err(Fatal::Diverged(Diverged::Shorter {
                    records: skip.left + skip.skipped,
                    found: skip.skipped,
                }));
            };
            match input.read_record(record) {
                Ok(true) => {
                    skip.skipped(*source, record);
                    self.index += 1;
                }
                Ok(false) => self.current = self.rest.next(),
                Err(e) => {
                    return Err(Fatal::Read {
                        name: input.name.clone(),
                        error: e,
                    })
                }
            }
        }
        skip.check().map_err(Fatal::Diverged)
    }
}

impl Feed for RecordFeed {
    type Items = Records;

    fn fill(&mut self, items: &mut Records) -> Result<bool, Fatal> {
        items.len = 0;
        if self.resume.as_ref().is_some_and(|s| s.left > 0) {
            if items.records.is_empty() {
                items.records.push(Record::default());
            }
            self.skip_done(&mut items.records[0])?;
        }
        loop {
            let Some((source, input)) = self.current.as_mut() else {
                return Ok(false);
            };
            let mut at_end = false;
            let mut text = 0;
            while items.len < self.batch_size && text < BATCH_TEXT_BYTES {
                if items.len == items.records.len() {
                    items.records.push(Record::default());
                }
                let record = &mut items.records[items.len];
                match input.read_record(record) {
                    Ok(true) => {
                        text += record.kept.len() + record.trailing.len() + record.written.len();
                        items.len += 1;
                        if let Some(resume) = &mut self.resume {
                            resume.digest.add(*source, record);
                        }
                    }
                    Ok(false) => {
                        at_end = true;
                        break;
                    }
                    Err(e) => {
                        return Err(Fatal::Read {
                            name: input.name.clone(),
                            error: e,
                        })
                    }
                }
            }
            let source = *source;
            if at_end {
                // Done with this input: close it now, not at the end.
                self.current = self.rest.next();
            }
            if items.len > 0 {
                items.source = source;
                items.first_index = self.index;
                self.index += items.len as u64;
                return Ok(true);
            }
        }
    }

    fn position(&self) -> u64 {
        self.bytes_read.load(Ordering::Relaxed)
    }

    fn total(&self) -> Option<u64> {
        self.total_bytes
    }

    fn digest(&self) -> u64 {
        self.resume.as_ref().map_or(0, |s| s.digest.value())
    }

    fn site(&self) -> PanicSite {
        PanicSite::Reader {
            source: self.current.as_ref().map(|(_, input)| input.name.clone()),
        }
    }
}

/// Runs `job` on each record and encodes its row.
pub(crate) struct RecordWork<'a, J> {
    pub job: &'a J,
    pub config: &'a Config,
    /// The inputs' names, by index.
    pub names: &'a [Arc<str>],
}

impl<J: Job> Work for RecordWork<'_, J> {
    type Items = Records;
    type Scratch = (J::Scratch, RowEncoder, Row);
    type Totals = Totals;

    fn scratch(&self) -> Self::Scratch {
        let config = self.config;
        let encoder = match &config.as_written {
            Some(layout) => RowEncoder::as_written(layout.clone()),
            None => RowEncoder::new(config.format, &config.columns, &config.kept_names),
        };
        (self.job.scratch(), encoder, Row::default())
    }

    fn len(&self, items: &Records) -> usize {
        items.len
    }

    #[inline]
    fn process(
        &self,
        (scratch, encoder, row): &mut Self::Scratch,
        items: &Records,
        k: usize,
        out: &mut Vec<u8>,
        totals: &mut Totals,
        stop: &Stop<'_>,
    ) -> Result<(), Halt> {
        let record = &items.records[k];
        let at = Position {
            source: &self.names[items.source],
            line: record.line,
            index: items.first_index + k as u64,
        };
        // The run's stop (Ctrl-C, a failure elsewhere) reaches inside one
        // slow record; a record it cut short is never written (the batch is
        // abandoned).
        let stopped = || stop.raised();
        fill_row_until(
            self.job,
            scratch,
            record.puzzle.as_ref(),
            record,
            &at,
            row,
            &stopped,
        );
        if stop.raised() {
            return Err(Halt::Stopped);
        }
        if self.job.writes(row) {
            // Encoding into a Vec only fails on a serializer bug.
            let _ = encoder.encode(row, record, out);
            totals.add_row(row);
        } else {
            totals.add_record(row);
        }
        Ok(())
    }

    fn site(&self, items: &Records, k: usize) -> PanicSite {
        PanicSite::Record {
            index: items.first_index + k as u64,
            source: self.names[items.source].clone(),
            line: items.records[k].line,
        }
    }
}
