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

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

#[cfg(feature = "parquet")]
use crate::output::parquet::ParquetRows;
use crate::output::OutputFormat;

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

/// What a sink's bytes go through on their way to its [`Target`].
// One per output: the size of `Bytes` inline costs nothing.
#[allow(clippy::large_enum_variant)]
enum Layers {
    /// Written as they come (compressed or not).
    Bytes(Compressed),
    /// Assembled into a Parquet file.
    #[cfg(feature = "parquet")]
    Parquet(Box<ParquetRows<Compressed>>),
    /// Taken apart by a failure (only Parquet's setup takes it apart).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    Failed,
}

fn failed() -> io::Error {
    io::Error::other("the output failed before")
}

/// A target, maybe behind a compressor.
enum Compressed {
    Plain(Target),
    Gzip(flate2::write::GzEncoder<Target>),
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::write::Encoder<'static, Target>),
}

impl Compressed {
    fn target(&self) -> &Target {
        match self {
            Compressed::Plain(t) => t,
            Compressed::Gzip(w) => w.get_ref(),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.get_ref(),
        }
    }

    /// Ends the compressed stream.
    fn finish(self) -> io::Result<Target> {
        match self {
            Compressed::Plain(t) => Ok(t),
            Compressed::Gzip(w) => w.finish(),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.finish(),
        }
    }
}

impl Write for Compressed {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressed::Plain(t) => t.write(buf),
            Compressed::Gzip(w) => w.write(buf),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.write(buf),
        }
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Compressed::Plain(t) => t.write_all(buf),
            Compressed::Gzip(w) => w.write_all(buf),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(t) => t.flush(),
            Compressed::Gzip(w) => w.flush(),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.flush(),
        }
    }
}

/// How `-o`'s bytes are compressed.
///
/// # Example
/// ```
/// use std::path::Path;
/// use batchdoku_batch::plumbing::Compression;
/// assert_eq!(Compression::from_path(Path::new("out.csv.gz")), Compression::Gzip);
/// assert_eq!(Compression::from_path(Path::new("out.jsonl.ZST")), Compression::Zstd);
/// assert_eq!(Compression::from_path(Path::new("out.parquet")), Compression::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Written as is.
    None,
    /// gzip (`.gz`).
    Gzip,
    /// Zstandard (`.zst`; needs the `zstd` feature).
    Zstd,
}

impl Compression {
    /// The compression a file name asks for by its last extension: `.gz`
    /// or `.zst` (in any case), else none.
    pub fn from_path(path: &Path) -> Compression {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if extension.eq_ignore_ascii_case("gz") {
            Compression::Gzip
        } else if extension.eq_ignore_ascii_case("zst") {
            Compression::Zstd
        } else {
            Compression::None
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

/// A sink whose bytes are all written: [`Flushed::persist`] gives a
/// temporary file its final name.
///
/// # Example
/// ```
/// use batchdoku_batch::plumbing::Sink;
/// // Two outputs of one run, kept together or not at all.
/// let dir = tempfile::tempdir()?;
/// let (rows, summary) = (dir.path().join("rows.csv"), dir.path().join("summary.json"));
/// let mut rows_sink = Sink::file(&rows)?;
/// let mut summary_sink = Sink::file(&summary)?;
/// rows_sink.write_all(b"index\n1\n")?;
/// summary_sink.write_all(b"{\"records\":1}\n")?;
///
/// let (a, b) = (rows_sink.flush_all()?, summary_sink.flush_all()?); // both written...
/// assert!(a.temporary_path().is_some() && !rows.exists());
/// a.persist()?; // ...then both renamed
/// b.persist()?;
/// assert!(rows.exists() && summary.exists());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Flushed {
    /// Written in place (stdout, a device): nothing left to do.
    Written,
    /// A synced temporary file, not yet renamed to `path`.
    File {
        /// The temporary file (deleted when dropped unless persisted).
        tmp: NamedTempFile,
        /// The final path.
        path: PathBuf,
    },
}

impl Flushed {
    /// The temporary file waiting to be renamed, if any.
    pub fn temporary_path(&self) -> Option<&Path> {
        match self {
            Flushed::Written => None,
            Flushed::File { tmp, .. } => Some(tmp.path()),
        }
    }

    /// Renames a temporary file to its final name.
    pub fn persist(self) -> io::Result<()> {
        match self {
            Flushed::Written => Ok(()),
            Flushed::File { tmp, path } => tmp.persist(&path).map(drop).map_err(|e| e.error),
        }
    }
}

/// The null device's identity, which two outputs may share.
#[cfg(unix)]
fn null_identity() -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata("/dev/null").ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn null_identity() -> Option<(u64, u64)> {
    None
}

/// Fails for a path that can only name a directory: empty, ending in `/`,
/// or whose last component is `.` or `..`.
fn check_form(path: &Path) -> io::Result<()> {
    let text = path.as_os_str().to_string_lossy();
    let last = text.rsplit('/').next().unwrap_or("");
    if matches!(last, "" | "." | "..") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "names a directory, not a file",
        ));
    }
    Ok(())
}

