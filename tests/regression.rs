//! Past findings, each pinned by the test written for it: what a review
//! found wrong, through the real binary. Issue 19 "nothing vanishes": one
//! bad first line decided a file's format, a lone `\r` ended no line, a
//! quoted CSV field could not hold a line break, long CSV headers were cut,
//! pipes named by path hung or read nothing. Issue 19 section 3 "what is
//! reported is true": `--summary-json` checked before any work and kept
//! only with `-o`; a full or closed stderr never panics; a closed stdout
//! never gets a summary claiming unfinished work; `-o -` and dangling `-o`
//! links.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::util::*;

// --- issue 19: nothing vanishes ------------------------------------------

#[test]
fn cr_only_and_mixed_line_endings_split_records() {
    // Before: 10 puzzles with CR endings gave 1 row, exit 0.
    let cr: String = (0..10).map(|_| format!("{EASY}\r")).collect();
    let (code, h, rows) = solve_stdin(cr.as_bytes(), &[]);
    assert_eq!((code, rows.len()), (0, 10));
    let lines: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
    assert_eq!(column(&h, &rows, "line"), lines);
    let mixed = format!("{EASY}\r{HARD}\n{EASY}\r\n\r\n# note\r{HARD}\n\r{EASY}");
    let (code, h, rows) = solve_stdin(mixed.as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["1", "2", "3", "6", "8"]);
    // The same in block layout, CR only.
    let block = batchdoku_core::parse_line(EASY.as_bytes())
        .unwrap()
        .to_block_string()
        .replace('\n', "\r");
    let (code, h, rows) = solve_stdin(format!("{block}\r{block}").as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["1", "11"]);
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
        let input = format!("# preamble\n\n{bad}\n{EASY}\n{HARD}\n{EASY}\n");
        let (code, h, rows) = solve_stdin(input.as_bytes(), &[]);
        assert_eq!(code, 1, "{bad}");
        assert_eq!(column(&h, &rows, "line"), ["3", "4", "5", "6"], "{bad}");
        let status = column(&h, &rows, "status");
        assert_eq!(status[0], "invalid", "{bad}");
        assert!(status[1..].iter().all(|s| s != "invalid"), "{bad}");
    }
    // Any amount of leading comment lines (here 200 KB) is skipped.
    let mut input = "# a comment line of some length\n".repeat(6500);
    let block = batchdoku_core::parse_line(EASY.as_bytes())
        .unwrap()
        .to_block_string();
    input.push_str(&block);
    let (_, h, rows) = solve_stdin(input.as_bytes(), &[]);
    assert_eq!(column(&h, &rows, "line"), ["6501"]);
    // A one-column CSV named by its header is CSV.
    let (code, h, rows) = solve_stdin(format!("puzzle\n{EASY}\n{HARD}\n").as_bytes(), &[]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "line"), ["2", "3"]);
}

