//! `batchdoku solve`: statuses, columns, exit codes, flags, the rate
//! columns, both engines, and rows in input order whatever the threads.

use crate::util::*;

#[test]
fn every_status_and_error_is_reported_in_place() {
    let r = run_paths(&["solve", "-q", "-k", "2"], &[&fixture("statuses.txt")]);
    assert_eq!(r.code, 1, "some records are invalid: {}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(
        h,
        [
            "index",
            "line",
            "puzzle",
            "status",
            "solutions",
            "solution",
            "guesses",
            "error"
        ]
    );
    let status: Vec<&str> = rows.iter().map(|r| r[col(&h, "status")].as_str()).collect();
    assert_eq!(
        status,
        [
            "unique",
            "unsolvable",
            "invalid",
            "invalid",
            "invalid",
            "multiple",
            "multiple"
        ]
    );
    let err = |i: usize| rows[i][col(&h, "error")].as_str();
    assert!(
        err(2).ends_with("statuses.txt:3: expected 81 cells, found 79"),
        "{}",
        err(2)
    );
    assert!(
        err(3).ends_with(":4: bad character 'x' at column 80"),
        "{}",
        err(3)
    );
    assert!(
        err(4).contains(":5: contradictory givens: digit 3 twice in row 1"),
        "{}",
        err(4)
    );
    assert_eq!(err(0), "");
    for row in &rows {
        let solution = &row[col(&h, "solution")];
        if !solution.is_empty() {
            assert_solves(&row[col(&h, "puzzle")], solution);
        }
    }
    assert_eq!(rows[5][col(&h, "solutions")], "2");
    assert_eq!(rows[1][col(&h, "solutions")], "0");
}

#[test]
fn first_solution_mode_says_solved() {
    let r = run_paths(&["solve", "-q"], &[&fixture("statuses.txt")]);
    let (h, rows) = r.csv();
    assert_eq!(rows[0][col(&h, "status")], "solved");
    assert_eq!(rows[5][col(&h, "status")], "solved");
    assert_eq!(rows[5][col(&h, "solutions")], "1");
    assert_eq!(rows[1][col(&h, "status")], "unsolvable");
}

#[test]
fn sample_solutions_are_valid_and_agree_with_counts() {
    let r = run_paths(&["solve", "-q", "-k", "2"], &[&data("sample.txt")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    let input = std::fs::read_to_string(data("sample.txt")).unwrap();
    assert_eq!(rows.len(), input.lines().count());
    let mut unique = 0;
    for (row, line) in rows.iter().zip(input.lines()) {
        assert_eq!(row[col(&h, "puzzle")], line);
        assert_solves(line, &row[col(&h, "solution")]);
        match row[col(&h, "status")].as_str() {
            "unique" => unique += 1,
            "multiple" => assert_eq!(row[col(&h, "solutions")], "2"),
            s => panic!("unexpected status {s}"),
        }
    }
    assert_eq!(unique, 171);
}

#[test]
fn exit_codes() {
    let ok = run(&["solve", "-q"], Some(format!("{EASY}\n").as_bytes()));
    assert_eq!(ok.code, 0);
    let unsolvable = run(
        &["solve", "-q"],
        Some(
            b".12345678...........................9............................................\n",
        ),
    );
    assert_eq!(
        unsolvable.code, 0,
        "an unsolvable puzzle is a result, not an error"
    );
    let invalid = run(&["solve", "-q"], Some(b"12\n"));
    assert_eq!(invalid.code, 1);
    let missing = run(&["solve", "/no/such/file.txt"], None);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("/no/such/file.txt"),
        "{}",
        missing.stderr
    );
    assert!(
        missing.stdout.is_empty(),
        "nothing written before a fatal error"
    );
    let bad_flag = run(&["solve", "--no-such-flag"], None);
    assert_eq!(bad_flag.code, 2);
    let bad_k = run(&["solve", "-k", "0"], None);
    assert_eq!(bad_k.code, 2);
    let help = run(&["solve", "--help"], None);
    assert_eq!(help.code, 0);
    assert!(help.stdout_str().contains("--count-limit"));
}

#[test]
fn empty_and_blank_inputs_give_no_rows() {
    for input in [&b""[..], b"\n\n  \n", b"\r\n"] {
        let r = run(&["solve", "-q"], Some(input));
        assert_eq!(r.code, 0);
        let (_, rows) = r.csv();
        assert!(rows.is_empty());
    }
}

#[test]
fn summary_reports_counts_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let statuses = fixture("statuses.txt");
    let r = run_paths(
        &["solve", "-k", "2", "--summary-json", arg(&json)],
        &[&statuses],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("7 records"), "{}", r.stderr);
    assert!(r.stderr.contains("invalid 3"), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["records"], 7);
    assert_eq!(v["statuses"]["invalid"], 3);
    assert_eq!(v["statuses"]["multiple"], 2);
    assert_eq!(v["statuses"]["unique"], 1);
    assert_eq!(v["statuses"]["unsolvable"], 1);
    let quiet = run_paths(&["solve", "-q"], &[&fixture("statuses.txt")]);
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
}

