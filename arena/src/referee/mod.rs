//! The referee: runs one match between bot processes, and lends its decision loop to `arena
//! play` and `check-bot`.
//!
//! One loop: ask the seat that must decide, check the answer against `legal()`, apply it, tell
//! every seat what it may see. Faults become an action for the bot (pack, keep or refuse) and a
//! fault record; the match always finishes.

// Two small concerns stay public modules, read with their names: `compare::run` (what
// `arena compare` runs: who wins among hands read from stdin, outside any match) and
// `seeds::from_os` (a fresh secret seed; how seeds derive from it stays the crate's).
pub mod compare;
mod connection;
mod decision_loop;
mod match_config;
mod match_runner;
pub(crate) mod mix_draw;
mod request_ids;
mod result;
pub mod seeds;
mod table;
mod transcript;

pub use connection::{Asked, Connection, SeatFault, excerpt};
pub(crate) use decision_loop::DecisionLoop;
pub use decision_loop::fallback;
pub use match_config::{MatchConfig, SeatConfig, bot_seed, hello_seed, seat_hello_seed};
pub use match_runner::{MatchError, run_match};
pub use result::{BotFailure, MatchResult, SeatResult};
pub(crate) use table::{AfterFault, BotAnswer, HandEnd, Table};
pub use transcript::DEFAULT_MAX_TRANSCRIPT_MB;
