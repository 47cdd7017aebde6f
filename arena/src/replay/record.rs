//! The records of a replay file.

use protocol::{Action, DecisionKind, FaultKind, MixEntry, Settings, TimeLimits};
use serde::{Deserialize, Serialize};

use crate::referee::MatchResult;

/// The `format` field of every replay header.
pub const REPLAY_FORMAT: &str = "teenpatti-arena-replay";
/// Bumped whenever a record changes meaning. Version 1: this layout. Optional fields added
/// since (absent in older replays, which read as before) do not bump it: a fault's `stderr`,
/// an action's `bank_ms`, `stderr_lines` and `stderr_dropped`.
pub const REPLAY_VERSION: u32 = 1;

/// The first line of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub protocol: u32,
    /// The deal algorithm (see `rules::deck`).
    pub deal: String,
    pub arena_version: String,
    pub settings: Settings,
    pub seed: u64,
    pub hands: u64,
    /// Index of the first hand (deals are derived from the seed and the hand index).
    pub first_hand: u64,
    /// The dealer of the first hand; hand first_hand + k is dealt by seat (first_dealer + k) mod seats.
    pub first_dealer: usize,
    pub time: TimeLimits,
    pub bots: Vec<BotRecord>,
}

/// A seat's bot as configured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub seat: usize,
    pub name: String,
    pub command: Vec<String>,
}

/// Lifecycle of a bot process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotStatus {
    /// Handshake done.
    Started,
    /// Started again after a crash, before hand `hand`.
    Restarted,
    /// Out of restarts: the seat packs every remaining hand.
    Disabled,
    /// Shut down at the end of the match.
    Exited,
}

impl BotStatus {
    /// The status as the replay writes it.
    pub fn name(self) -> &'static str {
        match self {
            BotStatus::Started => "started",
            BotStatus::Restarted => "restarted",
            BotStatus::Disabled => "disabled",
            BotStatus::Exited => "exited",
        }
    }
}

/// Who chose an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionSource {
    /// The bot's answer.
    Bot,
    /// The arena, for a seat that faulted this hand or has no running bot.
    Arena,
}

/// One line of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    Header(Header),
    /// A bot process changed state. Timing fields are wall-clock and vary between runs.
    Bot {
        seat: usize,
        status: BotStatus,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        hand: Option<u64>,
        /// The name and version the bot gave in its hello (started and restarted bots).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        version: Option<String>,
        /// The protocol version the bot's hello claimed (absent if its hello had none).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        protocol: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        elapsed_ms: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        exit: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        stderr_bytes: Option<u64>,
    },
    /// An engine event with full information (`rules::Event`, flattened). Written by
    /// `ReplayWriter::write_event` straight from the `rules::Event` (keys: `type`, `hand`,
    /// `event`, then the event's fields in declaration order) and read back as one.
    Event {
        hand: u64,
        #[serde(flatten)]
        event: rules::Event,
    },
    /// An action applied to the hand.
    Action {
        hand: u64,
        seat: usize,
        kind: DecisionKind,
        #[serde(flatten)]
        action: Action,
        source: ActionSource,
        /// Time the bot took (wall clock); absent for the arena's actions.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        elapsed_ms: Option<u64>,
        /// The bot's time bank left after this decision (wall clock); absent for the arena's
        /// actions and from replays of arenas before it existed.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        bank_ms: Option<u64>,
        /// The bot's mixed answer (`protocol::mix`) that `action` was drawn from: every action
        /// it offered with its probability, as it wrote them. Absent for a plain answer.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        mix: Option<Vec<MixEntry>>,
        /// Only when the match kept logs (`arena match --logs`, a tournament's
        /// `replay_stderr = true`): the stderr lines the seat's
        /// bot wrote since its previous decision was read, up to this one's answer (for an
        /// arena action after a fault: up to the fault). At most 20 lines and 2 KiB per
        /// decision, 256 KiB per seat and match (`sandbox::DecisionStderr`); empty: absent.
        #[serde(skip_serializing_if = "Vec::is_empty", default)]
        stderr_lines: Vec<String>,
        /// Lines written in that span but not kept (past a bound); zero: absent.
        #[serde(skip_serializing_if = "is_zero", default)]
        stderr_dropped: u64,
    },
    /// A bot fault.
    Fault {
        hand: u64,
        seat: usize,
        fault: FaultKind,
        detail: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        line: Option<String>,
        /// For a fault that ended the bot's process (a failed start, a crash): the last lines
        /// of its stderr (at most 20 lines and 4 KiB; `sandbox::excerpt`), if it wrote any.
        /// Absent from replays of arenas before it existed, which read as before.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        stderr: Option<String>,
    },
    /// The last line: the match result.
    Result(MatchResult),
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_record_reads_with_or_without_the_bots_stderr() {
        // As arenas before the `stderr` field wrote it: still read, with no stderr.
        let old = r#"{"type":"fault","hand":3,"seat":1,"fault":"crashed","detail":"the bot exited (exit status: 1)"}"#;
        let Record::Fault { stderr, hand, .. } = serde_json::from_str(old).unwrap() else {
            panic!("a fault record");
        };
        assert_eq!((hand, stderr), (3, None));
        // Written only when there is one, and read back whole.
        let new = Record::Fault {
            hand: 3,
            seat: 1,
            fault: FaultKind::Crashed,
            detail: "the bot exited (exit status: 1)".into(),
            line: None,
            stderr: Some("Traceback (most recent call last):\nKeyError: 'x'".into()),
        };
        let line = serde_json::to_string(&new).unwrap();
        assert!(
            line.ends_with(r#","stderr":"Traceback (most recent call last):\nKeyError: 'x'"}"#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<Record>(&line).unwrap(), new);
        let mut without = new;
        if let Record::Fault { stderr, .. } = &mut without {
            *stderr = None;
        }
        assert!(!serde_json::to_string(&without).unwrap().contains("stderr"));
    }
}

#[cfg(test)]
mod action_tests {
    use super::*;

    #[test]
    fn an_action_record_reads_with_or_without_bank_and_stderr() {
        let old = r#"{"type":"action","hand":0,"seat":1,"kind":"bet","action":"pack","source":"bot","elapsed_ms":3}"#;
        let Record::Action {
            bank_ms,
            stderr_lines,
            stderr_dropped,
            ..
        } = serde_json::from_str(old).unwrap()
        else {
            panic!("an action record");
        };
        assert_eq!((bank_ms, stderr_lines.len(), stderr_dropped), (None, 0, 0));
        let new = r#"{"type":"action","hand":0,"seat":1,"kind":"bet","action":"pack","source":"bot","elapsed_ms":3,"bank_ms":9990,"stderr_lines":["a","b"],"stderr_dropped":4}"#;
        let record: Record = serde_json::from_str(new).unwrap();
        assert_eq!(serde_json::to_string(&record).unwrap(), new);
    }
}
