//! Opening what a run reads and writes: every input before any work starts
//! (a missing file is fatal before a row is written), stdin spooled to a
//! temporary file for commands that read their input twice, the output
//! (stdout for none or `-o -`, or a temporary file beside `-o PATH`,
//! renamed when the run completes) and the `--summary-json` file, opened
//! as early and renamed only when both are written. Temporary files are
//! registered with [`interrupt`], so that a signal that
//! ends the process removes them.

use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use anyhow::Context;
use tempfile::NamedTempFile;

use batchdoku_batch::plumbing::{Flushed, Input, Reopenable, Sink};
use batchdoku_batch::{self as batch, OutputFormat};
use batchdoku_core::ReadOptions;
use batchdoku_core::Weights;

use super::args::RecordArgs;
use super::exit::Exit;
use super::interrupt;

/// A run's opened inputs and the byte counter they share (for progress).
pub type Inputs = (Vec<Input>, Arc<AtomicU64>);

/// Fails when a regular file read twice (see [`reopenable`]) changed
/// between its reads, naming it.
pub fn check_unchanged(inputs: &[Reopenable]) -> anyhow::Result<()> {
    for input in inputs {
        input
            .check_unchanged()
            .with_context(|| input.name().to_owned())?;
    }
    Ok(())
}

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

