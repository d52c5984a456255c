//! Chain steps checked against Sudoku Explainer: each fixture line is a
//! grid state on serate's solution path where a chaining producer gave
//! the next step (state, producer, rating and result as serate printed
//! them, from `tests/fixtures/rate/chains.txt`). Every step found must
//! also agree with the puzzle's solution.

use super::*;
use crate::cells::CellSet;
use crate::technique::Technique;
use batchdoku_core::{parse_line, Engine, Grid, Solver};

/// One fixture line.
pub(super) struct Fixture {
    pub(super) level: ChainLevel,
    puzzle: Grid,
    pub(super) cands: Cands,
    pub(super) rating: u8,
    pub(super) result: Expected,
    line: String,
}

/// A step's result as serate printed it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Expected {
    Place(usize, u8),
    Eliminate([CellSet; 9]),
}

fn level_named(name: &str) -> Option<ChainLevel> {
    Some(match name {
        "cycles" => ChainLevel::Cycles,
        "nishio" => ChainLevel::Nishio,
        "multiple" => ChainLevel::Multiple,
        "dynamic" => ChainLevel::Dynamic,
        "plus" => ChainLevel::DynamicPlus,
        n => ChainLevel::Nested(n.strip_prefix("nested")?.parse().ok()?),
    })
}

/// The candidate grid of a state written as 81 comma-separated cells,
/// `=d` for a placed digit, else the candidates.
fn parse_state(text: &str) -> Cands {
    let cells: Vec<&str> = text.split(',').collect();
    assert_eq!(cells.len(), 81);
    let mut placed = [0u8; 81];
    for (c, t) in cells.iter().enumerate() {
        if let Some(d) = t.strip_prefix('=') {
            placed[c] = d.parse().unwrap();
        }
    }
    let mut cands = Cands::new(&Grid::from_cells(placed).unwrap());
    for (c, t) in cells.iter().enumerate() {
        if placed[c] == 0 {
            for d in 1..=9u8 {
                let keep = t.bytes().any(|b| b == b'0' + d);
                if !keep {
                    cands.eliminate(c, d);
                } else {
                    assert!(cands.has(c, d), "state keeps a candidate a peer rules out");
                }
            }
        }
    }
    cands
}

/// Parses one fixture line (also for the nested levels' tests).
pub(super) fn parse_fixture_line(line: &str) -> Fixture {
    parse_fixture(line)
}

fn parse_fixture(line: &str) -> Fixture {
    let f: Vec<&str> = line.split('\t').collect();
    let rating = (f[3].parse::<f64>().unwrap() * 10.0).round() as u8;
    let result = if let Some(p) = f[5].strip_prefix("place ") {
        let (c, d) = p.split_once(':').unwrap();
        Expected::Place(c.parse().unwrap(), d.parse().unwrap())
    } else {
        let mut sets = [CellSet::EMPTY; 9];
        for item in f[5].strip_prefix("elim").unwrap().split_whitespace() {
            let (c, ds) = item.split_once(':').unwrap();
            for d in ds.bytes() {
                sets[usize::from(d - b'1')].insert(c.parse().unwrap());
            }
        }
        Expected::Eliminate(sets)
    };
    Fixture {
        level: level_named(f[0]).unwrap(),
        puzzle: parse_line(f[1].as_bytes()).unwrap(),
        cands: parse_state(f[2]),
        rating,
        result,
        line: line.chars().take(120).collect(),
    }
}

pub(super) fn result_of(step: &Step) -> Expected {
    match step.placement {
        Some((c, d)) => Expected::Place(usize::from(c), d),
        None => Expected::Eliminate(step.eliminations),
    }
}

/// Panics if `step` removes the solution's digit or places another.
fn check_against_solution(step: &Step, solution: &Grid, cands: &Cands, what: &str) {
    if let Some((c, d)) = step.placement {
        assert_eq!(solution.get(usize::from(c)), d, "{what}: wrong placement");
    }
    for (d, cells) in step.eliminations.iter().enumerate() {
        for c in cells.iter() {
            assert_ne!(
                solution.get(c),
                d as u8 + 1,
                "{what}: removes the solution at {c}"
            );
        }
    }
    assert!(step.is_useful(cands), "{what}: a step that changes nothing");
}

