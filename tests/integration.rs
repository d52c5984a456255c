//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod interrupt;
mod pipeline;
mod solve;
