//! `batchdoku bench`: the table's shape, one row per file and thread
//! count, guess statistics that depend only on the puzzles (and the
//! `--permute` seed), every SIMD path alike, CSV quoting, and fatal errors
//! for bad flags, files and a table that cannot be written.

use std::process::{Command, Stdio};

use crate::util::*;

const HEADER: [&str; 11] = [
    "file",
    "puzzles",
    "solver",
    "mode",
    "threads",
    "puzzles/s",
    "us/puzzle",
    "no-guess %",
    "guesses/puzzle",
    "speed-up",
    "simd",
];

/// Runs `bench --min-time 0 --format csv` with `args`, expecting success.
fn bench(args: &[&str]) -> Vec<Vec<String>> {
    let mut all = vec!["bench", "--min-time", "0", "--format", "csv"];
    all.extend_from_slice(args);
    let r = run(&all, None);
    assert_eq!(r.code, 0, "bench {args:?}: {}", r.stderr);
    let (header, rows) = r.csv();
    assert_eq!(header, HEADER);
    rows
}

fn number(field: &str) -> f64 {
    field
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {field}"))
}

#[test]
fn sample_by_default_one_row_per_thread_count() {
    let rows = bench(&["-j", "1,2", "-k", "2"]);
    let sample = std::fs::read_to_string(data("sample.txt")).unwrap();
    let puzzles = sample.lines().filter(|l| !l.trim().is_empty()).count();
    assert_eq!(rows.len(), 2);
    for (row, threads) in rows.iter().zip(["1", "2"]) {
        assert_eq!(row[0], "data/sample.txt");
        assert_eq!(number(&row[1]) as usize, puzzles);
        assert_eq!((row[2].as_str(), row[3].as_str()), ("mrv", "count2"));
        assert_eq!(row[4], threads);
        assert!(number(&row[5]) > 0.0 && number(&row[6]) > 0.0);
        assert!((0.0..=100.0).contains(&number(&row[7])));
        assert!(number(&row[8]) >= 0.0);
    }
    assert_eq!(rows[0][9], "1.00");
    // Guess statistics come from one pass over the same puzzles.
    assert_eq!(rows[0][7..9], rows[1][7..9]);
}

#[test]
fn permuted_puzzles_are_reproducible_from_the_seed() {
    let file = data("sample.txt");
    let file = arg(&file);
    let guesses = |args: &[&str]| {
        let mut all = vec!["-j", "1", "-k", "2", "--solver", "dlx"];
        all.extend_from_slice(args);
        all.push(file);
        let rows = bench(&all);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0][2], "dlx");
        rows[0][7..9].to_vec()
    };
    assert_eq!(guesses(&["--permute", "11"]), guesses(&["--permute", "11"]));
    // Over 20,000 random equivalents the DLX engine's guess count moves
    // away from the file's own orientation.
    assert_ne!(guesses(&["--permute", "11"]), guesses(&[]));
}

#[test]
fn bad_flags_and_files_are_fatal() {
    for args in [
        &["bench", "--permute", "x"][..],
        &["bench", "--min-time", "-1"],
        &["bench", "-j", "0"],
        &["bench", "no/such/file.txt"],
        &["bench", "--simd", "mmx"],
    ] {
        let r = run(args, None);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
}

/// `--simd` runs the path named, or fails (exit 2) when this build or CPU
/// lacks it; every path that runs makes the same guesses, and `auto` runs
/// the widest one that does. A CPU without AVX2 or AVX-512 compares fewer
/// paths, which under `CI=true` (a machine with both) is a failure.
#[test]
fn simd_paths_run_alike_or_are_refused() {
    let file = data("sample.txt");
    let file = arg(&file);
    let mut ran = Vec::new();
    for path in ["portable", "sse2", "avx2", "avx512"] {
        let args = [
            "bench",
            "--min-time",
            "0",
            "--format",
            "csv",
            "-j",
            "1",
            "-k",
            "2",
        ];
        let r = run(&[&args[..], &["--simd", path, file]].concat(), None);
        if r.code == 2 {
            assert!(
                r.stderr.contains("not available here"),
                "{path}: {}",
                r.stderr
            );
            // The wide paths must run where the CPU has them: CI's does.
            if path.starts_with("avx") {
                required(&format!("the {path} path"), false);
            }
            continue;
        }
        assert_eq!(r.code, 0, "{path}: {}", r.stderr);
        let (_, rows) = r.csv();
        assert_eq!(rows[0][10], path);
        ran.push(rows[0].clone());
    }
    assert!(!ran.is_empty(), "no path ran");
    for row in &ran[1..] {
        assert_eq!(
            row[7..9],
            ran[0][7..9],
            "{} against {}",
            row[10],
            ran[0][10]
        );
    }
    let auto = bench(&["-j", "1", "-k", "2", file]);
    assert_eq!(
        auto[0][10],
        ran.last().unwrap()[10],
        "auto runs the widest path"
    );
    let dlx = bench(&["-j", "1", "--solver", "dlx", file]);
    assert_eq!(dlx[0][10], "-");
}

#[test]
fn bench_csv_quotes_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let odd = write(dir.path(), "a,b \"c\".txt", format!("{EASY}\n{HARD}\n"));
    let r = run(
        &[
            "bench",
            "--min-time",
            "0",
            "-j",
            "1,2",
            "--format",
            "csv",
            arg(&odd),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut rdr = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(r.stdout.as_slice());
    let width = rdr.headers().unwrap().len();
    assert_eq!(width, 11);
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    for row in rows {
        assert_eq!(row.len(), width, "{row:?}");
        assert_eq!(&row[0], arg(&odd));
    }
}

#[test]
fn bench_table_write_failure_exits_2() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(bin())
        .args(["bench", "--min-time", "0", "-j", "1"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bench_min_time_out_of_range_is_a_usage_error() {
    for bad in ["1e308", "inf", "NaN", "-1", "86401", "soon"] {
        let flag = format!("--min-time={bad}");
        let r = run(&["bench", &flag], None);
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("--min-time"), "{bad}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{bad}: {}", r.stderr);
    }
}
