//! Records written back as their input wrote them ([`AsWritten`]), in the
//! input's own layout rather than as batchdoku's rows: the part files of
//! `split --output-dir`, which a user's loader reads as it reads the
//! input. Each record's text is the reader's
//! [`Record::written`]; the record's part may be added as one more CSV
//! column or JSON key, `split`.

use batchdoku_core::{InputLayout, Record};

use super::schema::{Row, Split};

/// How to write each record as its input wrote it ([`Record::written`],
/// read with [`ReadOptions::keep_written`](batchdoku_core::ReadOptions::keep_written)),
/// in the input's [`InputLayout`], with its part added or not. Every input
/// of a run written so must have that one layout.
///
/// - CSV: the header and every record as written (the input's delimiter,
///   quoting and cell alphabet), each ended by `\n`; with `split`, one
///   more column `split` after the header's columns. A record with fewer
///   fields than the header gets empty ones up to the header's count, so
///   that its part is under `split`; one with more keeps the extra fields
///   after its part.
/// - JSON lines: each line as written; with `split`, a key `"split"` added
///   last.
/// - Lines and blocks: each record as written (a block grid followed by a
///   blank line); there is no room for a part: `split` adds nothing.
///
/// # Example
/// ```
/// use batchdoku_batch::{AsWritten, Row, Split};
/// use batchdoku_core::{ReadOptions, Record, RecordReader};
/// let csv = "quizzes,solutions\n\
///     003020600900305001001806400008102900700000008006708200002609500800203009005010300,\
///     483921657967345821251876493548132976729564138136798245372689514814253769695417382\n";
/// let options = ReadOptions { keep_written: true, ..ReadOptions::default() };
/// let mut reader = RecordReader::with_options(csv.as_bytes(), &options).unwrap();
/// let mut record = Record::default();
/// assert!(reader.read_record(&mut record).unwrap());
///
/// let as_written = AsWritten { layout: reader.layout().clone(), split: true };
/// let row = Row { split: Some(Split::Named("valid")), ..Row::default() };
/// let mut out = as_written.header();
/// as_written.encode(&row, &record, &mut out);
/// let (header, rest) = csv.split_once('\n').unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), format!("{header},split\n{}", rest.replace('\n', ",valid\n")));
/// assert_eq!(as_written.extension(), "csv");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsWritten {
    /// The input's layout.
    pub layout: InputLayout,
    /// Add the record's part ([`Row::split`]) as a last column or key named
    /// [`AsWritten::SPLIT`] (CSV and JSON lines only).
    pub split: bool,
}

impl AsWritten {
    /// The name of the column (or JSON key) holding the part.
    pub const SPLIT: &'static str = "split";

    /// Whether the part is written: asked for, and the layout has room for
    /// it (CSV, JSON lines).
    pub fn writes_split(&self) -> bool {
        self.split
            && matches!(
                self.layout,
                InputLayout::Csv { .. } | InputLayout::Jsonl { .. }
            )
    }

    /// What comes before the records: a CSV input's header as written (with
    /// `split` when it is added) and a line ending; nothing otherwise.
    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::new();
        if let InputLayout::Csv {
            delimiter,
            header: Some(header),
            ..
        } = &self.layout
        {
            out.extend_from_slice(header);
            if self.split {
                out.push(*delimiter);
                csv_field(&mut out, Self::SPLIT.as_bytes(), *delimiter);
            }
            out.push(b'\n');
        }
        out
    }

    /// The extension of a file in this layout: `csv` (`tsv` when the
    /// delimiter is a tab), `jsonl`, or `txt` for lines and blocks.
    pub fn extension(&self) -> &'static str {
        match self.layout {
            InputLayout::Csv {
                delimiter: b'\t', ..
            } => "tsv",
            InputLayout::Csv { .. } => "csv",
            InputLayout::Jsonl { .. } => "jsonl",
            _ => "txt",
        }
    }

    /// Appends `record` as its input wrote it, with `row`'s part when it
    /// is added (see [`AsWritten`]).
    pub fn encode(&self, row: &Row, record: &Record, out: &mut Vec<u8>) {
        let text = &record.written[..];
        let part = row.split.map(Split::as_str);
        match &self.layout {
            InputLayout::Csv {
                delimiter,
                header,
                names,
            } if self.split => {
                let d = *delimiter;
                let fields = record.written_ends.len();
                let columns = if header.is_some() { names.len() } else { 0 };
                // The part goes after the header's columns: a short record
                // is padded to them, a long one keeps its extra fields after.
                let cut = match columns {
                    n if n > 0 && fields > n => record.written_ends[n - 1] as usize,
                    _ => text.len(),
                };
                out.extend_from_slice(&text[..cut]);
                for _ in fields..columns {
                    out.push(d);
                }
                out.push(d);
                csv_field(out, part.unwrap_or("").as_bytes(), d);
                out.extend_from_slice(&text[cut..]);
                out.push(b'\n');
            }
            InputLayout::Jsonl { .. } if self.split => {
                let Some(close) = text.iter().rposition(|&b| b == b'}') else {
                    // Not an object: never a valid record, written as it is.
                    out.extend_from_slice(text);
                    out.push(b'\n');
                    return;
                };
                let open = text.iter().position(|&b| b == b'{').unwrap_or(close);
                let empty = text[open + 1..close].iter().all(u8::is_ascii_whitespace);
                out.extend_from_slice(&text[..close]);
                out.extend_from_slice(if empty { b"\"" } else { b",\"" });
                out.extend_from_slice(Self::SPLIT.as_bytes());
                out.extend_from_slice(b"\":");
                // A JSON string cannot fail to serialize into a Vec.
                let _ = serde_json::to_writer(&mut *out, &part);
                out.extend_from_slice(&text[close..]);
                out.push(b'\n');
            }
            InputLayout::Blocks => {
                out.extend_from_slice(text);
                out.extend_from_slice(b"\n\n");
            }
            _ => {
                out.extend_from_slice(text);
                out.push(b'\n');
            }
        }
    }
}

