//! Report tests through the real pipeline: the numbers against a direct
//! count with the solver and the singles rating, independence from the
//! thread count, and hostile inputs rendered in every format.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;

use super::*;
use crate::difficulty::solved_by_singles;
use crate::output::OutputFormat;
use crate::parse::ReadOptions;
use crate::pipeline::{self, Config, Sink};
use crate::testdata::corpus::mixed_corpus;

/// Runs a report over `text` (one input file) on `threads` workers.
fn report_of(text: &[u8], threads: usize, options: ReportOptions) -> CorpusReport {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.txt");
    std::fs::File::create(&path)
        .unwrap()
        .write_all(text)
        .unwrap();
    let counter = Arc::new(AtomicU64::new(0));
    let input = pipeline::open(
        path.to_str().unwrap(),
        &ReadOptions::default(),
        counter.clone(),
    )
    .unwrap();
    let info = vec![InputInfo {
        name: input.name.to_string(),
        bytes: input.size,
    }];
    let config = Config {
        threads,
        batch_size: 7,
        format: OutputFormat::Csv,
        columns: Vec::new(),
        kept_names: Vec::new(),
        header: false,
    };
    let job = ReportJob::new(options, threads);
    let mut sink = Sink::file(&dir.path().join("out")).unwrap();
    let quit = AtomicBool::new(false);
    let run = pipeline::run(
        &job,
        vec![input],
        &mut sink,
        &config,
        &quit,
        &counter,
        &pipeline::NoProgress,
    )
    .unwrap();
    assert_eq!(run.totals.rows, 0, "a report writes no rows");
    job.finish(info, run.elapsed, threads)
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
    }
}

/// The numbers, against a direct count over the same lines.
#[test]
fn counts_agree_with_a_direct_count() {
    let text = corpus_text(300);
    let r = report_of(&text, 2, all_options());
    let mut solver = Solver::new();
    let (mut records, mut invalid, mut unique, mut multiple, mut unsolvable) = (0, 0, 0, 0, 0);
    let mut givens = [0u64; 82];
    let mut singles = 0;
    let mut scored = 0;
    let mut exact = std::collections::HashSet::new();
    let mut forms = std::collections::HashMap::new();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        records += 1;
        let Ok(p) = crate::parse::parse_line(line) else {
            invalid += 1;
            continue;
        };
        let Ok(out) = solver.count_solutions_up_to(&p, 2) else {
            invalid += 1;
            continue;
        };
        givens[p.cells().iter().filter(|&&c| c != 0).count()] += 1;
        exact.insert(p);
        *forms
            .entry(crate::canon::canonical_form(&p).0)
            .or_insert(0u64) += 1;
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
}

#[test]
fn same_report_at_any_thread_count() {
    let text = corpus_text(200);
    let strip = |r: CorpusReport| {
        let mut v = serde_json::to_value(&r).unwrap();
        v["run"] = serde_json::Value::Null;
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
