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

/// Buffer size for output.
const WRITE_BUFFER: usize = 256 * 1024;

/// An output destination.
///
/// # Example
/// ```
/// use batchdoku::batch::Sink;
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
#[non_exhaustive]
pub enum Sink {
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
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sink::Stdout(_) => f.write_str("Sink::Stdout"),
            Sink::File { path, .. } => write!(f, "Sink::File({})", path.display()),
            Sink::Special(_) => f.write_str("Sink::Special"),
        }
    }
}

impl Sink {
    /// The temporary file written until the output is kept, if any.
    pub fn temporary_path(&self) -> Option<&Path> {
        match self {
            Sink::File { tmp, .. } => Some(tmp.get_ref().path()),
            Sink::Stdout(_) | Sink::Special(_) => None,
        }
    }

    /// Standard output.
    pub fn stdout() -> Sink {
        Sink::Stdout(BufWriter::with_capacity(WRITE_BUFFER, io::stdout()))
    }

    /// A temporary file beside `path`, created now so that an unwritable
    /// destination fails before any work is done.
    pub fn file(path: &Path) -> io::Result<Sink> {
        Sink::file_with(path, |_| {})
    }

    /// [`Sink::file`], calling `created` with the temporary file's path as
    /// soon as it exists, before anything else is allocated: a caller that
    /// must remove it however the process ends (an abort on a failed
    /// allocation) learns its name before the next allocation can fail.
    ///
    /// ```
    /// use batchdoku::batch::Sink;
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
        let resolved = link_target(path)?;
        let path = resolved.as_path();
        if let Ok(meta) = fs::metadata(path) {
            if !meta.is_file() && !meta.is_dir() {
                let file = fs::OpenOptions::new().write(true).open(path)?;
                return Ok(Sink::Special(BufWriter::with_capacity(WRITE_BUFFER, file)));
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
        Ok(Sink::File {
            tmp: BufWriter::with_capacity(WRITE_BUFFER, tmp),
            path: path.to_path_buf(),
        })
    }

    /// Writes bytes.
    #[inline]
    pub fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Sink::Stdout(w) => w.write_all(bytes),
            Sink::File { tmp, .. } => tmp.write_all(bytes),
            Sink::Special(w) => w.write_all(bytes),
        }
    }

    /// Flushes and, for a file, syncs and renames the temporary file to its
    /// final name.
    pub fn finish(self) -> io::Result<()> {
        self.flush_all()?.persist()
    }

    /// Flushes every byte (and syncs a temporary file) without renaming:
    /// the first step of [`Sink::finish`]. Dropping the result still
    /// removes the temporary file.
    pub fn flush_all(self) -> io::Result<Flushed> {
        match self {
            Sink::Stdout(mut w) => w.flush().map(|()| Flushed::Written),
            Sink::File { tmp, path } => {
                let tmp = tmp.into_inner().map_err(|e| e.into_error())?;
                tmp.as_file().sync_all()?;
                Ok(Flushed::File { tmp, path })
            }
            Sink::Special(mut w) => w.flush().map(|()| Flushed::Written),
        }
    }
}

/// A sink whose bytes are all written: [`Flushed::persist`] gives a
/// temporary file its final name.
///
/// # Example
/// ```
/// use batchdoku::batch::Sink;
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
        assert!(matches!(sink, Sink::Special(_)), "{sink:?}");
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

    #[test]
    fn missing_directory_fails_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.csv");
        assert!(Sink::file(&path).is_err());
    }
}
