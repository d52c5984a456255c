//! Tests of [`RecordReader`]: each format, detection, every hostile input
//! the reader promises to survive, and property tests over arbitrary bytes.
//! The shared helpers are here; the tests are its submodules, one file per
//! topic.

use super::*;
use proptest::prelude::*;

const P1: &[u8] = crate::testdata::EASY.as_bytes();
const S1: &[u8] = crate::testdata::EASY_SOLUTION.as_bytes();
const P2: &[u8] = crate::testdata::HARD.as_bytes();

/// Reads every record of `input` in `format`: (format used, has_expected,
/// records).
fn read_all(input: &[u8], format: InputFormat) -> (InputFormat, bool, Vec<Rec>) {
    let mut reader = RecordReader::new(input, format).expect("in-memory input");
    let mut rec = Record::default();
    let mut out = Vec::new();
    while reader.read_record(&mut rec).expect("in-memory input") {
        out.push(Rec {
            line: rec.line,
            puzzle: rec.puzzle,
            expected: rec.expected,
            trailing: rec.trailing.clone(),
        });
        assert!(out.len() <= input.len() + 1, "reader does not advance");
    }
    assert!(!reader.read_record(&mut rec).unwrap(), "end is sticky");
    (reader.format(), reader.has_expected(), out)
}

#[derive(Debug)]
struct Rec {
    line: u64,
    puzzle: Result<Grid, ParseError>,
    expected: Option<Result<Grid, ParseError>>,
    trailing: Vec<u8>,
}

fn grid(line: &[u8]) -> Grid {
    parse_line(line).expect("test grid")
}

fn kind(r: &Rec) -> ParseErrorKind {
    r.puzzle.expect_err("expected an invalid record").kind
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

const NOIP1: &[u8] = b"7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n0 0 7 0 0 2 0 9 0\n\
2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";

/// NOIP sample 1 as a grid, through the line parser (its 81 digits).
fn noip1_grid() -> Grid {
    let digits: Vec<u8> = NOIP1.iter().copied().filter(u8::is_ascii_digit).collect();
    grid(&digits)
}

mod blocks;
mod csv_records;
mod detection;
mod fixtures;
mod lines;
mod properties;
mod written;
