//! `batchdoku licenses`: what this binary is made of and under which
//! licence, and where the complete source of its LGPL part is. With
//! `--full`, the texts: the rater's NOTICE and the LGPL-2.1 itself.

use crate::cli::args::LicensesArgs;
use crate::cli::exit::Exit;

/// What every build contains.
const OWN: &str = "\
batchdoku's own code (the binary and the crates batchdoku-core and batchdoku-batch) is
MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE). Its dependencies from crates.io keep their own
permissive licences (MIT, Apache-2.0, BSD, Zlib, Unicode; `cargo deny list` shows each).
";

/// What a build with the `rate` feature adds.
#[cfg(feature = "rate")]
const RATER: &str = "
This build also contains batchdoku-rate, Sudoku Explainer's ratings (`rate`, `report --rate`,
`generate --er`), licensed LGPL-2.1-or-later: it is a derivative work of Sudoku Explainer 1.2.1,
Copyright (C) 2006-2007 Nicolas Juillerat (LGPL-2.1). Its complete source is the crate
batchdoku-rate (crates/rate in batchdoku's source, with its NOTICE, CHANGES.md and
LICENSE-LGPL-2.1). You may rebuild this binary from source with a modified rater
(`cargo build --release`), or without it (`cargo build --release --no-default-features
--features zstd,simd`). The binary as a whole: (MIT OR Apache-2.0) AND LGPL-2.1-or-later.
`batchdoku licenses --full` prints the rater's notice and the LGPL's text.
";

/// What a build without the `rate` feature says.
#[cfg(not(feature = "rate"))]
const RATER: &str = "
This build leaves out batchdoku-rate (Sudoku Explainer's ratings, LGPL-2.1-or-later): it is
MIT OR Apache-2.0 as a whole, and `rate`, `report --rate` and `generate --er` are unavailable.
";

/// Runs `licenses`.
pub fn run(args: &LicensesArgs) -> anyhow::Result<Exit> {
    let text = format!("batchdoku {}\n\n{OWN}{RATER}", crate::cli::args::VERSION);
    super::print_stdout(text.as_bytes())?;
    #[cfg(feature = "rate")]
    if args.full {
        let texts = format!(
            "\n---- batchdoku-rate: NOTICE ----\n\n{}\n---- batchdoku-rate: LICENSE-LGPL-2.1 ----\n\n{}",
            batchdoku_rate::NOTICE,
            batchdoku_rate::LICENSE
        );
        super::print_stdout(texts.as_bytes())?;
    }
    #[cfg(not(feature = "rate"))]
    let _ = args.full;
    Ok(Exit::Ok)
}
