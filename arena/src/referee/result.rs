//! What a match produced: per seat chips, wins and faults.

use std::collections::BTreeMap;

use protocol::FaultKind;
use serde::{Deserialize, Serialize};

/// One seat's result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    pub seat: usize,
    pub name: String,
    /// Net chips over the match.
    pub net: i64,
    pub hands_won: u64,
    pub faults: BTreeMap<FaultKind, u64>,
    pub restarts: u32,
    /// Decisions the bot answered itself.
    pub decisions: u64,
    /// Total wall-clock time of those decisions (varies between runs).
    pub decision_ms: u64,
    /// Handshakes the seat's bot completed (its first start and restarts). Like the
    /// fields below, for the summaries of the match just played: not in replays, whose `bot`
    /// and `fault` records say the same.
    #[serde(skip)]
    pub starts: u32,
    /// Times the seat's bot failed to start or stopped working (faults that ended its
    /// process).
    #[serde(skip)]
    pub failures: u32,
    /// The last of them, with the end of its stderr.
    #[serde(skip)]
    pub last_failure: Option<BotFailure>,
    /// The hand before which the seat was disabled (out of restarts): the arena played it
    /// from there on.
    #[serde(skip)]
    pub disabled_before_hand: Option<u64>,
}

/// A bot that failed to start or stopped working, as its owner is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotFailure {
    pub hand: u64,
    pub kind: FaultKind,
    pub detail: String,
    /// The last lines of its stderr, if it wrote any.
    pub stderr: Option<String>,
    /// The stderr log of that process (kept after the match only with `--logs`).
    pub log: std::path::PathBuf,
}

impl BotFailure {
    /// `startup fault: <detail>`.
    pub fn reason(&self) -> String {
        format!("{} fault: {}", self.kind, self.detail)
    }
}

impl SeatResult {
    pub fn fault_total(&self) -> u64 {
        self.faults.values().sum()
    }
}

/// A finished match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    pub game: String,
    pub hands: u64,
    pub seed: u64,
    pub seats: Vec<SeatResult>,
    /// Net chips per seat, hand by hand.
    pub hand_payoffs: Vec<Vec<i64>>,
}

impl MatchResult {
    pub fn chips_per_hand(&self, seat: usize) -> f64 {
        if self.hands == 0 {
            0.0
        } else {
            self.seats[seat].net as f64 / self.hands as f64
        }
    }
}
