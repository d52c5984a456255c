//! Opening inputs: files or stdin, decompressed on the fly when gzip or
//! zstd (by magic bytes), counted for progress, and wrapped in a
//! [`RecordReader`]. Every input is opened before any work starts, so a
//! missing file is fatal before a single row is written. A regular file is
//! then [`Input::park`]ed: closed again, its buffers freed, and reopened
//! when its first record is read (checked to be unchanged), so a run over
//! thousands of files holds one open at a time and its memory does not
//! grow with their number. A command that reads once reads each file as it
//! is when the run reaches it (a file still being appended to is read to
//! its end at that moment; a `touch` changes nothing); only its columns
//! must be those it was opened with.
//!
//! A command that reads its inputs twice (`dedupe`) opens them through
//! [`Reopenable`]: anything that is not a regular file (stdin, a pipe
//! named by path such as `/dev/stdin` or `<(cat f)`, a FIFO, a device) is
//! spooled to a temporary file first, since it can be read only once; a
//! regular file is read in place, and a change to its content between the
//! passes is an error, never silently mixed output. Content, not the
//! modification time: the file must keep its size and inode, and the
//! second pass must read the bytes the first read (a hash of each MiB of
//! the first pass, compared as the second reads it).

use std::fs::File;
use std::hash::Hasher as _;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::sync::Mutex;

use tempfile::NamedTempFile;

use batchdoku_core::{ReadOptions, Record, RecordReader};

/// Buffer size for reading inputs.
const READ_BUFFER: usize = 256 * 1024;

/// Counts the raw (compressed) bytes read, for the progress bar, and ends
/// at the first end of input: after a read returns 0 it is never read
/// again, so that one Ctrl-D ends terminal input (sniffing, detection and
/// the reader each asked the terminal again, so it took three).
#[derive(Debug)]
struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
    /// The input's own count, taken back from `count` when it is parked.
    counted: Option<Arc<AtomicU64>>,
    /// The content check of an input read twice.
    print: Option<Fingerprint>,
    ended: bool,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        self.ended = n == 0;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        if let Some(counted) = &self.counted {
            counted.fetch_add(n as u64, Ordering::Relaxed);
        }
        if let Some(print) = &mut self.print {
            print.feed(&buf[..n])?;
        }
        Ok(n)
    }
}

/// Bytes per hashed block of a file read twice.
const PRINT_BLOCK: u64 = 1 << 20;

/// What the first pass over a file read twice saw: a hash of each
/// [`PRINT_BLOCK`] of it, and its length once read to the end.
#[derive(Debug, Default)]
struct Prints {
    blocks: Vec<u64>,
    len: Option<u64>,
}

/// Hashes the raw bytes of one reading of a file, block by block: the
/// first pass records them into the shared [`Prints`], a later pass
/// compares each block as it completes (and the length at the end), and a
/// difference is a read error.
#[derive(Debug)]
struct Fingerprint {
    prints: Arc<Mutex<Prints>>,
    record: bool,
    hasher: std::hash::DefaultHasher,
    /// Bytes read so far.
    at: u64,
}

