//! `--format json`: the [`CorpusReport`] as one pretty-printed JSON
//! object, the machine-readable form of exactly the numbers the pages
//! show (shares and means are `null` when undefined).

use super::summary::CorpusReport;

/// The report as JSON text, ending with a newline.
pub fn render(report: &CorpusReport) -> String {
    // Plain data with string keys and finite numbers: serializing it
    // cannot fail (a non-finite mean would become `null`).
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}
