//! Physical-line reading with a length cap: the one place input bytes are
//! split into lines. Every format reader sits on [`Lines`], so all of them
//! get the same guarantees: bytes not `String` (invalid UTF-8 and NUL are
//! just bytes); `\n`, `\r\n` and a lone `\r` all end a line, mixed freely
//! (old Mac files, and files pasted together from several systems); a
//! final line without an ending is still a line; a UTF-8 BOM on line 1 is
//! dropped; and memory is bounded: a line longer than [`MAX_LINE_BYTES`]
//! keeps only its start and is flagged, but the rest of it is still
//! consumed, so it stays exactly one line.
//!
//! The cap counts a line's content only: not its line ending and not the
//! BOM. A line of nothing but whitespace is blank however long it is.
//!
//! A `\r` ends its line at once, without waiting for the next byte: that
//! a `\n` follows (so the two form one `\r\n` ending) is only settled by
//! the next read, so a reader on a pipe or terminal never stalls a line
//! for want of the byte after it.

use std::io::{self, BufRead};

/// Longest physical line kept, in bytes (content only: without its line
/// ending, and on line 1 without a BOM). Longer lines are read to their
/// end but only this much is kept, and the record they form is rejected
/// with [`super::ParseErrorKind::LineTooLong`].
pub const MAX_LINE_BYTES: usize = 4096;

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Input as seen by the readers: the bytes already looked at by format
/// detection, replayed, then the rest of the caller's reader.
pub(crate) type Source<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// How a call to [`read_line`] left the line it read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineEnd {
    /// Ended by `\n`.
    Newline,
    /// Ended by `\r` (a `\n` right after it, if any, is skipped by the
    /// next read).
    Return,
    /// Ended by the end of the input.
    Eof,
    /// Not ended: the content goes on past the bytes kept, unread.
    Cut,
}

/// Reads the next line of `src`, appending at most `keep` bytes of its
/// content (line ending excluded) to `buf`. Returns `None` at the end of
/// input, else how the line ended; on [`LineEnd::Cut`] the rest of the
/// line is still in `src` (see [`skip_line`]). `after_cr` carries the
/// state between calls: a `\n` right after a `\r` ending is not a line.
pub(crate) fn read_line<R: BufRead>(
    src: &mut R,
    buf: &mut Vec<u8>,
    keep: usize,
    after_cr: &mut bool,
) -> io::Result<Option<LineEnd>> {
    let start = buf.len();
    let mut started = false;
    loop {
        let avail = match src.fill_buf() {
            Ok(avail) => avail,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(started.then_some(LineEnd::Eof));
        }
        if std::mem::take(after_cr) && avail[0] == b'\n' {
            src.consume(1);
            continue;
        }
        started = true;
        let room = keep - (buf.len() - start);
        let window = &avail[..avail.len().min(room.saturating_add(1))];
        match memchr::memchr2(b'\n', b'\r', window) {
            Some(i) => {
                let end = if window[i] == b'\n' {
                    LineEnd::Newline
                } else {
                    *after_cr = true;
                    LineEnd::Return
                };
                buf.extend_from_slice(&window[..i]);
                src.consume(i + 1);
                return Ok(Some(end));
            }
            None if window.len() > room => {
                // One byte of content past the room: the line is cut.
                buf.extend_from_slice(&window[..room]);
                src.consume(room);
                return Ok(Some(LineEnd::Cut));
            }
            None => {
                let n = window.len();
                buf.extend_from_slice(window);
                src.consume(n);
            }
        }
    }
}

