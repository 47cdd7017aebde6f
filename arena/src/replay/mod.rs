//! Replays: one JSON line per record, a versioned header first. A replay holds everything
//! (every seat's cards, swaps, actions, timings, faults, payoffs) and re-simulates exactly.

mod annotate;
mod read;
mod record;
mod show;
mod verify;
mod writer;

pub use annotate::{DisplayFacts, annotate_line, annotated_line, wild_card};
pub use read::{ReplayReadError, parse, read};
pub use record::{
    ActionSource, BotRecord, BotStatus, Header, REPLAY_FORMAT, REPLAY_VERSION, Record,
};
pub use show::{Names, describe_event, describe_value, show};
pub use verify::{Verified, VerifyError, verify};
pub use writer::ReplayWriter;
