//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod bench;
mod cli;
mod corpus;
mod edges;
mod formats;
mod fuzz_equiv;
mod generate;
mod hostile;
mod interrupt;
mod many_inputs;
mod pipeline;
mod report;
mod reported;
mod schema;
mod score;
mod solve;
