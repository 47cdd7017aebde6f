//! One finished match's result, what standings are computed from. A tournament writes one
//! per line of its results file (`results.jsonl`, `crate::tournament::output`), appended and
//! flushed as soon as the match ends, so that a killed run keeps every finished match.

use std::collections::BTreeMap;

use protocol::FaultKind;
use serde::{Deserialize, Serialize};

/// One finished match, as a line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// Index of the match in the tournament's schedule (stable whatever the order of play).
    pub index: u64,
    /// The duplicate block: matches of one block play the same deals with the seats permuted,
    /// so the luck of the cards cancels within a block.
    pub block: u64,
    /// Bot names in seat order.
    pub seats: Vec<String>,
    pub hands: u64,
    /// Net chips per seat over the match.
    pub net: Vec<i64>,
    /// Hands won per seat.
    pub hands_won: Vec<u64>,
    /// Fault counts per seat.
    pub faults: Vec<BTreeMap<FaultKind, u64>>,
    /// The match's replay file, relative to the output directory.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub replay: Option<String>,
}