/// Fails when stdin (by any of its names, see [`is_stdin`]) is among
/// `paths` more than once.
fn check_stdin_once(paths: &[String]) -> anyhow::Result<()> {
    if paths.iter().filter(|p| is_stdin(p)).count() > 1 {
        anyhow::bail!("stdin ('-', /dev/stdin) given more than once");
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
        format: records.input_format,
        column: records.column.clone(),
        keep_columns: records.keep_columns,
        expected: records.expected(),
        delimiter: records.delimiter,
        keep_written: records.keep_written,
    };
    check_stdin_once(paths)?;
    // Each is opened (a missing file is fatal before any row), read up to
    // its first records (format, CSV header), and parked: a regular file is
    // closed again until the run reaches it, so at most one is open at a
    // time and memory does not grow with the number of inputs.
    // The library's errors name options, not flags: an input the CSV flags
    // do not fit is said with the flags given.
    let csv_flags = [
        records.column.as_ref().map(|_| "--column"),
        records.keep_columns.then_some(records.columns_flag()),
        records
            .expected_column
            .as_ref()
            .map(|_| "--expected-column"),
        records.delimiter.map(|_| "--delimiter"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    let open = |opened: std::io::Result<Input>, name: &str| {
        let mut input = opened.map_err(anyhow::Error::new).with_context(|| {
            if csv_flags.is_empty() {
                name.to_owned()
            } else {
                format!("{name} ({csv_flags})")
            }
        })?;
        input.park();
        Ok(input)
    };
    let inputs = match reopenable {
        Some(inputs) => inputs
            .iter()
            .map(|i| open(i.open(&options, counter.clone()), i.name()))
            .collect::<anyhow::Result<Vec<_>>>()?,
        None => paths
            .iter()
            .map(|p| {
                open(
                    batch::plumbing::Input::open(p, &options, counter.clone()),
                    p,
                )
            })
            .collect::<anyhow::Result<Vec<_>>>()?,
    };
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

/// The weights `--weights` (and `report --score`) name: `target` or a
/// weights file.
pub fn load_weights(spec: &str) -> anyhow::Result<Weights> {
    Weights::from_spec(spec).with_context(|| format!("{spec}: bad weights file"))
}

/// The output: stdout for `None` or `-`, else a temporary file beside the
/// path (compressed when its name ends in `.gz` or `.zst`), created before
/// any input is read so that an unwritable destination fails at once. A path naming one of the process's own
/// descriptors (`/dev/stdout`, `/dev/fd/N`) or anything but a regular file
/// is written in place (see [`Sink::file`]).
pub fn open_output(output: Option<&Path>) -> anyhow::Result<Sink> {
    match output {
        None => stdout_sink("rows"),
        Some(path) if path == Path::new("-") => stdout_sink("rows"),
        Some(path) => open_file(path, "-o")?
            .compress(batch::plumbing::Compression::from_path(path))
            .with_context(|| format!("-o {}", path.display())),
    }
}

/// Refuses to write a binary format (Parquet) to a terminal: its bytes
/// would garble the screen. A pipe or a file is fine.
pub fn refuse_binary_on_terminal(sink: &Sink, format: OutputFormat) -> anyhow::Result<()> {
    if format == OutputFormat::Parquet && sink.is_terminal() {
        anyhow::bail!(
            "--format parquet: will not write a binary file to a terminal: give -o FILE.parquet, \
             or redirect stdout"
        );
    }
    Ok(())
}

/// The `--summary-json` file (`-` is stdout), opened (as a temporary file
/// beside it) before any input is read, so that a typo in its directory
/// fails at once. `rows` is the rows' sink: the two must not write to the
/// same place (the same path, the same file, or both stdout).
pub fn open_summary(path: Option<&Path>, rows: &Sink) -> anyhow::Result<Option<Sink>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let sink = if path == Path::new("-") {
        stdout_sink("--summary-json")?
    } else {
        open_file(path, "--summary-json")?
    };
    refuse_same_place(&[
        (format!("--summary-json {}", path.display()), &sink),
        ("the rows (-o, or stdout without it)".to_string(), rows),
    ])?;
    Ok(Some(sink))
}

/// Refuses to run when two of a command's outputs, each named as the user
/// gave it, would be written to the same place ([`Sink::same_place`]: the
/// same resolved path, the same file, or both stdout). The one check for
/// every pair of outputs: the rows and the summary, and `split`'s part
/// files beside them. Checked before any work, so nothing is kept.
pub fn refuse_same_place(outputs: &[(String, &Sink)]) -> anyhow::Result<()> {
    for (i, (a_name, a)) in outputs.iter().enumerate() {
        if let Some((b_name, _)) = outputs[i + 1..].iter().find(|(_, b)| a.same_place(b)) {
            anyhow::bail!(
                "{a_name} and {b_name} would be written to the same place: give them different \
                 destinations"
            );
        }
    }
    Ok(())
}

/// Refuses to run when an output would write over one of the inputs
/// (`solve f -o f`, `solve f >> f`): the input would be destroyed or read
/// back as it is written. Checked before any work, so nothing is kept.
pub fn refuse_inputs_as_outputs<'a>(
    inputs: &[String],
    outputs: impl IntoIterator<Item = &'a Sink>,
) -> anyhow::Result<()> {
    let outputs: Vec<&Sink> = outputs.into_iter().collect();
    for input in inputs.iter().filter(|p| p.as_str() != "-") {
        if outputs.iter().any(|o| o.writes_over(Path::new(input))) {
            anyhow::bail!(
                "{input} is both an input and an output: write the results elsewhere \
                 (the input would be overwritten)"
            );
        }
    }
    Ok(())
}

/// Stdout as a sink for `what`; fails when stdout was closed when the
/// process started (`>&-`): writes would go nowhere.
fn stdout_sink(what: &str) -> anyhow::Result<Sink> {
    check_open_at_start(1, what)?;
    Ok(Sink::stdout())
}

/// Fails when descriptor `fd` (0, 1 or 2) was closed when the process
/// started. The Rust runtime reopens a closed standard descriptor on
/// /dev/null before `main`, where writes vanish without an error: only a
/// check made before it ([`CLOSED_AT_START`]) can tell.
fn check_open_at_start(fd: i32, what: &str) -> anyhow::Result<()> {
    let closed = (0..3).contains(&fd)
        && CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed) & (1 << fd) != 0;
    if closed {
        let name = ["stdin", "stdout", "stderr"][fd as usize];
        anyhow::bail!(
            "{what}: {name} is closed: nowhere to write (give -o FILE, or redirect {name})"
        );
    }
    Ok(())
}