/// The process's own descriptor that `path` names, if any: `/dev/stdin`,
/// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`,
/// `/proc/thread-self/fd/N` or `/proc/<own pid>/fd/N`, however spelled
/// (`/dev//stdout`, `../dev/stdout`), or a symbolic link to one of them.
/// Such a path must be written through the descriptor: opening it anew
/// would lose an append mode, and renaming over what it resolves to would
/// replace the file stdout was redirected to.
///
fn descriptor(path: &Path) -> Option<i32> {
    /// Links followed before giving up (the kernel's own limit is 40).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        if let Some(fd) = descriptor_name(&path) {
            return Some(fd);
        }
        // The same name reached through `..`, `.` or a linked directory.
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(dir) = fs::canonicalize(dir) {
                if let Some(fd) = descriptor_name(&dir.join(name)) {
                    return Some(fd);
                }
            }
        }
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path).ok()?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return None,
        }
    }
    None
}

/// The descriptor a name spells directly (see [`descriptor`]).
fn descriptor_name(path: &Path) -> Option<i32> {
    // `components` drops `.` and repeated slashes.
    let text: PathBuf = path.components().collect();
    let text = text.to_str()?;
    match text {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    let number = ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", &own]
        .iter()
        .find_map(|prefix| text.strip_prefix(prefix))?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

/// The path to write for `path`: the path itself, or for a symbolic link
/// the file it points to, followed through any chain of links (a relative
/// target is relative to its link's directory), so that a dangling link
/// creates its target rather than being replaced.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    /// Links followed before giving up (the kernel's own limit is 40).
    const MAX_LINKS: usize = 40;
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut sink = Sink::file(&path).unwrap();
        sink.write_all(b"a,b\n").unwrap();
        assert!(!path.exists());
        sink.finish().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"a,b\n");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temp file left behind"
        );
    }

    #[test]
    fn dropped_sink_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut sink = Sink::file(&path).unwrap();
        sink.write_all(b"partial").unwrap();
        drop(sink);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// `-o /dev/null` must write to the device, never rename a file over
    /// it (which, run as root, replaces /dev/null with a regular file).
    /// Only the choice is checked here, without finishing, so a regression
    /// cannot damage the machine running the tests.
    #[cfg(unix)]
    #[test]
    fn devices_are_written_in_place() {
        let sink = Sink::file(Path::new("/dev/null")).unwrap();
        assert!(
            matches!(sink.target(), Some(Target::Special(_))),
            "{sink:?}"
        );
    }

    /// A FIFO stays a FIFO and its reader gets the rows.
    #[cfg(unix)]
    #[test]
    fn fifos_are_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("rows");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        let mut sink = Sink::file(&fifo).unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.finish().unwrap();
        assert_eq!(reader.join().unwrap(), b"a,b\n");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    /// A symbolic link keeps pointing at the file, which gets the rows.
    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.csv");
        let link = dir.path().join("link.csv");
        fs::write(&target, b"old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut sink = Sink::file(&link).unwrap();
        sink.write_all(b"new").unwrap();
        sink.finish().unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
    }

    /// A dangling link creates its target, relative to the link's
    /// directory, and stays a link.
    #[cfg(unix)]
    #[test]
    fn dangling_symlinks_create_their_target() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink("sub/real.csv", &link).unwrap();
        let mut sink = Sink::file(&link).unwrap();
        sink.write_all(b"rows").unwrap();
        sink.finish().unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(dir.path().join("sub/real.csv")).unwrap(), b"rows");
    }

    /// Flushed but not persisted: nothing under the final name, nothing
    /// left when dropped.
    #[test]
    fn flushed_is_kept_only_when_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut sink = Sink::file(&path).unwrap();
        sink.write_all(b"a").unwrap();
        let flushed = sink.flush_all().unwrap();
        assert!(!path.exists());
        drop(flushed);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// `.zst` output works with the `zstd` feature and is a clear error
    /// without it; gzip always works.
    #[test]
    fn zstd_output_needs_its_feature() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv.zst");
        let sink = Sink::file(&path).unwrap().compress(Compression::Zstd);
        #[cfg(feature = "zstd")]
        {
            let mut sink = sink.unwrap();
            sink.write_all(b"a,b\n").unwrap();
            sink.finish().unwrap();
            assert_eq!(
                zstd::decode_all(fs::File::open(&path).unwrap()).unwrap(),
                b"a,b\n"
            );
        }
        #[cfg(not(feature = "zstd"))]
        assert!(sink.unwrap_err().to_string().contains("`zstd` feature"));
        let gz = dir.path().join("out.csv.gz");
        let mut sink = Sink::file(&gz)
            .unwrap()
            .compress(Compression::Gzip)
            .unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.finish().unwrap();
        let mut text = Vec::new();
        io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(fs::File::open(&gz).unwrap()),
            &mut text,
        )
        .unwrap();
        assert_eq!(text, b"a,b\n");
    }

    /// Parquet needs the `parquet` feature; with it, a sink told twice
    /// (two passes) stays one Parquet file.
    #[test]
    fn parquet_needs_its_feature() {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = Sink::file(&dir.path().join("out.parquet")).unwrap();
        let first = sink.set_format(OutputFormat::Parquet);
        #[cfg(feature = "parquet")]
        {
            first.unwrap();
            sink.set_format(OutputFormat::Parquet).unwrap();
            // No schema was written: finishing says so, and keeps nothing.
            let err = sink.flush_all().unwrap_err();
            assert!(err.to_string().contains("no schema"), "{err}");
            assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        }
        #[cfg(not(feature = "parquet"))]
        assert!(first.unwrap_err().to_string().contains("`parquet` feature"));
        // The text formats need nothing.
        let mut csv = Sink::file(&dir.path().join("out.csv")).unwrap();
        csv.set_format(OutputFormat::Csv).unwrap();
    }

    #[test]
    fn missing_directory_fails_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.csv");
        assert!(Sink::file(&path).is_err());
    }
}
