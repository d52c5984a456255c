//! Streaming generation (`batchdoku generate`) on the one ordered
//! pipeline that also runs `solve`: the work is the range of puzzle
//! indices `start..start + count`, cut into numbered chunks; workers, each
//! with its own solver, make and encode the chunks' puzzles, and the
//! writer writes them in index order.
//!
//! Puzzle `i` depends only on the seed and `i` (see [`Generator`]), and
//! the pipeline writes chunks in order, so the bytes written are the same
//! for any thread count and chunk size. At most `in_flight` chunks exist
//! at once, so memory does not grow with the count. A worker that panics
//! ends the run with [`Fatal::Panicked`] naming the puzzle. Each puzzle is
//! a [`Row`] written by the [`RowEncoder`] every command writes through;
//! keeping the output (renaming `-o`'s file) is the caller's, as after
//! every other run ([`crate::flush`]).

use std::ops::AddAssign;
#[cfg(feature = "rate")]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::output::{Column, OutputFormat, Row, RowEncoder, Status};
use crate::pipeline::{self, Fatal, Feed, Halt, PanicSite, Progress, Shape, Sink, Stop, Work};
use batchdoku_core::solver::Solver;
use batchdoku_core::Record;
use batchdoku_core::{GenerateError, Generated, Generator};

/// Makes puzzle `index`: a [`Generator`], or in the tests a wrapper that
/// fails on purpose.
pub(crate) trait MakePuzzle: Sync {
    /// Puzzle number `index`, as [`Generator::puzzle`] makes it;
    /// `should_stop` is polled between attempts.
    fn make_puzzle(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: &dyn Fn() -> bool,
    ) -> Result<Generated, GenerateError>;

    /// Why the run cannot go on, when it gave up on its own (an ER target
    /// whose every candidate so far ran out of budget): the puzzle being
    /// made then stopped, and the run ends with this error.
    fn gave_up(&self) -> Option<String> {
        None
    }
}

impl MakePuzzle for Generator {
    fn make_puzzle(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: &dyn Fn() -> bool,
    ) -> Result<Generated, GenerateError> {
        self.puzzle(index, solver, should_stop)
    }
}

/// An ER target for generated puzzles: keep only those whose ER (Sudoku
/// Explainer's rating, in tenths: 23 is 2.3) is in `min..=max`, rated as
/// [`RateJob`](crate::RateJob) with `limit` rates them. Needs the `rate`
/// feature (the LGPL rater).
///
/// # Example
/// ```
/// use batchdoku_batch::{Batch, ErTarget, OutputFormat, RateJob};
/// use batchdoku_core::{ClueTarget, Generator, Spec};
/// let spec = Spec { clues: ClueTarget::AtLeast(30), ..Spec::default() };
/// let generator = Generator::new(spec, 7)?;
/// // Puzzles rated ER 1.0 to 2.5 only (easy ones), each rating within 1M units.
/// let easy = ErTarget { min: 10, max: 25, limit: 1_000_000 };
/// let mut out = Vec::new();
/// let made = Batch::new().format(OutputFormat::Line).generate_to_writer(&generator, 0..2, Some(easy), &mut out);
/// if RateJob::available().is_ok() {
///     let report = made?;
///     assert_eq!(report.puzzles, 2);
///     assert!(report.rated >= 2); // every candidate kept was rated
/// } else {
///     assert!(made.unwrap_err().to_string().contains("`rate` feature"));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErTarget {
    /// The lowest ER kept, in tenths.
    pub min: u8,
    /// The highest ER kept, in tenths.
    pub max: u8,
    /// The rater's work budget per candidate; a candidate whose rating
    /// runs out of it is not kept.
    pub limit: u64,
}

impl ErTarget {
    /// How many candidates in a row, from the start, may run out of budget
    /// before a run with an ER target stops: when none of them could be rated
    /// the budget is too small for any (`--limit 1`), and the run would
    /// otherwise go on forever, silently.
    pub const GIVE_UP_AFTER: u64 = 16;
}

