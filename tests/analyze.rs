//! `batchdoku analyze`: statuses as `solve -k 2` gives them and empty
//! measures for the rest, the columns `--columns` chooses, the caps, and
//! each measure against what other commands of the binary say: redundant
//! givens against `solve -k 2` on every puzzle with one given removed,
//! `te` and `backdoor` 0 exactly where `solve --difficulty` says singles
//! solve the puzzle, symmetry against `generate --symmetry`,
//! automorphisms the same for equivalent puzzles. The same bytes at any
//! thread count.

use crate::util::*;

/// Runs `analyze -q` with `args` on `paths`, expecting exit 0 or 1.
fn analyze(args: &[&str], paths: &[&std::path::Path]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut all = vec!["analyze", "-q"];
    all.extend_from_slice(args);
    let r = run_paths(&all, paths);
    assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
    r.csv()
}

/// Runs `analyze -q` with `args` on `input` (stdin), expecting exit 0.
fn analyze_stdin(args: &[&str], input: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut all = vec!["analyze", "-q"];
    all.extend_from_slice(args);
    let r = run(&all, Some(input.as_bytes()));
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.csv()
}

const MEASURES: [&str; 6] = [
    "minimal",
    "redundant",
    "symmetry",
    "automorphisms",
    "te",
    "backdoor",
];

#[test]
fn statuses_are_solve_k2s_and_only_unique_rows_have_measures() {
    let statuses = fixture("statuses.txt");
    let r = run_paths(&["analyze", "-q"], &[&statuses]);
    assert_eq!(r.code, 1, "invalid records exit 1: {}", r.stderr);
    let (h, rows) = r.csv();
    let mut want = vec!["index", "line", "puzzle", "status"];
    want.extend(MEASURES);
    want.push("error");
    assert_eq!(h, want);
    let (_, solved) = run_paths(&["solve", "-q", "-k", "2"], &[&statuses]).csv();
    for (row, s) in rows.iter().zip(&solved) {
        assert_eq!(row[..4], s[..4]);
        assert_eq!(row.last(), s.last(), "the same error");
        let empty = row[4..10].iter().all(String::is_empty);
        assert_eq!(empty, row[3] != "unique", "{row:?}");
    }
    assert_eq!(rows.len(), solved.len());
    assert_eq!(
        rows[0][4..10],
        ["false", "21", "central+mirror", "1", "0", "0"]
    );
}

#[test]
fn columns_choose_the_measures_in_the_order_given() {
    let easy = format!("{EASY}\n");
    let (h, rows) = analyze_stdin(&["--columns", "te,minimal,te"], &easy);
    assert_eq!(
        h,
        ["index", "line", "puzzle", "status", "te", "minimal", "error"]
    );
    assert_eq!(rows[0][4..6], ["0", "false"]);
    let r = run(&["analyze", "--columns", "depth"], Some(easy.as_bytes()));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("minimal"), "{}", r.stderr);
    for (flag, bad) in [
        ("--max-te", "3"),
        ("--max-backdoor", "4"),
        ("--max-te", "-1"),
    ] {
        let r = run(&["analyze", flag, bad], Some(easy.as_bytes()));
        assert_eq!(r.code, 2, "{flag} {bad}");
    }
}

