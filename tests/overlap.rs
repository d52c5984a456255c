//! `batchdoku overlap`: exactly the planted leaks (random transformations
//! of training puzzles) are found whatever the thread count, and each row
//! names its split and counts within it.

use batchdoku_core::{Rng, Transform};

use crate::util::*;

#[test]
fn overlap_reports_exactly_the_planted_leaks() {
    let mut rng = Rng::new(21);
    let all = sample_grids(120);
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
    std::fs::write(&tr, lines_of(train)).unwrap();
    std::fs::write(&te, lines_of(&test)).unwrap();
    let (tr, te) = (arg(&tr), arg(&te));
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
    std::fs::write(dir.path().join("fresh.txt"), lines_of(fresh)).unwrap();
    let fresh_path = dir.path().join("fresh.txt");
    let r = run(&["overlap", "-q", tr, arg(&fresh_path)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.csv().1.len(), 0);
}

#[test]
fn overlap_rows_name_their_split_and_count_within_it() {
    let dir = tempfile::tempdir().unwrap();
    // Train: 3 records (the second invalid). Test: a blank line first, so
    // line and index differ; 4 records: a leak, an invalid, a puzzle not
    // in train, and a second leak.
    let train = write(
        dir.path(),
        "train.txt",
        format!("{EASY}\nbad train\n{EASY}\n"),
    );
    let test = write(
        dir.path(),
        "test.txt",
        format!("\n{}\nbad test\n{HARD}\n{EASY}\n", relabelled(EASY)),
    );
    let r = run(&["overlap", arg(&train), arg(&test)], None);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(h[0], "split");
    let got: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|row| {
            (
                row[col(&h, "split")].as_str(),
                row[col(&h, "index")].as_str(),
                row[col(&h, "line")].as_str(),
                row[col(&h, "status")].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("train", "2", "2", "invalid"),
            ("test", "1", "2", "leak"),
            ("test", "2", "3", "invalid"),
            ("test", "4", "5", "leak"),
        ]
    );
    assert!(
        r.stderr
            .contains("3 train records (1 class), 4 test records, 2 leaks"),
        "{}",
        r.stderr
    );
    // JSONL names the split too.
    let r = run(
        &["overlap", "--format", "jsonl", arg(&train), arg(&test)],
        None,
    );
    let splits: Vec<String> = r
        .stdout_str()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{}{}", v["split"].as_str().unwrap(), v["index"])
        })
        .collect();
    assert_eq!(splits, ["train2", "test1", "test2", "test4"]);
    // And the help says what index counts.
    let help = run(&["overlap", "--help"], None);
    let help = help.stdout_str().split_whitespace().collect::<Vec<_>>();
    let help = help.join(" ");
    assert!(
        help.contains("`index` counts records within its split"),
        "{help}"
    );
}
