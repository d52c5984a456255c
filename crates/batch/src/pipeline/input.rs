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
//!
//! Here: opening and wrapping ([`open`], [`Input`]); what the first bytes
//! say (compression; UTF-16, Parquet or another binary format, from a
//! window of the decoded bytes) in `magic`; a Parquet file's rows as JSON
//! lines in `parquet_rows` (with the `parquet` feature); a file read twice in `reopen` ([`Reopenable`]) and the hashes
//! that check it in `fingerprint`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::sync::Mutex;

use batchdoku_core::{InputLayout, ReadOptions, Record, RecordReader};

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
    /// This input's bytes and their checksum, as they arrive.
    tally: Arc<ReadTally>,
    ended: bool,
}

/// What one input delivered: the bytes read from it, as they arrived
/// (before decompression), and the XXH3-64 of exactly those bytes, so a
/// size and a checksum always describe the same bytes, whatever the input
/// is (a file that grows while it is read, a FIFO, stdin). A regular file
/// that is parked and reopened starts its tally again. Shared: take it
/// with [`Input::tally`] before the run, read it after.
#[derive(Debug, Default)]
pub struct ReadTally(Mutex<(u64, Xxh3Sum)>);

/// The running XXH3-64 of an input's bytes.
#[derive(Clone, Default)]
struct Xxh3Sum(xxhash_rust::xxh3::Xxh3);

impl std::fmt::Debug for Xxh3Sum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0.digest())
    }
}

impl ReadTally {
    /// The bytes read so far (before decompression).
    pub fn bytes(&self) -> u64 {
        self.lock().0
    }

    /// XXH3-64 of the bytes read so far, as 16 hex digits.
    pub fn xxh3_64(&self) -> String {
        format!("{:016x}", self.lock().1 .0.digest())
    }

    fn feed(&self, bytes: &[u8]) {
        let mut tally = self.lock();
        tally.0 += bytes.len() as u64;
        tally.1 .0.update(bytes);
    }

    /// Forgets what was read: the input is read again from its start.
    fn restart(&self) {
        *self.lock() = Default::default();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, Xxh3Sum)> {
        // A tally is plain data: a panic elsewhere cannot leave it torn.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
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
        self.tally.feed(&buf[..n]);
        Ok(n)
    }
}

mod fingerprint;
mod magic;
#[cfg(feature = "parquet")]
mod parquet_rows;
mod reopen;
#[cfg(test)]
mod tests;

use fingerprint::{Fingerprint, Prints};
#[cfg(not(feature = "parquet"))]
use magic::NO_PARQUET;
use magic::{
    detect_compression, fill_probe, is_parquet, is_utf16, other_binary, Compression, Replay, UTF16,
    UTF16_PROBE,
};
pub use reopen::Reopenable;
use reopen::{changed, Identity};

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
    /// How the input lays out its records.
    layout: InputLayout,
    /// A record has been read: the input can no longer be parked.
    started: bool,
    /// The bytes read from it and their checksum.
    tally: Arc<ReadTally>,
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
            layout: reader.layout().clone(),
            reader: Some(reader),
            again: None,
            started: false,
            tally: Arc::default(),
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
                // Read again from the start: the tally counts this reading.
                self.tally.restart();
                let reader = reader_of(
                    Box::new(file),
                    &again.options,
                    &again.counter,
                    None,
                    print,
                    &self.tally,
                )?;
                if reader.kept_names() != self.kept_names.as_deref()
                    || reader.has_expected() != self.has_expected
                    || reader.layout() != &self.layout
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

    /// How the input lays out its records (a Parquet file's rows are read
    /// as JSON lines): see [`InputLayout`].
    pub fn layout(&self) -> &InputLayout {
        &self.layout
    }

    /// The bytes read from this input and their checksum, shared: take it
    /// before the run, read it after (an input made
    /// [`from_source`](Input::from_source) counts nothing).
    pub fn tally(&self) -> Arc<ReadTally> {
        self.tally.clone()
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
    let tally = Arc::default();
    let reader = reader_of(raw, options, &counter, counted, None, &tally)?;
    Ok(Input {
        name,
        size,
        kept_names: reader.kept_names().map(<[String]>::to_vec),
        has_expected: reader.has_expected(),
        layout: reader.layout().clone(),
        reader: Some(reader),
        again,
        started: false,
        tally,
    })
}

/// The record reader over a raw byte source: counted into `counter` (and
/// `counted`, this input's own count), checked by `print` (a file read
/// twice), tallied into `tally`, decompressed and parsed.
fn reader_of(
    raw: Box<dyn Read + Send>,
    options: &ReadOptions,
    counter: &Arc<AtomicU64>,
    counted: Option<Arc<AtomicU64>>,
    print: Option<Fingerprint>,
    tally: &Arc<ReadTally>,
) -> io::Result<RecordReader<Source>> {
    let mut counting = CountingReader {
        inner: raw,
        count: counter.clone(),
        counted,
        print,
        tally: tally.clone(),
        ended: false,
    };
    let (compression, head) = detect_compression(&mut counting)?;
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
    // UTF-16, Parquet and other binary formats are told from the decoded
    // bytes, the same window however they arrive (a slow pipe, a
    // decompressor that has only part of a block yet), then replayed.
    let mut source = source;
    let probe = fill_probe(&mut source, UTF16_PROBE)?;
    if let Some((what, hint)) = other_binary(&probe) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("looks like {what}, which batchdoku does not read: {hint}"),
        ));
    }
    let parquet = is_parquet(&probe);
    if !parquet && is_utf16(&probe) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, UTF16));
    }
    let source: Source = Box::new(Replay::new(probe, source));
    if parquet {
        return parquet_reader(source, options);
    }
    RecordReader::with_options(source, options)
}

/// The record reader over a Parquet file (`source`, decoded, replayed
/// from its start): its rows as JSON lines, read as JSONL, so the puzzle
/// and expected-solution columns are found as for CSV and JSONL. Another
/// input format forced on it, or a delimiter, is an error.
#[cfg(feature = "parquet")]
fn parquet_reader(source: Source, options: &ReadOptions) -> io::Result<RecordReader<Source>> {
    use batchdoku_core::InputFormat;
    let forced = match options.format {
        InputFormat::Auto | InputFormat::Jsonl => None,
        other => Some(format!("--input-format {other}")),
    };
    if let Some(what) = forced.or_else(|| options.delimiter.map(|_| "--delimiter".to_owned())) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "a Parquet file (its first bytes are PAR1), which {what} does not fit: \
                 leave it out, Parquet is read as it is"
            ),
        ));
    }
    let rows = parquet_rows::json_rows(source)?;
    let options = ReadOptions {
        format: InputFormat::Jsonl,
        ..options.clone()
    };
    RecordReader::with_options(rows, &options)
}

/// Parquet input in a build without the `parquet` feature: a clear error.
#[cfg(not(feature = "parquet"))]
fn parquet_reader(_source: Source, _options: &ReadOptions) -> io::Result<RecordReader<Source>> {
    Err(io::Error::new(io::ErrorKind::Unsupported, NO_PARQUET))
}
