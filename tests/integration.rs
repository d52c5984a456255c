//! Integration tests: run the real `batchdoku` binary on fixtures.
//!
//! One file per command (`solve`, `score`, `canon`, `dedupe`, `overlap`,
//! `split` (its part files' layout in `split_layout`), `generate`, `report`, `bench`; `--version`, completions and man pages in
//! `cli`), `input` for what every reader shares (formats, compression,
//! encodings, stdin, FIFOs, many inputs), `output` for what every writer
//! shares (formats, `-o`, schemas, write failures), `parquet` for
//! Parquet output and what `-o` infers from a name, `interrupt` for
//! signals, `checkpoint` for resuming a stopped run (`--checkpoint`), `regression` for past findings, each pinned by the test
//! written for it. `fuzz_equiv` runs the fuzz targets' invariants on the
//! library; `pipeline` holds the progress lines and the stop of a stalled
//! reader. Helpers and fixture puzzles: `util`, one copy each.

mod util;

mod bench;
mod canon;
mod checkpoint;
mod cli;
mod dedupe;
mod fuzz_equiv;
mod generate;
mod input;
mod interrupt;
mod output;
mod overlap;
mod parquet;
mod pipeline;
mod rate;
mod readback;
mod regression;
mod report;
mod score;
mod solve;
mod split;
mod split_layout;