impl Fingerprint {
    /// A reading from the start; recording clears what an earlier
    /// reading of the same pass recorded.
    fn new(prints: &Arc<Mutex<Prints>>, record: bool) -> Fingerprint {
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
    fn feed(&mut self, mut bytes: &[u8]) -> io::Result<()> {
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

/// A boxed buffered byte source.
pub type Source = Box<dyn BufRead + Send>;

/// One input: its name and size, what its start says (CSV columns), and its
/// records. A regular file can be parked until its records are read.
///
/// [`Input::open`] opens a file (or stdin), decompressing gzip (and zstd,
/// with the `zstd` feature); [`Input::from_source`] reads bytes the caller
/// already has, as they are.
///
/// # Example
/// ```
/// use std::sync::atomic::AtomicU64;
/// use std::sync::Arc;
/// use batchdoku_batch::plumbing::Input;
/// use batchdoku_core::{ReadOptions, Record};
///
/// let csv = "puzzle,solution\n\
///     ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..,\
///     483921657967345821251876493548132976729564138136798245372689514814253769695417382\n";
/// let options = ReadOptions::default(); // detect the format
/// let mut input = Input::from_source("memory", Box::new(csv.as_bytes()), None, &options)?;
/// assert_eq!(&*input.name, "memory");
/// assert!(input.has_expected()); // CSV with a solution column
/// let mut record = Record::default();
/// assert!(input.read_record(&mut record)?);
/// assert_eq!(record.line, 2);
///
/// // A file, compressed or not, counting the bytes read for a progress bar.
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("puzzles.csv");
/// std::fs::write(&path, csv)?;
/// let counter = Arc::new(AtomicU64::new(0));
/// let mut input = Input::open(path.to_str().unwrap(), &options, counter)?;
/// assert_eq!(input.size, Some(csv.len() as u64));
/// assert!(input.read_record(&mut record)? && !input.read_record(&mut record)?);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Input {
    /// The name used in error messages (`<stdin>` for standard input).
    pub name: Arc<str>,
    /// Size in bytes when known (regular files), for the progress bar.
    pub size: Option<u64>,
    /// The record reader; `None` while parked.
    reader: Option<RecordReader<Source>>,
    /// How to open a regular file again (none for stdin, pipes, devices).
    again: Option<Again>,
    /// The names of the CSV columns carried through (`--keep-columns`).
    kept_names: Option<Vec<String>>,
    /// A CSV input with a solution column.
    has_expected: bool,
    /// A record has been read: the input can no longer be parked.
    started: bool,
}

/// What reopens a parked regular file: its path, how it was read, and
/// (for a file read twice) its identity and content check.
struct Again {
    path: PathBuf,
    options: ReadOptions,
    /// The identity a file read twice must keep; none for a file read once.
    identity: Option<Identity>,
    /// The content check of a file read twice, and whether this pass records.
    prints: Option<(Arc<Mutex<Prints>>, bool)>,
    /// The run's shared byte counter.
    counter: Arc<AtomicU64>,
    /// The bytes this input added to `counter` before it was parked.
    counted: Arc<AtomicU64>,
}

impl Input {
    /// An input over a byte source as it is (no decompression, no byte
    /// counting), for callers that hold their data in memory.
    pub fn from_source(
        name: &str,
        source: Source,
        size: Option<u64>,
        options: &ReadOptions,
    ) -> io::Result<Input> {
        let reader = RecordReader::with_options(source, options)?;
        Ok(Input {
            name: Arc::from(name),
            size,
            kept_names: reader.kept_names().map(<[String]>::to_vec),
            has_expected: reader.has_expected(),
            reader: Some(reader),
            again: None,
            started: false,
        })
    }

    /// Reads the next record into `record`; `false` at the end. A parked
    /// input is reopened first: a file read once is read as it is now (its
    /// columns must be those it was opened with); a file read twice fails
    /// if its content has changed.
    pub fn read_record(&mut self, record: &mut Record) -> io::Result<bool> {
        self.started = true;
        let reader = match &mut self.reader {
            Some(reader) => reader,
            None => {
                let again = self
                    .again
                    .as_ref()
                    .expect("only a reopenable input is parked");
                let file = File::open(&again.path)?;
                if let Some(was) = again.identity {
                    if Identity::of(&file.metadata()?) != was {
                        return Err(changed());
                    }
                }
                let print = again
                    .prints
                    .as_ref()
                    .map(|(p, rec)| Fingerprint::new(p, *rec));
                let reader =
                    reader_of(Box::new(file), &again.options, &again.counter, None, print)?;
                if reader.kept_names() != self.kept_names.as_deref()
                    || reader.has_expected() != self.has_expected
                {
                    return Err(io::Error::other("its columns changed after it was opened"));
                }
                self.reader.insert(reader)
            }
        };
        reader.read_record(record)
    }

    /// The names of the CSV columns carried through, for `--keep-columns`.
    pub fn kept_names(&self) -> Option<&[String]> {
        self.kept_names.as_deref()
    }

    /// Whether the input is CSV with a solution column.
    pub fn has_expected(&self) -> bool {
        self.has_expected
    }

    /// Closes a regular file that has not been read yet, freeing its file
    /// descriptor and buffers, until [`Input::read_record`] reopens it; the
    /// bytes its opening read are taken back from the progress counter.
    /// Other inputs (stdin, pipes, devices) cannot be read again and stay
    /// open.
    pub fn park(&mut self) {
        if let (false, Some(again)) = (self.started, &self.again) {
            self.reader = None;
            let counted = again.counted.swap(0, Ordering::Relaxed);
            again.counter.fetch_sub(counted, Ordering::Relaxed);
        }
    }
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input").field("name", &self.name).finish()
    }
}

/// Compression detected on an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    None,
    Gzip,
    Zstd,
}