#[test]
fn no_single_line_decides_json_lines_or_the_delimiter() {
    // Issue 39. Before: a first line starting with `{` made the file JSON
    // lines, and every puzzle after it was `not a JSON object`.
    for first in ["{Forum puzzles, 2024}", "{\"source\": \"the forum\"}", "{}"] {
        let input = format!("{first}\n{EASY}\n{HARD}\n\n{EASY}\n");
        let (code, h, rows) = solve_stdin(input.as_bytes(), &[]);
        assert_eq!(code, 1, "{first}");
        assert_eq!(column(&h, &rows, "line"), ["1", "2", "3", "5"], "{first}");
        let status = column(&h, &rows, "status");
        assert_eq!(status[0], "invalid", "{first}");
        assert!(
            status[1..].iter().all(|s| s == "solved"),
            "{first}: {status:?}"
        );
        assert!(column(&h, &rows, "error")[0].starts_with("<stdin>:1: "));
    }
    // JSON lines under a junk first line are still JSON lines: the junk
    // is one invalid row, every object a record.
    let object = |p: &str| format!("{{\"id\": 7, \"puzzle\": \"{p}\"}}\n");
    let input = format!("{{Forum puzzles, 2024}}\n{}{}", object(EASY), object(HARD));
    let (code, h, rows) = solve_stdin(input.as_bytes(), &[]);
    assert_eq!(code, 1);
    assert_eq!(column(&h, &rows, "line"), ["1", "2", "3"]);
    assert_eq!(column(&h, &rows, "status"), ["invalid", "solved", "solved"]);
    // Before: a headerless `;` CSV whose first note holds commas had every
    // record invalid (the delimiter sniffed from the first line alone),
    // and as forced CSV lost its first record to a "header".
    let csv = format!("1;{EASY};note, with, commas\n2;{HARD};plain\n3;{EASY};x\n");
    for extra in [&[][..], &["--input-format", "csv"], &["--keep-columns"]] {
        let (code, h, rows) = solve_stdin(csv.as_bytes(), extra);
        assert_eq!(code, 0, "{extra:?}");
        assert_eq!(column(&h, &rows, "line"), ["1", "2", "3"], "{extra:?}");
    }
    let (_, h, rows) = solve_stdin(csv.as_bytes(), &["--keep-columns"]);
    assert_eq!(
        column(&h, &rows, "field_3"),
        ["note, with, commas", "plain", "x"]
    );
    // Tab-separated under a header, commas and semicolons in the notes.
    let tsv = format!("id\tnote\tboard\n1\ta, b; c, d\t{EASY}\n2\tplain\t{HARD}\n");
    let (code, h, rows) = solve_stdin(tsv.as_bytes(), &["--keep-columns"]);
    assert_eq!(code, 0);
    assert_eq!(column(&h, &rows, "note"), ["a, b; c, d", "plain"]);
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
        "id,puzzle,note\r\n1,{EASY},\"two\nlines\"\r\n2,\"{HARD}\",\"a \"\"quoted\"\",\r\n\r\nthree, four\"\n3,{EASY},\"x\"\n"
    );
    let (code, h, rows) = solve_stdin(input.as_bytes(), &["--keep-columns"]);
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
    let input = format!("puzzle,{}\n{EASY}{}\n", names.join(","), ",v".repeat(700));
    let (code, h, rows) = solve_stdin(input.as_bytes(), &["--keep-columns"]);
    assert_eq!(code, 0);
    assert_eq!(&h[h.len() - 700..], &names[..]);
    assert_eq!(rows[0].last().unwrap(), "v");
}

