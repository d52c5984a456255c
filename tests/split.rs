//! `batchdoku split`: the parts hit their ratios (per stratum too), no
//! class crosses sides (checked with `overlap` on the part files, by puzzle
//! and by solution grid), the same seed gives the same bytes at any thread
//! count, and every record keeps its row. The part files' layout (the
//! input's own) is `split_layout`'s.

use std::collections::HashMap;
use std::path::Path;

use batchdoku_core::{Canonicalizer, Grid, Rng, Transform};

use crate::util::*;

/// A corpus of a few thousand records: each sample puzzle and the puzzles
/// made from it by removing one given (mostly distinct classes), some
/// followed by equivalent copies (digits and rows permuted).
fn corpus() -> Vec<Grid> {
    let mut rng = Rng::new(28);
    let mut out = Vec::new();
    for p in sample_grids(211) {
        let givens: Vec<usize> = (0..81).filter(|&c| p.get(c) != 0).collect();
        for k in 0..12 {
            let mut q = p;
            if k > 0 {
                q.set(givens[(k * 7) % givens.len()], 0);
            }
            out.push(q);
            if k % 4 == 1 {
                out.push(Transform::random(&mut rng).apply(&q));
            }
        }
    }
    out
}

/// The rows of a CSV file.
fn rows_of(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    parse_csv(&std::fs::read(path).unwrap())
}

/// The lines of a text file (a part file of a line input).
fn lines_in(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Runs `split` and expects exit `code`.
fn split(args: &[&str], stdin: Option<&[u8]>, code: i32) -> Run {
    let mut all = vec!["split"];
    all.extend_from_slice(args);
    let r = run(&all, stdin);
    assert_eq!(r.code, code, "split {args:?}: {}", r.stderr);
    r
}

/// The canonical form of a puzzle line.
fn form(canon: &mut Canonicalizer, line: &str) -> Grid {
    canon
        .canonical(&batchdoku_core::parse_line(line.as_bytes()).unwrap())
        .0
}

#[test]
fn parts_hit_their_ratios_and_overlap_finds_no_leak() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = corpus();
    let input = write(dir.path(), "in.txt", lines_of(&puzzles));
    let parts = dir.path().join("parts");
    let r = split(
        &["-j", "2", arg(&input), "--output-dir", arg(&parts)],
        None,
        0,
    );
    assert!(
        r.stdout.is_empty(),
        "--output-dir without -o: no rows on stdout"
    );
    assert!(r.stderr.contains("batchdoku split: "), "{}", r.stderr);
    // A line input's parts are lines too.
    assert_eq!(names(&parts), ["test.txt", "train.txt", "valid.txt"]);
    let n = puzzles.len() as f64;
    for (name, ratio) in [("train", 0.8), ("valid", 0.1), ("test", 0.1)] {
        let got = lines_in(&parts.join(format!("{name}.txt"))).len() as f64;
        assert!((got / n - ratio).abs() < 0.005, "{name}: {got} of {n}");
    }
    for (a, b) in [("train", "test"), ("train", "valid"), ("valid", "test")] {
        let (a, b) = (
            parts.join(format!("{a}.txt")),
            parts.join(format!("{b}.txt")),
        );
        let r = run(&["overlap", "-q", arg(&a), arg(&b)], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.csv().1.len(), 0, "no leak from {a:?} to {b:?}");
    }
}

