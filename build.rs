//! Build script: sets `BATCHDOKU_VERSION`, the version `--version` prints:
//! the package version and, when the crate is built from its own git
//! checkout, the short commit (`0.1.0 (1a2b3c4)`). Without git, or when
//! the crate is not the top of a git work tree (a packaged crate unpacked
//! inside some other repository), it is the package version alone.
//! Also sets `BATCHDOKU_COMMIT`, that short commit alone or `unknown`
//! (what `report` records as its provenance).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = commit(&manifest_dir);
    let full = match &commit {
        Some(commit) => format!("{version} ({commit})"),
        None => version,
    };
    println!("cargo:rustc-env=BATCHDOKU_VERSION={full}");
    println!(
        "cargo:rustc-env=BATCHDOKU_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    println!("cargo:rerun-if-changed=build.rs");
}

/// Runs `git -C dir ARGS` and returns its trimmed stdout on success.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The short commit of `dir`'s checkout, when `dir` is its top level. Also
/// asks Cargo to rerun this script when HEAD moves (the files that exist:
/// a path that does not exist would rerun it on every build).
fn commit(dir: &Path) -> Option<String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same(Path::new(&top), dir) {
        return None;
    }
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(head_ref) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(head_ref);
    }
    for name in watched {
        if let Some(path) = git(dir, &["rev-parse", "--git-path", &name]) {
            let path = dir.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    git(dir, &["rev-parse", "--short", "HEAD"])
}
