//! Everything that defines one match.

use std::path::PathBuf;
use std::time::Duration;

use protocol::{Settings, TimeLimits};

use crate::bot::BotSpec;

/// One seat: the bot that plays it.
#[derive(Clone, Debug)]
pub struct SeatConfig {
    /// How to start the bot (its name is the seat's display name).
    pub spec: BotSpec,
}

/// One match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub settings: Settings,
    pub hands: u64,
    /// Deals come from this seed (see `rules::deck`); bots get seeds derived from it.
    pub seed: u64,
    /// Hand index of the first hand (duplicate and sharded runs reuse deals by index).
    pub first_hand: u64,
    pub first_dealer: usize,
    pub seats: Vec<SeatConfig>,
    pub time: TimeLimits,
    /// Restarts allowed per seat after a crash before it packs every remaining hand.
    pub max_restarts: u32,
    /// Time a bot gets to exit after `match_end` before its group is killed.
    pub exit_grace: Duration,
    /// Where to write the replay, if anywhere.
    pub replay: Option<PathBuf>,
    /// A directory for per-seat transcripts of everything said with each bot, if wanted.
    pub transcripts: Option<PathBuf>,
}

impl MatchConfig {
    /// Default time limits: 5 s to start, 1 s per decision, a 10 s bank.
    pub const DEFAULT_TIME: TimeLimits = TimeLimits {
        startup_ms: 5000,
        decision_ms: 1000,
        bank_ms: 10_000,
    };
}

/// The seed a seat's bot gets in its hello: SplitMix64 of the match seed and the seat, so
/// that bots' own randomness is reproducible and differs between seats.
pub fn bot_seed(match_seed: u64, seat: usize) -> u64 {
    let mut z = match_seed.wrapping_add((seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed in a seat's hello: [`bot_seed`] cut to 53 bits, so that it survives JSON readers
/// that hold numbers as doubles (JavaScript's `JSON.parse`) exactly.
pub fn hello_seed(match_seed: u64, seat: usize) -> u64 {
    bot_seed(match_seed, seat) & ((1 << 53) - 1)
}
