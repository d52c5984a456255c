//! What the binary says about itself: `--version`, shell completions and
//! the man page, all generated from the clap definitions.

use crate::util::*;

/// Every subcommand, as the completions and the man page must name them.
const SUBCOMMANDS: [&str; 11] = [
    "solve",
    "score",
    "analyze",
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

/// The pages a man page refers to (`batchdoku\-solve(1)` in roff): the
/// names of their files (`batchdoku-solve.1`).
fn pages_referred_to(page: &str) -> Vec<String> {
    let mut names: Vec<String> = page
        .split("batchdoku\\-")
        .skip(1)
        .filter_map(|rest| {
            let end = rest.find("(1)")?;
            let name = rest[..end].replace("\\-", "-");
            let word = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            (word && !name.is_empty()).then(|| format!("batchdoku-{name}.1"))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A man page as a roff file: its first request (after the string
/// definitions roff output starts with) is the title, `.TH`.
fn assert_roff_page(name: &str, page: &str) {
    let first = page
        .lines()
        .find(|l| !(l.starts_with(".ie ") || l.starts_with(".el ")))
        .unwrap_or_default();
    assert!(first.starts_with(".TH "), "{name}: starts with {first:?}");
    assert!(page.contains("\n.SH NAME\n"), "{name}: no NAME section");
    assert!(
        page.lines().all(|l| !l.starts_with('.') || l.len() > 1),
        "{name}: an empty request"
    );
}

/// `man --dir DIR`: the main page and every page it refers to, as files
/// (the directory created), each the page `man [COMMAND]` prints, and no
/// temporary file left.
#[test]
fn man_dir_writes_every_page_the_main_page_refers_to() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("share/man/man1");
    let r = run(&["man", "--dir", arg(&dir)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "nothing on stdout");
    let main = std::fs::read_to_string(dir.join("batchdoku.1")).unwrap();
    eqnice!(run(&["man"], None).stdout, main, "batchdoku.1");
    let referred = pages_referred_to(&main);
    for sub in SUBCOMMANDS {
        let name = format!("batchdoku-{sub}.1");
        assert!(referred.contains(&name), "the main page names {name}");
    }
    // None for clap's `help` subcommand: `--help` says it.
    assert!(!referred.contains(&"batchdoku-help.1".to_string()));
    let mut want = referred.clone();
    want.push("batchdoku.1".to_string());
    want.sort();
    assert_eq!(names(&dir), want, "exactly the pages");
    for name in &referred {
        let page = std::fs::read_to_string(dir.join(name)).unwrap();
        assert_roff_page(name, &page);
        let command = name.trim_end_matches(".1");
        eqnice!(run(&["man", command], None).stdout, page, "{name}");
        // A subcommand's own SEE ALSO names only pages that exist too.
        for further in pages_referred_to(&page) {
            assert!(dir.join(&further).exists(), "{name} names {further}");
        }
    }
    assert_roff_page("batchdoku.1", &main);
    assert!(
        r.stderr.contains(&format!("{} pages", want.len())),
        "{}",
        r.stderr
    );
    // Run again: the pages are replaced, nothing else appears.
    let again = run(&["man", "--dir", arg(&dir)], None);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(names(&dir), want);
    // One page or all of them, not both.
    assert_eq!(run(&["man", "solve", "--dir", arg(&dir)], None).code, 2);
}

/// A directory that cannot be written (read-only, or below a regular
/// file) is a fatal error naming it, exit 2, and nothing is left behind.
#[test]
fn man_dir_refuses_an_unwritable_directory() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "plain", b"x");
    let below_file = file.join("man1");
    let r = run(&["man", "--dir", arg(&below_file)], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("man1"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);

    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let ro = tmp.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let Some(mut cmd) = unprivileged(tmp.path()) else {
        return;
    };
    // Read-only, and a directory to create inside a read-only one.
    for dir in [ro.clone(), ro.join("man1")] {
        let out = cmd
            .args(["man", "--dir", arg(&dir)])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", dir.display());
        assert!(stderr.contains(arg(&dir)), "{stderr}");
        assert_eq!(names(&ro), Vec::<String>::new());
        cmd = unprivileged(tmp.path()).unwrap();
    }
}
