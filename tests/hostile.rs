//! Hostile inputs through the real binary, generated in a temporary
//! directory: binary junk, a 10 MB line without a newline, NUL bytes,
//! invalid UTF-8, CRLF, a BOM, mixed blank characters, a CSV with missing
//! columns, a Luogu (P10481) count promising more grids than exist, a POJ
//! 3074 file without its `end` line, corrupt compressed data.
//!
//! Each must give the right `invalid` rows or a clean fatal error, never a
//! panic, and never a silently skipped record: the records are counted
//! here independently of the reader (from the bytes written) and must
//! equal the rows written, with the right line numbers and exit code.
//! `tests/formats.rs` covers the format fixtures; these extend it.

use std::path::{Path, PathBuf};

use batchdoku::Rng;

use crate::util::*;

const P1: &[u8] =
    b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const P2: &[u8] =
    b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const S1: &[u8] =
    b"483921657967345821251876493548132976729564138136798245372689514814253769695417382";

/// The reader's line cap (a longer line is one invalid record).
/// The longest line a record may have, as the README documents it.
const CAP: usize = 4096;

/// One run of `solve` on a generated file.
struct Solved {
    code: i32,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    stderr: String,
}

impl Solved {
    fn column(&self, name: &str) -> Vec<&str> {
        let i = col(&self.header, name);
        self.rows.iter().map(|r| r[i].as_str()).collect()
    }
}

/// Writes `bytes` to `dir/name`.
fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs `solve -q -k 2 <extra> <path>`; checks nothing panicked.
fn solve(path: &Path, extra: &[&str]) -> Solved {
    let mut args = vec!["solve", "-q", "-k", "2"];
    args.extend_from_slice(extra);
    let r = run_paths(&args, &[path]);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let (header, rows) = if r.stdout.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        r.csv()
    };
    Solved {
        code: r.code,
        header,
        rows,
        stderr: r.stderr,
    }
}

/// The physical lines of `bytes`, split at every line ending: `\n`,
/// `\r\n` and a lone `\r` (a final line without one counts too).
pub fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                lines.push(&bytes[start..i]);
                start = i + 1;
            }
            b'\r' => {
                lines.push(&bytes[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        lines.push(&bytes[start..]);
    }
    lines
}

/// Records of a line-format input, counted from its bytes by the
/// documented rule: every physical line is a record except blank lines
/// (whitespace only, at any length), lines whose first non-blank byte is
/// `#`, and `end` lines; a line over the cap is a record unless it is
/// blank or starts with `#`. Returns the 1-based line numbers of the
/// records.
fn line_records(bytes: &[u8]) -> Vec<u64> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut records = Vec::new();
    for (i, line) in split_lines(bytes).iter().enumerate() {
        let t = line.trim_ascii();
        let comment = t.first() == Some(&b'#');
        let skipped = if line.len() > CAP {
            comment || t.is_empty()
        } else {
            t.is_empty() || comment || t == b"end"
        };
        if !skipped {
            records.push(i as u64 + 1);
        }
    }
    records
}

/// Checks rows against independently counted records: one row per record,
/// in order, at the record's line.
fn assert_rows_match(out: &Solved, records: &[u64]) {
    let lines: Vec<u64> = out
        .column("line")
        .iter()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(lines, records, "rows vs records");
    let index: Vec<String> = out.column("index").iter().map(|s| s.to_string()).collect();
    let want: Vec<String> = (1..=records.len()).map(|i| i.to_string()).collect();
    assert_eq!(index, want, "rows in input order");
}

/// Every row is either invalid with an error, or valid with a checked
/// solution; returns the number of invalid rows.
fn check_row_statuses(out: &Solved) -> usize {
    let mut invalid = 0;
    for row in &out.rows {
        match row[col(&out.header, "status")].as_str() {
            "invalid" => {
                invalid += 1;
                assert!(!row[col(&out.header, "error")].is_empty(), "{row:?}");
            }
            "unsolvable" => {}
            _ => assert_solves(
                &row[col(&out.header, "puzzle")],
                &row[col(&out.header, "solution")],
            ),
        }
    }
    invalid
}

/// The exit code a complete run must have: 1 with invalid rows, else 0.
fn assert_exit_code(out: &Solved, invalid: usize) {
    let want = if invalid > 0 { 1 } else { 0 };
    assert_eq!(out.code, want, "{invalid} invalid rows; {}", out.stderr);
}

