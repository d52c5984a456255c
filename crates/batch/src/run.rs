//! The documented way to run a job over files: a [`Batch`] is configured
//! step by step (threads, batch size, format, columns, how inputs are
//! read, a quit flag, a progress display) and then runs a [`Job`] over
//! inputs into a file, written atomically, or into any writer.
//!
//! It wraps the pipeline the binary uses (`pipeline::run` with its sink,
//! inputs and counters), so a Rust user gets the same ordered, panic-safe,
//! bounded-memory run without its plumbing.

use std::fmt;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use batchdoku_core::{Generator, ReadOptions};

use crate::generate::{
    self, ErTarget, StreamConfig as GenerateConfig, StreamReport as GenerateReport,
};
use crate::output::{Column, OutputFormat};
use crate::pipeline::{self, Config, Fatal, Input, Job, Progress, Report, Sink};

/// An ordered multicore run, configured by its builder methods.
///
/// Every input record yields one row, in input order, whatever the thread
/// count; a malformed record becomes an `invalid` row, never an error. An
/// output file is written to a temporary file beside it and renamed only
/// when the run completes: a failed or interrupted run leaves no file
/// under the final name.
///
/// # Example
/// ```
/// use batchdoku_batch::{Batch, EngineKind, SolveJob, Status};
///
/// let dir = tempfile::tempdir()?;
/// let input = dir.path().join("puzzles.txt");
/// std::fs::write(
///     &input,
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\
///      4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
///      not a puzzle\n",
/// )?;
/// let output = dir.path().join("solved.csv");
///
/// let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
/// let report = Batch::new().threads(2).run_to_file(&job, [&input], &output)?;
/// assert_eq!(report.totals.records, 3);
/// assert_eq!(report.totals.count(Status::Unique), 2);
/// assert_eq!(report.totals.count(Status::Invalid), 1);
///
/// let csv = std::fs::read_to_string(&output)?;
/// let rows: Vec<&str> = csv.lines().collect();
/// assert_eq!(rows[0], "index,line,puzzle,status,solutions,solution,guesses,error");
/// assert!(rows[1].contains(",unique,1,483921657967345821"));
/// assert!(rows[3].starts_with("3,3,,invalid,0,,0,"));
/// assert!(rows[3].ends_with("puzzles.txt:3: bad character 'n' at column 1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Batch {
    threads: usize,
    batch_size: usize,
    format: OutputFormat,
    columns: Option<Vec<Column>>,
    header: bool,
    read: ReadOptions,
    quit: Option<Arc<AtomicBool>>,
    progress: Option<Arc<dyn Progress + Send + Sync>>,
}

impl fmt::Debug for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch")
            .field("threads", &self.threads)
            .field("batch_size", &self.batch_size)
            .field("format", &self.format)
            .field("columns", &self.columns)
            .field("header", &self.header)
            .field("read", &self.read)
            .field("quit", &self.quit)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Default for Batch {
    fn default() -> Batch {
        Batch::new()
    }
}

impl Batch {
    /// Records per batch handed to a worker unless set: large enough to
    /// spread the hand-off's cost, small enough to keep every worker busy.
    pub const DEFAULT_BATCH_SIZE: usize = 1024;

    /// A run on every core, in batches of [`Batch::DEFAULT_BATCH_SIZE`],
    /// writing CSV with a header and the job's own columns, reading inputs
    /// with the default [`ReadOptions`] (format detected).
    pub fn new() -> Batch {
        Batch {
            threads: std::thread::available_parallelism().map_or(1, usize::from),
            batch_size: Batch::DEFAULT_BATCH_SIZE,
            format: OutputFormat::Csv,
            columns: None,
            header: true,
            read: ReadOptions::default(),
            quit: None,
            progress: None,
        }
    }

    /// Worker threads (at least 1).
    pub fn threads(mut self, threads: usize) -> Batch {
        self.threads = threads.max(1);
        self
    }

    /// Records per batch (at least 1). The output does not depend on it.
    pub fn batch_size(mut self, records: usize) -> Batch {
        self.batch_size = records.max(1);
        self
    }

    /// The output format (CSV unless set).
    pub fn format(mut self, format: OutputFormat) -> Batch {
        self.format = format;
        self
    }

