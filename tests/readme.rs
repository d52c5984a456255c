//! The console examples of `README.md` and `docs/*.md`, run as tests with
//! `trycmd`: each ```` ```console ```` block's `$ batchdoku ...` lines run
//! from the crate root against the built binary, and their output must
//! match the block (`[..]` and `...` elide timings and machine-dependent
//! figures; a `? N` line gives the expected exit code). Shell recipes that
//! are not meant to run (pipes, installs) are ```` ```sh ```` blocks.
//!
//! After a deliberate change of output, `TRYCMD=overwrite cargo test
//! --release --test readme` writes the new output into the documents.
//!
//! The same documents' relative links must lead somewhere: every link to a
//! file names a file or directory of the repository, and every `#anchor`
//! into a Markdown page names one of its headings.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[test]
fn readme_and_docs_examples() {
    trycmd::TestCases::new()
        .register_bin(
            "batchdoku",
            std::path::Path::new(env!("CARGO_BIN_EXE_batchdoku")),
        )
        .case("README.md")
        .case("docs/*.md");
}

/// The pages whose links are checked: the README, `docs/*.md` and the other
/// top-level documents.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = ["README.md", "BENCHMARKS.md", "TESTING.md", "CHANGELOG.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of `text` outside fenced code blocks, with their numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => lines.push((i + 1, line)),
            _ => {}
        }
    }
    lines
}

/// `line` without its inline code spans.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let delimiter = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(delimiter) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (but `-`
/// and `_`), spaces as hyphens; a link's text stands for the link.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").and_then(|mid| {
            rest[open + mid..]
                .find(')')
                .map(|close| (mid, open + mid + close))
        }) {
            Some((mid, close)) => {
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..open + mid]);
                rest = &rest[close + 1..];
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of a Markdown page's headings (a repeated heading's second
/// anchor gets `-1`, and so on).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes + 1..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// The targets of the inline links and images of `line` (`[text](target)`).
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

#[test]
fn links_and_anchors_lead_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((path, anchor)) => (path, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    dir.join(path)
                };
                let place = format!(
                    "{}:{number}: {target}",
                    page.strip_prefix(root).unwrap().display()
                );
                if !file.exists() {
                    broken.push(format!("{place}: no such file"));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if file.extension().is_none_or(|ext| ext != "md") {
                    continue;
                }
                let known = anchors(&std::fs::read_to_string(&file).unwrap());
                if !known.contains(anchor) {
                    broken.push(format!("{place}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the parser right?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(
        slug("Train/validation/test splits without leaks: `batchdoku split`"),
        "trainvalidationtest-splits-without-leaks-batchdoku-split"
    );
    assert_eq!(
        slug("Difficulty columns: `solve --difficulty`"),
        "difficulty-columns-solve---difficulty"
    );
    assert_eq!(
        slug("The summary: `--summary-json PATH`"),
        "the-summary---summary-json-path"
    );
    assert_eq!(
        slug(
            "Ratings (`batchdoku rate`) beside Sudoku Explainer's `serate` (2026-11-26, issue 30)"
        ),
        "ratings-batchdoku-rate-beside-sudoku-explainers-serate-2026-11-26-issue-30"
    );
    let page = "# A\n\n## Input formats\n\n```sh\n# not a heading\n```\n\n### Input formats\n";
    let expected: BTreeSet<String> = ["a", "input-formats", "input-formats-1"]
        .map(String::from)
        .into();
    assert_eq!(anchors(page), expected);
    assert_eq!(
        link_targets("see [a](b.md#c), `[not](a link)` and ![i](docs/x.png \"t\")"),
        ["b.md#c", "docs/x.png"]
    );
}
