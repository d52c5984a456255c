//! Where rows go: stdout, or a file written atomically (a temporary file
//! beside the target, renamed over it only when the run completes, so an
//! interrupted or failed run never leaves a truncated file under the final
//! name). A destination that exists and is not a regular file (`/dev/null`,
//! a FIFO, a terminal) is written directly: renaming a file over it would
//! replace the device or pipe itself. A symbolic link is followed, so the
//! file it points to is replaced, not the link; a dangling link creates
//! its target. Finishing has two steps, [`Sink::flush_all`] then
//! [`Flushed::persist`], so that a command writing two files (`-o` and
//! `--summary-json`) renames either only when both were written.
//!
//! Here: the [`Sink`] and its [`Target`]; the compression layers in
//! `layers`, [`Flushed`] in `flushed`, and what a path names (a
//! descriptor, a link's target, the null device) in `paths`.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

#[cfg(feature = "parquet")]
use crate::output::parquet::ParquetRows;
use crate::output::OutputFormat;

mod flushed;
mod layers;
mod paths;
#[cfg(test)]
mod tests;

pub use flushed::Flushed;
pub use layers::Compression;
use layers::{failed, Compressed, Layers};
use paths::{check_form, descriptor, link_target, null_identity};

/// Buffer size for output.
const WRITE_BUFFER: usize = 256 * 1024;

/// An output destination.
///
/// # Example
/// ```
/// use batchdoku_batch::plumbing::Sink;
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("out.csv");
///
/// let mut sink = Sink::file(&path)?; // fails here, before any work, if unwritable
/// sink.write_all(b"index,status\n1,unique\n")?;
/// assert!(!path.exists()); // rows go to a temporary file beside it...
/// assert!(sink.temporary_path().unwrap().starts_with(dir.path()));
/// sink.finish()?; // ...renamed into place when the run completes
/// assert_eq!(std::fs::read_to_string(&path)?, "index,status\n1,unique\n");
///
/// // A sink dropped without `finish` leaves the previous file as it was.
/// let mut sink = Sink::file(&path)?;
/// sink.write_all(b"partial")?;
/// drop(sink);
/// assert_eq!(std::fs::read_to_string(&path)?, "index,status\n1,unique\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Sink {
    layers: Layers,
}

/// Where a sink's bytes end up.
enum Target {
    /// Standard output.
    Stdout(BufWriter<io::Stdout>),
    /// A temporary file to be renamed to `path` by [`Sink::finish`] (or
    /// [`Flushed::persist`]).
    File {
        /// The temporary file (deleted when dropped unless persisted).
        tmp: BufWriter<NamedTempFile>,
        /// The final path.
        path: PathBuf,
    },
    /// An existing non-regular file (a device, a FIFO), written in place.
    Special(BufWriter<fs::File>),
    /// A writer of the caller's.
    Writer(BufWriter<Box<dyn Write + Send>>),
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.target() {
            Some(Target::Stdout(_)) => f.write_str("Sink::Stdout"),
            Some(Target::File { path, .. }) => write!(f, "Sink::File({})", path.display()),
            Some(Target::Special(_)) => f.write_str("Sink::Special"),
            Some(Target::Writer(_)) => f.write_str("Sink::Writer"),
            None => f.write_str("Sink::Failed"),
        }
    }
}

impl Sink {
    /// The temporary file written until the output is kept, if any.
    pub fn temporary_path(&self) -> Option<&Path> {
        match self.target()? {
            Target::File { tmp, .. } => Some(tmp.get_ref().path()),
            Target::Stdout(_) | Target::Special(_) | Target::Writer(_) => None,
        }
    }

    /// A writer of the caller's, written as the rows come.
    pub fn writer(writer: Box<dyn Write + Send>) -> Sink {
        Sink::new(Target::Writer(BufWriter::with_capacity(
            WRITE_BUFFER,
            writer,
        )))
    }

    /// Standard output.
    pub fn stdout() -> Sink {
        Sink::new(Target::Stdout(BufWriter::with_capacity(
            WRITE_BUFFER,
            io::stdout(),
        )))
    }

    /// A temporary file beside `path`, created now so that an unwritable
    /// destination fails before any work is done.
    ///
    /// A path that names one of the process's own open descriptors
    /// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, or a
    /// link to one, see [`Sink::named_descriptor`]) is written in place through that
    /// descriptor: stdout for 1, a duplicate of the descriptor otherwise,
    /// so that a file opened for append is appended to and a pipe stays a
    /// pipe. A path that can only name a directory (ending in `/`, `.` or
    /// `..`), an existing directory and a path whose directory does not
    /// exist fail here.
    pub fn file(path: &Path) -> io::Result<Sink> {
        Sink::file_with(path, |_| {})
    }