    /// The output columns, in order (the job's
    /// [`columns`](Job::columns) unless set).
    pub fn columns(mut self, columns: &[Column]) -> Batch {
        self.columns = Some(columns.to_vec());
        self
    }

    /// Whether CSV output starts with a header row (it does unless set).
    pub fn header(mut self, header: bool) -> Batch {
        self.header = header;
        self
    }

    /// How inputs are read: their format, the puzzle column, the columns
    /// kept (see [`ReadOptions`]).
    pub fn read_options(mut self, options: ReadOptions) -> Batch {
        self.read = options;
        self
    }

    /// A flag polled between records: raise it (from a Ctrl-C handler, or
    /// another thread) to stop the run early; [`Report::interrupted`] then
    /// says so and no output file is kept.
    pub fn quit_flag(mut self, quit: Arc<AtomicBool>) -> Batch {
        self.quit = Some(quit);
        self
    }

    /// Where the run reports its progress (nowhere unless set).
    pub fn progress(mut self, progress: Arc<dyn Progress + Send + Sync>) -> Batch {
        self.progress = Some(progress);
        self
    }

    /// Runs `job` over the records of `inputs` (paths; `-` is standard
    /// input; gzip and zstd are read as such) and writes the rows to the
    /// file `output`, through a temporary file beside it that is renamed
    /// only when the run completes. Every input is opened before any work.
    pub fn run_to_file<J, P>(
        &self,
        job: &J,
        inputs: impl IntoIterator<Item = P>,
        output: impl AsRef<Path>,
    ) -> Result<Report, Error>
    where
        J: Job,
        P: AsRef<Path>,
    {
        let counter = Arc::new(AtomicU64::new(0));
        let inputs = self.open(inputs, &counter)?;
        let sink = Sink::file(output.as_ref()).map_err(|e| Error(Fatal::Write(e)))?;
        self.run_into(job, inputs, sink, &counter)
    }

