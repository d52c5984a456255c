//! Report tests through the real pipeline: the numbers against a direct
//! count with the solver and the singles rating, independence from the
//! thread count, and hostile inputs rendered in every format.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use super::*;
use crate::pipeline::{self, Config, Input, Sink};
use crate::{OutputFormat, RateJob};
use batchdoku_core::{parse_line, Canonicalizer, ReadOptions, Rng, Transform};

/// 211 puzzles with one solution each (generated, as the sample of the
/// repository's data/ that these tests read before they moved into this
/// crate, which reaches nothing outside itself).
fn sample() -> Vec<Grid> {
    use batchdoku_core::testdata::corpus::{corpus_item, PuzzleKind};
    let mut solver = Solver::new();
    (0..211)
        .map(|i| corpus_item(7, 4 * i, &mut solver))
        .inspect(|(kind, _)| assert_eq!(*kind, PuzzleKind::Unique))
        .map(|(_, p)| p)
        .collect()
}

/// Whether cells `a` and `b` share a row, column or box.
fn peers(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

/// `n` puzzles of every status, a quarter each, from random equivalents of
/// the sample: unique as they are; multiple with givens removed until a
/// second solution appears; unsolvable with a wrong digit placed where no
/// peer forbids it; contradictory with a given copied into a peer.
fn mixed_corpus(seed: u64, n: usize) -> Vec<Grid> {
    let sample = sample();
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new();
    (0..n)
        .map(|i| {
            let mut p = Transform::random(&mut rng).apply(&sample[i % sample.len()]);
            let solution = solver.solve_first(&p).unwrap().solution.unwrap();
            let givens: Vec<usize> = (0..Grid::CELLS).filter(|&c| p.get(c) != 0).collect();
            let blanks: Vec<usize> = (0..Grid::CELLS).filter(|&c| p.get(c) == 0).collect();
            match i % 4 {
                0 => {}
                1 => {
                    let mut order = givens.clone();
                    rng.shuffle(&mut order);
                    for c in order {
                        p.set(c, 0);
                        if solver.count_solutions_up_to(&p, 2).unwrap().solutions == 2 {
                            break;
                        }
                    }
                }
                2 => {
                    let fits = |p: &Grid, c: usize, d: u8| {
                        d != solution.get(c)
                            && (0..Grid::CELLS).all(|o| !peers(c, o) || p.get(o) != d)
                    };
                    let (c, d) = blanks
                        .iter()
                        .flat_map(|&c| (1..=9).map(move |d| (c, d)))
                        .find(|&(c, d)| fits(&p, c, d))
                        .unwrap();
                    p.set(c, d);
                }
                _ => {
                    let &from = givens.first().unwrap();
                    let to = (0..Grid::CELLS)
                        .find(|&o| peers(from, o) && p.get(o) == 0)
                        .unwrap();
                    p.set(to, p.get(from));
                }
            }
            p
        })
        .collect()
}

/// Whether naked and hidden singles alone solve `p`: a plain oracle for
/// the report's singles count.
fn solved_by_singles(p: &Grid) -> bool {
    let mut g = *p;
    let candidates = |g: &Grid, c: usize| -> u16 {
        (1..=9u8)
            .filter(|&d| (0..Grid::CELLS).all(|o| !peers(c, o) || g.get(o) != d))
            .fold(0, |m, d| m | 1 << d)
    };
    loop {
        let mut placed = false;
        let blanks: Vec<usize> = (0..Grid::CELLS).filter(|&c| g.get(c) == 0).collect();
        for c in blanks {
            let m = candidates(&g, c);
            if g.get(c) == 0 && m.count_ones() == 1 {
                g.set(c, m.trailing_zeros() as u8);
                placed = true;
            }
        }
        let units = (0..9).flat_map(|k| {
            [
                (0..9).map(|i| 9 * k + i).collect::<Vec<_>>(),
                (0..9).map(|i| 9 * i + k).collect(),
                (0..9)
                    .map(|i| 27 * (k / 3) + 3 * (k % 3) + 9 * (i / 3) + i % 3)
                    .collect(),
            ]
        });
        for unit in units {
            for d in 1..=9u8 {
                let spots: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&c| g.get(c) == 0 && candidates(&g, c) & 1 << d != 0)
                    .collect();
                if spots.len() == 1 && !unit.iter().any(|&c| g.get(c) == d) {
                    g.set(spots[0], d);
                    placed = true;
                }
            }
        }
        if g.is_complete() {
            return true;
        }
        if !placed {
            return false;
        }
    }
}

