//! Canonical forms of complete grids, for instruction counts and quick
//! timings: `cargo run --release -p batchdoku-core --example canon_grids -- N MODE`
//! makes N random complete grids (fixed seed), then with MODE `canon`
//! (the default) canonicalises each once with one reused
//! [`Canonicalizer`] and prints grids/s; with MODE `none` it only makes
//! the grids. Under `valgrind --tool=callgrind`, the difference of the two
//! runs' instruction counts divided by N is the cost of one grid.

use std::time::Instant;

use batchdoku_core::{Canonicalizer, ClueTarget, Generator, Solver, Spec};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mode = args.next().unwrap_or_else(|| "canon".to_string());
    let spec = Spec {
        clues: ClueTarget::AtLeast(81),
        ..Spec::default()
    };
    let generator = Generator::new(spec, 0xCA_B0_0C).expect("a valid spec");
    let mut solver = Solver::new();
    let grids: Vec<_> = (0..n)
        .map(|i| {
            generator
                .puzzle(i, &mut solver, || false)
                .expect("generation is not stopped")
                .solution
        })
        .collect();
    if mode == "none" {
        println!("{} grids made", grids.len());
        return;
    }
    let mut canon = Canonicalizer::new();
    let mut checksum = 0u64;
    let start = Instant::now();
    for g in &grids {
        let (form, _) = canon.canonical(g);
        checksum = checksum
            .wrapping_mul(31)
            .wrapping_add(u64::from(form.get(80)) + u64::from(form.get(20)));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} grids, {:.0} grids/s, checksum {checksum}",
        grids.len(),
        grids.len() as f64 / secs
    );
}