/// Consumes the rest of a line cut by [`read_line`], through its line
/// ending, handing every content byte to `spill`; returns how the line
/// ended.
pub(crate) fn skip_line<R: BufRead>(
    src: &mut R,
    after_cr: &mut bool,
    spill: &mut dyn FnMut(&[u8]),
) -> io::Result<LineEnd> {
    loop {
        let avail = match src.fill_buf() {
            Ok([]) => return Ok(LineEnd::Eof),
            Ok(avail) => avail,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        match memchr::memchr2(b'\n', b'\r', avail) {
            Some(i) => {
                if i > 0 {
                    spill(&avail[..i]);
                }
                *after_cr = avail[i] == b'\r';
                let end = if *after_cr {
                    LineEnd::Return
                } else {
                    LineEnd::Newline
                };
                src.consume(i + 1);
                return Ok(end);
            }
            None => {
                let n = avail.len();
                spill(avail);
                src.consume(n);
            }
        }
    }
}

/// The next byte of `rdr`, not consumed (`None` at the end of input).
pub(crate) fn next_byte<R: BufRead>(rdr: &mut R) -> io::Result<Option<u8>> {
    loop {
        match rdr.fill_buf() {
            Ok(avail) => return Ok(avail.first().copied()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
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
    after_cr: bool,
    /// The next line may start with a BOM (it is the input's first).
    bom: bool,
    /// How the current line ended (never [`LineEnd::Cut`]).
    end: LineEnd,
    /// The line before the current one ended with `\r\n` (its `\n` was
    /// read with the current line).
    crlf_before: bool,
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
            after_cr: false,
            bom: true,
            end: LineEnd::Eof,
            crlf_before: false,
        }
    }

    /// Lines of `src` that follow `skipped` lines already read (and, when
    /// `skipped` is not 0, a BOM already dropped).
    pub(crate) fn after(src: Source<R>, skipped: u64) -> Lines<R> {
        let mut lines = Lines::new(src);
        lines.line_no = skipped;
        lines.bom = skipped == 0;
        lines
    }

    /// Sets the cap for the lines read next (`usize::MAX`: none).
    pub(crate) fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// Moves to the next physical line; false at the end of input. A
    /// line longer than the cap keeps its start (see [`Lines::overlong`]);
    /// the rest is read and dropped.
    pub(crate) fn next_line(&mut self) -> io::Result<bool> {
        if self.replay {
            self.replay = false;
            return Ok(true);
        }
        self.buf.clear();
        // Settle the previous line's `\r` here (rather than in
        // `read_line`), to remember whether it was a `\r\n`.
        self.crlf_before = false;
        if std::mem::take(&mut self.after_cr) && next_byte(&mut self.src)? == Some(b'\n') {
            self.src.consume(1);
            self.crlf_before = true;
        }
        let bom = std::mem::take(&mut self.bom);
        let keep = if bom {
            self.cap.saturating_add(BOM.len())
        } else {
            self.cap
        };
        let Some(end) = read_line(&mut self.src, &mut self.buf, keep, &mut self.after_cr)? else {
            return Ok(false);
        };
        self.line_no += 1;
        if bom && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
        }
        let more = self.buf.len() > self.cap || end == LineEnd::Cut;
        let mut blank = true;
        let mut end = end;
        if more {
            blank = is_blank(&self.buf);
            self.buf.truncate(self.cap);
        }
        if end == LineEnd::Cut {
            end = skip_line(&mut self.src, &mut self.after_cr, &mut |chunk| {
                blank &= is_blank(chunk);
            })?;
        }
        // A line of only whitespace is blank at any length.
        self.overlong = more && !blank;
        self.end = end;
        Ok(true)
    }

    /// The current line, without line ending or (on line 1) BOM; only
    /// its first `cap` bytes when [`Lines::overlong`].
    #[inline]
    pub(crate) fn line(&self) -> &[u8] {
        &self.buf
    }

    /// How the current line ended: [`LineEnd::Newline`],
    /// [`LineEnd::Return`] (which may yet prove a `\r\n`: see
    /// [`Lines::crlf_before`]) or [`LineEnd::Eof`].
    #[inline]
    pub(crate) fn ending(&self) -> LineEnd {
        self.end
    }

    /// True when the line before the current one ended with `\r\n`
    /// rather than a lone `\r` (known only once the current line is read,
    /// so that reading never waits for the byte after a `\r`).
    #[inline]
    pub(crate) fn crlf_before(&self) -> bool {
        self.crlf_before
    }

    /// 1-based number of the current line (0 before the first).
    #[inline]
    pub(crate) fn line_no(&self) -> u64 {
        self.line_no
    }

    /// True when the current line was longer than the cap (and is not
    /// blank).
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
    use std::io::{BufReader, Read};

    /// Every line of `bytes` as (number, content, overlong), read through
    /// a buffer of `chunk` bytes (so line endings fall across reads).
    fn lines_in(bytes: &[u8], cap: usize, chunk: usize) -> Vec<(u64, Vec<u8>, bool)> {
        let src = io::Cursor::new(Vec::new()).chain(BufReader::with_capacity(chunk, bytes));
        let mut lines = Lines::with_cap(src, cap);
        let mut out = Vec::new();
        while lines.next_line().unwrap() {
            out.push((lines.line_no(), lines.line().to_vec(), lines.overlong()));
        }
        out
    }

    /// [`lines_in`], checked to be the same for every read size.
    fn lines_of(bytes: &[u8], cap: usize) -> Vec<(u64, Vec<u8>, bool)> {
        let whole = lines_in(bytes, cap, 1 << 16);
        for chunk in [1, 2, 3, 5] {
            assert_eq!(lines_in(bytes, cap, chunk), whole, "read size {chunk}");
        }
        whole
    }

    fn plain(lines: &[&str]) -> Vec<(u64, Vec<u8>, bool)> {
        (1..)
            .zip(lines)
            .map(|(i, l)| (i, l.as_bytes().to_vec(), false))
            .collect()
    }

    #[test]
    fn splits_lf_crlf_and_final_line_without_newline() {
        assert_eq!(
            lines_of(b"ab\r\ncd\n\nef", 16),
            plain(&["ab", "cd", "", "ef"])
        );
        assert_eq!(lines_of(b"x\r", 16), plain(&["x"]));
        assert!(lines_of(b"", 16).is_empty());
    }

    #[test]
    fn a_lone_cr_ends_a_line_and_endings_mix() {
        assert_eq!(lines_of(b"a\rb\rc", 16), plain(&["a", "b", "c"]));
        assert_eq!(
            lines_of(b"a\r\nb\rc\n\rd\r\r\ne\n\n", 16),
            plain(&["a", "b", "c", "", "d", "", "e", ""])
        );
        assert_eq!(lines_of(b"\r\n\r\n", 16), plain(&["", ""]));
        assert_eq!(lines_of(b"\n\r", 16), plain(&["", ""]));
    }

    #[test]
    fn overlong_line_is_one_capped_line() {
        let mut input = vec![b'7'; 100];
        input.extend_from_slice(b"\nnext\n");
        let got = lines_of(&input, 10);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], (1, vec![b'7'; 10], true));
        assert_eq!(got[1], (2, b"next".to_vec(), false));
        // Exactly at the cap is not overlong, whatever ends the line.
        let ten = vec![b'1'; 10];
        for end in [&b"\n"[..], b"\r\n", b"\r"] {
            let input = [&ten[..], end, b"x"].concat();
            let want = vec![(1, ten.clone(), false), (2, b"x".to_vec(), false)];
            assert_eq!(lines_of(&input, 10), want, "{end:?}");
        }
        assert_eq!(lines_of(&ten, 10), vec![(1, ten.clone(), false)]);
        // Overlong final line without newline, and after a CR.
        assert_eq!(lines_of(&[b'2'; 25], 10), vec![(1, vec![b'2'; 10], true)]);
        let got = lines_of(&[&[b'3'; 25][..], b"\rok"].concat(), 10);
        assert_eq!(
            got,
            vec![(1, vec![b'3'; 10], true), (2, b"ok".to_vec(), false)]
        );
    }

    #[test]
    fn the_cap_counts_content_not_the_bom_or_the_line_ending() {
        let full = [b'5'; 10];
        let input = [BOM, &full, b"\r\n", &full, b"\r\n"].concat();
        assert_eq!(
            lines_of(&input, 10),
            vec![(1, full.to_vec(), false), (2, full.to_vec(), false)]
        );
        let input = [&[b'5'; 11][..], b"\r\n"].concat();
        assert_eq!(lines_of(&input, 10), vec![(1, full.to_vec(), true)]);
        // Without a BOM, line 1 gets no extra room.
        let input = [&[b'5'; 12][..], b"\n"].concat();
        assert_eq!(lines_of(&input, 10), vec![(1, full.to_vec(), true)]);
    }

    #[test]
    fn a_line_of_whitespace_is_blank_at_any_length() {
        let input = [&[b' '; 50][..], b"\t\r\n", &[b' '; 50], b"x\nz"].concat();
        let got = lines_of(&input, 10);
        assert_eq!(got.len(), 3);
        assert!(!got[0].2 && is_blank(&got[0].1));
        assert!(got[1].2, "whitespace then text is overlong");
        assert_eq!(got[2], (3, b"z".to_vec(), false));
    }

    #[test]
    fn each_line_knows_its_ending_and_a_crlf_once_the_next_is_read() {
        // (content, ending, the line before ended `\r\n`), every read size.
        let input = [&b"a\r\nb\rc\n"[..], &[b'9'; 20], b"\r\n\re"].concat();
        let want = vec![
            (b"a".to_vec(), LineEnd::Return, false),
            (b"b".to_vec(), LineEnd::Return, true),
            (b"c".to_vec(), LineEnd::Newline, false),
            (vec![b'9'; 4], LineEnd::Return, false),
            (Vec::new(), LineEnd::Return, true),
            (b"e".to_vec(), LineEnd::Eof, false),
        ];
        for chunk in [1, 2, 3, 5, 64] {
            let src =
                io::Cursor::new(Vec::new()).chain(BufReader::with_capacity(chunk, &input[..]));
            let mut lines = Lines::with_cap(src, 4);
            let mut got = Vec::new();
            while lines.next_line().unwrap() {
                got.push((lines.line().to_vec(), lines.ending(), lines.crlf_before()));
            }
            assert_eq!(got, want, "read size {chunk}");
        }
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
        // A CR at the end of the replayed bytes pairs with a LF after.
        let src = io::Cursor::new(b"a\r".to_vec()).chain(&b"\nb"[..]);
        let mut lines = Lines::new(src);
        assert!(lines.next_line().unwrap() && lines.next_line().unwrap());
        assert_eq!((lines.line_no(), lines.line()), (2, &b"b"[..]));
    }

    #[test]
    fn blank_and_comment_lines() {
        assert!(is_blank(b""));
        assert!(is_blank(b" \t\r"));
        assert!(!is_blank(b" x"));
        assert!(is_comment(b"  # note"));
        assert!(!is_comment(b"1#"));
    }
}