    /// [`Sink::file`], calling `created` with the temporary file's path as
    /// soon as it exists, before anything else is allocated: a caller that
    /// must remove it however the process ends (an abort on a failed
    /// allocation) learns its name before the next allocation can fail.
    ///
    /// ```
    /// use batchdoku_batch::plumbing::Sink;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let mut created = None;
    /// let sink = Sink::file_with(&dir.path().join("out.csv"), |tmp| {
    ///     created = Some(tmp.to_path_buf());
    /// })?;
    /// assert_eq!(created.as_deref(), sink.temporary_path());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn file_with(path: &Path, created: impl FnOnce(&Path)) -> io::Result<Sink> {
        if let Some(fd) = descriptor(path) {
            return Sink::descriptor(fd);
        }
        check_form(path)?;
        let resolved = link_target(path)?;
        let path = resolved.as_path();
        check_form(path)?;
        if let Ok(meta) = fs::metadata(path) {
            if !meta.is_file() && !meta.is_dir() {
                let file = fs::OpenOptions::new().write(true).open(path)?;
                return Ok(Sink::new(Target::Special(BufWriter::with_capacity(
                    WRITE_BUFFER,
                    file,
                ))));
            }
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        if !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("directory {} does not exist", dir.display()),
            ));
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // Temporary files are private (0600) by default; the output is an
        // ordinary file, so ask for 0666 and let the umask decide.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let tmp = builder.tempfile_in(dir)?;
        created(tmp.path());
        Ok(Sink::new(Target::File {
            tmp: BufWriter::with_capacity(WRITE_BUFFER, tmp),
            path: path.to_path_buf(),
        }))
    }

    /// The process's own descriptor that `path` names, if any:
    /// `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
    /// `/proc/self/fd/N`, `/proc/thread-self/fd/N` or `/proc/<own pid>/fd/N`,
    /// however spelled (`/dev//stdout`, `../dev/stdout`), or a symbolic link
    /// to one of them. [`Sink::file`] writes such a path through the
    /// descriptor.
    ///
    /// # Example
    /// ```
    /// use std::path::Path;
    /// use batchdoku_batch::plumbing::Sink;
    /// assert_eq!(Sink::named_descriptor(Path::new("/dev/stdout")), Some(1));
    /// assert_eq!(Sink::named_descriptor(Path::new("/proc/self/fd/7")), Some(7));
    /// assert_eq!(Sink::named_descriptor(Path::new("out.csv")), None);
    /// ```
    pub fn named_descriptor(path: &Path) -> Option<i32> {
        descriptor(path)
    }

    /// The process's open descriptor `fd`, written in place: stdout for 1,
    /// else a duplicate of `fd` (which shares its file offset and its
    /// append mode). Fails when `fd` is not open.
    #[cfg(unix)]
    pub fn descriptor(fd: i32) -> io::Result<Sink> {
        // SAFETY: fcntl on any integer is safe; F_DUPFD_CLOEXEC returns a
        // new descriptor that we then own, or -1 (EBADF when `fd` is not
        // open).
        let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
        if dup < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `dup` was just returned by fcntl and nothing else owns it.
        let file = unsafe { <fs::File as std::os::fd::FromRawFd>::from_raw_fd(dup) };
        if fd == 1 {
            drop(file);
            return Ok(Sink::stdout());
        }
        Ok(Sink::new(Target::Special(BufWriter::with_capacity(
            WRITE_BUFFER,
            file,
        ))))
    }

    /// The descriptor itself is not available off Unix.
    #[cfg(not(unix))]
    pub fn descriptor(_fd: i32) -> io::Result<Sink> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "writing to a descriptor by name",
        ))
    }

    /// Whether `self` and `other` write to the same place: both stdout,
    /// the same file (device and inode, when it exists) or the same final
    /// path. The null device is nowhere: writing both to it is allowed.
    pub fn same_place(&self, other: &Sink) -> bool {
        if matches!(
            (self.target(), other.target()),
            (Some(Target::Stdout(_)), Some(Target::Stdout(_)))
        ) {
            return true;
        }
        if let (Some(a), Some(b)) = (self.final_path(), other.final_path()) {
            if a == b {
                return true;
            }
        }
        match (self.identity(), other.identity()) {
            (Some(a), Some(b)) => a == b && Some(a) != null_identity(),
            _ => false,
        }
    }

    /// Whether `self` writes over the existing regular file at `path` (the
    /// same device and inode): an output that is one of a run's inputs.
    ///
    /// ```
    /// use batchdoku_batch::plumbing::Sink;
    ///
    /// let dir = tempfile::tempdir()?;
    /// let input = dir.path().join("puzzles.txt");
    /// std::fs::write(&input, "")?;
    /// assert!(Sink::file(&input)?.writes_over(&input));
    /// assert!(!Sink::file(&dir.path().join("out.csv"))?.writes_over(&input));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn writes_over(&self, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (self.identity(), fs::metadata(path)) {
                (Some(ours), Ok(meta)) if meta.is_file() => ours == (meta.dev(), meta.ino()),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            false
        }
    }

    /// The final path of a temporary file, made absolute through its
    /// (existing) directory.
    fn final_path(&self) -> Option<PathBuf> {
        let Some(Target::File { path, .. }) = self.target() else {
            return None;
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
    }

    /// The device and inode written to, when they exist.
    #[cfg(unix)]
    fn identity(&self) -> Option<(u64, u64)> {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let meta = match self.target()? {
            Target::Stdout(_) => {
                let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
                fs::File::from(fd).metadata().ok()?
            }
            Target::File { path, .. } => fs::metadata(path).ok()?,
            Target::Special(w) => w.get_ref().metadata().ok()?,
            Target::Writer(_) => return None,
        };
        Some((meta.dev(), meta.ino()))
    }

    #[cfg(not(unix))]
    fn identity(&self) -> Option<(u64, u64)> {
        None
    }

    /// Writes bytes: the rows as encoded, compressed when asked (see
    /// [`Sink::compress`]), assembled into a Parquet file when asked (see
    /// [`Sink::set_format`]).
    #[inline]
    pub fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match &mut self.layers {
            Layers::Bytes(w) => w.write_all(bytes),
            #[cfg(feature = "parquet")]
            Layers::Parquet(rows) => rows.write(bytes),
            Layers::Failed => Err(failed()),
        }
    }

    /// Hands every row written so far to the target (a file's buffer is
    /// written to the file), for a sink of plain bytes: a run that keeps
    /// its rows as it goes (a checkpoint) flushes after whole rows. A
    /// compressed or Parquet sink is refused (`Unsupported`): flushing it
    /// midway would change its bytes.
    ///
    /// ```
    /// use batchdoku_batch::plumbing::{Compression, Sink};
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("rows.csv");
    /// let file = std::fs::File::create(&path)?;
    /// let mut sink = Sink::writer(Box::new(file));
    /// sink.write_all(b"index\n1\n")?;
    /// sink.flush_rows()?;
    /// assert_eq!(std::fs::read(&path)?, b"index\n1\n");
    ///
    /// let gz = dir.path().join("rows.csv.gz");
    /// let mut sink = Sink::file(&gz)?.compress(Compression::Gzip)?;
    /// assert!(sink.flush_rows().is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn flush_rows(&mut self) -> io::Result<()> {
        match &mut self.layers {
            Layers::Bytes(Compressed::Plain(target)) => target.flush(),
            Layers::Failed => Err(failed()),
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a compressed or Parquet output cannot be flushed midway",
            )),
        }
    }

    /// Flushes and, for a file, syncs and renames the temporary file to its
    /// final name.
    pub fn finish(self) -> io::Result<()> {
        self.flush_all()?.persist()
    }

    /// Ends what the layers write (the Parquet footer, the compressed
    /// stream's end), flushes every byte (and syncs a temporary file)
    /// without renaming: the first step of [`Sink::finish`]. Dropping the
    /// result still removes the temporary file.
    pub fn flush_all(self) -> io::Result<Flushed> {
        let compressed = match self.layers {
            Layers::Bytes(w) => w,
            #[cfg(feature = "parquet")]
            Layers::Parquet(rows) => rows.finish()?,
            Layers::Failed => return Err(failed()),
        };
        compressed.finish()?.flush_all()
    }

    /// Compresses everything written from now on (`-o out.csv.gz`): the
    /// compressed stream is ended by [`Sink::flush_all`], before the
    /// temporary file is renamed. Only a sink nothing was written to may
    /// be compressed; zstd needs the `zstd` feature.
    ///
    /// ```
    /// use std::io::Read;
    /// use batchdoku_batch::plumbing::{Compression, Sink};
    /// let dir = tempfile::tempdir()?;
    /// let path = dir.path().join("out.csv.gz");
    /// let mut sink = Sink::file(&path)?.compress(Compression::from_path(&path))?;
    /// sink.write_all(b"index\n1\n")?;
    /// sink.finish()?;
    /// let mut text = String::new();
    /// flate2::read::GzDecoder::new(std::fs::File::open(&path)?).read_to_string(&mut text)?;
    /// assert_eq!(text, "index\n1\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn compress(self, compression: Compression) -> io::Result<Sink> {
        let Layers::Bytes(Compressed::Plain(target)) = self.layers else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "only a new, uncompressed sink can be compressed",
            ));
        };
        let compressed = match compression {
            Compression::None => Compressed::Plain(target),
            Compression::Gzip => Compressed::Gzip(flate2::write::GzEncoder::new(
                target,
                flate2::Compression::default(),
            )),
            #[cfg(feature = "zstd")]
            Compression::Zstd => Compressed::Zstd(zstd::stream::write::Encoder::new(target, 0)?),
            #[cfg(not(feature = "zstd"))]
            Compression::Zstd => {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "zstd output needs batchdoku built with the `zstd` feature",
                ))
            }
        };
        Ok(Sink {
            layers: Layers::Bytes(compressed),
        })
    }

    /// Prepares the sink for rows encoded in `format`: for
    /// [`OutputFormat::Parquet`], the frames the encoder writes are
    /// assembled into a Parquet file (row groups of at most 64 Ki rows, the
    /// footer written by [`Sink::flush_all`]). Nothing to do for the text
    /// formats, nor for a sink already assembling Parquet (a second pass
    /// into the same output). [`run`](crate::run) and
    /// [`generate`](crate::generate) call it; Parquet needs the
    /// `parquet` feature.
    pub fn set_format(&mut self, format: OutputFormat) -> io::Result<()> {
        if format != OutputFormat::Parquet {
            return Ok(());
        }
        #[cfg(feature = "parquet")]
        {
            if let Layers::Bytes(_) = self.layers {
                let Layers::Bytes(w) = std::mem::replace(&mut self.layers, Layers::Failed) else {
                    unreachable!("matched above");
                };
                self.layers = Layers::Parquet(Box::new(ParquetRows::new(w)));
            }
            Ok(())
        }
        #[cfg(not(feature = "parquet"))]
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "Parquet output needs batchdoku built with the `parquet` feature",
        ))
    }

    /// Whether the sink writes to a terminal (where a binary format would
    /// garble the screen).
    pub fn is_terminal(&self) -> bool {
        use std::io::IsTerminal;
        match self.target() {
            Some(Target::Stdout(_)) => io::stdout().is_terminal(),
            Some(Target::Special(w)) => w.get_ref().is_terminal(),
            Some(Target::File { .. } | Target::Writer(_)) | None => false,
        }
    }

    fn new(target: Target) -> Sink {
        Sink {
            layers: Layers::Bytes(Compressed::Plain(target)),
        }
    }

    /// Where the bytes end up (`None` once a layer failed).
    fn target(&self) -> Option<&Target> {
        match &self.layers {
            Layers::Bytes(w) => Some(w.target()),
            #[cfg(feature = "parquet")]
            Layers::Parquet(rows) => rows.get_ref().map(Compressed::target),
            Layers::Failed => None,
        }
    }
}

