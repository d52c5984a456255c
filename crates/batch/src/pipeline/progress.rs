//! How a run reports its progress, without saying how it is shown: the
//! library calls a [`Progress`] from the writer (once per batch written)
//! and the caller decides what to draw. The command-line binary draws a
//! bar on a terminal or plain lines in a log; the Python package and other
//! library users draw nothing (`&()`). Keeping the drawing out of
//! the library keeps terminal crates out of its dependencies.

/// Receives a run's progress. Every call comes from the thread that called
/// the run (the writer), in this order: [`start`](Progress::start) once,
/// [`update`](Progress::update) after each batch written, then
/// [`finish`](Progress::finish) once, also when the run fails.
///
/// # Example
/// ```
/// use std::cell::Cell;
/// use std::sync::atomic::{AtomicBool, AtomicU64};
/// use std::sync::Arc;
/// use batchdoku_batch::{self as batch, EngineKind, OutputFormat, Progress};
/// use batchdoku_batch::plumbing::{Config, Input, Sink};
/// use batchdoku_batch::SolveJob;
///
/// /// Remembers the last update, as a progress bar would draw it.
/// #[derive(Default)]
/// struct Last {
///     total: Cell<Option<u64>>,
///     records: Cell<u64>,
///     finished: Cell<bool>,
/// }
///
/// impl Progress for Last {
///     fn start(&self, total: Option<u64>) {
///         self.total.set(total);
///     }
///     fn update(&self, records: u64, _position: u64) {
///         self.records.set(records);
///     }
///     fn finish(&self) {
///         self.finished.set(true);
///     }
/// }
///
/// let puzzle =
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let text = format!("{puzzle}\n").repeat(10);
/// let size = Some(text.len() as u64);
/// let source = Box::new(std::io::Cursor::new(text));
/// let input = Input::from_source("memory", source, size, &Default::default())?;
/// let dir = tempfile::tempdir()?;
/// let mut sink = Sink::file(&dir.path().join("out.csv"))?;
/// let config = Config {
///     threads: 2,
///     batch_size: 4,
///     format: OutputFormat::Csv,
///     columns: SolveJob::COLUMNS.to_vec(),
///     kept_names: Vec::new(),
///     header: true,
///     as_written: None,
/// };
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Mrv, difficulty: false };
/// let (quit, bytes_read) = (AtomicBool::new(false), Arc::new(AtomicU64::new(0)));
/// let progress = Last::default();
/// batch::plumbing::run(&job, vec![input], &mut sink, &config, &quit, &bytes_read, &progress)?;
/// assert_eq!(progress.total.get(), size); // the input's size in bytes
/// assert_eq!(progress.records.get(), 10);
/// assert!(progress.finished.get());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Progress {
    /// The run starts. `total` is the position at which the run will be
    /// complete, when known: the inputs' size in bytes for a run over
    /// input files (unknown when one is a pipe), the number of puzzles for
    /// `generate`.
    fn start(&self, total: Option<u64>);

    /// Records (or puzzles) done so far, in input order, and the position
    /// reached: input bytes read when their batch was cut, or puzzles made.
    fn update(&self, records: u64, position: u64);

    /// The run ended (completed, stopped or failed): clear what was drawn.
    fn finish(&self);
}

/// `()` shows nothing.
impl Progress for () {
    fn start(&self, _total: Option<u64>) {}
    fn update(&self, _records: u64, _position: u64) {}
    fn finish(&self) {}
}
