//! The output of every command: the row schema ([`schema`]: [`Row`],
//! [`Status`], [`Column`] and each command's column list) and the encoders
//! ([`encode`]: [`RowEncoder`] for CSV, JSON lines and bare solution lines,
//! and the frames of a Parquet output, `cells`, which the sink assembles
//! into a Parquet file with the `parquet` module).
//!
//! Everything is re-exported here, so callers write `output::Row`,
//! `output::RowEncoder` and so on.

pub(crate) mod cells;
pub mod encode;
#[cfg(feature = "parquet")]
pub(crate) mod parquet;
pub mod schema;

pub use encode::{OutputFormat, RowEncoder};
pub use schema::{Column, Expected, Ratings, Row, Split, Status};
pub(crate) use schema::{
    ANALYZE_COLUMNS, ANALYZE_HEAD, CANON_COLUMNS, DEDUPE_COLUMNS, OVERLAP_COLUMNS, RATE_COLUMNS,
    SCORE_COLUMNS, SOLVE_COLUMNS, SPLIT_COLUMNS,
};

#[cfg(test)]
mod tests;