/// The candidates an ER target rated, over the whole run (every worker,
/// also for puzzles an interruption left unwritten).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Candidates {
    /// Candidates rated.
    pub tried: u64,
    /// Of those, rated outside the range (not kept).
    pub out_of_range: u64,
    /// Of those, whose rating ran out of budget (not kept).
    pub out_of_budget: u64,
}

/// The live counts behind [`Candidates`], shared by the workers.
#[cfg(feature = "rate")]
#[derive(Debug, Default)]
struct Tally {
    tried: AtomicU64,
    out_of_range: AtomicU64,
    out_of_budget: AtomicU64,
    /// Candidates whose rating finished (in range or not).
    finished: AtomicU64,
    /// Every one of the first [`ErTarget::GIVE_UP_AFTER`] candidates ran out of
    /// budget: the run stops.
    gave_up: AtomicBool,
}

#[cfg(feature = "rate")]
impl Tally {
    fn candidates(&self) -> Candidates {
        Candidates {
            tried: self.tried.load(Ordering::Relaxed),
            out_of_range: self.out_of_range.load(Ordering::Relaxed),
            out_of_budget: self.out_of_budget.load(Ordering::Relaxed),
        }
    }
}

/// A [`Generator`] with an ER target: every candidate that meets the spec
/// is rated, and one out of range, or whose rating runs out of budget,
/// counts as a failed attempt (the next continues the same stream, so the
/// puzzles still depend only on the seed and the index). When the first
/// [`ErTarget::GIVE_UP_AFTER`] candidates all ran out of budget and none was rated,
/// the run stops with an error rather than run forever.
#[cfg(feature = "rate")]
struct Rated<'a> {
    generator: &'a Generator,
    target: ErTarget,
    tally: &'a Tally,
}

#[cfg(feature = "rate")]
impl MakePuzzle for Rated<'_> {
    fn make_puzzle(
        &self,
        index: u64,
        solver: &mut Solver,
        should_stop: &dyn Fn() -> bool,
    ) -> Result<Generated, GenerateError> {
        let ErTarget { min, max, limit } = self.target;
        let tally = self.tally;
        let mut rater = batchdoku_rate::Rater::new();
        let stop = || should_stop() || tally.gave_up.load(Ordering::Relaxed);
        self.generator.puzzle_where(index, solver, stop, |puzzle| {
            tally.tried.fetch_add(1, Ordering::Relaxed);
            // Ctrl-C reaches inside one candidate's rating.
            let budget = batchdoku_rate::Budget::new(limit).until(should_stop);
            // A candidate above the range is known as soon as its easiest
            // step is: the rest of its rating (the costly part of a hard
            // one) is skipped, as `rate --max-er` skips it.
            let bounds = batchdoku_rate::Bounds {
                max_er: Some(max),
                ..batchdoku_rate::Bounds::default()
            };
            match rater.rate_bounded(puzzle, budget, bounds) {
                Ok(r) => {
                    tally.finished.fetch_add(1, Ordering::Relaxed);
                    let kept = (min..=max).contains(&r.er);
                    if !kept {
                        tally.out_of_range.fetch_add(1, Ordering::Relaxed);
                    }
                    kept
                }
                Err(batchdoku_rate::Unrated::Above) => {
                    tally.finished.fetch_add(1, Ordering::Relaxed);
                    tally.out_of_range.fetch_add(1, Ordering::Relaxed);
                    false
                }
                Err(_) => {
                    let out = tally.out_of_budget.fetch_add(1, Ordering::Relaxed) + 1;
                    if out >= ErTarget::GIVE_UP_AFTER && tally.finished.load(Ordering::Relaxed) == 0
                    {
                        tally.gave_up.store(true, Ordering::Relaxed);
                    }
                    false
                }
            }
        })
    }

    fn gave_up(&self) -> Option<String> {
        let tally = self.tally;
        tally.gave_up.load(Ordering::Relaxed).then(|| {
            format!(
                "gave up: the first {} candidates all ran out of the rating budget ({} work \
                 units each) and none was rated, so no puzzle can be kept: raise the budget",
                tally.out_of_budget.load(Ordering::Relaxed),
                self.target.limit
            )
        })
    }
}

