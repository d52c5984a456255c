//! The report's figures as plain data ([`CorpusReport`]): built once from
//! the merged [`Aggregate`], read by every renderer, and serialized as is
//! for `--format json`. Every share and mean is `None` when its
//! denominator is zero, never a division by zero.

use std::time::Duration;

use serde::Serialize;

use super::aggregate::{log_bin_range, Aggregate, AuditNote};
use super::ratings::ErSummary;
use crate::Status;

/// Bins the best-score table and plot aim for.
const SCORE_BINS: usize = 20;

/// Everything a report says about a corpus.
#[derive(Clone, Debug, Serialize)]
pub struct CorpusReport {
    /// Records by outcome, and the first errors.
    pub totals: RecordTotals,
    /// The answers the input ships, checked, when an input has an
    /// expected-solution column.
    pub audit: Option<AuditSummary>,
    /// Valid records per number of givens, from the fewest givens seen to
    /// the most.
    pub givens: Vec<GivensBin>,
    /// Guesses (branch points) of the search, in log-scaled bins.
    pub guesses: LogDistribution,
    /// Backtracks (dead ends) of the search, in log-scaled bins.
    pub backtracks: LogDistribution,
    /// Unique puzzles that naked and hidden singles alone solve.
    pub singles: SinglesSummary,
    /// Best scores, when `--score` was given.
    pub scores: Option<ScoreSummary>,
    /// The ER distribution, when the input has an `er` column or `--rate`
    /// was given.
    pub ratings: Option<ErSummary>,
    /// Duplicates up to symmetry, when `--classes` was given.
    pub classes: Option<ClassSummary>,
    /// The run itself.
    pub run: RunInfo,
}

/// Records by outcome.
#[derive(Clone, Debug, Serialize)]
pub struct RecordTotals {
    /// Records read.
    pub records: u64,
    /// Records with well-formed, consistent givens.
    pub valid: u64,
    /// Malformed records and contradictory givens.
    pub invalid: u64,
    /// Exactly one solution.
    pub unique: u64,
    /// Two or more solutions.
    pub multiple: u64,
    /// No solution.
    pub unsolvable: u64,
    /// The first invalid records.
    pub errors: Vec<ErrorEntry>,
    /// Invalid records not listed in `errors`.
    pub errors_not_shown: u64,
}

/// One invalid record.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorEntry {
    /// 1-based record number in the run.
    pub record: u64,
    /// The input it came from.
    pub input: String,
    /// Its line in that input.
    pub line: u64,
    /// What is wrong with it.
    pub message: String,
}

/// The expected solutions an input gives, checked against each puzzle:
/// counts as `solve`'s `expected` column gives them, and the first
/// problem rows of each kind.
#[derive(Clone, Debug, Serialize)]
pub struct AuditSummary {
    /// Records whose expected solution solves the puzzle.
    #[serde(rename = "match")]
    pub matched: u64,
    /// Records whose expected solution is a complete grid that does not
    /// solve the puzzle.
    pub mismatch: u64,
    /// Records whose expected solution is not a complete grid.
    pub malformed: u64,
    /// Records not checked: no expected solution given (an empty cell,
    /// an input without the column), or an invalid puzzle.
    pub unchecked: u64,
    /// The first mismatches, in input order.
    pub mismatches: Vec<AuditEntry>,
    /// Mismatches not listed.
    pub mismatches_not_shown: u64,
    /// The first malformed expected solutions, in input order.
    pub malformed_rows: Vec<AuditEntry>,
    /// Malformed expected solutions not listed.
    pub malformed_not_shown: u64,
}

/// One record whose expected solution is not its puzzle's.
#[derive(Clone, Debug, Serialize)]
pub struct AuditEntry {
    /// 1-based record number in the run.
    pub record: u64,
    /// The input it came from.
    pub input: String,
    /// Its line in that input.
    pub line: u64,
    /// The puzzle as read (81 characters, `.` for a blank).
    pub puzzle: String,
    /// The expected solution as read (81 characters), `null` when it is
    /// not a complete grid.
    pub solution: Option<String>,
    /// Why it is not the puzzle's solution.
    pub why: String,
}

impl AuditEntry {
    fn of(n: &AuditNote) -> AuditEntry {
        AuditEntry {
            record: n.index,
            input: n.input.clone(),
            line: n.line,
            puzzle: n.puzzle.clone(),
            solution: n.given.clone(),
            why: n.why.clone(),
        }
    }
}

