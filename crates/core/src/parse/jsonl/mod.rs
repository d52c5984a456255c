//! The JSONL layout: one JSON object per line, as `--format jsonl` writes
//! it, so that results read back in. The puzzle is the value of a key
//! named as the CSV header would name its column (`puzzle`, `quizzes`,
//! ...), the expected solution that of a key named as a solution column
//! (by the same rule as CSV, see [`expected_column`]). The first objects
//! of the input (up to [`SAMPLE_LINES`](super::detect::SAMPLE_LINES) of
//! them) decide the keys together: every key any of them has, in the
//! order first seen, so no single line decides.
//!
//! A line is any JSON text RFC 8259 allows that is an object (see
//! [`syntax`]); only the puzzle's value has to be a puzzle. A line that
//! is not one JSON object is an invalid record, and so is an object
//! without the puzzle key or whose puzzle is not a string; errors name
//! the column of the line where the problem is, as in every format.
//! Kept values are the JSON text they were read as, byte for byte.

mod syntax;

use std::borrow::Cow;
use std::ops::Range;

use super::csv_input::{
    complete, expected_column, holds_grids, is_puzzle_header, named_column, ExpectedColumn,
};
use super::lines::{is_blank, is_comment};
use super::{parse_line, ParseError, ParseErrorKind};
use crate::grid::Grid;

pub(crate) use syntax::decode_string;
pub(crate) use syntax::Spans;
use syntax::{object_members, raw_offset};

/// Longest JSON line kept, in bytes: what `--format jsonl` writes for a
/// record read within the other formats' [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES)
/// (kept fields escaped, up to six bytes for one, plus every column) is
/// well within it, so our own output always reads back.
pub(crate) const MAX_JSON_LINE_BYTES: usize = 64 * 1024;

/// The members of one JSON object line: spans of its keys and values.
#[derive(Debug, Default)]
pub(crate) struct Members<'a> {
    line: &'a [u8],
    spans: Spans,
}

/// A value as it was written in its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Value<'a> {
    /// Its JSON text.
    pub(crate) raw: &'a [u8],
    /// Its 0-based offset in the line.
    pub(crate) at: usize,
}

impl Value<'_> {
    /// True for `null`.
    fn is_null(&self) -> bool {
        self.raw == b"null"
    }

    /// True for a string.
    fn is_string(&self) -> bool {
        self.raw.first() == Some(&b'"')
    }

    /// The string's text when the value is a string: borrowed from the
    /// line unless it has escapes to decode (no allocation for a puzzle
    /// written plainly).
    fn text(&self) -> Option<Cow<'_, [u8]>> {
        if !self.is_string() {
            return None;
        }
        let inner = &self.raw[1..self.raw.len() - 1];
        if !inner.contains(&b'\\') {
            return Some(Cow::Borrowed(inner));
        }
        let mut out = Vec::with_capacity(self.raw.len());
        decode_string(self.raw, &mut out);
        Some(Cow::Owned(out))
    }

    /// The 1-based line column of byte `col` (1-based, 0: none) of the
    /// string's text.
    fn column(&self, col: u32) -> u32 {
        match col {
            0 => 0,
            c => (self.at + raw_offset(self.raw, c as usize - 1) + 1) as u32,
        }
    }

    /// The 1-based line column where the value starts.
    fn start(&self) -> u32 {
        self.at as u32 + 1
    }
}

impl<'a> Members<'a> {
    /// The members of `line`, or the 0-based offset where it stops being
    /// one JSON object.
    pub(crate) fn parse(line: &'a [u8]) -> Result<Members<'a>, usize> {
        Members::parse_reusing(line, &mut Spans::new())
    }

    /// [`parse`](Self::parse) in the room of `spare` (taken, and left
    /// empty; give it back with [`recycle`](Self::recycle)), so a reader
    /// that reuses one allocates nothing per line.
    pub(crate) fn parse_reusing(line: &'a [u8], spare: &mut Spans) -> Result<Members<'a>, usize> {
        let mut spans = std::mem::take(spare);
        match object_members(line, &mut spans) {
            Ok(()) => Ok(Members { line, spans }),
            Err(at) => {
                *spare = spans;
                Err(at)
            }
        }
    }

    /// Gives this line's room back to `spare` for the next line.
    pub(crate) fn recycle(self, spare: &mut Spans) {
        *spare = self.spans;
    }

    /// The decoded keys, in order.
    fn keys(&self) -> impl Iterator<Item = String> + '_ {
        self.spans.iter().map(|(k, _)| {
            let mut out = Vec::new();
            decode_string(&self.line[k.clone()], &mut out);
            String::from_utf8_lossy(&out).into_owned()
        })
    }

    /// The value of `key` (exact; the first member so named).
    pub(crate) fn get(&self, key: &str) -> Option<Value<'a>> {
        let line = self.line;
        self.spans
            .iter()
            .find(|(k, _)| key_is(&line[k.clone()], key))
            .map(|(_, v): &(Range<usize>, Range<usize>)| Value {
                raw: &line[v.clone()],
                at: v.start,
            })
    }
}

/// True when the JSON string `raw` (quotes included) is `key`.
fn key_is(raw: &[u8], key: &str) -> bool {
    let inner = &raw[1..raw.len() - 1];
    if !inner.contains(&b'\\') {
        return inner == key.as_bytes();
    }
    let mut text = Vec::with_capacity(inner.len());
    decode_string(raw, &mut text);
    text == key.as_bytes()
}

