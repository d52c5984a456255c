//! `--format html`: the report as one self-contained page. Inline CSS and
//! inline SVG plots only: no script, no web font, nothing fetched, so the
//! file can be mailed, archived or opened offline. The layout is one
//! column on a phone and plot-beside-table on a laptop; tables show every
//! row (a wide one scrolls sideways, never down); printing keeps each
//! section on one page where it fits.

use std::fmt::Write as _;

use super::summary::CorpusReport;
use super::text::{self, count, distributions, percent, share};

const CSS: &str = "\
*{box-sizing:border-box}\
body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#1d232b;background:#fff}\
main{max-width:68rem;margin:0 auto;padding:1.25rem 1rem 3rem}\
h1{font-size:1.6rem;margin:0 0 .25rem}\
h2{font-size:1.2rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid #d8dde3}\
h3{font-size:1rem;margin:1.25rem 0 .4rem}\
p{margin:.4rem 0}\
.sub{color:#56606b}\
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.6rem;margin:.75rem 0}\
.card{border:1px solid #d8dde3;border-radius:6px;padding:.45rem .7rem}\
.card b{display:block;font-size:1.35rem;font-variant-numeric:tabular-nums}\
.card span{color:#56606b;font-size:.85rem}\
.dist{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1rem;align-items:start}\
figure{margin:0}\
figure svg{display:block;width:100%;height:auto}\
.scroll{overflow-x:auto}\
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9rem}\
th,td{padding:.2rem .6rem;border-bottom:1px solid #e6e9ed;text-align:right;vertical-align:top}\
th{background:#f4f6f8;position:sticky;top:0}\
.l{text-align:left}\
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere}\
footer{margin-top:2.5rem;color:#56606b;font-size:.85rem}\
@media (max-width:48rem){.dist{grid-template-columns:1fr}main{padding:1rem .6rem 2rem}}\
@media print{body{font-size:10.5pt}main{max-width:none;padding:0}.scroll{overflow:visible}\
th{position:static}section{break-inside:avoid-page}.dist{grid-template-columns:3fr 2fr}}";

