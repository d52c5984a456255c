//! What every reader shares, through the real binary: each input format
//! (detection, record counts, line numbers, the `expected` audit column,
//! `--keep-trailing`, CSV column choice), several inputs and stdin by any
//! name, compressed input however written, files read twice, many inputs
//! under bounded resources, hostile bytes and encodings, and random
//! streams that must lose no record.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use batchdoku_core::testdata::utf16;
use batchdoku_core::Rng;

use crate::util::*;

/// The puzzles as bytes, for inputs built byte by byte.
const P1: &[u8] = EASY.as_bytes();
const P2: &[u8] = HARD.as_bytes();
const S1: &[u8] = EASY_SOLUTION.as_bytes();

// --- the format fixtures ------------------------------------------------

/// Runs `solve -k 2` on a format fixture and returns (exit code, header, rows).
fn solve_fixture(name: &str, extra: &[&str]) -> (i32, Vec<String>, Vec<Vec<String>>) {
    let path = fixture(&format!("formats/{name}"));
    let mut args = vec!["solve", "-q", "-k", "2"];
    args.extend_from_slice(extra);
    let r = run_paths(&args, &[&path]);
    let (h, rows) = r.csv();
    (r.code, h, rows)
}

#[test]
fn line_format_with_comments_and_trailing_text() {
    let (code, h, rows) = solve_fixture("line.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "status"), ["unique"; 5]);
    // Line numbers count the comment line.
    assert_eq!(rows[0][col(&h, "line")], "2");
    assert_rows_solve(&h, &rows);
}

#[test]
fn crlf_bom_and_mixed_blanks() {
    let (code, h, rows) = solve_fixture("line_crlf_bom.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert!(!row[col(&h, "puzzle")].contains(['0', '-', '_', '*']));
        assert_solves(&row[col(&h, "puzzle")], &row[col(&h, "solution")]);
    }
}

#[test]
fn poj_file_ends_at_end_line() {
    for forced in [&[][..], &["--input-format", "poj"][..]] {
        let (code, _, rows) = solve_fixture("poj.txt", forced);
        assert_eq!(code, 0);
        assert_eq!(rows.len(), 3);
    }
}

#[test]
fn kaggle_csv_gains_expected_column() {
    let (code, h, rows) = solve_fixture("kaggle.csv", &[]);
    assert_eq!(code, 0);
    assert_eq!(h.last().unwrap(), "expected");
    let expected: Vec<&str> = rows
        .iter()
        .map(|r| r[col(&h, "expected")].as_str())
        .collect();
    assert_eq!(expected, ["match", "match", "mismatch", "match"]);
    assert_eq!(rows[0][col(&h, "line")], "2");
}

#[test]
fn only_a_named_solution_column_is_expected() {
    // A second column of sources or ids is carried data, not solutions: a
    // valid puzzle stays valid and no `expected` column appears.
    let puzzle = EASY;
    for header in ["puzzle,source", "puzzle,sol"] {
        let input = format!("{header}\n{puzzle},kaggle\n");
        let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
        let (h, rows) = r.csv();
        assert_eq!(r.code, 0, "{header}: {}", r.stdout_str());
        assert!(!h.contains(&"expected".to_string()), "{header}: {h:?}");
        assert_eq!(column(&h, &rows, "status"), ["solved"], "{header}");
    }
}

#[test]
fn block_grids_noip_and_boxed() {
    for (name, n) in [
        ("noip_sample1.txt", 1),
        ("noip_sample2.txt", 1),
        ("block_boxed.txt", 2),
    ] {
        let (code, h, rows) = solve_fixture(name, &[]);
        assert_eq!(code, 0, "{name}");
        assert_eq!(rows.len(), n, "{name}");
        assert_rows_solve(&h, &rows);
    }
}

#[test]
fn luogu_batches_and_short_files() {
    let (code, _, rows) = solve_fixture("luogu.txt", &[]);
    assert_eq!(code, 0);
    assert_eq!(rows.len(), 2);
    let (code, h, rows) = solve_fixture("luogu_short.txt", &[]);
    assert_eq!(code, 1, "missing grids are invalid records");
    assert_eq!(rows.len(), 3);
    assert_eq!(column(&h, &rows, "status")[1..], ["invalid", "invalid"]);
    assert!(
        rows[2][col(&h, "error")].contains("of 3 promised grids"),
        "{:?}",
        rows[2]
    );
}

#[test]
fn forced_format_overrides_detection() {
    // A block file read as lines: every line is a malformed record.
    let (code, h, rows) = solve_fixture("noip_sample1.txt", &["--input-format", "line"]);
    assert_eq!(code, 1);
    assert_eq!(rows.len(), 9);
    assert!(column(&h, &rows, "status").iter().all(|s| s == "invalid"));
}

#[test]
fn hostile_files_never_crash_nor_drop_records() {
    for name in [
        "hostile_binary.bin",
        "hostile_long_line.txt",
        "hostile_bytes.txt",
    ] {
        // Every line with content (not blank, not a `#` comment) is one record.
        let bytes = std::fs::read(fixture(&format!("formats/{name}"))).unwrap();
        let records = bytes
            .split(|&b| b == b'\n' || b == b'\r')
            .filter(|l| !l.trim_ascii().is_empty() && l.trim_ascii()[0] != b'#')
            .count();
        let (code, h, rows) = solve_fixture(name, &[]);
        assert_eq!(code, 1, "{name}: every hostile file has invalid records");
        assert_eq!(rows.len(), records, "{name}");
        for row in &rows {
            let status = &row[col(&h, "status")];
            assert!(
                status == "invalid"
                    || !row[col(&h, "solution")].is_empty()
                    || status == "unsolvable"
            );
        }
    }
}

#[test]
fn keep_trailing_carries_ids_through() {
    let other = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";
    let input = format!("{HARD} id-1\n{other},id-2\n");
    let input = input.as_bytes();
    let r = run(&["solve", "-q", "--keep-trailing"], Some(input));
    let (h, rows) = r.csv();
    assert_eq!(h.last().unwrap(), "trailing");
    assert_eq!(rows[0][col(&h, "trailing")], "id-1");
    assert_eq!(rows[1][col(&h, "trailing")], "id-2");
    let j = run(
        &["solve", "-q", "--keep-trailing", "--format", "jsonl"],
        Some(input),
    );
    let v: serde_json::Value =
        serde_json::from_str(j.stdout_str().lines().nth(1).unwrap()).unwrap();
    assert_eq!(v["trailing"], "id-2");
}

#[test]
fn csv_column_choice_and_kept_columns_carry_through() {
    let csv = format!(
        "source,grid,answer,rating\n\
        kaggle,\"{EASY}\",{EASY_SOLUTION},\"1,5\"\n\
        forum,bad,x,\"he said \"\"hi\"\"\"\n\
        short,{EASY}\n"
    );
    for j in ["1", "2"] {
        let r = run(
            &["solve", "-j", j, "--column", "GRID", "--keep-columns"],
            Some(csv.as_bytes()),
        );
        assert_eq!(r.code, 1, "{}", r.stderr);
        let (h, rows) = r.csv();
        assert_eq!(&h[h.len() - 3..], ["source", "answer", "rating"]);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][col(&h, "status")], "solved");
        assert_eq!(rows[0][col(&h, "expected")], "match");
        assert_eq!(rows[0][col(&h, "rating")], "1,5");
        assert_eq!(rows[1][col(&h, "status")], "invalid");
        assert_eq!(rows[1][col(&h, "source")], "forum");
        assert_eq!(rows[1][col(&h, "rating")], "he said \"hi\"");
        // A row with fewer fields than the header: missing ones are empty.
        assert_eq!(rows[2][col(&h, "source")], "short");
        assert_eq!(rows[2][col(&h, "rating")], "");
    }
    // An input column named like one of ours is prefixed.
    let r = run(
        &["canon", "--keep-columns"],
        Some(format!("puzzle,status\n{EASY},easy\n").as_bytes()),
    );
    let (h, rows) = r.csv();
    assert_eq!(rows[0][col(&h, "input_status")], "easy");
    assert_eq!(rows[0][col(&h, "status")], "ok");
}

