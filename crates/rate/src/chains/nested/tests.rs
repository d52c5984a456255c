//! The nested levels against serate's steps: the fixture lines of
//! `nested_steps.txt` (every nested step of nine puzzles; or the file
//! named by `BATCHDOKU_CHAIN_STEPS`) whose producer is a nested level,
//! each step's rating, complexity and result.

use super::*;
use crate::chains::tests::{parse_fixture_line, result_of};

/// Also compares complexities (the chain tests compare ratings and
/// results). About 20 s in a release build; `--nocapture` shows each
/// step.
#[test]
fn nested_steps_agree_with_serate() {
    let path = std::env::var("BATCHDOKU_CHAIN_STEPS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/rate/nested_steps.txt"
        )
        .to_string()
    });
    let text = std::fs::read_to_string(path).unwrap();
    let (mut steps, mut same) = (0, 0);
    for line in text.lines().filter(|l| l.starts_with("nested")) {
        let f = parse_fixture_line(line);
        let fields: Vec<&str> = line.split('\t').collect();
        let complexity: u32 = fields[4].parse().unwrap();
        let super::super::ChainLevel::Nested(depth) = f.level else {
            unreachable!()
        };
        let started = std::time::Instant::now();
        let (key, step) = first_key(&f.cands, depth).unzip();
        steps += 1;
        let got = step.as_ref().map(result_of);
        let ok = key == Some((f.rating, complexity)) && got.as_ref() == Some(&f.result);
        same += u32::from(ok);
        eprintln!(
            "{} nested{depth}: got {key:?} {got:?}, want ({}, {complexity}) {:?} [{:.1?}]",
            if ok { "same" } else { "DIFF" },
            f.rating,
            f.result,
            started.elapsed()
        );
    }
    eprintln!("nested steps: {same} of {steps} the same");
    assert_eq!(same, steps, "nested steps differ from serate's");
}

#[test]
fn each_level_uses_serates_chain_producers() {
    // serate 1.2.1.3's getAdvancedPotentials (its bytecode).
    let names = |level| {
        Rules::producer_list(level)
            .iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(names(1), "");
    assert_eq!(names(2), "Unary");
    assert_eq!(names(3), "Unary Multiple { dynamic: false, level: 0 }");
    assert_eq!(names(4), "Multiple { dynamic: true, level: 0 }");
    assert_eq!(
        names(5),
        "Multiple { dynamic: true, level: 0 } Multiple { dynamic: true, level: 2 }"
    );
}
