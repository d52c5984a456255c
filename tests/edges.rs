//! Input edges through the real binary (issue 19, "nothing vanishes"):
//! one bad first line never decides a file's format, every line ending
//! (`\n`, `\r\n`, a lone `\r`) ends a line, and CSV is RFC 4180 (a quoted
//! field may hold line breaks), counted against the `csv` crate reading
//! the same bytes independently.

use crate::util::{col, run};

const P1: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const P2: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// `solve -q` on `input` (stdin) with `extra` flags: (exit code, header,
/// rows).
fn solve(input: &[u8], extra: &[&str]) -> (i32, Vec<String>, Vec<Vec<String>>) {
    let mut args = vec!["solve", "-q"];
    args.extend_from_slice(extra);
    let r = run(&args, Some(input));
    assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    let (h, rows) = r.csv();
    (r.code, h, rows)
}

fn column(h: &[String], rows: &[Vec<String>], name: &str) -> Vec<String> {
    let i = col(h, name);
    rows.iter().map(|r| r[i].clone()).collect()
}

#[test]
fn cr_only_and_mixed_line_endings_split_records() {
    // Before: 10 puzzles with CR endings gave 1 row, exit 0.
    let cr: String = (0..10).map(|_| format!("{P1}\r")).collect();
    let (code, h, rows) = solve(cr.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 10));
    let lines: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
    assert_eq!(column(&h, &rows, "line"), lines);
    let mixed = format!("{P1}\r{P2}\n{P1}\r\n\r\n# note\r{P2}\n\r{P1}");
    let (code, h, rows) = solve(mixed.as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["1", "2", "3", "6", "8"]);
    // The same in block layout, CR only.
    let block = batchdoku::parse_line(P1.as_bytes())
        .unwrap()
        .to_block_string()
        .replace('\n', "\r");
    let (code, h, rows) = solve(format!("{block}\r{block}").as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["1", "11"]);
}

#[test]
fn the_line_cap_counts_content_and_whitespace_lines_are_blank() {
    // A 4096-byte line (after a BOM, before a CRLF) is within the cap;
    // a whitespace line of 10 KB is blank, not a record.
    let padded = format!("{P1}{}", " ".repeat(4096 - 81));
    let input = format!("\u{feff}{padded}\r\n{}\r\n{P2}\r\n", " \t".repeat(5000));
    let (code, h, rows) = solve(input.as_bytes(), &[]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(column(&h, &rows, "line"), ["1", "3"]);
    let over = format!("{padded} \n{P2}\n");
    let (code, _, rows) = solve(over.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (1, 2));
}

#[test]
fn one_bad_first_line_never_decides_the_format() {
    // Before: a comma made the file CSV (the line vanished as a header),
    // nine cells made it a block file, a number a Luogu file.
    for bad in [
        "oops, a comma",
        "700900001",
        "7 0 0 9 0 0 0 0 1",
        "1234",
        "2",
    ] {
        let input = format!("# preamble\n\n{bad}\n{P1}\n{P2}\n{P1}\n");
        let (code, h, rows) = solve(input.as_bytes(), &[]);
        assert_eq!(code, 1, "{bad}");
        assert_eq!(column(&h, &rows, "line"), ["3", "4", "5", "6"], "{bad}");
        let status = column(&h, &rows, "status");
        assert_eq!(status[0], "invalid", "{bad}");
        assert!(status[1..].iter().all(|s| s != "invalid"), "{bad}");
    }
    // Any amount of leading comment lines (here 200 KB) is skipped.
    let mut input = "# a comment line of some length\n".repeat(6500);
    let block = batchdoku::parse_line(P1.as_bytes())
        .unwrap()
        .to_block_string();
    input.push_str(&block);
    let (_, h, rows) = solve(input.as_bytes(), &[]);
    assert_eq!(column(&h, &rows, "line"), ["6501"]);
    // A one-column CSV named by its header is CSV.
    let (code, h, rows) = solve(format!("puzzle\n{P1}\n{P2}\n").as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["2", "3"]);
}

/// Data records of CSV `bytes`, counted by the `csv` crate (comments and
/// empty lines skipped, as ours are; header excluded).
fn oracle_records(bytes: &[u8]) -> usize {
    csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(bytes)
        .byte_records()
        .count()
}

#[test]
fn csv_quoted_fields_hold_line_breaks() {
    // Before: 3 records gave 5 rows, and a valid puzzle was invalid.
    let input = format!(
        "id,puzzle,note\r\n1,{P1},\"two\nlines\"\r\n2,\"{P2}\",\"a \"\"quoted\"\",\r\n\r\nthree, four\"\n3,{P1},\"x\"\n"
    );
    let (code, h, rows) = solve(input.as_bytes(), &["--keep-columns"]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), oracle_records(input.as_bytes()));
    assert_eq!(rows.len(), 3);
    assert_eq!(column(&h, &rows, "line"), ["2", "4", "7"]);
    // What is inside quotes is data, byte for byte: the CRLFs stay.
    assert_eq!(
        column(&h, &rows, "note")[1],
        "a \"quoted\",\r\n\r\nthree, four"
    );
}