#[test]
fn csv_options_fail_clearly_on_unfit_inputs() {
    let r = run(&["solve", "--column", "board"], Some(b"id,puzzle\n1,x\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no column 'board'"), "{}", r.stderr);
    let line = fixture("formats/line.txt");
    let r = run_paths(&["solve", "--keep-columns"], &[&line]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("need CSV input"), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.csv"), dir.path().join("b.csv"));
    std::fs::write(&a, "puzzle,rating\n").unwrap();
    std::fs::write(&b, "puzzle,source\n").unwrap();
    let r = run_paths(&["solve", "--keep-columns"], &[&a, &b]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unlike"), "{}", r.stderr);
}

// --- several inputs, stdin, compression ----------------------------------

#[test]
fn several_inputs_and_stdin_each_record_once() {
    let stdin_part = format!("{EASY}\n");
    let sample = data("sample.txt");
    let statuses = fixture("statuses.txt");
    let r = run(
        &["solve", "-q", "-j", "2", arg(&sample), "-", arg(&statuses)],
        Some(stdin_part.as_bytes()),
    );
    assert_eq!(r.code, 1);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 211 + 1 + 7);
    assert_eq!(rows[211][col(&h, "line")], "1");
    assert_eq!(rows[212][col(&h, "line")], "1");
    assert!(rows[214][col(&h, "error")].contains("statuses.txt:3:"));
    let twice = run(&["solve", "-", "-"], Some(b""));
    assert_eq!(twice.code, 2);
}

#[test]
fn stdin_by_any_name_counts_once() {
    // Any path to the stdin pipe counts, such as a link to /dev/stdin.
    let dir = tempfile::tempdir().unwrap();
    let alias = dir.path().join("alias");
    std::os::unix::fs::symlink("/dev/stdin", &alias).unwrap();
    for other in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", arg(&alias)] {
        for args in [["solve", "-", other], ["solve", other, "-"]] {
            let r = run(&args, Some(format!("{EASY}\n").as_bytes()));
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains("more than once"),
                "{args:?}: {}",
                r.stderr
            );
            assert!(r.stdout.is_empty());
        }
    }
    // A device given twice is not stdin given twice (stdin is /dev/null
    // here too), and stdin by one other name alone is read.
    let r = run(&["solve", "/dev/null", "/dev/null"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        &["solve", "-q", "/dev/stdin"],
        Some(format!("{EASY}\n").as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 1);
}

#[test]
fn compressed_inputs_are_read() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let sample = sample();
    let gz = dir.path().join("sample.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&sample).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let zst = dir.path().join("sample.txt.zst");
    std::fs::write(&zst, zstd::encode_all(&sample[..], 3).unwrap()).unwrap();
    let plain = run_paths(&["solve", "-q"], &[&data("sample.txt")]);
    for path in [&gz, &zst] {
        let r = run_paths(&["solve", "-q"], &[path]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        eqnice!(plain.stdout, r.stdout, "{}", path.display());
    }
    // Compressed stdin, detected by its magic bytes.
    let r = run(&["solve", "-q"], Some(&std::fs::read(&zst).unwrap()));
    eqnice!(plain.stdout, r.stdout, "compressed stdin");
}

/// Runs `solve -q -` with `input` written to its stdin one byte per write
/// (with a pause after each of the first 16, so reads return one byte).
fn solve_trickled(input: &[u8]) -> (i32, Vec<Vec<String>>) {
    use std::io::Write;
    let mut child = command(&["solve", "-q", "-"])
        .stdin(Stdio::piped())
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
    let out = output_within(child, Duration::from_secs(60));
    writer.join().unwrap();
    let (_, rows) = parse_csv(&out.stdout);
    (out.status.code().unwrap_or(-1), rows)
}

#[test]
fn compressed_input_however_written() {
    let text = format!("{EASY}\n{HARD}\n{EASY}\n");
    let zst = zstd::encode_all(text.as_bytes(), 3).unwrap();
    // What pzstd writes: a skippable frame (magic 0x184D2A50) first.
    let skippable = [&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0][..], &[0, 0, 0, 0]].concat();
    let framed = [&skippable[..], &zst, &skippable, &zst].concat();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("framed.zst");
    std::fs::write(&path, &framed).unwrap();
    let r = run(&["solve", "-q", arg(&path)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 6);
    // The real pzstd (Debian's zstd package; .ci/run installs it).
    let plain = write(dir.path(), "p.txt", text.repeat(50));
    if required("pzstd", have("pzstd")) {
        let st = Command::new("pzstd")
            .args(["-q", "-f", "-p", "2"])
            .arg(&plain)
            .status()
            .unwrap();
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

/// Distinct puzzles (relabellings of `EASY`), one per line.
fn relabellings(count: usize) -> String {
    let mut out = String::new();
    let mut digits: Vec<u8> = (b'1'..=b'9').collect();
    for i in 0..count {
        // Walk through permutations by swaps (all distinct for our counts).
        digits.swap(i % 9, (i / 9 + i) % 9);
        digits.rotate_left(i % 5 + 1);
        let line: String = EASY
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

#[test]
fn a_file_changed_during_a_two_pass_command_is_fatal() {
    use std::io::{BufRead, BufReader, Read, Write};
    // The second pass writes far more than a pipe holds, so once its
    // header is read and stdout left unread, the run cannot finish until
    // the file has been changed: no timing involved.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(&file, relabellings(4000)).unwrap();
    let mut child = command(&["dedupe", "--exact", "-q", arg(&file)])
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
    writeln!(f, "{HARD}").unwrap();
    drop(f);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let out = output_within(child, Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("changed while being read"), "{stderr}");
}

/// Starts `args`, reads the header line of its stdout, runs `meanwhile`,
/// then reads the rest: (exit code, rows after the header, stderr). A run
/// whose rows exceed a pipe cannot finish before `meanwhile` has run.
fn run_changing(args: &[&str], meanwhile: impl FnOnce()) -> (i32, usize, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = command(args).spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut header = String::new();
    stdout.read_line(&mut header).unwrap();
    assert!(header.contains("puzzle"), "{header}");
    meanwhile();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let out = output_within(child, Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (
        out.status.code().unwrap_or(-1),
        rest.lines().count(),
        stderr,
    )
}

/// Sets the modification time of `path` a minute ahead, content unchanged.
fn touch(path: &Path) {
    let f = std::fs::File::options().write(true).open(path).unwrap();
    let later = std::time::SystemTime::now() + Duration::from_secs(60);
    f.set_modified(later).unwrap();
}

#[test]
fn a_file_appended_to_while_solve_reads_it_is_read_as_it_is() {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // A writer keeps appending whole lines while `solve` runs: a one-pass
    // command reads the file as it is when it reaches it, never "changed".
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("growing.txt");
    std::fs::write(&file, format!("{EASY}\n").repeat(200)).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (file, stop) = (file.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&file)
                .unwrap();
            let line = format!("{HARD}\n");
            let mut written = 0;
            while !stop.load(Ordering::Relaxed) && written < 20_000 {
                f.write_all(line.as_bytes()).unwrap();
                written += 1;
                std::thread::sleep(Duration::from_micros(200));
            }
            written
        })
    };
    std::thread::sleep(Duration::from_millis(20));
    let mut runs = 0;
    for _ in 0..3 {
        let r = run(&["solve", "-q", "-j", "2", arg(&file)], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(!r.stderr.contains("changed"), "{}", r.stderr);
        let (h, rows) = r.csv();
        assert!(rows.len() >= 200, "{}", rows.len());
        assert!(column(&h, &rows, "status").iter().all(|s| s == "solved"));
        runs += 1;
    }
    stop.store(true, Ordering::Relaxed);
    assert!(writer.join().unwrap() > 0);
    assert_eq!(runs, 3);
}

#[test]
fn touching_a_later_input_changes_nothing() {
    // `touch` (content unchanged) of inputs the run has not reached yet,
    // during a multi-input `solve` and during `dedupe`'s second pass. The
    // first input is far larger than what the run reads ahead.
    let dir = tempfile::tempdir().unwrap();
    let first = write(dir.path(), "first.txt", relabellings(40_000));
    let later = write(dir.path(), "later.txt", relabellings(60));
    let (code, rows, stderr) =
        run_changing(&["solve", "-q", arg(&first), arg(&later)], || touch(&later));
    assert_eq!((code, rows), (0, 40_060), "{stderr}");
    let dedupe = ["dedupe", "--exact", "-q", arg(&first), arg(&later)];
    let undisturbed = run(&dedupe, None);
    assert_eq!(undisturbed.code, 0, "{}", undisturbed.stderr);
    let (code, rows, stderr) = run_changing(&dedupe, || {
        touch(&first);
        touch(&later);
    });
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(rows, undisturbed.csv().1.len());
}

#[test]
fn same_size_other_bytes_between_dedupe_passes_is_fatal() {
    // The later input is rewritten in place during the second pass with
    // bytes of the same length: size, inode and modification time say
    // little, the content says it changed.
    let dir = tempfile::tempdir().unwrap();
    let first = write(dir.path(), "first.txt", relabellings(40_000));
    let text = relabellings(60);
    let later = write(dir.path(), "later.txt", &text);
    let swapped = text.replacen(&text[..81], &text[82..163], 1);
    assert_eq!(swapped.len(), text.len());
    assert_ne!(swapped, text);
    let (code, _, stderr) = run_changing(
        &["dedupe", "--exact", "-q", arg(&first), arg(&later)],
        || {
            std::fs::write(&later, &swapped).unwrap();
            touch(&later); // a time that says nothing either way
        },
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("changed while being read"), "{stderr}");
}

/// Files, and puzzles in each.
const FILES: usize = 2000;
const PER_FILE: usize = 5;

/// Runs `solve` on `inputs` under `ulimit -n 256`, writing to `out`;
/// returns the exit code and the child's peak resident memory in KiB.
// The child is reaped by wait4 (for its rusage), not by Child::wait.
#[allow(clippy::zombie_processes)]
fn solve_under_fd_limit(inputs: &[String], out: &Path) -> (i32, i64) {
    let child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -n 256 && exec "$0" "$@""#)
        .arg(bin())
        .args(["solve", "-q", "-j", "2", "-o"])
        .arg(out)
        .args(inputs)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, waited for once, here.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    assert!(libc::WIFEXITED(status), "killed by a signal: {status}");
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

/// The (puzzle, status, solution) of every row of a `solve` CSV, in order.
fn results(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},{},{}", f[2], f[3], f[5])
        })
        .collect()
}

#[test]
fn two_thousand_inputs_run_under_ulimit_256_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(data("sample.txt")).unwrap();
    let puzzles: Vec<&str> = sample
        .lines()
        .filter(|l| l.len() == 81)
        .cycle()
        .take(FILES * PER_FILE)
        .collect();
    let mut paths = Vec::with_capacity(FILES);
    for (i, chunk) in puzzles.chunks(PER_FILE).enumerate() {
        let path = dir.path().join(format!("in{i:04}.txt"));
        std::fs::write(&path, chunk.join("\n") + "\n").unwrap();
        paths.push(arg(&path).to_owned());
    }
    let one = dir.path().join("all.txt");
    std::fs::write(&one, puzzles.join("\n") + "\n").unwrap();

    let (code_many, peak_many) = solve_under_fd_limit(&paths, &dir.path().join("many.csv"));
    let (code_one, peak_one) =
        solve_under_fd_limit(&[arg(&one).to_owned()], &dir.path().join("one.csv"));
    assert_eq!((code_many, code_one), (0, 0));
    let (many, all) = (
        results(&dir.path().join("many.csv")),
        results(&dir.path().join("one.csv")),
    );
    assert_eq!(many.len(), FILES * PER_FILE);
    assert_eq!(many, all, "the same puzzles give the same results");
    // Opening every input at once cost about 260 KiB each (500 MiB here);
    // one at a time, the 2,000 files cost what the one file does, give or
    // take a few MiB of per-input names and allocator slack.
    assert!(
        peak_many < peak_one + 16 * 1024,
        "peak memory {peak_many} KiB for {FILES} files against {peak_one} KiB for one"
    );
}

// --- hostile inputs -------------------------------------------------------
//
// Hostile inputs, generated in a temporary directory: binary junk, a 10 MB
// line without a newline, NUL bytes, invalid UTF-8, CRLF, a BOM, mixed
// blank characters, a CSV with missing columns, a Luogu (P10481) count
// promising more grids than exist, a POJ 3074 file without its `end` line,
// corrupt compressed data. Each must give the right `invalid` rows or a
// clean fatal error, never a panic, and never a silently skipped record:
// the records are counted here independently of the reader (from the bytes
// written) and must equal the rows written, with the right line numbers
// and exit code.

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
        let skipped = if line.len() > MAX_LINE_BYTES {
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
    // A NUL in the solution cell: the puzzle is fine, the cell malformed.
    assert_eq!(out.column("status"), ["unique", "unique"]);
    assert_eq!(out.column("expected"), ["malformed", "match"]);
    let mut block = to_block(P1);
    block[20] = 0;
    let out = solve(&write(dir.path(), "nul_block.txt", &block), &[]);
    assert_eq!(out.column("status"), ["invalid"]);
    assert!(out.column("error")[0].contains("byte 0x00"));
}

#[test]
fn a_utf16_file_is_one_fatal_error_that_says_to_save_as_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"\xFF\xFE".to_vec();
    let text = format!(
        "quizzes,solutions\r\n{},\r\n",
        std::str::from_utf8(P1).unwrap()
    );
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let path = write(dir.path(), "excel.csv", &bytes);
    let r = run_paths(&["solve", "-q"], &[&path]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no rows of byte errors");
    assert!(
        r.stderr.contains("excel.csv") && r.stderr.contains("UTF-16") && r.stderr.contains("UTF-8"),
        "{}",
        r.stderr
    );
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, bytes).unwrap();
    enc.finish().unwrap()
}

/// Runs `solve -q -` with `input` arriving through a slow pipe: a
/// separate writer process (`sh` and `dd`) sends it `piece` bytes at a
/// time with a pause after each of the first eight, so the reads of the
/// run return a few bytes each. Returns (exit code, stdout, stderr).
fn solve_through_slow_pipe(input: &[u8], piece: usize) -> (i32, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "in.bin", input);
    let script = format!(
        "i=0; while [ $i -lt 8 ]; do dd if=\"$1\" bs={piece} skip=$i count=1 2>/dev/null; \
         sleep 0.05; i=$((i+1)); done; dd if=\"$1\" bs={piece} skip=8 2>/dev/null"
    );
    let mut writer = Command::new("sh")
        .args(["-c", &script, "sh", arg(&path)])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pipe = writer.stdout.take().unwrap();
    let child = command(&["solve", "-q", "-"])
        .stdin(Stdio::from(pipe))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = output_within(child, Duration::from_secs(60));
    exits_within(&mut writer, Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), out.stdout, stderr)
}

