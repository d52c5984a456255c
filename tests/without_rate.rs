//! A build without the `rate` feature (the MIT/Apache build: no LGPL code
//! linked): every command that needs Sudoku Explainer's ratings fails at
//! once with a message naming the feature, and everything else works.
//! CI runs this with `--no-default-features` (see `.ci/run`); in a default
//! build it checks the opposite, that the rater is there.

use std::process::{Command, Output};

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

fn batchdoku(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_batchdoku"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run batchdoku");
    // A command refused at once may exit before it reads: its stdin is
    // then a broken pipe, which is not the test's failure.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// The commands that rate, each as a user would type it.
const RATING_COMMANDS: [&[&str]; 3] = [
    &["rate", "-q", "-"],
    &["report", "--rate", "-q", "--format", "json", "-"],
    &["generate", "--count", "1", "--er", "1.0..2.0", "-q"],
];

#[cfg(not(feature = "rate"))]
#[test]
fn rating_commands_fail_naming_the_feature() {
    for args in RATING_COMMANDS {
        let out = batchdoku(args, &format!("{PUZZLE}\n"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("`rate` feature"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: wrote output");
    }
}

#[cfg(feature = "rate")]
#[test]
fn rating_commands_rate() {
    for args in RATING_COMMANDS {
        let out = batchdoku(args, &format!("{PUZZLE}\n"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// Everything else works either way.
#[test]
fn solving_works_in_every_build() {
    let out = batchdoku(&["solve", "-q", "-k", "2", "-"], &format!("{PUZZLE}\n"));
    assert_eq!(out.status.code(), Some(0));
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().contains(",unique,1,483921657"),
        "{csv}"
    );
}

/// `licenses` says what the build contains.
#[test]
fn the_binary_names_its_licences() {
    let out = batchdoku(&["licenses"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("MIT OR Apache-2.0"), "{text}");
    let combined = "(MIT OR Apache-2.0) AND LGPL-2.1-or-later";
    assert_eq!(text.contains(combined), cfg!(feature = "rate"), "{text}");
    // With the rater, `--full` carries its notice and the licence's text.
    let full = batchdoku(&["licenses", "--full"], "");
    let full = String::from_utf8(full.stdout).unwrap();
    assert_eq!(
        full.contains("GNU LESSER GENERAL PUBLIC LICENSE") && full.contains("Nicolas Juillerat"),
        cfg!(feature = "rate")
    );
}
