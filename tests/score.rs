//! `batchdoku score`: the NOIP samples' scores, every status, the
//! solution count, weights files and their errors.

use crate::util::*;

#[test]
fn noip_samples_score_2829_and_2852() {
    let r = run_paths(&["score", "-q"], &[&fixture("formats/luogu.txt")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(
        h,
        ["index", "line", "puzzle", "status", "score", "solution", "nodes", "error"]
    );
    let scores: Vec<&str> = rows.iter().map(|r| r[col(&h, "score")].as_str()).collect();
    assert_eq!(scores, ["2829", "2852"]);
    for row in &rows {
        assert_eq!(row[col(&h, "status")], "solved");
        assert_solves(&row[col(&h, "puzzle")], &row[col(&h, "solution")]);
    }
}

#[test]
fn unsolvable_invalid_and_limited_puzzles() {
    let r = run_paths(
        &["score", "-q", "--node-limit", "3"],
        &[&fixture("statuses.txt")],
    );
    assert_eq!(r.code, 1);
    let (h, rows) = r.csv();
    let get = |i: usize, c: &str| rows[i][col(&h, c)].clone();
    assert_eq!(get(0, "status"), "solved"); // singles only: fewer nodes than the limit
    assert_eq!(
        (get(1, "status"), get(1, "score")),
        ("unsolvable".into(), "-1".into())
    );
    assert_eq!(
        (get(2, "status"), get(2, "score")),
        ("invalid".into(), String::new())
    );
    assert_eq!(get(5, "status"), "limit"); // the empty grid
    assert_eq!(get(5, "nodes"), "3");
}

#[test]
fn count_adds_solutions_column() {
    let r = run_paths(
        &["score", "-q", "--count"],
        &[&fixture("formats/luogu.txt")],
    );
    let (h, rows) = r.csv();
    assert_eq!(h.last().unwrap(), "solutions");
    // Counted independently by the solver's own counter.
    let counted = run_paths(
        &["solve", "-q", "-k", "1000000"],
        &[&fixture("formats/luogu.txt")],
    );
    let (ch, crows) = counted.csv();
    for (row, crow) in rows.iter().zip(&crows) {
        assert_eq!(row[col(&h, "solutions")], crow[col(&ch, "solutions")]);
    }
    assert_eq!(rows[0][col(&h, "score")], "2829");
}

#[test]
fn weights_file_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ones = dir.path().join("ones.txt");
    std::fs::write(&ones, "1 ".repeat(81)).unwrap();
    let luogu = fixture("formats/luogu.txt");
    let r = run_paths(&["score", "-q", "--weights", arg(&ones)], &[&luogu]);
    assert_eq!(r.code, 0);
    let (h, rows) = r.csv();
    // With unit weights every solution scores 9 * 45.
    assert!(rows.iter().all(|row| row[col(&h, "score")] == "405"));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1 2 x").unwrap();
    let r = run(&["score", "--weights", arg(&bad)], Some(b""));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad weights file"), "{}", r.stderr);
    let r = run(&["score", "--solver", "dlx"], Some(b""));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("dlx"), "{}", r.stderr);
}

#[test]
fn a_count_cut_short_by_the_node_limit_is_left_empty() {
    // 1,152 solutions: the node limit stops the count long before.
    let many = ".................1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let input = format!("{many}\n{EASY}\n");
    let counted = run(&["solve", "-q", "-k", "100000"], Some(input.as_bytes()));
    let (ch, crows) = counted.csv();
    assert_eq!(crows[0][col(&ch, "solutions")], "1152");

    let limited = run(
        &["score", "-q", "--count", "--node-limit", "50"],
        Some(input.as_bytes()),
    );
    assert_eq!(limited.code, 0, "{}", limited.stderr);
    let (h, rows) = limited.csv();
    let get = |i: usize, c: &str| rows[i][col(&h, c)].clone();
    assert_eq!(
        (get(0, "status"), get(0, "solutions")),
        ("limit".into(), String::new())
    );
    // A puzzle searched to the end under the same limit keeps its count.
    assert_eq!(
        (get(1, "status"), get(1, "solutions")),
        ("solved".into(), "1".into())
    );

    let json = run(
        &[
            "score",
            "-q",
            "--count",
            "--node-limit",
            "50",
            "--format",
            "jsonl",
        ],
        Some(input.as_bytes()),
    );
    let first: serde_json::Value =
        serde_json::from_str(json.stdout_str().lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "limit");
    assert!(first["solutions"].is_null(), "{first}");

    // Without the limit the count is exact.
    let full = run(&["score", "-q", "--count"], Some(input.as_bytes()));
    let (h, rows) = full.csv();
    assert_eq!(rows[0][col(&h, "solutions")], "1152");
}

/// A weights file is small: `/dev/zero` (or any file past 64 KiB) is a
/// usage error at once, not gigabytes of memory; a table saved with a
/// UTF-8 byte order mark and CRLF line endings reads like any other.
#[test]
fn weights_files_are_bounded_and_may_carry_a_bom_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_within(
        30,
        &["score", "--weights", "/dev/zero"],
        &[],
        Some(Vec::new()),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("more than 65536 bytes"), "{}", r.stderr);
    let big = write(dir.path(), "big.txt", "1 ".repeat(40_000));
    let r = run(&["score", "--weights", arg(&big)], Some(b""));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("bad weights file"), "{}", r.stderr);

    let rows: Vec<String> = (0..9)
        .map(|_| "1 ".repeat(9).trim_end().to_string())
        .collect();
    let windows = format!("\u{feff}{}\r\n", rows.join("\r\n"));
    let bom = write(dir.path(), "bom.txt", windows);
    let luogu = fixture("formats/luogu.txt");
    let r = run_paths(&["score", "-q", "--weights", arg(&bom)], &[&luogu]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    // Unit weights: every solution scores 9 * 45.
    assert!(
        rows.iter().all(|row| row[col(&h, "score")] == "405"),
        "{rows:?}"
    );
}