/// Runs a report over `text` (one input file) on `threads` workers.
fn report_of(text: &[u8], threads: usize, options: ReportOptions) -> CorpusReport {
    report_reading(text, threads, options, &ReadOptions::default())
}

/// Runs a report over `text` read with `read`, on `threads` workers.
fn report_reading(
    text: &[u8],
    threads: usize,
    options: ReportOptions,
    read: &ReadOptions,
) -> CorpusReport {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text)
        .unwrap();
    let counter = Arc::new(AtomicU64::new(0));
    let input = Input::open(path.to_str().unwrap(), read, counter.clone()).unwrap();
    let info = vec![InputInfo {
        name: input.name.to_string(),
        bytes: text.len() as u64,
        xxh3_64: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text)),
    }];
    let config = Config {
        threads,
        batch_size: 7,
        format: OutputFormat::Csv,
        columns: Vec::new(),
        kept_names: Vec::new(),
        header: false,
        as_written: None,
    };
    let job = ReportJob::new(options, threads);
    let mut sink = Sink::file(&dir.path().join("out")).unwrap();
    let quit = AtomicBool::new(false);
    let run = pipeline::run(&job, vec![input], &mut sink, &config, &quit, &counter, &()).unwrap();
    assert_eq!(run.totals.rows, 0, "a report writes no rows");
    job.finish(RunFacts {
        inputs: info,
        elapsed: run.elapsed,
        threads,
        ..RunFacts::default()
    })
}

fn corpus_text(n: usize) -> Vec<u8> {
    let mut text = Vec::new();
    for (i, p) in mixed_corpus(11, n).iter().enumerate() {
        text.extend_from_slice(&p.to_line());
        text.push(b'\n');
        if i % 37 == 5 {
            text.extend_from_slice(b"not a puzzle\n");
        }
        if i % 53 == 7 {
            // An exact repeat and a relabelled copy (same class).
            text.extend_from_slice(&p.to_line());
            text.push(b'\n');
            let relabelled: Vec<u8> = p
                .to_line()
                .iter()
                .map(|&c| {
                    if c.is_ascii_digit() {
                        b'1' + (c - b'0') % 9
                    } else {
                        c
                    }
                })
                .collect();
            text.extend_from_slice(&relabelled);
            text.push(b'\n');
        }
    }
    text
}

fn all_options() -> ReportOptions {
    ReportOptions {
        classes: true,
        score: Some(("target".to_string(), Weights::target())),
        // Without the rater (`--no-default-features`) a report rates
        // nothing: `report --rate` is refused before it starts.
        ratings: cfg!(feature = "rate").then(|| RatingSource::Rate(RateJob::default())),
        audit: false,
    }
}