/// How a generation run is shaped.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
/// use batchdoku_batch::{self as batch, OutputFormat};
/// use batchdoku_batch::plumbing::{GenerateConfig, Sink};
/// use batchdoku_core::{parse_line, Generator, Solver, Spec};
///
/// // Resume a run at puzzle 5: the same puzzles as a run from 0 would make.
/// let generator = Generator::new(Spec::default(), 42)?;
/// let config = GenerateConfig {
///     start: 5,
///     count: 3,
///     threads: 2,
///     chunk_size: 64,
///     format: OutputFormat::Line,
///     header: false,
///     er: None,
/// };
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("puzzles.txt");
/// let mut sink = Sink::file(&path)?;
/// batch::plumbing::generate(&generator, &mut sink, &config, &AtomicBool::new(false), &())?;
/// sink.finish()?;
///
/// let text = std::fs::read_to_string(&path)?;
/// let mut solver = Solver::new();
/// for (line, index) in text.lines().zip(5..) {
///     let made_alone = generator.puzzle(index, &mut solver, || false)?;
///     assert_eq!(parse_line(line.as_bytes())?, made_alone.puzzle);
/// }
/// assert_eq!(text.lines().count(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StreamConfig {
    /// Generator index of the first puzzle (puzzles `start..start + count`
    /// are made). Rows count from 1 as every command's do: puzzle `i` is
    /// written with `index` `i + 1`.
    pub start: u64,
    /// Number of puzzles.
    pub count: u64,
    /// Worker threads.
    pub threads: usize,
    /// Most puzzles per chunk handed to a worker (fewer when the count is
    /// small, so that every worker gets about four chunks).
    pub chunk_size: usize,
    /// The output format: `line` writes the puzzle; `csv` the puzzle and
    /// its solution; `jsonl` the index, givens, puzzle and solution.
    pub format: OutputFormat,
    /// Write the CSV header row.
    pub header: bool,
    /// Keep only puzzles whose ER is in a range (the `rate` feature).
    pub er: Option<ErTarget>,
}

/// How a generation run ended.
///
/// # Example
/// ```
/// # use std::sync::atomic::AtomicBool;
/// # use batchdoku_batch::{self as batch, OutputFormat};
/// # use batchdoku_batch::plumbing::{GenerateConfig, Sink};
/// # use batchdoku_core::{Generator, Spec};
/// # let generator = Generator::new(Spec::default(), 42)?;
/// # let config = GenerateConfig {
/// #     start: 0,
/// #     count: 10,
/// #     threads: 2,
/// #     chunk_size: 64,
/// #     format: OutputFormat::Line,
/// #     header: false,
/// #     er: None,
/// # };
/// # let dir = tempfile::tempdir()?;
/// # let mut sink = Sink::file(&dir.path().join("puzzles.txt"))?;
/// # let quit = AtomicBool::new(false);
/// // After a run of 10 puzzles (see `batch::generate`):
/// let report = batch::plumbing::generate(&generator, &mut sink, &config, &quit, &())?;
/// assert_eq!(report.puzzles, 10);
/// assert!(report.attempts >= report.puzzles); // retries, when an attempt missed the spec
/// assert!(report.givens >= 17 * report.puzzles);
/// assert!(!report.interrupted && !report.broken_pipe); // the output may be kept
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamReport {
    /// Puzzles written.
    pub puzzles: u64,
    /// Attempts over the puzzles written (equal to `puzzles` when every
    /// first attempt met the spec).
    pub attempts: u64,
    /// Givens over the puzzles written.
    pub givens: u64,
    /// Candidates rated for the puzzles written (with an ER target,
    /// [`StreamConfig::er`]; else 0): how many were tried to keep them.
    pub rated: u64,
    /// With an ER target: every candidate rated during the run, also for
    /// puzzles an interruption left unwritten, with why those not kept
    /// were not (all zero without a target).
    pub candidates: Candidates,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The quit flag was raised (Ctrl-C) before the end.
    pub interrupted: bool,
    /// stdout was closed by its reader: the run stopped quietly.
    pub broken_pipe: bool,
}

