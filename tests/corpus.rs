//! `canon`, `dedupe` and `overlap` on files built from random
//! transformations of known puzzles: exactly the planted duplicates and
//! leaks are found, in input order, whatever the thread count.

use std::collections::HashMap;

use batchdoku::parse_line;
use batchdoku::Grid;
use batchdoku::Rng;
use batchdoku::Transform;

use crate::util::{col, data, run};

/// The first `n` puzzles of the bundled sample (pairwise inequivalent:
/// `sample_puzzles_are_pairwise_inequivalent` checks it).
fn sample(n: usize) -> Vec<Grid> {
    std::fs::read_to_string(data("sample.txt"))
        .unwrap()
        .lines()
        .take(n)
        .map(|l| parse_line(l.as_bytes()).unwrap())
        .collect()
}

fn lines(grids: &[Grid]) -> String {
    grids.iter().map(|g| g.to_line_string() + "\n").collect()
}

#[test]
fn sample_puzzles_are_pairwise_inequivalent() {
    let r = run(
        &["canon", "-q", "--format", "line"],
        Some(lines(&sample(211)).as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let forms: std::collections::HashSet<&str> = r.stdout_str().lines().collect();
    assert_eq!(forms.len(), 211);
}

#[test]
fn canon_rows_carry_a_transform_that_reaches_the_form() {
    let mut rng = Rng::new(11);
    let base = sample(40);
    let mut input = String::new();
    let mut moved = Vec::new();
    for g in &base {
        let t = Transform::random(&mut rng);
        moved.push(t.apply(g));
        input += &t.apply(g).to_line_string();
        input.push('\n');
    }
    input += "not a puzzle\n";
    let r = run(&["canon", "-j", "2"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 41);
    let own = run(&["canon", "-j", "1"], Some(lines(&base).as_bytes()));
    let (_, own_rows) = own.csv();
    for (i, row) in rows[..40].iter().enumerate() {
        assert_eq!(row[col(&h, "status")], "ok");
        let t: Transform = row[col(&h, "transform")].parse().unwrap();
        let form = parse_line(row[col(&h, "canonical")].as_bytes()).unwrap();
        assert_eq!(t.apply(&moved[i]), form);
        // Equivalent puzzles share the form.
        assert_eq!(row[col(&h, "canonical")], own_rows[i][col(&h, "canonical")]);
    }
    assert_eq!(rows[40][col(&h, "status")], "invalid");
    assert!(rows[40][col(&h, "error")].starts_with("<stdin>:41:"));
}

/// A file of distinct puzzles with planted copies: exact copies and random
/// transformations of earlier records, at random places. Returns the
/// lines and, per line, the index of the first record of its class.
fn planted(seed: u64, distinct: usize, copies: usize) -> (Vec<String>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let base = sample(distinct);
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
    assert_eq!(one.stdout, two.stdout);
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
    let p = path.to_str().unwrap();
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
        &["dedupe", "-q", "--summary-json", summary.to_str().unwrap()],
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

#[test]
fn overlap_reports_exactly_the_planted_leaks() {
    let mut rng = Rng::new(21);
    let all = sample(120);
    let (train, fresh) = all.split_at(80);
    let mut test = Vec::new();
    let mut leaks = Vec::new(); // (test line, train line)
    for (i, g) in fresh.iter().enumerate() {
        test.push(*g);
        if i % 5 == 2 {
            let from = rng.below(80) as usize;
            test.push(Transform::random(&mut rng).apply(&train[from]));
            leaks.push((test.len(), from + 1));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let (tr, te) = (dir.path().join("train.txt"), dir.path().join("test.txt"));
    std::fs::write(&tr, lines(train)).unwrap();
    std::fs::write(&te, lines(&test)).unwrap();
    let (tr, te) = (tr.to_str().unwrap(), te.to_str().unwrap());
    for j in ["1", "2"] {
        let r = run(&["overlap", "-j", j, tr, te], None);
        assert_eq!(r.code, 1, "{}", r.stderr);
        let (h, rows) = r.csv();
        let got: Vec<(usize, usize)> = rows
            .iter()
            .map(|row| {
                assert_eq!(row[col(&h, "status")], "leak");
                (
                    row[col(&h, "line")].parse().unwrap(),
                    row[col(&h, "train_line")].parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, leaks);
    }
    // Disjoint splits: header only, exit 0.
    let r = run(
        &["overlap", "-q", tr, tr.replace("train", "none").as_str()],
        None,
    );
    assert_eq!(r.code, 2, "missing TEST file is fatal");
    std::fs::write(dir.path().join("fresh.txt"), lines(fresh)).unwrap();
    let fresh_path = dir.path().join("fresh.txt");
    let r = run(&["overlap", "-q", tr, fresh_path.to_str().unwrap()], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 0);
}
