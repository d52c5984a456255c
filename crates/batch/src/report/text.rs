//! What the human renderers (HTML, Markdown) share: number formatting and
//! each distribution as a [`Distribution`], the labels and values of its
//! plot and the rows of its table, built once so that the two pages say
//! the same thing.

use super::provenance::shell_line;
use super::ratings::{ErBin, ErSummary};
use super::summary::{
    AuditEntry, AuditSummary, CorpusReport, InputInfo, LogDistribution, OptionValue, RecordTotals,
    RunInfo,
};

/// What both pages say the audit section is.
pub const AUDIT_NOTE: &str = "Each record's expected solution (the input's solution column) \
     checked against its puzzle, as `solve` writes it in its `expected` column.";

/// The audit's counts both pages show, named, in order.
pub fn named_audit(a: &AuditSummary) -> [(&'static str, u64); 4] {
    [
        ("match", a.matched),
        ("mismatch", a.mismatch),
        ("malformed", a.malformed),
        (
            "not checked (none given, or an invalid puzzle)",
            a.unchecked,
        ),
    ]
}

/// What a list of `shown` of `total` rows says before them: `All 3:` or
/// `The first 10 of 13:`.
pub fn listed(shown: usize, total: u64) -> String {
    if shown as u64 >= total {
        format!("All {}:", count(total))
    } else {
        format!("The first {shown} of {}:", count(total))
    }
}

/// The audit's problem rows both pages list: per kind, its title, its
/// first rows, their total and the noun of the "and N more" line.
pub fn audit_problems(a: &AuditSummary) -> [(&'static str, &[AuditEntry], u64, &'static str); 2] {
    [
        ("Mismatches", &a.mismatches, a.mismatch, "mismatches"),
        (
            "Malformed expected solutions",
            &a.malformed_rows,
            a.malformed,
            "malformed expected solutions",
        ),
    ]
}

/// The totals both pages show, named, in order (`records` first).
pub fn named_totals(t: &RecordTotals) -> [(&'static str, u64); 6] {
    [
        ("records", t.records),
        ("valid", t.valid),
        ("invalid", t.invalid),
        ("unique", t.unique),
        ("multiple", t.multiple),
        ("unsolvable", t.unsolvable),
    ]
}

/// `1234567` as `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A signed count with separators.
pub fn signed(n: i64) -> String {
    if n < 0 {
        format!("-{}", count(n.unsigned_abs()))
    } else {
        count(n.unsigned_abs())
    }
}

/// A share as a percentage with one decimal, `–` when undefined. A share
/// that is not zero never reads `0.0%` (`<0.1%`), nor one short of the whole
/// `100.0%` (`>99.9%`); none and all read `0%` and `100%`.
pub fn percent(share: Option<f64>) -> String {
    match share {
        None => "–".to_string(),
        Some(s) if s <= 0.0 => "0%".to_string(),
        Some(s) if s >= 1.0 => "100%".to_string(),
        Some(s) if s < 0.0005 => "<0.1%".to_string(),
        Some(s) if s > 0.9995 => ">99.9%".to_string(),
        Some(s) => format!("{:.1}%", s * 100.0),
    }
}

/// Text as an inline code span in the notes both pages share (`` `x` ``):
/// a backtick inside is written `'`, so spans always pair up.
pub fn code(s: &str) -> String {
    format!("`{}`", s.replace('`', "'"))
}

/// `part / whole` as a share, `None` when `whole` is zero.
pub fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// A mean with two decimals, `–` when undefined.
pub fn mean(m: Option<f64>) -> String {
    m.map_or_else(|| "–".to_string(), |m| format!("{m:.2}"))
}

/// A byte count in B, kB, MB or GB (powers of 1000).
pub fn bytes(n: u64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"];
    let mut v = n as f64;
    let mut unit = 0;
    while v >= 1000.0 && unit + 1 < units.len() {
        v /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", units[unit])
    }
}

/// The sentence under a table that left out rows counting nothing.
pub fn omitted(n: usize) -> String {
    if n == 1 {
        "1 row with no record is not shown.".to_string()
    } else {
        format!("{n} rows with no record are not shown.")
    }
}

/// An input's bytes read and checksum, as table cells.
pub fn input_cells(i: &InputInfo) -> [String; 2] {
    [count(i.bytes), i.xxh3_64.clone()]
}

/// What it takes to make the report again, named, in order: date, command
/// line, options in effect, version and commit.
pub fn provenance(run: &RunInfo) -> Vec<(&'static str, String)> {
    let options: Vec<String> = run
        .options
        .0
        .iter()
        .filter_map(|o| match &o.value {
            OptionValue::Switch(true) => Some(o.flag.clone()),
            OptionValue::Switch(false) | OptionValue::Unset => None,
            OptionValue::Number(n) => Some(format!("{} {n}", o.flag)),
            OptionValue::Text(t) => Some(format!(
                "{} {}",
                o.flag,
                shell_line(std::slice::from_ref(t))
            )),
        })
        .collect();
    vec![
        ("date (UTC)", run.date_utc.clone()),
        ("command line", shell_line(&run.command_line)),
        ("options in effect", options.join(" ")),
        ("batchdoku", run.version.to_string()),
        ("git commit", run.commit.to_string()),
    ]
}

/// A range label: `7` for a single value, `4–7` otherwise.
pub fn range<T: PartialEq + std::fmt::Display>(low: T, high: T) -> String {
    if low == high {
        format!("{low}")
    } else {
        format!("{low}–{high}")
    }
}

/// One distribution: its plot and its table.
#[derive(Debug)]
pub struct Distribution {
    /// Anchor id in the page.
    pub id: &'static str,
    /// Section title.
    pub title: &'static str,
    /// One sentence saying what is counted.
    pub note: String,
    /// Plot x axis.
    pub x_desc: &'static str,
    /// Plot y axis.
    pub y_desc: &'static str,
    /// Bar labels.
    pub labels: Vec<String>,
    /// Bar values.
    pub values: Vec<f64>,
    /// Values are shares (0..=1).
    pub percent: bool,
    /// Table header.
    pub columns: Vec<&'static str>,
    /// Table rows (rows counting no record left out).
    pub rows: Vec<Vec<String>>,
    /// Rows left out of the table because they count no record (the plot
    /// keeps their empty bars).
    pub omitted: usize,
}

impl Distribution {
    /// The plot of this distribution, as SVG.
    pub fn svg(&self) -> String {
        super::plot::svg(&super::plot::Bars {
            title: self.title,
            x_desc: self.x_desc,
            y_desc: self.y_desc,
            labels: self.labels.clone(),
            values: self.values.clone(),
            percent: self.percent,
        })
    }
}

/// Table rows for bins, without the bins that count nothing: the rows and
/// how many were left out.
fn rows_of<T>(
    bins: &[T],
    records: impl Fn(&T) -> u64,
    row: impl Fn(&T) -> Vec<String>,
) -> (Vec<Vec<String>>, usize) {
    let rows: Vec<Vec<String>> = bins.iter().filter(|b| records(b) > 0).map(row).collect();
    let omitted = bins.len() - rows.len();
    (rows, omitted)
}

/// The report's distributions, in page order.
pub fn distributions(r: &CorpusReport) -> Vec<Distribution> {
    let valid = r.totals.valid;
    let mut out = Vec::with_capacity(5);
    let (givens_rows, givens_omitted) = rows_of(
        &r.givens,
        |b| b.records,
        |b| {
            vec![
                b.givens.to_string(),
                count(b.records),
                percent(share(b.records, valid)),
            ]
        },
    );
    out.push(Distribution {
        id: "givens",
        title: "Givens",
        note: format!(
            "Valid records by number of givens (clues), {} records.",
            count(valid)
        ),
        x_desc: "givens",
        y_desc: "records",
        labels: r.givens.iter().map(|b| b.givens.to_string()).collect(),
        values: r.givens.iter().map(|b| b.records as f64).collect(),
        percent: false,
        columns: vec!["givens", "records", "share"],
        rows: givens_rows,
        omitted: givens_omitted,
    });
    if r.guesses_are_backtracks() {
        let mut both = log_distribution(
            "guesses",
            "Guesses and backtracks",
            "Branch points and dead ends of the search (the `guesses` and `backtracks` columns of `solve -k 2 --rate`)",
            &r.guesses,
            valid,
        );
        both.note.push_str(
            " The two are identical on this corpus, so one plot shows both. They are equal on \
             every puzzle with one solution: counting to two searches its whole tree, where each guess \
             opens one more branch and every branch but the solution's ends in a dead end. They \
             differ on puzzles with several solutions (the search stops at the second) or none.",
        );
        both.x_desc = "guesses = backtracks";
        both.columns[0] = both.x_desc;
        out.push(both);
    } else {
        out.push(log_distribution(
            "guesses",
            "Guesses",
            "Branch points of the search (the `guesses` column of `solve -k 2 --rate`)",
            &r.guesses,
            valid,
        ));
        out.push(log_distribution(
            "backtracks",
            "Backtracks",
            "Dead ends of the search (the `backtracks` column of `solve -k 2 --rate`)",
            &r.backtracks,
            valid,
        ));
    }
    let s = &r.singles;
    out.push(Distribution {
        id: "singles",
        title: "Solved by singles alone",
        note: format!(
            "Unique puzzles that naked and hidden singles alone solve: {} of {} ({}), by number of givens.",
            count(s.solved_by_singles),
            count(s.unique),
            percent(s.share)
        ),
        x_desc: "givens",
        y_desc: "share of unique puzzles",
        labels: s.by_givens.iter().map(|b| b.givens.to_string()).collect(),
        values: s
            .by_givens
            .iter()
            .map(|b| share(b.solved_by_singles, b.unique).unwrap_or(0.0))
            .collect(),
        percent: true,
        omitted: 0,
        columns: vec!["givens", "unique", "by singles", "share"],
        rows: s
            .by_givens
            .iter()
            .map(|b| {
                vec![
                    b.givens.to_string(),
                    count(b.unique),
                    count(b.solved_by_singles),
                    percent(share(b.solved_by_singles, b.unique)),
                ]
            })
            .collect(),
    });
    if let Some(sc) = &r.scores {
        let note = match (sc.min, sc.max) {
            (Some(min), Some(max)) => format!(
                "Best score over all solutions (weights: {}) of the {} puzzles with a solution: from {} to {}, mean {}.",
                code(&sc.weights),
                count(sc.scored),
                signed(min),
                signed(max),
                mean(sc.mean)
            ),
            _ => format!("Best scores (weights: {}): no puzzle has a solution.", code(&sc.weights)),
        };
        let (rows, omitted) = rows_of(
            &sc.bins,
            |b| b.records,
            |b| {
                vec![
                    range(b.low, b.high),
                    count(b.records),
                    percent(share(b.records, sc.scored)),
                ]
            },
        );
        out.push(Distribution {
            id: "scores",
            title: "Best scores",
            note,
            x_desc: "best score",
            y_desc: "puzzles",
            labels: sc.bins.iter().map(|b| range(b.low, b.high)).collect(),
            values: sc.bins.iter().map(|b| b.records as f64).collect(),
            percent: false,
            columns: vec!["best score", "puzzles", "share"],
            rows,
            omitted,
        });
    }
    if let Some(er) = &r.ratings {
        out.push(er_distribution(er));
    }
    out
}

/// The ER distribution: rated puzzles per ER in steps of 0.1; the note
/// counts the puzzles without a rating by why.
fn er_distribution(er: &ErSummary) -> Distribution {
    let from = match er.source {
        "rate" => "rated by the report (`--rate`, as `batchdoku rate`)",
        _ => "from the input's `er` column (`batchdoku rate` output)",
    };
    let note = format!(
        "Sudoku Explainer rating (ER) of the rated puzzles, {from}: {} rated, mean {}; \
         without a rating: {} over the rater's budget (`limit`), {} with several solutions, \
         {} with none, {} not rated in the input. Puzzles without a rating are not counted as 0.",
        count(er.rated),
        er.mean
            .map_or_else(|| "–".to_string(), |m| format!("{m:.2}")),
        count(er.limit),
        count(er.multiple),
        count(er.unsolvable),
        count(er.unrated),
    );
    let label = |b: &ErBin| format!("{:.1}", b.er);
    let (rows, omitted) = rows_of(
        &er.bins,
        |b| b.puzzles,
        |b| {
            vec![
                label(b),
                count(b.puzzles),
                percent(share(b.puzzles, er.rated)),
            ]
        },
    );
    Distribution {
        id: "er",
        title: "Difficulty rating (ER)",
        note,
        x_desc: "ER",
        y_desc: "puzzles",
        labels: er.bins.iter().map(label).collect(),
        values: er.bins.iter().map(|b| b.puzzles as f64).collect(),
        percent: false,
        columns: vec!["ER", "puzzles", "share"],
        rows,
        omitted,
    }
}

fn log_distribution(
    id: &'static str,
    title: &'static str,
    what: &str,
    d: &LogDistribution,
    valid: u64,
) -> Distribution {
    let (rows, omitted) = rows_of(
        &d.bins,
        |b| b.records,
        |b| {
            vec![
                range(b.low, b.high),
                count(b.records),
                percent(share(b.records, valid)),
            ]
        },
    );
    Distribution {
        id,
        title,
        note: format!(
            "{what} per valid record, in bins that double in width; mean {}.",
            mean(d.mean)
        ),
        x_desc: id,
        y_desc: "records",
        labels: d.bins.iter().map(|b| range(b.low, b.high)).collect(),
        values: d.bins.iter().map(|b| b.records as f64).collect(),
        percent: false,
        columns: vec![id, "records", "share"],
        rows,
        omitted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(signed(-1234), "-1,234");
        assert_eq!(percent(None), "–");
        assert_eq!(percent(share(1, 3)), "33.3%");
        assert_eq!(percent(share(0, 3)), "0%");
        assert_eq!(percent(share(3, 3)), "100%");
        assert_eq!(percent(share(1, 10_000)), "<0.1%");
        assert_eq!(percent(share(1, 2000)), "0.1%");
        assert_eq!(percent(share(9_999, 10_000)), ">99.9%");
        assert_eq!(percent(share(999, 1000)), "99.9%");
        assert_eq!(code("a`b"), "`a'b`");
        assert_eq!(share(1, 0), None);
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(1_500_000), "1.5 MB");
        assert_eq!(range(4, 7), "4–7");
        assert_eq!(range(0, 0), "0");
    }
}
