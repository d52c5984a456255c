//! The invariants checked on arbitrary input, shared word for word by the
//! cargo-fuzz targets (`fuzz/fuzz_targets/*.rs` include this file with
//! `#[path]`) and by the proptest harness in `tests/fuzz_equiv.rs`, so the
//! CI run and the long fuzzing runs check exactly the same things.
//!
//! Every check panics on a violation: libFuzzer reports the panic as a
//! crash with the input that caused it, proptest shrinks it.

use std::io::{BufReader, Read};

use batchdoku_core::DlxSolver;
use batchdoku_core::{parse_line, InputFormat, ParseError, Record, RecordReader};
use batchdoku_core::{score, ScoreOptions, Weights};
use batchdoku_core::{Engine, Grid, Solver};

/// Node limit for the scored searches: enough to finish most puzzles,
/// small enough that a fuzz iteration stays fast.
pub const SCORE_NODE_LIMIT: u64 = 2000;

/// Solutions counted by both engines.
pub const COUNT_LIMIT: u64 = 3;

/// One record, owned, for comparing two readings of the same input.
type Owned = (
    u64,
    Result<Grid, ParseError>,
    Option<Result<Grid, ParseError>>,
    Vec<u8>,
);

/// Physical lines of `bytes`: line endings (`\n`, `\r\n` or a lone
/// `\r`), plus one for a final line without one.
pub fn physical_lines(bytes: &[u8]) -> u64 {
    let mut lines = 0;
    let mut prev = 0u8;
    for &b in bytes {
        if b == b'\r' || (b == b'\n' && prev != b'\r') {
            lines += 1;
        }
        prev = b;
    }
    lines + u64::from(bytes.last().is_some_and(|&b| b != b'\n' && b != b'\r'))
}

/// The format a parse input selects with its first byte.
pub fn format_of(selector: u8) -> InputFormat {
    InputFormat::ALL[usize::from(selector) % InputFormat::ALL.len()]
}

/// Reads every record in `format` through `rdr` (an input of `lines`
/// physical lines); returns the resolved format and the records. I/O on a
/// byte slice cannot fail.
fn read_all<R: std::io::BufRead>(
    rdr: R,
    format: InputFormat,
    lines: u64,
) -> (InputFormat, Vec<Owned>) {
    let mut reader = RecordReader::new(rdr, format).expect("reading a slice cannot fail");
    let resolved = reader.format();
    assert_ne!(resolved, InputFormat::Auto, "format left unresolved");
    let mut rec = Record::default();
    let mut out = Vec::new();
    while reader
        .read_record(&mut rec)
        .expect("reading a slice cannot fail")
    {
        out.push((rec.line, rec.puzzle, rec.expected, rec.trailing.clone()));
        // Stop a looping reader here rather than hang.
        assert!(out.len() as u64 <= lines + 1, "runaway reader");
    }
    // The end is sticky.
    assert!(
        !reader.read_record(&mut rec).expect("slice"),
        "record after end"
    );
    (resolved, out)
}

/// The `parse_records` invariants. The first byte picks the format; the
/// rest is the input.
///
/// - reading never panics (and never fails: the source is a slice);
/// - at most one record per physical line (plus one for Luogu's
///   "promised more grids" record), each with a line number in range;
/// - every parsed puzzle round-trips through its line form, and every
///   parsed expected solution is complete;
/// - reading through a 1-byte buffer gives exactly the same records as
///   reading the whole slice at once (no dependence on read boundaries).
pub fn check_records(data: &[u8]) {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let format = format_of(selector);
    let lines = physical_lines(input);
    let (resolved, records) = read_all(input, format, lines);

    let extra = u64::from(resolved == InputFormat::Luogu);
    assert!(
        records.len() as u64 <= lines + extra,
        "{} records from {lines} lines in {resolved}",
        records.len()
    );
    for (line, puzzle, expected, trailing) in &records {
        assert!(
            (1..=lines).contains(line),
            "record at line {line} of {lines}"
        );
        if let Ok(grid) = puzzle {
            assert_eq!(parse_line(&grid.to_line()).as_ref(), Ok(grid));
            assert_eq!(parse_line(&grid.to_line_with(b'0')).as_ref(), Ok(grid));
        } else {
            assert!(trailing.is_empty(), "trailing text kept on a bad record");
        }
        if let Some(Ok(solution)) = expected {
            assert!(solution.is_complete(), "incomplete expected solution");
        }
        if !matches!(resolved, InputFormat::Csv | InputFormat::Jsonl) {
            assert!(expected.is_none(), "expected column outside CSV and JSONL");
        }
    }

    let (resolved_slow, slow) = read_all(BufReader::with_capacity(1, input), format, lines);
    assert_eq!(resolved_slow, resolved, "detection depends on read sizes");
    assert_eq!(slow, records, "records depend on read sizes");
    // And through a reader that hands out odd-sized chunks.
    let chunky = Chunky { data: input, at: 0 };
    let (_, chunked) = read_all(BufReader::with_capacity(7, chunky), format, lines);
    assert_eq!(chunked, records, "records depend on read sizes");
}

/// A reader that returns at most 5 bytes per call.
struct Chunky<'a> {
    data: &'a [u8],
    at: usize,
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(5).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The engines checked by [`check_solve`], reused across inputs exactly as
/// a worker reuses them across puzzles (so state leaking from one puzzle
/// to the next would show).
#[derive(Debug, Default)]
pub struct Engines {
    mrv: Solver,
    dlx: DlxSolver,
}

