//! Writes a replay as the match goes: one line per record, buffered, flushed at the end of
//! every hand so that a killed run keeps what it played. With `--watch` each line also goes to
//! the match's live feed (`crate::watch`).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use rules::Event;

use protocol::wire;

use super::record::{ActionSource, Record};
use crate::watch::LiveMatch;

pub struct ReplayWriter {
    out: Option<BufWriter<File>>,
    /// The live view's feed of this match, when it is watched.
    live: Option<Arc<LiveMatch>>,
    /// The line being written, reused from one record to the next.
    line: Vec<u8>,
    /// Bytes written so far (a joining live viewer reads that much of the file).
    written: u64,
}

impl ReplayWriter {
    /// A writer to `path`, or one that discards everything.
    pub fn create(path: Option<&Path>) -> io::Result<ReplayWriter> {
        let out = match path {
            Some(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    crate::console::output::create_dir_all(dir)?;
                }
                // Every seat's cards, live: the arena's user's only.
                Some(BufWriter::new(crate::console::output::create_private(
                    path,
                )?))
            }
            None => None,
        };
        Ok(ReplayWriter {
            out,
            live: None,
            line: Vec::new(),
            written: 0,
        })
    }

    /// Also sends every line to `live`'s viewers (a watched match; its replay must be this
    /// writer's file, which its viewers read the match so far from).
    pub fn with_live(mut self, live: Option<Arc<LiveMatch>>) -> ReplayWriter {
        self.live = live;
        self
    }

    pub fn is_enabled(&self) -> bool {
        self.out.is_some() || self.live.is_some()
    }

    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        if !self.is_enabled() {
            return Ok(());
        }
        if let Record::Action { .. } = record {
            // One per decision: written by hand, as serde would (tested below).
            action_line(&mut self.line, record);
        } else {
            self.line.clear();
            serde_json::to_writer(&mut self.line, record)?;
            self.line.push(b'\n');
        }
        self.emit()
    }

    /// Writes the line built in `self.line` to the file, and to the live feed's viewers if
    /// there are any (one atomic load otherwise).
    fn emit(&mut self) -> io::Result<()> {
        if let Some(out) = &mut self.out {
            out.write_all(&self.line)?;
        }
        self.written += self.line.len() as u64;
        if let Some(live) = &self.live
            && live.is_watched()
        {
            let (out, written) = (&mut self.out, self.written);
            live.publish(&self.line, || {
                if let Some(out) = out {
                    out.flush()?;
                }
                Ok(written)
            })?;
        }
        Ok(())
    }

    /// Writes `Record::Event { hand, event }`, the same record as [`ReplayWriter::write`] would
    /// (it reads back equal), without going through a `serde_json::Value`: the event is
    /// serialized once, straight into the line. Its keys come in declaration order
    /// (`type`, `hand`, `event`, then the event's fields) rather than a `Value`'s
    /// alphabetical order.
    pub fn write_event(&mut self, hand: u64, event: &Event) -> io::Result<()> {
        if !self.is_enabled() {
            return Ok(());
        }
        event_line(&mut self.line, hand, event);
        self.emit()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        if let Some(out) = &mut self.out {
            out.flush()?;
        }
        Ok(())
    }
}

