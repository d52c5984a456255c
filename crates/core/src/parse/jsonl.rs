//! The JSONL layout: one JSON object per line, as `--format jsonl` writes
//! it, so that results read back in. The puzzle is the value of a key
//! named as the CSV header would name its column (`puzzle`, `quizzes`,
//! ...), the expected solution that of a key named as a solution column
//! whose value is a grid (by the same rule as CSV, see
//! [`expected_column`]); the first object on the input decides the keys.
//!
//! Each line is parsed by `serde_json` into its members (one allocation
//! per member: JSONL input is a convenience for reading results back, not
//! the fast path). A line that is not one JSON object is an invalid
//! record, and so is an object without the puzzle key or whose puzzle is
//! not a string.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::csv_input::{complete, expected_column, is_puzzle_header, named_column, ExpectedColumn};
use super::{parse_line, ParseError, ParseErrorKind};
use crate::grid::Grid;

/// A member's value as text.
#[derive(Debug, PartialEq, Eq)]
enum Text {
    /// `null`.
    Null,
    /// A string's content.
    Str(String),
    /// Any other value, as its JSON text.
    Json(String),
}

impl Text {
    /// The text; `None` for `null`.
    fn as_str(&self) -> Option<&str> {
        match self {
            Text::Null => None,
            Text::Str(s) | Text::Json(s) => Some(s),
        }
    }
}

/// The members of one JSON object, in the order written.
#[derive(Debug, Default)]
pub(crate) struct Members(Vec<(String, Text)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Members, D::Error> {
        struct MembersVisitor;
        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Value>()? {
                    let text = match value {
                        Value::Null => Text::Null,
                        Value::String(s) => Text::Str(s),
                        other => Text::Json(other.to_string()),
                    };
                    members.push((key, text));
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(MembersVisitor)
    }
}

impl Members {
    /// The members of `line`, or `None` when it is not one JSON object.
    pub(crate) fn parse(line: &[u8]) -> Option<Members> {
        serde_json::from_slice(line).ok()
    }

    /// The value of `key` (exact).
    fn get(&self, key: &str) -> Option<&Text> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Which keys hold the puzzle, the expected solution and the kept values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JsonLayout {
    /// The puzzle's key.
    pub(crate) puzzle: String,
    /// The expected solution's key, when there is one.
    pub(crate) expected: Option<String>,
    /// Every other key of the first object, in order.
    pub(crate) kept: Vec<String>,
}

impl JsonLayout {
    /// The layout of an input whose first object is `first` (`None` when
    /// the first line is not an object: then the puzzle is under `column`,
    /// else `puzzle`, and nothing else is known). The puzzle's key is
    /// `column` when given (an error when `first` lacks it), else the first
    /// with a puzzle name, else the first whose value is a grid.
    pub(crate) fn new(
        first: Option<&Members>,
        column: Option<&str>,
        expected: &ExpectedColumn,
    ) -> Result<JsonLayout, String> {
        let Some(first) = first else {
            return Ok(JsonLayout {
                puzzle: column.unwrap_or("puzzle").to_owned(),
                expected: match expected {
                    ExpectedColumn::Named(name) => Some(name.clone()),
                    _ => None,
                },
                kept: Vec::new(),
            });
        };
        let names: Vec<&[u8]> = first.0.iter().map(|(k, _)| k.as_bytes()).collect();
        let is_grid = |i: usize| match &first.0[i].1 {
            Text::Str(v) => parse_line(v.as_bytes()).is_ok(),
            _ => false,
        };
        let puzzle = match column {
            Some(wanted) => named_column(&names, wanted)?,
            None => names
                .iter()
                .position(|n| is_puzzle_header(n))
                .or_else(|| (0..names.len()).find(|&i| is_grid(i)))
                .ok_or_else(|| {
                    format!(
                        "no puzzle key in the first JSON object (keys: {})",
                        keys(first)
                    )
                })?,
        };
        let expected = expected_column(&names, puzzle, expected, is_grid)?;
        let key = |i: usize| first.0[i].0.clone();
        Ok(JsonLayout {
            puzzle: key(puzzle),
            expected: expected.map(key),
            kept: (0..names.len()).filter(|&i| i != puzzle).map(key).collect(),
        })
    }

    /// The puzzle of one line's members (an error when the line is not
    /// an object, or its puzzle is missing or not a string).
    pub(crate) fn puzzle(&self, members: Option<&Members>) -> Result<Grid, ParseError> {
        let members = members.ok_or(ParseError::new(ParseErrorKind::NotJsonObject, 0))?;
        match members.get(&self.puzzle) {
            None => Err(ParseError::new(ParseErrorKind::MissingKey, 0)),
            Some(Text::Null) => Err(ParseError::new(ParseErrorKind::Empty, 0)),
            Some(Text::Json(_)) => Err(ParseError::new(ParseErrorKind::NotText, 0)),
            Some(Text::Str(text)) => parse_line(text.as_bytes()).map_err(|mut e| {
                e.col = 0; // a column within the string, not the line
                e
            }),
        }
    }

    /// The expected solution of one line: `None` when there is no such
    /// key, or its value is null or empty; `Err` when it is not a
    /// complete grid.
    pub(crate) fn expected(&self, members: &Members) -> Option<Result<Grid, ParseError>> {
        let text = members.get(self.expected.as_deref()?)?.as_str()?;
        if text.is_empty() {
            return None;
        }
        Some(parse_line(text.as_bytes()).and_then(|grid| complete(grid, 0)))
    }

    /// Kept value `i` of one line (empty when missing or null).
    pub(crate) fn kept<'a>(&self, members: &'a Members, i: usize) -> &'a str {
        members
            .get(&self.kept[i])
            .and_then(Text::as_str)
            .unwrap_or("")
    }
}