/// The grid an input of the `solve` target stands for: the first 81 bytes,
/// each a cell (`cell_value` for cell characters, so puzzle lines are
/// themselves good inputs; any other byte modulo 10). `None` when shorter.
pub fn grid_of(data: &[u8]) -> Option<Grid> {
    let head = data.first_chunk::<{ Grid::CELLS }>()?;
    let cells = head.map(cell_value);
    Some(Grid::from_cells(cells).expect("cells are 0..=9"))
}

/// Weights for the scored search: the NOIP target weights, or, when the
/// input has 81 more bytes, one signed weight per cell from them.
pub fn weights_of(data: &[u8]) -> Weights {
    match data
        .get(Grid::CELLS..)
        .and_then(|rest| rest.first_chunk::<{ Grid::CELLS }>())
    {
        Some(raw) => Weights::new(raw.map(|b| i32::from(b as i8))),
        None => Weights::target(),
    }
}

/// The `solve` invariants on the grid [`grid_of`] `data`:
///
/// - no panic; contradictory givens are `Err` for every engine and the
///   scored search alike, and nothing else is;
/// - every solution returned solves the puzzle; counts never exceed the
///   limit; the first solution exists exactly when the count is non-zero;
/// - the MRV and DLX engines agree on the count (both stop at
///   [`COUNT_LIMIT`]), and on the solution itself when it is unique;
/// - the scored search (node limit [`SCORE_NODE_LIMIT`]) returns a grid
///   that solves the puzzle with exactly the reported score; when proven,
///   it found a solution exactly when one exists, and a proven pruned
///   search agrees on the best score with a proven unpruned enumeration.
pub fn check_solve(data: &[u8], engines: &mut Engines) {
    let Some(puzzle) = grid_of(data) else {
        return;
    };
    let conflict = puzzle.first_conflict();

    let first = engines.mrv.solve_first(&puzzle);
    let mrv = engines.mrv.count_solutions_up_to(&puzzle, COUNT_LIMIT);
    let dlx = engines.dlx.count_solutions_up_to(&puzzle, COUNT_LIMIT);
    let weights = weights_of(data);
    let pruned = ScoreOptions {
        node_limit: Some(SCORE_NODE_LIMIT),
        ..ScoreOptions::default()
    };
    let scored = score(&mut engines.mrv, &puzzle, &weights, &pruned);

    let (first, mrv, dlx, scored) = match conflict {
        Some(c) => {
            assert_eq!(first.err(), Some(c), "solve_first on conflicting givens");
            assert_eq!(mrv.err(), Some(c), "mrv count on conflicting givens");
            assert!(dlx.is_err(), "dlx accepted conflicting givens");
            assert_eq!(scored.err(), Some(c), "score on conflicting givens");
            return;
        }
        None => (
            first.expect("no conflict: solve_first is Ok"),
            mrv.expect("no conflict: mrv count is Ok"),
            dlx.expect("no conflict: dlx count is Ok"),
            scored.expect("no conflict: score is Ok"),
        ),
    };

    for (name, outcome, limit) in [
        ("first", &first, 1),
        ("mrv", &mrv, COUNT_LIMIT),
        ("dlx", &dlx, COUNT_LIMIT),
    ] {
        assert!(outcome.solutions <= limit, "{name}: count over the limit");
        assert_eq!(
            outcome.solution.is_some(),
            outcome.solutions > 0,
            "{name}: solution present iff counted"
        );
        if let Some(solution) = outcome.solution {
            assert!(solution.solves(&puzzle), "{name}: wrong solution");
        }
    }
    assert_eq!(
        mrv.solutions, dlx.solutions,
        "engines disagree on the count"
    );
    assert_eq!(first.solutions, mrv.solutions.min(1), "first vs count");
    if mrv.solutions == 1 {
        assert_eq!(mrv.solution, dlx.solution, "unique solution differs");
        assert_eq!(first.solution, mrv.solution, "unique solution differs");
    }

    if let Some((best, grid)) = scored.best {
        assert!(grid.solves(&puzzle), "scored grid does not solve");
        assert_eq!(
            weights.score(&grid),
            best,
            "reported score is not the grid's"
        );
    }
    if scored.proven {
        assert_eq!(
            scored.best.is_some(),
            mrv.solutions > 0,
            "proven score disagrees on solvability"
        );
        if mrv.solutions == 1 {
            assert_eq!(scored.best.map(|b| b.1), mrv.solution, "unique solution");
        }
        let unpruned = ScoreOptions {
            node_limit: Some(SCORE_NODE_LIMIT),
            count_solutions: true,
            prune: false,
        };
        let full = score(&mut engines.mrv, &puzzle, &weights, &unpruned)
            .expect("no conflict: score is Ok");
        if full.proven {
            assert_eq!(
                full.best.map(|b| b.0),
                scored.best.map(|b| b.0),
                "branch-and-bound disagrees with full enumeration"
            );
            let counted = full.solutions.expect("counting was asked for");
            assert_eq!(counted.min(COUNT_LIMIT), mrv.solutions, "score count");
        }
    } else {
        assert!(scored.nodes >= SCORE_NODE_LIMIT, "stopped below the limit");
    }
}

/// The value of one cell character as the parser reads it: a digit, `0`
/// for the other blank marks (`.`, `-`, `_`, `*`); any other byte as its
/// value mod 10.
fn cell_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'.' | b'-' | b'_' | b'*' => 0,
        _ => b % 10,
    }
}
