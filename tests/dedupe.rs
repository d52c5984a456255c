//! `batchdoku dedupe` on files with planted copies (exact copies and
//! random transformations of the bundled sample's puzzles): exactly the
//! first of each class is kept, in input order, whatever the thread count;
//! files and stdin agree; `--exact` merges only identical lines.

use std::collections::HashMap;

use batchdoku_core::{Rng, Transform};

use crate::util::*;

/// A file of distinct puzzles with planted copies: exact copies and random
/// transformations of earlier records, at random places. Returns the
/// lines and, per line, the index of the first record of its class.
fn planted(seed: u64, distinct: usize, copies: usize) -> (Vec<String>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let base = sample_grids(distinct);
    let mut out: Vec<(String, usize)> = base
        .iter()
        .enumerate()
        .map(|(i, g)| (g.to_line_string(), i))
        .collect();
    for _ in 0..copies {
        let class = rng.below(distinct as u64) as usize;
        let exact = rng.below(3) == 0;
        let grid = if exact {
            base[class]
        } else {
            Transform::random(&mut rng).apply(&base[class])
        };
        // Copies go after the original, somewhere later in the file.
        let first = out.iter().position(|(_, c)| *c == class).unwrap();
        let at = first + 1 + rng.below((out.len() - first) as u64) as usize;
        out.insert(at, (grid.to_line_string(), class));
    }
    let mut first_of: HashMap<usize, usize> = HashMap::new();
    let firsts = out
        .iter()
        .enumerate()
        .map(|(i, (_, c))| *first_of.entry(*c).or_insert(i))
        .collect();
    (out.into_iter().map(|(l, _)| l).collect(), firsts)
}

#[test]
fn dedupe_keeps_exactly_the_first_of_each_planted_class() {
    let (lines, firsts) = planted(5, 60, 90);
    let mut text = lines.join("\n");
    text += "\n12345\n"; // an invalid record, kept in place
    let one = run(
        &["dedupe", "-j", "1", "--batch-size", "7"],
        Some(text.as_bytes()),
    );
    let two = run(
        &["dedupe", "-j", "2", "--batch-size", "3"],
        Some(text.as_bytes()),
    );
    assert_eq!(one.code, 1, "{}", one.stderr);
    eqnice!(one.stdout, two.stdout);
    let (h, rows) = one.csv();
    let mut expected_dropped: HashMap<usize, u64> = HashMap::new();
    for (i, &f) in firsts.iter().enumerate() {
        if i != f {
            *expected_dropped.entry(f).or_default() += 1;
        }
    }
    let kept: Vec<usize> = (0..lines.len()).filter(|&i| firsts[i] == i).collect();
    assert_eq!(kept.len(), 60);
    assert_eq!(rows.len(), 61);
    for (row, &i) in rows.iter().zip(&kept) {
        assert_eq!(row[col(&h, "line")], (i + 1).to_string());
        assert_eq!(row[col(&h, "puzzle")], lines[i]);
        assert_eq!(
            row[col(&h, "dropped")],
            expected_dropped.get(&i).copied().unwrap_or(0).to_string()
        );
    }
    let last = &rows[60];
    assert_eq!(last[col(&h, "status")], "invalid");
    assert_eq!(last[col(&h, "line")], (lines.len() + 1).to_string());
    assert!(
        one.stderr
            .contains("60 classes kept, 90 duplicates dropped"),
        "{}",
        one.stderr
    );
}

#[test]
fn dedupe_from_files_and_stdin_agree_and_exact_merges_only_identical() {
    let (lines, _) = planted(9, 30, 40);
    let text = lines.join("\n") + "\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("planted.txt");
    std::fs::write(&path, &text).unwrap();
    let p = arg(&path);
    let from_file = run(&["dedupe", "-q", p], None);
    let from_stdin = run(&["dedupe", "-q"], Some(text.as_bytes()));
    assert_eq!(from_file.code, 0);
    assert_eq!(
        from_file.stdout_str().lines().count(),
        from_stdin.stdout_str().lines().count()
    );
    let strip = |s: &str| {
        s.lines()
            .skip(1)
            .map(|l| l.splitn(3, ',').nth(2).unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        strip(from_file.stdout_str()),
        strip(from_stdin.stdout_str())
    );

    // --exact keeps one row per distinct line.
    let exact = run(&["dedupe", "-q", "--exact", "--format", "line", p], None);
    let mut seen = std::collections::HashSet::new();
    let expected: Vec<&String> = lines.iter().filter(|l| seen.insert(*l)).collect();
    let got: Vec<&str> = exact.stdout_str().lines().collect();
    assert_eq!(got, expected);
    assert!(got.len() > 30, "exact copies only: more rows than classes");
}

#[test]
fn dedupe_summary_json_counts_records_rows_and_duplicates() {
    let (lines, _) = planted(2, 20, 15);
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let r = run(
        &["dedupe", "-q", "--summary-json", arg(&summary)],
        Some((lines.join("\n") + "\n").as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(json["records"], 35);
    assert_eq!(json["rows"], 20);
    assert_eq!(json["statuses"]["duplicate"], 15);
    assert_eq!(json["statuses"]["ok"], 20);
}
