//! The console examples of `README.md` and `docs/*.md`, run as tests with
//! `trycmd`: each ```` ```console ```` block's `$ batchdoku ...` lines run
//! from the crate root against the built binary, and their output must
//! match the block (`[..]` and `...` elide timings and machine-dependent
//! figures; a `? N` line gives the expected exit code). Shell recipes that
//! are not meant to run (pipes, installs) are ```` ```sh ```` blocks.
//!
//! After a deliberate change of output, `TRYCMD=overwrite cargo test
//! --release --test readme` writes the new output into the documents.

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