/// Valid records with one number of givens.
#[derive(Clone, Debug, Serialize)]
pub struct GivensBin {
    /// Number of givens.
    pub givens: usize,
    /// Valid records with that many.
    pub records: u64,
}

/// A counter's distribution over valid records, in log-scaled bins.
#[derive(Clone, Debug, Serialize)]
pub struct LogDistribution {
    /// Mean over valid records (`None` when there are none).
    pub mean: Option<f64>,
    /// Bins from 0 to the last one holding a record: `0`, `1`, `2..=3`,
    /// `4..=7`, ...
    pub bins: Vec<LogBinCount>,
}

/// One log-scaled bin.
#[derive(Clone, Debug, Serialize)]
pub struct LogBinCount {
    /// Smallest value in the bin.
    pub low: u64,
    /// Largest value in the bin.
    pub high: u64,
    /// Valid records in the bin.
    pub records: u64,
}

/// Unique puzzles solved by singles alone.
#[derive(Clone, Debug, Serialize)]
pub struct SinglesSummary {
    /// Unique puzzles.
    pub unique: u64,
    /// Of those, solved by naked and hidden singles alone.
    pub solved_by_singles: u64,
    /// `solved_by_singles / unique` (`None` when there is no unique
    /// puzzle).
    pub share: Option<f64>,
    /// The same per number of givens, for every number with a unique
    /// puzzle.
    pub by_givens: Vec<SinglesBin>,
}

/// Unique puzzles with one number of givens.
#[derive(Clone, Debug, Serialize)]
pub struct SinglesBin {
    /// Number of givens.
    pub givens: usize,
    /// Unique puzzles with that many.
    pub unique: u64,
    /// Of those, solved by singles alone.
    pub solved_by_singles: u64,
}

/// Best scores over the puzzles that have a solution.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreSummary {
    /// The weights: `target` or the weights file given.
    pub weights: String,
    /// Puzzles scored.
    pub scored: u64,
    /// Lowest best score.
    pub min: Option<i64>,
    /// Highest best score.
    pub max: Option<i64>,
    /// Mean best score.
    pub mean: Option<f64>,
    /// About twenty equal-width bins from `min` to `max`.
    pub bins: Vec<ScoreBin>,
}

/// One bin of best scores.
#[derive(Clone, Debug, Serialize)]
pub struct ScoreBin {
    /// Lowest score in the bin.
    pub low: i64,
    /// Highest score in the bin.
    pub high: i64,
    /// Puzzles whose best score falls in the bin.
    pub records: u64,
}

/// Duplicates up to symmetry.
#[derive(Clone, Debug, Serialize)]
pub struct ClassSummary {
    /// Distinct classes among valid records.
    pub distinct: u64,
    /// Valid records that are not the first of their class.
    pub duplicates: u64,
    /// Distinct puzzles (identical after parsing).
    pub distinct_puzzles: u64,
    /// Valid records identical to an earlier record.
    pub exact_repeats: u64,
    /// The largest classes with two records or more, largest first.
    pub largest: Vec<ClassEntry>,
    /// Memory the class tables took: their allocated capacity times the
    /// bytes per entry (key, value and control byte).
    pub table_bytes: u64,
}

/// One class.
#[derive(Clone, Debug, Serialize)]
pub struct ClassEntry {
    /// Records in the class.
    pub records: u64,
    /// Its canonical form (81 characters, `.` for a blank).
    pub canonical: String,
    /// Record number of its first record in the run.
    pub first_record: u64,
    /// One of its records: the first, unless the class grew large only
    /// after many others had been seen (see `largest`).
    pub example: ClassExample,
    /// Another of its records: the second (with the same proviso), so a
    /// class of two shows both of its records.
    pub another: Option<ClassExample>,
}

/// A record of a class, to find it in the input.
#[derive(Clone, Debug, Serialize)]
pub struct ClassExample {
    /// 1-based record number in the run.
    pub record: u64,
    /// The input it came from.
    pub input: String,
    /// Its line in that input.
    pub line: u64,
    /// The puzzle as read (81 characters, `.` for a blank).
    pub puzzle: String,
}