/// Detects compression from the first bytes. The magic bytes decide, for
/// files and stdin alike: a `.gz` or `.zst` file always starts with them,
/// and a file so named without them is better read as it is than failed.
fn sniff(head: &[u8]) -> Compression {
    if head.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if head.starts_with(&ZSTD_MAGIC) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// The magic number of a zstd frame (little-endian 0xFD2FB528).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// True for the magic number of a zstd skippable frame (little-endian
/// 0x184D2A50 to 0x184D2A5F), which `pzstd` writes before its frames.
fn is_skippable(head: &[u8]) -> bool {
    matches!(head, [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..])
}

/// Bytes of an uncompressed input read ahead to tell UTF-16 text.
const UTF16_PROBE: usize = 8;

/// Why a UTF-16 input is refused.
const UTF16: &str = "the input is UTF-16 text (as some Windows tools save it): save it as UTF-8 \
                     (in Excel: \"CSV UTF-8\"; or iconv -f UTF-16 -t UTF-8)";

/// True when `start` (the first bytes of an input) is UTF-16 text: a
/// UTF-16 byte order mark followed by an ASCII character in that byte
/// order, or four ASCII characters each paired with a zero byte, in
/// either order. Such an input would give a row of byte errors per line,
/// so it is refused as a whole instead. Binary junk that merely starts
/// with `FF FE` stays records (invalid ones).
fn is_utf16(start: &[u8]) -> bool {
    let ascii = |b: u8| b.is_ascii() && b != 0;
    // `n` code units of ASCII text, little- or big-endian.
    let text = |bytes: &[u8], n: usize, little: bool| {
        bytes.get(..2 * n).is_some_and(|units| {
            units.chunks_exact(2).all(|p| {
                let (low, high) = if little { (p[0], p[1]) } else { (p[1], p[0]) };
                ascii(low) && high == 0
            })
        })
    };
    match start {
        [0xFF, 0xFE, rest @ ..] => text(rest, 1, true),
        [0xFE, 0xFF, rest @ ..] => text(rest, 1, false),
        _ => text(start, 4, true) || text(start, 4, false),
    }
}

/// Reads from `raw` into `head` until it holds `want` bytes or the input
/// ends, however few bytes each read returns (a pipe may deliver one).
fn fill_to<R: Read>(raw: &mut R, head: &mut Vec<u8>, want: usize) -> io::Result<()> {
    let mut chunk = [0u8; 16];
    while head.len() < want {
        let n = match raw.read(&mut chunk[..want - head.len()]) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&chunk[..n]);
    }
    Ok(())
}

/// Reads the first bytes of `raw` to detect its compression; returns it
/// with the bytes read, to be replayed before the rest. zstd skippable
/// frames ahead of the first data frame are read past (they hold no data,
/// and are dropped) so that what follows decides: `pzstd` output, or any
/// stream that starts with a skippable frame, is still zstd.
fn detect_compression<R: Read>(raw: &mut R) -> io::Result<(Compression, Vec<u8>)> {
    let mut head = Vec::with_capacity(8);
    let mut skipped = false;
    loop {
        fill_to(raw, &mut head, 4)?;
        if !is_skippable(&head) {
            break;
        }
        fill_to(raw, &mut head, 8)?;
        let Some(size) = head.get(4..8) else {
            break; // cut short: left for the decoder to report
        };
        let size = u32::from_le_bytes(size.try_into().expect("4 bytes"));
        let dropped = io::copy(&mut raw.take(u64::from(size)), &mut io::sink())?;
        if dropped < u64::from(size) {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "zstd skippable frame cut short",
            ));
        }
        head.clear();
        skipped = true;
    }
    let compression = match sniff(&head) {
        // Only skippable frames, then nothing: an empty zstd stream.
        Compression::None if skipped && head.is_empty() => Compression::Zstd,
        c => c,
    };
    Ok((compression, head))
}