fn fixtures() -> Vec<Fixture> {
    let path = std::env::var("BATCHDOKU_CHAIN_STEPS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/rate/chains.txt"
        )
        .to_string()
    });
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(parse_fixture)
        .collect()
}

/// Whether the producer of `level` is built: every level.
fn built(_: ChainLevel) -> bool {
    true
}

fn run(f: &Fixture, budget: &mut Budget) -> Result<Option<Step>, OutOfBudget> {
    if let ChainLevel::Nested(depth) = f.level {
        find_nested(&f.cands, depth, budget)
    } else if f.level.uses_simpler_rules() {
        find_with(&f.cands, f.level, &mut PlusRules, budget)
    } else {
        find(&f.cands, f.level, budget)
    }
}

#[test]
fn chain_steps_agree_with_serate_and_with_the_solution() {
    let mut solver = Solver::new();
    let mut tally: std::collections::BTreeMap<String, (u32, u32, u32)> = Default::default();
    let mut failures = Vec::new();
    for f in fixtures().into_iter().filter(|f| built(f.level)) {
        let solution = solver.solve_first(&f.puzzle).unwrap().solution.unwrap();
        let mut budget = Budget::new(u64::MAX);
        let step = run(&f, &mut budget).unwrap();
        let entry = tally.entry(format!("{:?}", f.level)).or_default();
        entry.0 += 1;
        let Some(step) = step else {
            failures.push(format!("no step: {}", f.line));
            continue;
        };
        check_against_solution(&step, &solution, &f.cands, &f.line);
        if step.rating == f.rating {
            entry.1 += 1;
        }
        if step.rating == f.rating && result_of(&step) == f.result {
            entry.2 += 1;
        } else {
            failures.push(format!(
                "{:?} got {} {:?} want {} {:?}: {}",
                step.technique,
                step.rating,
                result_of(&step),
                f.rating,
                f.result,
                f.line
            ));
        }
    }
    eprintln!("level: (steps, same rating, same step) {tally:?}");
    for line in failures.iter().take(10) {
        eprintln!("{line}");
    }
    assert!(!tally.is_empty());
    assert!(
        failures.is_empty(),
        "{} of the steps differ",
        failures.len()
    );
}

#[test]
fn the_cycles_level_names_its_kinds() {
    // Every technique a level-0 step may name is one of the five kinds.
    for f in fixtures().iter().filter(|f| f.level == ChainLevel::Cycles) {
        let step = find(&f.cands, f.level, &mut Budget::new(u64::MAX))
            .unwrap()
            .unwrap();
        assert!(matches!(
            step.technique,
            Technique::XCycle
                | Technique::YCycle
                | Technique::BidirectionalCycle
                | Technique::ForcingXChain
                | Technique::ForcingChain
        ));
    }
}

#[test]
fn the_budget_stops_a_search_on_a_hardest_puzzle_promptly() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/puzzles6_forum_hardest_1106.txt"
    ))
    .unwrap_or_else(|_| {
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3\n"
            .to_string()
    });
    let puzzle = parse_line(text.lines().next().unwrap().as_bytes()).unwrap();
    let cands = Cands::new(&puzzle);
    for level in [ChainLevel::Dynamic, ChainLevel::DynamicPlus] {
        let started = std::time::Instant::now();
        let mut budget = Budget::new(5_000);
        let result = find_with(&cands, level, &mut PlusRules, &mut budget);
        assert_eq!(result, Err(OutOfBudget), "{level:?}");
        assert_eq!(budget.left(), 0);
        assert!(started.elapsed() < std::time::Duration::from_millis(500));
    }
    // With room, the dynamic search on the same grid finishes with a step
    // that agrees with the solution.
    let mut budget = Budget::new(50_000_000);
    let step = find(&cands, ChainLevel::Dynamic, &mut budget)
        .unwrap()
        .unwrap();
    let solution = Solver::new()
        .solve_first(&puzzle)
        .unwrap()
        .solution
        .unwrap();
    check_against_solution(&step, &solution, &cands, "hardest, dynamic");
}
