//! The rater against Sudoku Explainer's `serate` (the fixtures in
//! `tests/fixtures/rate/serate.tsv`: random equivalents of public
//! puzzles, and at its end six public puzzles as published that need
//! dynamic forcing chains (+), with the ER/EP/ED serate printed), and
//! every step it takes against the puzzle's solution.

use super::budget::Budget;
use super::rater::{Rater, Rating, Unrated};
use super::step::Step;
use super::technique::Technique;
use batchdoku_core::{parse_line, Engine, Grid, Solver};

/// The fixture file: puzzle, serate's `ER/EP/ED`, source set, a line each.
const FIXTURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/rate/serate.tsv"
);

/// The rating that needs no chain ends below this (SE's first chain, an
/// X-cycle, is rated 6.5).
const FIRST_CHAIN: u8 = 65;
/// The first rating of the nested forcing chains (9.5 and up), whose
/// puzzles get a larger work budget.
const FIRST_NESTED: u8 = 95;

/// A fixture: the puzzle and serate's ratings in tenths.
pub(crate) struct Fixture {
    /// The puzzle.
    pub(crate) puzzle: Grid,
    /// Its line of 81 characters.
    pub(crate) text: String,
    /// serate's ER, in tenths.
    pub(crate) er: u8,
    /// serate's EP, in tenths.
    pub(crate) ep: u8,
    /// serate's ED, in tenths.
    pub(crate) ed: u8,
}

fn tenths(s: &str) -> u8 {
    let (whole, frac) = s.split_once('.').expect("one decimal");
    (whole.parse::<u32>().unwrap() * 10 + frac.parse::<u32>().unwrap()) as u8
}

/// The fixtures of `tests/fixtures/rate/serate.tsv` in file order (the
/// one reader of that file: comment lines start with `#`).
pub(crate) fn fixtures() -> Vec<Fixture> {
    let text = std::fs::read_to_string(FIXTURES).unwrap_or_else(|e| panic!("{FIXTURES}: {e}"));
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split('\t');
            let text = fields.next().unwrap().to_string();
            let ratings: Vec<u8> = fields.next().unwrap().split('/').map(tenths).collect();
            Fixture {
                puzzle: parse_line(text.as_bytes()).unwrap(),
                text,
                er: ratings[0],
                ep: ratings[1],
                ed: ratings[2],
            }
        })
        .collect()
}

fn solution(puzzle: &Grid) -> Grid {
    let outcome = Solver::new().count_solutions_up_to(puzzle, 2).unwrap();
    assert_eq!(outcome.solutions, 1, "fixture without one solution");
    outcome.solution.unwrap()
}

/// Panics at the first step that removes a true candidate or places a
/// wrong digit.
fn check_steps(text: &str, steps: &[Step], solution: &Grid) {
    for (n, step) in steps.iter().enumerate() {
        if let Some((cell, digit)) = step.placement {
            assert_eq!(
                solution.get(usize::from(cell)),
                digit,
                "{text}: step {n} ({:?}) places a wrong digit",
                step.technique
            );
        }
        for (d, cells) in step.eliminations.iter().enumerate() {
            for cell in cells.iter() {
                assert_ne!(
                    usize::from(solution.get(cell)),
                    d + 1,
                    "{text}: step {n} ({:?}) removes the true {} from cell {cell}",
                    step.technique,
                    d + 1
                );
            }
        }
    }
}

/// A fixture whose rating differs from serate's, for the test's report.
fn miss(f: &Fixture, got: Result<Rating, Unrated>) -> String {
    let ours = got.map(|r| format!("{}/{}/{} {:?}", fmt(r.er), fmt(r.ep), fmt(r.ed), r.hardest));
    format!(
        "{} serate {}/{}/{} ours {ours:?}",
        f.text,
        fmt(f.er),
        fmt(f.ep),
        fmt(f.ed)
    )
}

fn fmt(r: u8) -> String {
    format!("{}.{}", r / 10, r % 10)
}

/// The budget a fixture gets: the nested forcing chains take more work.
fn room(f: &Fixture) -> Budget<'static> {
    Budget::new(if f.er >= FIRST_NESTED {
        1_000_000_000
    } else {
        50_000_000
    })
}

