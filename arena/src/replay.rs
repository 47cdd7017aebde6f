//! Replays: one JSON line per record, a versioned header first. A replay holds everything
//! (every seat's cards, swaps, actions, timings, faults, payoffs) and re-simulates exactly.

mod annotate;
mod record;
mod show;
mod verify;
mod writer;

pub use annotate::{DisplayFacts, annotate_line, annotated_line, wild_card};
pub use record::{
    ActionSource, BotRecord, BotStatus, Header, REPLAY_FORMAT, REPLAY_VERSION, Record,
};
pub use show::{Names, describe_event, describe_value, show};
pub use verify::{Verified, VerifyError, verify};
pub use writer::ReplayWriter;

/// Reads a replay file into records, naming the line of any bad record.
pub fn read(path: &std::path::Path) -> anyhow::Result<Vec<Record>> {
    use anyhow::Context;
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read replay {}", path.display()))?;
    parse(&text, &path.display().to_string())
}

/// Parses a replay's text (`source` names it in errors, with the line of a bad record).
pub fn parse(text: &str, source: &str) -> anyhow::Result<Vec<Record>> {
    use anyhow::Context;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line)
                .with_context(|| format!("{source}:{}: not a replay record", i + 1))
        })
        .collect()
}
