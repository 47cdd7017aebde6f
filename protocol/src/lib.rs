//! The wire vocabulary between the arena and bots: line-delimited JSON, one object per line.
//!
//! [`PROTOCOL.md`](../PROTOCOL.md) is the specification; this crate is its Rust form. It
//! re-exports what a Rust bot needs from the rules engine (cards, actions, hand evaluation).

pub mod explain;
pub mod fault;
pub mod message;
pub mod mix;
pub mod read;
pub mod wire;

pub use fault::FaultKind;
pub use message::{
    Answer, ArenaMessage, BotHello, FaultNotice, Hello, MatchEnd, Request, TimeLimits,
};
pub use mix::{Choice, MixAnswer, MixEntry, Reply};
pub use rules::{
    Action, Card, DecisionKind, Event, HandDescription, LegalAction, PlayerView, SequenceOrder,
    Settings, UnknownSequenceOrder, UnknownVariant, Variant, describe, hand_value,
};

/// The protocol version this crate speaks. A bot that answers `hello` with a different major
/// version is still run; the arena records what it said.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line a bot may write (bytes, without the newline). Longer lines are a
/// `line_too_long` fault.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