    /// Runs `job` over the records of `inputs`, as
    /// [`run_to_file`](Batch::run_to_file), and writes the rows to
    /// `writer` as they come (in input order). An interrupted run has
    /// written part of its rows.
    ///
    /// # Example
    /// ```
    /// use batchdoku_batch::{Batch, Column, EngineKind, SolveJob};
    /// let dir = tempfile::tempdir()?;
    /// let input = dir.path().join("puzzles.txt");
    /// std::fs::write(
    ///     &input,
    ///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
    /// )?;
    /// let job = SolveJob { count_limit: 2, engine: EngineKind::Mrv, difficulty: false };
    /// let mut out = Vec::new();
    /// Batch::new()
    ///     .columns(&[Column::Index, Column::Status, Column::Solutions])
    ///     .run_to_writer(&job, [&input], &mut out)?;
    /// assert_eq!(String::from_utf8(out)?, "index,status,solutions\n1,unique,1\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_to_writer<J, P>(
        &self,
        job: &J,
        inputs: impl IntoIterator<Item = P>,
        writer: impl Write + Send,
    ) -> Result<Report, Error>
    where
        J: Job,
        P: AsRef<Path>,
    {
        let counter = Arc::new(AtomicU64::new(0));
        let inputs = self.open(inputs, &counter)?;
        into_writer(writer, |sink| self.run_into(job, inputs, sink, &counter))
    }

    /// Makes puzzles `indices` of `generator` (each depends only on the
    /// seed, the spec and its index, so a range can resume another) and
    /// writes them to the file `output`, atomically as
    /// [`run_to_file`](Batch::run_to_file) does; with `er`, only puzzles
    /// whose Sudoku Explainer rating is in its range (the `rate` feature).
    /// The format gives the columns: `line` the puzzle, CSV and Parquet the
    /// puzzle and its solution, JSON lines the index, givens, puzzle and
    /// solution. The output is the same for any thread count.
    ///
    /// # Example
    /// ```
    /// use batchdoku_batch::{Batch, OutputFormat};
    /// use batchdoku_core::{parse_line, Generator, Solver, Spec};
    ///
    /// let generator = Generator::new(Spec::default(), 42)?;
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("puzzles.txt");
    /// let batch = Batch::new().format(OutputFormat::Line);
    /// let report = batch.generate_to_file(&generator, 5..8, None, &path)?;
    /// assert_eq!(report.puzzles, 3);
    ///
    /// // Puzzles 5, 6 and 7: the same as made one by one.
    /// let text = std::fs::read_to_string(&path)?;
    /// let mut solver = Solver::new();
    /// for (line, index) in text.lines().zip(5..) {
    ///     let alone = generator.puzzle(index, &mut solver, || false)?;
    ///     assert_eq!(parse_line(line.as_bytes())?, alone.puzzle);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate_to_file(
        &self,
        generator: &Generator,
        indices: Range<u64>,
        er: Option<ErTarget>,
        output: impl AsRef<Path>,
    ) -> Result<GenerateReport, Error> {
        let sink = Sink::file(output.as_ref()).map_err(|e| Error(Fatal::Write(e)))?;
        self.generate_into(generator, indices, er, sink)
    }

    /// Makes puzzles `indices` of `generator` as
    /// [`generate_to_file`](Batch::generate_to_file) does and writes them
    /// to `writer`.
    pub fn generate_to_writer(
        &self,
        generator: &Generator,
        indices: Range<u64>,
        er: Option<ErTarget>,
        writer: impl Write + Send,
    ) -> Result<GenerateReport, Error> {
        into_writer(writer, |sink| {
            self.generate_into(generator, indices, er, sink)
        })
    }

    /// Generates into `sink` and keeps the output when the run completed.
    fn generate_into(
        &self,
        generator: &Generator,
        indices: Range<u64>,
        er: Option<ErTarget>,
        mut sink: Sink,
    ) -> Result<GenerateReport, Error> {
        let config = GenerateConfig {
            start: indices.start,
            count: indices.end.saturating_sub(indices.start),
            threads: self.threads,
            chunk_size: self.batch_size,
            format: self.format,
            header: self.header,
            er,
        };
        let quit = self.quit_flag_or_never();
        let mut report =
            generate::run(generator, &mut sink, &config, quit, self.progress_display())?;
        self.keep(sink, report.interrupted, &mut report.broken_pipe)?;
        Ok(report)
    }

    /// The quit flag, or one that is never raised.
    fn quit_flag_or_never(&self) -> &AtomicBool {
        static NEVER: AtomicBool = AtomicBool::new(false);
        self.quit.as_deref().unwrap_or(&NEVER)
    }

    /// The progress display, or none.
    fn progress_display(&self) -> &dyn Progress {
        match &self.progress {
            Some(p) => &**p,
            None => &(),
        }
    }

    /// Keeps a run's output when it completed.
    fn keep(&self, sink: Sink, interrupted: bool, broken_pipe: &mut bool) -> Result<(), Error> {
        if let Some(flushed) = pipeline::flush(sink, interrupted, broken_pipe)? {
            flushed.persist().map_err(|e| Error(Fatal::Write(e)))?;
        }
        Ok(())
    }

    /// Opens every input before any work, so that a missing one fails
    /// first.
    fn open<P: AsRef<Path>>(
        &self,
        inputs: impl IntoIterator<Item = P>,
        counter: &Arc<AtomicU64>,
    ) -> Result<Vec<Input>, Error> {
        inputs
            .into_iter()
            .map(|path| {
                let path = path.as_ref();
                let name = path.to_string_lossy();
                Input::open(&name, &self.read, counter.clone()).map_err(|error| {
                    Error(Fatal::Read {
                        name: Arc::from(&*name),
                        error,
                    })
                })
            })
            .collect()
    }

    /// Runs into `sink` and keeps the output when the run completed.
    fn run_into<J: Job>(
        &self,
        job: &J,
        inputs: Vec<Input>,
        mut sink: Sink,
        counter: &Arc<AtomicU64>,
    ) -> Result<Report, Error> {
        let kept_names = inputs
            .first()
            .and_then(Input::kept_names)
            .map(<[String]>::to_vec)
            .unwrap_or_default();
        let config = Config {
            threads: self.threads,
            batch_size: self.batch_size,
            format: self.format,
            columns: self
                .columns
                .clone()
                .unwrap_or_else(|| job.columns().to_vec()),
            kept_names,
            header: self.header,
            as_written: None,
        };
        let quit = self.quit_flag_or_never();
        let mut report = pipeline::run(
            job,
            inputs,
            &mut sink,
            &config,
            quit,
            counter,
            self.progress_display(),
        )?;
        self.keep(sink, report.interrupted, &mut report.broken_pipe)?;
        Ok(report)
    }
}

