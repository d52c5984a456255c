//! What an input's first bytes say: its compression (gzip, zstd, zstd
//! skippable frames, none) and, from its first decoded bytes, whether it
//! is UTF-16 text (refused), a Parquet file (read as such) or another
//! binary format (refused, naming what it looks like).

use std::io::{self, BufRead, Read};

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

/// Decoded (decompressed) bytes read ahead to tell UTF-16 text: several
/// lines of any format, so that no single line decides.
pub(super) const UTF16_PROBE: usize = 512;

/// Why a UTF-16 input is refused.
pub(super) const UTF16: &str =
    "the input is UTF-16 text (as some Windows tools save it): save it as UTF-8 \
                     (in Excel: \"CSV UTF-8\"; or iconv -f UTF-16 -t UTF-8)";

/// Why a Parquet input is refused in a build without the `parquet`
/// feature (every command reads its inputs here, so every command says
/// it the same way).
#[cfg(not(feature = "parquet"))]
pub(super) const NO_PARQUET: &str = "Parquet input needs the `parquet` feature, which this build leaves out: \
give the puzzles as CSV, JSON lines or lines (the command that wrote this file writes them with --format csv or jsonl)";

/// True when `start` (the first bytes of an input, after decompression)
/// is a Parquet file: its magic number `PAR1`. Read as text it would be a
/// page of invalid rows and, for `overlap`, no leaks at all.
pub(super) fn is_parquet(start: &[u8]) -> bool {
    start.starts_with(b"PAR1")
}

/// Binary formats batchdoku does not read, by their magic bytes: what the
/// input looks like, and what to do instead. Read as text, each would be
/// a flood of invalid rows.
const OTHER_BINARY: &[(&[u8], &str, &str)] = &[
    (
        b"PK\x03\x04",
        "a ZIP archive (an .xlsx or .zip?)",
        "unzip it, or save the sheet as CSV (in Excel: \"CSV UTF-8\")",
    ),
    (
        b"PK\x05\x06",
        "an empty ZIP archive",
        "unzip it, or save the sheet as CSV (in Excel: \"CSV UTF-8\")",
    ),
    (
        b"ARROW1",
        "an Arrow IPC (Feather) file",
        "write it as Parquet or CSV (pandas: df.to_parquet or df.to_csv)",
    ),
    (
        b"SQLite format 3\0",
        "a SQLite database",
        "export the table as CSV (sqlite3 -header -csv FILE 'select * from TABLE')",
    ),
    (
        b"%PDF-",
        "a PDF document",
        "give the puzzles as text, CSV, JSON lines or Parquet",
    ),
    (
        b"\x89PNG\r\n\x1a\n",
        "a PNG image",
        "give the puzzles as text, CSV, JSON lines or Parquet",
    ),
    (
        b"7z\xbc\xaf\x27\x1c",
        "a 7z archive",
        "extract it (7z x FILE)",
    ),
    (
        b"\xfd7zXZ\x00",
        "xz-compressed data",
        "decompress it (xz -d), or compress it with gzip or zstd, which are read as they are",
    ),
];

/// What `start` (the first decoded bytes of an input) looks like when it
/// is a binary format batchdoku does not read, and what to do instead;
/// `None` for anything else. Formats whose magic bytes are text (ORC's
/// `ORC`, bzip2's `BZh`) count only when the bytes after them are not.
pub(super) fn other_binary(start: &[u8]) -> Option<(&'static str, &'static str)> {
    if let Some(&(_, what, hint)) = OTHER_BINARY.iter().find(|(m, _, _)| start.starts_with(m)) {
        return Some((what, hint));
    }
    let binary = || !read_8bit(start).is_text();
    if start.starts_with(b"ORC") && binary() {
        return Some((
            "an ORC file",
            "write it as Parquet or CSV (pyarrow.orc.read_table(FILE).to_pandas())",
        ));
    }
    // bzip2: `BZh`, the block size digit, then a block's or the end's magic.
    if let [b'B', b'Z', b'h', b'1'..=b'9', rest @ ..] = start {
        if rest.starts_with(b"1AY&SY") || rest.starts_with(b"\x17rE8P\x90") {
            return Some((
                "bzip2-compressed data",
                "decompress it (bunzip2), or compress it with gzip or zstd, which are read as they are",
            ));
        }
    }
    None
}

/// What a window of bytes looks like when read one way: its units (code
/// units, or bytes), the bad ones among them, the ASCII ones, and the
/// lines (not blank) with no bad unit in them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Reading {
    units: usize,
    bad: usize,
    ascii: usize,
    clean_lines: usize,
}

impl Reading {
    /// Text: something read, and at most one bad unit in 64.
    fn is_text(&self) -> bool {
        self.units > 0 && self.bad * 64 <= self.units
    }
}

/// True for a character that text does not hold: a control other than
/// tab, line feed and carriage return (NUL included), or a noncharacter
/// `U+FFFE`/`U+FFFF` (a byte order mark read in the wrong order).
fn is_bad_char(c: u32) -> bool {
    (c < 0x20 && !matches!(c, 0x09 | 0x0A | 0x0D))
        || (0x7F..=0x9F).contains(&c)
        || (0xFFFE..=0xFFFF).contains(&c)
}

/// Counts the clean lines (no bad unit, not blank) of a reading as its
/// characters come: `dirty` says whether the line so far held a bad
/// unit, `blank` whether it held only spaces and tabs.
#[derive(Default)]
struct LineTally {
    clean: usize,
    dirty: bool,
    blank: bool,
}

impl LineTally {
    fn new() -> LineTally {
        LineTally {
            blank: true,
            ..LineTally::default()
        }
    }

