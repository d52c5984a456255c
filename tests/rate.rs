//! `batchdoku rate`: statuses as `solve --count 2` gives them, ratings only
//! for rated rows, the technique counts against the step count, the work
//! limit, JSON lines, and the invariant means.

use crate::util::*;

/// The rating columns, empty unless the row is rated.
const RATINGS: [&str; 6] = ["er", "ep", "ed", "hardest", "steps", "techniques"];

#[test]
fn statuses_match_solve_and_only_rated_rows_have_ratings() {
    let r = run_paths(&["rate", "-q"], &[&fixture("statuses.txt")]);
    assert_eq!(r.code, 1, "invalid records exit 1: {}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(
        h,
        [
            "index",
            "line",
            "puzzle",
            "status",
            "er",
            "ep",
            "ed",
            "hardest",
            "steps",
            "techniques",
            "error"
        ]
    );
    let solved = run_paths(&["solve", "-q", "-k", "2"], &[&fixture("statuses.txt")]);
    let (sh, srows) = solved.csv();
    assert_eq!(rows.len(), srows.len(), "one row per record");
    for (row, srow) in rows.iter().zip(&srows) {
        let status = &row[col(&h, "status")];
        let expected = match srow[col(&sh, "status")].as_str() {
            "unique" => "rated",
            other => other,
        };
        assert_eq!(status, expected, "{row:?}");
        assert_eq!(row[col(&h, "error")], srow[col(&sh, "error")]);
        let empty = RATINGS.iter().all(|c| row[col(&h, c)].is_empty());
        assert_eq!(empty, status != "rated", "{row:?}");
    }
}

