//! Opening what a run reads and writes: every input before any work starts
//! (a missing file is fatal before a row is written), stdin spooled to a
//! temporary file for commands that read their input twice, the output
//! (stdout for none or `-o -`, or a temporary file beside `-o PATH`,
//! renamed when the run completes) and the `--summary-json` file, opened
//! as early and renamed only when both are written. Temporary files are
//! registered with [`interrupt`](super::interrupt), so that a signal that
//! ends the process removes them.

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use anyhow::Context;
use tempfile::NamedTempFile;

use batchdoku::parse::ReadOptions;
use batchdoku::pipeline::{self, Flushed, Input, Sink};
use batchdoku::totals::Summary;

use super::args::RecordArgs;
use super::interrupt;

/// A run's opened inputs and the byte counter they share (for progress).
pub type Inputs = (Vec<Input>, Arc<AtomicU64>);

/// Copies stdin to a temporary file when it is among `paths`, so that a
/// command can read it twice (the file is removed when dropped).
pub fn spool_stdin(paths: &[String]) -> anyhow::Result<Option<NamedTempFile>> {
    if !paths.iter().any(|p| p == "-") {
        return Ok(None);
    }
    let mut spool = NamedTempFile::new().context("creating a temporary file for stdin")?;
    interrupt::register(spool.path());
    std::io::copy(&mut std::io::stdin().lock(), spool.as_file_mut())
        .context("copying stdin to a temporary file")?;
    Ok(Some(spool))
}

/// Opens every input before any work starts; returns them with the shared
/// byte counter. `-` is stdin, or its copy in `spool` when stdin was
/// spooled.
pub fn open_inputs(
    paths: &[String],
    spool: Option<&NamedTempFile>,
    records: &RecordArgs,
) -> anyhow::Result<Inputs> {
    let counter = Arc::new(AtomicU64::new(0));
    let options = ReadOptions {
        format: records.input_format.into(),
        column: records.column.clone(),
        keep_columns: records.keep_columns,
    };
    if paths.iter().filter(|p| is_stdin(p)).count() > 1 {
        anyhow::bail!("stdin ('-', /dev/stdin) given more than once");
    }
    let inputs = paths
        .iter()
        .map(|p| match spool {
            Some(spool) if p == "-" => {
                pipeline::open_as(spool.path(), "<stdin>", &options, counter.clone())
                    .context("<stdin> (spooled copy)")
            }
            _ => pipeline::open(p, &options, counter.clone()).with_context(|| p.clone()),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((inputs, counter))
}

/// Whether the input `path` is standard input: `-`, a name for it
/// (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`), or any path to the same
/// pipe or socket as file descriptor 0 (same device and inode, as
/// `/dev/fd/0` resolves). A regular file or a device redirected to stdin
/// is not counted when named by its own path: opening it again reads it
/// afresh (`/dev/null` twice is two empty inputs).
pub fn is_stdin(path: &str) -> bool {
    const NAMES: [&str; 3] = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];
    if path == "-" || NAMES.contains(&path) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let Ok(fd0) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        let (Ok(stdin), Ok(meta)) = (std::fs::File::from(fd0).metadata(), std::fs::metadata(path))
        else {
            return false;
        };
        let kind = meta.file_type();
        (kind.is_fifo() || kind.is_socket())
            && meta.dev() == stdin.dev()
            && meta.ino() == stdin.ino()
    }
    #[cfg(not(unix))]
    false
}

/// The output: stdout for `None` or `-`, else a temporary file beside the
/// path, created before any input is read so that an unwritable
/// destination fails at once.
pub fn open_output(output: Option<&Path>) -> anyhow::Result<Sink> {
    match output {
        None => Ok(Sink::stdout()),
        Some(path) if path == Path::new("-") => Ok(Sink::stdout()),
        Some(path) => open_file(path),
    }
}

/// The `--summary-json` file, opened (as a temporary file beside it)
/// before any input is read, so that a typo in its directory fails at
/// once. `output` is `-o`'s path: the two must differ.
pub fn open_summary(path: Option<&Path>, output: Option<&Path>) -> anyhow::Result<Option<Sink>> {
    let Some(path) = path else {
        return Ok(None);
    };
    if output.is_some_and(|o| o == path) {
        anyhow::bail!(
            "--summary-json and -o name the same file ({})",
            path.display()
        );
    }
    open_file(path).map(Some)
}

/// A temporary file beside `path`, registered for removal on a signal.
fn open_file(path: &Path) -> anyhow::Result<Sink> {
    let sink = Sink::file(path).with_context(|| format!("{}: cannot write", path.display()))?;
    if let Sink::File { tmp, .. } = &sink {
        interrupt::register(tmp.get_ref().path());
    }
    Ok(sink)
}

/// Writes the end-of-run summary as pretty JSON into `sink` (from
/// [`open_summary`]) and flushes it; the caller renames it with
/// [`Flushed::persist`].
pub fn write_summary_json(
    mut sink: Sink,
    path: &Path,
    summary: &Summary,
) -> anyhow::Result<Flushed> {
    let mut text = serde_json::to_vec_pretty(summary)?;
    text.push(b'\n');
    sink.write_all(&text)
        .and_then(|()| sink.flush_all())
        .with_context(|| format!("{}: cannot write", path.display()))
}