#[test]
fn utf16_is_decided_on_the_decoded_bytes_and_never_on_one_line() {
    // Issue 39. Before: UTF-16 whose first character is not ASCII (with
    // a BOM or without) gave a row of byte errors per line, and gzipped
    // UTF-16 was refused from its file but gave byte errors through a
    // slow pipe. Now each is one fatal error, however it arrives.
    let dir = tempfile::tempdir().unwrap();
    let (p1, p2) = (EASY, HARD);
    let texts = [
        format!("\u{e9}nigmes\r\n{p1}\r\n{p2}\r\n"),
        format!("数独题集（第一卷）\n{p1}\n{p2}\n"),
        format!("\u{1F9E9}\t{p1}\n{p2}\n"),
        format!("quizzes,solutions\r\n{p1},\r\n"),
    ];
    for (t, text) in texts.iter().enumerate() {
        for (big_endian, bom) in [(false, true), (true, true), (false, false), (true, false)] {
            let bytes = utf16(text, big_endian, bom);
            let case = format!("text {t}, big-endian {big_endian}, BOM {bom}");
            let plain = write(dir.path(), "u16.csv", &bytes);
            let packed = write(dir.path(), "u16.csv.gz", gzip(&bytes));
            for path in [&plain, &packed] {
                let r = run_paths(&["solve", "-q"], &[path]);
                assert_eq!(r.code, 2, "{case}: {}", r.stderr);
                assert!(r.stdout.is_empty(), "{case}: no rows of byte errors");
                assert!(r.stderr.contains("UTF-16"), "{case}: {}", r.stderr);
            }
            // An ASCII start too: refused from its file before, not
            // through a slow pipe.
            if t == 0 || t == 3 {
                let (code, stdout, stderr) = solve_through_slow_pipe(&gzip(&bytes), 3);
                assert_eq!(code, 2, "{case}, slow pipe: {stderr}");
                assert!(
                    stdout.is_empty() && stderr.contains("UTF-16"),
                    "{case}: {stderr}"
                );
            }
        }
    }
    // Before: a comment or junk first line holding NUL bytes (here UTF-16
    // fragments) refused a whole file of valid 8-bit puzzles. Now the
    // comment is skipped and the junk is one invalid row, however the
    // file arrives.
    let puzzles = format!("{EASY}\n{HARD}\n{EASY}\n");
    let fragment = |s: &str| utf16(s, false, false);
    for (first, lines) in [
        (
            [&fragment("# exported")[..], b"\n"].concat(),
            ["2", "3", "4"].as_slice(),
        ),
        (
            [&fragment("junk")[..], b"\n"].concat(),
            &["1", "2", "3", "4"],
        ),
        (b"\0\0\0\0\0\0\0\0 junk\n".to_vec(), &["1", "2", "3", "4"]),
        (b"\xFF\xFEj\0u\0n\0k\0\n".to_vec(), &["1", "2", "3", "4"]),
    ] {
        let bytes = [&first[..], puzzles.as_bytes()].concat();
        let plain = write(dir.path(), "nul.txt", &bytes);
        let packed = write(dir.path(), "nul.txt.gz", gzip(&bytes));
        let mut outputs = Vec::new();
        for path in [&plain, &packed] {
            let r = run_paths(&["solve", "-q"], &[path]);
            outputs.push((r.code, r.stdout, r.stderr));
        }
        outputs.push(solve_through_slow_pipe(&gzip(&bytes), 3));
        for (code, stdout, stderr) in outputs {
            assert_eq!(
                code,
                if lines.len() == 4 { 1 } else { 0 },
                "{first:?}: {stderr}"
            );
            let (h, rows) = parse_csv(&stdout);
            assert_eq!(column(&h, &rows, "line"), lines, "{first:?}");
            let status = column(&h, &rows, "status");
            let solved = status.iter().filter(|s| *s == "solved").count();
            assert_eq!(solved, 3, "{first:?}: {status:?}");
        }
    }
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
    // A row without its solution cell, or with a short one: the puzzle is
    // fine, the expected solution malformed.
    assert_eq!(
        out.column("status"),
        ["unique", "unique", "invalid", "unique", "unique", "unique"]
    );
    assert_eq!(
        out.column("expected"),
        ["match", "malformed", "", "", "match", "malformed"]
    );
    let errors = out.column("error");
    assert_eq!(errors[1], "", "{errors:?}");
    assert!(errors[2].contains("empty record"), "{errors:?}");
    assert_eq!(errors[5], "", "a short solution is not the puzzle's fault");
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
    assert_eq!(out.column("status"), ["unique", "invalid", "unique"]);
    assert!(out.column("error")[1].contains("missing CSV column 2"));
    // Only the solution cell is missing: the puzzle is solved.
    assert_eq!(out.column("expected"), ["match", "", "malformed"]);

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
        &write(dir.path(), "more.txt", [b"5\n", &two[..]].concat()),
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
        &write(dir.path(), "fewer.txt", [b"1\n", &two[..]].concat()),
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
        let r = run_paths(&["solve", "-q", "-o", arg(&out)], &[&path]);
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

// --- the line cap, and no record lost in any stream ------------------------

#[test]
fn the_line_cap_counts_content_and_whitespace_lines_are_blank() {
    // A 4096-byte line (after a BOM, before a CRLF) is within the cap;
    // a whitespace line of 10 KB is blank, not a record.
    let padded = format!("{EASY}{}", " ".repeat(4096 - 81));
    let input = format!("\u{feff}{padded}\r\n{}\r\n{HARD}\r\n", " \t".repeat(5000));
    let (code, h, rows) = solve_stdin(input.as_bytes(), &[]);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(column(&h, &rows, "line"), ["1", "3"]);
    let over = format!("{padded} \n{HARD}\n");
    let (code, _, rows) = solve_stdin(over.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (1, 2));
}

mod property {
    //! Random byte streams of puzzle lines, comments, blank lines, `end`,
    //! junk, quoted CSV pieces and every mix of line endings, through the
    //! real binary in every output format at `-j 1` and `-j 2`: the rows
    //! out must equal the records counted by the reference readers here,
    //! written from the documented rules and sharing no code with ours.

    use proptest::prelude::*;

    use crate::util::{run, EASY, HARD};

    /// The line endings mixed into every stream.
    fn ending() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec!["\n", "\r", "\r\n"])
    }

    /// One line of a line-format stream (without its ending).
    fn line_piece() -> impl Strategy<Value = String> {
        let bad = format!("{}x{}", &EASY[..40], &EASY[41..]);
        prop::sample::select(vec![
            EASY.to_string(),
            HARD.to_string(),
            format!("{EASY} rated 3, hard"),
            format!("  {HARD}\t# id 7"),
            bad,
            EASY[..60].to_string(),
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
            EASY.to_string(),
            format!("\"{HARD}\""),
            format!(" {EASY} "),
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
        fn line_streams_lose_no_record(input in stream(line_piece(), "", HARD)) {
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

// ------------------------------------------------------- CSV records

/// The puzzles of `data/sample.txt` (211 distinct ones).
fn sample_puzzles() -> Vec<String> {
    std::fs::read_to_string(data("sample.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Where a broken record's quote opens.
#[derive(Clone, Copy, Debug)]
enum QuoteIn {
    /// The id field, before the puzzle (column 1).
    Id,
    /// The note, after the puzzle.
    Note,
}

/// An `id,puzzle,note` CSV of `n` records (puzzles from `puzzles`, in
/// turn) whose record `at` holds a quote that never closes; the records
/// after it are invalid (a cell short) when `bad_after`. Returns the bytes
/// and the column of the quote.
fn broken_csv(
    puzzles: &[String],
    n: usize,
    at: usize,
    quote: QuoteIn,
    bad_after: bool,
    eol: &str,
) -> (Vec<u8>, usize) {
    let mut out = format!("id,puzzle,note{eol}");
    let mut col = 0;
    for i in 0..n {
        let p = &puzzles[i % puzzles.len()];
        let p = if bad_after && i > at {
            &p[..80]
        } else {
            &p[..]
        };
        let line = match (i == at, quote) {
            (true, QuoteIn::Id) => format!("\"{i},{p},note {i}"),
            (true, QuoteIn::Note) => format!("{i},{p},\"note {i}, never closed"),
            (false, _) => format!("{i},{p},note {i}"),
        };
        if i == at {
            col = line.find('"').unwrap() + 1;
        }
        out.push_str(&line);
        out.push_str(eol);
    }
    (out.into_bytes(), col)
}

#[test]
fn an_unclosed_quote_costs_one_row_and_every_record_after_it_is_read() {
    // Before: 30 records gave 11 rows with exit 0, 200 gave 67, 1,000 gave
    // 334: the quote swallowed the records after it, silently.
    let puzzles = sample_puzzles();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    for n in [10, 30, 200, 1000] {
        for at in [0, n / 2, n - 1] {
            for (quote, bad_after, eol) in [
                (QuoteIn::Note, false, "\n"),
                (QuoteIn::Note, true, "\r\n"),
                (QuoteIn::Id, false, "\r\n"),
                (QuoteIn::Id, true, "\n"),
            ] {
                let what = format!("n {n} at {at} {quote:?} bad_after {bad_after} {eol:?}");
                let (bytes, quote_col) = broken_csv(&puzzles, n, at, quote, bad_after, eol);
                std::fs::write(&path, &bytes).unwrap();
                let r = run_paths(&["solve", "-q", "--keep-columns"], &[&path]);
                assert_eq!(r.code, 1, "{what}: {}", r.stderr);
                let (h, rows) = r.csv();
                assert_eq!(rows.len(), n, "{what}");
                for (i, row) in rows.iter().enumerate() {
                    let line = i + 2;
                    assert_eq!(row[col(&h, "line")], line.to_string(), "{what}");
                    let status = &row[col(&h, "status")];
                    let error = &row[col(&h, "error")];
                    if i == at {
                        assert_eq!(status, "invalid", "{what}");
                        let want = format!(
                            "/broken.csv:{line}: unclosed quote starting at column {quote_col}"
                        );
                        assert!(error.ends_with(&want), "{what}: {error}");
                    } else if bad_after && i > at {
                        assert!(error.contains("expected 81 cells"), "{what}: {row:?}");
                    } else {
                        assert_eq!(status, "solved", "{what}: {row:?}");
                        assert_eq!(row[col(&h, "note")], format!("note {i}"), "{what}");
                        assert_eq!(row[col(&h, "id")], i.to_string(), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_quoted_line_break_before_the_puzzle_column_is_one_row() {
    // RFC 4180: the note's line break is data; its second line, read alone,
    // holds a puzzle, and the record ends on it.
    let puzzles = sample_puzzles();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.csv");
    for eol in ["\n", "\r\n"] {
        let mut text = format!("note,puzzle{eol}");
        for (i, p) in puzzles.iter().take(6).enumerate() {
            match i % 3 {
                0 => text.push_str(&format!("\"first{eol}then {i}\",{p}{eol}")),
                1 => text.push_str(&format!("\"a{eol}b{eol}c {i}\",{p}{eol}")),
                _ => text.push_str(&format!("plain {i},{p}{eol}")),
            }
        }
        std::fs::write(&path, &text).unwrap();
        let r = run_paths(&["solve", "-q", "--keep-columns"], &[&path]);
        assert_eq!(r.code, 0, "{eol:?}: {}", r.stderr);
        let (h, rows) = r.csv();
        assert_eq!(rows.len(), 6, "{eol:?}");
        let lines: Vec<&str> = rows.iter().map(|r| r[col(&h, "line")].as_str()).collect();
        assert_eq!(lines, ["2", "4", "7", "8", "10", "13"], "{eol:?}");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[col(&h, "status")], "solved", "{eol:?}: {row:?}");
            assert!(row[col(&h, "note")].ends_with(&i.to_string()), "{row:?}");
        }
        assert_eq!(rows[0][col(&h, "note")], format!("first{eol}then 0"));
    }
}

#[test]
fn every_command_reads_past_an_unclosed_quote() {
    let puzzles = sample_puzzles();
    let n = 200;
    let (bytes, _) = broken_csv(&puzzles, n, 100, QuoteIn::Note, false, "\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    std::fs::write(&path, &bytes).unwrap();
    let invalid = |rows: &[Vec<String>], h: &[String]| -> Vec<String> {
        rows.iter()
            .filter(|r| r[col(h, "status")] == "invalid")
            .map(|r| r[col(h, "line")].clone())
            .collect()
    };
    for args in [
        &["solve", "-q"][..],
        &["solve", "-q", "--format", "jsonl"],
        &["score", "-q"],
        &["canon", "-q"],
        &["dedupe", "-q", "--exact"],
    ] {
        let r = run_paths(args, &[&path]);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        if args.contains(&"jsonl") {
            let rows: Vec<serde_json::Value> = r
                .stdout_str()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(rows.len(), n, "{args:?}");
            assert_eq!(rows[100]["line"], 102);
            assert_eq!(rows[100]["status"], "invalid");
            continue;
        }
        let (h, rows) = r.csv();
        assert_eq!(rows.len(), n, "{args:?}");
        assert_eq!(invalid(&rows, &h), ["102"], "{args:?}");
    }
    // Stdin too.
    let r = run(&["solve", "-q", "-"], Some(&bytes));
    assert_eq!((r.code, r.csv().1.len()), (1, n));
    // The report counts every record.
    let r = run_paths(&["report", "-q", "--format", "json"], &[&path]);
    let v: serde_json::Value = serde_json::from_str(r.stdout_str()).unwrap();
    assert_eq!(v["totals"]["records"], n);
    assert_eq!(v["totals"]["invalid"], 1);
    assert_eq!(v["totals"]["errors"][0]["line"], 102);
    // overlap: every valid test record leaks (the splits are one file);
    // the broken record is a row in both splits.
    let r = run_paths(&["overlap", "-q"], &[&path, &path]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    let split = |name: &str| rows.iter().filter(|r| r[col(&h, "split")] == name).count();
    assert_eq!((split("train"), split("test")), (1, n));
}

#[test]
fn a_legitimately_quoted_multi_line_field_is_one_record() {
    let puzzles = sample_puzzles();
    let input = format!(
        "id,puzzle,note\r\n1,{},\"three\r\nlines, with {} inside\r\nend\"\r\n2,{},x\r\n",
        puzzles[0], puzzles[1], puzzles[2]
    );
    let r = run(
        &["solve", "-q", "--keep-columns", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1][col(&h, "line")], "5");
    let want = format!("three\r\nlines, with {} inside\r\nend", puzzles[1]);
    assert_eq!(rows[0][col(&h, "note")], want);
}

#[test]
fn a_headerless_csv_with_an_id_column_reads_every_record() {
    // Before: `1,<puzzle>` rows had their first record taken as a header
    // and the id column as the puzzle: every row invalid, record 1 missing.
    let puzzles = sample_puzzles();
    let ids: String = (1..=10).map(|i| format!("{i},{}\n", puzzles[i])).collect();
    for extra in [&[][..], &["--input-format", "csv"]] {
        let mut args = vec!["solve", "-q", "--keep-columns"];
        args.extend_from_slice(extra);
        args.push("-");
        let r = run(&args, Some(ids.as_bytes()));
        assert_eq!(r.code, 0, "{extra:?}: {}", r.stdout_str());
        let (h, rows) = r.csv();
        assert_eq!(rows.len(), 10);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row[col(&h, "line")], (i + 1).to_string());
            assert_eq!(row[col(&h, "field_1")], (i + 1).to_string());
            assert_eq!(row[col(&h, "puzzle")], puzzles[i + 1]);
            assert_eq!(row[col(&h, "status")], "solved");
        }
    }
    // One record alone, and `<puzzle>,<id>`.
    let r = run(
        &["solve", "-q", "-"],
        Some(format!("7,{}\n", puzzles[0]).as_bytes()),
    );
    assert_eq!((r.code, r.csv().1.len()), (0, 1));
    let tail: String = (0..5).map(|i| format!("{},id-{i}\n", puzzles[i])).collect();
    let r = run(
        &["solve", "-q", "--input-format", "csv", "-"],
        Some(tail.as_bytes()),
    );
    assert_eq!((r.code, r.csv().1.len()), (0, 5));
    // A real header is still a header, whatever its names say.
    for header in ["id,puzzle", "id,board"] {
        let input = format!("{header}\n{ids}");
        let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
        let (h, rows) = r.csv();
        assert_eq!(r.code, 0, "{header}");
        assert_eq!(rows.len(), 10, "{header}");
        assert_eq!(rows[0][col(&h, "line")], "2", "{header}");
    }
}

#[test]
fn kept_columns_carry_quoted_data_byte_for_byte() {
    // Before: spaces inside quotes were trimmed and CRLF became LF.
    let p = &sample_puzzles()[0];
    let input = format!(
        "puzzle,pad,text,plain\r\n{p},\"  two spaces  \",\"crlf\r\ninside, \"\"quoted\"\"\", bare \r\n{p},\" \",\"lone\rcr\",\r\n"
    );
    let r = run(
        &["solve", "-q", "--keep-columns", "-"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    let kept = |i: usize, name: &str| rows[i][col(&h, name)].clone();
    assert_eq!(kept(0, "pad"), "  two spaces  ");
    assert_eq!(kept(0, "text"), "crlf\r\ninside, \"quoted\"");
    assert_eq!(kept(0, "plain"), "bare");
    assert_eq!(kept(1, "pad"), " ");
    assert_eq!(kept(1, "text"), "lone\rcr");
    let r = run(
        &["solve", "-q", "--keep-columns", "--format", "jsonl", "-"],
        Some(input.as_bytes()),
    );
    let rows: Vec<serde_json::Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["pad"], "  two spaces  ");
    assert_eq!(rows[0]["text"], "crlf\r\ninside, \"quoted\"");
    assert_eq!(rows[1]["text"], "lone\rcr");
}

#[test]
fn an_empty_solution_cell_leaves_a_valid_puzzle_valid() {
    let p = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let s = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
    let input = format!("puzzle,solution\n{p},\n{p},{s}\n{p},\"\"\n");
    let r = run(&["solve", "-q", "-"], Some(input.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stdout_str());
    let (h, rows) = r.csv();
    assert_eq!(column(&h, &rows, "status"), ["solved"; 3]);
    let expected: Vec<&str> = rows
        .iter()
        .map(|r| r[col(&h, "expected")].as_str())
        .collect();
    assert_eq!(expected, ["", "match", ""]);
}

/// A Parquet input with another input format forced on it (or a
/// delimiter) is one clear error for every command, no rows, no `-o`
/// file; so is a cut-short Parquet file. (Parquet read back:
/// `parquet::parquet_input_reads_as_the_same_data_in_csv`.)
#[test]
fn parquet_input_with_another_format_forced_is_one_error() {
    let dir = tempfile::tempdir().unwrap();
    let lines = write(dir.path(), "in.txt", lines_of(&sample_grids(10)));
    let pq = dir.path().join("part.parquet");
    let made = run_paths(&["solve", "-q", "-o", arg(&pq)], &[&lines]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let bytes = std::fs::read(&pq).unwrap();
    let cut = write(dir.path(), "cut.parquet", &bytes[..bytes.len() - 9]);
    let out = dir.path().join("out.csv");
    let (o, p, c) = (arg(&out), arg(&pq), arg(&cut));
    let page = format!("{o}.md");
    let commands: [(&[&str], &str); 7] = [
        (
            &["solve", "-o", o, "--input-format", "csv", p],
            "--input-format csv does not fit",
        ),
        (
            &["solve", "-o", o, "--input-format", "line", p],
            "--input-format line does not fit",
        ),
        (
            &["dedupe", "-o", o, "--input-format", "block", p],
            "--input-format block does not fit",
        ),
        (
            &["overlap", "-o", o, "--delimiter", ";", p, p],
            "--delimiter does not fit",
        ),
        (&["solve", "-o", o, c], "not a readable Parquet file"),
        (&["split", "-o", o, c], "not a readable Parquet file"),
        (&["report", "-o", &page, c], "not a readable Parquet file"),
    ];
    for (args, says) in commands {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
        assert_eq!(
            r.stderr.lines().count(),
            1,
            "{args:?}: one error: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{args:?} wrote rows");
        assert!(!out.exists(), "{args:?} left {o}");
    }
    assert_eq!(names(dir.path()), ["cut.parquet", "in.txt", "part.parquet"]);
}

/// A file in another binary format (after decompression) is one fatal
/// error naming what it looks like, never a flood of invalid rows: ZIP
/// (an .xlsx), Arrow IPC/Feather, ORC, SQLite, PDF, PNG, 7z, xz, bzip2;
/// as a file, gzipped, or on stdin, for every command.
#[test]
fn other_binary_formats_are_one_error_naming_them() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(7);
    let junk: Vec<u8> = (0..600).map(|_| rng.next_u64() as u8).collect();
    let formats: [(&str, &[u8], &str); 9] = [
        (
            "sheet.xlsx",
            b"PK\x03\x04\x14\x00\x06\x00",
            "a ZIP archive (an .xlsx or .zip?)",
        ),
        ("t.feather", b"ARROW1\0\0", "an Arrow IPC (Feather) file"),
        ("t.orc", b"ORC", "an ORC file"),
        ("t.sqlite", b"SQLite format 3\0", "a SQLite database"),
        ("t.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document"),
        ("t.png", b"\x89PNG\r\n\x1a\n", "a PNG image"),
        ("t.7z", b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
        ("t.xz", b"\xfd7zXZ\x00", "xz-compressed data"),
        ("t.bz2", b"BZh91AY&SY", "bzip2-compressed data"),
    ];
    let out = dir.path().join("out.csv");
    let o = arg(&out);
    let page = format!("{o}.md");
    for (name, magic, what) in formats {
        let mut bytes = magic.to_vec();
        bytes.extend_from_slice(&junk);
        let path = write(dir.path(), name, &bytes);
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(&bytes).unwrap();
        let gz = write(dir.path(), &format!("{name}.gz"), enc.finish().unwrap());
        let (p, g) = (arg(&path), arg(&gz));
        let says = format!("looks like {what}, which batchdoku does not read");
        let commands: [&[&str]; 6] = [
            &["solve", "-o", o, p],
            &["score", "-o", o, g],
            &["dedupe", "-o", o, p],
            &["overlap", "-o", o, p, g],
            &["split", "-o", o, p],
            &["report", "-o", &page, g],
        ];
        for args in commands {
            let r = run(args, None);
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(r.stderr.contains(&says), "{args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains(name),
                "{args:?} names the file: {}",
                r.stderr
            );
            assert_eq!(
                r.stderr.lines().count(),
                1,
                "{args:?}: one error: {}",
                r.stderr
            );
            assert!(!out.exists(), "{args:?} left {o}");
        }
        let piped = run(&["canon", "-q", "-"], Some(&bytes));
        assert_eq!(piped.code, 2, "{}", piped.stderr);
        assert!(piped.stderr.contains(&says), "{}", piped.stderr);
        assert!(piped.stdout.is_empty());
    }
}