    fn unit(&mut self, c: u32, bad: bool) {
        if c == 0x0A || c == 0x0D {
            self.end();
        } else {
            self.dirty |= bad;
            self.blank &= c == 0x20 || c == 0x09;
        }
    }

    fn end(&mut self) {
        self.clean += usize::from(!self.dirty && !self.blank);
        self.dirty = false;
        self.blank = true;
    }
}

/// `window` read as UTF-16 in one byte order. A surrogate pair is one
/// character; a lone surrogate is bad, except a high one cut off by the
/// end of the window (as is an odd last byte).
fn read_utf16(window: &[u8], little: bool) -> Reading {
    let units: Vec<u16> = window
        .chunks_exact(2)
        .map(|p| {
            let pair = [p[0], p[1]];
            if little {
                u16::from_le_bytes(pair)
            } else {
                u16::from_be_bytes(pair)
            }
        })
        .collect();
    let mut r = Reading {
        units: units.len(),
        ..Reading::default()
    };
    let mut lines = LineTally::new();
    let mut i = 0;
    while i < units.len() {
        let u = u32::from(units[i]);
        let (c, bad) = match u {
            0xD800..=0xDBFF => match units.get(i + 1).map(|&v| u32::from(v)) {
                Some(low @ 0xDC00..=0xDFFF) => {
                    i += 1;
                    (0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00), false)
                }
                None => break, // cut by the window
                Some(_) => (u, true),
            },
            0xDC00..=0xDFFF => (u, true),
            _ => (u, is_bad_char(u)),
        };
        r.bad += usize::from(bad);
        r.ascii += usize::from(c < 0x80 && !bad);
        lines.unit(c, bad);
        i += 1;
    }
    lines.end();
    r.clean_lines = lines.clean;
    r
}

/// `window` read as 8-bit text (UTF-8, of which ASCII is a part): a byte
/// that is not part of a valid UTF-8 character, or a bad control, is
/// bad; a character cut by the end of the window is not.
fn read_8bit(window: &[u8]) -> Reading {
    let mut r = Reading {
        units: window.len(),
        ..Reading::default()
    };
    let mut lines = LineTally::new();
    let mut rest = window;
    while !rest.is_empty() {
        let (valid, after) = match std::str::from_utf8(rest) {
            Ok(all) => (all, &[][..]),
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                let valid = std::str::from_utf8(valid).expect("valid up to here");
                (valid, after)
            }
        };
        for c in valid.chars() {
            let bad = is_bad_char(u32::from(c));
            r.bad += usize::from(bad);
            r.ascii += usize::from(c.is_ascii() && !bad);
            lines.unit(u32::from(c), bad);
        }
        rest = after;
        if rest.is_empty() {
            break;
        }
        match std::str::from_utf8(rest).unwrap_err().error_len() {
            Some(n) => {
                r.bad += n;
                lines.unit(0, true);
                rest = &rest[n..];
            }
            None => break, // cut by the window
        }
    }
    lines.end();
    r.clean_lines = lines.clean;
    r
}

/// True when `window` (the first decoded bytes of an input, up to
/// [`UTF16_PROBE`] of them) is UTF-16 text. Decided on the window as a
/// whole, never on one line: read as UTF-16 (in the order of its byte
/// order mark, or without one in either order) it must be text (valid
/// surrogate pairs, few controls besides tab, CR and LF) with more clean
/// lines than the same bytes have read as UTF-8 lines; without a byte
/// order mark, at least a quarter of its characters must also be ASCII
/// (what puzzle files are made of, and what garbage read as UTF-16 is
/// not). Such an input would give a row of byte errors per line, so it is
/// refused as a whole instead. A file of 8-bit puzzle lines with NUL
/// bytes (or a UTF-16 fragment) in one line, a comment or junk, is not
/// UTF-16, and neither is binary junk that merely starts with `FF FE`.
pub(super) fn is_utf16(window: &[u8]) -> bool {
    let utf16 = |body: &[u8], little: bool, bom: bool| {
        let wide = read_utf16(body, little);
        let narrow = read_8bit(body);
        wide.is_text()
            && wide.clean_lines > narrow.clean_lines
            && (bom || 4 * wide.ascii >= wide.units)
    };
    match window {
        [0xFF, 0xFE, body @ ..] => utf16(body, true, true),
        [0xFE, 0xFF, body @ ..] => utf16(body, false, true),
        _ => utf16(window, true, false) || utf16(window, false, false),
    }
}

/// Reads from `source` into `head` until it holds `want` bytes or the
/// input ends, however few bytes each read returns (a slow pipe, or a
/// decompressor that has only part of a block yet).
pub(super) fn fill_probe<R: Read>(source: &mut R, want: usize) -> io::Result<Vec<u8>> {
    let mut head = vec![0u8; want];
    let mut len = 0;
    while len < want {
        match source.read(&mut head[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    head.truncate(len);
    Ok(head)
}

/// A buffered source with bytes already read from it put back in front.
pub(super) struct Replay<R> {
    head: Vec<u8>,
    pos: usize,
    inner: R,
}

impl<R> Replay<R> {
    pub(super) fn new(head: Vec<u8>, inner: R) -> Replay<R> {
        Replay {
            head,
            pos: 0,
            inner,
        }
    }
}

impl<R: BufRead> Read for Replay<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Replay<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.head.len() {
            Ok(&self.head[self.pos..])
        } else {
            self.inner.fill_buf()
        }
    }

    fn consume(&mut self, amt: usize) {
        if self.pos < self.head.len() {
            self.pos = (self.pos + amt).min(self.head.len());
            if self.pos == self.head.len() {
                self.head = Vec::new(); // freed once replayed
                self.pos = 0;
            }
        } else {
            self.inner.consume(amt);
        }
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
