//! A hook for tests only: `BATCHDOKU_TEST_PANIC_AT=N` makes the worker
//! panic on record `N` (solve, score, canon, dedupe, overlap; the 1-based
//! record number of the run, as the `index` column counts) or on puzzle
//! `N` (generate, as its `index` counts). The integration tests use it to
//! check from outside that a panicking worker ends the run with exit 2, a
//! message naming the record, and nothing kept under `-o`, never a hang.
//! Read once at start-up; unset, it costs one comparison per record.

use std::sync::OnceLock;

use batchdoku::generate::{GenerateError, Generated, MakePuzzle};
use batchdoku::output::Row;
use batchdoku::parse::Record;
use batchdoku::pipeline::Job;
use batchdoku::{Grid, Solver};

/// The environment variable.
const VAR: &str = "BATCHDOKU_TEST_PANIC_AT";

static PANIC_AT: OnceLock<Option<u64>> = OnceLock::new();

/// Reads the variable; a value that is not a number is an error.
pub fn init() -> Result<(), String> {
    let value = match std::env::var(VAR) {
        Ok(text) => Some(
            text.parse::<u64>()
                .map_err(|_| format!("{VAR}={text}: not a record number"))?,
        ),
        Err(_) => None,
    };
    let _ = PANIC_AT.set(value);
    Ok(())
}

/// The record (or puzzle) to panic on, if any.
fn panic_at() -> Option<u64> {
    PANIC_AT.get().copied().flatten()
}

/// A job or generator that panics on the record the hook names.
pub struct PanicAt<'a, T> {
    inner: &'a T,
    at: Option<u64>,
}

impl<'a, T> PanicAt<'a, T> {
    /// Wraps `inner` with the hook read by [`init`].
    pub fn new(inner: &'a T) -> Self {
        PanicAt {
            inner,
            at: panic_at(),
        }
    }
}

impl<J: Job> Job for PanicAt<'_, J> {
    type Scratch = J::Scratch;

    fn scratch(&self) -> J::Scratch {
        self.inner.scratch()
    }

    fn process(&self, scratch: &mut J::Scratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        if self.at == Some(row.index) {
            panic!("{VAR}: panicking on record {} as asked", row.index);
        }
        self.inner.process(scratch, puzzle, record, row);
    }

    fn label(&self, row: &mut Row) {
        self.inner.label(row);
    }

    fn writes(&self, row: &Row) -> bool {
        self.inner.writes(row)
    }
}

impl<G: MakePuzzle> MakePuzzle for PanicAt<'_, G> {
    fn make_puzzle(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: &dyn Fn() -> bool,
    ) -> Result<Generated, GenerateError> {
        if self.at == Some(index) {
            panic!("{VAR}: panicking on puzzle {index} as asked");
        }
        self.inner.make_puzzle(index, solver, should_stop)
    }
}
