//! `batchdoku report` through the real binary: its JSON numbers against a
//! recount from `solve -k 2 --rate` CSV on the same input (an
//! independent computation: the CSV is read back and binned here), the
//! format chosen by the extension of `-o`, and hostile inputs (empty, all
//! invalid, one record, many records) that must give a sensible page and
//! never a crash or a division by zero.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::util::*;

/// data/sample.txt plus invalid records of every kind (more than the 20
/// listed), an unsolvable puzzle, an empty grid and repeats.
fn mixed_input(dir: &Path) -> std::path::PathBuf {
    let mut text = std::fs::read_to_string(data("sample.txt")).unwrap();
    for i in 0..23 {
        match i % 3 {
            0 => text.push_str("not a puzzle\n"),
            1 => text.push_str("12345\n"),
            _ => text.push_str(&format!("33{}\n", &EASY[2..])),
        }
        text.push_str(EASY);
        text.push('\n');
    }
    // Unsolvable: consistent givens, no solution (cell 0 has no digit:
    // its row holds 2 to 9 and its column and box the 1).
    text.push_str(&format!(".23456789{:.<72}\n", "1"));
    text.push_str(&".".repeat(81));
    text.push('\n');
    let path = dir.join("mixed.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// The log-scaled bin of `n`, counted by doubling (not by bit tricks).
fn bin_of(n: u64) -> (u64, u64) {
    if n == 0 {
        return (0, 0);
    }
    let mut low = 1u64;
    while low <= n / 2 {
        low *= 2;
    }
    (low, low.saturating_mul(2) - 1)
}

fn report_json(args: &[&str], path: &Path) -> Value {
    let mut all = vec!["report", "-q", "--format", "json"];
    all.extend_from_slice(args);
    let out = run_paths(&all, &[path]);
    assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
    serde_json::from_slice(&out.stdout).expect("report JSON")
}

#[test]
fn json_numbers_match_a_recount_from_solve_csv() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let solved = run_paths(&["solve", "-k", "2", "--difficulty", "-q"], &[&input]);
    assert_eq!(solved.code, 1, "{}", solved.stderr);
    let (header, rows) = solved.csv();
    let (c_line, c_puzzle, c_status) = (
        col(&header, "line"),
        col(&header, "puzzle"),
        col(&header, "status"),
    );
    let (c_guesses, c_backtracks, c_singles, c_error) = (
        col(&header, "guesses"),
        col(&header, "backtracks"),
        col(&header, "singles"),
        col(&header, "error"),
    );
    let mut statuses: BTreeMap<&str, u64> = BTreeMap::new();
    let mut givens: BTreeMap<u64, u64> = BTreeMap::new();
    let mut guesses: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut backtracks: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut singles: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    let (mut guess_sum, mut backtrack_sum) = (0u64, 0u64);
    let mut errors = Vec::new();
    for r in &rows {
        let status = r[c_status].as_str();
        *statuses.entry(status).or_default() += 1;
        if status == "invalid" {
            errors.push((r[c_line].parse::<u64>().unwrap(), r[c_error].clone()));
            continue;
        }
        let g = r[c_puzzle].bytes().filter(|&b| b != b'.').count() as u64;
        *givens.entry(g).or_default() += 1;
        let (gs, bs): (u64, u64) = (
            r[c_guesses].parse().unwrap(),
            r[c_backtracks].parse().unwrap(),
        );
        *guesses.entry(bin_of(gs)).or_default() += 1;
        *backtracks.entry(bin_of(bs)).or_default() += 1;
        guess_sum += gs;
        backtrack_sum += bs;
        if status == "unique" {
            let e = singles.entry(g).or_default();
            e.0 += 1;
            e.1 += u64::from(r[c_singles] == "true");
        }
    }
    let count = |s: &str| statuses.get(s).copied().unwrap_or(0);
    let valid = count("unique") + count("multiple") + count("unsolvable");
    assert!(
        count("unsolvable") >= 1 && count("multiple") >= 2 && count("invalid") == 23,
        "{statuses:?}"
    );

    for threads in ["1", "2"] {
        let j = report_json(&["-j", threads], &input);
        let t = &j["totals"];
        assert_eq!(t["records"], rows.len() as u64);
        assert_eq!(t["valid"], valid);
        for s in ["invalid", "unique", "multiple", "unsolvable"] {
            assert_eq!(t[s], count(s), "{s}");
        }
        // The first 20 errors, in input order, and a count of the rest.
        let listed = t["errors"].as_array().unwrap();
        assert_eq!(listed.len(), 20);
        assert_eq!(t["errors_not_shown"], errors.len() as u64 - 20);
        for (e, (line, text)) in listed.iter().zip(&errors) {
            assert_eq!(e["line"], *line);
            let joined = format!(
                "{}:{}: {}",
                e["input"].as_str().unwrap(),
                e["line"],
                e["message"].as_str().unwrap()
            );
            assert_eq!(&joined, text);
        }
        // Givens: every number from the fewest to the most, zeros included.
        let bins = j["givens"].as_array().unwrap();
        let (lo, hi) = (
            *givens.keys().next().unwrap(),
            *givens.keys().last().unwrap(),
        );
        assert_eq!(bins.len() as u64, hi - lo + 1);
        for b in bins {
            let g = b["givens"].as_u64().unwrap();
            assert_eq!(
                b["records"],
                givens.get(&g).copied().unwrap_or(0),
                "givens {g}"
            );
        }
        for (name, expected, sum) in [
            ("guesses", &guesses, guess_sum),
            ("backtracks", &backtracks, backtrack_sum),
        ] {
            let d = &j[name];
            let mean = d["mean"].as_f64().unwrap();
            assert!(
                (mean - sum as f64 / valid as f64).abs() < 1e-9,
                "{name} mean"
            );
            let mut seen = BTreeMap::new();
            for b in d["bins"].as_array().unwrap() {
                let key = (b["low"].as_u64().unwrap(), b["high"].as_u64().unwrap());
                let n = b["records"].as_u64().unwrap();
                assert_eq!(
                    n,
                    expected.get(&key).copied().unwrap_or(0),
                    "{name} {key:?}"
                );
                seen.insert(key, n);
            }
            assert!(
                expected.keys().all(|k| seen.contains_key(k)),
                "{name}: a bin is missing"
            );
        }
        let s = &j["singles"];
        let unique: u64 = singles.values().map(|v| v.0).sum();
        let by_singles: u64 = singles.values().map(|v| v.1).sum();
        assert_eq!(s["unique"], unique);
        assert_eq!(s["solved_by_singles"], by_singles);
        let share = s["share"].as_f64().unwrap();
        assert!((share - by_singles as f64 / unique as f64).abs() < 1e-12);
        let per: Vec<(u64, u64, u64)> = s["by_givens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["givens"].as_u64().unwrap(),
                    b["unique"].as_u64().unwrap(),
                    b["solved_by_singles"].as_u64().unwrap(),
                )
            })
            .collect();
        let expected: Vec<(u64, u64, u64)> =
            singles.iter().map(|(&g, &(u, s))| (g, u, s)).collect();
        assert_eq!(per, expected);
        assert_eq!(j["run"]["threads"], threads.parse::<u64>().unwrap());
        assert_eq!(j["run"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(j["scores"].is_null() && j["classes"].is_null());
    }
}

/// `--score` and `--classes` against `score` and exact counting.
#[test]
fn scores_and_classes_match_their_commands() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let j = report_json(&["--score", "target", "--classes"], &input);
    let scored = run_paths(&["score", "-q"], &[&input]);
    let (header, rows) = scored.csv();
    let (c_status, c_score) = (col(&header, "status"), col(&header, "score"));
    let scores: Vec<i64> = rows
        .iter()
        .filter(|r| r[c_status] == "solved")
        .map(|r| r[c_score].parse().unwrap())
        .collect();
    let sc = &j["scores"];
    assert_eq!(sc["scored"], scores.len() as u64);
    assert_eq!(sc["min"], *scores.iter().min().unwrap());
    assert_eq!(sc["max"], *scores.iter().max().unwrap());
    for b in sc["bins"].as_array().unwrap() {
        let (lo, hi) = (b["low"].as_i64().unwrap(), b["high"].as_i64().unwrap());
        let n = scores.iter().filter(|&&s| lo <= s && s <= hi).count() as u64;
        assert_eq!(b["records"], n, "{lo}..={hi}");
    }
    // The easy puzzle appears 23 times; its contradictory copy is invalid.
    let c = &j["classes"];
    let valid = j["totals"]["valid"].as_u64().unwrap();
    let deduped = run_paths(&["dedupe", "-q"], &[&input]);
    let kept = deduped
        .csv()
        .1
        .iter()
        .filter(|r| r[col(&deduped.csv().0, "status")] == "ok")
        .count() as u64;
    assert_eq!(c["distinct"], kept);
    assert_eq!(c["duplicates"], valid - kept);
    assert!(c["exact_repeats"].as_u64().unwrap() >= 22);
    assert!(c["largest"][0]["records"].as_u64().unwrap() >= 23);
}

