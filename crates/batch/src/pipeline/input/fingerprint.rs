//! Fingerprints of a file read twice: a hash of each MiB the first pass
//! read, compared block by block as a later pass reads the same file.

use std::hash::Hasher as _;
use std::io;
use std::sync::{Arc, Mutex};

use super::reopen::changed;

/// Bytes per hashed block of a file read twice.
pub(super) const PRINT_BLOCK: u64 = 1 << 20;

/// What the first pass over a file read twice saw: a hash of each
/// [`PRINT_BLOCK`] of it, and its length once read to the end.
#[derive(Debug, Default)]
pub(super) struct Prints {
    blocks: Vec<u64>,
    len: Option<u64>,
}

/// Hashes the raw bytes of one reading of a file, block by block: the
/// first pass records them into the shared [`Prints`], a later pass
/// compares each block as it completes (and the length at the end), and a
/// difference is a read error.
#[derive(Debug)]
pub(super) struct Fingerprint {
    prints: Arc<Mutex<Prints>>,
    record: bool,
    hasher: std::hash::DefaultHasher,
    /// Bytes read so far.
    at: u64,
}

impl Fingerprint {
    /// A reading from the start; recording clears what an earlier
    /// reading of the same pass recorded.
    pub(super) fn new(prints: &Arc<Mutex<Prints>>, record: bool) -> Fingerprint {
        if record {
            *prints.lock().unwrap_or_else(|e| e.into_inner()) = Prints::default();
        }
        Fingerprint {
            prints: prints.clone(),
            record,
            hasher: std::hash::DefaultHasher::new(),
            at: 0,
        }
    }

    /// Takes the next bytes read (none at the end of the input).
    pub(super) fn feed(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return self.block_done(true);
        }
        while !bytes.is_empty() {
            let room = (PRINT_BLOCK - self.at % PRINT_BLOCK) as usize;
            let (now, rest) = bytes.split_at(room.min(bytes.len()));
            self.hasher.write(now);
            self.at += now.len() as u64;
            bytes = rest;
            if self.at.is_multiple_of(PRINT_BLOCK) {
                self.block_done(false)?;
            }
        }
        Ok(())
    }

    /// Records or compares the block just completed (or the last, partial
    /// one, and the length, at the end).
    fn block_done(&mut self, end: bool) -> io::Result<()> {
        let hash = std::mem::take(&mut self.hasher).finish();
        let index = ((self.at.max(1) - 1) / PRINT_BLOCK) as usize;
        let partial = end && !self.at.is_multiple_of(PRINT_BLOCK);
        let mut prints = self.prints.lock().unwrap_or_else(|e| e.into_inner());
        if self.record {
            if !end || partial {
                prints.blocks.push(hash);
            }
            if end {
                prints.len = Some(self.at);
            }
            return Ok(());
        }
        let same = if !end || partial {
            prints.blocks.get(index) == Some(&hash)
        } else {
            true
        };
        let same_len = !end || prints.len.is_none_or(|len| len == self.at);
        let longer = prints.len.is_some_and(|len| self.at > len);
        if same && same_len && !longer {
            Ok(())
        } else {
            Err(changed())
        }
    }
}