/// The columns `generate` writes in `format`: the puzzle (`line`);
/// `puzzle,solution` (CSV, Parquet); index, givens, puzzle and solution
/// (JSON lines).
pub(crate) fn columns(format: OutputFormat) -> &'static [Column] {
    match format {
        OutputFormat::Line => &[Column::Puzzle],
        OutputFormat::Csv | OutputFormat::Parquet => &[Column::Puzzle, Column::Solution],
        OutputFormat::Jsonl => &[
            Column::Index,
            Column::Givens,
            Column::Puzzle,
            Column::Solution,
        ],
    }
}

/// Makes puzzles `config.start..config.start + config.count` of
/// `generator` and writes them to `sink` in index order. `quit` is polled
/// between puzzles and between attempts (Ctrl-C); `progress` hears of each
/// chunk written, its position counting puzzles. The caller keeps the
/// output, or not, as after [`pipeline::run`](crate::pipeline::run).
///
/// The bytes written are the same for any thread count and chunk size:
/// puzzle `i` depends only on the seed, the spec and `i`.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicBool;
/// use batchdoku_batch::{self as batch, OutputFormat};
/// use batchdoku_batch::plumbing::{GenerateConfig, Sink};
/// use batchdoku_core::{parse_line, ClueTarget, Engine, Generator, Solver, Spec};
///
/// let spec = Spec { clues: ClueTarget::AtLeast(24), ..Spec::default() };
/// let generator = Generator::new(spec, 42)?;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("puzzles.csv");
/// let mut sink = Sink::file(&path)?;
/// let config = GenerateConfig {
///     start: 0,
///     count: 20,
///     threads: 2,
///     chunk_size: 8,
///     format: OutputFormat::Csv,
///     header: true,
///     er: None,
/// };
/// let quit = AtomicBool::new(false); // raise it (from a Ctrl-C handler) to stop early
/// let mut report = batch::plumbing::generate(&generator, &mut sink, &config, &quit, &())?;
/// assert_eq!(report.puzzles, 20);
/// if let Some(flushed) = batch::plumbing::flush(sink, report.interrupted, &mut report.broken_pipe)? {
///     flushed.persist()?;
/// }
///
/// let csv = std::fs::read_to_string(&path)?;
/// let mut lines = csv.lines();
/// assert_eq!(lines.next(), Some("puzzle,solution"));
/// let mut solver = Solver::new();
/// for line in lines {
///     let (puzzle, solution) = line.split_once(',').unwrap();
///     let (puzzle, solution) = (parse_line(puzzle.as_bytes())?, parse_line(solution.as_bytes())?);
///     assert!(puzzle.given_count() >= 24);
///     let outcome = solver.count_solutions_up_to(&puzzle, 2).unwrap();
///     assert_eq!((outcome.solutions, outcome.solution), (1, Some(solution)));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    generator: &Generator,
    sink: &mut Sink,
    config: &StreamConfig,
    quit: &AtomicBool,
    progress: &dyn Progress,
) -> Result<StreamReport, Fatal> {
    match config.er {
        None => run_with(generator, sink, config, quit, progress),
        #[cfg(feature = "rate")]
        Some(target) => {
            let tally = Tally::default();
            let rated = Rated {
                generator,
                target,
                tally: &tally,
            };
            let mut report = run_with(&rated, sink, config, quit, progress)?;
            report.candidates = tally.candidates();
            Ok(report)
        }
        #[cfg(not(feature = "rate"))]
        Some(_) => Err(Fatal::Job(crate::RATE_FEATURE_MISSING.into())),
    }
}

