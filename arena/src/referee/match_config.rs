//! Everything that defines one match.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use protocol::{Settings, TimeLimits};
use sandbox::BotSpec;

use crate::watch::LiveMatch;

/// One seat: the bot that plays it.
#[derive(Clone, Debug)]
pub struct SeatConfig {
    /// How to start the bot (its name is the seat's display name).
    pub spec: BotSpec,
    /// The seed of this seat's hello, when the caller chose one (a tournament with
    /// `bot_seeds = "independent"`); `None`: [`bot_seed`] of the match seed and the seat.
    /// Either way it is cut to 53 bits in the hello.
    pub bot_seed: Option<u64>,
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
    /// The live view's feed, when the match is watched (`--watch`): it gets every replay line.
    pub live: Option<Arc<LiveMatch>>,
    /// The largest transcript file, in bytes (its first and last halves are kept).
    pub transcript_max_bytes: u64,
    /// Record in the replay the stderr lines each bot wrote for each decision, at most this
    /// many bytes per seat over the match (and per decision: see
    /// [`sandbox::DecisionStderr`]). Opt-in (`None`: not recorded): they may reveal a
    /// bot's thinking to whoever watches the replay. `arena match` sets it with `--logs`.
    pub decision_stderr: Option<usize>,
}

impl MatchConfig {
    /// Default time limits: 5 s to start, 1 s per decision, a 10 s bank.
    pub const DEFAULT_TIME: TimeLimits = TimeLimits {
        startup_ms: 5000,
        decision_ms: 1000,
        bank_ms: 10_000,
    };
}

/// The seed a seat's bot gets, for its own randomness: reproducible from the match seed and
/// different between seats, but derived one-way (see [`crate::referee::seeds`]) so that a bot cannot
/// work back to the match seed, which would give it every seat's cards.
pub fn bot_seed(match_seed: u64, seat: usize) -> u64 {
    crate::referee::seeds::derive(match_seed, crate::referee::seeds::BOT_SEED, seat as u64)
}

/// The seed in a seat's hello: [`bot_seed`] cut to 53 bits, so that it survives JSON readers
/// that hold numbers as doubles (JavaScript's `JSON.parse`) exactly.
pub fn hello_seed(match_seed: u64, seat: usize) -> u64 {
    bot_seed(match_seed, seat) & ((1 << 53) - 1)
}

/// The seed in the hello of seat `seat` of `config`: the seat's own [`SeatConfig::bot_seed`]
/// if it has one, else [`hello_seed`]; 53 bits either way.
pub fn seat_hello_seed(config: &MatchConfig, seat: usize) -> u64 {
    match config.seats.get(seat).and_then(|s| s.bot_seed) {
        Some(seed) => seed & ((1 << 53) - 1),
        None => hello_seed(config.seed, seat),
    }
}