#[test]
fn format_follows_the_output_extension() {
    let dir = tempfile::tempdir().unwrap();
    let sample = data("sample.txt");
    for (name, starts) in [
        ("r.html", "<!DOCTYPE html>"),
        ("r.json", "{"),
        ("r.md", "# batchdoku report"),
    ] {
        let out = dir.path().join(name);
        let r = run_paths(&["report", "-q", "-o", arg(&out)], &[&sample]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.starts_with(starts), "{name}: {}", &text[..40]);
    }
    let r = run_paths(&["report", "-q"], &[&sample]);
    assert!(r.stdout_str().starts_with("# batchdoku report"));
    let bad = dir.path().join("r.csv");
    let r = run_paths(&["report", "-q", "-o", arg(&bad)], &[&sample]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--format"), "{}", r.stderr);
    assert!(!bad.exists());
}

/// Empty, all invalid, one record, one blank grid, many records: a page
/// with every section and one plot per distribution, numbers that add
/// up, and the usual exit code.
#[test]
fn hostile_inputs_give_a_sensible_page() {
    let dir = tempfile::tempdir().unwrap();
    let many: String = format!("{EASY}\n").repeat(200_000);
    let cases: [(&str, String, i32, u64); 5] = [
        ("empty", String::new(), 0, 0),
        ("invalid", "x\n\n12\n\u{fe}<b>|\n".to_string(), 1, 3),
        ("one", format!("{EASY}\n"), 0, 1),
        ("blank", format!("{}\n", ".".repeat(81)), 0, 1),
        ("many", many, 0, 200_000),
    ];
    for (name, text, code, records) in cases {
        let input = dir.path().join(format!("{name}.txt"));
        std::fs::write(&input, &text).unwrap();
        for extra in [&[][..], &["--classes", "--score", "target"][..]] {
            let page = dir.path().join(format!("{name}.html"));
            let mut args = vec!["report", "-q", "-o", arg(&page)];
            args.extend_from_slice(extra);
            let r = run_paths(&args, &[&input]);
            assert_eq!(r.code, code, "{name}: {}", r.stderr);
            let html = std::fs::read_to_string(&page).unwrap();
            let j = report_json(extra, &input);
            // Guesses and backtracks share one plot when they are the same.
            let same = j["guesses"]["bins"] == j["backtracks"]["bins"];
            let plots = 3 + usize::from(!same) + usize::from(!extra.is_empty());
            assert_eq!(html.matches("<svg").count(), plots, "{name}");
            assert_eq!(
                same,
                matches!(name, "empty" | "invalid" | "one" | "many"),
                "{name}"
            );
            for bad in ["NaN", "inf%", ">inf", " inf"] {
                assert!(!html.contains(bad), "{name}: {bad}");
            }
            assert!(!html.contains("<b>|"), "{name}: input not escaped");
            // Self-contained: nothing to run, nothing to fetch.
            for fetch in ["<script", "<link", " src=", "url(", "@import"] {
                assert!(!html.contains(fetch), "{name}: {fetch}");
            }
            assert_eq!(j["totals"]["records"], records, "{name}");
            let t = &j["totals"];
            let sum: u64 = ["valid", "invalid"]
                .iter()
                .map(|k| t[k].as_u64().unwrap())
                .sum();
            assert_eq!(sum, records, "{name}");
        }
    }
}

/// The run's provenance in the JSON (and on the pages): UTC date, command
/// line, options in effect, version and commit, and each input's bytes
/// read and their XXH3-64 checksum, stdin's too.
#[test]
fn provenance_names_date_command_options_version_and_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let sample = data("sample.txt");
    let args = ["report", "-q", "--format", "json", "--classes", "-j", "1"];
    let out = run_paths(&args, &[&sample]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let facts = &j["run"];
    let date = facts["date_utc"].as_str().unwrap();
    let shape: String = date
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999-99-99T99:99:99Z", "{date}");
    assert!(date >= "2024", "{date}");
    let mut expected: Vec<&str> = args.to_vec();
    expected.push(arg(&sample));
    let line: Vec<&str> = facts["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(line[0].ends_with("batchdoku"), "{line:?}");
    assert_eq!(&line[1..], &expected[..]);
    let o = &facts["options"];
    assert_eq!(o["format"], "json");
    assert_eq!(o["output"], "-");
    assert_eq!(o["input_format"], "auto");
    assert_eq!(o["classes"], true);
    assert_eq!(o["batch_size"], 2048);
    assert_eq!(o["threads"], 1);
    assert!(o["score"].is_null() && o["column"].is_null());
    assert_eq!(
        (&o["rate"], &o["limit"]),
        (&Value::Bool(false), &Value::Null)
    );
    assert_eq!(facts["threads"], 1);
    assert_eq!(facts["version"], env!("CARGO_PKG_VERSION"));
    let commit = facts["commit"].as_str().unwrap();
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    let bytes = std::fs::read(&sample).unwrap();
    let input = &facts["inputs"][0];
    assert_eq!(input["name"], arg(&sample));
    assert_eq!(input["bytes"], bytes.len() as u64);
    assert_eq!(
        input["xxh3_64"],
        format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes))
    );
    // Stdin: the same facts, counted as it is read.
    let piped = run(&["report", "-q", "--format", "json"], Some(&bytes));
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    let pj: Value = serde_json::from_slice(&piped.stdout).unwrap();
    let stdin = &pj["run"]["inputs"][0];
    assert_eq!(stdin["name"], "<stdin>");
    assert_eq!(stdin["bytes"], bytes.len() as u64);
    assert_eq!(stdin["xxh3_64"], input["xxh3_64"]);
    // The pages show the same facts.
    let page = dir.path().join("r.html");
    let r = run_paths(&["report", "-q", "-o", arg(&page)], &[&sample]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let md = run_paths(&["report", "-q"], &[&sample])
        .stdout_str()
        .to_string();
    for text in [&html, &md] {
        for fact in [
            "date (UTC)",
            "command line",
            "options in effect",
            "git commit",
            "xxh3-64",
            input["xxh3_64"].as_str().unwrap(),
            "17,302",
            commit,
        ] {
            assert!(text.contains(fact), "{fact} missing");
        }
    }
}

/// The largest classes name their canonical form and two records as read
/// (so a class of two shows both), with their input and line; the lines
/// hold those records.
#[test]
fn largest_classes_show_canonical_form_and_an_example_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = mixed_input(dir.path());
    let text = std::fs::read_to_string(&input).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let j = report_json(&["--classes"], &input);
    let largest = j["classes"]["largest"].as_array().unwrap();
    assert!(!largest.is_empty());
    // `canon --format line` writes blanks as 0; the report as '.'.
    let form_of = |puzzle: &str| {
        let canon = run(
            &["canon", "-q", "--format", "line"],
            Some(puzzle.as_bytes()),
        );
        canon.stdout_str().trim().replace('0', ".")
    };
    let easy_form = form_of(EASY);
    let top = &largest[0];
    assert_eq!(top["records"], 23);
    assert_eq!(top["canonical"], easy_form);
    for e in largest {
        assert_ne!(e["example"]["line"], e["another"]["line"], "{e}");
        for ex in [&e["example"], &e["another"]] {
            assert_eq!(ex["input"], arg(&input));
            let line = ex["line"].as_u64().unwrap() as usize;
            assert_eq!(lines[line - 1], ex["puzzle"].as_str().unwrap(), "{e}");
            assert_eq!(form_of(lines[line - 1]), e["canonical"].as_str().unwrap());
        }
    }
    // One figure for the tables' memory, never a range.
    let bytes = j["classes"]["table_bytes"].as_u64().unwrap();
    assert!(bytes > 0, "{j}");
    // The page shows the same (one thread: the same example).
    let page = dir.path().join("r.html");
    let r = run_paths(
        &["report", "-q", "-j", "1", "--classes", "-o", arg(&page)],
        &[&input],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    let j = report_json(&["--classes", "-j", "1"], &input);
    let top = &j["classes"]["largest"][0];
    let (ex, another) = (&top["example"], &top["another"]);
    for shown in [
        format!("<code>{easy_form}</code>"),
        format!(
            "<code>{}</code><br><code>{}</code>",
            ex["puzzle"].as_str().unwrap(),
            another["puzzle"].as_str().unwrap()
        ),
        format!(
            "<code>{0}</code>:{1}<br><code>{0}</code>:{2}",
            arg(&input),
            ex["line"],
            another["line"]
        ),
    ] {
        assert!(html.contains(&shown), "{shown}");
    }
    let memory = html
        .split("Memory: the class tables took ")
        .nth(1)
        .and_then(|rest| rest.split(" (").next())
        .expect("the page gives the tables' memory");
    assert!(
        memory.ends_with("B") && !memory.contains(" to "),
        "{memory}"
    );
}

/// The pages carry no Markdown into HTML (code spans become <code>), small
/// shares never read 0.0%, tables leave out rows counting nothing and say
/// so, and an all-unique corpus plots guesses and backtracks once, saying
/// why.
#[test]
fn pages_read_well() {
    let dir = tempfile::tempdir().unwrap();
    // 2,000 copies of one puzzle and one bad line: 0.05% invalid.
    let mut text = format!("{EASY}\n").repeat(2000);
    text.push_str("junk\n");
    let input = write(dir.path(), "big.txt", &text);
    let page = dir.path().join("r.html");
    let r = run_paths(
        &["report", "-q", "--score", "target", "-o", arg(&page)],
        &[&input],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains('`'), "a backtick in the HTML");
    assert!(html.contains("<code>guesses</code>"));
    assert!(html.contains("<code>target</code>"));
    assert!(html.contains("invalid · &lt;0.1%"), "small share");
    assert!(html.contains("unique · &gt;99.9%"), "near-whole share");
    assert!(!html.contains("0.0%"));
    assert!(html.contains("Guesses and backtracks") && html.contains("identical on this corpus"));
    let md = run_paths(&["report", "-q", "--score", "target"], &[&input]);
    let md = md.stdout_str();
    assert!(md.contains("| invalid | 1 | <0.1% |"), "{md}");
    assert!(md.contains("| unique | 2,000 | >99.9% |"), "{md}");
    assert!(!md.contains("0.0%"));
    // The sample: givens 19, 20 and 29-33 have no record; the plot keeps
    // their bars, the table leaves them out and says how many.
    let sample = run_paths(&["report", "-q"], &[&data("sample.txt")]);
    let md = sample.stdout_str();
    assert!(md.contains("7 rows with no record are not shown."), "{md}");
    assert!(!md.contains("| 19 | 0 |"), "{md}");
    assert!(md.contains("## Guesses\n") && md.contains("## Backtracks\n"));
}

/// What report says on stderr: records and the page written (never
/// "0 rows written"); flags that shape rows are refused, exit 2, and absent
/// from its help.
#[test]
fn summary_says_what_report_wrote_and_row_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sample = data("sample.txt");
    let page = dir.path().join("r.html");
    let r = run_paths(&["report", "-j", "2", "-o", arg(&page)], &[&sample]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let size = std::fs::metadata(&page).unwrap().len();
    let line = r.stderr.trim();
    assert!(
        line.starts_with("batchdoku report: 211 records (unique 171, multiple 40) in "),
        "{line}"
    );
    assert!(
        line.ends_with(&format!(
            ", 2 threads; HTML page written to {} ({size} bytes)",
            arg(&page)
        )),
        "{line}"
    );
    assert!(!r.stderr.contains("rows written"), "{}", r.stderr);
    let r = run_paths(&["report", "--format", "json"], &[&sample]);
    assert!(
        r.stderr.contains("JSON report written to stdout ("),
        "{}",
        r.stderr
    );
    for flag in ["--keep-columns", "--keep-trailing"] {
        let r = run_paths(&["report", flag, "-o", arg(&page)], &[&sample]);
        assert_eq!(r.code, 2, "{flag}: {}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("{flag} does nothing for report")),
            "{}",
            r.stderr
        );
        // Not among the options (the text above them says they are refused).
        let help = run(&["report", "--help"], None);
        assert!(
            !help.stdout_str().lines().any(|l| l.trim() == flag),
            "{flag} listed in report --help"
        );
        let solve = run(&["solve", "--help"], None);
        assert!(solve.stdout_str().lines().any(|l| l.trim() == flag));
    }
}

/// A rating budget that rates most of the sample, its easier nested chains
/// included, and stops the rest (`limit`) within a second or so: the
/// default budget spends about 20 s on the sample's hardest puzzles.
const QUICK: &str = "5000000";

/// The ER distribution: read from `batchdoku rate` output (CSV and JSONL)
/// it counts exactly that output's `er` and `status` columns, and `--rate`
/// on the plain puzzles gives the same figures; a plain input without an
/// `er` column has no ER section.
#[test]
fn er_distribution_counts_the_rate_columns() {
    let dir = tempfile::tempdir().unwrap();
    let sample = data("sample.txt");
    let rated = run_paths(&["rate", "-q", "--limit", QUICK], &[&sample]);
    assert_eq!(rated.code, 0, "{}", rated.stderr);
    let (h, rows) = rated.csv();
    let mut by_er: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_status: BTreeMap<String, u64> = BTreeMap::new();
    for (er, status) in column(&h, &rows, "er")
        .into_iter()
        .zip(column(&h, &rows, "status"))
    {
        if !er.is_empty() {
            *by_er.entry(er).or_default() += 1;
        }
        *by_status.entry(status).or_default() += 1;
    }
    assert!(!by_er.is_empty(), "the sample has rated puzzles");
    let csv = write(dir.path(), "rated.csv", &rated.stdout);
    let jsonl_run = run_paths(
        &["rate", "-q", "--format", "jsonl", "--limit", QUICK],
        &[&sample],
    );
    let jsonl = write(dir.path(), "rated.jsonl", &jsonl_run.stdout);
    let count = |name: &str| by_status.get(name).copied().unwrap_or(0);
    for (args, path) in [
        (&[][..], &csv),
        (&[][..], &jsonl),
        (&["--rate", "--limit", QUICK][..], &sample),
    ] {
        let er = &report_json(args, path)["ratings"];
        assert_eq!(er["rated"], count("rated"), "{path:?} {er}");
        assert_eq!(er["limit"], count("limit"));
        assert_eq!(er["multiple"], count("multiple"));
        assert_eq!(er["unrated"], 0);
        let bins: BTreeMap<String, u64> = er["bins"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["puzzles"].as_u64().unwrap() > 0)
            .map(|b| {
                (
                    format!("{:.1}", b["er"].as_f64().unwrap()),
                    b["puzzles"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(bins, by_er, "{path:?}");
    }
    assert_eq!(report_json(&[], &csv)["ratings"]["source"], "columns");
    assert_eq!(
        report_json(&["--rate", "--limit", QUICK], &sample)["ratings"]["source"],
        "rate"
    );
    assert!(report_json(&[], &sample)["ratings"].is_null());
    // The pages show it: a plot on the HTML page, a table in Markdown.
    let page = run_paths(&["report", "-q", "--format", "html"], &[&csv]);
    assert!(page.stdout_str().contains("Difficulty rating (ER)"));
    let md = run_paths(&["report", "-q", "--format", "markdown"], &[&csv]);
    assert!(
        md.stdout_str().contains("| ER | puzzles | share |"),
        "{}",
        md.stdout_str()
    );
}

/// `report --rate --limit`: the budget reaches the rater (a budget of one
/// unit rates nothing), batches are small by default (rating is slow), and
/// `--limit` without `--rate` is a usage error.
#[test]
fn report_rate_takes_a_budget_and_small_batches() {
    let sample = data("sample.txt");
    let full = report_json(&["--rate", "--limit", QUICK], &sample);
    let rated = full["ratings"]["rated"].as_u64().unwrap();
    assert!(rated > 0, "{full}");
    assert_eq!(full["run"]["options"]["batch_size"], 16);
    let starved = report_json(&["--rate", "--limit", "1"], &sample);
    assert_eq!(starved["ratings"]["rated"], 0, "{starved}");
    assert_eq!(
        starved["ratings"]["limit"].as_u64().unwrap(),
        rated + full["ratings"]["limit"].as_u64().unwrap()
    );
    let chosen = report_json(&["--rate", "--batch-size", "64", "--limit", QUICK], &sample);
    assert_eq!(chosen["run"]["options"]["batch_size"], 64);
    let bad = run_paths(&["report", "--limit", "5"], &[&sample]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--rate"), "{}", bad.stderr);
}

/// Looking for an `er` column never refuses inputs a report read before:
/// CSV files with different columns are reported (without ratings), and a
/// line file beside a rated CSV is read as lines.
#[test]
fn inputs_with_other_columns_are_still_reported() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.csv", format!("puzzle,er\n{HARD},\n"));
    let b = write(dir.path(), "b.csv", format!("puzzle,id\n{HARD},7\n"));
    let both = run_paths(&["report", "-q", "--format", "json"], &[&a, &b]);
    assert_eq!(both.code, 0, "{}", both.stderr);
    let json: Value = serde_json::from_slice(&both.stdout).unwrap();
    assert_eq!(json["totals"]["records"], 2);
    assert!(json["ratings"].is_null());
    let alone = report_json(&[], &a);
    assert_eq!(
        alone["ratings"]["unrated"], 1,
        "an empty er is unrated, not 0"
    );
}

/// A report's JSON `run` section and its Markdown "options in effect" row
/// for `args` (report flags) over `input`.
/// (`Value::Null` for the JSON when `args` choose the format themselves).
fn options_of(args: &[&str], input: &Path) -> (Value, String) {
    let mut j = Value::Null;
    if !args.contains(&"--format") {
        let mut all = vec!["report", "-q", "--format", "json"];
        all.extend_from_slice(args);
        let out = run_paths(&all, &[input]);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        j = serde_json::from_slice(&out.stdout).unwrap();
    }
    let mut md_args = vec!["report", "-q"];
    md_args.extend_from_slice(args);
    let md = run_paths(&md_args, &[input]);
    assert_eq!(md.code, 0, "{args:?}: {}", md.stderr);
    let row = md
        .stdout_str()
        .lines()
        .find(|l| l.contains("options in effect"))
        .unwrap_or_else(|| panic!("no options row: {}", md.stdout_str()))
        .to_string();
    (j["run"].clone(), row)
}

/// Every option `report --help` lists (but `-q`, `--progress`, `--help`
/// and `--version`, which change only the terminal) is in the options in
/// effect, in the JSON and on the page, with the value given: set one at a
/// time, each shows. A flag added to `report` without a value here fails
/// this test, and one that the options forget fails it too (`--rate` and
/// `--limit` were forgotten: with `--limit 5` every puzzle was `limit` and
/// nothing said why).
#[test]
fn options_in_effect_list_every_option_report_takes() {
    let dir = tempfile::tempdir().unwrap();
    // Easy puzzles: `--rate` at its default budget is quick on them.
    let csv = format!("puzzle,solution\n{EASY},\n{},\n", relabelled(EASY));
    let input = write(dir.path(), "in.csv", csv);
    let page = dir.path().join("page.md");
    let summary = dir.path().join("summary.json");
    // Each option with the value to give it and what must then show on the
    // page ("" for a switch: the flag alone).
    let page_arg = arg(&page).to_string();
    let summary_arg = arg(&summary).to_string();
    let values: Vec<(&str, Vec<&str>, &str)> = vec![
        ("-o", vec![&page_arg], ""),
        ("-j", vec!["1"], "1"),
        ("--batch-size", vec!["3"], "3"),
        ("--input-format", vec!["csv"], "csv"),
        ("--column", vec!["puzzle"], "puzzle"),
        ("--expected-column", vec!["solution"], "solution"),
        ("--no-expected", vec![], ""),
        ("--delimiter", vec![","], ","),
        ("--summary-json", vec![&summary_arg], ""),
        ("--format", vec!["markdown"], "markdown"),
        ("--classes", vec![], ""),
        ("--score", vec!["target"], "target"),
        ("--rate", vec![], ""),
        ("--limit", vec!["5"], "5"),
    ];
    let help = run(&["report", "--help"], None);
    assert_eq!(help.code, 0, "{}", help.stderr);
    let terminal_only = [
        "-q",
        "--quiet",
        "--progress",
        "-h",
        "--help",
        "-V",
        "--version",
    ];
    let mut listed = Vec::new();
    let options = help
        .stdout_str()
        .split_once("\nOptions:\n")
        .expect("an Options section")
        .1;
    for line in options.lines() {
        let line = line.trim_start();
        if !line.starts_with('-') || line.starts_with("- ") {
            continue;
        }
        // "-o, --output <PATH>" or "--rate": the short flag when there is one.
        let flag = line.split([',', ' ']).next().unwrap().to_string();
        if !terminal_only.contains(&flag.as_str()) {
            listed.push(flag);
        }
    }
    for flag in &listed {
        assert!(
            values.iter().any(|(f, _, _)| f == flag),
            "report --help lists {flag}: give it a value in this test"
        );
    }
    for (flag, given, shown) in &values {
        assert!(
            listed.iter().any(|f| f == flag),
            "{flag} is no longer in report --help"
        );
        let mut args: Vec<&str> = vec![flag];
        args.extend(given.iter().copied());
        if *flag == "--limit" {
            args.push("--rate");
        }
        if *flag == "-o" {
            // The page goes to the file: read its options row there.
            let mut all = vec!["report", "-q"];
            all.extend(&args);
            let r = run_paths(&all, &[&input]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            let text = std::fs::read_to_string(&page).unwrap();
            assert!(
                text.contains(&format!("-o {}", arg(&page))),
                "-o missing from the page's options"
            );
            continue;
        }
        let (facts, row) = options_of(&args, &input);
        let expected = if shown.is_empty() {
            flag.to_string()
        } else {
            format!("{flag} {shown}")
        };
        let expected = if *flag == "--delimiter" {
            "--delimiter ,".to_string()
        } else {
            expected
        };
        let expected = if *flag == "--summary-json" {
            format!("--summary-json {}", arg(&summary))
        } else {
            expected
        };
        assert!(row.contains(&expected), "{flag}: {expected:?} not in {row}");
        let key = flag.trim_start_matches('-').replace('-', "_");
        let key = match key.as_str() {
            "o" => "output".to_string(),
            "j" => "threads".to_string(),
            _ => key,
        };
        if facts.is_null() {
            continue;
        }
        let value = &facts["options"][&key];
        assert!(
            !(value.is_null() || *value == Value::Bool(false)),
            "{flag}: options.{key} is {value} in {}",
            facts["options"]
        );
    }
    // Defaults are in effect too, and what the run computed.
    let (facts, row) = options_of(&["--rate", "-j", "2"], &input);
    let limit = batchdoku_batch::RateJob::DEFAULT_LIMIT;
    assert_eq!(facts["options"]["limit"], limit, "{}", facts["options"]);
    assert!(row.contains(&format!("--rate --limit {limit}")), "{row}");
    assert!(
        row.contains("--batch-size 16") && row.contains("-j 2"),
        "{row}"
    );
}

/// Each input's bytes and checksum are those the pass read, however the
/// input arrives: a file that grew after it was opened is reported at
/// what was read (its size at opening was reported while the checksum,
/// read again after the pass, covered more), a FIFO and stdin count their
/// own bytes (a FIFO was opened twice and stdin was given the other
/// inputs' excess), and the checksum is of exactly those bytes.
#[test]
fn input_bytes_and_checksums_are_what_the_pass_read() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let grids = sample_grids(30);
    let first = lines_of(&grids[..10]);
    let more = lines_of(&grids[10..20]);
    let piped = lines_of(&grids[20..]);
    let grown = write(dir.path(), "grows.txt", &first);
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let fifo_bytes = lines_of(&grids[5..15]);
    let mut child = command(&[
        "report",
        "-q",
        "--format",
        "json",
        arg(&grown),
        arg(&fifo),
        "-",
    ])
    .stdin(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    // Opening the FIFO to write waits for the report to open it, which it
    // does after opening (and measuring) the first file: that file grows
    // now, before the pass reads it.
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&grown)
        .unwrap()
        .write_all(more.as_bytes())
        .unwrap();
    writer.write_all(fifo_bytes.as_bytes()).unwrap();
    drop(writer);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(piped.as_bytes()).unwrap();
    drop(stdin);
    let out = output_within(child, std::time::Duration::from_secs(60));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["totals"]["records"], 40, "{}", j["totals"]);
    let whole = format!("{first}{more}");
    let inputs = j["run"]["inputs"].as_array().unwrap();
    for (input, (name, bytes)) in inputs.iter().zip([
        (arg(&grown), whole.as_bytes()),
        (arg(&fifo), fifo_bytes.as_bytes()),
        ("<stdin>", piped.as_bytes()),
    ]) {
        assert_eq!(input["name"], name);
        assert_eq!(input["bytes"], bytes.len() as u64, "{name}: {input}");
        assert_eq!(
            input["xxh3_64"],
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(bytes)),
            "{name}"
        );
    }
    // Compressed: the bytes as they arrived, the file's own.
    let gz = dir.path().join("in.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(whole.as_bytes()).unwrap();
    let packed = enc.finish().unwrap();
    std::fs::write(&gz, &packed).unwrap();
    let j = report_json(&[], &gz);
    let input = &j["run"]["inputs"][0];
    assert_eq!(input["bytes"], packed.len() as u64);
    assert_eq!(
        input["xxh3_64"],
        format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&packed))
    );
}

/// A Kaggle-layout input with answers (`quizzes,solutions`, `0` for
/// blanks) from data/sample.txt, cycling through: a correct solution, a
/// wrong one (two digits of a row swapped), a malformed one (80 cells) and
/// none (an empty cell); plus an invalid puzzle. As CSV and as JSONL.
fn answered_inputs(dir: &Path) -> [std::path::PathBuf; 2] {
    let mut solver = batchdoku_core::Solver::new();
    let mut csv = String::from("quizzes,solutions\n");
    let mut jsonl = String::new();
    for (i, p) in sample_grids(60).iter().enumerate() {
        let s = batchdoku_core::Engine::solve_first(&mut solver, p)
            .unwrap()
            .solution
            .unwrap();
        let mut answer = s.to_line_with(b'0');
        match i % 4 {
            0 => {}
            1 => answer.swap(9 * (i % 9), 9 * (i % 9) + 1 + i % 8),
            2 => {
                answer[80] = b' ';
            }
            _ => answer = [b' '; 81],
        }
        let quiz = String::from_utf8(p.to_line_with(b'0').to_vec()).unwrap();
        let answer = String::from_utf8(answer.to_vec()).unwrap();
        let answer = answer.trim_end();
        csv.push_str(&format!("{quiz},{answer}\n"));
        jsonl.push_str(&format!(
            "{{\"quizzes\":\"{quiz}\",\"solutions\":\"{answer}\"}}\n"
        ));
        if i == 30 {
            let bad = format!("33{}", &quiz[2..]);
            csv.push_str(&format!("{bad},{answer}\n"));
            jsonl.push_str(&format!(
                "{{\"quizzes\":\"{bad}\",\"solutions\":\"{answer}\"}}\n"
            ));
        }
    }
    [
        write(dir, "answered.csv", csv),
        write(dir, "answered.jsonl", jsonl),
    ]
}

/// The audit section's counts equal a recount of `solve`'s `expected`
/// column on the same input (CSV and JSONL, `-j 1` and `-j 2`); it lists
/// the first mismatches and malformed solutions in input order with the
/// puzzle, the given solution and why; every format has it, and an input
/// without an expected-solution column has none.
#[test]
fn audit_counts_match_a_recount_from_solve_expected() {
    let dir = tempfile::tempdir().unwrap();
    for input in answered_inputs(dir.path()) {
        let what = input.display().to_string();
        let solved = run_paths(&["solve", "-q"], &[&input]);
        assert_eq!(solved.code, 1, "{what}: {}", solved.stderr);
        let (header, rows) = solved.csv();
        let (c_line, c_puzzle, c_expected) = (
            col(&header, "line"),
            col(&header, "puzzle"),
            col(&header, "expected"),
        );
        let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
        for r in &rows {
            *counts.entry(r[c_expected].as_str()).or_default() += 1;
        }
        let n = |k: &str| counts.get(k).copied().unwrap_or(0);
        assert!(
            n("match") > 10 && n("mismatch") > 10 && n("malformed") > 10 && n("") > 10,
            "{what}: {counts:?}"
        );
        let problems = |kind: &str| -> Vec<(u64, String)> {
            rows.iter()
                .filter(|r| r[c_expected] == kind)
                .map(|r| (r[c_line].parse().unwrap(), r[c_puzzle].clone()))
                .collect()
        };
        let text = std::fs::read_to_string(&input).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for threads in ["1", "2"] {
            let j = report_json(&["-j", threads], &input);
            let a = &j["audit"];
            assert_eq!(a["match"], n("match"), "{what}");
            assert_eq!(a["mismatch"], n("mismatch"), "{what}");
            assert_eq!(a["malformed"], n("malformed"), "{what}");
            assert_eq!(a["unchecked"], n(""), "{what}");
            for (key, not_shown, kind, why) in [
                (
                    "mismatches",
                    "mismatches_not_shown",
                    "mismatch",
                    "not a valid completion",
                ),
                (
                    "malformed_rows",
                    "malformed_not_shown",
                    "malformed",
                    "not a complete grid",
                ),
            ] {
                let listed = a[key].as_array().unwrap();
                let expected = problems(kind);
                assert_eq!(listed.len(), 10, "{what} {key}");
                assert_eq!(a[not_shown], expected.len() as u64 - 10, "{what} {key}");
                for (e, (line, puzzle)) in listed.iter().zip(&expected) {
                    assert_eq!(e["line"], *line, "{what} {key}");
                    assert_eq!(e["puzzle"].as_str().unwrap(), puzzle, "{what} {key}");
                    assert!(
                        e["why"].as_str().unwrap().starts_with(why),
                        "{what} {key}: {e}"
                    );
                    // The given solution, as the input's line holds it.
                    let source = lines[*line as usize - 1];
                    match e["solution"].as_str() {
                        Some(s) => assert!(source.contains(s), "{what}: {source} {s}"),
                        None => assert_eq!(kind, "malformed"),
                    }
                }
            }
        }
        let md = run_paths(&["report", "-q", "--format", "markdown"], &[&input]);
        let md = md.stdout_str();
        assert!(md.contains("## Expected solutions"), "{what}");
        assert!(
            md.contains(&format!("| mismatch | {} |", n("mismatch"))),
            "{what}: {md}"
        );
        let html = run_paths(&["report", "-q", "--format", "html"], &[&input]);
        let html = html.stdout_str();
        assert!(html.contains("<h2>Expected solutions</h2>"), "{what}");
        assert!(html.contains("<h3>Mismatches</h3>"), "{what}");
        assert!(
            html.contains("<h3>Malformed expected solutions</h3>"),
            "{what}"
        );
    }
    // No expected-solution column: no audit, in any format.
    let plain = data("sample.txt");
    assert!(report_json(&[], &plain)["audit"].is_null());
    for format in ["markdown", "html"] {
        let page = run_paths(&["report", "-q", "--format", format], &[&plain]);
        assert!(
            !page.stdout_str().contains("Expected solutions"),
            "{format}"
        );
    }
}
