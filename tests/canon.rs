//! `batchdoku canon`: the sample's puzzles are pairwise inequivalent, and
//! each row carries a transformation that reaches its canonical form.

use batchdoku_core::{parse_line, Rng, Transform};

use crate::util::*;

#[test]
fn sample_puzzles_are_pairwise_inequivalent() {
    let r = run(
        &["canon", "-q", "--format", "line"],
        Some(lines_of(&sample_grids(211)).as_bytes()),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let forms: std::collections::HashSet<&str> = r.stdout_str().lines().collect();
    assert_eq!(forms.len(), 211);
}

#[test]
fn canon_rows_carry_a_transform_that_reaches_the_form() {
    let mut rng = Rng::new(11);
    let base = sample_grids(40);
    let mut input = String::new();
    let mut moved = Vec::new();
    for g in &base {
        let t = Transform::random(&mut rng);
        moved.push(t.apply(g));
        input += &t.apply(g).to_line_string();
        input.push('\n');
    }
    input += "not a puzzle\n";
    let r = run(&["canon", "-j", "2"], Some(input.as_bytes()));
    assert_eq!(r.code, 1, "{}", r.stderr);
    let (h, rows) = r.csv();
    assert_eq!(rows.len(), 41);
    let own = run(&["canon", "-j", "1"], Some(lines_of(&base).as_bytes()));
    let (_, own_rows) = own.csv();
    for (i, row) in rows[..40].iter().enumerate() {
        assert_eq!(row[col(&h, "status")], "ok");
        let t: Transform = row[col(&h, "transform")].parse().unwrap();
        let form = parse_line(row[col(&h, "canonical")].as_bytes()).unwrap();
        assert_eq!(t.apply(&moved[i]), form);
        // Equivalent puzzles share the form.
        assert_eq!(row[col(&h, "canonical")], own_rows[i][col(&h, "canonical")]);
    }
    assert_eq!(rows[40][col(&h, "status")], "invalid");
    assert!(rows[40][col(&h, "error")].starts_with("<stdin>:41:"));
}
