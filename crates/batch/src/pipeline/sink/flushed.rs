//! A sink whose bytes are all written ([`Flushed`]): persisting it renames
//! a temporary file into place, so that a command writing two files
//! renames either only when both were written.

use std::io;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

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
