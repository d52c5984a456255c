//! The checkpoint's state file (`FILE.partial.json`): what made the rows
//! of the partial file ([`Identity`]: the version, the command, the
//! options that decide the output's bytes, the inputs) and how far they
//! go ([`Done`]: records, bytes, the digest of the records read, the
//! totals and the time so far). JSON, written to a temporary file and
//! renamed over the last one, so it is always whole.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use batchdoku_batch::{Status, Totals};

/// The layout of the state file; another layout is refused.
pub const LAYOUT: u32 = 1;

/// What made a partial file's rows: a run may resume it only when all of
/// this is the same.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// `batchdoku --version` of the binary that wrote the rows.
    pub version: String,
    /// The command (`solve`, `score`, `rate`, `canon`).
    pub command: String,
    /// The options that decide the output's bytes, by name (flags, and
    /// what they resolve to, such as the columns), normalised: defaults
    /// written out, never `-j`, `--batch-size`, `--progress`, `-q` or
    /// `--summary-json`.
    pub options: BTreeMap<String, String>,
    /// The inputs as given (their names are in the rows).
    pub inputs: Vec<String>,
}

impl Identity {
    /// What differs between the identity a partial file was made with
    /// (`self`) and `now`'s, one item per difference, each saying both.
    pub fn differences(&self, now: &Identity) -> Vec<String> {
        let mut found = Vec::new();
        if self.version != now.version {
            found.push(format!(
                "written by batchdoku {}, this is {}",
                self.version, now.version
            ));
        }
        if self.command != now.command {
            found.push(format!(
                "written by `{}`, this is `{}`",
                self.command, now.command
            ));
        }
        let names: std::collections::BTreeSet<&String> =
            self.options.keys().chain(now.options.keys()).collect();
        let differ = |name: &&String| self.options.get(*name) != now.options.get(*name);
        let mut options: Vec<&String> = names.into_iter().filter(differ).collect();
        // A digest (of settings, of a weights file) differs with the flag
        // that changed it: said only when no flag says more.
        if options.iter().any(|name| !name.ends_with(" digest")) {
            options.retain(|name| !name.ends_with(" digest"));
        }
        for name in options {
            let show = |v: Option<&String>| v.map_or("(none)".to_string(), |v| v.clone());
            found.push(format!(
                "{name}: {} then, {} now",
                show(self.options.get(name)),
                show(now.options.get(name))
            ));
        }
        if self.inputs != now.inputs {
            found.push(format!(
                "inputs: {} then, {} now",
                self.inputs.join(" "),
                now.inputs.join(" ")
            ));
        }
        found
    }
}

/// How far the rows of a partial file go.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Done {
    /// Records whose rows the partial file holds (the first ones).
    pub records: u64,
    /// The partial file's length after them: anything past it is cut.
    pub bytes: u64,
    /// The digest of those records (16 hex digits), which a resumed run
    /// checks the records it skips against.
    pub digest: String,
    /// The working time of the sessions so far, in seconds.
    pub elapsed_seconds: f64,
    /// Their totals (for the summary and the exit code of the whole run).
    pub totals: SavedTotals,
}

impl Done {
    /// The digest as a number (0 when unreadable: never a real digest of
    /// records that are there, so the check fails).
    pub fn digest_value(&self) -> u64 {
        u64::from_str_radix(&self.digest, 16).unwrap_or(0)
    }
}

/// [`Totals`], as the state file keeps them (statuses by name).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedTotals {
    /// Records read.
    pub records: u64,
    /// Rows written.
    pub rows: u64,
    /// Rows per status name (zero counts left out).
    pub statuses: BTreeMap<String, u64>,
    /// Sum of guesses.
    pub guesses: u64,
    /// Sum of search nodes.
    pub nodes: u64,
    /// Answers that disagree with the expected solution.
    pub mismatches: u64,
    /// Expected-solution cells that are not a grid.
    pub malformed_expected: u64,
}

impl From<&Totals> for SavedTotals {
    fn from(t: &Totals) -> SavedTotals {
        SavedTotals {
            records: t.records,
            rows: t.rows,
            statuses: Status::ALL
                .iter()
                .filter(|&&s| t.count(s) > 0)
                .map(|&s| (s.as_str().to_string(), t.count(s)))
                .collect(),
            guesses: t.guesses,
            nodes: t.nodes,
            mismatches: t.mismatches,
            malformed_expected: t.malformed_expected,
        }
    }
}