#[test]
fn two_pass_commands_read_pipes_named_by_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{EASY}\n{HARD}\n{EASY}\n");
    let file = dir.path().join("in.txt");
    std::fs::write(&file, &text).unwrap();
    let want = run(&["dedupe", "-q", arg(&file)], None);
    assert_eq!((want.code, want.csv().1.len()), (0, 2), "{}", want.stderr);
    // `/dev/stdin` with stdin a pipe. Before: only the header, exit 0.
    let got = run(&["dedupe", "-q", "/dev/stdin"], Some(text.as_bytes()));
    assert_eq!(got.code, 0, "{}", got.stderr);
    assert_eq!(got.csv().1, want.csv().1);
    // A named FIFO. Before: a hang.
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let child = command(&["dedupe", "-q", arg(&fifo)]).spawn().unwrap();
    std::fs::write(&fifo, &text).unwrap();
    let out = output_within(child, Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(parse_csv(&out.stdout).1, want.csv().1);
    // Process substitution, `<(cat f)`, through bash.
    let script = format!(
        "exec '{}' dedupe -q <(cat '{}')",
        bin().display(),
        file.display()
    );
    if required("bash", have("bash")) {
        let out = Command::new("bash").args(["-c", &script]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(parse_csv(&out.stdout).1, want.csv().1);
    }
}

// --- issue 19, section 3: what is reported is true -------------------------

#[test]
fn summary_json_in_a_missing_directory_fails_before_reading_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let json = dir.path().join("no/such/dir/s.json");
    for cmd in ["solve", "score", "canon", "dedupe"] {
        let r = run_with_silent_stdin(&[cmd, "-o", arg(&out), "--summary-json", arg(&json), "-"]);
        let (code, stderr) = (r.code, r.stderr);
        assert_eq!(code, 2, "{cmd}: {stderr}");
        assert!(stderr.contains("s.json"), "{cmd}: {stderr}");
        assert!(!stderr.contains("panicked"), "{cmd}: {stderr}");
        assert!(
            names(dir.path()).is_empty(),
            "{cmd}: {:?}",
            names(dir.path())
        );
    }
    // Under a regular file: unwritable even for root.
    let plain = write(dir.path(), "plain", "x");
    let json = plain.join("s.json");
    let r = run_with_silent_stdin(&["solve", "--summary-json", arg(&json), "-"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn summary_json_that_cannot_be_written_keeps_nothing_under_o() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\n{HARD}\n"));
    let out = dir.path().join("out.csv");
    // /dev/full opens, then every write fails (ENOSPC).
    for cmd in ["solve", "dedupe"] {
        let r = run(
            &[
                cmd,
                "-q",
                "-o",
                arg(&out),
                "--summary-json",
                "/dev/full",
                arg(&input),
            ],
            None,
        );
        assert_eq!(r.code, 2, "{cmd}: {}", r.stderr);
        assert!(r.stderr.contains("/dev/full"), "{cmd}: {}", r.stderr);
        assert_eq!(names(dir.path()), ["in.txt"], "{cmd}: -o kept");
    }
}

#[test]
fn summary_json_is_written_atomically_beside_a_kept_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\nbad\n{HARD}\n"));
    let out = dir.path().join("out.csv");
    let json = dir.path().join("s.json");
    std::fs::write(&json, "old").unwrap();
    let solve = |json: &std::path::Path| {
        let args = ["-q", "-o", arg(&out), "--summary-json", arg(json)];
        run(&[&["solve"][..], &args, &[arg(&input)]].concat(), None)
    };
    let r = solve(&json);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(names(dir.path()), ["in.txt", "out.csv", "s.json"]);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["records"], 3);
    assert_eq!(v["statuses"]["invalid"], 1);
    assert_eq!(parse_csv(&std::fs::read(&out).unwrap()).1.len(), 3);
    // The same file for both is refused before any work.
    let r = solve(&out);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// Runs `args` with stderr on /dev/full (every write fails).
fn run_with_full_stderr(args: &[&str]) -> (i32, Vec<u8>) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(full)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), out.stdout)
}

#[test]
fn a_full_stderr_never_panics_and_the_output_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\n{HARD}\n{EASY}\n"));
    let train = write(dir.path(), "train.txt", format!("{HARD}\n"));
    let cases: Vec<(Vec<&str>, i32, usize)> = vec![
        (vec!["solve", arg(&input)], 0, 3),
        (vec!["score", arg(&input)], 0, 3),
        (vec!["canon", arg(&input)], 0, 3),
        (vec!["dedupe", arg(&input)], 0, 2),
        (vec!["overlap", arg(&train), arg(&input)], 1, 1),
        (
            vec!["generate", "-n", "3", "--seed", "1", "--format", "csv"],
            0,
            3,
        ),
        // Interrupted by nothing, with --progress drawing plain lines.
        (vec!["solve", "--progress", arg(&input)], 0, 3),
    ];
    for (args, want, rows) in cases {
        let out = dir.path().join("out.csv");
        let _ = std::fs::remove_file(&out);
        let mut all = args.clone();
        all.extend(["-o", arg(&out)]);
        let (code, _) = run_with_full_stderr(&all);
        assert_eq!(code, want, "{all:?}");
        let kept = std::fs::read(&out).unwrap_or_else(|e| panic!("{args:?}: -o not kept: {e}"));
        assert_eq!(parse_csv(&kept).1.len(), rows, "{args:?}");
    }
    // bench writes its table on stdout; its skipped-file note on stderr.
    let empty = write(dir.path(), "empty.txt", "");
    let (code, table) = run_with_full_stderr(&[
        "bench",
        "--min-time",
        "0",
        "-j",
        "1",
        "--format",
        "csv",
        arg(&empty),
        arg(&input),
    ]);
    assert_eq!(code, 0);
    assert_eq!(parse_csv(&table).1.len(), 1);
    // A usage error with nowhere to print it is still a usage error.
    let (code, _) = run_with_full_stderr(&["solve", "--no-such-flag"]);
    assert_eq!(code, 2);
}

