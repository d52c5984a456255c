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
