//! Delimiter sniffing: which of comma, semicolon and tab separates the
//! fields of a CSV input whose delimiter is not named, from the lines
//! format detection weighs (no single line decides).

use super::{line_fields, CsvRecord};
use crate::grid::CELLS;
use crate::parse::cell_value;

/// The field delimiters recognised without being named: a comma, and the
/// semicolon and tab that spreadsheets write in many locales.
const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// True for a field that is exactly a grid (81 cells, nothing after): a
/// grid cut at another delimiter is a grid with trailing text, which
/// does not count.
fn is_grid_field(field: &[u8]) -> bool {
    field.len() == CELLS && field.iter().all(|&b| cell_value(b).is_some())
}

/// How well `delimiter` splits `sample`, best first when compared:
/// the lines in which it puts a grid in a field of its own, then the
/// lines (of two fields or more) that have the field count most lines
/// have, then how often it occurs outside quotes.
fn score(sample: &[&[u8]], delimiter: u8) -> (usize, usize, usize) {
    let mut counts = Vec::with_capacity(sample.len());
    let mut with_grid = 0;
    let mut rec = CsvRecord::with_delimiter(delimiter);
    for line in sample {
        let fields = line_fields(&mut rec, line);
        with_grid += usize::from(fields.iter().any(|f| is_grid_field(f)));
        counts.push(fields.len());
    }
    let consistent = counts
        .iter()
        .filter(|&&n| n >= 2)
        .map(|&n| counts.iter().filter(|&&m| m == n).count())
        .max()
        .unwrap_or(0);
    let occurrences = sample.iter().map(|l| unquoted(l, delimiter)).sum();
    (with_grid, consistent, occurrences)
}

/// How often `delimiter` occurs in `line` outside double quotes.
fn unquoted(line: &[u8], delimiter: u8) -> usize {
    let mut quoted = false;
    let mut n = 0;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && b == delimiter {
            n += 1;
        }
    }
    n
}

/// The delimiter of a CSV input from its first meaningful lines
/// (`sample`, the lines format detection weighs; the first may be a
/// header): the one of [`DELIMITERS`] that puts a grid in a field of
/// its own on the most lines, then gives the most lines one field count
/// (two fields or more), then occurs most often outside quotes. A comma
/// on a tie, and when there is none. So a note holding commas in a
/// `;`-separated file does not make it comma-separated, whichever line
/// it is on.
pub(crate) fn sniff_delimiter(sample: &[&[u8]]) -> u8 {
    // max_by_key keeps the last maximum: walk from the end so that the
    // earliest (the comma) wins a tie.
    DELIMITERS
        .iter()
        .rev()
        .max_by_key(|&&d| score(sample, d))
        .map_or(b',', |&d| d)
}