impl Input {
    /// Opens `path` (`-` for stdin) to read with `options`, counting raw
    /// bytes into `counter` (shared with the progress display).
    pub fn open(path: &str, options: &ReadOptions, counter: Arc<AtomicU64>) -> io::Result<Input> {
        open(path, options, counter)
    }
}

/// Opens `path` (`-` for stdin) to read with `options`, counting raw
/// bytes into `counter`.
pub(crate) fn open(
    path: &str,
    options: &ReadOptions,
    counter: Arc<AtomicU64>,
) -> io::Result<Input> {
    if path == "-" {
        let stdin = Box::new(io::stdin());
        wrap(stdin, Arc::from("<stdin>"), None, options, counter, None)
    } else {
        open_as(Path::new(path), path, options, counter)
    }
}

/// Opens the file at `path` under another `name` for rows and messages
/// (a spooled copy of stdin is still `<stdin>`).
pub(crate) fn open_as(
    path: &Path,
    name: &str,
    options: &ReadOptions,
    counter: Arc<AtomicU64>,
) -> io::Result<Input> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    let size = meta.is_file().then_some(meta.len());
    let again = meta.is_file().then(|| Again {
        path: path.to_path_buf(),
        options: options.clone(),
        identity: None,
        prints: None,
        counter: counter.clone(),
        counted: Arc::default(),
    });
    wrap(
        Box::new(file),
        Arc::from(name),
        size,
        options,
        counter,
        again,
    )
}