/// Every fixture is rated as serate rates it, and every step of its path
/// (placements and eliminations) is true to its solution. One pass: the
/// nested fixtures are the costly part.
#[test]
fn ratings_agree_with_serate_and_every_step_is_true() {
    let mut rater = Rater::with_path();
    let (mut simple, mut simple_ok, mut chained, mut chained_ok) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    for f in fixtures() {
        let got: Result<Rating, Unrated> = rater.rate(&f.puzzle, room(&f));
        check_steps(&f.text, rater.path(), &solution(&f.puzzle));
        if f.er < FIRST_CHAIN {
            simple += 1;
            match got {
                Ok(r) if (r.er, r.ep, r.ed) == (f.er, f.ep, f.ed) => simple_ok += 1,
                other => misses.push(miss(&f, other)),
            }
        } else {
            chained += 1;
            match got {
                Ok(r) if (r.er, r.ep, r.ed) == (f.er, f.ep, f.ed) => chained_ok += 1,
                other => misses.push(miss(&f, other)),
            }
        }
    }
    for m in &misses {
        eprintln!("{m}");
    }
    eprintln!(
        "no-chain fixtures: {simple_ok}/{simple} exact; chain fixtures (nested ones included): {chained_ok}/{chained} exact"
    );
    assert!(
        misses.is_empty(),
        "{} fixtures disagree with serate",
        misses.len()
    );
}

#[test]
fn rating_a_solved_grid_takes_no_step() {
    let f = &fixtures()[0];
    let solved = solution(&f.puzzle);
    let r = Rater::new().rate(&solved, Budget::new(10)).unwrap();
    assert_eq!((r.er, r.steps), (0, 0));
    assert_eq!(r.counts.iter().sum::<u32>(), 0);
    let _ = Technique::ALL;
}

/// A bounded rating stops exactly when the puzzle falls outside its
/// bounds, and otherwise gives the full rating: `Above` exactly when ER is
/// above `max_er`, `Below` exactly when ED is below `min_ed` or EP below
/// `min_ep` (fixtures below the nested chains, several bounds each).
#[test]
fn bounded_ratings_stop_exactly_outside_the_bounds() {
    use super::rater::Bounds;
    let mut rater = Rater::new();
    let (mut above, mut below, mut within) = (0, 0, 0);
    for f in fixtures().iter().filter(|f| f.er < FIRST_NESTED) {
        for x in [12, 20, 44, 62, 70, 84] {
            let bounds = Bounds {
                max_er: Some(x),
                ..Bounds::default()
            };
            match rater.rate_bounded(&f.puzzle, room(f), bounds) {
                Err(Unrated::Above) => {
                    assert!(f.er > x, "{}: ER {} not above {x}", f.text, f.er);
                    above += 1;
                }
                Ok(r) => {
                    assert!(f.er <= x, "{}: ER {} above {x}", f.text, f.er);
                    assert_eq!((r.er, r.ep, r.ed), (f.er, f.ep, f.ed), "{}", f.text);
                    within += 1;
                }
                other => panic!("{}: {other:?}", f.text),
            }
        }
        for (min_ed, min_ep) in [(Some(15), None), (None, Some(15)), (Some(12), Some(26))] {
            let bounds = Bounds {
                min_ed,
                min_ep,
                ..Bounds::default()
            };
            let falls = min_ed.is_some_and(|m| f.ed < m) || min_ep.is_some_and(|m| f.ep < m);
            match rater.rate_bounded(&f.puzzle, room(f), bounds) {
                Err(Unrated::Below) => {
                    assert!(falls, "{}: {bounds:?}", f.text);
                    below += 1;
                }
                Ok(r) => {
                    assert!(!falls, "{}: {bounds:?}", f.text);
                    assert_eq!((r.er, r.ep, r.ed), (f.er, f.ep, f.ed), "{}", f.text);
                }
                other => panic!("{}: {other:?}", f.text),
            }
        }
    }
    eprintln!("{above} above, {within} within, {below} below");
    assert!(above > 100 && within > 100 && below > 100);
}