impl Write for Target {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Target::Stdout(w) => w.write(buf),
            Target::File { tmp, .. } => tmp.write(buf),
            Target::Special(w) => w.write(buf),
            Target::Writer(w) => w.write(buf),
        }
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Target::Stdout(w) => w.write_all(bytes),
            Target::File { tmp, .. } => tmp.write_all(bytes),
            Target::Special(w) => w.write_all(bytes),
            Target::Writer(w) => w.write_all(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Target::Stdout(w) => w.flush(),
            Target::File { tmp, .. } => tmp.flush(),
            Target::Special(w) => w.flush(),
            Target::Writer(w) => w.flush(),
        }
    }
}

impl Target {
    /// Flushes every byte and syncs a temporary file, without renaming.
    fn flush_all(self) -> io::Result<Flushed> {
        match self {
            Target::Stdout(mut w) => w.flush().map(|()| Flushed::Written),
            Target::File { tmp, path } => {
                let tmp = tmp.into_inner().map_err(|e| e.into_error())?;
                tmp.as_file().sync_all()?;
                Ok(Flushed::File { tmp, path })
            }
            Target::Special(mut w) => w.flush().map(|()| Flushed::Written),
            Target::Writer(mut w) => w.flush().map(|()| Flushed::Written),
        }
    }
}