/// Below the cap the value is exact, at the cap plus one it reads "more":
/// the exact value (`--max-te 2`, `--max-backdoor 3`) is then larger.
#[test]
fn caps_are_exact_below_and_the_cap_plus_one_above() {
    let top95 = fixture("top95_first20.txt");
    let (h, cheap) = analyze(&["--columns", "te,backdoor"], &[&top95]);
    let (_, exact) = analyze(
        &[
            "--columns",
            "te,backdoor",
            "--max-te",
            "2",
            "--max-backdoor",
            "3",
        ],
        &[&top95],
    );
    let (_, none) = analyze(
        &[
            "--columns",
            "te,backdoor",
            "--max-te",
            "0",
            "--max-backdoor",
            "0",
        ],
        &[&top95],
    );
    let (te, backdoor) = (col(&h, "te"), col(&h, "backdoor"));
    let mut above = 0;
    for ((c, e), n) in cheap.iter().zip(&exact).zip(&none) {
        for (i, cap) in [(te, 1), (backdoor, 1)] {
            let (c, e, n): (u8, u8, u8) = (
                c[i].parse().unwrap(),
                e[i].parse().unwrap(),
                n[i].parse().unwrap(),
            );
            if e <= cap {
                assert_eq!(c, e);
            } else {
                assert_eq!(c, cap + 1);
                above += 1;
            }
            assert_eq!(n, e.min(1));
        }
        assert!(e[te].parse::<u8>().unwrap() <= 3 && e[backdoor].parse::<u8>().unwrap() <= 4);
    }
    assert!(above > 0, "some top95 puzzles are above the cheap caps");
}

/// Redundant givens against the binary's own uniqueness check: every
/// puzzle with each of its givens removed, counted by `solve -k 2`.
#[test]
fn redundant_givens_agree_with_solve_on_every_removal() {
    let mut puzzles: Vec<String> = String::from_utf8(sample())
        .unwrap()
        .lines()
        .take(25)
        .map(String::from)
        .collect();
    // Puzzles with redundant givens: the first ones with two more givens
    // from their solution.
    let (_, _, solved) = solve_stdin(lines_of(&sample_grids(5)).as_bytes(), &[]);
    for (p, s) in puzzles.clone().iter().zip(&solved) {
        let solution = &s[5];
        let mut more: Vec<u8> = p.bytes().collect();
        let blanks: Vec<usize> = (0..81).filter(|&c| more[c] == b'.').take(2).collect();
        for c in blanks {
            more[c] = solution.as_bytes()[c];
        }
        puzzles.push(String::from_utf8(more).unwrap());
    }
    let input: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let (h, rows) = analyze_stdin(&["--columns", "redundant,minimal"], &input);
    let mut removals = String::new();
    let mut owner = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        for (c, b) in p.bytes().enumerate() {
            if b != b'.' {
                let mut without = p.clone().into_bytes();
                without[c] = b'.';
                removals.push_str(std::str::from_utf8(&without).unwrap());
                removals.push('\n');
                owner.push(i);
            }
        }
    }
    let (_, sh, counted) = solve_stdin(removals.as_bytes(), &["-k", "2"]);
    let mut unique = vec![0u32; puzzles.len()];
    for (row, &i) in counted.iter().zip(&owner) {
        unique[i] += u32::from(row[col(&sh, "status")] == "unique");
    }
    let mut with_redundant = 0;
    for (row, n) in rows.iter().zip(&unique) {
        assert_eq!(row[col(&h, "redundant")], n.to_string(), "{}", row[2]);
        let minimal = if *n == 0 { "true" } else { "false" };
        assert_eq!(row[col(&h, "minimal")], minimal);
        with_redundant += usize::from(*n > 0);
    }
    assert!(with_redundant >= 5, "{with_redundant}");
}

/// `te` and `backdoor` are 0 exactly where singles solve the puzzle, as
/// `solve --difficulty` says (the same propagation, which
/// `crates/core/src/singles.rs` checks against a plain loop of the rules).
#[test]
fn depth_and_backdoor_are_zero_exactly_where_singles_solve() {
    let sample = data("sample.txt");
    let (h, rows) = analyze(&["--columns", "te,backdoor"], &[&sample]);
    let r = run_paths(&["solve", "-q", "--difficulty"], &[&sample]);
    let (sh, solved) = r.csv();
    let (mut zero, mut more) = (0, 0);
    for (row, s) in rows.iter().zip(&solved) {
        let singles = s[col(&sh, "singles")] == "true";
        assert_eq!(row[col(&h, "te")] == "0", singles, "{}", row[2]);
        assert_eq!(row[col(&h, "backdoor")] == "0", singles, "{}", row[2]);
        if singles {
            zero += 1;
        } else {
            more += 1;
        }
    }
    assert!(zero > 10 && more > 10, "{zero} {more}");
}

