//! `--checkpoint`: a long run that is stopped keeps the rows it finished,
//! and the same command run again resumes from them.
//!
//! With `-o FILE`, a checkpointed run writes its rows to `FILE.partial`
//! (plain bytes: never compressed, whatever FILE's name says) and records
//! in `FILE.partial.json` what made them ([`Identity`]: the version, the
//! command, the options that decide the output's bytes, the inputs) and
//! how far they go (records, bytes, a digest of the records read, the
//! totals and the time so far). That state is saved at most every
//! [`SAVE_EVERY`] after a batch of whole rows (the rows flushed and synced
//! first, the state written whole and renamed), and once more when the run
//! stops; a run that ends otherwise (SIGKILL, a power cut) loses at most
//! the rows since the last save, which the next run cuts off.
//!
//! Run again, the same command finds the two files, checks the identity
//! (any difference is refused, naming it, with nothing changed), reads
//! the records already done again without processing them (numbering
//! carries on; their digest must match, else it is refused before a byte
//! is written) and appends the rest. When the run completes, the partial
//! file's bytes go through the ordinary `-o` output (compressed there when
//! FILE's name says so, renamed into place with the summary), and the two
//! files are removed: FILE has the bytes of one uninterrupted run.
//!
//! Without `--checkpoint` none of this runs. Parquet output is refused
//! with it (its footer, written last, indexes every row group), and so is
//! an output that is not a file (stdout, a device, a descriptor).

mod partial;
mod state;