#[test]
fn difficulty_columns_are_thread_independent_and_mean_what_they_say() {
    // The first 20 puzzles of Norvig's top95 (a small copy of
    // ../shared/data/top95.txt, so the test never quietly runs without them).
    let hard = std::fs::read_to_string(fixture("top95_first20.txt")).unwrap();
    assert_eq!(hard.lines().count(), 20);
    let hard = hard.trim_end();
    let input = format!(
        "{}\n{hard}\n{}\n",
        std::fs::read_to_string(data("sample.txt")).unwrap(),
        // Solved by singles: a complete grid with every 5 removed.
        SOLVED.replace('5', ".")
    );
    let one = run(
        &["solve", "--difficulty", "-j", "1", "--batch-size", "5"],
        Some(input.as_bytes()),
    );
    let two = run(
        &["solve", "--difficulty", "-j", "2", "--batch-size", "3"],
        Some(input.as_bytes()),
    );
    assert_eq!(one.code, 0, "{}", one.stderr);
    eqnice!(one.stdout, two.stdout);
    // `--rate`, the flag's name before 0.3.0, is a hidden alias for this
    // release.
    let old_name = run(&["solve", "--rate", "-j", "2"], Some(input.as_bytes()));
    eqnice!(one.stdout, old_name.stdout);
    let help = run(&["solve", "--help"], None);
    let help = help.stdout_str();
    assert!(help.contains("--difficulty"));
    assert!(
        !help.lines().any(|l| l.trim_start().starts_with("--rate")),
        "a hidden alias: {help}"
    );
    let (h, rows) = one.csv();
    let (g, b, s) = (
        col(&h, "guesses"),
        col(&h, "backtracks"),
        col(&h, "singles"),
    );
    assert!(g < b && b < s, "rating columns follow guesses: {h:?}");
    for row in &rows {
        let (guesses, backtracks): (u64, u64) = (row[g].parse().unwrap(), row[b].parse().unwrap());
        // Each guess opens at most one dead end before the first solution
        // (its alternative is only resumed after one).
        assert!(backtracks <= guesses, "{row:?}");
        if row[s] == "true" {
            assert_eq!(guesses, 0, "singles solve it, so no guess: {row:?}");
        }
    }
    assert_eq!(rows.last().unwrap()[s], "true");
    assert!(rows.iter().filter(|r| r[s] == "false").count() > 100);
    let dlx = run(
        &["solve", "--difficulty", "--solver", "dlx"],
        Some(input.as_bytes()),
    );
    assert_eq!(dlx.code, 2);
    assert!(dlx.stderr.contains("--difficulty"), "{}", dlx.stderr);
}

#[test]
fn output_is_identical_for_one_and_two_threads() {
    let input = sample_and_junk(3);
    let one = run(
        &["solve", "-q", "-k", "2", "-j", "1", "--batch-size", "3"],
        Some(&input),
    );
    let two = run(
        &["solve", "-q", "-k", "2", "-j", "2", "--batch-size", "3"],
        Some(&input),
    );
    let many = run(
        &["solve", "-q", "-k", "2", "-j", "7", "--batch-size", "1"],
        Some(&input),
    );
    assert_eq!(one.code, 1);
    eqnice!(one.stdout, two.stdout);
    eqnice!(one.stdout, many.stdout);
    let (h, rows) = two.csv();
    assert_eq!(rows.len(), 3 * 212);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row[col(&h, "index")],
            (i + 1).to_string(),
            "rows out of order"
        );
    }
    // The invalid record sits in place, naming its line.
    let bad = &rows[211];
    assert_eq!(bad[col(&h, "status")], "invalid");
    assert_eq!(bad[col(&h, "line")], "212");
    assert!(
        bad[col(&h, "error")].starts_with("<stdin>:212: "),
        "{:?}",
        bad
    );
}

#[test]
fn dlx_agrees_with_mrv_through_the_pipeline() {
    for k in ["1", "2", "10"] {
        let mrv = run_paths(
            &["solve", "-q", "-k", k],
            &[&data("sample.txt"), &fixture("statuses.txt")],
        );
        let dlx = run_paths(
            &["solve", "-q", "-k", k, "--solver", "dlx"],
            &[&data("sample.txt"), &fixture("statuses.txt")],
        );
        assert_eq!(mrv.code, dlx.code);
        let (h, a) = mrv.csv();
        let (_, b) = dlx.csv();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            for c in ["index", "status", "solutions", "error"] {
                assert_eq!(x[col(&h, c)], y[col(&h, c)], "column {c}, K={k}");
            }
            if !y[col(&h, "solution")].is_empty() {
                assert_solves(&y[col(&h, "puzzle")], &y[col(&h, "solution")]);
            }
            if x[col(&h, "status")] == "unique" {
                assert_eq!(x[col(&h, "solution")], y[col(&h, "solution")]);
            }
        }
    }
}
