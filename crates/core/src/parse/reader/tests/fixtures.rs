//! The fixtures of the workspace's `tests/fixtures/formats/`, read with detection as
//! they are documented. The crate reaches them as its own
//! `tests/fixtures/formats/` (a symbolic link in the repository, the files
//! themselves in the packaged crate), so its tests need nothing outside it.

use super::*;

/// Reads a fixture of the crate's `tests/fixtures/formats/` with detection.
fn fixture(name: &str) -> (InputFormat, bool, Vec<Rec>) {
    let path = format!(
        "{}/tests/fixtures/formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_all(&bytes, InputFormat::Auto)
}

#[test]
fn fixtures_read_as_documented() {
    let valid = |recs: &[Rec]| recs.iter().filter(|r| r.puzzle.is_ok()).count();
    for (name, format, records, ok) in [
        ("line.txt", InputFormat::Line, 5, 5),
        ("line_crlf_bom.txt", InputFormat::Line, 3, 3),
        ("poj.txt", InputFormat::Line, 3, 3),
        ("kaggle.csv", InputFormat::Csv, 4, 4),
        ("noip_sample1.txt", InputFormat::Block, 1, 1),
        ("noip_sample2.txt", InputFormat::Block, 1, 1),
        ("block_boxed.txt", InputFormat::Block, 2, 2),
        ("luogu.txt", InputFormat::Luogu, 2, 2),
        ("luogu_short.txt", InputFormat::Luogu, 3, 1),
        ("hostile_long_line.txt", InputFormat::Line, 2, 1),
        ("hostile_bytes.txt", InputFormat::Line, 3, 2),
    ] {
        let (got_format, _, recs) = fixture(name);
        assert_eq!(got_format, format, "{name}");
        assert_eq!(recs.len(), records, "{name}");
        assert_eq!(valid(&recs), ok, "{name}");
    }
    // Binary: read as lines, every line an invalid record.
    let (format, _, bin) = fixture("hostile_binary.bin");
    assert_eq!(format, InputFormat::Line);
    let bytes = std::fs::read(format!(
        "{}/tests/fixtures/formats/hostile_binary.bin",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let content_lines = bytes
        .split(|&b| b == b'\n' || b == b'\r')
        .filter(|l| !l.trim_ascii().is_empty() && l.trim_ascii()[0] != b'#')
        .count();
    assert_eq!(bin.len(), content_lines);
    assert_eq!(valid(&bin), 0);

    // The two NOIP samples read the same in every layout.
    let noip: Vec<Grid> = ["noip_sample1.txt", "noip_sample2.txt"]
        .iter()
        .map(|n| fixture(n).2[0].puzzle.unwrap())
        .collect();
    let boxed: Vec<Grid> = fixture("block_boxed.txt")
        .2
        .iter()
        .map(|r| r.puzzle.unwrap())
        .collect();
    let luogu: Vec<Grid> = fixture("luogu.txt")
        .2
        .iter()
        .map(|r| r.puzzle.unwrap())
        .collect();
    assert_eq!(noip[0], noip1_grid());
    assert_eq!(boxed, noip);
    assert_eq!(luogu, noip);

    // kaggle.csv: every solution solves its puzzle except row 3's.
    let (_, has_expected, recs) = fixture("kaggle.csv");
    assert!(has_expected);
    let solves: Vec<bool> = recs
        .iter()
        .map(|r| r.expected.unwrap().unwrap().solves(&r.puzzle.unwrap()))
        .collect();
    assert_eq!(solves, [true, true, false, true]);
}