/// [`run`] over any [`MakePuzzle`].
fn run_with<G: MakePuzzle>(
    generator: &G,
    sink: &mut Sink,
    config: &StreamConfig,
    quit: &AtomicBool,
    progress: &dyn Progress,
) -> Result<StreamReport, Fatal> {
    let start = Instant::now();
    let threads = config.threads.max(1);
    // Small runs get smaller chunks, so every worker has some (about four
    // chunks per worker); the chunking never changes the output.
    let fair_share = config.count.div_ceil(4 * threads as u64).max(1);
    let chunk_size = (config.chunk_size.max(1) as u64).min(fair_share);
    let end = config
        .start
        .checked_add(config.count)
        .ok_or_else(|| Fatal::Job("the first index plus the count overflows".into()))?;
    let feed = Indices {
        start: config.start,
        next: config.start,
        end,
        chunk_size,
    };
    let work = Puzzles {
        generator,
        format: config.format,
    };
    // Parquet's schema always comes first; `header` is the CSV header's.
    let header = if config.header || config.format == OutputFormat::Parquet {
        RowEncoder::header(config.format, columns(config.format), &[])
    } else {
        Vec::new()
    };
    sink.set_format(config.format).map_err(Fatal::Write)?;
    // Many small chunks in flight let the other workers run ahead of one slow
    // puzzle (retries vary a lot) while memory stays tiny.
    let shape = Shape {
        threads,
        in_flight: 8 * threads + 8,
    };
    let ended = pipeline::ordered::run(feed, &work, sink, &header, shape, quit, progress, None)?;
    let made = ended.totals;
    let report = StreamReport {
        puzzles: made.puzzles,
        attempts: made.attempts,
        givens: made.givens,
        rated: made.rated,
        candidates: Candidates::default(),
        elapsed: start.elapsed(),
        interrupted: quit.load(Ordering::SeqCst) && made.puzzles < config.count,
        broken_pipe: ended.broken_pipe,
    };
    Ok(report)
}

/// A chunk of work: puzzles `first..end`.
#[derive(Clone, Copy, Debug, Default)]
struct Chunk {
    first: u64,
    end: u64,
}

/// Cuts `start..end` into chunks of `chunk_size` indices.
struct Indices {
    start: u64,
    next: u64,
    end: u64,
    chunk_size: u64,
}

impl Feed for Indices {
    type Items = Chunk;

    fn fill(&mut self, chunk: &mut Chunk) -> Result<bool, Fatal> {
        if self.next >= self.end {
            return Ok(false);
        }
        chunk.first = self.next;
        chunk.end = self.next.saturating_add(self.chunk_size).min(self.end);
        self.next = chunk.end;
        Ok(true)
    }

    fn position(&self) -> u64 {
        self.next - self.start
    }

    fn total(&self) -> Option<u64> {
        Some(self.end - self.start)
    }

    fn site(&self) -> PanicSite {
        PanicSite::Reader { source: None }
    }
}

/// Counts over the puzzles written.
#[derive(Clone, Copy, Debug, Default)]
struct Made {
    puzzles: u64,
    attempts: u64,
    givens: u64,
    rated: u64,
}

impl AddAssign for Made {
    fn add_assign(&mut self, other: Made) {
        self.puzzles += other.puzzles;
        self.attempts += other.attempts;
        self.givens += other.givens;
        self.rated += other.rated;
    }
}

/// Makes and encodes each puzzle of a chunk.
struct Puzzles<'a, G> {
    generator: &'a G,
    format: OutputFormat,
}

/// A worker's own: its solver, the row it fills and its encoder.
struct Scratch {
    solver: Solver,
    row: Row,
    encoder: RowEncoder,
}

