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
