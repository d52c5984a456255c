//! The row schema: one [`Row`] per input record, its [`Status`], the
//! selectable [`Column`]s with their header names, and the column list of
//! each command. What a row holds, not how it is written (that is
//! [`encode`](super::encode)).

use std::sync::Arc;

use batchdoku_core::Grid;
use batchdoku_core::Transform;

use super::path::Path;

/// The outcome class of one record.
///
/// # Example
/// ```
/// use batchdoku_batch::Status;
/// let status: Status = "Unique".parse().unwrap(); // names ignore case
/// assert_eq!(status, Status::Unique);
/// assert_eq!(status.as_str(), "unique");
/// assert_eq!(status.description(), "exactly one solution");
/// assert_eq!(Status::ALL[status.ordinal()], status);
/// assert!("done".parse::<Status>().unwrap_err().contains("solved, unique"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Status {
    /// A solution was found (count limit 1; scored search complete).
    Solved,
    /// Exactly one solution (count limit 2 or more).
    Unique,
    /// At least two solutions (count limit 2 or more).
    Multiple,
    /// Consistent givens but no solution.
    Unsolvable,
    /// Malformed record or contradictory givens.
    Invalid,
    /// The per-puzzle node limit was hit; the result is not proven.
    Limit,
    /// Processed without solving (canonical forms, kept by `dedupe`).
    Ok,
    /// A copy of an earlier record (`dedupe`): counted, never written.
    Duplicate,
    /// A test record equivalent to a training record (`overlap`).
    Leak,
    /// Rated by the human techniques (`rate`): exactly one solution.
    Rated,
    /// Not rated: its ER is above `rate --max-er` (the rating stopped as
    /// soon as that was known).
    Above,
    /// Not rated: its ED or EP is below `rate --min-ed` or `--min-ep` (the
    /// rating stopped as soon as that was known).
    Below,
}

impl Status {
    /// Every status, in the order summaries list them.
    pub const ALL: [Status; 12] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::Unsolvable,
        Status::Invalid,
        Status::Limit,
        Status::Ok,
        Status::Duplicate,
        Status::Leak,
        Status::Rated,
        Status::Above,
        Status::Below,
    ];

    /// The lowercase name written in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Limit => "limit",
            Status::Ok => "ok",
            Status::Duplicate => "duplicate",
            Status::Leak => "leak",
            Status::Rated => "rated",
            Status::Above => "above",
            Status::Below => "below",
        }
    }

    /// What the status means, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Status::Solved => "a solution was found",
            Status::Unique => "exactly one solution",
            Status::Multiple => "at least two solutions",
            Status::Unsolvable => "consistent givens but no solution",
            Status::Invalid => "malformed record or contradictory givens",
            Status::Limit => "the node limit was hit; the result is not proven",
            Status::Ok => "processed without solving",
            Status::Duplicate => "a copy of an earlier record",
            Status::Leak => "a test record equivalent to a training record",
            Status::Rated => "one solution, rated by human techniques",
            Status::Above => "one solution, ER above --max-er (not rated further)",
            Status::Below => {
                "one solution, ED or EP below --min-ed or --min-ep (not rated further)"
            }
        }
    }

    /// Position in [`Status::ALL`].
    pub fn ordinal(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for Status {
    type Err = String;

    /// Parses a status name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Status, String> {
        batchdoku_core::internal::parse_name("status", &Status::ALL, Status::as_str, s)
    }
}

/// Which input of `overlap` a row comes from, or the part `split` gives
/// a record.
///
/// # Example
/// ```
/// use batchdoku_batch::Split;
/// assert_eq!(Split::Train.as_str(), "train");
/// assert_eq!(Split::Test.as_str(), "test");
/// assert_eq!(Split::Named("valid").as_str(), "valid");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Split {
    /// The training input: its classes are remembered.
    Train,
    /// The test input: its records are checked against the training
    /// classes.
    Test,
    /// A part of `split`, by its name.
    Named(&'static str),
}

impl Split {
    /// The lowercase name written in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Test => "test",
            Split::Named(name) => name,
        }
    }
}

