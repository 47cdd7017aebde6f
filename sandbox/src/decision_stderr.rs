//! The stderr lines a bot writes around each decision, kept for the replay (only when the
//! match keeps logs: they may reveal a bot's thinking to whoever watches the replay).
//!
//! The drain task feeds every chunk it reads to a [`DecisionStderr`]; the referee takes the
//! lines gathered so far once a decision's answer is read (or its fault handled). So a
//! decision gets the lines that arrived since the previous decision of its seat was taken,
//! up to its own answer. stdout and stderr are two pipes read by two tasks: a line the bot
//! wrote just before its answer may be read after the answer, and then goes with the seat's
//! next decision. No grace period is waited for: that would cost every decision time.
//!
//! Bounded whatever the bot writes: at most [`DECISION_LINES`] lines and [`DECISION_BYTES`]
//! bytes per decision (a line that does not fit is cut, ending in `…`), at most
//! [`SEAT_BUDGET_BYTES`] per seat for the whole match; every line not kept is counted.

use std::sync::{Arc, Mutex};

/// Most lines kept for one decision.
pub const DECISION_LINES: usize = 20;
/// Most bytes of lines kept for one decision.
pub const DECISION_BYTES: usize = 2 * 1024;
/// Most bytes of lines kept for one seat over the whole match (restarts included), by
/// default (`--max-replay-stderr-kb`, a tournament's `replay_stderr_kb`).
pub const SEAT_BUDGET_BYTES: usize = 256 * 1024;

/// The end of a line cut to fit.
const CUT: &str = "\u{2026}";

/// Lines gathered for a seat's pending decision, shared between the drain task of the seat's
/// current process and the referee. Cloning shares it.
#[derive(Clone, Debug)]
pub struct DecisionStderr(Arc<Mutex<Gathered>>);

/// What a decision's bot wrote to stderr, as recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecisionLines {
    pub lines: Vec<String>,
    /// Lines written but not kept (past a bound).
    pub dropped: u64,
}

#[derive(Debug)]
struct Gathered {
    lines: Vec<String>,
    bytes: usize,
    dropped: u64,
    /// The line being written, up to [`DECISION_BYTES`] of it.
    partial: Vec<u8>,
    /// The line being written is longer than `partial`.
    partial_cut: bool,
    budget_left: usize,
}

impl Default for DecisionStderr {
    fn default() -> Self {
        DecisionStderr::with_budget(SEAT_BUDGET_BYTES)
    }
}

impl DecisionStderr {
    /// A collector for one seat with `budget` bytes for the match.
    pub fn with_budget(budget: usize) -> DecisionStderr {
        DecisionStderr(Arc::new(Mutex::new(Gathered {
            lines: Vec::new(),
            bytes: 0,
            dropped: 0,
            partial: Vec::new(),
            partial_cut: false,
            budget_left: budget,
        })))
    }

    /// Adds bytes as read from the pipe (lines may span chunks).
    pub(crate) fn push(&self, chunk: &[u8]) {
        let mut g = self.lock();
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            g.extend_partial(&rest[..end]);
            g.end_line();
            rest = &rest[end + 1..];
        }
        g.extend_partial(rest);
    }

    /// The stream ended (the process is gone): a last line without its newline counts.
    pub(crate) fn end_of_stream(&self) {
        let mut g = self.lock();
        if !g.partial.is_empty() || g.partial_cut {
            g.end_line();
        }
    }

    /// The lines gathered since the last take; the line still being written stays.
    pub fn take(&self) -> DecisionLines {
        let mut g = self.lock();
        g.bytes = 0;
        DecisionLines {
            lines: std::mem::take(&mut g.lines),
            dropped: std::mem::take(&mut g.dropped),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Gathered> {
        // A panic while holding the lock cannot leave the lines inconsistent enough to matter.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Gathered {
    fn extend_partial(&mut self, bytes: &[u8]) {
        let room = DECISION_BYTES - self.partial.len();
        if bytes.len() > room {
            self.partial_cut = true;
        }
        self.partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn end_line(&mut self) {
        let cut = std::mem::take(&mut self.partial_cut);
        let mut raw = std::mem::take(&mut self.partial);
        if !cut && raw.last() == Some(&b'\r') {
            raw.pop();
        }
        let room = (DECISION_BYTES - self.bytes).min(self.budget_left);
        if self.lines.len() >= DECISION_LINES || room <= CUT.len() {
            self.dropped += 1;
            return;
        }
        let mut line = String::from_utf8_lossy(&raw).into_owned();
        if cut || line.len() > room {
            let mut end = line.len().min(room - CUT.len());
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line.truncate(end);
            line.push_str(CUT);
        }
        self.bytes += line.len();
        self.budget_left -= line.len();
        self.lines.push(line);
        // Keep the buffer's allocation for the next line.
        raw.clear();
        self.partial = raw;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_spanning_chunks_are_joined_and_taken_once() {
        let d = DecisionStderr::default();
        d.push(b"thinking about");
        d.push(b" request 1\r\nsec");
        let taken = d.take();
        assert_eq!(taken.lines, ["thinking about request 1"]);
        assert_eq!(taken.dropped, 0);
        d.push(b"ond\n\n");
        assert_eq!(d.take().lines, ["second", ""]);
        assert_eq!(d.take(), DecisionLines::default());
        d.push(b"no newline");
        assert!(d.take().lines.is_empty());
        d.end_of_stream();
        assert_eq!(d.take().lines, ["no newline"]);
    }

    #[test]
    fn a_decision_keeps_at_most_its_lines_and_bytes() {
        let d = DecisionStderr::default();
        for i in 0..100 {
            d.push(format!("line {i}\n").as_bytes());
        }
        let taken = d.take();
        assert_eq!(taken.lines.len(), DECISION_LINES);
        assert_eq!(taken.lines[19], "line 19");
        assert_eq!(taken.dropped, 80);
        // One huge line is cut (at a character boundary), the rest of the bytes dropped.
        let huge = "é".repeat(3000);
        d.push(format!("{huge}\nafter\n").as_bytes());
        let taken = d.take();
        assert_eq!(taken.lines.len(), 1);
        assert!(taken.lines[0].ends_with(CUT));
        assert!(taken.lines[0].len() <= DECISION_BYTES);
        assert!(taken.lines[0].starts_with("éé"));
        assert_eq!(taken.dropped, 1);
        // Invalid UTF-8 is replaced, never refused.
        d.push(b"bad \xff byte\n");
        assert_eq!(d.take().lines, ["bad \u{fffd} byte"]);
    }

    #[test]
    fn the_seat_budget_runs_out() {
        let d = DecisionStderr::with_budget(100);
        let line = "x".repeat(39);
        for _ in 0..3 {
            d.push(format!("{line}\n").as_bytes());
        }
        let taken = d.take();
        assert_eq!(taken.lines.len(), 3);
        assert_eq!(taken.lines[2].len(), 22, "cut to what is left: 100 - 78");
        d.push(b"more\n");
        assert_eq!(
            d.take(),
            DecisionLines {
                lines: vec![],
                dropped: 1
            }
        );
    }
}