/// The audit section: in every format when the input has an
/// expected-solution column, with its counts, its first problem rows (and
/// how many more), in none otherwise.
#[test]
fn audit_section_shows_counts_and_first_problem_rows() {
    use super::aggregate::{AuditNote, AUDIT_SHOWN};
    let mut total = Aggregate::default();
    let note = |index: u64, given: Option<&str>| AuditNote {
        index,
        line: index + 1,
        input: "in|put.csv".to_string(),
        puzzle: format!("{:.<81}", index),
        given: given.map(str::to_string),
        why: "not a valid completion: digit 3 twice in row 1".to_string(),
    };
    for (kind, n) in [
        (Some(Expected::Match), 5u64),
        (Some(Expected::Mismatch), AUDIT_SHOWN as u64 + 3),
        (Some(Expected::Malformed), 2),
        (None, 4),
    ] {
        for _ in 0..n {
            let row = Row {
                index: total.records + 1,
                status: Status::Unique,
                expected: kind,
                ..Row::default()
            };
            total.add(&row);
            if let Some(kind) = kind {
                let given = (kind == Expected::Mismatch).then_some("9".repeat(81));
                total
                    .audit
                    .note(kind, row.index, || note(row.index, given.as_deref()));
            }
        }
    }
    let without = CorpusReport::new(&total, None, None, None, false, RunFacts::default());
    assert!(without.audit.is_none());
    for format in [Format::Html, Format::Markdown, Format::Json] {
        assert!(
            !render(&without, format).contains("xpected solution"),
            "{format:?}"
        );
    }
    let r = CorpusReport::new(&total, None, None, None, true, RunFacts::default());
    let a = r.audit.as_ref().unwrap();
    assert_eq!(
        (a.matched, a.mismatch, a.malformed, a.unchecked),
        (5, 13, 2, 4)
    );
    assert_eq!(
        (a.mismatches.len(), a.mismatches_not_shown),
        (AUDIT_SHOWN, 3)
    );
    assert_eq!((a.malformed_rows.len(), a.malformed_not_shown), (2, 0));
    assert!(a.mismatches.windows(2).all(|w| w[0].record < w[1].record));
    let json: serde_json::Value = serde_json::from_str(&render(&r, Format::Json)).unwrap();
    assert_eq!(json["audit"]["match"], 5);
    assert_eq!(
        json["audit"]["malformed_rows"][0]["solution"],
        serde_json::Value::Null
    );
    let md = render(&r, Format::Markdown);
    assert!(md.contains("## Expected solutions"), "{md}");
    assert!(md.contains("| mismatch | 13 |"), "{md}");
    assert!(md.contains("and 3 more mismatches."), "{md}");
    assert!(md.contains("in\\|put.csv:"), "{md}");
    let html = render(&r, Format::Html);
    assert!(html.contains("<h2>Expected solutions</h2>"));
    assert!(html.contains("<h3>Malformed expected solutions</h3>"));
    assert!(html.contains("and 3 more mismatches."));
    assert!(!html.contains('`'));
}

/// The numbers, against a direct count over the same lines.
#[test]
fn counts_agree_with_a_direct_count() {
    let text = corpus_text(300);
    let r = report_of(&text, 2, all_options());
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    let (mut records, mut invalid, mut unique, mut multiple, mut unsolvable) = (0, 0, 0, 0, 0);
    let mut givens = [0u64; 82];
    let mut singles = 0;
    let mut scored = 0;
    let mut exact = std::collections::HashSet::new();
    let mut forms = std::collections::HashMap::new();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        records += 1;
        let Ok(p) = batchdoku_core::parse_line(line) else {
            invalid += 1;
            continue;
        };
        let Ok(out) = solver.count_solutions_up_to(&p, 2) else {
            invalid += 1;
            continue;
        };
        givens[p.cells().iter().filter(|&&c| c != 0).count()] += 1;
        exact.insert(p);
        *forms.entry(canon.canonical(&p).0).or_insert(0u64) += 1;
        match out.solutions {
            0 => unsolvable += 1,
            1 => {
                unique += 1;
                singles += u64::from(solved_by_singles(&p));
            }
            _ => multiple += 1,
        }
        scored += u64::from(out.solutions > 0);
    }
    let t = &r.totals;
    assert_eq!(
        (t.records, t.invalid, t.unique, t.multiple, t.unsolvable),
        (records, invalid, unique, multiple, unsolvable)
    );
    assert!(invalid > 0 && unique > 0 && multiple > 0, "{t:?}");
    assert_eq!(t.valid + t.invalid, t.records);
    assert_eq!(t.errors.len() as u64 + t.errors_not_shown, t.invalid);
    assert_eq!(t.errors[0].input, r.run.inputs[0].name);
    assert!(
        t.errors
            .iter()
            .any(|e| e.message == "bad character 'n' at column 1" && e.line == 7),
        "{:?}",
        t.errors
    );
    for b in &r.givens {
        assert_eq!(b.records, givens[b.givens], "givens {}", b.givens);
    }
    assert_eq!(r.givens.iter().map(|b| b.records).sum::<u64>(), t.valid);
    assert_eq!(r.singles.solved_by_singles, singles);
    assert_eq!(r.scores.as_ref().unwrap().scored, scored);
    let c = r.classes.as_ref().unwrap();
    assert_eq!(c.distinct_puzzles, exact.len() as u64);
    assert_eq!(c.distinct, forms.len() as u64);
    assert_eq!(c.exact_repeats, t.valid - exact.len() as u64);
    assert_eq!(c.duplicates, t.valid - forms.len() as u64);
    assert!(
        c.exact_repeats >= 3 && c.duplicates >= 2 * c.exact_repeats,
        "{c:?}"
    );
    let mut sizes: Vec<u64> = forms.values().copied().filter(|&n| n >= 2).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes.truncate(LARGEST_CLASSES);
    let largest: Vec<u64> = c.largest.iter().map(|e| e.records).collect();
    assert_eq!(largest, sizes);
    // Each listed class: its canonical form has that many records, and its
    // two examples are distinct records of the class at the lines they name.
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    for e in &c.largest {
        let form = parse_line(e.canonical.as_bytes()).unwrap();
        assert_eq!(forms[&form], e.records, "{e:?}");
        let another = e
            .another
            .as_ref()
            .expect("a class of two or more shows two");
        assert!(e.example.record < another.record, "{e:?}");
        for x in [&e.example, another] {
            let example = parse_line(x.puzzle.as_bytes()).unwrap();
            assert_eq!(canon.canonical(&example).0, form, "{e:?}");
            assert_eq!(lines[x.line as usize - 1], x.puzzle.as_bytes(), "{e:?}");
            assert!(x.record >= e.first_record, "{e:?}");
        }
    }
}