#[test]
fn a_long_csv_header_is_read_whole() {
    // Before: --keep-columns silently dropped the columns past 4 KiB.
    let names: Vec<String> = (0..700).map(|i| format!("column_{i:03}")).collect();
    let input = format!("puzzle,{}\n{P1}{}\n", names.join(","), ",v".repeat(700));
    let (code, h, rows) = solve(input.as_bytes(), &["--keep-columns"]);
    assert_eq!(code, 0);
    assert_eq!(&h[h.len() - 700..], &names[..]);
    assert_eq!(rows[0].last().unwrap(), "v");
}

/// Runs `solve -q -` with `input` written to its stdin one byte per write
/// (with a pause after each of the first 16, so reads return one byte).
fn solve_trickled(input: &[u8]) -> (i32, Vec<Vec<String>>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(crate::util::bin())
        .args(["solve", "-q", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        for (i, b) in input.iter().enumerate() {
            pipe.write_all(&[*b]).unwrap();
            pipe.flush().unwrap();
            if i < 16 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let (_, rows) = crate::util::parse_csv(&out.stdout);
    (out.status.code().unwrap_or(-1), rows)
}

#[test]
fn compressed_input_however_written() {
    let text = format!("{P1}\n{P2}\n{P1}\n");
    let zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    // What pzstd writes: a skippable frame (magic 0x184D2A50) first.
    let skippable = [&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0][..], &[0, 0, 0, 0]].concat();
    let framed = [&skippable[..], &zst, &skippable, &zst].concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("framed.zst");
    std::fs::write(&path, &framed).unwrap();
    let r = run(&["solve", "-q", path.to_str().unwrap()], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 6);
    // The real pzstd, when installed.
    let plain = dir.path().join("p.txt");
    std::fs::write(&plain, text.repeat(50)).unwrap();
    if let Ok(st) = std::process::Command::new("pzstd")
        .args(["-q", "-f", "-p", "2"])
        .arg(&plain)
        .status()
    {
        assert!(st.success());
        let r = run(&["solve", "-q", &format!("{}.zst", plain.display())], None);
        assert_eq!((r.code, r.csv().1.len()), (0, 150), "{}", r.stderr);
    }
    // Stdin delivering one byte per read: gzip, zstd and framed zstd.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    for (name, bytes, rows) in [
        ("gzip", gz, 3),
        ("zstd", zst.clone(), 3),
        ("pzstd", framed, 6),
    ] {
        let (code, got) = solve_trickled(&bytes);
        assert_eq!((code, got.len()), (0, rows), "{name}");
    }
}

/// Distinct puzzles (relabellings of `P1`), one per line.
fn relabelled(count: usize) -> String {
    let mut out = String::new();
    let mut digits: Vec<u8> = (b'1'..=b'9').collect();
    for i in 0..count {
        // Walk through permutations by swaps (all distinct for our counts).
        digits.swap(i % 9, (i / 9 + i) % 9);
        digits.rotate_left(i % 5 + 1);
        let line: String = P1
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => digits[usize::from(b - b'1')] as char,
                _ => '.',
            })
            .collect();
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Waits for `child` at most `secs` seconds (killing it after), so that a
/// hang is a failure rather than a stuck test run.
fn wait_within(mut child: std::process::Child, secs: u64) -> std::process::Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("no exit within {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn two_pass_commands_read_pipes_named_by_path() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{P1}\n{P2}\n{P1}\n");
    let file = dir.path().join("in.txt");
    std::fs::write(&file, &text).unwrap();
    let want = run(&["dedupe", "-q", file.to_str().unwrap()], None);
    assert_eq!((want.code, want.csv().1.len()), (0, 2), "{}", want.stderr);
    // `/dev/stdin` with stdin a pipe. Before: only the header, exit 0.
    let got = run(&["dedupe", "-q", "/dev/stdin"], Some(text.as_bytes()));
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_eq!(got.csv().1, want.csv().1);
    // A named FIFO. Before: a hang.
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let child = Command::new(crate::util::bin())
        .args(["dedupe", "-q"])
        .arg(&fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::fs::write(&fifo, &text).unwrap();
    let out = wait_within(child, 30);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(crate::util::parse_csv(&out.stdout).1, want.csv().1);
    // Process substitution, `<(cat f)`, through bash.
    let script = format!(
        "exec '{}' dedupe -q <(cat '{}')",
        crate::util::bin().display(),
        file.display()
    );
    if let Ok(out) = Command::new("bash").args(["-c", &script]).output() {
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(crate::util::parse_csv(&out.stdout).1, want.csv().1);
    }
}

#[test]
fn a_file_changed_during_a_two_pass_command_is_fatal() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    // The second pass writes far more than a pipe holds, so once its
    // header is read and stdout left unread, the run cannot finish until
    // the file has been changed: no timing involved.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(&file, relabelled(4000)).unwrap();
    let mut child = Command::new(crate::util::bin())
        .args(["dedupe", "--exact", "-q"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    stdout.read_line(&mut header).unwrap();
    assert!(header.contains("puzzle"), "{header}");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    writeln!(f, "{P2}").unwrap();
    drop(f);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let out = wait_within(child, 60);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("changed while being read"), "{stderr}");
}

mod property {
    //! Random byte streams of puzzle lines, comments, blank lines, `end`,
    //! junk, quoted CSV pieces and every mix of line endings, through the
    //! real binary in every output format at `-j 1` and `-j 2`: the rows
    //! out must equal the records counted by the reference readers here,
    //! written from the documented rules and sharing no code with ours.

    use proptest::prelude::*;

    use super::{P1, P2};
    use crate::util::run;

    /// The line endings mixed into every stream.
    fn ending() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["\n", "\r", "\r\n"])
    }

    /// One line of a line-format stream (without its ending).
    fn line_piece() -> impl Strategy<Value = String> {
        let bad = format!("{}x{}", &P1[..40], &P1[41..]);
        prop::sample::select(vec![
            P1.to_string(),
            P2.to_string(),
            format!("{P1} rated 3, hard"),
            format!("  {P2}\t# id 7"),
            bad,
            P1[..60].to_string(),
            "# a comment".to_string(),
            "  # indented, with a comma".to_string(),
            String::new(),
            " \t ".to_string(),
            " ".repeat(5000),
            "end".to_string(),
            "hello, world".to_string(),
            "1234".to_string(),
            "x".repeat(5000),
        ])
    }

    /// One record of a CSV stream with the header `puzzle,note`, or a
    /// blank or comment line between records (without its ending).
    fn csv_piece() -> impl Strategy<Value = String> {
        let puzzle = prop::sample::select(vec![
            P1.to_string(),
            format!("\"{P2}\""),
            format!(" {P1} "),
            "bad".to_string(),
            String::new(),
        ]);
        let note = prop::sample::select(vec![
            "",
            ",x",
            ",\"two\nlines\"",
            ",\"cr\rand\r\ncrlf\"",
            ",\"a \"\"quote\"\", and a comma\"",
            ",\"\n# not a comment\n\n\"",
            ",a,b,c",
        ]);
        prop_oneof![
            4 => (puzzle, note).prop_map(|(p, n)| format!("{p}{n}")),
            1 => prop::sample::select(vec!["", "  ", "# comment, \"unclosed"])
                .prop_map(str::to_string),
        ]
    }

    /// Joins pieces with random endings (the last maybe without one),
    /// after `lead`; `must` (when not empty) is put among them at a random
    /// place.
    fn stream(
        pieces: impl Strategy<Value = String>,
        lead: &'static str,
        must: &'static str,
    ) -> impl Strategy<Value = Vec<u8>> {
        (
            prop::collection::vec((pieces, ending()), 1..40),
            any::<bool>(),
            any::<prop::sample::Index>(),
        )
            .prop_map(move |(mut pieces, last_ended, at)| {
                if !must.is_empty() {
                    let at = at.index(pieces.len() + 1);
                    pieces.insert(at, (must.to_string(), "\n"));
                }
                let mut out = lead.to_string();
                let n = pieces.len();
                for (i, (piece, end)) in pieces.into_iter().enumerate() {
                    out.push_str(&piece);
                    if i + 1 < n || last_ended {
                        out.push_str(end);
                    }
                }
                out.into_bytes()
            })
    }

    /// The lines of `bytes`: split at `\r\n`, `\r` and `\n`.
    fn lines(bytes: &[u8]) -> Vec<&[u8]> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let Some(i) = rest.iter().position(|&b| b == b'\n' || b == b'\r') else {
                out.push(rest);
                break;
            };
            out.push(&rest[..i]);
            let skip = if rest[i..].starts_with(b"\r\n") { 2 } else { 1 };
            rest = &rest[i + skip..];
        }
        out
    }

    fn is_blank(line: &[u8]) -> bool {
        line.trim_ascii().is_empty()
    }

    fn is_comment(line: &[u8]) -> bool {
        line.trim_ascii().starts_with(b"#")
    }

    /// Records of a line-format stream: lines other than blank, comment
    /// and `end` lines.
    fn line_records(bytes: &[u8]) -> usize {
        lines(bytes)
            .into_iter()
            .filter(|l| !(is_blank(l) || is_comment(l) || l.trim_ascii() == b"end"))
            .count()
    }

    /// Records of a CSV stream (header excluded): RFC 4180, a quote
    /// opening a field quotes it until a lone quote; between records,
    /// blank and comment lines are skipped.
    fn csv_records(bytes: &[u8]) -> usize {
        let mut records = 0usize;
        let mut i = 0;
        while i < bytes.len() {
            // At a record's start: skip a blank or comment line whole.
            let end = bytes[i..]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .map_or(bytes.len(), |n| i + n);
            let line = &bytes[i..end];
            if is_blank(line) || is_comment(line) {
                i = end + 1;
                if bytes[end..].starts_with(b"\r\n") {
                    i += 1;
                }
                continue;
            }
            records += 1;
            let mut at_field_start = true;
            let mut quoted = false;
            while i < bytes.len() {
                let b = bytes[i];
                i += 1;
                if quoted {
                    if b == b'"' {
                        if bytes.get(i) == Some(&b'"') {
                            i += 1;
                        } else {
                            quoted = false;
                        }
                    }
                    continue;
                }
                match b {
                    b'"' if at_field_start => quoted = true,
                    b',' => {
                        at_field_start = true;
                        continue;
                    }
                    b'\n' => break,
                    b'\r' => {
                        if bytes.get(i) == Some(&b'\n') {
                            i += 1;
                        }
                        break;
                    }
                    _ => {}
                }
                at_field_start = false;
            }
        }
        records.saturating_sub(1)
    }

    /// Rows the binary writes for `input` in `format` at `threads`.
    fn rows_out(input: &[u8], format: &str, threads: &str) -> usize {
        let r = run(
            &["solve", "-q", "--format", format, "-j", threads, "-"],
            Some(input),
        );
        assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
        match format {
            "csv" => r.csv().1.len(),
            _ => r.stdout.split(|&b| b == b'\n').count() - 1,
        }
    }

    fn check(input: &[u8], want: usize) -> Result<(), TestCaseError> {
        for format in ["csv", "jsonl", "line"] {
            for threads in ["1", "2"] {
                let got = rows_out(input, format, threads);
                prop_assert_eq!(got, want, "{} -j {}", format, threads);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Line streams, with at least one puzzle line somewhere so that
        /// detection has something to weigh.
        #[test]
        fn line_streams_lose_no_record(input in stream(line_piece(), "", P2)) {
            let want = line_records(&input);
            check(&input, want)?;
        }

        #[test]
        fn csv_streams_lose_no_record(input in stream(csv_piece(), "puzzle,note\r\n", "")) {
            let want = csv_records(&input);
            check(&input, want)?;
        }
    }
}
