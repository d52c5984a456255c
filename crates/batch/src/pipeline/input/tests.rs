//! Unit tests of opening inputs: the first end of input is final,
//! compression and UTF-16 detection, and files read twice.

use super::fingerprint::PRINT_BLOCK;
use super::magic::{sniff, ZSTD_MAGIC};
use super::*;
use batchdoku_core::testdata::utf16;
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

/// `bytes` gzipped.
fn gzipped(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    io::Write::write_all(&mut gz, bytes).unwrap();
    gz.finish().unwrap()
}

const EASY: &str = batchdoku_core::testdata::EASY;
const HARD: &str = batchdoku_core::testdata::HARD;

/// Puzzle lines (8-bit) after a first line `first`.
fn after_first_line(first: &[u8]) -> Vec<u8> {
    [first, format!("{EASY}\n{HARD}\n{EASY}\n").as_bytes()].concat()
}

#[test]
fn utf16_inputs_are_refused_whole_however_they_arrive() {
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
    let texts = [
        "quizzes,solutions\r\n".to_owned(),
        // Not ASCII first, with a BOM or without: the lines after decide.
        format!("\u{e9}\r\n{EASY}\r\n{HARD}\r\n"),
        format!("数独题集\r\n{EASY}\r\n"),
        format!("\u{1F9E9} puzzles\n{EASY}\n"), // a surrogate pair
        format!("{EASY}\r\n").repeat(20),       // past the probe
    ];
    for text in &texts {
        for (big_endian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
            let bytes = utf16(text, big_endian, bom);
            // Plain or gzipped, read whole or one byte at a time: the
            // decoded bytes decide, the same way.
            for raw in [
                Box::new(io::Cursor::new(bytes.clone())) as Box<dyn Read + Send>,
                Box::new(one_byte(bytes.clone())),
                Box::new(io::Cursor::new(gzipped(&bytes))),
                Box::new(one_byte(gzipped(&bytes))),
            ] {
                let err = open(raw).unwrap_err();
                assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{text:?}");
                assert!(err.to_string().contains("save it as UTF-8"), "{err}");
            }
        }
    }
    // A NUL inside a line is a bad character of its record, and bytes
    // that merely start like a byte order mark are junk: not UTF-16. Nor
    // is a file of 8-bit puzzle lines whose first line (junk, a comment)
    // holds NULs or a UTF-16 fragment.
    let fragment = utf16("# exported by tool", false, false);
    for (text, records) in [
        (&b"..3.2.6..\0..3.5..1\n"[..], 1),
        (b"12", 1),
        (b"", 0),
        (b"\xFF\xFE<script>", 1),
        (b"\xFE\xFF\xFF\xFE", 1),
        (&after_first_line(b"j\0u\0n\0k\0\n"), 4),
        (&after_first_line(b"\0\0\0\0 junk \0\0\n"), 4),
        (&after_first_line(&[&fragment[..], b"\n"].concat()), 3), // a comment
        (&after_first_line(b"\xFF\xFE\0\0binary\n"), 4),
    ] {
        for raw in [
            Box::new(one_byte(text.to_vec())) as Box<dyn Read + Send>,
            Box::new(one_byte(gzipped(text))),
        ] {
            let mut input = open(raw).unwrap();
            let mut record = batchdoku_core::Record::default();
            let (mut n, mut valid) = (0, 0);
            while input.read_record(&mut record).unwrap() {
                n += 1;
                valid += usize::from(record.puzzle.is_ok());
            }
            // Every record is read (the probe replayed), the puzzles valid.
            assert_eq!(n, records, "{text:?}");
            assert_eq!(valid, if records > 2 { 3 } else { 0 }, "{text:?}");
        }
    }
}

#[test]
fn utf16_is_weighed_over_the_window() {
    use super::magic::is_utf16;
    let puzzles = after_first_line(b"");
    // 8-bit puzzle lines, whatever one line holds.
    assert!(!is_utf16(&puzzles));
    assert!(!is_utf16(&after_first_line(b"a\0b\0c\0d\0e\0f\0\n")));
    // UTF-16 with its lines: with a BOM, text is enough; without, its
    // characters must also be ASCII in good part.
    let cjk = "数独题集，第一卷\n".repeat(8);
    assert!(is_utf16(&utf16(&cjk, false, true)));
    assert!(is_utf16(&utf16(&cjk, true, true)));
    assert!(!is_utf16(&utf16(&cjk, false, false)), "no BOM, no ASCII");
    assert!(is_utf16(&utf16(
        &format!("{cjk}{EASY}\n{HARD}\n"),
        false,
        false
    )));
    // A lone surrogate or controls in numbers are not text.
    let mut lone = utf16(&format!("{EASY}\n"), false, true);
    for i in (2..lone.len()).step_by(8) {
        lone[i..i + 2].copy_from_slice(&0xD800u16.to_le_bytes());
    }
    assert!(!is_utf16(&lone));
    // A high surrogate cut by the window is not held against it.
    let cut = utf16(&format!("{EASY}\n\u{1F9E9}"), false, true);
    assert!(is_utf16(&cut[..cut.len() - 2]));
}