#[test]
fn equivalent_copies_land_together() {
    let mut rng = Rng::new(5);
    let mut puzzles = Vec::new();
    for p in sample_grids(150) {
        puzzles.push(p);
        for _ in 0..(rng.below(3)) {
            puzzles.push(Transform::random(&mut rng).apply(&p));
        }
    }
    // Copies spread through the input, not next to their original.
    let order: Vec<usize> = {
        let mut o: Vec<usize> = (0..puzzles.len()).collect();
        for i in (1..o.len()).rev() {
            o.swap(i, rng.below(i as u64 + 1) as usize);
        }
        o
    };
    let shuffled: Vec<Grid> = order.iter().map(|&i| puzzles[i]).collect();
    let r = split(
        &["-q", "--ratios", "1,1"],
        Some(lines_of(&shuffled).as_bytes()),
        0,
    );
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), shuffled.len());
    let mut canon = Canonicalizer::new();
    let mut side: HashMap<Grid, String> = HashMap::new();
    let mut copies = 0;
    for row in &rows {
        let class = form(&mut canon, &row[col(&h, "puzzle")]);
        let part = row[col(&h, "split")].clone();
        assert!(part == "train" || part == "test", "{part}");
        match side.get(&class) {
            Some(seen) => {
                copies += 1;
                assert_eq!(seen, &part, "a class on two sides");
            }
            None => {
                side.insert(class, part);
            }
        }
    }
    assert!(copies > 50, "the corpus has copies: {copies}");
}

/// Pairs of different puzzles with one solution grid: a puzzle, and a
/// moved copy of it with one more given (from its solution).
fn same_solution_pairs(n: usize) -> Vec<Grid> {
    let mut rng = Rng::new(9);
    let mut engine = batchdoku_core::Solver::new();
    let mut out = Vec::new();
    for p in sample_grids(n) {
        use batchdoku_core::Engine as _;
        let outcome = engine.count_solutions_up_to(&p, 2).unwrap();
        if outcome.solutions != 1 {
            continue;
        }
        let solution = outcome.solution.unwrap();
        let mut more = p;
        let blank = (0..81).find(|&c| p.get(c) == 0).unwrap();
        more.set(blank, solution.get(blank));
        out.push(p);
        out.push(Transform::random(&mut rng).apply(&more));
    }
    out
}

#[test]
fn by_grid_keeps_same_solution_puzzles_together() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = same_solution_pairs(200);
    assert!(puzzles.len() > 200);
    let input = write(dir.path(), "in.txt", lines_of(&puzzles));
    for (by, leaks_expected) in [("puzzle", true), ("grid", false)] {
        let parts = dir.path().join(by);
        let args = [
            "-q",
            "--ratios",
            "0.5,0.5",
            "--by",
            by,
            arg(&input),
            "--output-dir",
            arg(&parts),
        ];
        split(&args, None, 0);
        let (tr, te) = (parts.join("train.txt"), parts.join("test.txt"));
        let r = run(&["overlap", "-q", "--by", "grid", arg(&tr), arg(&te)], None);
        let leaks = r.csv().1.len();
        if leaks_expected {
            // By puzzle, the pairs are two classes: some fall apart, and
            // overlap --by grid finds them.
            assert_eq!(r.code, 1, "{}", r.stderr);
            assert!(leaks > 10, "{leaks}");
        } else {
            assert_eq!((r.code, leaks), (0, 0), "{}", r.stderr);
        }
        // By puzzle, no puzzle class crosses in either case.
        let r = run(&["overlap", "-q", arg(&tr), arg(&te)], None);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    // By grid the status says how many solutions the key came from.
    let nearly_empty = format!("{}12\n", ".".repeat(79));
    let r = split(&["-q", "--by", "grid"], Some(nearly_empty.as_bytes()), 0);
    let (h, rows) = r.csv();
    assert_eq!(rows[0][col(&h, "status")], "multiple");
    assert!(!rows[0][col(&h, "split")].is_empty());
}

#[test]
fn same_seed_same_bytes_at_any_thread_count_and_another_seed_differs() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", lines_of(&corpus()));
    let out = |seed: &str, j: &str| {
        let args = [
            "-q",
            "--batch-size",
            "64",
            "-j",
            j,
            "--seed",
            seed,
            arg(&input),
        ];
        split(&args, None, 0).stdout
    };
    let one = out("7", "1");
    assert_eq!(one, out("7", "2"));
    assert_ne!(one, out("8", "2"));
    let (h, rows) = parse_csv(&one);
    assert_eq!(h, ["index", "line", "puzzle", "status", "split", "error"]);
    assert_eq!(rows.len(), corpus().len());
}

