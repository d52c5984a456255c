//! Generated puzzles meet their spec: exactly one solution (checked by both
//! engines), the asked clue count, the symmetry, and minimality (checked
//! by removing every single given, with the DLX engine).

use super::*;
use crate::dlx::DlxSolver;

/// Solutions of `p` up to 2, by the bitmask solver and by DLX, which must
/// agree.
fn count_both(solver: &mut Solver, dlx: &mut DlxSolver, p: &Grid) -> u64 {
    let a = solver
        .count_solutions_up_to(p, 2)
        .map_or(0, |o| o.solutions);
    let b = dlx.count_solutions_up_to(p, 2).map_or(0, |o| o.solutions);
    assert_eq!(a, b, "engines disagree on {p}");
    a
}

/// Makes puzzles `0..n` of `spec` and checks what every spec promises:
/// one solution (both engines), the solution returned, the symmetry, and
/// reproducibility from (seed, index) alone. Returns the puzzles.
fn check_spec(spec: Spec, seed: u64, n: u64) -> Vec<Grid> {
    let generator = Generator::new(spec, seed).unwrap();
    let (mut solver, mut dlx) = (Solver::new(), DlxSolver::new());
    let puzzles: Vec<Grid> = (0..n)
        .map(|i| {
            let g = generator.puzzle(i, &mut solver, || false).unwrap();
            assert_eq!(
                count_both(&mut solver, &mut dlx, &g.puzzle),
                1,
                "{spec:?} #{i}"
            );
            let dlx_solution = dlx.count_solutions_up_to(&g.puzzle, 1).unwrap().solution;
            assert_eq!(dlx_solution, Some(g.solution));
            assert!(g.solution.is_valid_solution() && g.solution.solves(&g.puzzle));
            assert!(
                spec.symmetry.holds_for(&g.puzzle),
                "{spec:?} #{i}: {}",
                g.puzzle
            );
            assert!(g.attempts >= 1);
            g.puzzle
        })
        .collect();
    // Any order, a fresh solver, a second generator: the same puzzles.
    let again = Generator::new(spec, seed).unwrap();
    let mut fresh = Solver::new();
    for i in (0..n).rev() {
        let g = again.puzzle(i, &mut fresh, || false).unwrap();
        assert_eq!(
            g.puzzle, puzzles[i as usize],
            "{spec:?} #{i} not reproducible"
        );
    }
    puzzles
}

/// True when removing any single given leaves two or more solutions
/// (checked with DLX, independent of the generator's solver).
fn every_given_is_necessary(p: &Grid) -> bool {
    let mut dlx = DlxSolver::new();
    (0..CELLS).filter(|&c| p.get(c) != 0).all(|c| {
        let mut q = *p;
        q.set(c, 0);
        dlx.count_solutions_up_to(&q, 2).unwrap().solutions == 2
    })
}

/// True when removing any whole orbit of `symmetry` leaves two or more
/// solutions.
fn every_orbit_is_necessary(p: &Grid, symmetry: Symmetry) -> bool {
    let mut dlx = DlxSolver::new();
    let orbits = symmetry.orbits();
    (0..orbits.len()).all(|k| {
        let mut q = *p;
        for &c in orbits.get(k) {
            q.set(usize::from(c), 0);
        }
        q == *p || dlx.count_solutions_up_to(&q, 2).unwrap().solutions == 2
    })
}

#[test]
fn default_puzzles_are_unique_and_minimal() {
    let puzzles = check_spec(Spec::default(), 1, 24);
    for p in &puzzles {
        assert!(every_given_is_necessary(p), "{p}");
        assert!(is_minimal(&mut DlxSolver::new(), p));
    }
    let mut distinct = puzzles.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), puzzles.len());
}

#[test]
fn seeds_and_indices_give_different_puzzles() {
    let mut solver = Solver::new();
    let a = Generator::new(Spec::default(), 7).unwrap();
    let b = Generator::new(Spec::default(), 8).unwrap();
    let a0 = a.puzzle(0, &mut solver, || false).unwrap().puzzle;
    assert_ne!(a0, a.puzzle(1, &mut solver, || false).unwrap().puzzle);
    assert_ne!(a0, b.puzzle(0, &mut solver, || false).unwrap().puzzle);
}

