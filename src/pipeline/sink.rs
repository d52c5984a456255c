//! Where rows go: stdout, or a file written atomically (a temporary file
//! beside the target, renamed over it only when the run completes, so an
//! interrupted or failed run never leaves a truncated file under the final
//! name). A destination that exists and is not a regular file (`/dev/null`,
//! a FIFO, a terminal) is written directly: renaming a file over it would
//! replace the device or pipe itself. A symbolic link is followed, so the
//! file it points to is replaced, not the link.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// Buffer size for output.
const WRITE_BUFFER: usize = 256 * 1024;

/// An output destination.
pub enum Sink {
    /// Standard output.
    Stdout(BufWriter<io::Stdout>),
    /// A temporary file to be renamed to `path` by [`Sink::finish`].
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
    /// Standard output.
    pub fn stdout() -> Sink {
        Sink::Stdout(BufWriter::with_capacity(WRITE_BUFFER, io::stdout()))
    }

    /// A temporary file beside `path`, created now so that an unwritable
    /// destination fails before any work is done.
    pub fn file(path: &Path) -> io::Result<Sink> {
        let resolved;
        let path = match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(path) {
                Ok(target) => {
                    resolved = target;
                    resolved.as_path()
                }
                Err(_) => path, // a dangling link: replaced by the new file
            },
            _ => path,
        };
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
        match self {
            Sink::Stdout(mut w) => w.flush(),
            Sink::File { tmp, path } => {
                let tmp = tmp.into_inner().map_err(|e| e.into_error())?;
                tmp.as_file().sync_all()?;
                tmp.persist(&path).map_err(|e| e.error)?;
                Ok(())
            }
            Sink::Special(mut w) => w.flush(),
        }
    }
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

    #[test]
    fn missing_directory_fails_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.csv");
        assert!(Sink::file(&path).is_err());
    }
}
