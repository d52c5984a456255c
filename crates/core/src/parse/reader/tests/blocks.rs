//! Tests of the block and Luogu formats: grids of 9 lines, detection
//! from a separator line, a count line and its shortfall.

use super::*;

const NOIP2: &[u8] = b"0 0 0 7 0 2 4 5 3\n9 0 0 0 0 8 0 0 0\n7 4 0 0 0 5 0 1 0\n\
1 9 5 0 8 0 0 0 0\n0 7 0 0 0 0 0 2 5\n0 3 0 5 7 9 1 0 8\n0 0 0 6 0 1 0 0 0\n\
0 6 0 9 0 0 0 0 1\n0 0 0 0 0 0 0 0 6\n";

#[test]
fn block_grids_detected_and_read() {
    let (format, _, recs) = read_all(NOIP1, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (1, Ok(noip1_grid())));

    let input = cat(&[b"\xEF\xBB\xBF# two grids\n\n", NOIP1, NOIP2]);
    let input: Vec<u8> = input
        .split(|&b| b == b'\n')
        .flat_map(|l| [l, b"\r\n"].concat())
        .collect();
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[0].puzzle), (3, Ok(noip1_grid())));
    assert_eq!(recs[1].line, 12);
    assert_eq!(recs[1].puzzle.unwrap().get(3), 7);
}

#[test]
fn block_detected_from_separator_line() {
    let input = cat(&[
        b"------+-------+------\n",
        b"7 . . | 9 . . | . . 1\n1 . . | . . 5 | 9 . .\n. . . | 2 . . | . 8 .\n",
        b"------+-------+------\n",
        b". . 5 | . 2 . | . . 3\n. . . | . . . | 6 4 8\n4 1 3 | . . . | . . .\n",
        b"------+-------+------\n",
        b". . 7 | . . 2 | . 9 .\n2 . 1 | . 6 . | 8 . 4\n. 8 . | 5 . 4 | . 1 2\n",
        b"------+-------+------\n",
    ]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Block);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].line, recs[0].puzzle), (2, Ok(noip1_grid())));
}

// ---------------------------------------------------------------- luogu

fn compact(block: &[u8]) -> Vec<u8> {
    block.iter().copied().filter(|&b| b != b' ').collect()
}

#[test]
fn luogu_batch_reads_promised_grids_and_extras() {
    let input = cat(&[b"2\n", &compact(NOIP1), &compact(NOIP2)]);
    let (format, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(format, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!((recs[0].line, recs[0].puzzle), (2, Ok(noip1_grid())));
    assert_eq!(recs[1].line, 11);

    // More grids than promised: read them too, no complaint.
    let input = cat(&[b"1\n", NOIP1, b"\n", NOIP2]);
    let (_, _, recs) = read_all(&input, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert!(recs.iter().all(|r| r.puzzle.is_ok()));
}

#[test]
fn luogu_shortfall_is_reported_once() {
    // T=3, one grid and four rows of another.
    let input = cat(&[b"\n3\n", NOIP1, &NOIP2[..4 * 18]]);
    let (_, _, recs) = read_all(&input, InputFormat::Auto);
    assert_eq!(recs.len(), 3);
    assert!(recs[0].puzzle.is_ok());
    assert_eq!(kind(&recs[1]), ParseErrorKind::Truncated { rows: 4 });
    assert_eq!(recs[1].line, 12);
    let e = recs[2].puzzle.unwrap_err();
    assert_eq!(
        e.kind,
        ParseErrorKind::MissingGrids {
            found: 2,
            promised: 3
        }
    );
    assert_eq!(e.to_string(), "input ends after 2 of 3 promised grids");
    assert_eq!(recs[2].line, 2, "points at the count line");

    // Exactly T grids, the last one partial: no extra record.
    let input = cat(&[b"2\n", NOIP1, &NOIP2[..4 * 18]]);
    assert_eq!(read_all(&input, InputFormat::Luogu).2.len(), 2);
    // A count and nothing else.
    let (_, _, recs) = read_all(b"5\n", InputFormat::Auto);
    assert_eq!(recs.len(), 1);
    assert_eq!(
        kind(&recs[0]),
        ParseErrorKind::MissingGrids {
            found: 0,
            promised: 5
        }
    );
    assert!(read_all(b"0\n", InputFormat::Auto).2.is_empty());
}

#[test]
fn forced_luogu_without_count_reports_once_then_reads_blocks() {
    // The first line is a grid row: reported, then kept for the grid.
    let (_, _, recs) = read_all(NOIP1, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        (recs[0].line, kind(&recs[0])),
        (1, ParseErrorKind::BadCount)
    );
    assert_eq!(
        recs[0].puzzle.unwrap_err().to_string(),
        "first line is not a puzzle count"
    );
    assert_eq!((recs[1].line, recs[1].puzzle), (1, Ok(noip1_grid())));
    // A garbage first line is consumed by its BadCount record.
    let input = cat(&[b"# c\nthree\n", NOIP1]);
    let (_, _, recs) = read_all(&input, InputFormat::Luogu);
    assert_eq!(recs.len(), 2);
    assert_eq!(
        (recs[0].line, kind(&recs[0])),
        (2, ParseErrorKind::BadCount)
    );
    assert_eq!((recs[1].line, recs[1].puzzle), (3, Ok(noip1_grid())));
}