#[test]
fn stratify_keeps_each_strata_ratios() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(3);
    let mut csv = String::from("id,puzzle,rating\n");
    let mut ratings = Vec::new();
    for (i, p) in corpus().iter().enumerate() {
        // A skewed rating: "hard" for about one record in five.
        let rating = if rng.below(5) == 0 { "hard" } else { "easy" };
        ratings.push(rating);
        csv.push_str(&format!("{i},{},{rating}\n", p.to_line_string()));
    }
    let input = write(dir.path(), "in.csv", &csv);
    let r = split(
        &["-q", "--stratify", "rating", "--seed", "1", arg(&input)],
        None,
        0,
    );
    let (h, rows) = r.csv();
    // The rating column is carried through (implied --keep-columns).
    assert!(h.contains(&"rating".to_string()), "{h:?}");
    for stratum in ["easy", "hard"] {
        let parts: Vec<&str> = rows
            .iter()
            .filter(|row| row[col(&h, "rating")] == stratum)
            .map(|row| row[col(&h, "split")].as_str())
            .collect();
        let n = parts.len() as f64;
        for (name, ratio) in [("train", 0.8), ("valid", 0.1), ("test", 0.1)] {
            let got = parts.iter().filter(|&&p| p == name).count() as f64;
            // Within a few classes (of at most two records) of the share.
            assert!(
                (got - ratio * n).abs() <= 6.0,
                "{stratum} {name}: {got} of {n}"
            );
        }
    }
    // Guesses as strata; and an unknown column is a usage error.
    let dir_parts = dir.path().join("g");
    split(
        &[
            "-q",
            "--stratify",
            "guesses",
            arg(&input),
            "--output-dir",
            arg(&dir_parts),
        ],
        None,
        0,
    );
    let r = run(
        &[
            "overlap",
            "-q",
            arg(&dir_parts.join("train.csv")),
            arg(&dir_parts.join("test.csv")),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = split(&["-q", "--stratify", "nope", arg(&input)], None, 2);
    assert!(r.stderr.contains("nope"), "{}", r.stderr);
}

/// Each part file holds the records of its part: for a line input, the
/// input lines whose row in `-o` names that part, in input order.
#[test]
fn output_dir_files_hold_the_records_of_each_part() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = lines_of(&corpus()[..400]);
    input.push_str("not a puzzle\n");
    let input_path = write(dir.path(), "in.txt", &input);
    let parts = dir.path().join("out");
    let all = dir.path().join("all.csv");
    let args = [
        "-q",
        "--names",
        "a,b,c",
        "--ratios",
        "2,1,1",
        arg(&input_path),
        "-o",
        arg(&all),
        "--output-dir",
        arg(&parts),
    ];
    let r = split(&args, None, 1);
    assert!(r.stdout.is_empty());
    assert_eq!(names(&parts), ["a.txt", "b.txt", "c.txt"]);
    let (h, rows) = rows_of(&all);
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(rows.len(), lines.len(), "-o keeps every record's row");
    for name in ["a", "b", "c"] {
        let wanted: Vec<String> = rows
            .iter()
            .zip(&lines)
            .filter(|(row, _)| row[col(&h, "split")] == name)
            .map(|(_, line)| line.to_string())
            .collect();
        assert!(!wanted.is_empty());
        assert_eq!(
            lines_in(&parts.join(format!("{name}.txt"))),
            wanted,
            "{name}"
        );
    }
    // --format shapes the rows of -o: without -o there are none, so it is
    // refused rather than ignored; with -o the part files are the same.
    let lines_dir = dir.path().join("lines");
    let mut with_format = vec!["-q", "--format", "line", arg(&input_path)];
    with_format.extend(["--output-dir", arg(&lines_dir)]);
    let r = split(&with_format, None, 2);
    assert!(r.stderr.contains("--format line"), "{}", r.stderr);
    assert!(
        !lines_dir.exists(),
        "a usage error made {}",
        lines_dir.display()
    );
    let rows_path = dir.path().join("rows.txt");
    with_format.extend(["-o", arg(&rows_path)]);
    split(&with_format, None, 1);
    assert_eq!(names(&lines_dir), ["test.txt", "train.txt", "valid.txt"]);
    let total: usize = names(&lines_dir)
        .iter()
        .map(|n| lines_in(&lines_dir.join(n)).len())
        .sum();
    assert_eq!(total, 400, "every valid record in one part file");
    assert_eq!(lines_in(&rows_path).len(), 401, "-o: every record's row");
}

