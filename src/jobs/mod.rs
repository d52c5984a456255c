//! The per-record work of each command, as [`Job`](crate::pipeline::Job)s
//! the pipeline runs: thin layers over the solver core.

mod score;
mod solve;

pub use score::ScoreJob;
pub use solve::{EngineKind, SolveJob};
