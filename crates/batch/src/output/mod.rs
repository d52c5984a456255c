//! The output of every command: the row schema ([`schema`]: [`Row`],
//! [`Status`], [`Column`] and each command's column list), the solution
//! path a rated row may carry ([`path`]) and the encoders
//! ([`encode`]: [`RowEncoder`] for CSV, JSON lines and bare solution lines,
//! and the frames of a Parquet output, `cells`, which the sink assembles
//! into a Parquet file with the `parquet` module), and records written
//! back as their input wrote them ([`as_written`]: [`AsWritten`]).
//!
//! Everything is re-exported here, so callers write `output::Row`,
//! `output::RowEncoder` and so on.

pub mod as_written;
pub(crate) mod cells;
pub mod encode;
#[cfg(feature = "parquet")]
pub(crate) mod parquet;
pub mod path;
pub mod schema;

pub use as_written::AsWritten;
pub use encode::{OutputFormat, RowEncoder};
pub use path::{Move, Path, PathStep};
pub use schema::{Column, Expected, Ratings, Row, Split, Status};
pub(crate) use schema::{
    CANON_COLUMNS, DEDUPE_COLUMNS, OVERLAP_COLUMNS, RATE_COLUMNS, SCORE_COLUMNS, SOLVE_COLUMNS,
    SPLIT_COLUMNS,
};

#[cfg(test)]
mod tests;
