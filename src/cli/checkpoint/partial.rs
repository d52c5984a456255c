//! The partial file (`FILE.partial`): the rows of a checkpointed run so
//! far, as plain bytes (never compressed, whatever `-o`'s name says). It is
//! locked while a run writes it, so two runs never append to one file; a
//! resumed run cuts it back to the length its state file records, but only
//! when it writes its first byte, so a run refused before that (other
//! input) leaves it exactly as it was.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The partial file, locked, and the count of the bytes it holds.
#[derive(Debug)]
pub struct Partial {
    /// The file (holds the lock; synced at each checkpoint).
    file: File,
    /// Its length once the rows written are flushed.
    len: Arc<AtomicU64>,
}

impl Partial {
    /// Opens (creating it when `create`) and locks the partial file at
    /// `path`. Fails when another process holds it.
    pub fn open(path: &Path, create: bool) -> io::Result<Partial> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(create)
            .truncate(false)
            .open(path)?;
        lock(&file)?;
        let len = file.metadata()?.len();
        Ok(Partial {
            file,
            len: Arc::new(AtomicU64::new(len)),
        })
    }

    /// The file's length (rows flushed so far).
    pub fn len(&self) -> u64 {
        self.len.load(Ordering::SeqCst)
    }

    /// A writer appending at `at` (the length the state file records, 0
    /// for a new run): the first write cuts the file there.
    pub fn writer_at(&self, at: u64) -> io::Result<Appender> {
        self.len.store(at, Ordering::SeqCst);
        Ok(Appender {
            file: self.file.try_clone()?,
            cut_at: Some(at),
            len: self.len.clone(),
        })
    }

    /// Forces the bytes written so far to the disk.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }
}

/// Writes rows at the end of the partial file (see [`Partial::writer_at`]).
#[derive(Debug)]
pub struct Appender {
    file: File,
    /// Where to cut the file before the first write.
    cut_at: Option<u64>,
    len: Arc<AtomicU64>,
}

impl Write for Appender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(at) = self.cut_at {
            self.file.set_len(at)?;
            self.file.seek(SeekFrom::Start(at))?;
            self.cut_at = None;
        }
        let n = self.file.write(buf)?;
        self.len.fetch_add(n as u64, Ordering::SeqCst);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Takes an exclusive lock on `file`, without waiting.
#[cfg(unix)]
fn lock(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this `File` owns; it only reads its
    // integer arguments.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(());
    }
    let err = io::Error::last_os_error();
    if err.kind() == io::ErrorKind::WouldBlock {
        return Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "another run is writing it",
        ));
    }
    Err(err)
}

#[cfg(not(unix))]
fn lock(_file: &File) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_write_cuts_what_lies_past_the_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv.partial");
        std::fs::write(&path, b"a\nb\nhalf a ro").unwrap();
        let partial = Partial::open(&path, false).unwrap();
        assert_eq!(partial.len(), 13);
        let mut w = partial.writer_at(4).unwrap();
        w.flush().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\nb\nhalf a ro", "not yet");
        w.write_all(b"c\n").unwrap();
        w.write_all(b"d\n").unwrap();
        partial.sync().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"a\nb\nc\nd\n");
        assert_eq!(partial.len(), 8);
    }

    #[test]
    fn one_run_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv.partial");
        assert!(Partial::open(&path, false).is_err(), "not created");
        let first = Partial::open(&path, true).unwrap();
        let err = Partial::open(&path, false).unwrap_err();
        assert_eq!(err.to_string(), "another run is writing it");
        drop(first);
        Partial::open(&path, false).unwrap();
    }
}