/// The run, and what it takes to make the report again.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    /// When the report was made: UTC, RFC 3339 to the second.
    pub date_utc: String,
    /// The command line, one argument per element.
    pub command_line: Vec<String>,
    /// The options in effect, defaults included.
    pub options: RunOptions,
    /// The inputs, in order.
    pub inputs: Vec<InputInfo>,
    /// Wall-clock seconds of the pass.
    pub seconds: f64,
    /// Records per second (`None` for an instant run).
    pub records_per_second: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// The batchdoku version ([`RunFacts::version`]).
    pub version: &'static str,
    /// The git commit batchdoku was built from (`unknown` when built
    /// outside its git checkout).
    pub commit: &'static str,
}

/// The options of a report run, every one `report` takes but those that
/// only change what the terminal shows (`-q`, `--progress`), in the order
/// `report --help` lists them, each with the value the run used (defaults
/// included). Built from the command's own definition
/// (`cmd::report::options_in_effect`), so a new flag is listed without
/// anyone remembering to. JSON: an object keyed by the long name
/// (`batch_size`), `false` or `null` for a flag not in effect.
#[derive(Clone, Debug, Default)]
pub struct RunOptions(pub Vec<OptionInEffect>);

/// One option of [`RunOptions`].
#[derive(Clone, Debug, PartialEq)]
pub struct OptionInEffect {
    /// Its JSON key: the long name with `_` for `-` (`batch_size`).
    pub key: String,
    /// The flag as typed, short when it has one (`-j`, `--batch-size`).
    pub flag: String,
    /// Its value in effect.
    pub value: OptionValue,
}

/// The value of an option in effect.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    /// A switch (`--classes`): on or off.
    Switch(bool),
    /// A number (`-j 2`).
    Number(u64),
    /// A value as given or defaulted (`--input-format auto`).
    Text(String),
    /// An option not given, without a default.
    Unset,
}

impl RunOptions {
    /// The value of the option with JSON key `key`, if `report` has it.
    pub fn get(&self, key: &str) -> Option<&OptionValue> {
        self.0.iter().find(|o| o.key == key).map(|o| &o.value)
    }
}

impl Serialize for RunOptions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for o in &self.0 {
            match &o.value {
                OptionValue::Switch(on) => map.serialize_entry(&o.key, on)?,
                OptionValue::Number(n) => map.serialize_entry(&o.key, n)?,
                OptionValue::Text(t) => map.serialize_entry(&o.key, t)?,
                OptionValue::Unset => map.serialize_entry(&o.key, &None::<()>)?,
            }
        }
        map.end()
    }
}

/// One input: its name, and the bytes the pass read from it with their
/// checksum.
#[derive(Clone, Debug, Serialize)]
pub struct InputInfo {
    /// Its name (`<stdin>` for standard input).
    pub name: String,
    /// The bytes read from it during the pass, as they arrived (before
    /// decompression): for a file that grew while it was read, what was
    /// read, not its size when it was opened; for stdin or a FIFO, its own
    /// bytes.
    pub bytes: u64,
    /// XXH3-64 of exactly those bytes, 16 hex digits, computed as they
    /// were read (nothing is read again).
    pub xxh3_64: String,
}

/// What the run knows beyond the counts, for [`CorpusReport::new`].
#[derive(Clone, Debug, Default)]
pub struct RunFacts {
    /// The inputs, in order.
    pub inputs: Vec<InputInfo>,
    /// Wall-clock time of the pass.
    pub elapsed: Duration,
    /// Worker threads.
    pub threads: usize,
    /// When the report was made (UTC, RFC 3339).
    pub date_utc: String,
    /// The command line.
    pub command_line: Vec<String>,
    /// The options in effect.
    pub options: RunOptions,
    /// The version of what made the report (the `batchdoku` binary's, or
    /// the Python package's).
    pub version: &'static str,
    /// The git commit it was built from (`unknown` when not known).
    pub commit: &'static str,
}

/// `num / den`, `None` when `den` is zero.
fn ratio(num: f64, den: u64) -> Option<f64> {
    (den > 0).then(|| num / den as f64)
}