#[test]
fn a_closed_stderr_pipe_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\n{HARD}\n"));
    let out = dir.path().join("out.csv");
    // stderr into a pipe whose reader exits at once; the status of the
    // batchdoku side of the pipe is printed.
    let script = r#""$0" "$@" 2>&1 >/dev/null | true; echo "${PIPESTATUS[0]}""#;
    let r = Command::new("bash")
        .args(["-c", script])
        .arg(bin())
        .args(["solve", "--progress", "-o", arg(&out), arg(&input)])
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&r.stdout).trim().to_string();
    assert_eq!(code, "0");
    assert_eq!(parse_csv(&std::fs::read(&out).unwrap()).1.len(), 2);
}

/// Runs `args` with stdout closed before the first write; returns the
/// exit code and stderr.
fn run_with_closed_stdout(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_gets_no_summary_of_unfinished_work() {
    let dir = tempfile::tempdir().unwrap();
    // Enough invalid training rows (about 1 MB) that the pipe breaks in
    // the training pass, as `| head -1` does.
    let junk = "not a puzzle\n".repeat(10_000);
    let train = write(dir.path(), "train.txt", format!("{junk}{EASY}\n"));
    let test = write(
        dir.path(),
        "test.txt",
        format!("{}\n{HARD}\n", relabelled(EASY)),
    );
    let (code, stderr) = run_with_closed_stdout(&["overlap", arg(&train), arg(&test)]);
    // 0, as for every closed stdout: the run did not finish, so it found
    // no leak and no invalid record to fail on.
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("leak"), "overlap claims results: {stderr}");
    assert!(!stderr.contains("test record"), "{stderr}");

    let many = format!("{EASY}\n{HARD}\n").repeat(5_000);
    let input = write(dir.path(), "in.txt", format!("{junk}{many}"));
    let (code, stderr) = run_with_closed_stdout(&["dedupe", arg(&input)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("kept"), "dedupe claims results: {stderr}");
    assert!(!stderr.contains("duplicates"), "{stderr}");
    // A small run whose pipe breaks only in the final flush: still 0.
    let small = write(dir.path(), "small.txt", format!("{EASY}\nbad\n"));
    let (code, stderr) = run_with_closed_stdout(&["solve", arg(&small)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stderr.contains("records"),
        "summary after a closed stdout: {stderr}"
    );
}

#[test]
fn dash_o_dash_writes_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\n{HARD}\n"));
    let plain = run(&["solve", "-q", arg(&input)], None);
    let dashed = run(&["solve", "-q", "-o", "-", arg(&input)], None);
    assert_eq!(dashed.code, 0, "{}", dashed.stderr);
    eqnice!(plain.stdout, dashed.stdout);
    assert_eq!(names(dir.path()), ["in.txt"], "a file named '-' was made");
}

#[test]
fn o_through_a_dangling_link_creates_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{EASY}\n"));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("sub/target.csv", &link).unwrap();
    let r = run(&["solve", "-q", "-o", arg(&link), arg(&input)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    let rows = parse_csv(&std::fs::read(dir.path().join("sub/target.csv")).unwrap()).1;
    assert_eq!(rows.len(), 1);
    assert_eq!(names(&dir.path().join("sub")), ["target.csv"]);
}