/// Puts the line of a `Record::Action` (newline included) into `line`: the bytes serde writes
/// for it, keys in declaration order with the action flattened.
fn action_line(line: &mut Vec<u8>, record: &Record) {
    let Record::Action {
        hand,
        seat,
        kind,
        action,
        source,
        elapsed_ms,
        bank_ms,
        mix,
        stderr_lines,
        stderr_dropped,
    } = record
    else {
        unreachable!("only called for actions");
    };
    line.clear();
    line.extend_from_slice(b"{\"type\":\"action\",\"hand\":");
    wire::write_number(line, *hand);
    line.extend_from_slice(b",\"seat\":");
    wire::write_number(line, *seat as u64);
    line.extend_from_slice(b",\"kind\":");
    wire::write_decision_kind(line, *kind);
    line.push(b',');
    wire::write_action_fields(line, action);
    line.extend_from_slice(match source {
        ActionSource::Bot => b",\"source\":\"bot\"",
        ActionSource::Arena => b",\"source\":\"arena\"",
    });
    if let Some(ms) = elapsed_ms {
        line.extend_from_slice(b",\"elapsed_ms\":");
        wire::write_number(line, *ms);
    }
    if let Some(ms) = bank_ms {
        line.extend_from_slice(b",\"bank_ms\":");
        wire::write_number(line, *ms);
    }
    if let Some(mix) = mix {
        // Only for bots that answer with mixes: serde writes the probabilities (shortest
        // round-trip form), so the record reads back exactly.
        line.extend_from_slice(b",\"mix\":");
        serde_json::to_writer(&mut *line, mix).expect("mix entries serialize");
    }
    if !stderr_lines.is_empty() {
        // Only when logs are kept: not the hot path, serde's escaping is fine.
        line.extend_from_slice(b",\"stderr_lines\":");
        serde_json::to_writer(&mut *line, stderr_lines).expect("strings serialize");
    }
    if *stderr_dropped > 0 {
        line.extend_from_slice(b",\"stderr_dropped\":");
        wire::write_number(line, *stderr_dropped);
    }
    line.extend_from_slice(b"}\n");
}

