//! The referee: runs one match between bot processes.
//!
//! One loop: ask the seat that must decide, check the answer against `legal()`, apply it, tell
//! every seat what it may see. Faults become an action for the bot (pack, keep or refuse) and a
//! fault record; the match always finishes.

mod connection;
mod match_config;
mod match_runner;
pub mod mix_draw;
mod request_ids;
mod result;
mod transcript;

pub use connection::{Asked, Connection, SeatFault, excerpt};
pub use match_config::{MatchConfig, SeatConfig, bot_seed, hello_seed, seat_hello_seed};
pub use match_runner::{MatchError, fallback, run_match};
pub use result::{BotFailure, MatchResult, SeatResult};
pub use transcript::DEFAULT_MAX_TRANSCRIPT_MB;