/// The keys of an object, for messages.
fn keys(members: &Members) -> String {
    members
        .0
        .iter()
        .map(|(k, _)| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const S: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    fn members(line: &str) -> Members {
        Members::parse(line.as_bytes()).unwrap()
    }

    #[test]
    fn the_layout_of_solves_own_rows() {
        let row = format!(
            r#"{{"index":1,"line":1,"puzzle":"{P}","status":"solved","solutions":1,"solution":"{S}","guesses":0,"error":null}}"#
        );
        let first = members(&row);
        let layout = JsonLayout::new(Some(&first), None, &ExpectedColumn::Detect).unwrap();
        assert_eq!(layout.puzzle, "puzzle");
        assert_eq!(layout.expected.as_deref(), Some("solution"));
        assert_eq!(layout.kept[..3], ["index", "line", "status"]);
        let puzzle = layout.puzzle(Some(&first)).unwrap();
        assert!(layout.expected(&first).unwrap().unwrap().solves(&puzzle));
        assert_eq!(layout.kept(&first, 3), "1", "numbers are kept as JSON text");
        assert_eq!(layout.kept(&first, 6), "", "null is empty");
    }

    #[test]
    fn counts_are_never_solutions() {
        let first = members(&format!(r#"{{"puzzle":"{P}","solutions":1}}"#));
        let layout = JsonLayout::new(Some(&first), None, &ExpectedColumn::Detect).unwrap();
        assert_eq!(layout.expected, None);
    }

    #[test]
    fn bad_lines_are_invalid_records() {
        let first = members(&format!(r#"{{"puzzle":"{P}"}}"#));
        let layout = JsonLayout::new(Some(&first), None, &ExpectedColumn::Detect).unwrap();
        let kind = |line: Option<&str>| {
            let m = line.map(members);
            layout.puzzle(m.as_ref()).unwrap_err().kind
        };
        assert_eq!(kind(None), ParseErrorKind::NotJsonObject);
        assert_eq!(kind(Some(r#"{"quiz":"1"}"#)), ParseErrorKind::MissingKey);
        assert_eq!(kind(Some(r#"{"puzzle":null}"#)), ParseErrorKind::Empty);
        assert_eq!(kind(Some(r#"{"puzzle":12}"#)), ParseErrorKind::NotText);
        assert_eq!(
            kind(Some(r#"{"puzzle":"12"}"#)),
            ParseErrorKind::TooShort { found: 2 }
        );
        assert_eq!(
            kind(Some(r#"{"puzzle":"12x"}"#)),
            ParseErrorKind::BadChar { byte: b'x' }
        );
        assert!(Members::parse(b"[1,2]").is_none());
        assert!(Members::parse(b"{\"a\":1} trailing").is_none());
    }

    #[test]
    fn named_keys_win_or_are_errors() {
        let first = members(&format!(r#"{{"id":"7","grid":"{P}","answer":"{S}"}}"#));
        let named =
            |col: Option<&str>, exp: ExpectedColumn| JsonLayout::new(Some(&first), col, &exp);
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
}