#[test]
fn invalid_records_keep_their_row_without_a_part_and_stdin_works() {
    let mut input = String::new();
    for (i, p) in corpus()[..30].iter().enumerate() {
        input.push_str(&p.to_line_string());
        input.push('\n');
        if i % 10 == 3 {
            input.push_str("not a puzzle\n");
        }
    }
    // Contradictory givens: well-formed, still invalid.
    input.push_str("11");
    input.push_str(&".".repeat(79));
    input.push('\n');
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "in.txt", &input);
    let from_stdin = split(&["-q"], Some(input.as_bytes()), 1);
    let (h, rows) = from_stdin.csv();
    assert_eq!(rows.len(), 34, "one row per record");
    for row in &rows {
        let invalid = row[col(&h, "status")] == "invalid";
        assert_eq!(invalid, row[col(&h, "split")].is_empty(), "{row:?}");
        if invalid {
            assert!(!row[col(&h, "error")].is_empty());
        }
    }
    assert_eq!(
        rows.iter()
            .filter(|r| r[col(&h, "status")] == "invalid")
            .count(),
        4
    );
    // The same rows as from the file, bar the name in the errors.
    let from_file = split(&["-q", arg(&path)], None, 1);
    let (_, file_rows) = from_file.csv();
    let parts = |rows: &[Vec<String>]| column(&h, rows, "split");
    assert_eq!(parts(&rows), parts(&file_rows));
}

#[test]
fn bad_plans_are_usage_errors() {
    let input = lines_of(&sample_grids(5));
    for args in [
        &["--ratios", "1"][..],
        &["--ratios", "1,0"],
        &["--ratios", "1,1", "--names", "a,b,c"],
        &["--ratios", "1,1,1,1"],
        &["--names", "a,a,b"],
        &["--names", "a/b,c,d"],
    ] {
        let mut all = vec!["-q"];
        all.extend_from_slice(args);
        split(&all, Some(input.as_bytes()), 2);
    }
}

/// Every output a split writes (`-o`, `--summary-json`, each part file)
/// is compared with the others by where it resolves before any work: two
/// that meet are a usage error (exit 2), and the part files, the rows and
/// the summary are never written over each other. A usage error leaves
/// nothing behind, not even the `--output-dir` it would have created.
#[test]
fn outputs_never_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", lines_of(&sample_grids(20)));
    let parts = dir.path().join("parts");
    std::fs::create_dir(&parts).unwrap();
    let (input, parts_arg) = (input.to_str().unwrap(), parts.to_str().unwrap());
    let same_file = |name: &str| format!("{parts_arg}/{name}");
    let spelled_otherwise = format!("{parts_arg}/./../parts/test.txt");
    for (flag, path) in [
        ("-o", same_file("train.txt")),
        ("-o", spelled_otherwise.clone()),
        ("--summary-json", same_file("test.txt")),
        ("--summary-json", spelled_otherwise),
    ] {
        let r = split(
            &["-q", input, "--output-dir", parts_arg, flag, &path],
            None,
            2,
        );
        assert!(
            r.stderr.contains("would be written to the same place"),
            "{flag} {path}: {}",
            r.stderr
        );
        assert_eq!(
            std::fs::read_dir(&parts).unwrap().count(),
            0,
            "{flag} {path}: files left"
        );
    }
    // A usage error found after the plan is read leaves no directory.
    let fresh = dir.path().join("new/parts");
    split(
        &[
            "-q",
            input,
            "--output-dir",
            fresh.to_str().unwrap(),
            "--ratios",
            "0,0,0",
        ],
        None,
        2,
    );
    assert!(!dir.path().join("new").exists());
    // Distinct places are fine.
    let other = dir.path().join("rows.csv");
    split(
        &[
            "-q",
            input,
            "--output-dir",
            parts_arg,
            "-o",
            other.to_str().unwrap(),
        ],
        None,
        0,
    );
    assert_eq!(std::fs::read_dir(&parts).unwrap().count(), 3);
}

