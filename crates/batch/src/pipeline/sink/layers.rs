//! What a sink's bytes go through on their way to its target: a buffer,
//! and the compressor `-o`'s name or `--compress` asks for ([`Compression`]).

use std::io::{self, Write};
use std::path::Path;

#[cfg(feature = "parquet")]
use crate::output::parquet::ParquetRows;

use super::Target;

/// What a sink's bytes go through on their way to its [`Target`].
// One per output: the size of `Bytes` inline costs nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Layers {
    /// Written as they come (compressed or not).
    Bytes(Compressed),
    /// Assembled into a Parquet file.
    #[cfg(feature = "parquet")]
    Parquet(Box<ParquetRows<Compressed>>),
    /// Taken apart by a failure (only Parquet's setup takes it apart).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    Failed,
}

pub(super) fn failed() -> io::Error {
    io::Error::other("the output failed before")
}

/// A target, maybe behind a compressor.
pub(super) enum Compressed {
    Plain(Target),
    Gzip(flate2::write::GzEncoder<Target>),
    #[cfg(feature = "zstd")]
    Zstd(zstd::stream::write::Encoder<'static, Target>),
}

impl Compressed {
    pub(super) fn target(&self) -> &Target {
        match self {
            Compressed::Plain(t) => t,
            Compressed::Gzip(w) => w.get_ref(),
            #[cfg(feature = "zstd")]
            Compressed::Zstd(w) => w.get_ref(),
        }
    }

    /// Ends the compressed stream.
    pub(super) fn finish(self) -> io::Result<Target> {
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
