//! `report` (the `report` feature): a corpus at a glance, for the
//! `batchdoku report` command and the Python package's `report()`, which
//! give the same figures. One streaming pass through the
//! pipeline (`batchdoku_batch::plumbing::run`) solves each puzzle counting to two with
//! the difficulty columns of `solve -k 2 --difficulty` (the same
//! [`SolveJob`]), optionally scores it and finds its class up to
//! symmetry, and feeds every finished row to a constant-memory
//! `Aggregate`. The result, a [`CorpusReport`], renders as one
//! self-contained HTML page with SVG plots, as Markdown, or as JSON (the
//! same numbers, for machines).
//!
//! ```text
//! records ─▶ workers: ReportJob::process (solve -k 2 --rate, score, class)
//!                     ReportJob::writes  ─▶ this worker's Aggregate
//!            end:     Aggregates merged ─▶ CorpusReport ─▶ html | markdown | json
//! ```
//!
//! The report writes no rows: [`Job::writes`] is the one place a job sees
//! each finished row (invalid records included, with their input and
//! line), so it counts the row there into the aggregate
//! of the worker it runs on (one mutex per worker, never contended) and
//! answers `false`. Aggregates merge by sums and a minimum, so the report
//! is the same at any thread count.
//!
//! For the `batchdoku` binary and the Python binding: not part of the
//! documented API (the module is hidden) and not covered by semver.

mod aggregate;
mod html;
mod json;
mod largest;
mod markdown;
mod plot;
mod provenance;
mod ratings;
mod summary;
#[cfg(test)]
mod tests;
mod text;

use aggregate::{Aggregate, AuditNote};
use largest::{Example, LargestClasses};
pub use provenance::utc;
pub use ratings::RatingSource;
use summary::{ClassEntry, ClassExample, ClassSummary};
pub use summary::{CorpusReport, InputInfo, OptionInEffect, OptionValue, RunFacts, RunOptions};

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use crate::Job;
use crate::{ClassMap, EngineKind, RateJob, ScoreJob, SolveJob};

/// A class's first record and its size.
type ClassCount = (u64, u64);
use crate::{Expected, Row, Status};
use batchdoku_core::Canonicalizer;
use batchdoku_core::Engine;
use batchdoku_core::Grid;
use batchdoku_core::Record;
use batchdoku_core::Solver;
use batchdoku_core::{ScoreOptions, Weights};

/// How many of the largest classes a report lists.
pub const LARGEST_CLASSES: usize = 10;
const _: () = assert!(LARGEST_CLASSES <= largest::CAPACITY);

/// The formats a report renders to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One self-contained HTML page: inline CSS and SVG plots, no scripts.
    Html,
    /// The same numbers as JSON.
    Json,
    /// Markdown tables, with text bars for plots.
    Markdown,
}

impl Format {
    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Json => "json",
            Format::Markdown => "markdown",
        }
    }

    /// The name a person reads in the summary line (`HTML page`).
    pub fn page_name(self) -> &'static str {
        match self {
            Format::Html => "HTML page",
            Format::Json => "JSON report",
            Format::Markdown => "Markdown report",
        }
    }

    /// The format an output path's extension names: `.html`/`.htm`,
    /// `.json`, `.md`/`.markdown`/`.txt`; `None` for any other.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "html" | "htm" => Some(Format::Html),
            "json" => Some(Format::Json),
            "md" | "markdown" | "txt" => Some(Format::Markdown),
            _ => None,
        }
    }
}

/// Renders `report` in `format`.
pub fn render(report: &CorpusReport, format: Format) -> String {
    match format {
        Format::Html => html::render(report),
        Format::Json => json::render(report),
        Format::Markdown => markdown::render(report),
    }
}

/// What a report computes beyond the solve with difficulty columns.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Count classes up to symmetry and exact repeats (memory grows with
    /// the distinct puzzles: see `ClassMap::table_bytes`).
    pub classes: bool,
    /// Score each puzzle that has solutions: the weights' name (`target`
    /// or a path) and the weights.
    pub score: Option<(String, Weights)>,
    /// Where the ER distribution's ratings come from, if anywhere.
    pub ratings: Option<RatingSource>,
    /// Whether an input has an expected-solution column: the report then
    /// shows the audit of its answers.
    pub audit: bool,
}

