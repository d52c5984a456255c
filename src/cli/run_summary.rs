//! The end-of-run summary of a record command, printed on stderr or
//! written as JSON (`--summary-json`).

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use batchdoku_batch::{Status, Totals};

/// The end-of-run summary.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The command that ran (`solve`, `score`, ...).
    pub command: &'static str,
    /// Records read.
    pub records: u64,
    /// Rows written.
    pub rows: u64,
    /// Rows per status name (statuses with zero rows included).
    pub statuses: std::collections::BTreeMap<&'static str, u64>,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// Records per second.
    pub puzzles_per_second: f64,
    /// Mean guesses per record.
    pub mean_guesses: f64,
    /// Mean nodes per record.
    pub mean_nodes: f64,
    /// Worker threads.
    pub threads: usize,
    /// Records whose answer disagrees with the input's expected solution.
    pub expected_mismatches: u64,
    /// Records whose expected solution cell is not a complete grid.
    pub expected_malformed: u64,
    /// True when the run was interrupted before the end of input.
    pub interrupted: bool,
    /// True when the reader of the rows went away (`| head`) before the
    /// end: `records` and `rows` then count what was written before the
    /// run found the output closed.
    pub broken_pipe: bool,
    /// True when every record was read and its row written: false after
    /// an interruption or a closed output.
    pub complete: bool,
}

impl Summary {
    /// Builds the summary of a run.
    pub fn new(
        command: &'static str,
        totals: &Totals,
        elapsed: Duration,
        threads: usize,
    ) -> Summary {
        let secs = elapsed.as_secs_f64();
        let n = totals.records.max(1) as f64;
        Summary {
            command,
            records: totals.records,
            rows: totals.rows,
            statuses: Status::ALL
                .iter()
                .map(|&s| (s.as_str(), totals.count(s)))
                .collect(),
            elapsed_seconds: secs,
            puzzles_per_second: if secs > 0.0 {
                totals.records as f64 / secs
            } else {
                0.0
            },
            mean_guesses: totals.guesses as f64 / n,
            mean_nodes: totals.nodes as f64 / n,
            threads,
            expected_mismatches: totals.mismatches,
            expected_malformed: totals.malformed_expected,
            interrupted: false,
            broken_pipe: false,
            complete: true,
        }
    }
}

impl fmt::Display for Summary {
    /// A compact human summary, e.g.
    /// `batchdoku solve: 1000 records (unique 998, invalid 2) in 0.01 s, 100000 puzzles/s, 1.20 guesses/puzzle, 2 threads`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "batchdoku {}: {} records", self.command, self.records)?;
        if self.rows != self.records {
            let plural = if self.rows == 1 { "" } else { "s" };
            write!(f, ", {} row{plural} written", self.rows)?;
        }
        let parts: Vec<String> = Status::ALL
            .iter()
            .filter_map(|s| {
                let n = self.statuses.get(s.as_str()).copied().unwrap_or(0);
                (n > 0).then(|| format!("{} {}", s.as_str(), n))
            })
            .collect();
        if !parts.is_empty() {
            write!(f, " ({})", parts.join(", "))?;
        }
        if self.expected_mismatches + self.expected_malformed > 0 {
            write!(
                f,
                ", expected solutions: {} mismatch, {} malformed",
                self.expected_mismatches, self.expected_malformed
            )?;
        }
        write!(
            f,
            " in {:.2} s, {:.0} puzzles/s",
            self.elapsed_seconds, self.puzzles_per_second,
        )?;
        // Commands that do not search (canon, dedupe) have no guesses.
        if self.mean_guesses > 0.0 || matches!(self.command, "solve" | "score") {
            write!(f, ", {:.2} guesses/puzzle", self.mean_guesses)?;
        }
        write!(
            f,
            ", {} thread{}",
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )?;
        if self.interrupted {
            f.write_str(" (interrupted)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_batch::Row;

    #[test]
    fn summary_mentions_nonzero_statuses() {
        let mut t = Totals::default();
        let row = Row {
            status: Status::Unique,
            ..Row::default()
        };
        t.add_row(&row);
        let s = Summary::new("solve", &t, Duration::from_millis(500), 2);
        let text = s.to_string();
        assert!(text.contains("1 records (unique 1)"), "{text}");
        assert!(text.contains("2 puzzles/s"), "{text}");
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["statuses"]["unique"], 1);
        assert_eq!(json["statuses"]["invalid"], 0);
        assert!(!text.contains("expected"), "{text}");
    }

    #[test]
    fn summary_counts_expected_mismatches() {
        let mut t = Totals::default();
        let row = Row {
            status: Status::Solved,
            expected: Some(batchdoku_batch::Expected::Mismatch),
            ..Row::default()
        };
        t.add_row(&row);
        let s = Summary::new("solve", &t, Duration::from_millis(500), 2);
        let text = s.to_string();
        assert!(
            text.contains("(solved 1), expected solutions: 1 mismatch, 0 malformed"),
            "{text}"
        );
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["expected_mismatches"], 1);
        assert_eq!(json["expected_malformed"], 0);
    }
}
