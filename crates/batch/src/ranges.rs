//! The values a numeric option accepts, defined once for the `batchdoku`
//! binary's flags and the Python package's arguments, so both refuse the
//! same values with the same message.

/// A numeric option's accepted values, `min..=max`.
///
/// # Example
/// ```
/// use batchdoku_batch::plumbing::Range;
/// assert_eq!(Range::INVARIANT.parse("1000000"), Ok(1_000_000));
/// assert_eq!(Range::INVARIANT.parse("1000001").unwrap_err(), "must be at most 1000000, got 1000001");
/// assert_eq!(Range::AT_LEAST_ONE.check(0).unwrap_err(), "must be at least 1, got 0");
/// assert!(Range::AT_LEAST_ONE.parse("18446744073709551616").is_err()); // 2**64
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The least value.
    pub min: u64,
    /// The greatest value.
    pub max: u64,
}

impl Range {
    /// Worker threads (`-j`, `threads=`).
    pub const THREADS: Range = Range { min: 1, max: 1024 };
    /// Records per batch (`--batch-size`).
    pub const BATCH_SIZE: Range = Range {
        min: 1,
        max: 1_000_000,
    };
    /// A count or a work limit that must be at least 1 (`-k`,
    /// `--node-limit`, `--limit`, `--start`).
    pub const AT_LEAST_ONE: Range = Range {
        min: 1,
        max: u64::MAX,
    };
    /// `rate --invariant`: the random equivalents averaged over (0: none).
    pub const INVARIANT: Range = Range {
        min: 0,
        max: 1_000_000,
    };
    /// `analyze --max-te`: the deepest trial-and-error level tried.
    pub const MAX_TE: Range = Range {
        min: 0,
        max: batchdoku_core::AnalyzeOptions::TE_LIMIT as u64,
    };
    /// `analyze --max-backdoor`: the largest backdoor size tried.
    pub const MAX_BACKDOOR: Range = Range {
        min: 0,
        max: batchdoku_core::AnalyzeOptions::BACKDOOR_LIMIT as u64,
    };
    /// Any 64-bit value (`--seed`).
    pub const ANY: Range = Range {
        min: 0,
        max: u64::MAX,
    };

    /// `value` when it is in range, else why not.
    pub fn check(self, value: i128) -> Result<u64, String> {
        if value < i128::from(self.min) {
            Err(format!("must be at least {}, got {value}", self.min))
        } else if value > i128::from(self.max) {
            Err(format!("must be at most {}, got {value}", self.max))
        } else {
            Ok(value as u64)
        }
    }

    /// The integer `text` (decimal, as a flag's value or Python's `str` of
    /// an `int`, of any size) when it is in range, else why not.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("expected an integer, got {text:?}"));
        }
        match text.parse::<i128>() {
            Ok(value) => self.check(value),
            // Past i128: past every range, on the side of its sign.
            Err(_) if text.starts_with('-') => {
                Err(format!("must be at least {}, got {text}", self.min))
            }
            Err(_) => Err(format!("must be at most {}, got {text}", self.max)),
        }
    }
}