/// The class tables of `--classes`.
#[derive(Debug, Default)]
struct Classes {
    /// Per canonical form: first record and records.
    canonical: ClassMap<ClassCount>,
    /// Every distinct puzzle (for exact repeats).
    exact: ClassMap<()>,
    /// Per worker: the largest classes with their forms and examples.
    largest: Box<[Mutex<LargestClasses>]>,
}

impl Classes {
    fn new(threads: usize) -> Classes {
        Classes {
            canonical: ClassMap::new(),
            exact: ClassMap::new(),
            largest: (0..threads.max(1))
                .map(|_| Mutex::new(LargestClasses::default()))
                .collect(),
        }
    }
}

/// This worker's index among `n` per-worker slots.
fn worker_slot(n: usize) -> usize {
    rayon::current_thread_index().unwrap_or(0) % n
}

/// The per-record work of `report`: a [`Job`] that writes no rows and
/// aggregates them instead. Make one per run, run it through
/// `batchdoku_batch::plumbing::run`, then call
/// [`finish`](ReportJob::finish).
#[derive(Debug)]
pub struct ReportJob {
    solve: SolveJob,
    score: Option<(String, ScoreJob)>,
    classes: Option<Classes>,
    ratings: Option<RatingSource>,
    audit: bool,
    shards: Box<[Mutex<Aggregate>]>,
}

/// One worker's scratch for [`ReportJob`].
pub struct ReportScratch {
    engine: Box<dyn Engine + Send>,
    scorer: Solver,
    canon: Canonicalizer,
    score_row: Row,
    rater: Option<<RateJob as Job>::Scratch>,
    rate_row: Row,
}

impl std::fmt::Debug for ReportScratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReportScratch")
    }
}

impl ReportJob {
    /// A job for a run on `threads` workers.
    pub fn new(options: ReportOptions, threads: usize) -> ReportJob {
        ReportJob {
            solve: SolveJob {
                count_limit: 2,
                engine: EngineKind::Mrv,
                difficulty: true,
            },
            score: options.score.map(|(name, weights)| {
                (
                    name,
                    ScoreJob {
                        weights,
                        options: ScoreOptions::default(),
                    },
                )
            }),
            classes: options.classes.then(|| Classes::new(threads)),
            ratings: options.ratings,
            audit: options.audit,
            shards: (0..threads.max(1))
                .map(|_| Mutex::new(Aggregate::default()))
                .collect(),
        }
    }

    /// The report, once the run is over: merges the workers' aggregates
    /// (leaving them empty) and adds the classes and the `run` facts.
    pub fn finish(&self, run: RunFacts) -> CorpusReport {
        let mut total = Aggregate::default();
        for shard in self.shards.iter() {
            let mut shard = shard.lock().unwrap_or_else(PoisonError::into_inner);
            total.merge(std::mem::take(&mut *shard));
        }
        let classes = self
            .classes
            .as_ref()
            .map(|c| class_summary(c, total.valid()));
        let weights = self.score.as_ref().map(|(name, _)| name.as_str());
        let ratings = self.ratings.as_ref().map(RatingSource::name);
        CorpusReport::new(&total, weights, ratings, classes, self.audit, run)
    }
}

impl Job for ReportJob {
    type Scratch = ReportScratch;

    fn scratch(&self) -> ReportScratch {
        ReportScratch {
            engine: self.solve.scratch(),
            scorer: Solver::new(),
            canon: Canonicalizer::new(),
            score_row: Row::default(),
            rater: match &self.ratings {
                Some(RatingSource::Rate(job)) => Some(job.scratch()),
                _ => None,
            },
            rate_row: Row::default(),
        }
    }