/// The error for a zstd input in a build without the `zstd` feature.
#[cfg(not(feature = "zstd"))]
const NO_ZSTD: &str = "zstd-compressed input, but this build of batchdoku has no zstd support (the `zstd` feature is off)";

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
struct Identity {
    len: u64,
    node: (u64, u64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Identity {
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
                let reader = reader_of(
                    Box::new(file),
                    options,
                    &counter,
                    Some(counted),
                    Some(Fingerprint::new(prints, record)),
                )?;
                Ok(Input {
                    name: Arc::from(self.name.as_str()),
                    size: Some(meta.len()),
                    kept_names: reader.kept_names().map(<[String]>::to_vec),
                    has_expected: reader.has_expected(),
                    reader: Some(reader),
                    again: Some(again),
                    started: false,
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
fn changed() -> io::Error {
    io::Error::other("changed while being read (its size, inode or content differs between passes)")
}

/// Buffers, counts, decompresses and parses a raw byte source; `again`
/// says how to reopen it (a regular file).
fn wrap(
    raw: Box<dyn Read + Send>,
    name: Arc<str>,
    size: Option<u64>,
    options: &ReadOptions,
    counter: Arc<AtomicU64>,
    again: Option<Again>,
) -> io::Result<Input> {
    let counted = again.as_ref().map(|a| a.counted.clone());
    let reader = reader_of(raw, options, &counter, counted, None)?;
    Ok(Input {
        name,
        size,
        kept_names: reader.kept_names().map(<[String]>::to_vec),
        has_expected: reader.has_expected(),
        reader: Some(reader),
        again,
        started: false,
    })
}

/// The record reader over a raw byte source: counted into `counter` (and
/// `counted`, this input's own count), checked by `print` (a file read
/// twice), decompressed and parsed.
fn reader_of(
    raw: Box<dyn Read + Send>,
    options: &ReadOptions,
    counter: &Arc<AtomicU64>,
    counted: Option<Arc<AtomicU64>>,
    print: Option<Fingerprint>,
) -> io::Result<RecordReader<Source>> {
    let mut counting = CountingReader {
        inner: raw,
        count: counter.clone(),
        counted,
        print,
        ended: false,
    };
    let (compression, mut head) = detect_compression(&mut counting)?;
    if compression == Compression::None {
        fill_to(&mut counting, &mut head, UTF16_PROBE)?;
    }
    let buffered = BufReader::with_capacity(READ_BUFFER, io::Cursor::new(head).chain(counting));
    let source: Source = match compression {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            READ_BUFFER,
            flate2::bufread::MultiGzDecoder::new(buffered),
        )),
        #[cfg(feature = "zstd")]
        Compression::Zstd => Box::new(BufReader::with_capacity(
            READ_BUFFER,
            zstd::stream::read::Decoder::with_buffer(buffered)?,
        )),
        #[cfg(not(feature = "zstd"))]
        Compression::Zstd => return Err(io::Error::new(io::ErrorKind::Unsupported, NO_ZSTD)),
    };
    let mut source = source;
    if is_utf16(source.fill_buf()?) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, UTF16));
    }
    RecordReader::with_options(source, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that, like a terminal, has more to give after returning 0:
    /// each read returns (at most `buf.len()` bytes of) the next chunk.
    struct Terminal(Vec<&'static [u8]>);

    impl Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                self.0.push(b"late");
            }
            let chunk = self.0[0];
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            if n == chunk.len() {
                self.0.remove(0);
            } else {
                self.0[0] = &chunk[n..];
            }
            Ok(n)
        }
    }

    /// A reader that returns one byte per call, as a slow pipe may.
    struct OneByte<B>(io::Cursor<B>);

    impl<B: AsRef<[u8]>> Read for OneByte<B> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(1);
            self.0.read(&mut buf[..n])
        }
    }

    fn one_byte<B: AsRef<[u8]>>(bytes: B) -> OneByte<B> {
        OneByte(io::Cursor::new(bytes))
    }

    #[test]
    fn the_first_end_of_input_is_final() {
        for typed in [vec![&b""[..]], vec![&b"# a comment\n"[..], b""]] {
            let input = wrap(
                Box::new(Terminal(typed)),
                Arc::from("tty"),
                None,
                &ReadOptions::default(),
                Arc::default(),
                None,
            )
            .unwrap();
            let mut records = input;
            let mut record = batchdoku_core::Record::default();
            assert!(
                !records.read_record(&mut record).unwrap(),
                "read past the end"
            );
        }
    }

    #[test]
    fn detection_reads_past_skippable_frames_one_byte_at_a_time() {
        let data = zstd::encode_all(&b"hello\n"[..], 3).unwrap();
        let skippable = [&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0][..], b"abcd"].concat();
        let mut input = [&skippable[..], &skippable, &data].concat();
        input[8 + 4] = 0x5f; // the second with the last skippable magic
        let (c, head) = detect_compression(&mut one_byte(&input)).unwrap();
        assert_eq!((c, head.as_slice()), (Compression::Zstd, &ZSTD_MAGIC[..]));
        let (c, head) = detect_compression(&mut one_byte([0x1f, 0x8b, 8])).unwrap();
        assert_eq!((c, head.len()), (Compression::Gzip, 3));
        let (c, _) = detect_compression(&mut one_byte(b"..3")).unwrap();
        assert_eq!(c, Compression::None);
        let (c, head) = detect_compression(&mut one_byte(&skippable)).unwrap();
        assert_eq!((c, head.len()), (Compression::Zstd, 0));
        let cut = &skippable[..10];
        assert!(detect_compression(&mut one_byte(cut)).is_err());
    }

    /// Spools a stream the plain way.
    fn copy(src: &mut dyn Read) -> io::Result<NamedTempFile> {
        let mut tmp = NamedTempFile::new()?;
        io::copy(src, tmp.as_file_mut())?;
        Ok(tmp)
    }

    /// Reads every record of `input`; the first error.
    fn drain(input: &mut Input) -> io::Result<usize> {
        let mut record = Record::default();
        let mut n = 0;
        while input.read_record(&mut record)? {
            n += 1;
        }
        Ok(n)
    }

    #[test]
    fn a_file_whose_content_changed_between_passes_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        let grid = "1".repeat(81);
        let other = "2".repeat(81);
        // Big enough for several hashed blocks.
        let lines = (PRINT_BLOCK as usize * 3) / 82 + 7;
        std::fs::write(&path, format!("{grid}\n").repeat(lines)).unwrap();
        let input = Reopenable::new(path.to_str().unwrap(), copy).unwrap();
        let opts = ReadOptions::default();
        let mut first = input.open(&opts, Arc::default()).unwrap();
        first.park();
        assert_eq!(drain(&mut first).unwrap(), lines);
        // A new modification time alone is no change.
        let file = File::options().write(true).open(&path).unwrap();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
        file.set_modified(later).unwrap();
        let mut second = input.open(&opts, Arc::default()).unwrap();
        assert_eq!(drain(&mut second).unwrap(), lines);
        assert!(input.check_unchanged().is_ok());
        // The same size and inode, other bytes (in the last block): the
        // second reading fails where it reads them.
        let mut text = format!("{grid}\n").repeat(lines - 1);
        text.push_str(&format!("{other}\n"));
        std::fs::write(&path, &text).unwrap();
        let mut third = input.open(&opts, Arc::default()).unwrap();
        third.park();
        let err = drain(&mut third).unwrap_err();
        assert!(
            err.to_string().contains("changed while being read"),
            "{err}"
        );
        // Another size: fails at once.
        std::fs::write(&path, "12\n").unwrap();
        let err = input.open(&opts, Arc::default()).unwrap_err();
        assert!(
            err.to_string().contains("changed while being read"),
            "{err}"
        );
        assert!(input.check_unchanged().is_err());
        assert!(Reopenable::new(dir.path().to_str().unwrap(), copy).is_err());
    }

    #[test]
    fn a_file_read_once_is_read_as_it_is_when_reached() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        let line = format!("{}\n", "1".repeat(81));
        std::fs::write(&path, &line).unwrap();
        let mut input = Input::open(
            path.to_str().unwrap(),
            &ReadOptions::default(),
            Arc::default(),
        )
        .unwrap();
        input.park();
        // Appended to (and touched) after it was opened.
        std::fs::write(&path, line.repeat(3)).unwrap();
        assert_eq!(drain(&mut input).unwrap(), 3);
    }

    #[test]
    fn utf16_inputs_are_refused_whole_however_they_arrive() {
        let utf16 = |text: &str, big_endian: bool, bom: bool| {
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice(if big_endian { b"\xFE\xFF" } else { b"\xFF\xFE" });
            }
            for unit in text.encode_utf16() {
                let pair = if big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                bytes.extend_from_slice(&pair);
            }
            bytes
        };
        let open = |raw: Box<dyn Read + Send>| {
            reader_of(raw, &ReadOptions::default(), &Arc::default(), None, None)
        };
        for (big_endian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
            let bytes = utf16("quizzes,solutions\r\n", big_endian, bom);
            for raw in [
                Box::new(io::Cursor::new(bytes.clone())) as Box<dyn Read + Send>,
                Box::new(one_byte(bytes.clone())),
            ] {
                let err = open(raw).unwrap_err();
                assert_eq!(err.kind(), io::ErrorKind::InvalidData);
                assert!(err.to_string().contains("save it as UTF-8"), "{err}");
            }
        }
        // A NUL inside a line is a bad character of its record, and bytes
        // that merely start like a byte order mark are junk: not UTF-16.
        for text in [
            &b"..3.2.6..\0..3.5..1\n"[..],
            b"12",
            b"",
            b"\xFF\xFE<script>",
            b"\xFE\xFF\xFF\xFE",
        ] {
            let raw = Box::new(one_byte(text));
            assert!(open(raw).is_ok());
        }
    }

    #[test]
    fn sniffs_magic_bytes() {
        assert_eq!(sniff(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
        assert_eq!(sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Compression::Zstd);
        assert_eq!(sniff(b"..3.2.6"), Compression::None);
        assert_eq!(sniff(b""), Compression::None);
    }

    #[cfg(not(feature = "zstd"))]
    #[test]
    fn zstd_input_without_the_feature_is_a_clear_error() {
        let raw = Box::new(std::io::Cursor::new(vec![0x28, 0xb5, 0x2f, 0xfd, 0, 0]));
        let options = ReadOptions::default();
        let err = wrap(
            raw,
            Arc::from("x.zst"),
            None,
            &options,
            Arc::default(),
            None,
        )
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::Unsupported);
        assert!(err.to_string().contains("`zstd` feature"), "{err}");
    }
}