/// Puzzles `generate --symmetry S` made have S (and a quarter turn the
/// central one too); their automorphisms are at least 1, and the same for
/// an equivalent puzzle (digits relabelled, transposed).
#[test]
fn symmetry_of_generated_puzzles_and_automorphisms_of_equivalents() {
    for symmetry in ["central", "quarter", "mirror", "diagonal"] {
        let r = run(
            &[
                "generate",
                "-q",
                "-n",
                "4",
                "--seed",
                "9",
                "--symmetry",
                symmetry,
                "--format",
                "line",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let (h, rows) = analyze_stdin(&["--columns", "symmetry,automorphisms"], r.stdout_str());
        assert_eq!(rows.len(), 4);
        for row in &rows {
            let names: Vec<&str> = row[col(&h, "symmetry")].split('+').collect();
            assert!(names.contains(&symmetry), "{symmetry}: {names:?}");
            if symmetry == "quarter" {
                assert!(names.contains(&"central"));
            }
            assert!(row[col(&h, "automorphisms")].parse::<u64>().unwrap() >= 1);
        }
    }
    // The most symmetric solution grid (648 automorphisms), a puzzle with
    // one given less than it in each orbit of the 180-degree turn (an
    // automorphism of the grid, digits d -> 8 - d mod 9), so the turn
    // maps the puzzle onto itself, and their equivalents.
    let linear =
        "123456789456789123789123456231564897564897231897231564312645978645978312978312645";
    let turned =
        ".2.4...89..67..12............1.6.89....8.7....97.3.5............45..83..97...2.4.";
    let transposed = |p: &str| -> String {
        (0..81)
            .map(|i| p.as_bytes()[(i % 9) * 9 + i / 9] as char)
            .collect()
    };
    let input: String = [
        linear.to_string(),
        relabelled(linear),
        transposed(linear),
        turned.to_string(),
        relabelled(turned),
        transposed(turned),
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
            .to_string(),
    ]
    .iter()
    .map(|p| format!("{p}\n"))
    .collect();
    let r = run(
        &["analyze", "-q", "--columns", "automorphisms,symmetry"],
        Some(input.as_bytes()),
    );
    let (h, rows) = r.csv();
    let counts = column(&h, &rows, "automorphisms");
    assert_eq!(counts[..3], ["648", "648", "648"]);
    assert_eq!(counts[3], "2");
    assert_eq!(counts[4], counts[3]);
    assert_eq!(counts[5], counts[3]);
    assert_eq!(
        column(&h, &rows, "symmetry")[0],
        "central+quarter+mirror+diagonal"
    );
    assert_eq!(rows[3][col(&h, "symmetry")], "central");
    assert_eq!(rows[6][col(&h, "automorphisms")], "1");
}

#[test]
fn same_bytes_at_any_thread_count_and_in_json_lines() {
    let sample = data("sample.txt");
    let one = run_paths(
        &["analyze", "-q", "-j", "1", "--batch-size", "7"],
        &[&sample],
    );
    let many = run_paths(&["analyze", "-q", "-j", "8"], &[&sample]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_text_eq(&one.stdout, &many.stdout, "analyze -j 1 against -j 8");
    let json = run_paths(
        &["analyze", "-q", "--format", "jsonl"],
        &[&fixture("statuses.txt")],
    );
    let lines: Vec<serde_json::Value> = json
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["minimal"], false);
    assert_eq!(lines[0]["redundant"], 21);
    assert_eq!(lines[0]["symmetry"], "central+mirror");
    assert!(
        MEASURES.iter().all(|m| lines[1][m].is_null()),
        "{}",
        lines[1]
    );
    // --format line writes the solution, as solve does.
    let line = run(
        &["analyze", "-q", "--format", "line"],
        Some(format!("{EASY}\n").as_bytes()),
    );
    assert_eq!(line.stdout_str(), format!("{EASY_SOLUTION}\n"));
}