/// Appends one CSV field, quoted (RFC 4180) when it holds the delimiter,
/// a quote or a line break.
fn csv_field(out: &mut Vec<u8>, field: &[u8], delimiter: u8) {
    let quote = field
        .iter()
        .any(|&b| b == delimiter || matches!(b, b'"' | b'\n' | b'\r'));
    if !quote {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::testdata::EASY;
    use batchdoku_core::{InputFormat, ReadOptions, RecordReader};

    /// `input` read with `keep_written` and written back, each record
    /// given part `part`.
    fn back(input: &str, format: InputFormat, split: bool, part: Option<&'static str>) -> String {
        let options = ReadOptions {
            format,
            keep_written: true,
            ..ReadOptions::default()
        };
        let mut reader = RecordReader::with_options(input.as_bytes(), &options).unwrap();
        let spec = AsWritten {
            layout: reader.layout().clone(),
            split,
        };
        let row = Row {
            split: part.map(Split::Named),
            ..Row::default()
        };
        let (mut record, mut out) = (Record::default(), spec.header());
        while reader.read_record(&mut record).unwrap() {
            spec.encode(&row, &record, &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn csv_gets_a_split_column_under_its_header_whatever_the_row_length() {
        let input = format!("id;quizzes;note\n1;{EASY};\"a;b\"\n2;{EASY}\n3;{EASY};x;extra\n");
        let got = back(&input, InputFormat::Auto, true, Some("te;st"));
        let want = format!(
            "id;quizzes;note;split\n1;{EASY};\"a;b\";\"te;st\"\n2;{EASY};;\"te;st\"\n\
             3;{EASY};x;\"te;st\";extra\n"
        );
        assert_eq!(got, want);
        // Without the column: the input itself.
        assert_eq!(back(&input, InputFormat::Auto, false, Some("test")), input);
    }

    #[test]
    fn json_gets_a_split_key_last_and_lines_stay_as_they_are() {
        let input = format!("{{\"puzzle\": \"{EASY}\", \"n\": [1, {{}}]}} \n");
        let got = back(&input, InputFormat::Auto, true, Some("train"));
        assert_eq!(
            got,
            format!("{{\"puzzle\": \"{EASY}\", \"n\": [1, {{}}],\"split\":\"train\"}} \n")
        );
        let parsed: serde_json::Value = serde_json::from_str(&got).unwrap();
        assert_eq!(parsed["split"], "train");
        let lines = format!("{EASY} id-1\n{}\n", EASY.replace('.', "0"));
        assert_eq!(back(&lines, InputFormat::Auto, true, Some("train")), lines);
    }

    #[test]
    fn extensions_follow_the_layout() {
        let csv = |delimiter| AsWritten {
            layout: InputLayout::Csv {
                delimiter,
                header: None,
                names: Vec::new(),
            },
            split: true,
        };
        assert_eq!(csv(b',').extension(), "csv");
        assert_eq!(csv(b'\t').extension(), "tsv");
        assert!(csv(b',').header().is_empty(), "no header in, none out");
        let lines = AsWritten {
            layout: InputLayout::Lines,
            split: true,
        };
        assert_eq!((lines.extension(), lines.writes_split()), ("txt", false));
    }
}
