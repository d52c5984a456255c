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

/// Puzzles of the rater's path fixture (serate's every step, see
/// `crates/rate/tests/fixtures/rate/oracle/README.md`) whose paths stay
/// below 9.0, quick to rate, and serate's path of each: `(technique,
/// rating, placement, eliminations)` per step, `-` for none.
fn serate_paths(limit: usize) -> Vec<(String, Vec<[String; 4]>)> {
    let text =
        std::fs::read_to_string(root().join("crates/rate/tests/fixtures/rate/paths.tsv")).unwrap();
    let mut paths: Vec<(String, Vec<[String; 4]>)> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let step = [f[2], f[3], f[4], f[5]].map(String::from);
        match paths.last_mut() {
            Some((p, steps)) if p == f[0] => steps.push(step),
            _ => paths.push((f[0].to_string(), vec![step])),
        }
    }
    paths.retain(|(_, steps)| steps.iter().all(|s| s[1].parse::<f64>().unwrap() < 9.0));
    paths.truncate(limit);
    paths
}

/// `rate --path` in JSON lines: each rated row's path is serate's, step
/// for step, its length is `steps`, its techniques the `techniques`
/// histogram, its ratings give ER, EP and ED; every step has a sentence;
/// a row that is not rated has a null path.
#[test]
fn path_steps_are_serates_and_give_the_ratings() {
    let fixture_paths = serate_paths(8);
    assert_eq!(fixture_paths.len(), 8);
    let mut input: String = fixture_paths
        .iter()
        .map(|(p, _)| format!("{p}\n"))
        .collect();
    input.push_str("not a puzzle\n");
    input.push_str(&format!("{SOLVED}\n"));
    let r = run(
        &["rate", "-q", "--path", "--format", "jsonl"],
        Some(input.as_bytes()),
    );
    assert_eq!(r.code, 1, "an invalid record exits 1: {}", r.stderr);
    let rows: Vec<serde_json::Value> = r
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), fixture_paths.len() + 2);
    // The fields in the documented order (serde_json's map sorts them).
    let first = r.stdout_str().lines().next().unwrap();
    assert!(
        first.contains(r#","path":[{"technique":"hidden single","rating":1."#)
            && first.contains(r#""placements":["r"#)
            && first.contains(r#"],"eliminations":[],"text":""#),
        "{first}"
    );
    for (row, (puzzle, serate)) in rows.iter().zip(&fixture_paths) {
        let path = row["path"].as_array().unwrap();
        assert_eq!(Some(path.len() as u64), row["steps"].as_u64(), "{puzzle}");
        let mut histogram = serde_json::Map::new();
        let (mut er, mut ep, mut placed) = (0.0f64, None, false);
        for (step, want) in path.iter().zip(serate) {
            let fields: Vec<&str> = step
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            assert_eq!(
                fields,
                ["eliminations", "placements", "rating", "technique", "text"]
            );
            let moves = |key: &str| {
                let list: Vec<&str> = step[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect();
                if list.is_empty() {
                    "-".to_string()
                } else {
                    list.join(" ")
                }
            };
            let rating = step["rating"].as_f64().unwrap();
            let got = [
                step["technique"].as_str().unwrap().to_string(),
                format!("{rating:.1}"),
                moves("placements"),
                moves("eliminations"),
            ];
            assert_eq!(&got, want, "{puzzle}");
            assert!(!step["text"].as_str().unwrap().is_empty(), "{step}");
            let name = got[0].clone();
            let n = histogram.get(&name).and_then(|v| v.as_u64()).unwrap_or(0);
            histogram.insert(name, (n + 1).into());
            er = er.max(rating);
            if !placed && got[2] != "-" {
                placed = true;
                ep = Some(er);
            }
        }
        assert_eq!(path.len(), serate.len(), "{puzzle}: serate's length");
        assert_eq!(row["techniques"].as_object(), Some(&histogram));
        assert_eq!(row["er"].as_f64(), Some(er));
        assert_eq!(row["ep"].as_f64(), ep);
        assert_eq!(row["ed"], path[0]["rating"]);
    }
    let invalid = &rows[fixture_paths.len()];
    assert_eq!(invalid["status"], "invalid");
    assert!(invalid["path"].is_null());
    let complete = &rows[fixture_paths.len() + 1];
    assert_eq!(complete["status"], "rated");
    assert_eq!(complete["path"], serde_json::json!([]), "no step");
}

/// The CSV cell holds the JSON lines' path: steps split on `;`, a step's
/// five fields on `|`, moves on spaces; the same bytes for 1 thread and 3.
#[test]
fn the_csv_path_cell_splits_into_the_json_path() {
    let input: String = serate_paths(4)
        .iter()
        .map(|(p, _)| format!("{p}\n"))
        .collect();
    let csv = run(&["rate", "-q", "--path", "-j", "1"], Some(input.as_bytes()));
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let threads = run(&["rate", "-q", "--path", "-j", "3"], Some(input.as_bytes()));
    assert_eq!(csv.stdout, threads.stdout, "the same for any thread count");
    let json = run(
        &["rate", "-q", "--path", "--format", "jsonl"],
        Some(input.as_bytes()),
    );
    let (h, rows) = csv.csv();
    assert_eq!(h.last().map(String::as_str), Some("path"));
    for (row, line) in rows.iter().zip(json.stdout_str().lines()) {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let from_json: Vec<Vec<String>> = json["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let moves = |key: &str| {
                    s[key]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                vec![
                    s["technique"].as_str().unwrap().to_string(),
                    format!("{:.1}", s["rating"].as_f64().unwrap()),
                    moves("placements"),
                    moves("eliminations"),
                    s["text"].as_str().unwrap().to_string(),
                ]
            })
            .collect();
        let from_csv: Vec<Vec<String>> = row[col(&h, "path")]
            .split(';')
            .map(|step| step.split('|').map(String::from).collect())
            .collect();
        assert_eq!(from_csv, from_json);
    }
}

/// `--max-er X` stops a puzzle's rating as soon as its ER is known to be
/// above X: status `above` and no rating exactly where `rate` gives an ER
/// above X, the same row as `rate` everywhere else; `--min-ed` and
/// `--min-ep` give `below` exactly where ED or EP is below theirs. Neither
/// is an error (exit 0), and the summary counts them.
#[test]
fn bounds_stop_ratings_outside_them_and_nowhere_else() {
    // data/examples/rate.txt but its nested-chain puzzle (seconds to rate in
    // full): ER 2.6 to 8.3.
    let dir = tempfile::tempdir().unwrap();
    let lines = std::fs::read_to_string(root().join("data/examples/rate.txt")).unwrap();
    let five: String = lines.lines().take(5).map(|l| format!("{l}\n")).collect();
    let examples = write(dir.path(), "five.txt", five);
    let full = run_paths(&["rate", "-q", "--path"], &[&examples]);
    assert_eq!(full.code, 0, "{}", full.stderr);
    let (h, want) = full.csv();
    for (flags, status, outside) in [
        (
            ["--max-er", "7.0"],
            "above",
            (|r: &[f64; 3]| r[0] > 7.0) as fn(&[f64; 3]) -> bool,
        ),
        (["--max-er", "2.6"], "above", |r| r[0] > 2.6),
        (["--min-ed", "1.5"], "below", |r| r[2] < 1.5),
        (["--min-ep", "2.0"], "below", |r| r[1] < 2.0),
    ] {
        let mut args = vec!["rate", "--path", "--summary-json", "-", "-o", "/dev/null"];
        args.extend(flags);
        let summary = run_paths(&args, &[&examples]);
        assert_eq!(summary.code, 0, "{flags:?}: {}", summary.stderr);
        let bounded = run_paths(
            &[&["rate", "-q", "--path"][..], &flags[..]].concat(),
            &[&examples],
        );
        let (bh, got) = bounded.csv();
        assert_eq!(bh, h);
        let mut stopped = 0;
        for (g, w) in got.iter().zip(&want) {
            let ratings = ["er", "ep", "ed"].map(|c| w[col(&h, c)].parse::<f64>().unwrap());
            if outside(&ratings) {
                stopped += 1;
                assert_eq!(g[col(&h, "status")], status, "{flags:?} {w:?}");
                for c in ["er", "ep", "ed", "hardest", "steps", "techniques", "path"] {
                    assert_eq!(g[col(&h, c)], "", "{flags:?}: no {c}");
                }
            } else {
                assert_eq!(g, w, "{flags:?}");
            }
        }
        assert!(stopped > 0, "{flags:?} stops some puzzle");
        let json: serde_json::Value = serde_json::from_str(summary.stdout_str()).unwrap();
        assert_eq!(json["statuses"][status], stopped, "{flags:?}");
    }
    let bad = run(&["rate", "--max-er", "7.05"], Some(b""));
    assert_eq!(bad.code, 2, "one decimal");
}