use std::collections::BTreeMap;
use std::io::{self, Read as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;

use batchdoku_batch::plumbing::{Config, Fatal, Resume, Sink, Written};
use batchdoku_batch::{self as batch, Column, Job, OutputFormat, Report, Totals};

use super::args::{RecordArgs, RunArgs, VERSION};
use super::exit::Exit;
use super::interrupt;
use super::io::Inputs;
use super::say;
use super::stderr_progress::StderrProgress;
use partial::Partial;
use state::{Done, SavedTotals, State, LAYOUT};

pub use state::Identity;

/// How often, at most, a running checkpoint is saved (after a batch).
pub const SAVE_EVERY: Duration = Duration::from_secs(1);

/// Bytes copied per read when the partial file becomes the output.
const COPY_CHUNK: usize = 256 * 1024;

/// The path of `-o` for a checkpointed run writing `format`: refuses what
/// cannot be resumed (no `-o`, stdout, a descriptor, a device or FIFO,
/// Parquet) before anything is opened.
pub fn target(output: Option<&Path>, format: OutputFormat) -> anyhow::Result<PathBuf> {
    let path = match output {
        Some(path) if path != Path::new("-") => path,
        _ => anyhow::bail!(
            "--checkpoint needs -o FILE: the rows of a stopped run are kept beside FILE, in \
             FILE.partial"
        ),
    };
    if format == OutputFormat::Parquet {
        anyhow::bail!(
            "--checkpoint cannot resume Parquet output (its footer, written last, indexes every \
             row group): write CSV or JSON lines with --checkpoint, or run without it"
        );
    }
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if Sink::named_descriptor(path).is_some() || special {
        anyhow::bail!(
            "--checkpoint needs -o to name a file, not a descriptor, device or FIFO ({})",
            path.display()
        );
    }
    Ok(path.to_path_buf())
}

/// The identity of a checkpointed run of `command` over `inputs`:
/// `options` are the command's own flags that decide its output (with
/// their values, defaults included), `job` its work (a digest of its
/// settings, in case a flag was left out of `options`); the output and
/// reading flags shared by every command are added here.
pub fn identity(
    command: &str,
    options: &[(&str, String)],
    job: &impl std::fmt::Debug,
    records: &RecordArgs,
    config: &Config,
    inputs: &[String],
) -> Identity {
    let columns: Vec<&str> = config
        .columns
        .iter()
        .map(|c| match c {
            Column::Kept(i) => config.kept_names[usize::from(*i)].as_str(),
            c => c.name(),
        })
        .collect();
    let settings = xxhash_rust::xxh3::xxh3_64(format!("{job:?}").as_bytes());
    let shared = [
        ("--format", config.format.as_str().to_string()),
        ("--no-header", (!config.header).to_string()),
        ("columns", columns.join(",")),
        ("--input-format", records.input_format.as_str().to_string()),
        ("--column", records.column.clone().unwrap_or_default()),
        ("--expected-column", format!("{:?}", records.expected())),
        (
            "--delimiter",
            records
                .delimiter
                .map_or("auto".to_string(), |d| char::from(d).to_string()),
        ),
        ("--keep-columns", records.keep_columns.to_string()),
        ("--keep-trailing", records.keep_trailing.to_string()),
        ("settings digest", format!("{settings:016x}")),
    ];
    let options: BTreeMap<String, String> = options
        .iter()
        .cloned()
        .chain(shared)
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    Identity {
        version: VERSION.to_string(),
        command: command.to_string(),
        options,
        inputs: inputs.to_vec(),
    }
}

/// The two files of a checkpoint, beside `-o FILE`.
#[derive(Debug)]
struct Files {
    /// `FILE.partial`: the rows so far.
    partial: PathBuf,
    /// `FILE.partial.json`: what made them and how far they go.
    state: PathBuf,
}

impl Files {
    /// The files beside `output` (as given: a link is not followed).
    fn beside(output: &Path) -> Files {
        let with = |suffix: &str| {
            let mut name = output.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        };
        Files {
            partial: with(".partial"),
            state: with(".partial.json"),
        }
    }

    /// How to start over, for messages.
    fn start_afresh(&self) -> String {
        format!(
            "remove {} and {} to start afresh",
            self.partial.display(),
            self.state.display()
        )
    }
}

/// A checkpointed run: its files (the partial file locked), its identity
/// and what the files held when it started.
#[derive(Debug)]
pub struct Checkpoint {
    files: Files,
    identity: Identity,
    partial: Partial,
    /// What the files held when the run started (nothing for a new run).
    start: Done,
    /// The totals of `start`.
    start_totals: Totals,
    /// What the files hold now (as last saved).
    saved: Done,
}

impl Checkpoint {
    /// Opens the checkpoint of `-o output` for a run with `identity`:
    /// resumes the rows of an earlier run with the same identity, or
    /// starts new files (also over files that hold no record yet). Refuses,
    /// changing nothing, files of another run, a partial file without its
    /// state or shorter than it says, and files another run is writing.
    pub fn open(output: &Path, identity: Identity, quiet: bool) -> anyhow::Result<Checkpoint> {
        let files = Files::beside(output);
        let name = files.partial.display().to_string();
        let state = State::read(&files.state)
            .with_context(|| format!("--checkpoint: {}", files.start_afresh()))?;
        let exists = std::fs::symlink_metadata(&files.partial).is_ok();
        let partial = Partial::open(&files.partial, !exists).with_context(|| name.clone())?;
        let resumed = match state {
            Some(state) if exists && state.done.records > 0 => {
                let differences = state.identity.differences(&identity);
                if !differences.is_empty() {
                    anyhow::bail!(
                        "--checkpoint: {name} holds the rows of another run ({}): run the \
                         command it was made with, or {}",
                        differences.join("; "),
                        files.start_afresh()
                    );
                }
                if partial.len() < state.done.bytes {
                    anyhow::bail!(
                        "--checkpoint: {name} has {} bytes, fewer than the {} its checkpoint \
                         records: it was changed; {}",
                        partial.len(),
                        state.done.bytes,
                        files.start_afresh()
                    );
                }
                Some(state.done)
            }
            None if partial.len() > 0 => anyhow::bail!(
                "--checkpoint: {name} exists, but not {}, which says what made it and how far \
                 it goes: remove {name} to start afresh",
                files.state.display()
            ),
            _ => None,
        };
        let start = resumed.unwrap_or_else(|| Done {
            digest: format!("{:016x}", 0),
            ..Done::default()
        });
        let checkpoint = Checkpoint {
            start_totals: start.totals.to_totals()?,
            saved: start.clone(),
            start,
            files,
            identity,
            partial,
        };
        if checkpoint.start.records > 0 {
            if !quiet {
                say(format_args!(
                    "batchdoku: resuming from {name}: {} records done",
                    checkpoint.start.records
                ));
            }
        } else {
            // A new run: the state file says what the partial file is
            // from the start.
            checkpoint
                .write_state(&checkpoint.start)
                .with_context(|| format!("{}: cannot write", checkpoint.files.state.display()))?;
        }
        Ok(checkpoint)
    }

    /// Runs `job` over `inputs` into the partial file, skipping the
    /// records it holds, saving the checkpoint as it goes and once more at
    /// the end (also after a failure, unless writing failed or the inputs
    /// are not those of the rows); when the run completes, copies the
    /// partial file's bytes into `rows` (the `-o` output). The report
    /// counts the whole run: the sessions before this one too.
    pub fn run<J: Job>(
        &mut self,
        job: &J,
        (inputs, counter): Inputs,
        config: &Config,
        run: &RunArgs,
        rows: &mut Sink,
    ) -> anyhow::Result<Report> {
        // The CSV header is written once, by the session that starts the
        // file.
        let config = if self.start.bytes > 0 {
            config.without_header()
        } else {
            config.clone()
        };
        let appender = self
            .partial
            .writer_at(self.start.bytes)
            .with_context(|| self.files.partial.display().to_string())?;
        let mut sink = Sink::writer(Box::new(appender));
        let progress = StderrProgress::new(run.progress_mode());
        let began = Instant::now();
        let mut last = Written {
            digest: self.start.digest_value(),
            ..Written::default()
        };
        let mut saved = None;
        let mut saved_at = Instant::now();
        let this = &*self;
        let mut heard = |sink: &mut Sink, written: &Written| -> io::Result<()> {
            last = *written;
            if saved_at.elapsed() >= SAVE_EVERY {
                saved = Some(this.save(sink, written, began.elapsed())?);
                saved_at = Instant::now();
            }
            Ok(())
        };
        let resume = Resume {
            skip: self.start.records,
            digest: self.start.digest_value(),
            written: &mut heard,
        };
        let ran = batch::plumbing::run_resuming(
            job,
            inputs,
            &mut sink,
            &config,
            interrupt::flag(),
            &counter,
            &progress,
            resume,
        );
        if let Some(done) = saved {
            self.saved = done;
        }
        let mut report = match ran {
            Ok(report) => report,
            Err(Fatal::Diverged(why)) => anyhow::bail!(
                "--checkpoint: {} holds the rows of other input ({why}): run it on the inputs it \
                 was made from, or {}",
                self.files.partial.display(),
                self.files.start_afresh()
            ),
            Err(fatal) => {
                // The rows written so far are kept for a later run (an
                // unreadable input, a panic), unless writing them failed:
                // the file may then hold part of a batch past `last`.
                if !matches!(fatal, Fatal::Write(_)) {
                    let _ = self.save(&mut sink, &last, began.elapsed());
                }
                return Err(fatal.into());
            }
        };
        self.saved = self
            .save(&mut sink, &last, began.elapsed())
            .with_context(|| {
                format!("{}: cannot save the checkpoint", self.files.state.display())
            })?;
        report.totals += self.start_totals;
        report.elapsed += Duration::from_secs_f64(self.start.elapsed_seconds);
        if !report.interrupted {
            report.interrupted = !self.copy_into(rows)?;
        }
        Ok(report)
    }

    /// Ends the checkpoint once the run has ended with `exit`: when the
    /// output was kept, its two files are removed; when a signal stopped
    /// the run, says how to resume (unless `quiet`).
    pub fn end(self, exit: Exit, quiet: bool) {
        let Checkpoint {
            files,
            partial,
            saved,
            ..
        } = self;
        if exit.is_signal() {
            if !quiet {
                say(format_args!(
                    "batchdoku: the rows of {} records are kept in {}: run the same command again \
                     to resume (or {})",
                    saved.records,
                    files.partial.display(),
                    files.start_afresh()
                ));
            }
            return;
        }
        drop(partial);
        for path in [&files.partial, &files.state] {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    say(format_args!(
                        "batchdoku: {}: cannot remove: {e}",
                        path.display()
                    ));
                }
                _ => {}
            }
        }
    }

    /// Saves how far the run got (`written`, after `elapsed` of this
    /// session): the rows flushed and synced, then the state written.
    fn save(&self, sink: &mut Sink, written: &Written, elapsed: Duration) -> io::Result<Done> {
        sink.flush_rows()?;
        self.partial.sync()?;
        let mut totals = self.start_totals;
        totals += written.totals;
        let done = Done {
            records: self.start.records + written.records,
            bytes: self.partial.len(),
            digest: format!("{:016x}", written.digest),
            elapsed_seconds: self.start.elapsed_seconds + elapsed.as_secs_f64(),
            totals: SavedTotals::from(&totals),
        };
        self.write_state(&done)?;
        Ok(done)
    }

    /// Writes the state file saying `done`, where a signal's exit cannot
    /// cut it short.
    fn write_state(&self, done: &Done) -> io::Result<()> {
        let state = State {
            checkpoint: LAYOUT,
            identity: self.identity.clone(),
            done: done.clone(),
        };
        interrupt::exclusive(|| state.write(&self.files.state))
    }

    /// Copies the rows of the partial file (as far as saved) into `rows`;
    /// `false` when a signal stopped it first.
    fn copy_into(&self, rows: &mut Sink) -> anyhow::Result<bool> {
        let name = self.files.partial.display().to_string();
        let file = std::fs::File::open(&self.files.partial).with_context(|| name.clone())?;
        let mut file = file.take(self.saved.bytes);
        let mut buf = vec![0u8; COPY_CHUNK];
        loop {
            if interrupt::raised() {
                return Ok(false);
            }
            let n = match file.read(&mut buf) {
                Ok(0) => return Ok(true),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(anyhow::Error::new(e).context(name)),
            };
            rows.write_all(&buf[..n]).map_err(Fatal::Write)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_sit_beside_the_output_under_other_names() {
        let files = Files::beside(Path::new("out/rated.csv.gz"));
        assert_eq!(files.partial, Path::new("out/rated.csv.gz.partial"));
        assert_eq!(files.state, Path::new("out/rated.csv.gz.partial.json"));
    }

    #[test]
    fn only_a_file_can_be_resumed() {
        let csv = OutputFormat::Csv;
        for refused in [None, Some("-"), Some("/dev/stdout"), Some("/dev/null")] {
            let err = target(refused.map(Path::new), csv).unwrap_err();
            assert!(err.to_string().starts_with("--checkpoint needs"), "{err}");
        }
        let err = target(Some(Path::new("x.parquet")), OutputFormat::Parquet).unwrap_err();
        assert!(err.to_string().contains("Parquet"), "{err}");
        assert_eq!(
            target(Some(Path::new("x.csv.gz")), csv).unwrap(),
            Path::new("x.csv.gz")
        );
    }
}