/// One output column.
///
/// # Example
/// ```
/// use batchdoku_batch::{Column, OutputFormat, RowEncoder};
/// assert_eq!(Column::TrainLine.name(), "train_line");
/// // Input CSV columns carried through are named after the input's header
/// // (prefixed `input_` when that would repeat one of ours).
/// let columns = [Column::Kept(0), Column::Status, Column::Kept(1)];
/// let kept_names = ["id".to_string(), "status".to_string()];
/// let header = RowEncoder::header(OutputFormat::Csv, &columns, &kept_names);
/// assert_eq!(header, b"id,status,input_status\n");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Column {
    /// 1-based record number in input order (for `overlap`: within the
    /// row's split).
    Index,
    /// The input a row of `overlap` comes from (`train` or `test`), or
    /// the part `split` gives the record.
    Split,
    /// Source line where the record starts.
    Line,
    /// The puzzle, 81 characters with `.` blanks (empty when malformed).
    Puzzle,
    /// The status name.
    Status,
    /// Number of solutions found (up to the count limit); empty for a
    /// `limit` row, whose count was cut short.
    Solutions,
    /// The solution (81 digits), empty when none.
    Solution,
    /// Branch points of the search.
    Guesses,
    /// Best score (scored search): -1 when no solution, empty when invalid.
    Score,
    /// Nodes searched.
    Nodes,
    /// The answer against the input's expected solution: `match`,
    /// `mismatch`, or `malformed` (an expected cell that is not a solution
    /// grid); empty when the record has none.
    Expected,
    /// What is wrong with an invalid record, with its source and line.
    Error,
    /// Text that followed the cells on the input line.
    Trailing,
    /// Dead ends of the search (`solve --rate`).
    Backtracks,
    /// `true` when naked and hidden singles alone solve the puzzle
    /// (`solve --rate`).
    Singles,
    /// The canonical (minlex) form, 81 characters with `0` blanks.
    Canonical,
    /// The transformation mapping the puzzle to its canonical form.
    Transform,
    /// Copies of this record dropped by `dedupe`.
    Dropped,
    /// The training-set line of an equivalent record (`overlap`).
    TrainLine,
    /// Givens of the puzzle (`generate`).
    Givens,
    /// Input CSV column `n` carried through (`--keep-columns`), counted
    /// among the kept columns.
    Kept(u16),
    /// Sudoku Explainer's ER (`rate`): the hardest step of the solution
    /// path, one decimal.
    Er,
    /// Sudoku Explainer's EP (`rate`): the hardest step up to the first
    /// placement.
    Ep,
    /// Sudoku Explainer's ED (`rate`): the rating of the first step.
    Ed,
    /// The technique that set ER (`rate`).
    Hardest,
    /// Steps on the solution path (`rate`).
    Steps,
    /// How many steps each technique took, in ladder order (`rate`).
    Techniques,
    /// Mean guesses over seeded random equivalents (`rate --invariant`).
    MeanGuesses,
    /// Mean backtracks over seeded random equivalents (`rate --invariant`).
    MeanBacktracks,
    /// The solution path (`rate --path`): every step, in order, with its
    /// technique, rating, placements, eliminations and a sentence.
    Path,
}

impl Column {
    /// The header name of the column.
    pub fn name(self) -> &'static str {
        match self {
            Column::Index => "index",
            Column::Split => "split",
            Column::Line => "line",
            Column::Puzzle => "puzzle",
            Column::Status => "status",
            Column::Solutions => "solutions",
            Column::Solution => "solution",
            Column::Guesses => "guesses",
            Column::Score => "score",
            Column::Nodes => "nodes",
            Column::Expected => "expected",
            Column::Error => "error",
            Column::Trailing => "trailing",
            Column::Backtracks => "backtracks",
            Column::Singles => "singles",
            Column::Canonical => "canonical",
            Column::Transform => "transform",
            Column::Dropped => "dropped",
            Column::TrainLine => "train_line",
            Column::Givens => "givens",
            Column::Kept(_) => "kept",
            Column::Er => "er",
            Column::Ep => "ep",
            Column::Ed => "ed",
            Column::Hardest => "hardest",
            Column::Steps => "steps",
            Column::Techniques => "techniques",
            Column::MeanGuesses => "mean_guesses",
            Column::MeanBacktracks => "mean_backtracks",
            Column::Path => "path",
        }
    }
}

/// The header names of `columns`: each column's name, and for kept input
/// columns their input name (prefixed `input_` when it would repeat one
/// of ours).
pub fn column_names(columns: &[Column], kept_names: &[String]) -> Vec<String> {
    columns
        .iter()
        .map(|&c| match c {
            Column::Kept(i) => {
                let name = kept_names.get(i as usize).map_or("", String::as_str);
                if columns
                    .iter()
                    .any(|o| !matches!(o, Column::Kept(_)) && o.name() == name)
                {
                    format!("input_{name}")
                } else {
                    name.to_string()
                }
            }
            c => c.name().to_string(),
        })
        .collect()
}

