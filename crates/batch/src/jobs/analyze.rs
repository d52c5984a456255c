//! `analyze`: the puzzle forum's measures of each puzzle with one solution
//! (minimality, redundant givens, the pattern's symmetry, automorphisms,
//! trial-and-error depth, singles backdoor size), computed by the core's
//! [`Analyzer`].

use std::fmt::Write as _;

use crate::output::{Column, Row, Status, ANALYZE_COLUMNS, ANALYZE_HEAD};
use crate::pipeline::{internal_error, Job};
use batchdoku_core::Grid;
use batchdoku_core::Record;
use batchdoku_core::{AnalyzeOptions, Analyzer, Measure};

/// Measures each puzzle: its status as `solve -k 2` gives it, and for a
/// puzzle with exactly one solution the measures `options` asks for.
///
/// The status is `unique`, `multiple` or `unsolvable` (`invalid` for
/// contradictory givens); only `unique` rows have measures.
///
/// # Example
/// ```
/// use batchdoku_batch::{AnalyzeJob, Column, Job, Row, Status};
/// use batchdoku_core::{parse_line, AnalyzeOptions, Grid, Measure, Record};
/// let puzzle = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let job = AnalyzeJob { options: AnalyzeOptions::default() };
/// let mut analyzer = job.scratch(); // one per worker
/// let (mut row, record) = (Row::default(), Record::default());
/// job.process(&mut analyzer, &puzzle, &record, &mut row);
/// assert_eq!(row.status, Status::Unique);
/// let analysis = row.analysis.unwrap();
/// assert_eq!((analysis.minimal, analysis.te), (Some(true), Some(1)));
///
/// row.reset(2, 2);
/// job.process(&mut analyzer, &Grid::empty(), &record, &mut row);
/// assert_eq!((row.status, row.analysis), (Status::Multiple, None));
///
/// // The columns of a run that asks for two measures.
/// let two = AnalyzeJob { options: AnalyzeOptions::of(&[Measure::Te, Measure::Symmetry]) };
/// let names: Vec<&str> = two.columns_asked().iter().map(|c| c.name()).collect();
/// assert_eq!(names, ["index", "line", "puzzle", "status", "symmetry", "te", "error"]);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalyzeJob {
    /// The measures and the caps of the two searches.
    pub options: AnalyzeOptions,
}

impl AnalyzeJob {
    /// The columns of `analyze` with every measure, before the optional
    /// ones (`trailing`, kept input columns): what [`Job::columns`] gives.
    pub const COLUMNS: &'static [Column] = &ANALYZE_COLUMNS;

    /// The columns of a run of this job: the bookkeeping ones, the
    /// measures asked for in [`Measure::ALL`]'s order, then `error`.
    pub fn columns_asked(&self) -> Vec<Column> {
        let measures = Measure::ALL
            .into_iter()
            .filter(|&m| self.options.wants(m))
            .filter_map(Column::of_measure);
        ANALYZE_HEAD
            .into_iter()
            .chain(measures)
            .chain([Column::Error])
            .collect()
    }
}

impl Job for AnalyzeJob {
    type Scratch = Analyzer;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> Analyzer {
        Analyzer::new()
    }

    fn process(&self, analyzer: &mut Analyzer, puzzle: &Grid, _record: &Record, row: &mut Row) {
        let (outcome, analysis) = match analyzer.analyze(puzzle, &self.options) {
            Ok(result) => result,
            Err(conflict) => {
                row.status = Status::Invalid;
                let _ = write!(row.error, "{conflict}");
                return;
            }
        };
        // Answers are checked, as `solve`'s.
        if outcome.solution.is_some_and(|s| !s.solves(puzzle)) {
            internal_error("the engine returned an invalid solution");
        }
        row.solutions = outcome.solutions;
        row.solution = outcome.solution;
        row.analysis = analysis;
        row.status = match outcome.solutions {
            0 => Status::Unsolvable,
            1 => Status::Unique,
            _ => Status::Multiple,
        };
    }
}
