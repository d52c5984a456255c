//! The per-record work of each command, as [`Job`](crate::pipeline::Job)s
//! the pipeline runs: thin layers over the solver core and the canonical
//! form, and the measures of `analyze`.

mod analyze;
mod canon;
mod classes;
mod dedupe;
mod keys;
mod overlap;
mod rate;
mod score;
mod solve;
mod split;

pub use analyze::AnalyzeJob;
pub use canon::{CanonJob, Equivalence};
pub use classes::ClassMap;
pub use dedupe::{DedupeJob, Pass};
pub use keys::ClassBy;
pub use overlap::OverlapJob;
pub use rate::{RateJob, RateScratch};
pub use score::ScoreJob;
pub use solve::{EngineKind, SolveJob};
pub use split::{SplitJob, Stratify};