    fn process(&self, scratch: &mut ReportScratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        self.solve.process(&mut scratch.engine, puzzle, record, row);
        if row.status == Status::Invalid {
            return;
        }
        if let (Some(kind @ (Expected::Mismatch | Expected::Malformed)), Some(given)) =
            (row.expected, &record.expected)
        {
            self.shards[worker_slot(self.shards.len())]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .audit
                .note(kind, row.index, || AuditNote {
                    index: row.index,
                    line: row.line,
                    input: row.source.to_string(),
                    puzzle: puzzle.to_line_string(),
                    given: given.as_ref().ok().map(Grid::to_line_string),
                    why: why_not_the_solution(puzzle, given),
                });
        }
        if let Some(classes) = &self.classes {
            let form = scratch.canon.canonical(puzzle).0;
            let mut after: ClassCount = (row.index, 1);
            classes.canonical.upsert(&form, after, |v, new| {
                v.0 = v.0.min(new.0);
                v.1 += new.1;
                after = *v;
            });
            classes.exact.upsert(puzzle, (), |_, _| {});
            let (first, records) = after;
            classes.largest[worker_slot(classes.largest.len())]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .offer(&form, records, first, || Example {
                    index: row.index,
                    line: row.line,
                    input: row.source.clone(),
                    puzzle: *puzzle,
                });
        }
        if let Some(source) = &self.ratings {
            let outcome = match (source, &mut scratch.rater) {
                (RatingSource::Columns { er, status }, _) => {
                    ratings::outcome_of_columns(record, *er, *status)
                }
                (RatingSource::Rate(job), Some(rater)) => {
                    ratings::outcome_of_rating(job, rater, puzzle, record, &mut scratch.rate_row)
                }
                (RatingSource::Rate(_), None) => ratings::Outcome::Unrated,
            };
            self.shards[worker_slot(self.shards.len())]
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .add_rating(outcome);
        }
        if let Some((_, job)) = &self.score {
            if matches!(row.status, Status::Unique | Status::Multiple) {
                let scored = &mut scratch.score_row;
                scored.reset(row.index, row.line);
                job.process(&mut scratch.scorer, puzzle, record, scored);
                match scored.status {
                    Status::Solved => row.score = scored.score,
                    // The scored search's answer failed its check.
                    Status::Invalid => {
                        row.status = Status::Invalid;
                        row.error.push_str(&scored.error);
                    }
                    // No node limit is set, so nothing else comes back.
                    _ => {}
                }
            }
        }
    }

    fn writes(&self, row: &Row) -> bool {
        self.shards[worker_slot(self.shards.len())]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(row);
        false
    }
}

/// Why an expected solution that is not `puzzle`'s (a `mismatch` or
/// `malformed` row) is not: the first thing wrong with it.
fn why_not_the_solution(puzzle: &Grid, given: &Result<Grid, batchdoku_core::ParseError>) -> String {
    let grid = match given {
        Ok(grid) => grid,
        Err(e) => return format!("not a complete grid: {e}"),
    };
    if let Some(c) = grid.first_conflict() {
        return format!(
            "not a valid completion: digit {} twice in {} {}",
            c.digit,
            c.unit.as_str(),
            c.index + 1
        );
    }
    let changed = (0..Grid::CELLS).find(|&i| puzzle.get(i) != 0 && grid.get(i) != puzzle.get(i));
    match changed {
        Some(i) => format!(
            "not a valid completion: r{}c{} is {} where the puzzle gives {}",
            i / 9 + 1,
            i % 9 + 1,
            grid.get(i),
            puzzle.get(i)
        ),
        None => "not a valid completion".to_string(),
    }
}

/// The classes' figures: counts, the largest, and the tables' memory.
fn class_summary(classes: &Classes, valid: u64) -> ClassSummary {
    let distinct = classes.canonical.len() as u64;
    let distinct_puzzles = classes.exact.len() as u64;
    let mut largest = LargestClasses::default();
    for worker in classes.largest.iter() {
        let mut worker = worker.lock().unwrap_or_else(PoisonError::into_inner);
        largest.merge(std::mem::take(&mut *worker));
    }
    ClassSummary {
        distinct,
        duplicates: valid.saturating_sub(distinct),
        distinct_puzzles,
        exact_repeats: valid.saturating_sub(distinct_puzzles),
        largest: largest
            .top(LARGEST_CLASSES)
            .map(|t| ClassEntry {
                records: t.records,
                canonical: t.form.to_line_string(),
                first_record: t.first,
                example: class_example(&t.example),
                another: t.another.as_ref().map(class_example),
            })
            .collect(),
        table_bytes: classes.canonical.table_bytes() + classes.exact.table_bytes(),
    }
}

/// A record of a class as the summary shows it.
fn class_example(e: &Example) -> ClassExample {
    ClassExample {
        record: e.index,
        input: e.input.to_string(),
        line: e.line,
        puzzle: e.puzzle.to_line_string(),
    }
}