#[test]
fn same_report_at_any_thread_count() {
    let text = corpus_text(200);
    let strip = |r: CorpusReport| {
        let mut v = serde_json::to_value(&r).unwrap();
        v["run"] = serde_json::Value::Null;
        // Which record a class shows may differ (see `largest`); the
        // classes themselves may not.
        for e in v["classes"]["largest"].as_array_mut().unwrap() {
            e["example"] = serde_json::Value::Null;
            e["another"] = serde_json::Value::Null;
        }
        // Each run reads its own temporary file.
        for e in v["totals"]["errors"].as_array_mut().unwrap() {
            e["input"] = serde_json::Value::Null;
        }
        v
    };
    let one = strip(report_of(&text, 1, all_options()));
    let three = strip(report_of(&text, 3, all_options()));
    assert_eq!(one, three);
}

/// Empty input, all invalid, one record, one blank grid: every format
/// renders, no NaN or infinity appears, and the page has one plot per
/// distribution.
#[test]
fn hostile_inputs_give_sensible_pages() {
    let cases: [&[u8]; 5] = [
        b"",
        b"junk\n12\n\n33.......................................................................\n",
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
        b".................................................................................\n",
        b"\xff\xfe<script>alert(1)</script>|`\n",
    ];
    for text in cases {
        for options in [ReportOptions::default(), all_options()] {
            let r = report_of(text, 2, options);
            for format in [Format::Html, Format::Json, Format::Markdown] {
                let page = render(&r, format);
                assert!(!page.contains("NaN") && !page.contains("inf"), "{page}");
                assert!(!page.contains("<script"), "{page}");
            }
            let html = render(&r, Format::Html);
            assert_eq!(html.matches("<svg").count(), r.distribution_count());
            let json: serde_json::Value = serde_json::from_str(&render(&r, Format::Json)).unwrap();
            assert_eq!(json["totals"]["records"], r.totals.records);
        }
    }
}

