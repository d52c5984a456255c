//! Opening what a run reads and writes: every input before any work starts
//! (a missing file is fatal before a row is written), stdin spooled to a
//! temporary file for commands that read their input twice, the output
//! (stdout, or a temporary file beside `-o PATH`, renamed when the run
//! completes) and the `--summary-json` file. Temporary files are
//! registered with [`interrupt`](super::interrupt), so that a signal that
//! ends the process removes them.

use std::io::{Read, Write as _};
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use anyhow::Context;
use tempfile::NamedTempFile;

use batchdoku::parse::ReadOptions;
use batchdoku::pipeline::{self, Input, Reopenable, Report, Sink};
use batchdoku::totals::Summary;

use super::args::RecordArgs;
use super::interrupt;

/// A run's opened inputs and the byte counter they share (for progress).
pub type Inputs = (Vec<Input>, Arc<AtomicU64>);

/// Prepares `paths` to be read twice: regular files are reopened (and
/// checked for changes); stdin and anything else that is not a regular file
/// (a pipe or FIFO given by path) are spooled to temporary files, removed
/// when dropped or by the signal thread.
pub fn reopenable(paths: &[String]) -> anyhow::Result<Vec<Reopenable>> {
    check_stdin_once(paths)?;
    paths
        .iter()
        .map(|p| Reopenable::new(p, spool).with_context(|| p.clone()))
        .collect()
}

/// Copies `src` to a registered temporary file. Copying stops early when a
/// signal raises the quit flag: the run then stops before its first batch.
fn spool(src: &mut dyn Read) -> std::io::Result<NamedTempFile> {
    let mut spool = NamedTempFile::new()?;
    interrupt::register(spool.path());
    let mut buf = vec![0u8; SPOOL_CHUNK];
    while !interrupt::raised() {
        let n = match src.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        spool.as_file_mut().write_all(&buf[..n])?;
    }
    Ok(spool)
}

/// Fails when stdin (`-`) is among `paths` more than once.
fn check_stdin_once(paths: &[String]) -> anyhow::Result<()> {
    if paths.iter().filter(|p| *p == "-").count() > 1 {
        anyhow::bail!("stdin ('-') given more than once");
    }
    Ok(())
}

/// Bytes copied per read while spooling stdin.
const SPOOL_CHUNK: usize = 256 * 1024;

/// Opens every input before any work starts; returns them with the shared
/// byte counter. With `reopenable` (as made from `paths` by
/// [`reopenable`]), each is opened from there.
pub fn open_inputs(
    paths: &[String],
    reopenable: Option<&[Reopenable]>,
    records: &RecordArgs,
) -> anyhow::Result<Inputs> {
    let counter = Arc::new(AtomicU64::new(0));
    let options = ReadOptions {
        format: records.input_format.into(),
        column: records.column.clone(),
        keep_columns: records.keep_columns,
    };
    check_stdin_once(paths)?;
    let inputs = match reopenable {
        Some(inputs) => inputs
            .iter()
            .map(|i| {
                i.open(&options, counter.clone())
                    .with_context(|| i.name().to_owned())
            })
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => paths
            .iter()
            .map(|p| pipeline::open(p, &options, counter.clone()).with_context(|| p.clone()))
            .collect::<anyhow::Result<Vec<_>>>()?,
    };
    Ok((inputs, counter))
}

/// The output: stdout for `None`, else a temporary file beside the path,
/// created before any input is read so that an unwritable destination
/// fails at once.
pub fn open_output(output: Option<&Path>) -> anyhow::Result<Sink> {
    match output {
        None => Ok(Sink::stdout()),
        Some(path) => open_file(path),
    }
}

/// A temporary file beside `path`, registered for removal on a signal.
fn open_file(path: &Path) -> anyhow::Result<Sink> {
    let sink = Sink::file(path).with_context(|| format!("{}: cannot write", path.display()))?;
    if let Some(tmp) = temporary_path(&sink) {
        interrupt::register(&tmp);
    }
    Ok(sink)
}

/// Ends a run's output: keeps it (flush, rename `-o`'s temporary file) when
/// the run completed and no signal has arrived, else drops it, which
/// removes the temporary file; a signal that arrived after the run ended
/// marks the report interrupted.
pub fn finish(sink: Sink, report: &mut Report) -> anyhow::Result<()> {
    let tmp = temporary_path(&sink);
    let kept = interrupt::commit(|| pipeline::finish(sink, report));
    if let Some(tmp) = tmp {
        interrupt::unregister(&tmp);
    }
    match kept {
        Some(result) => Ok(result?),
        None => {
            report.interrupted = true;
            Ok(())
        }
    }
}

/// The temporary file of an `-o` output.
fn temporary_path(sink: &Sink) -> Option<std::path::PathBuf> {
    match sink {
        Sink::File { tmp, .. } => Some(tmp.get_ref().path().to_path_buf()),
        _ => None,
    }
}

/// Writes the end-of-run summary as pretty JSON to `path`, atomically.
pub fn write_summary_json(path: &Path, summary: &Summary) -> anyhow::Result<()> {
    let mut sink = open_file(path)?;
    let tmp = temporary_path(&sink);
    let mut text = serde_json::to_vec_pretty(summary)?;
    text.push(b'\n');
    let written = sink
        .write_all(&text)
        .and_then(|()| interrupt::exclusive(|| sink.finish()));
    if let Some(tmp) = tmp {
        interrupt::unregister(&tmp);
    }
    written.with_context(|| format!("{}: cannot write", path.display()))
}
