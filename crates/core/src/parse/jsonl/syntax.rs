//! JSON text as RFC 8259 defines it, checked without being converted: one
//! line is split into the members of its object, each value kept as the
//! span of text it was written as. Nothing is turned into a number, so a
//! 30-digit id, `1e2`, `-0` or `1.0e400` stays exactly what it was;
//! nesting is followed with a counter-free stack of its own, so any depth
//! is allowed; a `\u` escape is checked for its four hex digits only, so a
//! lone surrogate (which Python's `json.dumps` writes) is allowed, as the
//! grammar allows it. Strings are decoded only when their text is needed
//! ([`decode_string`]).

use std::ops::Range;

/// The members of one JSON object: each key's span (quotes included) and
/// its value's span, in the order written; with the stack of open arrays
/// and objects the scan used, so that one `Spans` reused line after line
/// allocates nothing once it has grown to the input's widest and deepest.
#[derive(Debug, Default)]
pub(crate) struct Spans {
    members: Vec<(Range<usize>, Range<usize>)>,
    open: Vec<u8>,
}

impl Spans {
    /// No members, no room yet.
    pub(crate) fn new() -> Spans {
        Spans::default()
    }

    /// The members, in the order written.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, (Range<usize>, Range<usize>)> {
        self.members.iter()
    }
}

impl<'s> IntoIterator for &'s Spans {
    type Item = &'s (Range<usize>, Range<usize>);
    type IntoIter = std::slice::Iter<'s, (Range<usize>, Range<usize>)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.iter()
    }
}

/// Splits `line` (one JSON text, surrounding whitespace allowed) into the
/// members of the object it must be. `Err` holds the 0-based offset of
/// the first byte that breaks the grammar (the line's length when it ends
/// too early), or where its UTF-8 is invalid.
pub(crate) fn object_members(line: &[u8], spans: &mut Spans) -> Result<(), usize> {
    spans.members.clear();
    if let Err(e) = std::str::from_utf8(line) {
        return Err(e.valid_up_to());
    }
    let mut i = skip_ws(line, 0);
    if line.get(i) != Some(&b'{') {
        return Err(i);
    }
    i = skip_ws(line, i + 1);
    if line.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let key = i..string_end(line, i)?;
            i = colon(line, key.end)?;
            let start = skip_ws(line, i);
            let value = start..value_end(line, start, &mut spans.open)?;
            spans.members.push((key, value.clone()));
            i = skip_ws(line, value.end);
            match line.get(i) {
                Some(b',') => i = skip_ws(line, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Err(i),
            }
        }
    }
    i = skip_ws(line, i);
    if i < line.len() {
        return Err(i);
    }
    Ok(())
}

/// Past the whitespace RFC 8259 allows (space, tab, line feed, carriage
/// return) from `i`.
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Past the `:` (and whitespace around it) that follows a key ending at `i`.
fn colon(b: &[u8], i: usize) -> Result<usize, usize> {
    let i = skip_ws(b, i);
    match b.get(i) {
        Some(b':') => Ok(i + 1),
        _ => Err(i),
    }
}

/// The end of the string starting at `i` (its opening quote).
fn string_end(b: &[u8], i: usize) -> Result<usize, usize> {
    if b.get(i) != Some(&b'"') {
        return Err(i);
    }
    let mut i = i + 1;
    loop {
        match b.get(i) {
            None => return Err(i),
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                Some(b'u') => {
                    let digits = b.get(i + 2..i + 6).ok_or(b.len())?;
                    if let Some(bad) = digits.iter().position(|d| !d.is_ascii_hexdigit()) {
                        return Err(i + 2 + bad);
                    }
                    i += 6;
                }
                _ => return Err(i + 1),
            },
            Some(&c) if c < 0x20 => return Err(i),
            Some(_) => i += 1,
        }
    }
}

/// The end of the number starting at `i`:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn number_end(b: &[u8], mut i: usize) -> Result<usize, usize> {
    let digits = |i: usize| i + b[i..].iter().take_while(|d| d.is_ascii_digit()).count();
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i),
        _ => return Err(i),
    }
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return Err(end);
        }
        i = end;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return Err(end);
        }
        i = end;
    }
    Ok(i)
}

