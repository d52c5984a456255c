use super::*;

const P: &str = crate::testdata::EASY;
const S: &str = crate::testdata::EASY_SOLUTION;

fn members(line: &str) -> Members<'_> {
    Members::parse(line.as_bytes()).unwrap()
}

fn layout(lines: &[&str], expected: ExpectedColumn) -> JsonLayout {
    let sample: Vec<Members> = lines.iter().map(|l| members(l)).collect();
    JsonLayout::new(&sample, None, &expected).unwrap()
}

#[test]
fn the_layout_of_solves_own_rows() {
    let row = format!(
        r#"{{"index":1,"line":1,"puzzle":"{P}","status":"solved","solutions":1,"solution":"{S}","guesses":0,"error":null}}"#
    );
    let first = members(&row);
    let layout = layout(&[&row], ExpectedColumn::Detect);
    assert_eq!(layout.puzzle, "puzzle");
    assert_eq!(layout.expected.as_deref(), Some("solution"));
    assert_eq!(layout.kept[..3], ["index", "line", "status"]);
    let puzzle = layout.puzzle(Ok(&first)).unwrap();
    assert!(layout.expected(&first).unwrap().unwrap().solves(&puzzle));
    assert_eq!(
        layout.kept(&first, 3),
        b"1",
        "numbers are kept as JSON text"
    );
    assert_eq!(layout.kept(&first, 2), br#""solved""#, "strings too");
    assert_eq!(layout.kept(&first, 6), b"null");
}

#[test]
fn counts_are_never_solutions() {
    let first = format!(r#"{{"puzzle":"{P}","solutions":1}}"#);
    assert_eq!(layout(&[&first], ExpectedColumn::Detect).expected, None);
}

#[test]
fn no_single_object_decides_the_keys() {
    // The first object's solution is empty, null or missing; later ones
    // have it: the key is still the expected solution's, as in CSV.
    for first in [
        format!(r#"{{"puzzle":"{P}","solution":""}}"#),
        format!(r#"{{"puzzle":"{P}","solution":null}}"#),
        format!(r#"{{"puzzle":"{P}"}}"#),
        format!(r#"{{"puzzle":"{P}","note":"no answer yet"}}"#),
    ] {
        let second = format!(r#"{{"puzzle":"{P}","solution":"{S}","id":7}}"#);
        let l = layout(&[&first, &second], ExpectedColumn::Detect);
        assert_eq!(l.expected.as_deref(), Some("solution"), "{first}");
        assert!(
            l.kept.contains(&"id".to_string()),
            "keys of later objects are kept"
        );
    }
    // Solutions never seen at all: a key so named is still the place.
    let l = layout(
        &[&format!(r#"{{"puzzle":"{P}","solution":null}}"#)],
        ExpectedColumn::Detect,
    );
    assert_eq!(l.expected.as_deref(), Some("solution"));
    // Without a puzzle name, the key holding the most grids.
    let a = format!(r#"{{"note":"{S}","board":"{P}"}}"#);
    let b = format!(r#"{{"note":"x","board":"{P}"}}"#);
    assert_eq!(
        layout(&[&a, &b, &b], ExpectedColumn::Detect).puzzle,
        "board"
    );
}

#[test]
fn bad_lines_are_invalid_records_at_their_column() {
    let first = format!(r#"{{"puzzle":"{P}"}}"#);
    let layout = layout(&[&first], ExpectedColumn::Detect);
    let err = |line: &str| {
        layout
            .puzzle(Members::parse(line.as_bytes()).as_ref().map_err(|&e| e))
            .unwrap_err()
    };
    let at = |line: &str| {
        let e = err(line);
        (e.kind, e.col)
    };
    assert_eq!(at("{Forum puzzles}"), (ParseErrorKind::NotJsonObject, 2));
    assert_eq!(at(r#"{"quiz":"1"}"#), (ParseErrorKind::MissingKey, 0));
    assert_eq!(at(r#"{"puzzle":null}"#), (ParseErrorKind::Empty, 11));
    assert_eq!(at(r#"{"puzzle": 12}"#), (ParseErrorKind::NotText, 12));
    assert_eq!(
        at(r#"{"puzzle":"12"}"#),
        (ParseErrorKind::TooShort { found: 2 }, 14)
    );
    assert_eq!(
        at(r#"{"puzzle":"12x"}"#),
        (ParseErrorKind::BadChar { byte: b'x' }, 14)
    );
    // Escapes before the bad cell: still the line's column.
    assert_eq!(
        at(r#"{"puzzle":"\u0031\u0032x"}"#),
        (ParseErrorKind::BadChar { byte: b'x' }, 24)
    );
    assert_eq!(
        err(r#"{"puzzle":"12x"}"#).to_string(),
        "bad character 'x' at column 14"
    );
}

#[test]
fn named_keys_win_or_are_errors() {
    let first = format!(r#"{{"id":"7","grid":"{P}","answer":"{S}"}}"#);
    let sample = [members(&first)];
    let named = |col: Option<&str>, exp: ExpectedColumn| JsonLayout::new(&sample, col, &exp);
    let l = named(None, ExpectedColumn::Detect).unwrap();
    assert_eq!(
        (l.puzzle.as_str(), l.expected.as_deref()),
        ("grid", Some("answer"))
    );
    let err = named(Some("board"), ExpectedColumn::Detect).unwrap_err();
    assert!(
        err.contains("'board'") && err.contains("id, grid, answer"),
        "{err}"
    );
    let l = named(None, ExpectedColumn::Ignore).unwrap();
    assert_eq!(l.expected, None);
}

#[test]
fn sampled_objects_skip_what_is_not_one() {
    let look =
        format!("\u{feff}# c\n{{Forum puzzles, 2024}}\r\n\n{{\"puzzle\":\"{P}\"}}\r{{\"a\":1}}");
    let sample = sample_objects(look.as_bytes());
    assert_eq!(sample.len(), 2);
    assert_eq!(sample[1].get("a").unwrap().raw, b"1");
}