impl<G: MakePuzzle> Work for Puzzles<'_, G> {
    type Items = Chunk;
    type Scratch = Scratch;
    type Totals = Made;

    fn scratch(&self) -> Scratch {
        Scratch {
            solver: Solver::new(),
            row: Row::default(),
            encoder: RowEncoder::new(self.format, columns(self.format), &[]),
        }
    }

    fn len(&self, chunk: &Chunk) -> usize {
        (chunk.end - chunk.first) as usize
    }

    fn process(
        &self,
        scratch: &mut Scratch,
        chunk: &Chunk,
        k: usize,
        out: &mut Vec<u8>,
        made: &mut Made,
        stop: &Stop<'_>,
    ) -> Result<(), Halt> {
        let index = chunk.first + k as u64;
        match self
            .generator
            .make_puzzle(index, &mut scratch.solver, &|| stop.raised())
        {
            Ok(g) => {
                let row = &mut scratch.row;
                row.reset(index + 1, 0);
                row.status = Status::Unique;
                row.solutions = 1;
                row.puzzle = Some(g.puzzle);
                row.solution = Some(g.solution);
                // Encoding into a Vec fails only on a serializer bug.
                scratch
                    .encoder
                    .encode(row, &Record::default(), out)
                    .map_err(|e| Halt::Failed(Fatal::Job(Box::new(e))))?;
                made.puzzles += 1;
                made.attempts += g.attempts;
                made.givens += g.puzzle.given_count() as u64;
                made.rated += g.tested;
                Ok(())
            }
            Err(GenerateError::Stopped) => match self.generator.gave_up() {
                Some(why) => Err(Halt::Failed(Fatal::Job(why.into()))),
                None => Err(Halt::Stopped),
            },
            Err(e) => Err(Halt::Failed(Fatal::Job(Box::new(e)))),
        }
    }

    fn site(&self, chunk: &Chunk, k: usize) -> PanicSite {
        PanicSite::Puzzle {
            index: chunk.first + k as u64 + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::tests::within;
    use batchdoku_core::{ClueTarget, Spec};

    /// With an ER target every kept puzzle rates in range; the candidates
    /// come from the plain generator's stream, so a first candidate in
    /// range is the plain puzzle itself; and the target keeps
    /// reproducibility.
    #[cfg(feature = "rate")]
    #[test]
    fn an_er_target_keeps_only_puzzles_in_range() {
        use batchdoku_core::Grid;
        use batchdoku_rate::{Budget, Rater};
        let spec = Spec {
            clues: ClueTarget::AtLeast(30),
            ..Spec::default()
        };
        let plain = Generator::new(spec, 3).unwrap();
        let (min, max, limit) = (12, 15, 1_000_000);
        let tally = Tally::default();
        let target = Rated {
            generator: &plain,
            target: ErTarget { min, max, limit },
            tally: &tally,
        };
        let mut solver = Solver::new();
        let mut rater = Rater::new();
        let mut er = |p: &Grid| rater.rate(p, Budget::new(limit)).ok().map(|r| r.er);
        for i in 0..12 {
            let g = target.make_puzzle(i, &mut solver, &|| false).unwrap();
            let kept = er(&g.puzzle);
            assert!(
                kept.is_some_and(|e| (min..=max).contains(&e)),
                "{i}: {kept:?}"
            );
            assert!(g.tested >= 1 && g.tested <= g.attempts, "{g:?}");
            let first = plain.puzzle(i, &mut solver, || false).unwrap();
            assert_eq!(first.tested, 0);
            if er(&first.puzzle).is_some_and(|e| (min..=max).contains(&e)) {
                assert_eq!((g.puzzle, g.tested), (first.puzzle, 1));
            } else {
                assert!(g.tested > 1, "{i}: the first candidate was out of range");
            }
            let again = target
                .make_puzzle(i, &mut Solver::new(), &|| false)
                .unwrap();
            assert_eq!(again, g);
        }
    }

    fn generator(seed: u64) -> Generator {
        Generator::new(Spec::default(), seed).unwrap()
    }

    fn config(threads: usize, chunk_size: usize, format: OutputFormat) -> StreamConfig {
        StreamConfig {
            start: 0,
            count: 30,
            threads,
            chunk_size,
            format,
            header: true,
            er: None,
        }
    }

    /// Runs into a temporary file and returns its bytes.
    fn bytes(generator: &Generator, config: &StreamConfig) -> (Vec<u8>, StreamReport) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut sink = Sink::file(&path).unwrap();
        let report = run(generator, &mut sink, config, &AtomicBool::new(false), &()).unwrap();
        sink.finish().unwrap();
        (std::fs::read(&path).unwrap(), report)
    }

    #[test]
    fn output_is_independent_of_threads_and_chunks() {
        let g = generator(5);
        let (one, report) = bytes(&g, &config(1, 64, OutputFormat::Csv));
        assert_eq!(report.puzzles, 30);
        assert_eq!(report.attempts, 30);
        assert!(report.givens >= 30 * 17);
        assert!(!report.interrupted && !report.broken_pipe);
        for (threads, chunk) in [(2, 1), (2, 7), (3, 30), (1, 4)] {
            let (other, _) = bytes(&g, &config(threads, chunk, OutputFormat::Csv));
            assert_eq!(other, one, "{threads} threads, chunks of {chunk}");
        }
        let text = String::from_utf8(one).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 31);
        assert_eq!(lines[0], "puzzle,solution");
        let mut solver = Solver::new();
        for (i, line) in lines[1..].iter().enumerate() {
            let expected = g.puzzle(i as u64, &mut solver, || false).unwrap();
            let want = format!(
                "{},{}",
                expected.puzzle.to_line_string(),
                expected.solution.to_line_string()
            );
            assert_eq!(*line, want, "puzzle {i}");
        }
    }

    #[test]
    fn start_offsets_the_indices() {
        let g = generator(9);
        let (all, _) = bytes(&g, &config(2, 4, OutputFormat::Line));
        let mut tail = config(2, 4, OutputFormat::Line);
        tail.start = 10;
        tail.count = 20;
        let (part, _) = bytes(&g, &tail);
        assert_eq!(part, all[10 * 82..]);
        assert!(all.chunks(82).all(|l| l.len() == 82 && l[81] == b'\n'));
    }

    #[test]
    fn jsonl_records_parse() {
        let spec = Spec {
            clues: ClueTarget::AtLeast(30),
            ..Spec::default()
        };
        let g = Generator::new(spec, 1).unwrap();
        let mut cfg = config(2, 3, OutputFormat::Jsonl);
        cfg.count = 5;
        cfg.start = 7;
        let (out, _) = bytes(&g, &cfg);
        let text = String::from_utf8(out).unwrap();
        for (k, line) in text.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["index"], 8 + k as u64, "1-based");
            let puzzle = v["puzzle"].as_str().unwrap();
            assert_eq!(v["givens"], puzzle.bytes().filter(|&b| b != b'.').count());
            assert!(v["givens"].as_u64().unwrap() >= 30);
            assert_eq!(v["solution"].as_str().unwrap().len(), 81);
        }
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn zero_puzzles_write_only_the_header() {
        let g = generator(1);
        let mut cfg = config(2, 8, OutputFormat::Csv);
        cfg.count = 0;
        let (out, report) = bytes(&g, &cfg);
        assert_eq!(out, b"puzzle,solution\n");
        assert_eq!(report.puzzles, 0);
        cfg.format = OutputFormat::Line;
        assert!(bytes(&g, &cfg).0.is_empty());
    }

    #[test]
    fn a_raised_quit_flag_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out");
        let mut sink = Sink::file(&path).unwrap();
        let mut cfg = config(2, 1, OutputFormat::Line);
        cfg.count = 1000;
        let report = run(&generator(2), &mut sink, &cfg, &AtomicBool::new(true), &()).unwrap();
        assert!(report.interrupted);
        assert!(report.puzzles < 1000);
        drop(sink);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// Makes puzzles as a [`Generator`], but panics on puzzle `panic_at`
    /// and fails the final check on puzzle `fail_at`.
    struct Faulty {
        inner: Generator,
        panic_at: u64,
        fail_at: u64,
    }

    impl MakePuzzle for Faulty {
        fn make_puzzle(
            &self,
            index: u64,
            solver: &mut Solver,
            should_stop: &dyn Fn() -> bool,
        ) -> Result<Generated, GenerateError> {
            if index == self.panic_at {
                panic!("test panic on puzzle {index}");
            }
            if index == self.fail_at {
                return Err(GenerateError::Unverified(index));
            }
            self.inner.make_puzzle(index, solver, should_stop)
        }
    }

    /// Runs `maker` into a file; returns the result and how many files
    /// the directory holds afterwards.
    fn run_faulty(maker: &Faulty, cfg: &StreamConfig) -> (Result<StreamReport, Fatal>, usize) {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = Sink::file(&dir.path().join("out")).unwrap();
        let result = run_with(maker, &mut sink, cfg, &AtomicBool::new(false), &());
        drop(sink);
        (result, std::fs::read_dir(dir.path()).unwrap().count())
    }

    /// A panicking worker ends the run at once naming the puzzle, with
    /// more puzzles than the in-flight cap (8 x threads + 8 chunks); the
    /// output is not kept.
    #[test]
    fn a_panicking_worker_ends_generation_naming_the_puzzle() {
        for (threads, chunk, at) in [(1, 1, 0), (2, 1, 150), (3, 4, 299), (2, 64, 37)] {
            let (result, files) = within(60, move || {
                let maker = Faulty {
                    inner: generator(3),
                    panic_at: at,
                    fail_at: u64::MAX,
                };
                let mut cfg = config(threads, chunk, OutputFormat::Line);
                cfg.count = 300;
                run_faulty(&maker, &cfg)
            });
            let err = result.unwrap_err();
            assert!(
                matches!(&err, Fatal::Panicked { site: PanicSite::Puzzle { index }, .. } if *index == at + 1),
                "{err:?}"
            );
            // Named by its 1-based number, as its row's index would be.
            assert_eq!(
                err.to_string(),
                format!(
                    "worker panicked on puzzle {}: test panic on puzzle {at}",
                    at + 1
                )
            );
            assert_eq!(files, 0, "output kept after a panic");
        }
    }

    #[test]
    fn a_failed_final_check_ends_generation() {
        let (result, files) = within(60, || {
            let maker = Faulty {
                inner: generator(3),
                panic_at: u64::MAX,
                fail_at: 40,
            };
            let mut cfg = config(2, 1, OutputFormat::Csv);
            cfg.count = 200;
            run_faulty(&maker, &cfg)
        });
        let err = result.unwrap_err();
        assert_eq!(
            err.to_string(),
            "internal error: generated puzzle 40 failed its final uniqueness check"
        );
        assert_eq!(files, 0);
    }

    #[test]
    fn progress_counts_puzzles_against_the_count() {
        struct Last(std::sync::Mutex<(Option<u64>, u64, u64, bool)>);
        impl Progress for Last {
            fn start(&self, total: Option<u64>) {
                self.0.lock().unwrap().0 = total;
            }
            fn update(&self, records: u64, position: u64) {
                let mut last = self.0.lock().unwrap();
                assert!(records > last.1 && position > last.2);
                (last.1, last.2) = (records, position);
            }
            fn finish(&self) {
                self.0.lock().unwrap().3 = true;
            }
        }
        let last = Last(Default::default());
        let dir = tempfile::tempdir().unwrap();
        let mut sink = Sink::file(&dir.path().join("out")).unwrap();
        let mut cfg = config(2, 3, OutputFormat::Line);
        cfg.start = 5;
        run(
            &generator(4),
            &mut sink,
            &cfg,
            &AtomicBool::new(false),
            &last,
        )
        .unwrap();
        assert_eq!(*last.0.lock().unwrap(), (Some(30), 30, 30, true));
    }
}