#[test]
fn an_interrupted_split_keeps_no_part_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "big.txt", sample().repeat(300));
    let parts = dir.path().join("parts");
    let mut child = command(&[
        "split",
        "-q",
        "-j",
        "1",
        "--by",
        "grid",
        arg(&input),
        "--output-dir",
        arg(&parts),
    ])
    .spawn()
    .unwrap();
    // The part files are opened (as temporary files) before any work,
    // once signals are handled.
    wait_until(
        std::time::Duration::from_secs(30),
        "the parts opened",
        || {
            assert!(child.try_wait().unwrap().is_none(), "the run ended early");
            parts.exists() && temp_files(&parts).len() == 3
        },
    );
    signal(&child, libc::SIGINT);
    let status = exits_within(&mut child, std::time::Duration::from_secs(30));
    assert_eq!(status.code(), Some(130));
    assert_eq!(names(&parts), Vec::<String>::new(), "nothing kept");
}

/// `--stratify COLUMN` on an input without columns (lines, blocks) is a
/// usage error that names what the user gave, `--stratify COLUMN`, never
/// `--keep-columns`, which they did not give; it leaves no output
/// directory behind. With `--keep-columns` given, that is named.
#[test]
fn stratify_on_a_line_input_names_stratify() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", lines_of(&sample_grids(8)));
    let parts = dir.path().join("parts");
    for (file, stdin) in [
        (Some(arg(&input)), None),
        (None, Some(lines_of(&sample_grids(8)))),
    ] {
        let mut args = vec!["--stratify", "difficulty", "--output-dir", arg(&parts)];
        args.extend(file);
        let r = split(&args, stdin.as_deref().map(str::as_bytes), 2);
        assert!(r.stderr.contains("--stratify difficulty"), "{}", r.stderr);
        assert!(r.stderr.contains("CSV or JSON lines"), "{}", r.stderr);
        assert!(!r.stderr.contains("--keep-columns"), "{}", r.stderr);
        assert!(!parts.exists(), "a usage error made {}", parts.display());
    }
    let given = split(
        &["--stratify", "difficulty", "--keep-columns", arg(&input)],
        None,
        2,
    );
    assert!(given.stderr.contains("--keep-columns"), "{}", given.stderr);
}

/// With part files the rows written add up to more than the records: the
/// summary says how many went where, and the counts are the files' rows.
#[test]
fn the_summary_says_what_was_written_where() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", lines_of(&corpus()[..200]));
    let parts = dir.path().join("parts");
    let all = dir.path().join("all.csv");
    let r = split(
        &[arg(&input), "-o", arg(&all), "--output-dir", arg(&parts)],
        None,
        0,
    );
    let line = r
        .stderr
        .lines()
        .find(|l| l.starts_with("batchdoku split: rows written: "))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    let rows = |path: &Path| rows_of(path).1.len();
    let mut expected = vec![format!("{} to {}", rows(&all), all.display())];
    for name in ["train", "valid", "test"] {
        let file = parts.join(format!("{name}.txt"));
        expected.push(format!("{} to {}", lines_in(&file).len(), file.display()));
    }
    assert_eq!(rows(&all), 200);
    assert_eq!(
        line,
        format!("batchdoku split: rows written: {}", expected.join(", "))
    );
    // Without part files every row goes to one place: nothing to add.
    let r = split(&[arg(&input), "-o", arg(&all)], None, 0);
    assert!(!r.stderr.contains("rows written:"), "{}", r.stderr);
}