#[test]
fn format_follows_the_extension() {
    use std::path::Path;
    assert_eq!(Format::from_path(Path::new("a/r.HTML")), Some(Format::Html));
    assert_eq!(Format::from_path(Path::new("r.json")), Some(Format::Json));
    assert_eq!(Format::from_path(Path::new("r.md")), Some(Format::Markdown));
    assert_eq!(Format::from_path(Path::new("r.csv")), None);
    assert_eq!(Format::from_path(Path::new("report")), None);
}

/// The ER distribution with `--rate` against `RateJob` run directly on
/// each line, and read back from `rate`-style columns (CSV and JSONL)
/// with the same numbers; rows without a rating are not counted as 0.
#[cfg(feature = "rate")]
#[test]
fn er_distribution_matches_the_rate_job() {
    let text = corpus_text(120);
    let job = RateJob::default();
    let mut scratch = job.scratch();
    let mut by_er = std::collections::BTreeMap::new();
    let (mut limit, mut multiple, mut unsolvable) = (0u64, 0u64, 0u64);
    let mut csv = String::from("puzzle,status,er\n");
    let mut jsonl = String::new();
    let mut blank_er = 0u64;
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let line = String::from_utf8_lossy(line);
        let mut row = Row::default();
        let (status, er) = match parse_line(line.as_bytes()) {
            Ok(p) => {
                job.process(&mut scratch, &p, &Record::default(), &mut row);
                (row.status, row.ratings.map(|r| r.er))
            }
            Err(_) => (Status::Invalid, None),
        };
        match (status, er) {
            (Status::Rated, Some(er)) => *by_er.entry(er).or_insert(0u64) += 1,
            (Status::Limit, _) => limit += 1,
            (Status::Multiple, _) => multiple += 1,
            (Status::Unsolvable, _) => unsolvable += 1,
            _ => {}
        }
        let er_text = er.map_or(String::new(), |e| format!("{}.{}", e / 10, e % 10));
        let json_er = er.map_or("null".to_string(), |_| er_text.clone());
        // Every fifth rated row loses its rating: counted as unrated.
        let dropped = er.is_some() && by_er.values().sum::<u64>() % 5 == 0;
        blank_er += u64::from(dropped);
        let (csv_er, json_er) = if dropped {
            (String::new(), "null".to_string())
        } else {
            (er_text, json_er)
        };
        csv.push_str(&format!("{line},{},{csv_er}\n", status.as_str()));
        jsonl.push_str(&format!(
            "{{\"puzzle\":{:?},\"status\":\"{}\",\"er\":{json_er}}}\n",
            line.as_ref(),
            status.as_str()
        ));
    }
    let rated: u64 = by_er.values().sum();
    assert!(
        rated > 0 && multiple > 0,
        "the corpus has rated and multiple puzzles"
    );
    let r = report_of(
        &text,
        2,
        ReportOptions {
            ratings: Some(RatingSource::Rate(job)),
            ..ReportOptions::default()
        },
    );
    let er = r.ratings.as_ref().unwrap();
    assert_eq!(
        (er.rated, er.limit, er.multiple, er.unsolvable, er.unrated),
        (rated, limit, multiple, unsolvable, 0)
    );
    let bins: std::collections::BTreeMap<u8, u64> = er
        .bins
        .iter()
        .filter(|b| b.puzzles > 0)
        .map(|b| ((b.er * 10.0).round() as u8, b.puzzles))
        .collect();
    assert_eq!(bins, by_er);
    let keep = ReadOptions {
        keep_columns: true,
        ..ReadOptions::default()
    };
    let names = ["status".to_string(), "er".to_string()];
    for columns in [csv, jsonl] {
        let r = report_reading(
            columns.as_bytes(),
            3,
            ReportOptions {
                ratings: RatingSource::from_columns(&names),
                ..ReportOptions::default()
            },
            &keep,
        );
        let read = r.ratings.as_ref().unwrap();
        assert_eq!(read.source, "columns");
        assert_eq!(
            (read.rated + read.unrated, read.limit, read.multiple),
            (rated, limit, multiple)
        );
        assert_eq!(read.unrated, blank_er);
        let markdown = render(&r, Format::Markdown);
        assert!(markdown.contains("## Difficulty rating (ER)"), "{markdown}");
    }
}
