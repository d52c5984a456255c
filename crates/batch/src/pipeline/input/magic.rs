//! What an input's first bytes say: its compression (gzip, zstd, zstd
//! skippable frames, none) and whether it is UTF-16 text or a Parquet
//! file, which are refused.

use std::io::{self, Read};

/// Compression detected on an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compression {
    None,
    Gzip,
    Zstd,
}

/// Detects compression from the first bytes. The magic bytes decide, for
/// files and stdin alike: a `.gz` or `.zst` file always starts with them,
/// and a file so named without them is better read as it is than failed.
pub(super) fn sniff(head: &[u8]) -> Compression {
    if head.starts_with(&[0x1f, 0x8b]) {
        Compression::Gzip
    } else if head.starts_with(&ZSTD_MAGIC) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// The magic number of a zstd frame (little-endian 0xFD2FB528).
pub(super) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// True for the magic number of a zstd skippable frame (little-endian
/// 0x184D2A50 to 0x184D2A5F), which `pzstd` writes before its frames.
fn is_skippable(head: &[u8]) -> bool {
    matches!(head, [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..])
}

/// Bytes of an uncompressed input read ahead to tell UTF-16 text.
pub(super) const UTF16_PROBE: usize = 8;

/// Why a UTF-16 input is refused.
pub(super) const UTF16: &str =
    "the input is UTF-16 text (as some Windows tools save it): save it as UTF-8 \
                     (in Excel: \"CSV UTF-8\"; or iconv -f UTF-16 -t UTF-8)";

/// Why a Parquet input is refused (every command reads its inputs here,
/// so every command says it the same way).
pub(super) const PARQUET: &str = "Parquet input is not supported yet: give the puzzles as CSV, \
JSON lines or lines (the command that wrote this file writes them with --format csv or jsonl)";

/// True when `start` (the first bytes of an input, after decompression)
/// is a Parquet file: its magic number `PAR1`. Read as text it would be a
/// page of invalid rows and, for `overlap`, no leaks at all.
pub(super) fn is_parquet(start: &[u8]) -> bool {
    start.starts_with(b"PAR1")
}

/// True when `start` (the first bytes of an input) is UTF-16 text: a
/// UTF-16 byte order mark followed by an ASCII character in that byte
/// order, or four ASCII characters each paired with a zero byte, in
/// either order. Such an input would give a row of byte errors per line,
/// so it is refused as a whole instead. Binary junk that merely starts
/// with `FF FE` stays records (invalid ones).
pub(super) fn is_utf16(start: &[u8]) -> bool {
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
pub(super) fn fill_to<R: Read>(raw: &mut R, head: &mut Vec<u8>, want: usize) -> io::Result<()> {
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
pub(super) fn detect_compression<R: Read>(raw: &mut R) -> io::Result<(Compression, Vec<u8>)> {
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
