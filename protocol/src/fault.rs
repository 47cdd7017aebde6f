//! The closed set of ways a bot can misbehave.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong with a bot. Every fault is recorded in the replay and counted per bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// No valid `hello` answer within the startup time, or the program could not start.
    Startup,
    /// No answer within the decision time plus what was left of the time bank.
    Timeout,
    /// A line that is not JSON, or not an answer of the expected shape.
    Malformed,
    /// An answer whose `id` is not the pending request's.
    WrongId,
    /// An action outside the legal set or its bounds.
    Illegal,
    /// The bot's process exited or closed its stdout during the match.
    Crashed,
    /// A line longer than the protocol's maximum.
    LineTooLong,
    /// A line that is not valid UTF-8.
    InvalidUtf8,
    /// The bot stopped reading its stdin: a message could not be delivered in time.
    StdinBlocked,
}

impl FaultKind {
    pub const ALL: [FaultKind; 9] = [
        FaultKind::Startup,
        FaultKind::Timeout,
        FaultKind::Malformed,
        FaultKind::WrongId,
        FaultKind::Illegal,
        FaultKind::Crashed,
        FaultKind::LineTooLong,
        FaultKind::InvalidUtf8,
        FaultKind::StdinBlocked,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Startup => "startup",
            FaultKind::Timeout => "timeout",
            FaultKind::Malformed => "malformed",
            FaultKind::WrongId => "wrong_id",
            FaultKind::Illegal => "illegal",
            FaultKind::Crashed => "crashed",
            FaultKind::LineTooLong => "line_too_long",
            FaultKind::InvalidUtf8 => "invalid_utf8",
            FaultKind::StdinBlocked => "stdin_blocked",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
