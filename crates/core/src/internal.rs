//! What the other batchdoku crates (the rater, the batch run, the binary
//! and the Python binding) need of the core beyond its documented API:
//! the grid's tables and the parsers' internals. Hidden from the
//! documentation and not covered by semver: depend on the documented
//! items instead.

pub use crate::grid::{UnitKind, BOX_OF, CELLS, COL_OF, PEERS, ROW_OF, UNITS};
pub use crate::names::parse_name;