#[test]
fn binary_junk_with_puzzles_inside_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(0x8);
    let mut bytes = Vec::new();
    let mut planted = Vec::new();
    for i in 0..400 {
        let len = rng.below(600) as usize;
        bytes.extend((0..len).map(|_| rng.below(256) as u8));
        bytes.push(b'\n');
        if i % 10 == 0 {
            // A puzzle on a line of its own: it must come out solved.
            bytes.extend_from_slice(P1);
            bytes.push(b'\n');
            planted.push(split_lines(&bytes).len() as u64);
        }
    }
    let path = write(dir.path(), "junk.bin", &bytes);
    let records = line_records(&bytes);
    let forced = solve(&path, &["--input-format", "line"]);
    assert_rows_match(&forced, &records);
    let invalid = check_row_statuses(&forced);
    assert_exit_code(&forced, invalid);
    assert!(invalid > 300, "junk lines are invalid records");
    for line in planted {
        let i = records.iter().position(|&r| r == line).unwrap();
        assert_eq!(forced.rows[i][col(&forced.header, "status")], "unique");
    }
    // Detection reads binary junk as lines too.
    let auto = solve(&path, &[]);
    assert_eq!(auto.rows, forced.rows);
    assert_eq!(auto.code, forced.code);
}

#[test]
fn ten_megabyte_line_without_newline_is_one_invalid_record() {
    let dir = tempfile::tempdir().unwrap();
    let long = vec![b'1'; 10 << 20];
    let alone = write(dir.path(), "long.txt", &long);
    let out = solve(&alone, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_rows_match(&out, &[1]);
    assert!(out.rows[0][col(&out.header, "error")].contains("line longer than"));

    // Between good lines, in every line-based layout, it spoils only
    // itself; the final line has no newline.
    let mut lines = [P1, b"\n", &long, b"\n", P2].concat();
    let path = write(dir.path(), "between.txt", &lines);
    let out = solve(&path, &[]);
    assert_rows_match(&out, &line_records(&lines));
    assert_eq!(out.column("status"), ["unique", "invalid", "unique"]);
    assert_exit_code(&out, 1);

    // Three columns, none a solution: rows need only the puzzle.
    lines.splice(0..0, b"puzzle,rating,source\n".iter().copied());
    let path = write(dir.path(), "between.csv", &lines);
    let out = solve(&path, &[]);
    assert_eq!(out.column("line"), ["2", "3", "4"]);
    assert_eq!(out.column("status"), ["unique", "invalid", "unique"]);
    assert_eq!(out.code, 1);

    // As a row of a block grid: that grid is invalid, the next one fine.
    let grid = to_block(P1);
    let mut block = [&grid[..18], &long, b"\n", &grid[36..]].concat();
    block.extend_from_slice(b"\n");
    block.extend_from_slice(&grid);
    let path = write(dir.path(), "block.txt", &block);
    let out = solve(&path, &["--input-format", "block"]);
    assert_eq!(out.column("line"), ["1", "11"]);
    assert_eq!(out.column("status"), ["invalid", "unique"]);
    assert_eq!(out.code, 1);
}

/// The NOIP block layout of a line-form puzzle: nine rows of nine digits
/// separated by spaces, `0` for blanks (`Grid::to_block_string`).
fn to_block(line: &[u8]) -> Vec<u8> {
    batchdoku::parse_line(line)
        .expect("test puzzles are well-formed")
        .to_block_string()
        .into_bytes()
}

#[test]
fn nul_bytes_are_bad_characters_not_terminators() {
    let dir = tempfile::tempdir().unwrap();
    let mut nul_inside = P1.to_vec();
    nul_inside[11] = 0;
    let lines: Vec<Vec<u8>> = vec![
        nul_inside,
        vec![0; 100],
        vec![0],
        [P1, b" \0\0 tail"].concat(), // after a separator: ignored text
        [P1, b"\0"].concat(),         // not a separator: bad character
        [b"\0", P1].concat(),
        P2.to_vec(),
    ];
    let bytes = lines.join(&b'\n');
    let path = write(dir.path(), "nul.txt", &bytes);
    let out = solve(&path, &[]);
    assert_rows_match(&out, &line_records(&bytes));
    assert_eq!(
        out.column("status"),
        ["invalid", "invalid", "invalid", "unique", "invalid", "invalid", "unique"]
    );
    let errors = out.column("error");
    assert!(
        errors[0].ends_with("bad byte 0x00 at column 12"),
        "{errors:?}"
    );
    assert!(
        errors[4].ends_with("bad byte 0x00 at column 82"),
        "{errors:?}"
    );
    assert_exit_code(&out, 4);

    // NUL in a CSV field and in a block row.
    let csv = [b"puzzle,solution\n", P1, b",\0\n", P1, b",", S1, b"\n"].concat();
    let out = solve(&write(dir.path(), "nul.csv", &csv), &[]);
    assert_eq!(out.column("line"), ["2", "3"]);
    assert_eq!(out.column("status"), ["invalid", "unique"]);
    assert_eq!(out.column("expected"), ["", "match"]);
    let mut block = to_block(P1);
    block[20] = 0;
    let out = solve(&write(dir.path(), "nul_block.txt", &block), &[]);
    assert_eq!(out.column("status"), ["invalid"]);
    assert!(out.column("error")[0].contains("byte 0x00"));
}

#[test]
fn invalid_utf8_is_reported_or_carried_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let mut bad_cell = P1.to_vec();
    bad_cell[4] = 0xC3;
    bad_cell[5] = 0x28;
    let bytes = [
        &bad_cell[..],
        b"\n",
        P1,
        b" \xff\xfe\xc3(\n",
        b"\xed\xa0\x80\xf4\x90\x80\x80\n",
        P2,
        b"\n",
    ]
    .concat();
    let path = write(dir.path(), "utf8.txt", &bytes);
    let out = solve(&path, &[]);
    assert_rows_match(&out, &line_records(&bytes));
    assert_eq!(
        out.column("status"),
        ["invalid", "unique", "invalid", "unique"]
    );
    assert!(out.column("error")[0].ends_with("bad byte 0xc3 at column 5"));
    assert_exit_code(&out, 2);

    // --keep-trailing: CSV carries the bytes as they were; JSON Lines
    // stays valid UTF-8 (invalid sequences become U+FFFD).
    let r = run_paths(&["solve", "-q", "--keep-trailing", "--no-header"], &[&path]);
    assert!(r.stdout.windows(4).any(|w| w == b"\xff\xfe\xc3("));
    let r = run_paths(
        &["solve", "-q", "--keep-trailing", "--format", "jsonl"],
        &[&path],
    );
    let text = std::str::from_utf8(&r.stdout).expect("JSON Lines output is UTF-8");
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["trailing"], "\u{fffd}\u{fffd}\u{fffd}(");
}