#[test]
fn ratings_are_ordered_and_techniques_add_up_to_the_steps() {
    let r = run_paths(&["rate", "-q"], &[&fixture("statuses.txt")]);
    let (h, rows) = r.csv();
    let rated: Vec<_> = rows
        .iter()
        .filter(|r| r[col(&h, "status")] == "rated")
        .collect();
    assert!(!rated.is_empty());
    for row in rated {
        let get = |c: &str| row[col(&h, c)].clone();
        let [er, ep, ed] = ["er", "ep", "ed"].map(|c| get(c).parse::<f64>().unwrap());
        assert!(ed <= ep && ep <= er, "{row:?}");
        // One decimal, as Sudoku Explainer writes them.
        for c in ["er", "ep", "ed"] {
            assert_eq!(get(c).split('.').nth(1).map(str::len), Some(1), "{row:?}");
        }
        let steps: u64 = get("steps").parse().unwrap();
        let counted: u64 = get("techniques")
            .split(';')
            .map(|pair| pair.rsplit_once(':').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(counted, steps, "{row:?}");
        let empty = get("puzzle").bytes().filter(|&b| b == b'.').count() as u64;
        assert!(
            steps >= empty,
            "every empty cell is placed by a step: {row:?}"
        );
        assert!(get("techniques").contains(&get("hardest")), "{row:?}");
    }
}

#[test]
fn the_work_limit_gives_status_limit_and_no_ratings() {
    let hardest =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let r = run(
        &["rate", "-q", "--limit", "1"],
        Some(format!("{hardest}\n").as_bytes()),
    );
    assert_eq!(r.code, 0, "a limit is a result, not an error: {}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(rows[0][col(&h, "status")], "limit");
    assert!(RATINGS.iter().all(|c| rows[0][col(&h, c)].is_empty()));
}

#[test]
fn json_lines_give_numbers_and_a_technique_object() {
    let r = run_paths(
        &["rate", "-q", "--format", "jsonl"],
        &[&fixture("statuses.txt")],
    );
    let first: serde_json::Value =
        serde_json::from_str(r.stdout_str().lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "rated");
    assert!(first["er"].is_f64());
    let techniques = first["techniques"].as_object().unwrap();
    let total: u64 = techniques.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(Some(total), first["steps"].as_u64());
    let unsolvable: serde_json::Value =
        serde_json::from_str(r.stdout_str().lines().nth(1).unwrap()).unwrap();
    assert!(unsolvable["er"].is_null() && unsolvable["techniques"].is_null());
}

#[test]
fn invariant_means_are_equal_for_equivalent_puzzles() {
    let puzzle =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    let input = format!("{puzzle}\n{}\n", relabelled(puzzle));
    let r = run(
        &["rate", "-q", "--invariant", "6", "--seed", "3"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(&h[h.len() - 2..], ["mean_guesses", "mean_backtracks"]);
    let means = |i: usize| {
        (
            rows[i][col(&h, "mean_guesses")].clone(),
            rows[i][col(&h, "mean_backtracks")].clone(),
        )
    };
    assert_eq!(means(0), means(1));
    assert!(means(0).0.parse::<f64>().unwrap() > 0.0);
    // Another seed draws other equivalents; the column stays a number.
    let other = run(
        &["rate", "-q", "--invariant", "6", "--seed", "4"],
        Some(input.as_bytes()),
    );
    let (oh, orows) = other.csv();
    assert!(orows[0][col(&oh, "mean_guesses")].parse::<f64>().is_ok());
}

/// `rate --format line` writes what `--help` promises and what `solve`
/// writes: the solution (the first found when there are several), an
/// empty line when none. It wrote the puzzle.
#[test]
fn line_format_writes_the_solution_as_solve_does() {
    let dir = tempfile::tempdir().unwrap();
    let empty = ".".repeat(81);
    let input = format!("{EASY}\n{HARD}\n{empty}\nnot a puzzle\n{SOLVED}\n");
    let path = write(dir.path(), "in.txt", &input);
    let rated = run_paths(&["rate", "-q", "--format", "line"], &[&path]);
    assert_eq!(rated.code, 1, "an invalid record exits 1: {}", rated.stderr);
    let solved = run_paths(&["solve", "-q", "-k", "2", "--format", "line"], &[&path]);
    assert_eq!(solved.code, 1, "{}", solved.stderr);
    assert_eq!(rated.stdout_str(), solved.stdout_str());
    let lines: Vec<&str> = rated.stdout_str().lines().collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], EASY_SOLUTION);
    assert_solves(HARD, lines[1]);
    assert_solves(&empty, lines[2]);
    assert_eq!((lines[3], lines[4]), ("", SOLVED));
    let help = run(&["rate", "--help"], None);
    let text = help
        .stdout_str()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("for solve, score and rate the solution"),
        "{text}"
    );
}

/// A complete grid takes no step: rated, 0 steps, ER/EP/ED 0.0 (serate
/// rates it 0.0/0.0/0.0), and no hardest technique nor technique counts:
/// empty in CSV, null in JSON lines (Parquet: `parquet::a_complete_grid_
/// has_null_technique_cells`). It was `hardest = hidden single`.
#[test]
fn a_complete_grid_has_no_hardest_technique() {
    let input = format!("{SOLVED}\n{EASY}\n");
    let r = run(&["rate", "-q"], Some(input.as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = r.csv();
    let cell = |row: usize, name: &str| rows[row][col(&h, name)].as_str();
    assert_eq!(cell(0, "status"), "rated");
    for (name, value) in [
        ("er", "0.0"),
        ("ep", "0.0"),
        ("ed", "0.0"),
        ("steps", "0"),
        ("hardest", ""),
        ("techniques", ""),
    ] {
        assert_eq!(cell(0, name), value, "{name}");
    }
    assert_eq!(
        cell(1, "hardest"),
        "hidden single",
        "a puzzle with steps keeps its own"
    );
    let j = run(&["rate", "-q", "--format", "jsonl"], Some(input.as_bytes()));
    let first: serde_json::Value =
        serde_json::from_str(j.stdout_str().lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "rated");
    assert_eq!(
        (first["er"].as_f64(), first["steps"].as_u64()),
        (Some(0.0), Some(0))
    );
    assert!(first["hardest"].is_null(), "{first}");
    assert!(first["techniques"].is_null(), "{first}");
}