/// The report as an HTML page.
pub fn render(r: &CorpusReport) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let names: Vec<String> = r.run.inputs.iter().map(|i| escape(&i.name)).collect();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>batchdoku report: {}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n",
        names.join(", ")
    );
    let _ = writeln!(
        out,
        "<header><h1>batchdoku report</h1><p class=\"sub\">{}</p></header>",
        names
            .iter()
            .map(|n| format!("<code>{n}</code>"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    totals(&mut out, r);
    audit(&mut out, r);
    for d in distributions(r) {
        let _ = writeln!(
            out,
            "<section id=\"{}\">\n<h2>{}</h2>\n<p>{}</p>\n<div class=\"dist\">",
            d.id,
            escape(d.title),
            rich(&d.note)
        );
        let svg = d.svg();
        let label = format!("<svg role=\"img\" aria-label=\"{}\" ", escape(d.title));
        let _ = writeln!(out, "<figure>{}</figure>", svg.replacen("<svg ", &label, 1));
        if d.rows.is_empty() {
            out.push_str("<p>No records.</p>\n");
        } else {
            let head: Vec<(&str, bool)> = d.columns.iter().map(|c| (*c, false)).collect();
            out.push_str("<div>\n");
            table(&mut out, &head, &d.rows);
            if d.omitted > 0 {
                let _ = writeln!(
                    out,
                    "<p class=\"sub\">{}</p>",
                    escape(&text::omitted(d.omitted))
                );
            }
            out.push_str("</div>\n");
        }
        out.push_str("</div>\n</section>\n");
    }
    classes(&mut out, r);
    run(&mut out, r);
    let _ = writeln!(
        out,
        "<footer>Made by batchdoku {} ({}) on {}: one pass, counting solutions to two with \
         the difficulty columns of <code>solve -k 2 --rate</code>.</footer>\n</main>\n</body>\n</html>",
        escape(r.run.version),
        escape(r.run.commit),
        escape(&r.run.date_utc)
    );
    out
}

fn totals(out: &mut String, r: &CorpusReport) {
    let t = &r.totals;
    out.push_str("<section id=\"totals\">\n<h2>Totals</h2>\n<div class=\"cards\">\n");
    for (name, n) in text::named_totals(t) {
        let of = if name == "records" {
            String::new()
        } else {
            format!(" · {}", escape(&percent(share(n, t.records))))
        };
        let _ = writeln!(
            out,
            "<div class=\"card\"><b>{}</b><span>{name}{of}</span></div>",
            count(n)
        );
    }
    out.push_str("</div>\n");
    if t.errors.is_empty() {
        out.push_str("<p>No invalid records.</p>\n");
    } else {
        let _ = writeln!(
            out,
            "<h3>Invalid records</h3>\n<p>The first {} of {}:</p>",
            t.errors.len(),
            count(t.invalid)
        );
        let rows: Vec<Vec<String>> = t
            .errors
            .iter()
            .map(|e| {
                vec![
                    e.record.to_string(),
                    format!("<code>{}</code>", escape(&e.input)),
                    e.line.to_string(),
                    escape(&e.message),
                ]
            })
            .collect();
        let head = [
            ("record", false),
            ("input", true),
            ("line", false),
            ("error", true),
        ];
        table_raw(out, &head, &rows);
        if t.errors_not_shown > 0 {
            let _ = writeln!(
                out,
                "<p>and {} more invalid records.</p>",
                count(t.errors_not_shown)
            );
        }
    }
    out.push_str("</section>\n");
}

fn audit(out: &mut String, r: &CorpusReport) {
    let Some(a) = &r.audit else {
        return;
    };
    let records = r.totals.records;
    let _ = writeln!(
        out,
        "<section id=\"audit\">\n<h2>Expected solutions</h2>\n<p>{}</p>\n<div class=\"cards\">",
        rich(text::AUDIT_NOTE)
    );
    for (name, n) in text::named_audit(a) {
        let _ = writeln!(
            out,
            "<div class=\"card\"><b>{}</b><span>{} · {}</span></div>",
            count(n),
            escape(name),
            escape(&percent(share(n, records)))
        );
    }
    out.push_str("</div>\n");
    for (title, rows, total, noun) in text::audit_problems(a) {
        if rows.is_empty() {
            let _ = writeln!(out, "<p>No {noun}.</p>");
            continue;
        }
        let _ = writeln!(
            out,
            "<h3>{title}</h3>\n<p>{}</p>",
            text::listed(rows.len(), total)
        );
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|e| {
                vec![
                    e.record.to_string(),
                    format!("<code>{}</code>:{}", escape(&e.input), e.line),
                    format!("<code>{}</code>", escape(&e.puzzle)),
                    e.solution.as_deref().map_or_else(
                        || "–".to_string(),
                        |s| format!("<code>{}</code>", escape(s)),
                    ),
                    escape(&e.why),
                ]
            })
            .collect();
        table_raw(
            out,
            &[
                ("record", false),
                ("input:line", true),
                ("puzzle", true),
                ("expected solution", true),
                ("why", true),
            ],
            &cells,
        );
        let more = total - rows.len() as u64;
        if more > 0 {
            let _ = writeln!(out, "<p>and {} more {noun}.</p>", count(more));
        }
    }
    out.push_str("</section>\n");
}

fn classes(out: &mut String, r: &CorpusReport) {
    let Some(c) = &r.classes else {
        return;
    };
    out.push_str("<section id=\"classes\">\n<h2>Duplicates up to symmetry</h2>\n");
    out.push_str(
        "<p>Two puzzles are in one class when a symmetry of the grid (relabelling digits, \
         swapping rows, columns, bands or stacks, transposing) maps one to the other: they \
         have one canonical form.</p>\n<div class=\"cards\">\n",
    );
    for (name, n) in [
        ("distinct classes", c.distinct),
        ("duplicates (same class as an earlier record)", c.duplicates),
        ("distinct puzzles", c.distinct_puzzles),
        ("exact repeats", c.exact_repeats),
    ] {
        let _ = writeln!(
            out,
            "<div class=\"card\"><b>{}</b><span>{name}</span></div>",
            count(n)
        );
    }
    out.push_str("</div>\n");
    if c.largest.is_empty() {
        out.push_str("<p>Every class has one record.</p>\n");
    } else {
        out.push_str(
            "<h3>Largest classes</h3>\n<p>Each class by its canonical form, with two of its \
             records as read and where they are.</p>\n",
        );
        let rows: Vec<Vec<String>> = c
            .largest
            .iter()
            .map(|e| {
                let examples = || std::iter::once(&e.example).chain(e.another.as_ref());
                vec![
                    count(e.records),
                    format!("<code>{}</code>", escape(&e.canonical)),
                    examples()
                        .map(|x| format!("<code>{}</code>", escape(&x.puzzle)))
                        .collect::<Vec<_>>()
                        .join("<br>"),
                    examples()
                        .map(|x| format!("<code>{}</code>:{}", escape(&x.input), x.line))
                        .collect::<Vec<_>>()
                        .join("<br>"),
                ]
            })
            .collect();
        table_raw(
            out,
            &[
                ("records", false),
                ("canonical form", true),
                ("examples", true),
                ("input:line", true),
            ],
            &rows,
        );
    }
    let _ = writeln!(
        out,
        "<p class=\"sub\">Memory: the class tables took {} (a 16-byte key and the class's \
         counts per class, a key per distinct puzzle, in hash tables at most seven eighths \
         full).</p>\n</section>",
        text::bytes(c.table_bytes)
    );
}

fn run(out: &mut String, r: &CorpusReport) {
    let run = &r.run;
    out.push_str("<section id=\"run\">\n<h2>Run</h2>\n");
    let rows: Vec<Vec<String>> = run
        .inputs
        .iter()
        .map(|i| {
            let [read, sum] = text::input_cells(i);
            vec![
                format!("<code>{}</code>", escape(&i.name)),
                escape(&read),
                format!("<code>{}</code>", escape(&sum)),
            ]
        })
        .collect();
    table_raw(
        out,
        &[("input", true), ("bytes read", false), ("xxh3-64", true)],
        &rows,
    );
    let rate = run
        .records_per_second
        .map_or_else(|| "–".to_string(), |v| count(v.round() as u64));
    let _ = writeln!(
        out,
        "<p>{} records in {:.2} s ({rate} records/s) on {} thread{}.</p>",
        count(r.totals.records),
        run.seconds,
        run.threads,
        if run.threads == 1 { "" } else { "s" },
    );
    out.push_str("<div class=\"scroll\"><table>\n<tbody>\n");
    for (name, value) in text::provenance(run) {
        let _ = writeln!(
            out,
            "<tr><th class=\"l\">{}</th><td class=\"l\"><code>{}</code></td></tr>",
            escape(name),
            escape(&value)
        );
    }
    out.push_str("</tbody></table></div>\n</section>\n");
}

/// A table of plain-text cells (escaped here).
fn table(out: &mut String, head: &[(&str, bool)], rows: &[Vec<String>]) {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| escape(c)).collect())
        .collect();
    table_raw(out, head, &rows);
}

