//! Kaggle-like puzzles for benchmarks: 30 to 40 givens, solved by naked and
//! hidden singles alone, made the way the public Kaggle sets were: a
//! generated complete grid, then cells removed in random order, each
//! removal kept only while singles still solve the puzzle.
//!
//! `cargo run --release -p batchdoku-core --example kaggle_like -- N [SEED]`
//! writes N puzzles, one line each (`.` for blanks), to stdout. Puzzle `i`
//! depends only on the seed and `i`: its grid is the `Generator`'s complete
//! grid number `i` for the seed, its removal order and given count (uniform
//! in 30..=40) come from `Rng::for_item(seed, i)`. When removals stop above
//! the count (no cell can go while singles still solve), the attempt is
//! dropped and the same stream goes on with another grid. Each puzzle is
//! checked with `solved_by_singles` (so it has exactly one solution).
//!
//! The set in BENCHMARKS.md and `data/bench/kaggle_like.txt`'s first 300
//! lines: `-- 100000 1` (see docs/bench.md).

use std::io::{BufWriter, Write};

use batchdoku_core::{solved_by_singles, ClueTarget, Generator, Grid, Rng, Solver, Spec};

/// Fewest and most givens.
const GIVENS: (u64, u64) = (30, 40);

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let spec = Spec {
        clues: ClueTarget::AtLeast(81),
        ..Spec::default()
    };
    let grids = Generator::new(spec, seed).expect("a valid spec");
    let mut solver = Solver::new();
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let mut line = [0u8; 82];
    line[81] = b'\n';
    for i in 0..n {
        let mut rng = Rng::for_item(seed, i);
        // Grids for retries come from indices far past any N.
        let mut grid_index = i;
        let puzzle = loop {
            let solution = grids
                .puzzle(grid_index, &mut solver, || false)
                .expect("generation is not stopped")
                .solution;
            if let Some(p) = dig_by_singles(&mut rng, &solution) {
                break p;
            }
            grid_index += 1 << 40;
        };
        for (c, b) in puzzle.cells().iter().zip(line.iter_mut()) {
            *b = if *c == 0 { b'.' } else { b'0' + c };
        }
        out.write_all(&line)?;
    }
    out.flush()
}

/// Removes cells of `solution` in random order, keeping each removal only
/// while singles still solve the puzzle, down to a random count of
/// givens; `None` when it cannot get that low.
fn dig_by_singles(rng: &mut Rng, solution: &Grid) -> Option<Grid> {
    let target = GIVENS.0 + rng.below(GIVENS.1 - GIVENS.0 + 1);
    let mut order: [u8; 81] = std::array::from_fn(|c| c as u8);
    rng.shuffle(&mut order);
    let mut puzzle = *solution;
    let mut givens = 81;
    for &cell in &order {
        if givens == target {
            break;
        }
        let cell = usize::from(cell);
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solved_by_singles(&puzzle) {
            givens -= 1;
        } else {
            puzzle.set(cell, digit);
        }
    }
    (givens == target).then_some(puzzle)
}