/// Bit `fd` is set when descriptor `fd` (0, 1, 2) was closed at exec,
/// recorded by [`record_closed_descriptors`] before the runtime starts.
static CLOSED_AT_START: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Records which standard descriptors are closed, before the Rust runtime
/// reopens them on /dev/null (run from the executable's initialisers).
#[cfg(unix)]
extern "C" fn record_closed_descriptors() {
    for fd in 0..3 {
        // SAFETY: F_GETFD on any integer is safe; -1 means not open.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            CLOSED_AT_START.fetch_or(1 << fd, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Runs [`record_closed_descriptors`] before `main` (ELF).
#[cfg(all(unix, not(target_vendor = "apple")))]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_DESCRIPTORS: extern "C" fn() = record_closed_descriptors;

/// Runs [`record_closed_descriptors`] before `main` (Mach-O).
#[cfg(target_vendor = "apple")]
#[used]
#[link_section = "__DATA,__mod_init_func"]
static RECORD_CLOSED_DESCRIPTORS: extern "C" fn() = record_closed_descriptors;

/// A directory of output files (`split --output-dir`, `man --dir`) that
/// this run created: removed again when the run fails before keeping
/// anything (a usage error leaves nothing). It holds the directory and the
/// topmost directory the run created (`--output-dir a/b/c` where only `a`
/// existed: `a/b`); empty when the directory was there already.
#[derive(Default)]
pub struct MadeDir(Option<(PathBuf, PathBuf)>);

impl MadeDir {
    /// Creates `dir` and its missing parents unless it exists (`flag` names
    /// it in the error), noting what it created.
    pub fn create(dir: &Path, flag: &str) -> anyhow::Result<MadeDir> {
        if dir.exists() {
            return Ok(MadeDir::default());
        }
        let mut top = dir;
        while let Some(parent) = top
            .parent()
            .filter(|p| !p.as_os_str().is_empty() && !p.exists())
        {
            top = parent;
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{flag} {}: cannot create", dir.display()))?;
        Ok(MadeDir(Some((dir.to_path_buf(), top.to_path_buf()))))
    }

    /// Removes the directories this run created, innermost first, each
    /// only if empty (`remove_dir`): the run's temporary files are gone by
    /// now, dropped with their sinks, and anything else stays.
    pub fn remove(&mut self) {
        let Some((dir, top)) = self.0.take() else {
            return;
        };
        for level in dir.ancestors() {
            if std::fs::remove_dir(level).is_err() || level == top {
                break;
            }
        }
    }
}

/// A temporary file beside `path`, registered for removal on a signal.
pub fn open_file(path: &Path, flag: &str) -> anyhow::Result<Sink> {
    if let Some(fd) = Sink::named_descriptor(path) {
        check_open_at_start(fd, flag)?;
    }
    Sink::file_with(path, interrupt::register)
        .with_context(|| format!("{flag} {}: cannot write", path.display()))
}

/// Keeps what a run wrote: renames the flushed `-o` output and
/// `--summary-json` file into place. Both are renamed under one
/// [`interrupt::commit`], so a signal never removes a kept file nor
/// leaves one renamed without the other; when a signal came first, nothing
/// is kept and the report is marked interrupted. The summary of an
/// interrupted run (whose rows are not kept) is still kept: it says so.
/// `done` is how the run ends when it completes: once its output is kept,
/// a signal that ends the process (while the summary waits on a blocked
/// stderr) exits with it, as the kept output says the run completed.
pub fn keep(
    rows: Option<Flushed>,
    summary: Option<Flushed>,
    interrupted: &mut bool,
    done: Exit,
) -> anyhow::Result<()> {
    keep_all(rows, Vec::new(), summary, interrupted, done)
}

/// [`keep`], with more files of rows (`split --output-dir`) kept or
/// dropped together with the rows.
pub fn keep_all(
    rows: Option<Flushed>,
    parts: Vec<Flushed>,
    summary: Option<Flushed>,
    interrupted: &mut bool,
    done: Exit,
) -> anyhow::Result<()> {
    let temporary: Vec<_> = [&rows, &summary]
        .into_iter()
        .flatten()
        .chain(&parts)
        .filter_map(|f| f.temporary_path().map(Path::to_path_buf))
        .collect();
    let persist = || -> anyhow::Result<()> {
        for part in parts {
            part.persist().map_err(batch::plumbing::Fatal::Write)?;
        }
        if let Some(rows) = rows {
            rows.persist().map_err(batch::plumbing::Fatal::Write)?;
        }
        if let Some(file) = summary {
            file.persist().context("--summary-json: cannot rename")?;
        }
        Ok(())
    };
    let kept = if *interrupted {
        Some(interrupt::exclusive(persist))
    } else {
        interrupt::commit(done, persist)
    };
    for tmp in &temporary {
        interrupt::unregister(tmp);
    }
    match kept {
        Some(result) => result,
        None => {
            *interrupted = true;
            Ok(())
        }
    }
}

/// Writes the end-of-run summary as pretty JSON into `sink` (from
/// [`open_summary`]) and flushes it; the caller renames it with
/// [`Flushed::persist`].
pub fn write_summary_json(
    mut sink: Sink,
    path: &Path,
    summary: &impl serde::Serialize,
) -> anyhow::Result<Flushed> {
    let mut text = serde_json::to_vec_pretty(summary)?;
    text.push(b'\n');
    sink.write_all(&text)
        .and_then(|()| sink.flush_all())
        .with_context(|| format!("{}: cannot write", path.display()))
}