#[test]
fn exact_clue_counts_are_met() {
    for k in [23, 30, 45, 81] {
        let spec = Spec {
            clues: ClueTarget::Exactly(k),
            ..Spec::default()
        };
        for p in check_spec(spec, 3, 6) {
            assert_eq!(p.given_count(), k, "{p}");
        }
    }
}

#[test]
fn at_least_stops_at_the_floor_or_at_a_minimal_puzzle() {
    for k in [17, 25, 40] {
        let spec = Spec {
            clues: ClueTarget::AtLeast(k),
            ..Spec::default()
        };
        for p in check_spec(spec, 4, 8) {
            assert!(p.given_count() >= k, "{p}");
            if p.given_count() > k {
                assert!(every_given_is_necessary(&p), "stopped above {k} early: {p}");
            }
        }
    }
}

#[test]
fn symmetric_puzzles_keep_their_symmetry_and_need_every_orbit() {
    for symmetry in Symmetry::ALL {
        let spec = Spec {
            symmetry,
            ..Spec::default()
        };
        for p in check_spec(spec, 5, 6) {
            assert!(every_orbit_is_necessary(&p, symmetry), "{symmetry:?}: {p}");
        }
    }
}

#[test]
fn minimal_holds_with_symmetry_and_clue_targets() {
    let specs = [
        Spec {
            minimal: true,
            symmetry: Symmetry::Central,
            ..Spec::default()
        },
        Spec {
            minimal: true,
            symmetry: Symmetry::Diagonal,
            ..Spec::default()
        },
        Spec {
            minimal: true,
            clues: ClueTarget::Exactly(24),
            ..Spec::default()
        },
        Spec {
            minimal: true,
            clues: ClueTarget::AtLeast(25),
            ..Spec::default()
        },
    ];
    for spec in specs {
        for p in check_spec(spec, 6, 4) {
            assert!(every_given_is_necessary(&p), "{spec:?}: {p}");
            match spec.clues {
                ClueTarget::Exactly(k) => assert_eq!(p.given_count(), k),
                ClueTarget::AtLeast(k) => assert!(p.given_count() >= k),
                ClueTarget::Fewest => {}
            }
        }
    }
}

#[test]
fn exact_counts_with_symmetry() {
    for (symmetry, k) in [
        (Symmetry::Central, 27),
        (Symmetry::Central, 80),
        (Symmetry::Quarter, 29),
        (Symmetry::Mirror, 30),
    ] {
        let spec = Spec {
            clues: ClueTarget::Exactly(k),
            symmetry,
            ..Spec::default()
        };
        for p in check_spec(spec, 7, 4) {
            assert_eq!(p.given_count(), k, "{symmetry:?}");
        }
    }
}

#[test]
fn impossible_specs_are_refused() {
    let exactly = |k, symmetry| Spec {
        clues: ClueTarget::Exactly(k),
        symmetry,
        minimal: false,
    };
    assert_eq!(
        exactly(16, Symmetry::None).validate(),
        Err(SpecError::CluesOutOfRange(16))
    );
    assert_eq!(
        exactly(82, Symmetry::None).validate(),
        Err(SpecError::CluesOutOfRange(82))
    );
    let at_least = Spec {
        clues: ClueTarget::AtLeast(3),
        ..Spec::default()
    };
    assert!(Generator::new(at_least, 0).is_err());
    assert!(matches!(
        exactly(22, Symmetry::Quarter).validate(),
        Err(SpecError::CountBreaksSymmetry { givens: 22, .. })
    ));
    assert_eq!(exactly(24, Symmetry::Quarter).validate(), Ok(()));
    assert_eq!(exactly(17, Symmetry::Central).validate(), Ok(()));
    let too_many_minimal = Spec {
        minimal: true,
        ..exactly(41, Symmetry::None)
    };
    assert_eq!(
        too_many_minimal.validate(),
        Err(SpecError::MinimalTooMany(41))
    );
    assert_eq!(Spec::default().validate(), Ok(()));
}

#[test]
fn a_stop_request_ends_the_retries() {
    // Exactly 17 givens is (almost) never met by one attempt, so the
    // generator retries and must notice the request.
    let spec = Spec {
        clues: ClueTarget::Exactly(17),
        ..Spec::default()
    };
    let generator = Generator::new(spec, 0).unwrap();
    let result = generator.puzzle(0, &mut Solver::new(), || true);
    assert_eq!(result, Err(GenerateError::Stopped));
}