#[test]
fn a_probe_is_replayed_before_the_rest() {
    use super::magic::{fill_probe, Replay};
    let bytes: Vec<u8> = (0..=255u8).cycle().take(2000).collect();
    let mut slow = io::BufReader::new(one_byte(bytes.clone()));
    let probe = fill_probe(&mut slow, UTF16_PROBE).unwrap();
    assert_eq!(probe.len(), UTF16_PROBE, "filled whatever the read sizes");
    let mut again = Vec::new();
    Replay::new(probe, slow).read_to_end(&mut again).unwrap();
    assert_eq!(again, bytes);
    let mut short = io::BufReader::new(one_byte(b"abc".to_vec()));
    assert_eq!(fill_probe(&mut short, UTF16_PROBE).unwrap(), b"abc");
}

#[test]
fn sniffs_magic_bytes() {
    assert_eq!(sniff(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
    assert_eq!(sniff(&[0x28, 0xb5, 0x2f, 0xfd]), Compression::Zstd);
    assert_eq!(sniff(b"..3.2.6"), Compression::None);
    assert_eq!(sniff(b""), Compression::None);
}

/// The error of opening `bytes` as the input `name`.
#[cfg(any(not(feature = "zstd"), not(feature = "parquet")))]
fn open_error(bytes: &[u8], name: &str) -> io::Error {
    let raw = Box::new(std::io::Cursor::new(bytes.to_vec()));
    let options = ReadOptions::default();
    match wrap(raw, Arc::from(name), None, &options, Arc::default(), None) {
        Ok(_) => panic!("opening {name} succeeds"),
        Err(e) => e,
    }
}

#[cfg(not(feature = "zstd"))]
#[test]
fn zstd_input_without_the_feature_is_a_clear_error() {
    let err = open_error(&[0x28, 0xb5, 0x2f, 0xfd, 0, 0], "x.zst");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported);
    assert!(err.to_string().contains("`zstd` feature"), "{err}");
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_input_without_the_feature_is_a_clear_error() {
    let err = open_error(b"PAR1\x15\x04\x15", "x.parquet");
    assert_eq!(err.kind(), io::ErrorKind::Unsupported);
    assert!(err.to_string().contains("`parquet` feature"), "{err}");
}

/// Other binary formats are told by their magic bytes; text that merely
/// starts with the letters of a textual magic (`ORC`, `BZh`) is not one.
#[test]
fn other_binary_formats_are_named() {
    use super::magic::other_binary;
    let cases: [(&[u8], &str); 10] = [
        (b"PK\x03\x04\x14\x00\x06\x00", "ZIP"),
        (b"ARROW1\0\0\xff\xff", "Arrow"),
        (b"ORC\x1d\x00\x00\x0a\x0c\x0a", "ORC"),
        (b"SQLite format 3\0\x10\x00", "SQLite"),
        (b"%PDF-1.7\n%\xe2\xe3", "PDF"),
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "PNG"),
        (b"7z\xbc\xaf\x27\x1c\x00\x04", "7z"),
        (b"\xfd7zXZ\x00\x00\x04\xe6", "xz"),
        (b"BZh91AY&SY\x8c\x1b", "bzip2"),
        (b"BZh9\x17rE8P\x90\0\0\0\0", "bzip2"),
    ];
    for (bytes, what) in cases {
        let (said, _) = other_binary(bytes).unwrap_or_else(|| panic!("{what} not told"));
        assert!(said.contains(what), "{what}: {said}");
    }
    for text in [
        &b"ORCHARD,puzzle\n1,..3.2.6..\n"[..],
        b"BZh is a header\n",
        b"puzzle\n..3.2.6..9..3.5..1\n",
        b"PAR1",
        b"",
    ] {
        assert_eq!(
            other_binary(text),
            None,
            "{:?}",
            String::from_utf8_lossy(text)
        );
    }
}
