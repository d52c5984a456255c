//! Tests of the canonical form: exactness against a brute force over all
//! 3,359,232 cell permutations, invariance under random transformations,
//! the reported transformation, idempotence, and the [`Transform`] algebra
//! and text form.

use super::*;
use crate::generate::{dig, random_solution};
use crate::grid::CELLS;
use crate::parse::parse_line;
use crate::rng::Rng;
use crate::solver::Solver;
use crate::testdata::{EASY, SOLVED};

/// All 1296 band-preserving permutations of 0..8 (band order, then the
/// order inside each band).
fn line_perms() -> Vec<[u8; 9]> {
    const P3: [[u8; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::with_capacity(1296);
    for bands in P3 {
        for a in P3 {
            for b in P3 {
                for c in P3 {
                    let mut p = [0u8; 9];
                    for (slot, inner) in [a, b, c].iter().enumerate() {
                        for k in 0..3 {
                            p[3 * slot + k] = 3 * bands[slot] + inner[k];
                        }
                    }
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The minlex string by brute force: every transpose flag, row
/// permutation and column permutation, greedy relabelling, keep the
/// smallest. The only shortcut: a permutation stops as soon as its string
/// is larger than the best at some position (it can no longer win).
fn brute_force(grid: &Grid) -> [u8; CELLS] {
    let perms = line_perms();
    let cells = grid.cells();
    let mut best = [u8::MAX; CELLS];
    for transpose in [false, true] {
        for rows in &perms {
            let mut by_rows = [0u8; CELLS];
            for r in 0..9 {
                for c in 0..9 {
                    let sr = usize::from(rows[r]);
                    by_rows[r * 9 + c] = if transpose {
                        cells[c * 9 + sr]
                    } else {
                        cells[sr * 9 + c]
                    };
                }
            }
            for cols in &perms {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut smaller = false;
                for p in 0..CELLS {
                    let v = usize::from(by_rows[(p / 9) * 9 + usize::from(cols[p % 9])]);
                    let out = if v == 0 {
                        0
                    } else {
                        if labels[v] == 0 {
                            labels[v] = next;
                            next += 1;
                        }
                        labels[v]
                    };
                    if smaller {
                        best[p] = out;
                    } else if out < best[p] {
                        smaller = true;
                        best[p] = out;
                    } else if out > best[p] {
                        break;
                    }
                }
            }
        }
    }
    best
}

fn grid(line: &[u8]) -> Grid {
    parse_line(line).expect("test grid parses")
}

/// A random valid puzzle with `givens` givens (unique or not).
fn random_puzzle(rng: &mut Rng, solver: &mut Solver, givens: usize) -> Grid {
    let solution = random_solution(rng, solver);
    dig(rng, &solution, givens)
}

/// A random grid that ignores the rules: each cell blank with probability
/// `blank_percent`, else a random digit (repeats in units are likely).
fn random_noise(rng: &mut Rng, blank_percent: u64) -> Grid {
    let mut cells = [0u8; CELLS];
    for c in cells.iter_mut() {
        if rng.below(100) >= blank_percent {
            *c = 1 + rng.below(9) as u8;
        }
    }
    Grid::from_cells(cells).expect("digits are in range")
}

/// Checks one grid against everything that must hold for its canonical
/// form except the brute force.
fn check_properties(canon: &mut Canonicalizer, rng: &mut Rng, p: &Grid) -> Grid {
    let (c, t) = canon.canonical(p);
    assert_eq!(
        t.apply(p),
        c,
        "reported transform does not give the form of {}",
        p.to_line_string()
    );
    assert_eq!(c.given_count(), p.given_count());
    assert_eq!(
        canonical_form(p).0,
        c,
        "a reused canonicalizer disagrees with a fresh one"
    );
    let (again, t2) = canon.canonical(&c);
    assert_eq!(
        again,
        c,
        "canonicalising twice changed {}",
        p.to_line_string()
    );
    assert_eq!(t2.apply(&c), c);
    for _ in 0..3 {
        let q = Transform::random(rng).apply(p);
        let (cq, tq) = canon.canonical(&q);
        assert_eq!(
            cq,
            c,
            "a transformed copy of {} has another form",
            p.to_line_string()
        );
        assert_eq!(tq.apply(&q), cq);
    }
    c
}

/// The edge cases every check includes.
fn edge_cases() -> Vec<Grid> {
    let mut one = Grid::empty();
    one.set(40, 7);
    let mut two_equal = Grid::empty();
    two_equal.set(3, 5);
    two_equal.set(77, 5);
    vec![
        Grid::empty(),
        one,
        two_equal,
        // a complete grid
        grid(SOLVED.as_bytes()),
        // contradictory: two 5s in the first row, and more
        grid(b"55.....1.....5....9.....9..1.......1.........2.2.2.......8........8.....3...3...."),
        // a well-known unique puzzle
        grid(EASY.as_bytes()),
        // every cell the same digit
        Grid::from_cells([4; CELLS]).expect("in range"),
    ]
}

#[test]
fn exact_against_brute_force() {
    let mut rng = Rng::new(0xCA11_0001);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    // A few dozen: the edge cases, 24 random unique puzzles of 17 to 40
    // givens, 4 random (often contradictory) fillings, 3 complete grids.
    let mut cases = edge_cases();
    for i in 0..24 {
        cases.push(random_puzzle(&mut rng, &mut solver, 17 + i));
    }
    for blank in [30, 50, 65, 75] {
        cases.push(random_noise(&mut rng, blank));
    }
    for _ in 0..3 {
        cases.push(random_solution(&mut rng, &mut solver));
    }
    assert_eq!(cases.len(), 38);
    for p in &cases {
        let (c, t) = canon.canonical(p);
        assert_eq!(
            c.cells(),
            &brute_force(p),
            "not minimal for {}",
            p.to_line_string()
        );
        assert_eq!(t.apply(p), c);
    }
}

#[test]
#[ignore = "slow: thousands of brute-force runs; cargo test --release -- --ignored canon"]
fn canon_exact_against_brute_force_many() {
    let count: u64 = std::env::var("CANON_BRUTE_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    for i in 0..count {
        let mut rng = Rng::for_item(0xB207E, i);
        let p = match i % 8 {
            0 => {
                let blank = 50 + rng.below(50);
                random_noise(&mut rng, blank)
            }
            1 => random_solution(&mut rng, &mut solver),
            2 => {
                let g = 1 + rng.below(16) as usize;
                random_puzzle(&mut rng, &mut solver, g)
            }
            _ => {
                let g = 17 + rng.below(19) as usize;
                random_puzzle(&mut rng, &mut solver, g)
            }
        };
        let (c, t) = canon.canonical(&p);
        assert_eq!(
            c.cells(),
            &brute_force(&p),
            "case {i}: not minimal for {}",
            p.to_line_string()
        );
        assert_eq!(t.apply(&p), c);
    }
}

#[test]
fn invariant_under_random_transforms() {
    let mut rng = Rng::new(0xCA11_0002);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    for p in edge_cases() {
        check_properties(&mut canon, &mut rng, &p);
    }
    for i in 0..300 {
        let p = match i % 6 {
            0 => random_solution(&mut rng, &mut solver),
            1 => {
                let blank = 40 + rng.below(60);
                random_noise(&mut rng, blank)
            }
            2 => {
                let g = 1 + rng.below(16) as usize;
                random_puzzle(&mut rng, &mut solver, g)
            }
            _ => {
                let g = 17 + rng.below(19) as usize;
                random_puzzle(&mut rng, &mut solver, g)
            }
        };
        check_properties(&mut canon, &mut rng, &p);
    }
}

#[test]
fn different_classes_get_different_forms() {
    // One given; two givens sharing a row and a box; two givens sharing
    // only a box. No symmetry maps one of these onto another.
    let with = |cells: &[(usize, u8)]| {
        let mut g = Grid::empty();
        for &(cell, d) in cells {
            g.set(cell, d);
        }
        g
    };
    let forms: Vec<Grid> = [
        with(&[(0, 1)]),
        with(&[(0, 1), (1, 2)]),
        with(&[(0, 1), (10, 2)]),
    ]
    .iter()
    .map(|g| canonical_form(g).0)
    .collect();
    assert_ne!(forms[0], forms[1]);
    assert_ne!(forms[1], forms[2]);
    assert_ne!(forms[0], forms[2]);
    let mut last = [b'0'; CELLS];
    last[80] = b'1';
    assert_eq!(forms[0].to_line_with(b'0'), last);
    last[79] = b'1';
    last[80] = b'2';
    assert_eq!(forms[1].to_line_with(b'0'), last);
}

#[test]
fn empty_grid_form_and_transform() {
    let (c, t) = canonical_form(&Grid::empty());
    assert_eq!(c, Grid::empty());
    assert_eq!(t.apply(&Grid::empty()), Grid::empty());
}

#[test]
fn transform_text_round_trips() {
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let t = Transform::random(&mut rng);
        let text = t.to_string();
        assert_eq!(text.parse::<Transform>(), Ok(t), "{text}");
    }
    assert_eq!(
        Transform::identity().to_string(),
        "N;rows=012345678;cols=012345678;digits=123456789"
    );
}

#[test]
fn transform_text_rejects_bad_input() {
    let bad = [
        ("", TransformError::Syntax),
        (
            "X;rows=012345678;cols=012345678;digits=123456789",
            TransformError::Syntax,
        ),
        (
            "N;rows=01234567;cols=012345678;digits=123456789",
            TransformError::Syntax,
        ),
        (
            "N;cols=012345678;rows=012345678;digits=123456789",
            TransformError::Syntax,
        ),
        (
            "N;rows=012345678;cols=012345678;digits=123456789;",
            TransformError::Syntax,
        ),
        (
            "N;rows=0123456a8;cols=012345678;digits=123456789",
            TransformError::Syntax,
        ),
        (
            "N;rows=012346578;cols=012345678;digits=123456789",
            TransformError::Rows,
        ),
        (
            "N;rows=013245678;cols=012345678;digits=123456789",
            TransformError::Rows,
        ),
        (
            "N;rows=012345678;cols=012345670;digits=123456789",
            TransformError::Cols,
        ),
        (
            "N;rows=012345678;cols=312045678;digits=123456789",
            TransformError::Cols,
        ),
        (
            "N;rows=012345678;cols=012345678;digits=123456780",
            TransformError::Digits,
        ),
        (
            "N;rows=012345678;cols=012345678;digits=123456788",
            TransformError::Digits,
        ),
    ];
    for (text, err) in bad {
        assert_eq!(text.parse::<Transform>(), Err(err), "{text:?}");
    }
    assert!("T;rows=876543210;cols=345012678;digits=987654321"
        .parse::<Transform>()
        .is_ok());
}

#[test]
fn transform_compose_and_inverse() {
    let mut rng = Rng::new(11);
    let mut solver = Solver::new();
    for _ in 0..100 {
        let g = random_puzzle(&mut rng, &mut solver, 30);
        let a = Transform::random(&mut rng);
        let b = Transform::random(&mut rng);
        assert_eq!(a.compose(&b).apply(&g), a.apply(&b.apply(&g)));
        assert_eq!(a.inverse().apply(&a.apply(&g)), g);
        assert_eq!(a.compose(&a.inverse()), Transform::identity());
        assert_eq!(a.inverse().compose(&a), Transform::identity());
        assert_eq!(Transform::identity().apply(&g), g);
        assert!(a
            .apply(&random_solution(&mut rng, &mut solver))
            .is_valid_solution());
    }
}

#[test]
fn brute_force_reference_is_sane() {
    // The reference itself: a single given ends up in the last cell as 1,
    // and a transformed grid has the same brute-force form.
    let mut one = Grid::empty();
    one.set(10, 9);
    let mut expect = [0u8; CELLS];
    expect[80] = 1;
    assert_eq!(brute_force(&one), expect);
    let mut rng = Rng::new(3);
    let mut solver = Solver::new();
    let p = random_puzzle(&mut rng, &mut solver, 22);
    let q = Transform::random(&mut rng).apply(&p);
    assert_eq!(brute_force(&p), brute_force(&q));
}

#[test]
#[ignore = "slow: brute force on the edge cases, with timings; cargo test --release -- --ignored canon"]
fn canon_edge_case_timings() {
    let mut canon = Canonicalizer::new();
    for p in edge_cases() {
        let start = std::time::Instant::now();
        let (c, _) = canon.canonical(&p);
        let fast = start.elapsed();
        let start = std::time::Instant::now();
        assert_eq!(c.cells(), &brute_force(&p), "{}", p.to_line_string());
        eprintln!(
            "{}: search {fast:?}, brute force {:?}",
            p.to_line_string(),
            start.elapsed()
        );
    }
}

/// Published puzzles as known values: most of Gordon Royle's list of 17-clue
/// puzzles is distributed in minlex form, so those lines must be fixed
/// points; every other line must canonicalise to something smaller, and a
/// sample of those is checked by brute force.
#[test]
#[ignore = "reads ../shared/data; cargo test --release -- --ignored canon"]
fn canon_public_17_clue_set() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/puzzles2_17_clue.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (this ignored test needs the shared data)",
            path.display()
        )
    });
    let mut canon = Canonicalizer::new();
    let (mut fixed, mut moved, mut brute_checked) = (0, 0, 0);
    for line in text.lines() {
        let Ok(p) = parse_line(line.as_bytes()) else {
            continue;
        };
        let (c, t) = canon.canonical(&p);
        assert_eq!(t.apply(&p), c);
        if c == p {
            fixed += 1;
            continue;
        }
        moved += 1;
        assert!(
            c.to_line_with(b'0') < p.to_line_with(b'0'),
            "{line}: form is not smaller"
        );
        if brute_checked < 10 {
            assert_eq!(c.cells(), &brute_force(&p), "{line}: not minimal");
            brute_checked += 1;
        }
    }
    eprintln!(
        "17-clue set: {fixed} already minlex, {moved} not ({brute_checked} of those brute-forced)"
    );
    assert!(fixed > 0);
}

/// Complete grids with automorphisms (random grids almost never have
/// any), where several transformations reach the form and the one
/// reported must be the general search's: every valid "linear" grid (the
/// digit of cell (3a + b, 3c + d) is 3x + y + 1 for a linear map
/// (a, b, c, d) -> (x, y) over Z/3; up to 648 automorphisms) with
/// probability 1/8, and 40 grids whose second and third bands are the
/// first band of a random grid with the columns of each stack rotated
/// (always valid), each under a random transformation.
fn symmetric_grids(rng: &mut Rng, solver: &mut Solver) -> Vec<Grid> {
    let mut out = Vec::new();
    for coefficients in 0..3u32.pow(8) {
        let k: [u32; 8] = std::array::from_fn(|i| coefficients / 3u32.pow(i as u32) % 3);
        let mut cells = [0u8; CELLS];
        for (cell, v) in cells.iter_mut().enumerate() {
            let (r, c) = (cell as u32 / 9, cell as u32 % 9);
            let (a, b, cc, d) = (r / 3, r % 3, c / 3, c % 3);
            let x = (k[0] * a + k[1] * b + k[2] * cc + k[3] * d) % 3;
            let y = (k[4] * a + k[5] * b + k[6] * cc + k[7] * d) % 3;
            *v = (3 * x + y + 1) as u8;
        }
        let g = Grid::from_cells(cells).expect("digits are in range");
        if g.is_valid_solution() && rng.below(8) == 0 {
            out.push(Transform::random(rng).apply(&g));
        }
    }
    for _ in 0..40 {
        let band = random_solution(rng, solver);
        let steps: [usize; 3] = std::array::from_fn(|_| 1 + rng.below(2) as usize);
        let mut cells = [0u8; CELLS];
        for (cell, v) in cells.iter_mut().enumerate() {
            let (r, c) = (cell / 9, cell % 9);
            let (stack, inner) = (c / 3, c % 3);
            let from = 3 * stack + (inner + steps[stack] * (r / 3)) % 3;
            *v = band.get((r % 3) * 9 + from);
        }
        let g = Grid::from_cells(cells).expect("digits are in range");
        assert!(g.is_valid_solution());
        out.push(Transform::random(rng).apply(&g));
    }
    out
}

/// The complete-grid path against the general search on `g`: the same
/// form and the same transformation, which maps `g` to the form.
fn assert_complete_path_agrees(canon: &mut Canonicalizer, g: &Grid) -> Grid {
    assert!(g.is_valid_solution());
    let (form, t) = canon.canonical(g);
    let (slow_form, slow_t) = canon.search(g);
    assert_eq!(form, slow_form, "form of {}", g.to_line_string());
    assert_eq!(t, slow_t, "transform for {}", g.to_line_string());
    assert_eq!(t.apply(g), form);
    form
}

#[test]
fn canon_complete_grids_match_the_general_search() {
    // Thousands in release (`cargo test --release -p batchdoku-core
    // canon`), a few in debug builds, where the general search is slow;
    // `CANON_COMPLETE_COUNT` sets how many random grids.
    let count: u64 = std::env::var("CANON_COMPLETE_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 20 } else { 1500 });
    let mut rng = Rng::new(0xCA11_0042);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    for _ in 0..count {
        let g = random_solution(&mut rng, &mut solver);
        let form = assert_complete_path_agrees(&mut canon, &g);
        let moved = Transform::random(&mut rng).apply(&g);
        assert_eq!(assert_complete_path_agrees(&mut canon, &moved), form);
    }
    let symmetric = symmetric_grids(&mut rng, &mut solver);
    assert!(symmetric.len() > 100, "{} symmetric grids", symmetric.len());
    let take = if cfg!(debug_assertions) {
        10
    } else {
        symmetric.len()
    };
    for g in &symmetric[..take] {
        let form = assert_complete_path_agrees(&mut canon, g);
        let moved = Transform::random(&mut rng).apply(g);
        assert_eq!(assert_complete_path_agrees(&mut canon, &moved), form);
    }
}

#[test]
fn canon_complete_grids_against_brute_force() {
    let mut rng = Rng::new(0xCA11_0043);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    let mut cases = symmetric_grids(&mut rng, &mut solver);
    let rotated = cases.pop();
    cases.truncate(3);
    cases.extend(rotated);
    cases.push(random_solution(&mut rng, &mut solver));
    for g in &cases {
        let (form, t) = canon.canonical(g);
        assert_eq!(form.cells(), &brute_force(g), "{}", g.to_line_string());
        assert_eq!(t.apply(g), form);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    #[test]
    fn canon_complete_path_agrees_on_random_grids(seed in proptest::prelude::any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut solver = Solver::new();
        let mut canon = Canonicalizer::new();
        let g = random_solution(&mut rng, &mut solver);
        let moved = Transform::random(&mut rng).apply(&g);
        let (form, t) = canon.canonical(&moved);
        proptest::prop_assert_eq!((form, t), canon.search(&moved));
        proptest::prop_assert_eq!(canon.canonical(&g).0, form);
    }
}

/// Automorphisms by brute force: every cell permutation of the group
/// (transpose flag, row and column permutations) that maps the pattern of
/// givens onto itself with a consistent one-to-one relabelling, times the
/// relabellings of the digits the grid does not hold; and the first such
/// permutation other than the identity, as a transformation.
fn brute_force_automorphisms(grid: &Grid) -> (u64, Option<Transform>) {
    let perms = line_perms();
    let cells = grid.cells();
    let mut count = 0u64;
    let mut first = None;
    for transpose in [false, true] {
        for rows in &perms {
            let mut by_rows = [0u8; CELLS];
            for r in 0..9 {
                for c in 0..9 {
                    let sr = usize::from(rows[r]);
                    by_rows[r * 9 + c] = if transpose {
                        cells[c * 9 + sr]
                    } else {
                        cells[sr * 9 + c]
                    };
                }
            }
            'cols: for cols in &perms {
                let mut map = [0u8; 10];
                let mut used = 0u16;
                for p in 0..CELLS {
                    let from = usize::from(by_rows[(p / 9) * 9 + usize::from(cols[p % 9])]);
                    let to = cells[p];
                    if (from == 0) != (to == 0) {
                        continue 'cols;
                    }
                    if from == 0 {
                        continue;
                    }
                    if map[from] == 0 {
                        if used & 1 << to != 0 {
                            continue 'cols;
                        }
                        map[from] = to;
                        used |= 1 << to;
                    } else if map[from] != to {
                        continue 'cols;
                    }
                }
                count += 1;
                let identity = [0, 1, 2, 3, 4, 5, 6, 7, 8];
                if first.is_none() && (transpose || *rows != identity || *cols != identity) {
                    // Labels for the digits the grid lacks: the ones left.
                    let mut free = (1..=9u8).filter(|&d| used & 1 << d == 0);
                    let digits: [u8; 9] = std::array::from_fn(|i| match map[i + 1] {
                        0 => free.next().unwrap_or(0),
                        d => d,
                    });
                    first = Transform::from_parts(transpose, *rows, *cols, digits).ok();
                }
            }
        }
    }
    let held = (1..=9u8).filter(|d| cells.contains(d)).count() as u64;
    (count * (1..=9 - held).product::<u64>(), first)
}

/// Puzzles with automorphisms: `grid` kept on a random union of the
/// orbits of the cells under `a`, an automorphism of `grid`, so that `a`
/// maps the puzzle onto itself too.
fn invariant_puzzle(rng: &mut Rng, grid: &Grid, a: &Transform) -> Grid {
    // Where `a` reads output cell p from: the cell whose digit lands on p.
    let mut marked = Grid::empty();
    let mut source = [0usize; CELLS];
    for cell in 0..CELLS {
        marked.set(cell, 1);
        let moved = a.apply(&marked);
        source[(0..CELLS).find(|&p| moved.get(p) != 0).unwrap_or(0)] = cell;
        marked.set(cell, 0);
    }
    let mut puzzle = Grid::empty();
    let mut seen = [false; CELLS];
    for start in 0..CELLS {
        if seen[start] {
            continue;
        }
        let keep = rng.below(2) == 0;
        let mut cell = start;
        while !seen[cell] {
            seen[cell] = true;
            if keep {
                puzzle.set(cell, grid.get(cell));
            }
            cell = source[cell];
        }
    }
    puzzle
}

#[test]
fn automorphisms_against_brute_force() {
    let mut rng = Rng::new(0xCA11_0044);
    let mut solver = Solver::new();
    let mut canon = Canonicalizer::new();
    let linear =
        grid(b"123456789456789123789123456231564897564897231897231564312645978645978312978312645");
    let mut cases = edge_cases();
    cases.push(linear);
    // A unique puzzle from `linear`, kept on orbits of the 180-degree
    // turn (one of its automorphisms).
    cases.push(grid(
        b".2.4...89..67..12............1.6.89....8.7....97.3.5............45..83..97...2.4.",
    ));
    for givens in [20, 24, 28] {
        cases.push(random_puzzle(&mut rng, &mut solver, givens));
    }
    let mut symmetric = symmetric_grids(&mut rng, &mut solver);
    let rotated = symmetric.pop();
    symmetric.truncate(if cfg!(debug_assertions) { 1 } else { 3 });
    symmetric.extend(rotated);
    let mut with_automorphisms = 0;
    for g in symmetric.iter().chain([&linear]) {
        let (n, a) = brute_force_automorphisms(g);
        assert_eq!(canon.automorphisms(g), n, "{}", g.to_line_string());
        let a = a.expect("these grids have automorphisms");
        assert_eq!(a.apply(g), *g);
        for _ in 0..2 {
            let p = invariant_puzzle(&mut rng, g, &a);
            assert_eq!(a.apply(&p), p);
            cases.push(p);
        }
    }
    for p in &cases {
        let (n, _) = brute_force_automorphisms(p);
        assert_eq!(canon.automorphisms(p), n, "{}", p.to_line_string());
        // The same count for any equivalent grid.
        let q = Transform::random(&mut rng).apply(p);
        assert_eq!(canon.automorphisms(&q), n, "{}", q.to_line_string());
        with_automorphisms += usize::from(n > 1);
    }
    assert_eq!(canon.automorphisms(&Grid::empty()), 3_359_232 * 362_880);
    assert!(with_automorphisms >= 8, "{with_automorphisms}");
}
