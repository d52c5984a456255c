//! Opening inputs: files or stdin, decompressed on the fly when gzip or
//! zstd (by extension or magic bytes), counted for progress, and wrapped
//! in a [`RecordReader`]. Every input is opened before any work starts, so
//! a missing file is fatal before a single row is written.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::parse::{ReadOptions, RecordReader};

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
        Ok(n)
    }
}

/// A boxed buffered byte source.
pub type Source = Box<dyn BufRead + Send>;

/// One opened input.
pub struct Input {
    /// The name used in error messages (`<stdin>` for standard input).
    pub name: Arc<str>,
    /// The record reader over the (decompressed) input.
    pub records: RecordReader<Source>,
    /// Size in bytes when known (regular files), for the progress bar.
    pub size: Option<u64>,
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
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Opens `path` (`-` for stdin) to read with `options`, counting raw
/// bytes into `counter`.
pub fn open(path: &str, options: &ReadOptions, counter: Arc<AtomicU64>) -> io::Result<Input> {
    if path == "-" {
        let stdin = Box::new(io::stdin());
        wrap(stdin, Arc::from("<stdin>"), None, options, counter)
    } else {
        open_as(Path::new(path), path, options, counter)
    }
}

/// Opens the file at `path` under another `name` for rows and messages
/// (a spooled copy of stdin is still `<stdin>`).
pub fn open_as(
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
    wrap(Box::new(file), Arc::from(name), size, options, counter)
}

/// The error for a zstd input in a build without the `zstd` feature.
#[cfg(not(feature = "zstd"))]
const NO_ZSTD: &str = "zstd-compressed input, but this build of batchdoku has no zstd support (the `zstd` feature is off)";

/// Buffers, counts, decompresses and parses a raw byte source.
fn wrap(
    raw: Box<dyn Read + Send>,
    name: Arc<str>,
    size: Option<u64>,
    options: &ReadOptions,
    counter: Arc<AtomicU64>,
) -> io::Result<Input> {
    let mut buffered = BufReader::with_capacity(
        READ_BUFFER,
        CountingReader {
            inner: raw,
            count: counter,
            ended: false,
        },
    );
    // The first fill of a pipe may be short, but a compressor writes its
    // magic bytes in its first write, so the first fill holds them.
    let compression = sniff(buffered.fill_buf()?);
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
    let records = RecordReader::with_options(source, options)?;
    Ok(Input {
        name,
        records,
        size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that, like a terminal, has more to give after returning 0.
    struct Terminal(Vec<&'static [u8]>);

    impl Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let chunk = if self.0.is_empty() {
                &b"late"[..]
            } else {
                self.0.remove(0)
            };
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
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
            )
            .unwrap();
            let mut records = input.records;
            let mut record = crate::parse::Record::default();
            assert!(
                !records.read_record(&mut record).unwrap(),
                "read past the end"
            );
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
        let err = wrap(raw, Arc::from("x.zst"), None, &options, Arc::default()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::Unsupported);
        assert!(err.to_string().contains("`zstd` feature"), "{err}");
    }
}
