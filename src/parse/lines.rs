//! Physical-line reading with a length cap: the one place input bytes are
//! split into lines. Every format reader sits on [`Lines`], so all of them
//! get the same guarantees: bytes not `String` (invalid UTF-8 and NUL are
//! just bytes), `\r\n` and a final line without newline handled, a UTF-8
//! BOM on line 1 dropped, and bounded memory — a line longer than
//! [`MAX_LINE_BYTES`] keeps only its start and is flagged, but the rest of
//! it is still consumed, so it stays exactly one line.

use std::io::{self, BufRead, Read};

/// Longest physical line kept, in bytes (without the newline). Longer lines
/// are read to their end but only this much is kept, and the record they
/// form is rejected with [`super::ParseErrorKind::LineTooLong`].
pub const MAX_LINE_BYTES: usize = 4096;

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Input as seen by the readers: the bytes already looked at by format
/// detection, replayed, then the rest of the caller's reader.
pub(crate) type Source<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// Appends the next line of `src` to `buf`, raw (newline included when
/// present), reading at most `cap + 1` bytes. Returns the bytes read (0 at
/// end of input). When the result is `cap + 1` bytes without a newline the
/// line is longer than `cap` and its rest is still unread.
pub(crate) fn read_line_prefix<R: BufRead>(
    src: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<usize> {
    // `read_until` uses a fast byte search and retries `Interrupted`.
    src.by_ref().take(cap as u64 + 1).read_until(b'\n', buf)
}

/// Consumes bytes up to and including the next newline (or to the end of
/// input), keeping none of them.
pub(crate) fn skip_rest_of_line<R: BufRead>(src: &mut R) -> io::Result<()> {
    loop {
        let (found, len) = match src.fill_buf() {
            Ok([]) => return Ok(()),
            Ok(avail) => match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (true, i + 1),
                None => (false, avail.len()),
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        src.consume(len);
        if found {
            return Ok(());
        }
    }
}

/// Strips one trailing `\n` and then one trailing `\r`.
#[inline]
pub(crate) fn strip_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// True for a line that is empty or only ASCII whitespace.
#[inline]
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// True for a comment line: its first non-whitespace byte is `#`.
#[inline]
pub(crate) fn is_comment(line: &[u8]) -> bool {
    line.trim_ascii_start().first() == Some(&b'#')
}

/// A reader of capped physical lines with 1-based numbering and one line
/// of push-back. The current line lives in a buffer reused for every line.
pub(crate) struct Lines<R> {
    src: Source<R>,
    buf: Vec<u8>,
    line_no: u64,
    overlong: bool,
    replay: bool,
    cap: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `src`, each capped at [`MAX_LINE_BYTES`].
    pub(crate) fn new(src: Source<R>) -> Lines<R> {
        Lines::with_cap(src, MAX_LINE_BYTES)
    }

    /// Lines of `src`, each capped at `cap` bytes (tests use small caps).
    pub(crate) fn with_cap(src: Source<R>, cap: usize) -> Lines<R> {
        Lines {
            src,
            buf: Vec::with_capacity(128),
            line_no: 0,
            overlong: false,
            replay: false,
            cap,
        }
    }

    /// Moves to the next physical line; false at the end of input.
    pub(crate) fn next_line(&mut self) -> io::Result<bool> {
        if self.replay {
            self.replay = false;
            return Ok(true);
        }
        self.buf.clear();
        let n = read_line_prefix(&mut self.src, &mut self.buf, self.cap)?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        self.overlong = false;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        } else if self.buf.len() > self.cap {
            self.buf.truncate(self.cap);
            self.overlong = true;
            skip_rest_of_line(&mut self.src)?;
        } else if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.line_no == 1 && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
        }
        Ok(true)
    }

    /// The current line, without newline, `\r` or (on line 1) BOM; only
    /// its first `cap` bytes when [`Lines::overlong`].
    #[inline]
    pub(crate) fn line(&self) -> &[u8] {
        &self.buf
    }

    /// 1-based number of the current line (0 before the first).
    #[inline]
    pub(crate) fn line_no(&self) -> u64 {
        self.line_no
    }

    /// True when the current line was longer than the cap.
    #[inline]
    pub(crate) fn overlong(&self) -> bool {
        self.overlong
    }

    /// Makes the next [`Lines::next_line`] return the current line again.
    pub(crate) fn push_back(&mut self) {
        self.replay = true;
    }

    /// Capacity of the line buffer (tests check memory stays bounded).
    #[cfg(test)]
    pub(crate) fn buf_capacity(&self) -> usize {
        self.buf.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8], cap: usize) -> Vec<(u64, Vec<u8>, bool)> {
        let src = io::Cursor::new(Vec::new()).chain(bytes);
        let mut lines = Lines::with_cap(src, cap);
        let mut out = Vec::new();
        while lines.next_line().unwrap() {
            out.push((lines.line_no(), lines.line().to_vec(), lines.overlong()));
        }
        out
    }

    #[test]
    fn splits_lf_crlf_and_final_line_without_newline() {
        let got = lines_of(b"ab\r\ncd\n\nef", 16);
        let want: Vec<(u64, Vec<u8>, bool)> = vec![
            (1, b"ab".to_vec(), false),
            (2, b"cd".to_vec(), false),
            (3, b"".to_vec(), false),
            (4, b"ef".to_vec(), false),
        ];
        assert_eq!(got, want);
        assert_eq!(lines_of(b"x\r", 16), vec![(1, b"x".to_vec(), false)]);
        assert!(lines_of(b"", 16).is_empty());
    }

    #[test]
    fn overlong_line_is_one_capped_line() {
        let mut input = vec![b'7'; 100];
        input.extend_from_slice(b"\nnext\n");
        let got = lines_of(&input, 10);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], (1, vec![b'7'; 10], true));
        assert_eq!(got[1], (2, b"next".to_vec(), false));
        // Exactly at the cap is not overlong, with or without newline.
        assert_eq!(lines_of(&[b'1'; 10], 10), vec![(1, vec![b'1'; 10], false)]);
        let mut exact = vec![b'1'; 10];
        exact.push(b'\n');
        assert_eq!(lines_of(&exact, 10), vec![(1, vec![b'1'; 10], false)]);
        // Overlong final line without newline.
        assert_eq!(lines_of(&[b'2'; 25], 10), vec![(1, vec![b'2'; 10], true)]);
    }

    #[test]
    fn bom_dropped_only_on_first_line() {
        let got = lines_of(b"\xEF\xBB\xBFab\n\xEF\xBB\xBFcd\n", 16);
        assert_eq!(got[0].1, b"ab");
        assert_eq!(got[1].1, b"\xEF\xBB\xBFcd");
    }

    #[test]
    fn replays_lookahead_then_reader_and_pushes_back() {
        let src = io::Cursor::new(b"one\ntw".to_vec()).chain(&b"o\nthree"[..]);
        let mut lines = Lines::with_cap(src, 16);
        assert!(lines.next_line().unwrap());
        assert_eq!(lines.line(), b"one");
        assert!(lines.next_line().unwrap());
        assert_eq!(lines.line(), b"two");
        lines.push_back();
        assert!(lines.next_line().unwrap());
        assert_eq!((lines.line_no(), lines.line()), (2, &b"two"[..]));
        assert!(lines.next_line().unwrap());
        assert_eq!((lines.line_no(), lines.line()), (3, &b"three"[..]));
        assert!(!lines.next_line().unwrap());
        assert!(!lines.next_line().unwrap());
    }

    #[test]
    fn blank_and_comment_lines() {
        assert!(is_blank(b""));
        assert!(is_blank(b" \t\r"));
        assert!(!is_blank(b" x"));
        assert!(is_comment(b"  # note"));
        assert!(!is_comment(b"1#"));
        assert_eq!(strip_eol(b"a\r\n"), b"a");
        assert_eq!(strip_eol(b"a\n"), b"a");
        assert_eq!(strip_eol(b"a"), b"a");
    }
}