/// The objects among the first lines of an input (`look`, lines as read
/// ahead for format detection): blank and comment lines skipped, lines
/// that are not objects left out.
pub(crate) fn sample_objects(look: &[u8]) -> Vec<Members<'_>> {
    let look = look.strip_prefix(super::lines::BOM).unwrap_or(look);
    look.split(|&b| b == b'\n' || b == b'\r')
        .filter(|l| !(is_blank(l) || is_comment(l)))
        .filter_map(|l| Members::parse(l).ok())
        .collect()
}

/// Which keys hold the puzzle, the expected solution and the kept values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JsonLayout {
    /// The puzzle's key.
    pub(crate) puzzle: String,
    /// The expected solution's key, when there is one.
    pub(crate) expected: Option<String>,
    /// Every other key of the sampled objects, in the order first seen.
    pub(crate) kept: Vec<String>,
    /// Every key of the sampled objects, in the order first seen.
    pub(crate) keys: Vec<String>,
}

impl JsonLayout {
    /// The layout of an input whose first objects are `sample` (none when
    /// no line there is an object: then the puzzle is under `column`,
    /// else `puzzle`, and nothing else is known). The puzzle's key is
    /// `column` when given (an error when no sampled object has it), else
    /// the first with a puzzle name, else the one holding the most grids.
    /// The expected solution's key follows [`expected_column`], with the
    /// sampled values of each key weighed as a CSV column's are.
    pub(crate) fn new(
        sample: &[Members<'_>],
        column: Option<&str>,
        expected: &ExpectedColumn,
    ) -> Result<JsonLayout, String> {
        let mut names: Vec<String> = Vec::new();
        for key in sample.iter().flat_map(Members::keys) {
            if !names.contains(&key) {
                names.push(key);
            }
        }
        if names.is_empty() {
            return Ok(JsonLayout {
                puzzle: column.unwrap_or("puzzle").to_owned(),
                expected: match expected {
                    ExpectedColumn::Named(name) => Some(name.clone()),
                    _ => None,
                },
                kept: Vec::new(),
                keys: Vec::new(),
            });
        }
        // (grids, filled) of each key over the sample.
        let counts: Vec<(u32, u32)> = names
            .iter()
            .map(|name| {
                sample
                    .iter()
                    .filter_map(|m| m.get(name))
                    .fold((0, 0), |(grids, filled), v| match v.text() {
                        Some(t) if t.is_empty() => (grids, filled),
                        Some(t) => (grids + u32::from(parse_line(&t).is_ok()), filled + 1),
                        None => (grids, filled + u32::from(!v.is_null())),
                    })
            })
            .collect();
        let bytes: Vec<&[u8]> = names.iter().map(|n| n.as_bytes()).collect();
        let puzzle = match column {
            Some(wanted) => named_column(&bytes, wanted)?,
            None => bytes
                .iter()
                .position(|n| is_puzzle_header(n))
                .or_else(|| {
                    (0..names.len())
                        .filter(|&i| counts[i].0 > 0)
                        .max_by_key(|&i| (counts[i].0, std::cmp::Reverse(i)))
                })
                .ok_or_else(|| {
                    format!(
                        "no puzzle key in the first JSON objects (keys: {})",
                        names.join(", ")
                    )
                })?,
        };
        let expected = expected_column(&bytes, puzzle, expected, |i| {
            holds_grids(counts[i].0, counts[i].1)
        })?;
        let key = |i: usize| names[i].clone();
        Ok(JsonLayout {
            puzzle: key(puzzle),
            expected: expected.map(key),
            kept: (0..names.len()).filter(|&i| i != puzzle).map(key).collect(),
            keys: names,
        })
    }

    /// The puzzle of one line, given its members or the offset where it
    /// stops being an object: an error when it is not an object, or its
    /// puzzle is missing, null or not a string; the error's column is the
    /// line's.
    pub(crate) fn puzzle(&self, members: Result<&Members<'_>, usize>) -> Result<Grid, ParseError> {
        let members =
            members.map_err(|at| ParseError::new(ParseErrorKind::NotJsonObject, at as u32 + 1))?;
        let value = members
            .get(&self.puzzle)
            .ok_or(ParseError::new(ParseErrorKind::MissingKey, 0))?;
        if value.is_null() {
            return Err(ParseError::new(ParseErrorKind::Empty, value.start()));
        }
        let text = value
            .text()
            .ok_or(ParseError::new(ParseErrorKind::NotText, value.start()))?;
        parse_line(&text).map_err(|mut e| {
            e.col = value.column(e.col);
            e
        })
    }

    /// The expected solution of one line: `None` when there is no such
    /// key, or its value is null or empty; `Err` when it is not a
    /// complete grid.
    pub(crate) fn expected(&self, members: &Members<'_>) -> Option<Result<Grid, ParseError>> {
        let value = members.get(self.expected.as_deref()?)?;
        if value.is_null() {
            return None;
        }
        let Some(text) = value.text() else {
            return Some(Err(ParseError::new(ParseErrorKind::NotText, value.start())));
        };
        if text.is_empty() {
            return None;
        }
        Some(
            parse_line(&text)
                .map_err(|mut e| {
                    e.col = value.column(e.col);
                    e
                })
                .and_then(|grid| complete(grid, value.start())),
        )
    }

    /// Kept value `i` of one line: its JSON text as read (empty when the
    /// key is missing).
    pub(crate) fn kept<'a>(&self, members: &Members<'a>, i: usize) -> &'a [u8] {
        members.get(&self.kept[i]).map_or(&[], |v| v.raw)
    }
}

#[cfg(test)]
mod tests;
