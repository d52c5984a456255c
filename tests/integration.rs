//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod bench;
mod corpus;
mod edges;
mod formats;
mod fuzz_equiv;
mod generate;
mod hostile;
mod interrupt;
mod pipeline;
mod score;
mod solve;