/// The columns of `solve` (before the optional `expected` and `trailing`).
pub const SOLVE_COLUMNS: [Column; 8] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Solutions,
    Column::Solution,
    Column::Guesses,
    Column::Error,
];

/// The columns of `score` (before the optional `solutions` and `trailing`).
pub const SCORE_COLUMNS: [Column; 8] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Score,
    Column::Solution,
    Column::Nodes,
    Column::Error,
];

/// The columns of `canon` (before the optional `trailing`).
pub const CANON_COLUMNS: [Column; 7] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Canonical,
    Column::Transform,
    Column::Error,
];

/// The columns of `dedupe` (before the optional `trailing`).
pub const DEDUPE_COLUMNS: [Column; 7] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Canonical,
    Column::Dropped,
    Column::Error,
];

/// The columns of `overlap`: one row per leaking test record (and per
/// invalid record of either input), each naming its split; `index`
/// counts records within that split.
pub const OVERLAP_COLUMNS: [Column; 8] = [
    Column::Split,
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::TrainLine,
    Column::Canonical,
    Column::Error,
];

/// The columns of `split`: every record, each valid one with its part.
pub const SPLIT_COLUMNS: [Column; 6] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Split,
    Column::Error,
];

/// The columns of `rate` (before the optional `mean_guesses`,
/// `mean_backtracks` and `trailing`).
pub const RATE_COLUMNS: [Column; 11] = [
    Column::Index,
    Column::Line,
    Column::Puzzle,
    Column::Status,
    Column::Er,
    Column::Ep,
    Column::Ed,
    Column::Hardest,
    Column::Steps,
    Column::Techniques,
    Column::Error,
];

/// The human difficulty of one puzzle (`rate`): Sudoku Explainer's three
/// ratings, in tenths (ER 7.1 is 71), and the solution path's steps by
/// technique.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratings {
    /// ER in tenths: the hardest step of the solution path.
    pub er: u8,
    /// EP in tenths: the hardest step up to the first placement.
    pub ep: u8,
    /// ED in tenths: the rating of the first step.
    pub ed: u8,
    /// Steps on the solution path.
    pub steps: u32,
    /// The technique that set ER, by its position on the ladder; none for
    /// a complete grid, which takes no step.
    #[cfg(feature = "rate")]
    pub(crate) hardest: Option<batchdoku_rate::Technique>,
    /// Steps taken by each technique, by its position on the ladder.
    #[cfg(feature = "rate")]
    pub(crate) counts: [u32; batchdoku_rate::Technique::ALL.len()],
}

impl Ratings {
    /// The name of the technique that set ER (`hidden single`, `x-wing`,
    /// ...); `None` when the solution path has no step (a complete grid:
    /// CSV writes an empty cell, JSON lines and Parquet null).
    pub fn hardest(&self) -> Option<&'static str> {
        #[cfg(feature = "rate")]
        return self.hardest.map(batchdoku_rate::Technique::name);
        // Without the rater no row has ratings.
        #[cfg(not(feature = "rate"))]
        return None;
    }

    /// Each technique used and its step count, in ladder order.
    pub fn techniques(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        #[cfg(feature = "rate")]
        let counts = batchdoku_rate::Technique::ALL
            .iter()
            .map(|t| t.name())
            .zip(self.counts);
        // Without the rater no row has ratings.
        #[cfg(not(feature = "rate"))]
        let counts = std::iter::empty::<(&'static str, u32)>();
        counts.filter(|(_, n)| *n > 0)
    }
}