/// The end of the value starting at `i` (no whitespace before it). Arrays
/// and objects nest to any depth: the open ones are a stack of bytes
/// (`open`, emptied first: a buffer the caller reuses).
fn value_end(b: &[u8], mut i: usize, open: &mut Vec<u8>) -> Result<usize, usize> {
    open.clear();
    loop {
        // A value starts at `i`.
        i = skip_ws(b, i);
        match b.get(i) {
            Some(&c @ (b'{' | b'[')) => {
                i = skip_ws(b, i + 1);
                let close = if c == b'{' { b'}' } else { b']' };
                if b.get(i) == Some(&close) {
                    i += 1;
                } else {
                    open.push(close);
                    if c == b'{' {
                        i = colon(b, string_end(b, i)?)?;
                    }
                    continue;
                }
            }
            Some(b'"') => i = string_end(b, i)?,
            Some(b'-' | b'0'..=b'9') => i = number_end(b, i)?,
            Some(&c) => {
                let word: &[u8] = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    b'n' => b"null",
                    _ => return Err(i),
                };
                let n = word.len().min(b.len() - i);
                if let Some(bad) = (0..word.len()).find(|&k| k >= n || b[i + k] != word[k]) {
                    return Err(i + bad);
                }
                i += word.len();
            }
            None => return Err(i),
        }
        // A value ended at `i`: close what it ends, or go on to the next.
        loop {
            let Some(&close) = open.last() else {
                return Ok(i);
            };
            i = skip_ws(b, i);
            match b.get(i) {
                Some(&c) if c == close => {
                    open.pop();
                    i += 1;
                }
                Some(b',') => {
                    i += 1;
                    if close == b'}' {
                        i = colon(b, string_end(b, skip_ws(b, i))?)?;
                    }
                    break;
                }
                _ => return Err(i),
            }
        }
    }
}

/// Appends the text of the JSON string `raw` (quotes included, already
/// checked by [`object_members`]) to `out`, escapes decoded. A surrogate
/// escape that is not half of a pair becomes U+FFFD, the replacement
/// character, as text has no other way to hold it.
pub(crate) fn decode_string(raw: &[u8], out: &mut Vec<u8>) {
    let inner = &raw[1..raw.len() - 1];
    let mut i = 0;
    while i < inner.len() {
        let Some(at) = inner[i..].iter().position(|&c| c == b'\\') else {
            out.extend_from_slice(&inner[i..]);
            return;
        };
        out.extend_from_slice(&inner[i..i + at]);
        i += at;
        let (c, used) = escape(&inner[i..]);
        let mut utf8 = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        i += used;
    }
}

/// The character of the escape at the start of `s` and the bytes it takes.
fn escape(s: &[u8]) -> (char, usize) {
    let simple = match s[1] {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(&s[2..6]);
            if (0xD800..0xDC00).contains(&high) && s.get(6..8) == Some(b"\\u") {
                let low = hex4(&s[8..12]);
                if (0xDC00..0xE000).contains(&low) {
                    let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return (char::from_u32(c).unwrap_or('\u{FFFD}'), 12);
                }
            }
            return (char::from_u32(high).unwrap_or('\u{FFFD}'), 6);
        }
        other => char::from(other), // `"`, `\` or `/`
    };
    (simple, 2)
}

/// The value of four hex digits (checked by the scanner).
fn hex4(d: &[u8]) -> u32 {
    d.iter()
        .fold(0, |n, &c| n * 16 + char::from(c).to_digit(16).unwrap_or(0))
}

