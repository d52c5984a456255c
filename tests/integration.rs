//! Integration tests: run the real `batchdoku` binary on fixtures.

mod util;

mod formats;
mod interrupt;
mod pipeline;
mod score;
mod solve;
