//! Unit tests of opening inputs: the first end of input is final,
//! compression and UTF-16 detection, and files read twice.

use super::fingerprint::PRINT_BLOCK;
use super::magic::{sniff, ZSTD_MAGIC};
use super::*;
use tempfile::NamedTempFile;

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
        reader_of(
            raw,
            &ReadOptions::default(),
            &Arc::default(),
            None,
            None,
            &Arc::default(),
        )
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
