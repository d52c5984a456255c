//! Delimiter sniffing: which of comma, semicolon and tab separates the
//! fields of a CSV input whose delimiter is not named, from its first line.

/// The field delimiters recognised without being named: a comma, and the
/// semicolon and tab that spreadsheets write in many locales.
const DELIMITERS: [u8; 3] = [b',', b';', b'\t'];

/// The delimiter of a CSV input from its first line: the one of
/// [`DELIMITERS`] that occurs most often outside quotes (a comma on a
/// tie, and when there is none).
pub(crate) fn sniff_delimiter(line: &[u8]) -> u8 {
    let mut counts = [0usize; DELIMITERS.len()];
    let mut quoted = false;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted {
            if let Some(i) = DELIMITERS.iter().position(|&d| d == b) {
                counts[i] += 1;
            }
        }
    }
    // max_by_key keeps the last maximum: walk from the end so that the
    // earliest (the comma) wins a tie.
    (0..DELIMITERS.len())
        .rev()
        .max_by_key(|&i| counts[i])
        .map_or(b',', |i| DELIMITERS[i])
}
