//! Inputs read more than once ([`Reopenable`]): a regular file read in
//! place and checked to be unchanged between the passes, or a stream
//! spooled to a temporary file first.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tempfile::NamedTempFile;

use batchdoku_core::ReadOptions;

use super::fingerprint::{Fingerprint, Prints};
use super::{open_as, reader_of, Again, Input};

/// An input to be read more than once: a regular file read in place, which
/// must keep its content between the passes (its size and inode as first
/// seen, and the bytes the first pass read: a change is an error; a new
/// modification time alone is not), or a spooled copy of anything else
/// (stdin, a pipe), which can be read only once.
///
/// # Example
/// ```
/// use std::io::{self, Read};
/// use std::sync::atomic::AtomicU64;
/// use std::sync::Arc;
/// use batchdoku_batch::plumbing::Reopenable;
/// use batchdoku_core::{ReadOptions, Record};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("puzzles.txt");
/// std::fs::write(
///     &path,
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
/// )?;
/// // What to do with a stream: copy it to a temporary file.
/// let spool = |stream: &mut dyn Read| -> io::Result<tempfile::NamedTempFile> {
///     let mut copy = tempfile::NamedTempFile::new()?;
///     io::copy(stream, &mut copy)?;
///     Ok(copy)
/// };
/// let twice = Reopenable::new(path.to_str().unwrap(), spool)?; // a file: read in place
/// let counter = Arc::new(AtomicU64::new(0));
/// let mut record = Record::default();
/// for _pass in 0..2 {
///     let mut input = twice.open(&ReadOptions::default(), counter.clone())?;
///     assert!(input.read_record(&mut record)?);
///     assert_eq!(record.puzzle.unwrap().given_count(), 32);
/// }
///
/// // A change to the file's content between the passes is an error.
/// std::fs::write(&path, "changed\n")?;
/// assert!(twice.open(&ReadOptions::default(), counter).is_err());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Reopenable {
    /// The name used in rows and messages (`<stdin>` for `-`).
    name: String,
    kind: Reopen,
}

#[derive(Debug)]
enum Reopen {
    /// A regular file, read in place each time.
    File {
        path: PathBuf,
        identity: Identity,
        /// What the first pass read.
        prints: Arc<Mutex<Prints>>,
        /// Passes opened so far.
        passes: AtomicU64,
    },
    /// A copy of a stream, removed when dropped.
    Spooled(NamedTempFile),
}

/// What a file read twice must keep: its size, and (on Unix) its device
/// and inode. Not its modification time: a `touch` changes no content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Identity {
    len: u64,
    node: (u64, u64),
}

impl Identity {
    pub(super) fn of(meta: &std::fs::Metadata) -> Identity {
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let node = (0, 0);
        Identity {
            len: meta.len(),
            node,
        }
    }
}

impl Reopenable {
    /// Prepares `path` (`-` for stdin) to be opened several times. A
    /// regular file is read in place each time; anything else (stdin, a
    /// pipe or FIFO given by path) is handed to `spool`, which copies it to
    /// a temporary file (the caller decides where, and how a copy is
    /// interrupted).
    pub fn new(
        path: &str,
        spool: impl FnOnce(&mut dyn Read) -> io::Result<NamedTempFile>,
    ) -> io::Result<Reopenable> {
        let spooled = |tmp| Reopen::Spooled(tmp);
        if path == "-" {
            return Ok(Reopenable {
                name: "<stdin>".to_owned(),
                kind: spooled(spool(&mut io::stdin().lock())?),
            });
        }
        let meta = std::fs::metadata(path)?;
        if meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        let kind = if meta.is_file() {
            Reopen::File {
                path: PathBuf::from(path),
                identity: Identity::of(&meta),
                prints: Arc::default(),
                passes: AtomicU64::new(0),
            }
        } else {
            spooled(spool(&mut File::open(path)?)?)
        };
        Ok(Reopenable {
            name: path.to_owned(),
            kind,
        })
    }

    /// The name used in rows and messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Opens the input for its next pass, to read with `options`. Fails
    /// when a regular file's size or inode has changed since
    /// [`Reopenable::new`]; the first pass records what it reads, and a
    /// later pass fails (as a read error) where its bytes differ.
    pub fn open(&self, options: &ReadOptions, counter: Arc<AtomicU64>) -> io::Result<Input> {
        match &self.kind {
            Reopen::Spooled(tmp) => open_as(tmp.path(), &self.name, options, counter),
            Reopen::File {
                path,
                identity,
                prints,
                passes,
            } => {
                let file = File::open(path)?;
                let meta = file.metadata()?;
                if Identity::of(&meta) != *identity {
                    return Err(changed());
                }
                let record = passes.fetch_add(1, Ordering::Relaxed) == 0;
                let again = Again {
                    path: path.clone(),
                    options: options.clone(),
                    identity: Some(*identity),
                    prints: Some((prints.clone(), record)),
                    counter: counter.clone(),
                    counted: Arc::default(),
                };
                let counted = again.counted.clone();
                let tally = Arc::default();
                let reader = reader_of(
                    Box::new(file),
                    options,
                    &counter,
                    Some(counted),
                    Some(Fingerprint::new(prints, record)),
                    &tally,
                )?;
                Ok(Input {
                    name: Arc::from(self.name.as_str()),
                    size: Some(meta.len()),
                    kept_names: reader.kept_names().map(<[String]>::to_vec),
                    has_expected: reader.has_expected(),
                    layout: reader.layout().clone(),
                    reader: Some(reader),
                    again: Some(again),
                    started: false,
                    tally,
                })
            }
        }
    }

    /// Fails when a regular file's size or inode has changed since
    /// [`Reopenable::new`] (call it after the last pass, to catch a change
    /// after its bytes were read).
    pub fn check_unchanged(&self) -> io::Result<()> {
        match &self.kind {
            Reopen::Spooled(_) => Ok(()),
            Reopen::File { path, identity, .. } => {
                if Identity::of(&std::fs::metadata(path)?) == *identity {
                    Ok(())
                } else {
                    Err(changed())
                }
            }
        }
    }
}

/// The error for an input read twice whose content changed between the
/// readings.
pub(super) fn changed() -> io::Error {
    io::Error::other("changed while being read (its size, inode or content differs between passes)")
}