#[test]
fn crlf_everywhere_in_every_layout() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = |s: &[u8]| -> Vec<u8> {
        let mut out = Vec::new();
        for &b in s {
            if b == b'\n' {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    };
    // Line format: blank, comment and `end` lines in CRLF, a final line
    // ending in a bare `\r`.
    let text = [b"# c\n\n", P1, b"\nend\n  \n", P2, b"\n12\n", P1].concat();
    let bytes = [crlf(&text), b"\r".to_vec()].concat();
    let path = write(dir.path(), "crlf.txt", &bytes);
    let out = solve(&path, &[]);
    assert_rows_match(&out, &line_records(&bytes));
    assert_eq!(
        out.column("status"),
        ["unique", "unique", "invalid", "unique"]
    );
    assert_exit_code(&out, 1);

    let csv = crlf(
        &[
            b"quizzes,solutions\n",
            P1,
            b",",
            S1,
            b"\n\n",
            P2,
            b",",
            S1,
            b"\n",
        ]
        .concat(),
    );
    let out = solve(&write(dir.path(), "crlf.csv", &csv), &[]);
    assert_eq!(out.column("line"), ["2", "4"]);
    assert_eq!(out.column("expected"), ["match", "mismatch"]);

    let luogu = crlf(&[&b"2\n"[..], &to_block(P1), b"\n", &to_block(P2)].concat());
    let out = solve(&write(dir.path(), "crlf_luogu.txt", &luogu), &[]);
    assert_eq!(out.column("line"), ["2", "12"]);
    assert_eq!(out.column("status"), ["unique", "unique"]);
    assert_eq!(out.code, 0);
}

#[test]
fn byte_order_mark_on_every_layout() {
    let dir = tempfile::tempdir().unwrap();
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    // (name, input, lines of the rows, statuses of the rows)
    type Case = (&'static str, Vec<u8>, Vec<&'static str>, Vec<&'static str>);
    let cases: Vec<Case> = vec![
        (
            "line",
            [BOM, P1, b"\n", P2].concat(),
            vec!["1", "2"],
            vec!["unique"; 2],
        ),
        (
            "comment",
            [BOM, b"# x\n", P1, b"\n"].concat(),
            vec!["2"],
            vec!["unique"],
        ),
        (
            "csv",
            [BOM, b"quizzes,solutions\n", P1, b",", S1, b"\n"].concat(),
            vec!["2"],
            vec!["unique"],
        ),
        (
            "luogu",
            [BOM, b"1\n", &to_block(P1)].concat(),
            vec!["2"],
            vec!["unique"],
        ),
        (
            "block",
            [BOM, &to_block(P2)[..]].concat(),
            vec!["1"],
            vec!["unique"],
        ),
        // A BOM anywhere else is just bad bytes.
        (
            "mid-file",
            [P1, b"\n", BOM, P2, b"\n"].concat(),
            vec!["1", "2"],
            vec!["unique", "invalid"],
        ),
    ];
    for (name, bytes, lines, statuses) in cases {
        let out = solve(&write(dir.path(), name, &bytes), &[]);
        assert_eq!(out.column("line"), lines, "{name}");
        assert_eq!(out.column("status"), statuses, "{name}");
        if name == "csv" {
            assert_eq!(out.column("expected"), ["match"], "BOM hid the header");
        }
        let invalid = statuses.iter().filter(|s| **s == "invalid").count();
        assert_exit_code(&out, invalid);
    }
}

#[test]
fn every_blank_character_mixed_within_and_across_lines() {
    let dir = tempfile::tempdir().unwrap();
    let blanks = b".0-_*";
    let mut bytes = Vec::new();
    for shift in 0..blanks.len() {
        for (i, &b) in P1.iter().enumerate() {
            bytes.push(if b == b'.' {
                blanks[(i + shift) % blanks.len()]
            } else {
                b
            });
        }
        bytes.push(b'\n');
    }
    // One blank character per line, too.
    for &blank in blanks {
        bytes.extend(P2.iter().map(|&b| if b == b'.' { blank } else { b }));
        bytes.push(b'\n');
    }
    let out = solve(&write(dir.path(), "blanks.txt", &bytes), &[]);
    assert_rows_match(&out, &line_records(&bytes));
    let puzzles = out.column("puzzle");
    let p1 = std::str::from_utf8(P1).unwrap();
    let p2 = std::str::from_utf8(P2).unwrap();
    assert_eq!(puzzles[..5], [p1; 5], "blanks are written as '.'");
    assert_eq!(puzzles[5..], [p2; 5]);
    assert_eq!(out.column("solution")[0], std::str::from_utf8(S1).unwrap());
    assert_eq!(check_row_statuses(&out), 0);
    assert_eq!(out.code, 0);
}

#[test]
fn kaggle_csv_with_missing_columns() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = [
        &b"quizzes,solutions\n"[..],
        P1,
        b",",
        S1,
        b"\n",
        P1,
        b"\n", // no solution column
        b",",
        S1,
        b"\n", // empty puzzle
        P1,
        b",\n", // empty solution: no expected solution, the puzzle is fine
        b"\"",
        P1,
        b"\",\"",
        S1,
        b"\"\n", // quoted: fine
        b"\n# comment\n",
        P2,
        b",",
        &S1[..40],
        b"\n", // short solution
    ]
    .concat();
    let out = solve(&write(dir.path(), "missing.csv", &bytes), &[]);
    // Every non-blank, non-comment line after the header is a record.
    assert_eq!(out.column("line"), ["2", "3", "4", "5", "6", "9"]);
    assert_eq!(
        out.column("status"),
        ["unique", "invalid", "invalid", "unique", "unique", "invalid"]
    );
    assert_eq!(out.column("expected")[3], "");
    let errors = out.column("error");
    assert!(errors[1].contains("missing CSV column 2"), "{errors:?}");
    assert!(errors[2].contains("empty record"), "{errors:?}");
    assert!(errors[5].contains("expected 81 cells"), "{errors:?}");
    assert_eq!(out.code, 1);

    // The puzzle column itself missing from a row.
    let bytes = [
        &b"id,puzzle,solution\n1,"[..],
        P1,
        b",",
        S1,
        b"\n2\n3,",
        P2,
        b"\n",
    ]
    .concat();
    let out = solve(&write(dir.path(), "no_puzzle.csv", &bytes), &[]);
    assert_eq!(out.column("line"), ["2", "3", "4"]);
    assert_eq!(out.column("status"), ["unique", "invalid", "invalid"]);
    assert!(out.column("error")[1].contains("missing CSV column 2"));
    assert!(out.column("error")[2].contains("missing CSV column 3"));

    // A header and nothing else: no rows, not an error.
    let out = solve(
        &write(dir.path(), "header.csv", b"quizzes,solutions\n"),
        &[],
    );
    assert!(out.rows.is_empty());
    assert_eq!(out.code, 0);
}

#[test]
fn luogu_counts_that_lie() {
    let dir = tempfile::tempdir().unwrap();
    let two = [to_block(P1), b"\n".to_vec(), to_block(P2)].concat();
    // Promises more than it has: one extra invalid record says so.
    let out = solve(
        &write(dir.path(), "more.txt", &[b"5\n", &two[..]].concat()),
        &[],
    );
    assert_eq!(out.column("line"), ["2", "12", "1"]);
    assert_eq!(out.column("status"), ["unique", "unique", "invalid"]);
    assert!(out.column("error")[2].contains("input ends after 2 of 5 promised grids"));
    assert_eq!(out.code, 1);
    // The largest count and no grid at all.
    let out = solve(&write(dir.path(), "huge.txt", b"99999999\n"), &[]);
    assert_eq!(out.column("status"), ["invalid"]);
    assert!(out.column("error")[0].contains("0 of 99999999"));
    // Promises fewer: the extra grid is still read, not dropped.
    let out = solve(
        &write(dir.path(), "fewer.txt", &[b"1\n", &two[..]].concat()),
        &[],
    );
    assert_eq!(out.column("status"), ["unique", "unique"]);
    assert_eq!(out.code, 0);
    // The last grid cut short: a truncated grid, then the shortfall (the
    // truncated grid counts as found).
    let cut = [b"4\n", &two[..], b"\n", &to_block(P1)[..4 * 18]].concat();
    let out = solve(&write(dir.path(), "cut.txt", &cut), &[]);
    assert_eq!(out.column("line"), ["2", "12", "22", "1"]);
    assert_eq!(
        out.column("status"),
        ["unique", "unique", "invalid", "invalid"]
    );
    assert!(out.column("error")[2].contains("cut short after 4 of 9 rows"));
    assert!(out.column("error")[3].contains("3 of 4 promised"));
}

#[test]
fn poj_file_without_end_line_and_with_junk_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let no_end = [P1, b"\n", P2, b"\n", P1].concat(); // no final newline either
    let path = write(dir.path(), "no_end.txt", &no_end);
    for forced in [&[][..], &["--input-format", "poj"][..]] {
        let out = solve(&path, forced);
        assert_rows_match(&out, &line_records(&no_end));
        assert_eq!(out.column("status"), ["unique"; 3]);
        assert_eq!(out.code, 0);
    }
    // `end` with CRLF and trailing blanks still ends a POJ file.
    let ended = [P1, b"\r\n", b"end  \r\n"].concat();
    let out = solve(
        &write(dir.path(), "end.txt", &ended),
        &["--input-format", "poj"],
    );
    assert_eq!(out.column("line"), ["1"]);
    // Read as plain lines (the default), puzzles after an `end` line are
    // records, not silently dropped.
    let after = [P1, b"\nend\n", P2, b"\n"].concat();
    let out = solve(&write(dir.path(), "after.txt", &after), &[]);
    assert_rows_match(&out, &[1, 3]);
}

