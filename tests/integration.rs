//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod bench;
mod corpus;
mod formats;
mod fuzz_equiv;
mod generate;
mod hostile;
mod interrupt;
mod pipeline;
mod report;
mod score;
mod solve;
