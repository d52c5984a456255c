//! What the binary says about itself: `--version`, shell completions and
//! the man page, all generated from the clap definitions.

use crate::util::*;

/// Every subcommand, as the completions and the man page must name them.
const SUBCOMMANDS: [&str; 10] = [
    "solve",
    "score",
    "canon",
    "dedupe",
    "overlap",
    "split",
    "bench",
    "generate",
    "completions",
    "man",
];

#[test]
fn version_names_the_package_version() {
    let r = run(&["--version"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let want = format!("batchdoku {}", env!("CARGO_PKG_VERSION"));
    let got = r.stdout_str();
    assert!(
        got.starts_with(&want),
        "{got:?} does not start with {want:?}"
    );
    // Anything after the version is the commit in parentheses.
    let rest = got[want.len()..].trim_end();
    assert!(
        rest.is_empty() || (rest.starts_with(" (") && rest.ends_with(')')),
        "{got:?}"
    );
}

#[test]
fn completions_for_every_shell_name_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let r = run(&["completions", shell], None);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        let script = r.stdout_str();
        assert!(script.contains("batchdoku"), "{shell}: {script}");
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completions lack {sub}");
        }
        // A flag of the shared run flags, flattened into every command.
        assert!(
            script.contains("summary-json"),
            "{shell}: no --summary-json"
        );
    }
    let r = run(&["completions", "tcsh"], None);
    assert_eq!(r.code, 2, "an unknown shell is a usage error");
}

#[test]
fn man_page_is_roff_naming_the_subcommands() {
    let r = run(&["man"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = r.stdout_str();
    assert!(page.contains(".TH"), "{page}");
    assert!(page.to_lowercase().contains("batchdoku"), "{page}");
    for sub in SUBCOMMANDS {
        assert!(page.contains(sub), "the man page lacks {sub}");
    }
}

#[test]
fn every_subcommand_has_the_page_the_main_page_refers_to() {
    for sub in SUBCOMMANDS {
        let r = run(&["man", sub], None);
        assert_eq!(r.code, 0, "{sub}: {}", r.stderr);
        let page = r.stdout_str();
        assert!(page.contains(".TH"), "{sub}: {page}");
        let name = format!("batchdoku\\-{sub}");
        assert!(page.contains(&name), "{sub}: no {name} in {page}");
    }
    let r = run(&["man", "solve"], None);
    assert!(r.stdout_str().contains("count\\-limit"), "solve's flags");
    assert_eq!(run(&["man", "nosuch"], None).code, 2);
}
