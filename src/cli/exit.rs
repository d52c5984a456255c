//! The process's exit codes, in one place (the project's contract, listed
//! in `--help` and docs/exit-codes.md): how a run ended, as a value every command
//! returns and `main` turns into the process's [`ExitCode`].

use std::process::ExitCode;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: every record processed, none invalid (unsolvable puzzles are
    /// results, not errors).
    Ok,
    /// 1: finished, some records invalid (for `overlap`: or some test
    /// record leaks).
    Invalid,
    /// 2: usage error, unreadable input, unwritable output.
    Fatal,
    /// 130 (128 + SIGINT): interrupted by Ctrl-C.
    Interrupted,
    /// 143 (128 + SIGTERM): terminated (`timeout`, docker, systemd).
    Terminated,
    /// 128 + N: stopped by another terminating signal N (SIGHUP: 129,
    /// SIGQUIT: 131, SIGABRT sent by `kill`: 134, ...).
    Signal(u8),
}

impl Exit {
    /// The numeric exit code.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Invalid => 1,
            Exit::Fatal => 2,
            Exit::Interrupted => 130,
            Exit::Terminated => 143,
            Exit::Signal(n) => 128u8.saturating_add(n),
        }
    }

    /// Whether a signal ended the run (130, 143, 128 + N): it did not
    /// finish, and kept no output.
    pub const fn is_signal(self) -> bool {
        matches!(self, Exit::Interrupted | Exit::Terminated | Exit::Signal(_))
    }

    /// `Invalid` when a finished run found what its command reports as a
    /// failure (invalid records, leaks); any other ending is kept.
    pub const fn or_invalid(self, failed: bool) -> Exit {
        match self {
            Exit::Ok if failed => Exit::Invalid,
            other => other,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

impl From<Exit> for i32 {
    fn from(exit: Exit) -> i32 {
        i32::from(exit.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_documented_ones() {
        let all = [
            (Exit::Ok, 0),
            (Exit::Invalid, 1),
            (Exit::Fatal, 2),
            (Exit::Interrupted, 128 + 2),
            (Exit::Terminated, 128 + 15),
            (Exit::Signal(1), 128 + 1),
            (Exit::Signal(3), 128 + 3),
        ];
        for (exit, code) in all {
            assert_eq!(i32::from(exit), code, "{exit:?}");
        }
    }

    #[test]
    fn signals_are_told_from_finished_runs() {
        assert!(Exit::Interrupted.is_signal() && Exit::Terminated.is_signal());
        assert!(Exit::Signal(1).is_signal());
        assert!(!Exit::Ok.is_signal() && !Exit::Invalid.is_signal() && !Exit::Fatal.is_signal());
    }

    #[test]
    fn only_a_clean_finish_becomes_invalid() {
        assert_eq!(Exit::Ok.or_invalid(true), Exit::Invalid);
        assert_eq!(Exit::Ok.or_invalid(false), Exit::Ok);
        assert_eq!(Exit::Invalid.or_invalid(false), Exit::Invalid);
        assert_eq!(Exit::Interrupted.or_invalid(true), Exit::Interrupted);
        assert_eq!(Exit::Terminated.or_invalid(true), Exit::Terminated);
        assert_eq!(Exit::Fatal.or_invalid(true), Exit::Fatal);
    }
}
