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