impl SavedTotals {
    /// The totals again; an unknown status name is an error.
    pub fn to_totals(&self) -> anyhow::Result<Totals> {
        let mut totals = Totals {
            records: self.records,
            rows: self.rows,
            guesses: self.guesses,
            nodes: self.nodes,
            mismatches: self.mismatches,
            malformed_expected: self.malformed_expected,
            ..Totals::default()
        };
        for (name, &count) in &self.statuses {
            let status: Status = name
                .parse()
                .map_err(|e: String| anyhow::anyhow!("statuses: {e}"))?;
            totals.by_status[status.ordinal()] = count;
        }
        Ok(totals)
    }
}

/// The state file's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The layout ([`LAYOUT`]).
    pub checkpoint: u32,
    /// What made the rows.
    #[serde(flatten)]
    pub identity: Identity,
    /// How far they go.
    pub done: Done,
}

impl State {
    /// Reads the state file at `path`; `None` when there is none.
    pub fn read(path: &Path) -> anyhow::Result<Option<State>> {
        let text = match std::fs::read(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read", path.display())),
        };
        let state: State = serde_json::from_slice(&text).with_context(|| {
            format!("{}: not a checkpoint this batchdoku reads", path.display())
        })?;
        if state.checkpoint != LAYOUT {
            anyhow::bail!(
                "{}: a checkpoint of layout {}, this batchdoku reads layout {LAYOUT}",
                path.display(),
                state.checkpoint
            );
        }
        state.done.totals.to_totals().with_context(|| {
            format!("{}: not a checkpoint this batchdoku reads", path.display())
        })?;
        Ok(Some(state))
    }

    /// Writes the state to `path`, whole: a synced temporary file beside
    /// it (`.NAME.tmp`, one name, so a process ended midway leaves one at
    /// most, overwritten next time), renamed over it.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp"));
        let mut text = serde_json::to_vec_pretty(self)?;
        text.push(b'\n');
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> Identity {
        Identity {
            version: "0.3.0".into(),
            command: "rate".into(),
            options: [("--seed", "1"), ("--format", "csv")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            inputs: vec!["a.txt".into()],
        }
    }

    #[test]
    fn differences_name_each_field_with_both_values() {
        let a = identity();
        assert!(a.differences(&a).is_empty());
        let mut b = identity();
        b.options.insert("--seed".into(), "2".into());
        b.options.insert("settings digest".into(), "1f".into());
        b.options.insert("--limit".into(), "9".into());
        b.inputs = vec!["b.txt".into()];
        b.command = "solve".into();
        assert_eq!(
            a.differences(&b),
            [
                "written by `rate`, this is `solve`",
                "--limit: (none) then, 9 now",
                "--seed: 1 then, 2 now",
                "inputs: a.txt then, b.txt now",
            ]
        );
        // A digest is named when nothing else is.
        let mut c = identity();
        c.options.insert("settings digest".into(), "1f".into());
        assert_eq!(a.differences(&c), ["settings digest: (none) then, 1f now"]);
    }

    #[test]
    fn the_state_round_trips_with_its_totals() {
        let mut totals = Totals::default();
        let row = batchdoku_batch::Row {
            status: Status::Invalid,
            guesses: 4,
            ..Default::default()
        };
        totals.add_row(&row);
        totals.add_row(&row);
        let state = State {
            checkpoint: LAYOUT,
            identity: identity(),
            done: Done {
                records: 2,
                bytes: 99,
                digest: format!("{:016x}", 0xabc_u64),
                elapsed_seconds: 1.5,
                totals: SavedTotals::from(&totals),
            },
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv.partial.json");
        assert_eq!(State::read(&path).unwrap(), None);
        state.write(&path).unwrap();
        let back = State::read(&path).unwrap().unwrap();
        assert_eq!(back, state);
        assert_eq!(back.done.totals.to_totals().unwrap(), totals);
        assert_eq!(back.done.digest_value(), 0xabc);
        // Only the state file is left: no temporary file.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_state_file_of_another_kind_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, "{\"rows\": 3}").unwrap();
        let err = State::read(&path).unwrap_err();
        assert!(format!("{err:#}").contains("not a checkpoint"), "{err:#}");
        let text = serde_json::json!({
            "checkpoint": 99, "version": "x", "command": "solve", "options": {},
            "inputs": [], "done": Done::default(),
        });
        std::fs::write(&path, text.to_string()).unwrap();
        let err = State::read(&path).unwrap_err();
        assert!(format!("{err:#}").contains("layout 99"), "{err:#}");
    }
}