/// Puts the replay line of `event` (newline included) into `line`. A replay's event line is
/// the protocol's event message with the event whole, so the protocol's hand-written writer
/// serves both (it writes what serde would, in declaration order).
fn event_line(line: &mut Vec<u8>, hand: u64, event: &Event) {
    line.clear();
    protocol::wire::write_event(line, hand, event);
    line.push(b'\n');
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rules::{Action, Hand, Settings, Variant};

    use super::*;

    #[test]
    fn action_lines_are_what_serde_writes() {
        use rules::DecisionKind;
        let card = "Td".parse().unwrap();
        let actions = [
            Action::Pack,
            Action::See,
            Action::Show,
            Action::Sideshow,
            Action::Keep,
            Action::Accept,
            Action::Refuse,
            Action::Bet { amount: 0 },
            Action::Bet { amount: 7 },
            Action::Bet { amount: u64::MAX },
            Action::Swap { card },
        ];
        let mut line = Vec::new();
        let mut count = 0;
        for (i, action) in actions.into_iter().enumerate() {
            for kind in [
                DecisionKind::Swap,
                DecisionKind::Bet,
                DecisionKind::SideshowReply,
            ] {
                for (source, elapsed_ms, bank_ms, stderr_lines, stderr_dropped) in [
                    (ActionSource::Bot, Some(0), Some(10_000), vec![], 0),
                    (
                        ActionSource::Bot,
                        Some(123_456),
                        Some(0),
                        vec!["thinking \"hard\"\t\u{1}é".to_string(), String::new()],
                        3,
                    ),
                    (ActionSource::Arena, None, None, vec![], 7),
                ] {
                    let record = Record::Action {
                        hand: [0, 9, 1 << 40][i % 3],
                        seat: i % 17,
                        kind,
                        action,
                        source,
                        elapsed_ms,
                        bank_ms,
                        // Some records with a mix (odd probabilities: they must round-trip).
                        mix: (i % 4 == 1).then(|| {
                            vec![
                                protocol::MixEntry {
                                    action,
                                    p: 1.0 / 3.0,
                                },
                                protocol::MixEntry {
                                    action: Action::Pack,
                                    p: 0.1 + 0.2,
                                },
                            ]
                        }),
                        stderr_lines,
                        stderr_dropped,
                    };
                    action_line(&mut line, &record);
                    let expected = serde_json::to_string(&record).unwrap() + "\n";
                    assert_eq!(String::from_utf8(line.clone()).unwrap(), expected);
                    let back: Record = serde_json::from_str(&expected).unwrap();
                    assert_eq!(back, record);
                    count += 1;
                }
            }
        }
        assert_eq!(count, 99);
    }

    fn record(hand: u64, event: &Event) -> Record {
        Record::Event {
            hand,
            event: event.clone(),
        }
    }

    /// A small deterministic generator for choosing legal actions.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// Seeded hands of every variant played with random legal actions: every event, whole.
    fn sample_events() -> Vec<(u64, Event)> {
        let mut rng = Lcg(7);
        let mut all = Vec::new();
        for variant in Variant::ALL {
            for hand_index in 0..120u64 {
                let seats = 2 + (hand_index as usize % 5);
                let settings = Settings {
                    pot_limit: [40, 1024][hand_index as usize % 2],
                    max_turns: [8, 500][hand_index as usize / 2 % 2],
                    ..Settings::new(variant)
                };
                let dealer = hand_index as usize % seats;
                let (mut hand, mut events) =
                    Hand::seeded(settings, seats, dealer, 99, hand_index).unwrap();
                loop {
                    all.extend(events.drain(..).map(|e| (hand_index, e)));
                    let Some(decision) = hand.to_act() else { break };
                    let legal = hand.legal();
                    let entry = &legal[rng.below(legal.len() as u64) as usize];
                    let action = entry.instance(|n| rng.below(n));
                    events = hand.apply(decision.seat, action).expect("legal");
                }
            }
        }
        all
    }

    #[test]
    fn an_event_line_is_the_records_serde_line_and_reads_back() {
        let events = sample_events();
        let kinds: BTreeSet<String> = events.iter().map(|(_, e)| e.name().to_string()).collect();
        // Every kind of event is in the sample.
        let all = [
            "hand_started",
            "dealt",
            "dead",
            "redeal",
            "saw",
            "swapped",
            "kept",
            "bet",
            "packed",
            "show_asked",
            "sideshow_asked",
            "sideshow_refused",
            "sideshow_compared",
            "revealed",
            "hand_ended",
        ];
        assert_eq!(
            kinds,
            all.map(String::from).into(),
            "the kinds of event in the sample"
        );

        let mut line = Vec::new();
        for (hand, event) in events.iter().chain(&[(u64::MAX, events[0].1.clone())]) {
            event_line(&mut line, *hand, event);
            let text = std::str::from_utf8(&line).unwrap();
            let body = text.strip_suffix('\n').expect("a line ends with a newline");
            assert!(!body.contains('\n'), "one line per record: {text}");
            let prefix = format!(
                "{{\"type\":\"event\",\"hand\":{hand},\"event\":\"{}\"",
                event.name()
            );
            assert!(body.starts_with(&prefix), "{body}");
            // Byte for byte what serde writes for the record, and read back as it.
            let expected = record(*hand, event);
            assert_eq!(body, serde_json::to_string(&expected).unwrap());
            let back: Record = serde_json::from_str(body).unwrap();
            assert_eq!(back, expected, "{body}");
        }
    }

    #[test]
    fn a_replay_file_of_events_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("replay.jsonl");
        let events: Vec<(u64, Event)> = sample_events().into_iter().take(400).collect();
        let mut writer = ReplayWriter::create(Some(&path)).unwrap();
        for (hand, event) in &events {
            writer.write_event(*hand, event).unwrap();
        }
        writer.flush().unwrap();
        drop(writer);
        let records = crate::replay::read(&path).unwrap();
        let expected: Vec<Record> = events.iter().map(|(h, e)| record(*h, e)).collect();
        assert_eq!(records, expected);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), events.len());
    }

    #[test]
    fn a_writer_without_a_file_writes_nothing() {
        let mut writer = ReplayWriter::create(None).unwrap();
        assert!(!writer.is_enabled());
        let (_, events) = Hand::seeded(Settings::new(Variant::Classic), 2, 0, 1, 0).unwrap();
        writer.write_event(0, &events[0]).unwrap();
        assert!(writer.line.is_empty());
    }
}
