//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod pipeline;
mod solve;