/// Runs `work` on a sink that feeds `writer`. The sink owns what it writes
/// to, so a borrowed writer is fed from a scoped thread through a bounded
/// channel of written blocks; the writer's own error, if any, is the one
/// reported.
fn into_writer<T>(
    writer: impl Write + Send,
    work: impl FnOnce(Sink) -> Result<T, Error>,
) -> Result<T, Error> {
    let mut writer = writer;
    std::thread::scope(|scope| {
        let (blocks, received) = crossbeam_channel::bounded::<Vec<u8>>(4);
        let drain = scope.spawn(move || -> std::io::Result<()> {
            for block in received {
                writer.write_all(&block)?;
            }
            writer.flush()
        });
        // `work` drops the sink, and with it the sender, when it ends.
        let worked = work(Sink::writer(Box::new(Blocks(blocks))));
        let drained = drain
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match (worked, drained) {
            (_, Err(e)) => Err(Error(Fatal::Write(e))),
            (worked, Ok(())) => worked,
        }
    })
}

/// Sends each block written to the thread that writes it on.
struct Blocks(crossbeam_channel::Sender<Vec<u8>>);

impl Write for Blocks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Not `BrokenPipe`, which the pipeline takes for a reader that
        // quit: the writer failed, and its error is reported instead.
        self.0
            .send(buf.to_vec())
            .map_err(|_| std::io::Error::other("the writer stopped"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why a [`Batch`] run failed: an input that could not be opened or read,
/// an output that could not be written, worker threads that could not
/// start, or a bug (a worker's panic, caught and named). The output was
/// not kept. Malformed records are never errors: they are `invalid` rows.
///
/// # Example
/// ```
/// use batchdoku_batch::{Batch, EngineKind, SolveJob};
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Mrv, difficulty: false };
/// let dir = tempfile::tempdir()?;
/// let err = Batch::new()
///     .run_to_file(&job, [dir.path().join("missing.txt")], dir.path().join("out.csv"))
///     .unwrap_err();
/// assert!(err.to_string().contains("missing.txt"));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Error(pub(crate) Fatal);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0)
    }
}

impl From<Fatal> for Error {
    fn from(fatal: Fatal) -> Error {
        Error(fatal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineKind, SolveJob, Status};
    use batchdoku_core::testdata::{EASY, HARD};

    fn corpus(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("in.txt");
        let text: String = (0..500)
            .map(|i| {
                format!(
                    "{}\n",
                    if i % 7 == 3 {
                        "junk"
                    } else if i % 2 == 0 {
                        EASY
                    } else {
                        HARD
                    }
                )
            })
            .collect();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn job() -> SolveJob {
        SolveJob {
            count_limit: 2,
            engine: EngineKind::Mrv,
            difficulty: false,
        }
    }

    /// The same bytes on one thread and on four, to a file and to a
    /// writer; one row per record, in order.
    #[test]
    fn output_does_not_depend_on_threads_or_destination() {
        let dir = tempfile::tempdir().unwrap();
        let input = corpus(dir.path());
        let file = dir.path().join("out.csv");
        let one = Batch::new()
            .threads(1)
            .batch_size(3)
            .run_to_file(&job(), [&input], &file)
            .unwrap();
        let mut written = Vec::new();
        let four = Batch::new()
            .threads(4)
            .run_to_writer(&job(), [&input], &mut written)
            .unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), written);
        assert_eq!(one.totals.records, 500);
        assert_eq!(
            four.totals.count(Status::Invalid),
            one.totals.count(Status::Invalid)
        );
        assert_eq!(String::from_utf8(written).unwrap().lines().count(), 501);
    }

    /// A missing input fails before any output exists.
    #[test]
    fn a_missing_input_fails_first() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.csv");
        let err = Batch::new()
            .run_to_file(&job(), [dir.path().join("absent.txt")], &out)
            .unwrap_err();
        assert!(err.to_string().contains("absent.txt"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// A raised quit flag stops the run and keeps no file.
    #[test]
    fn a_raised_quit_flag_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let input = corpus(dir.path());
        let out = dir.path().join("out.csv");
        let quit = Arc::new(AtomicBool::new(true));
        let report = Batch::new()
            .quit_flag(quit)
            .run_to_file(&job(), [&input], &out)
            .unwrap();
        assert!(report.interrupted);
        assert!(!out.exists());
    }
}
