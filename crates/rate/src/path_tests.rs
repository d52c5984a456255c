//! The rater's solution paths against Sudoku Explainer's, step for step
//! (the fixture `tests/fixtures/rate/paths.tsv`: every step `serate` takes
//! on puzzles of every technique family, printed by the oracle's
//! `PathSteps.java` and named as `rate` names techniques by `topath.py`),
//! and the path's words: the notation and each step's sentence.

use super::budget::Budget;
use super::rater::Rater;
use super::step::Step;
use super::technique::Technique;
use super::text::Notation;
use batchdoku_core::parse_line;
use std::collections::BTreeMap;

/// The fixture: puzzle, step number, technique, rating, placement,
/// eliminations, serate's name; a line per step, puzzles in a row.
const PATHS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/rate/paths.tsv");

/// One step as both sides print it: technique name, rating with one
/// decimal, placement (`-` when none), eliminations (space separated, cell
/// order then digit order; `-` when none).
#[derive(Debug, PartialEq, Eq)]
struct Printed {
    technique: String,
    rating: String,
    placement: String,
    eliminations: String,
}

impl Printed {
    fn of(step: &Step) -> Printed {
        let placement = step.placement().map_or("-".to_string(), |(c, d)| {
            Notation::placement(c, d).as_str().to_string()
        });
        let eliminations: Vec<String> = step
            .eliminations()
            .map(|(c, d)| Notation::elimination(c, d).as_str().to_string())
            .collect();
        Printed {
            technique: step.technique().name().to_string(),
            rating: format!("{}.{}", step.rating() / 10, step.rating() % 10),
            placement,
            eliminations: if eliminations.is_empty() {
                "-".to_string()
            } else {
                eliminations.join(" ")
            },
        }
    }
}

/// The fixture's paths, by puzzle in file order.
fn paths() -> Vec<(String, Vec<Printed>)> {
    let text = std::fs::read_to_string(PATHS).unwrap_or_else(|e| panic!("{PATHS}: {e}"));
    let mut out: Vec<(String, Vec<Printed>)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let step = Printed {
            technique: f[2].to_string(),
            rating: f[3].to_string(),
            placement: f[4].to_string(),
            eliminations: f[5].to_string(),
        };
        match out.last_mut() {
            Some((puzzle, steps)) if puzzle == f[0] => {
                assert_eq!(f[1], (steps.len() + 1).to_string(), "steps in order");
                steps.push(step);
            }
            _ => out.push((f[0].to_string(), vec![step])),
        }
    }
    out
}

/// Every step of every fixture path is serate's: the same technique,
/// rating, placement and eliminations, in the same order; a disagreement
/// is reported with both sides.
#[test]
fn paths_agree_with_serate_step_for_step() {
    let mut rater = Rater::with_path();
    let mut by_technique: BTreeMap<&'static str, usize> = BTreeMap::new();
    let (mut puzzles, mut steps) = (0, 0);
    let mut misses = Vec::new();
    for (puzzle, expected) in paths() {
        let grid = parse_line(puzzle.as_bytes()).unwrap();
        let rating = rater.rate(&grid, Budget::new(2_000_000_000));
        assert!(rating.is_ok(), "{puzzle}: {rating:?}");
        let ours: Vec<Printed> = rater.path().iter().map(Printed::of).collect();
        puzzles += 1;
        let agreeing = ours
            .iter()
            .zip(&expected)
            .take_while(|(a, b)| a == b)
            .count();
        for step in &rater.path()[..agreeing] {
            *by_technique.entry(step.technique().name()).or_default() += 1;
        }
        steps += agreeing;
        if agreeing < expected.len().max(ours.len()) {
            misses.push(format!(
                "{puzzle} step {}: serate {:?}, ours {:?}",
                agreeing + 1,
                expected.get(agreeing),
                ours.get(agreeing)
            ));
        }
    }
    for m in &misses {
        eprintln!("{m}");
    }
    eprintln!("{steps} steps of {puzzles} paths agree: {by_technique:?}");
    assert!(misses.is_empty(), "{} paths disagree", misses.len());
    // Every technique of the ladder but direct claiming (which no puzzle
    // of the public sets measured takes) has steps compared.
    for t in Technique::ALL {
        if t != Technique::DirectClaiming {
            assert!(
                by_technique.contains_key(t.name()),
                "no {} step compared",
                t.name()
            );
        }
    }
}

/// Each step's sentence is there and fits a CSV path cell: none of the
/// cell's separators, quotes or line breaks.
#[test]
fn every_step_has_a_sentence_without_separators() {
    let mut rater = Rater::with_path();
    for (puzzle, _) in paths().iter().take(30) {
        let grid = parse_line(puzzle.as_bytes()).unwrap();
        rater.rate(&grid, Budget::new(2_000_000_000)).unwrap();
        for step in rater.path() {
            let text = step.text();
            assert!(!text.is_empty(), "{puzzle}: {step:?} has no text");
            assert!(
                !text.contains(['|', ';', '"', '\n', '\r']),
                "{puzzle}: {text:?}"
            );
        }
    }
}
