//! Tests of [`Analyzer`]: outcomes as `solve -k 2` gives them, only the
//! measures asked for, the caps, and every measure but the pattern's
//! symmetry unchanged by random transformations. Each measure is checked
//! against an independent computation beside its own code (`te.rs`,
//! `backdoor.rs`, `givens.rs`, the automorphisms in `canon/tests.rs`).

use super::*;
use crate::canon::Transform;
use crate::generate::{Generator, Spec, Symmetry};
use crate::rng::Rng;
use crate::testdata::corpus::mixed_corpus;
use crate::testdata::{grid, HARD, PLATINUM};

#[test]
fn outcomes_are_counts_to_two_and_only_unique_puzzles_get_measures() {
    let (mut analyzer, mut solver) = (Analyzer::new(), Solver::new());
    let options = AnalyzeOptions::default();
    for p in mixed_corpus(9, 80) {
        let counted = solver.count_solutions_up_to(&p, 2);
        let analyzed = analyzer.analyze(&p, &options);
        match (counted, analyzed) {
            (Ok(c), Ok((o, analysis))) => {
                assert_eq!(c, o, "{p}");
                assert_eq!(analysis.is_some(), o.solutions == 1, "{p}");
            }
            (Err(c), Err(a)) => assert_eq!(c, a),
            (c, a) => panic!("{p}: {c:?} against {a:?}"),
        }
    }
}

#[test]
fn only_the_measures_asked_for_are_computed() {
    let mut analyzer = Analyzer::new();
    let p = grid(HARD);
    for m in Measure::ALL {
        let options = AnalyzeOptions::of(&[m]);
        let a = analyzer.analyze(&p, &options).unwrap().1.unwrap();
        let got = [
            a.minimal.is_some(),
            a.redundant.is_some(),
            a.symmetry.is_some(),
            a.automorphisms.is_some(),
            a.te.is_some(),
            a.backdoor.is_some(),
        ];
        let want = Measure::ALL.map(|o| o == m);
        assert_eq!(got, want, "{m:?}");
        assert!(Measure::ALL.iter().all(|&o| options.wants(o) == (o == m)));
    }
    let none = AnalyzeOptions::of(&[]);
    assert_eq!(
        analyzer.analyze(&p, &none).unwrap().1,
        Some(Analysis::default())
    );
}

#[test]
fn caps_give_the_cap_plus_one_and_never_more_than_the_limits() {
    let mut analyzer = Analyzer::new();
    let p = grid(PLATINUM); // depth 2
    let te = |analyzer: &mut Analyzer, max_te| {
        let options = AnalyzeOptions {
            max_te,
            ..AnalyzeOptions::of(&[Measure::Te])
        };
        analyzer
            .analyze(&p, &options)
            .unwrap()
            .1
            .unwrap()
            .te
            .unwrap()
    };
    assert_eq!(te(&mut analyzer, 0), 1);
    assert_eq!(te(&mut analyzer, 1), 2);
    assert_eq!(te(&mut analyzer, 2), 2);
    assert_eq!(
        te(&mut analyzer, 9),
        2,
        "a cap above the limit is the limit"
    );
    let backdoor = |analyzer: &mut Analyzer, max_backdoor| {
        let options = AnalyzeOptions {
            max_backdoor,
            ..AnalyzeOptions::of(&[Measure::Backdoor])
        };
        analyzer
            .analyze(&p, &options)
            .unwrap()
            .1
            .unwrap()
            .backdoor
            .unwrap()
    };
    assert_eq!(backdoor(&mut analyzer, 0), 1);
    let exact = backdoor(&mut analyzer, 3);
    assert!(exact >= 2, "{exact}");
    assert_eq!(backdoor(&mut analyzer, 1), 2);
    assert_eq!(backdoor(&mut analyzer, 200), exact);
}

/// What a transformation keeps: every measure but the pattern's
/// symmetry (a band swap can break a mirror), on puzzles of a seeded
/// corpus and their random equivalents.
#[test]
fn measures_are_invariant_under_transformations() {
    let mut analyzer = Analyzer::new();
    let mut rng = Rng::new(5);
    let options = AnalyzeOptions {
        max_te: 2,
        max_backdoor: 2,
        ..AnalyzeOptions::default()
    };
    let mut compared = 0;
    for p in mixed_corpus(31, 120).iter().chain([&grid(HARD)]) {
        let Ok((_, Some(a))) = analyzer.analyze(p, &options) else {
            continue;
        };
        for _ in 0..3 {
            let q = Transform::random(&mut rng).apply(p);
            let b = analyzer.analyze(&q, &options).unwrap().1.unwrap();
            assert_eq!(
                Analysis {
                    symmetry: a.symmetry,
                    ..b
                },
                a,
                "{p} -> {q}"
            );
        }
        compared += 1;
    }
    assert!(compared > 20, "{compared}");
}

/// Puzzles `generate --symmetry` makes: each has its symmetry, and the
/// ones generated minimal (by single givens) are minimal.
#[test]
fn generated_symmetric_puzzles_have_their_symmetry() {
    let (mut analyzer, mut solver) = (Analyzer::new(), Solver::new());
    for symmetry in [
        Symmetry::Central,
        Symmetry::Quarter,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ] {
        let spec = Spec {
            symmetry,
            ..Spec::default()
        };
        let generator = Generator::new(spec, 11).unwrap();
        for index in 0..5 {
            let made = generator.puzzle(index, &mut solver, || false).unwrap();
            let a = analyzer
                .analyze(&made.puzzle, &AnalyzeOptions::default())
                .unwrap()
                .1
                .unwrap();
            assert!(a.symmetry.unwrap().contains(symmetry), "{symmetry:?}");
            assert!(a.automorphisms.unwrap() >= 1);
        }
    }
    let minimal = Spec {
        minimal: true,
        ..Spec::default()
    };
    let generator = Generator::new(minimal, 3).unwrap();
    for index in 0..5 {
        let made = generator.puzzle(index, &mut solver, || false).unwrap();
        let a = analyzer
            .analyze(&made.puzzle, &AnalyzeOptions::default())
            .unwrap()
            .1
            .unwrap();
        assert_eq!((a.minimal, a.redundant), (Some(true), Some(0)));
    }
}