/// The offset within the JSON string `raw` (quotes included) of the
/// escape or character that decodes to byte `decoded` of its text: maps a
/// column found in the text back to the line.
pub(crate) fn raw_offset(raw: &[u8], decoded: usize) -> usize {
    let inner = &raw[1..raw.len() - 1];
    let (mut i, mut text) = (0, 0);
    while i < inner.len() && text < decoded {
        if inner[i] == b'\\' {
            let (c, used) = escape(&inner[i..]);
            text += c.len_utf8();
            i += used;
        } else {
            text += 1;
            i += 1;
        }
    }
    1 + i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(line: &str) -> Result<Vec<(&str, &str)>, usize> {
        let mut spans = Spans::new();
        object_members(line.as_bytes(), &mut spans)?;
        Ok(spans
            .iter()
            .map(|(k, v)| (&line[k.clone()], &line[v.clone()]))
            .collect())
    }

    fn text(raw: &str) -> String {
        let mut out = Vec::new();
        decode_string(raw.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn values_are_kept_as_written() {
        let line = r#" { "id" : 123456789012345678901234567890, "a":1e2,"b":-0, "c" :1.0e400,
            "d":[1,{"e":[]},{}],"f":"x\"y","g":true,"h":null,"i":false } "#;
        assert_eq!(
            members(line).unwrap(),
            [
                (r#""id""#, "123456789012345678901234567890"),
                (r#""a""#, "1e2"),
                (r#""b""#, "-0"),
                (r#""c""#, "1.0e400"),
                (r#""d""#, r#"[1,{"e":[]},{}]"#),
                (r#""f""#, r#""x\"y""#),
                (r#""g""#, "true"),
                (r#""h""#, "null"),
                (r#""i""#, "false"),
            ]
        );
        assert_eq!(members("{}").unwrap(), []);
        let huge = format!(r#"{{"n":{}}}"#, "9".repeat(3900));
        assert_eq!(members(&huge).unwrap()[0].1.len(), 3900);
    }

    #[test]
    fn any_depth_is_an_object() {
        let depth = 100_000;
        let line = format!(r#"{{"deep":{}1{}}}"#, "[".repeat(depth), "]".repeat(depth));
        assert_eq!(members(&line).unwrap()[0].1.len(), 2 * depth + 1);
        let objects = format!(
            r#"{{"deep":{}1{}}}"#,
            r#"{"a":"#.repeat(depth),
            "}".repeat(depth)
        );
        assert!(members(&objects).is_ok());
        let unclosed = format!(r#"{{"deep":{}1}}"#, "[".repeat(3));
        assert!(members(&unclosed).is_err());
    }

    #[test]
    fn the_grammar_is_rfc_8259_and_errors_say_where() {
        for (line, at) in [
            ("", 0),
            ("[1]", 0),
            (r#"{"a":1} x"#, 8),
            (r#"{"a":01}"#, 6),
            (r#"{"a":1.}"#, 7),
            (r#"{"a":1e}"#, 7),
            (r#"{"a":+1}"#, 5),
            (r#"{"a":.5}"#, 5),
            (r#"{"a":tru}"#, 8),
            (r#"{"a":nul"#, 8),
            (r#"{"a":'x'}"#, 5),
            (r#"{"a":"\x"}"#, 7),
            (r#"{"a":"\u12g4"}"#, 10),
            ("{\"a\":\"\t\"}", 6),
            (r#"{"a":1,}"#, 7),
            (r#"{"a" 1}"#, 5),
            (r#"{a:1}"#, 1),
            (r#"{"a":[1,]}"#, 8),
            (r#"{"a":[1 2]}"#, 8),
            (r#"{"a":{"b"}}"#, 9),
            (r#"{"a":"open}"#, 11),
            (r#"{"a":1"#, 6),
            ("{Forum puzzles, 2024}", 1),
        ] {
            assert_eq!(members(line), Err(at), "{line}");
        }
        let mut spans = Spans::new();
        assert_eq!(object_members(b"{\"a\":\"\xff\"}", &mut spans), Err(6));
        // The same room serves the next line: members are replaced, never
        // appended, and a nested value's stack is emptied first.
        object_members(br#"{"a":[[{"b":1}]],"c":2}"#, &mut spans).unwrap();
        object_members(br#"{"d":[3]}"#, &mut spans).unwrap();
        assert_eq!(spans.iter().count(), 1);
    }

    #[test]
    fn strings_decode_and_lone_surrogates_are_allowed() {
        assert!(members(r#"{"\ud800":"\udc00x\ud800"}"#).is_ok());
        assert_eq!(text(r#""a\"\\\/\b\f\n\r\t""#), "a\"\\/\u{8}\u{c}\n\r\t");
        assert_eq!(text(r#""\u00e9\ud83d\ude00""#), "é😀");
        assert_eq!(text(r#""x\ud800y""#), "x\u{FFFD}y");
        assert_eq!(text(r#""\udc00\ud800""#), "\u{FFFD}\u{FFFD}");
        assert_eq!(text(r#""""#), "");
    }

    #[test]
    fn decoded_columns_map_back_to_the_line() {
        let raw = br#""ab\u00e9\ncd""#;
        // Text: a b é(2 bytes) \n c d
        assert_eq!(raw_offset(raw, 0), 1);
        assert_eq!(raw_offset(raw, 2), 3);
        assert_eq!(raw_offset(raw, 4), 9);
        assert_eq!(raw_offset(raw, 5), 11);
        assert_eq!(raw_offset(b"\"plain\"", 3), 4);
    }
}

/// The scanner against serde_json on JSON-shaped text: serde_json's
/// `IgnoredAny` follows RFC 8259's grammar without converting anything
/// (any number, any depth, any `\u` escape), so the two must agree on
/// which lines are one JSON object, and every span found must be in the
/// line and decode without a panic.
#[cfg(test)]
mod differential {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of JSON text, valid and not, joined at random.
    fn json_soup() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            "\"",
            "\"k\"",
            ":",
            ",",
            " ",
            "\t",
            "0",
            "-",
            "1",
            "9",
            ".",
            "e",
            "E",
            "+",
            "true",
            "false",
            "null",
            "tru",
            "\\",
            "\\u",
            "\\ud800",
            "\\n",
            "00",
            "é",
            "\u{1}",
            "\"a\":1",
            "{\"p\":\"x\"}",
            "[1,2]",
            "1.0e400",
        ]);
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn agrees_with_serde_json_on_which_lines_are_objects(body in json_soup(), wrap in any::<bool>()) {
            // Half the cases as an object around the soup, so that many are valid.
            let line = if wrap { format!("{{\"k\":{body}}}") } else { body };
            let mut spans = Spans::new();
            let ours = object_members(line.as_bytes(), &mut spans).is_ok();
            let theirs = serde_json::from_str::<serde::de::IgnoredAny>(&line).is_ok()
                && line.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{');
            prop_assert_eq!(ours, theirs, "{:?}", line);
            for (key, value) in &spans {
                let mut text = Vec::new();
                decode_string(&line.as_bytes()[key.clone()], &mut text);
                if line.as_bytes()[value.start] == b'"' {
                    decode_string(&line.as_bytes()[value.clone()], &mut text);
                }
                prop_assert!(value.end <= line.len());
            }
        }
    }
}