/// A table of cells already in HTML; `head` gives each column's name and
/// whether it is left-aligned text.
fn table_raw(out: &mut String, head: &[(&str, bool)], rows: &[Vec<String>]) {
    out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for (name, left) in head {
        let class = if *left { " class=\"l\"" } else { "" };
        let _ = write!(out, "<th{class}>{}</th>", escape(name));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (cell, (_, left)) in row.iter().zip(head) {
            let class = if *left { " class=\"l\"" } else { "" };
            let _ = write!(out, "<td{class}>{cell}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// Note text, whose `` `code` `` spans (see [`text::code`]) become
/// `<code>` elements; everything else is escaped.
fn rich(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 32);
    let mut parts = s.split('`');
    if let Some(first) = parts.next() {
        out.push_str(&escape(first));
    }
    let rest: Vec<&str> = parts.collect();
    for pair in rest.chunks(2) {
        match pair {
            [inside, after] => {
                let _ = write!(out, "<code>{}</code>{}", escape(inside), escape(after));
            }
            // An unpaired backtick: the text after it, as text.
            [after] => out.push_str(&escape(after)),
            _ => {}
        }
    }
    out
}

/// Escapes text for HTML content and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_become_code_elements() {
        assert_eq!(
            rich("the `guesses` column of `solve <x>`."),
            "the <code>guesses</code> column of <code>solve &lt;x&gt;</code>."
        );
        assert_eq!(rich("no spans"), "no spans");
        assert_eq!(rich("odd ` one"), "odd  one");
        assert!(!rich(&format!("weights {}", text::code("a`b"))).contains('`'));
    }

    /// Tables show every row: a box scrolls sideways for a wide table,
    /// never down (a box cut off mid-row hid rows without saying so).
    #[test]
    fn tables_are_never_cut_off_in_height() {
        assert!(CSS.contains(".scroll{overflow-x:auto}"));
        assert!(!CSS.contains("max-height:2"));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
