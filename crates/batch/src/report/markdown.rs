//! `--format markdown`: the report as Markdown, for a terminal, a README
//! or an issue. Each distribution is a table whose last column is a bar
//! of block characters (the plot a text page can hold).

use std::fmt::Write as _;

use super::summary::CorpusReport;
use super::text::{self, code, count, distributions, percent, share};

/// Widest text bar, in characters.
const BAR_WIDTH: usize = 30;

/// The report as Markdown.
pub fn render(r: &CorpusReport) -> String {
    let mut out = String::new();
    let t = &r.totals;
    let _ = writeln!(out, "# batchdoku report\n");
    let names: Vec<String> = r.run.inputs.iter().map(|i| code(&i.name)).collect();
    let _ = writeln!(out, "{}\n", names.join(", "));
    let _ = writeln!(out, "## Totals\n");
    let _ = writeln!(out, "| | records | share |\n|---|---:|---:|");
    for (name, n) in text::named_totals(t) {
        let _ = writeln!(
            out,
            "| {name} | {} | {} |",
            count(n),
            percent(share(n, t.records))
        );
    }
    if !t.errors.is_empty() {
        let _ = writeln!(out, "\n### Invalid records\n");
        let _ = writeln!(
            out,
            "| record | input | line | error |\n|---:|---|---:|---|"
        );
        for e in &t.errors {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                e.record,
                cell(&e.input),
                e.line,
                cell(&e.message)
            );
        }
        if t.errors_not_shown > 0 {
            let _ = writeln!(
                out,
                "\nand {} more invalid records.",
                count(t.errors_not_shown)
            );
        }
    }
    if let Some(a) = &r.audit {
        let _ = writeln!(out, "\n## Expected solutions\n\n{}\n", text::AUDIT_NOTE);
        let _ = writeln!(out, "| | records | share |\n|---|---:|---:|");
        for (name, n) in text::named_audit(a) {
            let _ = writeln!(
                out,
                "| {name} | {} | {} |",
                count(n),
                percent(share(n, t.records))
            );
        }
        for (title, rows, total, noun) in text::audit_problems(a) {
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "\n### {title}\n\n{}\n\n| record | input:line | puzzle | expected solution | why |\n|---:|---|---|---|---|",
                text::listed(rows.len(), total)
            );
            for e in rows {
                let _ = writeln!(
                    out,
                    "| {} | {}:{} | {} | {} | {} |",
                    e.record,
                    cell(&e.input),
                    e.line,
                    code(&e.puzzle),
                    e.solution.as_deref().map_or_else(|| "–".to_string(), code),
                    cell(&e.why)
                );
            }
            let more = total - rows.len() as u64;
            if more > 0 {
                let _ = writeln!(out, "\nand {} more {noun}.", count(more));
            }
        }
    }
    for d in distributions(r) {
        let _ = writeln!(out, "\n## {}\n\n{}\n", d.title, d.note);
        if d.rows.is_empty() {
            let _ = writeln!(out, "No records.");
            continue;
        }
        let _ = writeln!(out, "| {} | |", d.columns.join(" | "));
        let _ = writeln!(
            out,
            "|{}---|",
            d.columns.iter().map(|_| "---:|").collect::<String>()
        );
        let max = d.values.iter().copied().fold(0.0f64, f64::max);
        let scale = if d.percent { 1.0 } else { max };
        // The rows are the bars with a record, in order (empty bars are
        // left out of tables: see `omitted`).
        let shown = d.values.iter().filter(|&&v| d.percent || v > 0.0);
        for (row, &v) in d.rows.iter().zip(shown) {
            let _ = writeln!(out, "| {} | {} |", row.join(" | "), bar(v, scale));
        }
        if d.omitted > 0 {
            let _ = writeln!(out, "\n{}", text::omitted(d.omitted));
        }
    }
    if let Some(c) = &r.classes {
        let _ = writeln!(out, "\n## Duplicates up to symmetry\n");
        let _ = writeln!(out, "| | records |\n|---|---:|");
        let _ = writeln!(out, "| distinct classes | {} |", count(c.distinct));
        let _ = writeln!(
            out,
            "| duplicates of an earlier record's class | {} |",
            count(c.duplicates)
        );
        let _ = writeln!(out, "| distinct puzzles | {} |", count(c.distinct_puzzles));
        let _ = writeln!(out, "| exact repeats | {} |", count(c.exact_repeats));
        if c.largest.is_empty() {
            let _ = writeln!(out, "\nEvery class has one record.");
        } else {
            let _ = writeln!(
                out,
                "\nLargest classes (each by its canonical form, with two of its records as read and \
                 where they are):\n\n| records | canonical form | examples | input:line |\n|---:|---|---|---|"
            );
            for e in &c.largest {
                let examples = || std::iter::once(&e.example).chain(e.another.as_ref());
                let puzzles: Vec<String> = examples().map(|x| code(&x.puzzle)).collect();
                let places: Vec<String> = examples()
                    .map(|x| format!("{}:{}", cell(&x.input), x.line))
                    .collect();
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    count(e.records),
                    code(&e.canonical),
                    puzzles.join("<br>"),
                    places.join("<br>")
                );
            }
        }
        let _ = writeln!(
            out,
            "\nMemory: the class tables took {}.",
            text::bytes(c.table_bytes)
        );
    }
    let run = &r.run;
    let _ = writeln!(
        out,
        "\n## Run\n\n| input | bytes read | xxh3-64 |\n|---|---:|---|"
    );
    for i in &run.inputs {
        let [read, sum] = text::input_cells(i);
        let _ = writeln!(out, "| {} | {read} | {} |", cell(&i.name), cell(&sum));
    }
    let rate = run
        .records_per_second
        .map_or_else(|| "–".to_string(), |r| count(r.round() as u64));
    let _ = writeln!(
        out,
        "\n{} records in {:.2} s ({rate} records/s) on {} thread{}.\n",
        count(t.records),
        run.seconds,
        run.threads,
        if run.threads == 1 { "" } else { "s" },
    );
    let _ = writeln!(out, "| | |\n|---|---|");
    for (name, value) in text::provenance(run) {
        let _ = writeln!(out, "| {name} | {} |", code(&cell(&value)));
    }
    out
}

/// A text bar of `value / max` of [`BAR_WIDTH`] block characters.
fn bar(value: f64, max: f64) -> String {
    if max <= 0.0 || value <= 0.0 {
        return String::new();
    }
    let eighths = ((value / max) * (BAR_WIDTH * 8) as f64).round().max(1.0) as usize;
    let partial = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push_str(partial[eighths % 8]);
    }
    s
}

/// Text for a table cell: no pipes, line breaks or HTML.
fn cell(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '|' => "\\|".to_string(),
            '\n' | '\r' => " ".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_and_cells_are_escaped() {
        assert_eq!(bar(0.0, 10.0), "");
        assert_eq!(bar(5.0, 0.0), "");
        assert_eq!(bar(10.0, 10.0).chars().count(), BAR_WIDTH);
        assert_eq!(bar(1e-9, 10.0), "▏");
        assert_eq!(cell("a|b\n<c>"), "a\\|b &lt;c&gt;");
    }
}