/// The result of processing one record, filled by a job and read by the
/// encoder. Reused across records: `reset` clears it.
///
/// # Example
/// ```
/// use batchdoku_batch::{Column, OutputFormat, Row, RowEncoder, Status};
/// use batchdoku_core::{parse_line, Record};
/// let solution = parse_line(
///     b"483921657967345821251876493548132976729564138136798245372689514814253769695417382",
/// )
/// .unwrap();
/// let mut row = Row {
///     index: 1,
///     status: Status::Solved,
///     solution: Some(solution),
///     ..Row::default()
/// };
///
/// let columns = [Column::Index, Column::Status, Column::Solution, Column::Score];
/// let mut encoder = RowEncoder::new(OutputFormat::Jsonl, &columns, &[]);
/// let mut out = Vec::new();
/// encoder.encode(&row, &Record::default(), &mut out)?;
/// let json = String::from_utf8(out).unwrap();
/// assert!(json.starts_with(r#"{"index":1,"status":"solved","solution":"483921657"#));
/// assert!(json.ends_with("695417382\",\"score\":null}\n")); // no score: null
///
/// row.reset(2, 5); // for the next record: everything cleared
/// assert_eq!((row.index, row.line, row.status, row.solution), (2, 5, Status::Invalid, None));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Row {
    /// The input the record comes from, by name (empty when unnamed). With
    /// [`line`](Row::line) it is the record's position: the encoders write
    /// `source:line: ` before the error text of a row that has a source.
    pub source: Arc<str>,
    /// 1-based record number.
    pub index: u64,
    /// Source line of the record.
    pub line: u64,
    /// The parsed puzzle, when well-formed.
    pub puzzle: Option<Grid>,
    /// Outcome class.
    pub status: Status,
    /// Solutions found.
    pub solutions: u64,
    /// The solution written out.
    pub solution: Option<Grid>,
    /// Branch points.
    pub guesses: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Best score, when scored.
    pub score: Option<i64>,
    /// The answer against the expected solution, when the input had one.
    pub expected: Option<Expected>,
    /// Dead ends of the search.
    pub backtracks: u64,
    /// Whether singles alone solve the puzzle, when rated.
    pub singles: Option<bool>,
    /// The canonical form, when computed.
    pub canonical: Option<Grid>,
    /// The transformation to the canonical form.
    pub transform: Option<Transform>,
    /// Copies dropped (dedupe).
    pub dropped: Option<u64>,
    /// Line of the equivalent training record (overlap).
    pub train_line: Option<u64>,
    /// The input the record comes from (overlap), or its part (split).
    pub split: Option<Split>,
    /// The human difficulty (`rate`), when rated.
    pub ratings: Option<Ratings>,
    /// Mean guesses and backtracks over random equivalents
    /// (`rate --invariant`).
    pub invariant: Option<(f64, f64)>,
    /// The solution path (`rate --path`), when rated with it.
    pub path: Path,
    /// What is wrong with the record (empty unless invalid), without its
    /// position.
    pub error: String,
}

/// How a row's answer compares with the expected solution its input gave
/// (the `expected` column).
///
/// # Example
/// ```
/// use batchdoku_batch::{EngineKind, Expected, Job, Row, SolveJob};
/// use batchdoku_core::{parse_line, Record};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// // A record whose expected solution (a CSV `solution` column) is wrong.
/// let mut record = Record::default();
/// let wrong = parse_line(
///     b"123456789456789123789123456234567891567891234891234567345678912678912345912345678",
/// );
/// record.expected = Some(wrong);
/// let job = SolveJob { count_limit: 1, engine: EngineKind::Mrv, difficulty: false };
/// let mut row = Row::default();
/// job.process(&mut job.scratch(), &puzzle, &record, &mut row);
/// assert_eq!(row.expected, Some(Expected::Mismatch));
/// assert_eq!(Expected::Mismatch.as_str(), "mismatch");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The expected grid solves the puzzle.
    Match,
    /// The expected grid does not solve the puzzle.
    Mismatch,
    /// The expected cell is not a complete grid; the puzzle's own status
    /// is unaffected.
    Malformed,
}

impl Expected {
    /// The column's text: `match`, `mismatch` or `malformed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Expected::Match => "match",
            Expected::Mismatch => "mismatch",
            Expected::Malformed => "malformed",
        }
    }
}

impl Default for Row {
    fn default() -> Self {
        Row {
            source: Arc::from(""),
            index: 0,
            line: 0,
            puzzle: None,
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            guesses: 0,
            nodes: 0,
            score: None,
            expected: None,
            backtracks: 0,
            singles: None,
            canonical: None,
            transform: None,
            dropped: None,
            train_line: None,
            split: None,
            ratings: None,
            invariant: None,
            path: Path::default(),
            error: String::new(),
        }
    }
}

impl Row {
    /// The `solutions` column: the count, or `None` for a `limit` row (a
    /// search the node limit cut short has no count, only a partial one).
    pub fn solutions_known(&self) -> Option<u64> {
        (self.status != Status::Limit).then_some(self.solutions)
    }

    /// Clears the row for the next record, keeping the error buffer.
    pub fn reset(&mut self, index: u64, line: u64) {
        self.index = index;
        self.line = line;
        self.puzzle = None;
        self.status = Status::Invalid;
        self.solutions = 0;
        self.solution = None;
        self.guesses = 0;
        self.nodes = 0;
        self.score = None;
        self.expected = None;
        self.backtracks = 0;
        self.singles = None;
        self.canonical = None;
        self.transform = None;
        self.dropped = None;
        self.train_line = None;
        self.split = None;
        self.ratings = None;
        self.invariant = None;
        self.path.clear();
        self.error.clear();
    }
}
