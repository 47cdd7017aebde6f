//! Errors that carry their exit code (the table is in docs/bot-authors.md, "Exit codes").

use std::fmt;

/// The kinds of failure that have their own exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// 1: the arena could not do its job (a bot program missing, a replay that does not
    /// re-simulate, an IO error).
    Failure,
    /// 2: a bad command line or a bad tournament file.
    BadInput,
    /// 3: `arena compare` read bad lines (each got an error line).
    BadLines,
    /// 4: `arena check-bot` found a failing check.
    ChecksFailed,
    /// 5: a bot could not play: `arena match` disabled a seat (out of restarts, or it never
    /// started; the match was still played to the end and its summary and replay written),
    /// or a bot of `arena play` did not start.
    BotDisabled,
    /// 124: `arena run-bot` stopped the bot at one of the arena's limits: its CPU time or
    /// memory, or a stdout line longer than the protocol's cap or not UTF-8.
    BotOverLimit,
    /// 137 (128 + SIGKILL, as a shell reports a killed process): `arena run-bot` killed the
    /// bot, still running when its grace ended after its input or output closed.
    BotKilled,
    /// 130: stopped by SIGINT or SIGTERM; what was finished is saved.
    Interrupted,
}

impl ExitKind {
    pub fn code(self) -> u8 {
        match self {
            ExitKind::Failure => 1,
            ExitKind::BadInput => 2,
            ExitKind::BadLines => 3,
            ExitKind::ChecksFailed => 4,
            ExitKind::BotDisabled => 5,
            ExitKind::BotOverLimit => 124,
            ExitKind::BotKilled => 137,
            ExitKind::Interrupted => 130,
        }
    }
}

/// An error with an exit code.
#[derive(Debug)]
pub struct Exit {
    pub kind: ExitKind,
    pub message: String,
}

impl Exit {
    pub fn new(kind: ExitKind, message: String) -> Exit {
        Exit { kind, message }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}

/// The exit code of a library error: the command layer turns an error of a kind other than
/// [`ExitKind::Failure`] into an [`Exit`] (the library does not know how it is run).
pub trait HasExitKind {
    fn exit_kind(&self) -> ExitKind;
}