impl CorpusReport {
    /// Builds the report from the merged aggregate.
    pub fn new(
        total: &Aggregate,
        weights: Option<&str>,
        ratings: Option<&'static str>,
        classes: Option<ClassSummary>,
        audit: bool,
        run: RunFacts,
    ) -> CorpusReport {
        let RunFacts {
            inputs,
            elapsed,
            threads,
            date_utc,
            command_line,
            options,
            version,
            commit,
        } = run;
        let valid = total.valid();
        let invalid = total.count(Status::Invalid);
        let errors = total
            .errors
            .iter()
            .map(|e| ErrorEntry {
                record: e.index,
                input: e.input.clone(),
                line: e.line,
                message: e.text.clone(),
            })
            .collect::<Vec<_>>();
        let givens = match (
            total.givens.iter().position(|&n| n > 0),
            total.givens.iter().rposition(|&n| n > 0),
        ) {
            (Some(lo), Some(hi)) => (lo..=hi)
                .map(|g| GivensBin {
                    givens: g,
                    records: total.givens[g],
                })
                .collect(),
            _ => Vec::new(),
        };
        let unique = total.count(Status::Unique);
        let solved_by_singles = total.singles_by_givens.iter().sum();
        let scores = weights.map(|name| {
            let h = &total.scores;
            let some = h.count > 0;
            ScoreSummary {
                weights: name.to_string(),
                scored: h.count,
                min: some.then_some(h.min),
                max: some.then_some(h.max),
                mean: ratio(h.sum as f64, h.count),
                bins: h
                    .bins(SCORE_BINS)
                    .into_iter()
                    .map(|(low, high, records)| ScoreBin { low, high, records })
                    .collect(),
            }
        });
        let seconds = elapsed.as_secs_f64();
        let audit = audit.then(|| {
            let a = &total.audit;
            AuditSummary {
                matched: a.matched,
                mismatch: a.mismatched,
                malformed: a.malformed,
                unchecked: a.unchecked,
                mismatches: a.mismatches.iter().map(AuditEntry::of).collect(),
                mismatches_not_shown: a.mismatched - a.mismatches.len() as u64,
                malformed_rows: a.malformed_notes.iter().map(AuditEntry::of).collect(),
                malformed_not_shown: a.malformed - a.malformed_notes.len() as u64,
            }
        });
        CorpusReport {
            totals: RecordTotals {
                records: total.records,
                valid,
                invalid,
                unique,
                multiple: total.count(Status::Multiple),
                unsolvable: total.count(Status::Unsolvable),
                errors_not_shown: invalid - errors.len() as u64,
                errors,
            },
            audit,
            givens,
            guesses: log_distribution(&total.guesses, total.guesses_sum, valid),
            backtracks: log_distribution(&total.backtracks, total.backtracks_sum, valid),
            singles: SinglesSummary {
                unique,
                solved_by_singles,
                share: ratio(solved_by_singles as f64, unique),
                by_givens: (0..total.unique_by_givens.len())
                    .filter(|&g| total.unique_by_givens[g] > 0)
                    .map(|g| SinglesBin {
                        givens: g,
                        unique: total.unique_by_givens[g],
                        solved_by_singles: total.singles_by_givens[g],
                    })
                    .collect(),
            },
            scores,
            ratings: ratings.map(|source| total.ratings.summary(source)),
            classes,
            run: RunInfo {
                date_utc,
                command_line,
                options,
                inputs,
                seconds,
                records_per_second: (seconds > 0.0).then(|| total.records as f64 / seconds),
                threads,
                version,
                commit,
            },
        }
    }

    /// Whether guesses and backtracks have the same distribution (as on
    /// any corpus of unique puzzles): the pages then plot them once.
    pub fn guesses_are_backtracks(&self) -> bool {
        let bins = |d: &LogDistribution| d.bins.iter().map(|b| b.records).collect::<Vec<_>>();
        bins(&self.guesses) == bins(&self.backtracks) && self.guesses.mean == self.backtracks.mean
    }

    /// The number of distributions the report plots (givens, guesses,
    /// backtracks unless the same as guesses, singles, best scores when
    /// scored, and ER when rated).
    #[cfg(test)]
    pub fn distribution_count(&self) -> usize {
        3 + usize::from(!self.guesses_are_backtracks())
            + usize::from(self.scores.is_some())
            + usize::from(self.ratings.is_some())
    }
}

fn log_distribution(bins: &[u64], sum: u64, valid: u64) -> LogDistribution {
    let last = bins.iter().rposition(|&n| n > 0);
    LogDistribution {
        mean: ratio(sum as f64, valid),
        bins: last.map_or(Vec::new(), |last| {
            (0..=last)
                .map(|k| {
                    let (low, high) = log_bin_range(k);
                    LogBinCount {
                        low,
                        high,
                        records: bins[k],
                    }
                })
                .collect()
        }),
    }
}