#[test]
fn corrupt_compressed_input_is_a_clean_fatal_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &P1.repeat(2000)).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(&[P1, b"\n"].concat().repeat(2000)[..], 3).unwrap();
    for (name, bytes) in [
        ("truncated.gz", gz[..gz.len() / 2].to_vec()),
        ("magic_only.gz", vec![0x1f, 0x8b]),
        (
            "garbage.zst",
            [&[0x28, 0xb5, 0x2f, 0xfd][..], &[0xff; 64]].concat(),
        ),
        ("truncated.zst", zst[..zst.len() / 2].to_vec()),
    ] {
        let path = write(dir.path(), name, &bytes);
        let r = run_paths(&["solve", "-q"], &[&path]);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(name),
            "{name}: error names the file: {}",
            r.stderr
        );
        // Under -o nothing is left behind: no output, no temporary file.
        let out = dir.path().join(format!("{name}.csv"));
        let r = run_paths(&["solve", "-q", "-o", out.to_str().unwrap()], &[&path]);
        assert_eq!(r.code, 2, "{name}");
        assert!(!out.exists(), "{name}: partial output left");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn unreadable_inputs_fail_before_any_row() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.txt", P1);
    // A directory, and a good file before it: nothing is written at all.
    let r = run_paths(&["solve", "-q"], &[&good, dir.path()]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty(), "rows written before a fatal error");
    assert!(!r.stderr.contains("panicked"));
}

#[test]
fn unwritable_output_fails_before_reading_any_input() {
    // stdin stays open and silent: a run that read its input before
    // opening its output would wait (format detection reads the first
    // line) instead of failing at once. Unlike a read-only directory, a
    // path under a regular file is unwritable even for root.
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "plain", b"x");
    let out = file.join("out.csv");
    let mut child = std::process::Command::new(bin())
        .args(["solve", "-o", out.to_str().unwrap(), "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("waited for the end of its input instead of failing on the output");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("out.csv"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty());
}
