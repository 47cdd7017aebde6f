//! One bot seen through the protocol: handshake, buffered notifications, requests with
//! deadlines and a time bank, and the translation of I/O trouble into faults.

use std::pin::Pin;
use std::time::Duration;

pub use super::request_ids::RequestIds;

use protocol::{
    Action, Answer, ArenaMessage, BotHello, Card, Choice, Event, FaultKind, Hello, LegalAction,
    MixEntry, Reply, Request,
};
use sandbox::{
    BotProcess, BotSpec, DecisionStderr, ExitSummary, ReadError, SpawnError, WriteError,
};
use tokio::time::{Instant, Sleep};

use super::mix_draw::{self, MixDraws};
use super::transcript::Transcript;

/// How often a pending answer's wait checks whether the bot's process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// Longest part of a bad line kept in a fault record.
const LINE_EXCERPT_BYTES: usize = 200;

/// A fault observed on a connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatFault {
    pub kind: FaultKind,
    pub detail: String,
    /// The offending line (cut to 200 bytes), when there was one.
    pub line: Option<String>,
    /// The connection can no longer be used (process gone, stream broken).
    pub broken: bool,
    /// The last lines of the bot's stderr ([`sandbox::StderrSummary::excerpt`]), once its
    /// process has ended: set for a failed handshake by [`Connection::start`], and by whoever
    /// closes a broken connection.
    pub stderr: Option<String>,
}

impl SeatFault {
    fn new(kind: FaultKind, detail: impl Into<String>, broken: bool) -> SeatFault {
        SeatFault {
            kind,
            detail: detail.into(),
            line: None,
            broken,
            stderr: None,
        }
    }

    fn with_line(mut self, line: &str) -> SeatFault {
        self.line = Some(excerpt(line));
        self
    }

    /// The same fault with its line cut to the first 200 bytes.
    pub fn excerpted(mut self) -> SeatFault {
        self.line = self.line.map(|line| excerpt(&line));
        self
    }
}

/// An answered request.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// What the bot answered: an action, or a mix the referee draws one from
    /// ([`Asked::resolve`]).
    pub choice: Choice,
    /// The line the bot sent (the referee quotes it if the action turns out illegal).
    pub line: String,
    pub elapsed: Duration,
    /// Answers to requests that had timed out, which arrived late and were dropped.
    pub stale_lines: u32,
}

impl Asked {
    /// The action to play, drawn from `draws` if the bot answered with a mix, and the mix (to
    /// record). A mix with an action `legal` does not allow is an `illegal` fault, with the
    /// line.
    pub fn resolve(
        &self,
        legal: &[LegalAction],
        draws: &mut MixDraws,
    ) -> Result<(Action, Option<Vec<MixEntry>>), SeatFault> {
        mix_draw::resolve(self.choice.clone(), legal, draws)
            .map_err(|why| SeatFault::new(FaultKind::Illegal, why, false).with_line(&self.line))
    }
}

/// A live bot process speaking the protocol.
#[derive(Debug)]
pub struct Connection {
    process: BotProcess,
    /// Lines waiting to be written in one go before the next request (or at `flush`).
    pending: Vec<u8>,
    decision: Duration,
    bank: Duration,
    write_timeout: Duration,
    pub hello: BotHello,
    pub startup: Duration,
    transcript: Option<Transcript>,
    /// The requests this process was sent, and which of them timed out.
    ids: RequestIds,
    /// Wakes a wait for an answer at least every `EXIT_POLL` (or at its deadline). It stays
    /// armed between requests and is re-armed only once it has fired or would fire too late,
    /// so a decision usually costs no timer registration at all.
    wake: Pin<Box<Sleep>>,
}

impl Connection {
    /// Starts the bot and performs the handshake. A program that cannot be started is an
    /// `Err(Ok(SpawnError))`; a bot that starts but fails the handshake is `Err(Err(fault))`.
    /// `transcript`: where to write one, and its largest size. `decisions`: where to gather
    /// the bot's stderr lines for the replay, when they are kept.
    pub async fn start(
        spec: &BotSpec,
        hello: &Hello,
        transcript: Option<(&std::path::Path, u64)>,
        decisions: Option<DecisionStderr>,
    ) -> Result<Connection, Result<SpawnError, SeatFault>> {
        let started = Instant::now();
        let mut transcript = transcript.and_then(|(path, max_bytes)| {
            Transcript::create(path, max_bytes)
                .inspect_err(|e| {
                    tracing::warn!("cannot write the transcript {}: {e}", path.display())
                })
                .ok()
        });
        let mut process = BotProcess::spawn_gathering(spec, decisions).map_err(Ok)?;
        let parsed = match Self::handshake(&mut process, hello, &mut transcript, started).await {
            Ok(parsed) => parsed,
            Err(mut fault) => {
                // The bot's own words on why it did not start (a missing script, an import
                // error) are on its stderr, readable once it is gone.
                let exit = process.shutdown(Duration::ZERO).await;
                fault.stderr = exit.stderr.excerpt();
                return Err(Err(fault));
            }
        };
        Ok(Connection {
            process,
            pending: Vec::new(),
            transcript,
            ids: RequestIds::default(),
            decision: Duration::from_millis(hello.time.decision_ms),
            bank: Duration::from_millis(hello.time.bank_ms),
            write_timeout: Duration::from_millis(hello.time.decision_ms.max(1000)),
            hello: parsed,
            startup: started.elapsed(),
            wake: Box::pin(tokio::time::sleep_until(Instant::now() + EXIT_POLL)),
        })
    }

    /// Sends the hello and reads the bot's answer to it.
    async fn handshake(
        process: &mut BotProcess,
        hello: &Hello,
        transcript: &mut Option<Transcript>,
        started: Instant,
    ) -> Result<BotHello, SeatFault> {
        let startup = Duration::from_millis(hello.time.startup_ms);
        let deadline = started + startup;
        let line = ArenaMessage::Hello(hello.clone()).to_line();
        if let Some(t) = transcript {
            t.sent(&line);
        }
        let fail = |kind, detail: String| SeatFault::new(kind, detail, true);
        if let Err(e) = process.send_line(&line, deadline).await {
            return Err(fail(
                FaultKind::Startup,
                format!("could not send hello: {e}"),
            ));
        }
        let answer = match process.recv_line(deadline).await {
            Ok(answer) => answer,
            Err(ReadError::Timeout) => {
                return Err(fail(
                    FaultKind::Startup,
                    format!("no hello answer within {} ms", hello.time.startup_ms),
                ));
            }
            Err(e) => {
                let status = process.wait_timeout(Duration::from_millis(100)).await;
                let exit = status.map(|s| format!(" (exit: {s})")).unwrap_or_default();
                return Err(fail(
                    FaultKind::Startup,
                    format!("no hello answer: {e}{exit}"),
                ));
            }
        };
        if let Some(t) = transcript {
            t.received(&answer);
            t.flush();
        }
        let parsed = match BotHello::read(&answer) {
            Ok(hello) => hello,
            Err(e) => {
                return Err(SeatFault::new(
                    FaultKind::Startup,
                    format!("hello refused: {e}"),
                    true,
                )
                .with_line(&answer));
            }
        };
        Ok(parsed)
    }

    /// Queues a message; it is written with the next request or `flush`.
    pub fn queue(&mut self, message: &ArenaMessage) {
        // JSON never holds a raw newline inside a value, so lines stay lines.
        message.write_line(&mut self.pending);
        self.pending.push(b'\n');
    }

    /// Queues an event of hand `hand` (as `queue` would an `ArenaMessage::Event`, without
    /// cloning the event into one).
    pub fn queue_event(&mut self, hand: u64, event: &Event) {
        protocol::wire::write_event(&mut self.pending, hand, event);
        self.pending.push(b'\n');
    }

    /// Queues a message already serialized as one line (without its newline): the referee
    /// serializes an event once for every seat that sees it the same way.
    pub fn queue_line(&mut self, line: &[u8]) {
        debug_assert!(!line.contains(&b'\n'));
        self.pending.extend_from_slice(line);
        self.pending.push(b'\n');
    }

    /// Writes every queued message.
    pub async fn flush(&mut self) -> Result<(), SeatFault> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut text = std::mem::take(&mut self.pending);
        if let Some(t) = &mut self.transcript {
            t.sent(&String::from_utf8_lossy(&text));
        }
        let deadline = Instant::now() + self.write_timeout;
        let result = self.process.send_lines(&text, deadline).await;
        text.clear();
        self.pending = text; // keep the allocation
        result.map_err(write_fault)
    }

    /// Time left in the bank.
    pub fn bank(&self) -> Duration {
        self.bank
    }

    /// Sends the request (after anything queued) and waits for its answer.
    pub async fn ask(&mut self, request: &Request) -> Result<Asked, SeatFault> {
        protocol::wire::write_request(&mut self.pending, request);
        self.pending.push(b'\n');
        self.ids.sent(request.id);
        self.flush().await?;
        let sent = Instant::now();
        let deadline = sent + self.decision + self.bank;
        let mut stale_lines = 0;
        loop {
            // Wait in short slices so that a bot whose process has exited is seen as crashed
            // at once, even when a child it forked keeps its stdout open. The slice's timer
            // is kept from the last wait when it will still fire in time.
            let now = Instant::now();
            let armed = self.wake.deadline();
            if armed <= now || armed > deadline {
                self.wake.as_mut().reset(deadline.min(now + EXIT_POLL));
            }
            let slice = self.wake.deadline();
            let received = tokio::select! {
                biased;
                line = self.process.next_line() => line,
                () = self.wake.as_mut() => Err(ReadError::Timeout),
            };
            let line = match received {
                Ok(line) => {
                    if let Some(t) = &mut self.transcript {
                        t.received(&line);
                    }
                    line
                }
                Err(ReadError::Timeout) if slice < deadline => {
                    if let Some(status) = self.process.try_wait() {
                        return Err(SeatFault::new(
                            FaultKind::Crashed,
                            format!("the bot exited ({status})"),
                            true,
                        ));
                    }
                    continue;
                }
                Err(ReadError::Timeout) => {
                    let bank = self.bank;
                    self.bank = Duration::ZERO;
                    self.ids.timed_out(request.id);
                    return Err(SeatFault::new(
                        FaultKind::Timeout,
                        format!(
                            "no answer to request {} within {} ms ({} ms for the decision and {} ms left in the bank); a late answer with \"id\":{} will be dropped",
                            request.id,
                            sent.elapsed().as_millis(),
                            self.decision.as_millis(),
                            bank.as_millis(),
                            request.id
                        ),
                        false,
                    ));
                }
                Err(e) => return Err(self.read_fault(e).await),
            };
            let choice = match classify(&line, request.id, &self.ids) {
                Classified::Answer(choice) => choice,
                Classified::Stale(id) => {
                    self.ids.answered_late(id);
                    stale_lines += 1;
                    continue;
                }
                Classified::Fault(fault) => return Err(fault),
            };
            let elapsed = sent.elapsed();
            self.bank = self
                .bank
                .saturating_sub(elapsed.saturating_sub(self.decision));
            return Ok(Asked {
                choice,
                line,
                elapsed,
                stale_lines,
            });
        }
    }

    async fn read_fault(&mut self, error: ReadError) -> SeatFault {
        match error {
            ReadError::LineTooLong => SeatFault::new(
                FaultKind::LineTooLong,
                format!(
                    "a line longer than {} bytes (64 KiB, the protocol's limit for a bot's line)",
                    protocol::MAX_LINE_BYTES
                ),
                true,
            ),
            ReadError::InvalidUtf8 => SeatFault::new(
                FaultKind::InvalidUtf8,
                "a line that is not valid UTF-8; write UTF-8 only",
                true,
            ),
            ReadError::Closed | ReadError::Io(_) | ReadError::Timeout => {
                let status = self.process.wait_timeout(Duration::from_millis(200)).await;
                let detail = match status {
                    Some(status) => format!("the bot exited ({status})"),
                    None => format!("the bot closed its stdout ({error})"),
                };
                SeatFault::new(FaultKind::Crashed, detail, true)
            }
        }
    }

    /// Ends the bot: gives it `grace` to exit after the last message, then kills its group.
    pub async fn close(mut self, grace: Duration) -> ExitSummary {
        let _ = self.flush().await;
        if let Some(t) = &mut self.transcript {
            t.finish();
        }
        self.process.shutdown(grace).await
    }
}

fn write_fault(error: WriteError) -> SeatFault {
    match error {
        WriteError::Timeout => SeatFault::new(
            FaultKind::StdinBlocked,
            "the bot stopped reading its input",
            true,
        ),
        WriteError::Closed | WriteError::Io(_) => SeatFault::new(
            FaultKind::Crashed,
            format!("cannot write to the bot: {error}"),
            true,
        ),
    }
}

/// What one line read from a bot means while request `pending_id` waits for its answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Classified {
    /// The answer to the pending request: an action, or a mix to draw one from.
    Answer(Choice),
    /// A late answer to a request of this bot that timed out (or any JSON object with that
    /// `id`): it is dropped and the wait goes on.
    Stale(u64),
    /// Not an answer to the pending request: `malformed` (not JSON, not an answer's shape)
    /// or `wrong_id` (an answer with an id this bot was not asked, or an earlier request's
    /// that was already answered). Never `broken`: the stream is still usable.
    Fault(SeatFault),
}

/// The pure part of [`Connection::ask`]: turns one line (already known to be UTF-8 and
/// within the length limit) into an answer, a dropped late line, or a fault, knowing which
/// requests this bot was sent (`ids`). Never panics, whatever the line.
pub fn classify(line: &str, pending_id: u64, ids: &RequestIds) -> Classified {
    let parsed = match flat_answer(line) {
        Some(answer) => Ok(Reply::Action(answer)),
        None => Reply::read(line),
    };
    let answer = match parsed {
        Ok(answer) => answer,
        Err(e) => {
            // A late answer to a request that timed out is dropped, whatever its shape.
            if let Some(id) = e.id
                && ids.is_late(id)
            {
                return Classified::Stale(id);
            }
            return Classified::Fault(
                SeatFault::new(
                    FaultKind::Malformed,
                    format!("not an answer to request {pending_id}: {e}"),
                    false,
                )
                .with_line(line),
            );
        }
    };
    let id = answer.id();
    if id == pending_id {
        return Classified::Answer(answer.into_choice());
    }
    if ids.is_late(id) {
        return Classified::Stale(id);
    }
    Classified::Fault(
        SeatFault::new(FaultKind::WrongId, ids.explain_wrong(id, pending_id), false)
            .with_line(line),
    )
}

/// The common answer, read by a small scanner (~150 instructions an answer) instead of the
/// full reader [`Answer::read`], which collects every field first to explain a refusal. It takes
/// only a flat object whose values are unescaped strings or unsigned integers, with `id`,
/// `action` and the action's own field (`amount`, `card`) at most once each; other keys are
/// ignored as the protocol says. Anything else (an escape, a nested value, `null`, a duplicate
/// key, not JSON...) is `None` and goes through the full reader, so the scanner only makes
/// the common case fast: every line it accepts, the reader accepts as the same answer
/// (property-tested below).
fn flat_answer(line: &str) -> Option<Answer> {
    let mut scan = Scanner {
        text: line,
        bytes: line.as_bytes(),
        at: 0,
    };
    let (mut id, mut action, mut amount, mut card) = (None, None, None, None);
    scan.skip_space();
    scan.expect(b'{')?;
    scan.skip_space();
    if scan.peek() != Some(b'}') {
        loop {
            let key = scan.string()?;
            scan.skip_space();
            scan.expect(b':')?;
            scan.skip_space();
            let value = scan.value()?;
            let slot = match key {
                "id" => &mut id,
                "action" => &mut action,
                "amount" => &mut amount,
                "card" => &mut card,
                // A mix (even beside an action) is the full reader's to read or refuse.
                "mix" => return None,
                _ => &mut None,
            };
            if slot.replace(value).is_some() {
                return None; // a duplicate key: let the full reader explain it
            }
            scan.skip_space();
            match scan.next()? {
                b',' => scan.skip_space(),
                b'}' => break,
                _ => return None,
            }
        }
    } else {
        scan.next();
    }
    scan.skip_space();
    if scan.at != scan.bytes.len() {
        return None;
    }
    let Some(Value::Number(id)) = id else {
        return None;
    };
    let Some(Value::Text(name)) = action else {
        return None;
    };
    let action = match name {
        "pack" => Action::Pack,
        "see" => Action::See,
        "show" => Action::Show,
        "sideshow" => Action::Sideshow,
        "keep" => Action::Keep,
        "accept" => Action::Accept,
        "refuse" => Action::Refuse,
        "bet" => match amount {
            Some(Value::Number(amount)) => Action::Bet { amount },
            _ => return None,
        },
        "swap" => match card {
            Some(Value::Text(card)) => Action::Swap {
                card: card.parse().ok()?,
            },
            _ => return None,
        },
        _ => return None,
    };
    // The full reader ignores a field of another action whatever its value; the scanner
    // leaves the odd ones (rare) to it rather than judge them.
    if !matches!(action, Action::Bet { .. }) && !matches!(amount, None | Some(Value::Number(_))) {
        return None;
    }
    if !matches!(action, Action::Swap { .. }) {
        match card {
            None => {}
            Some(Value::Text(text)) if text.parse::<Card>().is_ok() => {}
            Some(_) => return None,
        }
    }
    Some(Answer { id, action })
}

/// A value `flat_answer` understands.
#[derive(Clone, Copy)]
enum Value<'a> {
    Number(u64),
    Text(&'a str),
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }

    /// JSON's whitespace: space, tab, newline, carriage return.
    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A string without escapes or control characters (else `None`).
    fn string(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        loop {
            match self.next()? {
                b'"' => break,
                b'\\' | 0..=0x1f => return None,
                _ => {}
            }
        }
        // Cut at ASCII quotes, so on character boundaries of the line.
        self.text.get(start..self.at - 1)
    }

    /// An unescaped string or an unsigned integer without sign, fraction or exponent.
    fn value(&mut self) -> Option<Value<'a>> {
        match self.peek()? {
            b'"' => self.string().map(Value::Text),
            b'0' => {
                self.at += 1;
                (!matches!(self.peek(), Some(b'0'..=b'9' | b'.' | b'e' | b'E')))
                    .then_some(Value::Number(0))
            }
            b'1'..=b'9' => {
                let mut number: u64 = 0;
                while let Some(digit @ b'0'..=b'9') = self.peek() {
                    number = number
                        .checked_mul(10)?
                        .checked_add(u64::from(digit - b'0'))?;
                    self.at += 1;
                }
                (!matches!(self.peek(), Some(b'.' | b'e' | b'E'))).then_some(Value::Number(number))
            }
            _ => None,
        }
    }
}

/// The first 200 bytes of a bot's line (cut on a character boundary, `...` when cut).
pub fn excerpt(line: &str) -> String {
    if line.len() <= LINE_EXCERPT_BYTES {
        return line.to_string();
    }
    let mut end = LINE_EXCERPT_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &line[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The history of a bot whose request `pending - 3` was answered, `pending - 1` timed out
    /// (`pending - 2` went to another seat), and `pending` is being asked.
    fn history(pending: u64) -> RequestIds {
        let mut ids = RequestIds::default();
        if pending >= 3 {
            ids.sent(pending - 3);
        }
        if pending >= 1 {
            ids.sent(pending - 1);
            ids.timed_out(pending - 1);
        }
        ids.sent(pending);
        ids
    }

    /// Checks `classify` against the protocol's rules, whatever the line.
    fn check(line: &str, pending: u64) {
        let ids = history(pending);
        let parsed = Reply::read(line);
        match classify(line, pending, &ids) {
            Classified::Answer(choice) => {
                let answer = parsed.expect("an answer parses as one");
                assert_eq!(answer.id(), pending);
                assert_eq!(answer.into_choice(), choice);
            }
            Classified::Stale(id) => {
                assert!(ids.is_late(id), "stale id {id} for pending {pending}");
                let value: serde_json::Value =
                    serde_json::from_str(line).expect("a stale line is JSON");
                assert!(value.is_object(), "{line}");
            }
            Classified::Fault(fault) => {
                assert!(!fault.broken, "a bad line leaves the stream usable");
                assert!(!fault.detail.is_empty());
                let kept = fault.line.as_deref().expect("the line is recorded");
                assert!(kept.len() <= LINE_EXCERPT_BYTES + 3, "{} bytes", kept.len());
                assert!(line.starts_with(kept.trim_end_matches("...")));
                match fault.kind {
                    FaultKind::WrongId => {
                        let answer = parsed.expect("a wrong id is an answer");
                        assert!(answer.id() != pending && !ids.is_late(answer.id()));
                        assert!(fault.detail.contains(&format!("\"id\":{}", answer.id())));
                    }
                    FaultKind::Malformed => assert!(parsed.is_err(), "{line}"),
                    other => panic!("unexpected fault kind {other} for {line:?}"),
                }
            }
        }
    }

    fn fragment() -> impl Strategy<Value = String> {
        const PIECES: [&str; 36] = [
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            " ",
            "\"id\"",
            "\"action\"",
            "\"amount\"",
            "\"card\"",
            "\"type\"",
            "\"pack\"",
            "\"bet\"",
            "\"swap\"",
            "\"keep\"",
            "\"see\"",
            "\"show\"",
            "\"sideshow\"",
            "\"accept\"",
            "\"refuse\"",
            "\"As\"",
            "\"10d\"",
            "\"Zz\"",
            "null",
            "true",
            "1e400",
            "-0",
            "1.5",
            "\"\\u0000\"",
            "\"\\ud800\"",
            "\u{1F0A1}",
            "\\",
            "\"",
            "0",
            "1",
        ];
        prop_oneof![
            4 => prop::sample::select(&PIECES[..]).prop_map(String::from),
            1 => any::<u64>().prop_map(|n| n.to_string()),
            1 => any::<i64>().prop_map(|n| n.to_string()),
            1 => (0u64..8).prop_map(|n| n.to_string()),
        ]
    }

    fn json_ish() -> impl Strategy<Value = String> {
        prop::collection::vec(fragment(), 0..24).prop_map(|parts| parts.concat())
    }

    /// Objects that are almost answers: ids around the pending one, real and unknown
    /// actions, parameters of the wrong type, extra fields.
    fn near_miss(pending: u64) -> impl Strategy<Value = String> {
        let id = prop_oneof![
            Just(serde_json::json!(pending)),
            Just(serde_json::json!(pending.saturating_sub(1))),
            Just(serde_json::json!(pending.saturating_add(1))),
            Just(serde_json::json!(pending.to_string())),
            Just(serde_json::json!(-1)),
            Just(serde_json::json!(1.5)),
            Just(serde_json::Value::Null),
            any::<u64>().prop_map(|n| serde_json::json!(n)),
        ];
        let action = prop_oneof![
            Just("pack"),
            Just("see"),
            Just("bet"),
            Just("show"),
            Just("sideshow"),
            Just("swap"),
            Just("keep"),
            Just("accept"),
            Just("refuse"),
            Just("fly"),
            Just("PACK"),
            Just(""),
        ];
        let param = prop_oneof![
            Just(None),
            any::<u64>().prop_map(|n| Some(("amount", serde_json::json!(n)))),
            Just(Some(("amount", serde_json::json!(-4)))),
            Just(Some(("amount", serde_json::json!("4")))),
            Just(Some(("card", serde_json::json!("As")))),
            Just(Some(("card", serde_json::json!("1x")))),
            Just(Some(("card", serde_json::json!(7)))),
            Just(Some(("note", serde_json::json!({"deep": [1, 2, 3]})))),
        ];
        (
            prop::option::of(id),
            prop::option::of(action),
            param,
            any::<bool>(),
        )
            .prop_map(|(id, action, param, as_array)| {
                let mut object = serde_json::Map::new();
                if let Some(id) = id {
                    object.insert("id".into(), id);
                }
                if let Some(action) = action {
                    object.insert("action".into(), action.into());
                }
                if let Some((key, value)) = param {
                    object.insert(key.into(), value);
                }
                let value = serde_json::Value::Object(object);
                if as_array {
                    serde_json::json!([value]).to_string()
                } else {
                    value.to_string()
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn any_string_is_classified(line in any::<String>(), pending in 1u64..) {
            check(&line, pending);
        }

        #[test]
        fn json_ish_strings_are_classified(line in json_ish(), pending in 1u64..20) {
            check(&line, pending);
        }

        #[test]
        fn near_miss_answers_are_classified(
            (pending, line) in (1u64..=u64::MAX).prop_flat_map(|p| (Just(p), near_miss(p)))
        ) {
            check(&line, pending);
        }
    }

    /// The generators reach every outcome, so the properties above are not vacuous.
    #[test]
    fn near_misses_reach_every_outcome() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let mut seen = [0u32; 4];
        for _ in 0..2000 {
            let line = near_miss(7).new_tree(&mut runner).unwrap().current();
            let slot = match classify(&line, 7, &history(7)) {
                Classified::Answer(_) => 0,
                Classified::Stale(_) => 1,
                Classified::Fault(f) if f.kind == FaultKind::Malformed => 2,
                Classified::Fault(_) => 3,
            };
            seen[slot] += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 20),
            "answer, stale, malformed, wrong id: {seen:?}"
        );
    }

    /// Every line the fast path accepts, the full `Answer` parse accepts as the same answer.
    #[test]
    fn the_flat_fast_path_agrees_with_the_full_parse() {
        let lines = [
            r#"{"id":5,"action":"bet","amount":4}"#,
            r#"{"action":"bet","amount":4,"id":5}"#,
            r#"{"id":5,"action":"pack","amount":4}"#,
            r#"{"id":5,"action":"pack","card":"As"}"#,
            r#"{"id":5,"action":"pack","card":"Zz"}"#,
            r#"{"id":5,"action":"pack","amount":null,"card":null}"#,
            r#"{"id":5,"action":"bet","amount":4,"card":"As"}"#,
            r#"{"id":5,"action":"bet","amount":null}"#,
            r#"{"id":5,"action":"bet","amount":-4}"#,
            r#"{"id":5,"action":"swap","card":"10d","amount":3}"#,
            r#"{"id":5,"action":"swap","card":null}"#,
            r#"{"id":5,"action":"keep","note":{"deep":[1,2]}}"#,
            r#"{"id":5,"action":"refuse","id":6}"#,
            r#"{"id":5,"action":"p\u0061ck"}"#,
            r#"{"id":5,"action":"Pack"}"#,
            r#"{"id":5.0,"action":"pack"}"#,
            r#"{"id":5,"action":"see"} "#,
            r#"{"id":5,"action":"show"}x"#,
            r#"[5,"pack"]"#,
            r#" { "id" : 5 , "action" : "bet" , "amount" : 4 } "#,
            "{\"id\":5,\t\"action\":\"keep\"}\r",
            r#"{"id":5,"action":"see","note":"été","n":12}"#,
            r#"{"id":0,"action":"see"}"#,
            r#"{"id":05,"action":"see"}"#,
            r#"{"id":5,"action":"bet","amount":18446744073709551615}"#,
            r#"{"id":5,"action":"bet","amount":18446744073709551616}"#,
            r#"{"id":5,"action":"bet","amount":4e0}"#,
            r#"{"id":5,"action":"bet","amount":4-}"#,
            r#"{"id":5,"action":"swap","card":"Zz"}"#,
            r#"{"id":5,"action":"see",}"#,
            r#"{}"#,
        ];
        let mut fast = 0;
        for line in lines {
            let full = Answer::read(line).ok();
            if let Some(answer) = flat_answer(line) {
                assert_eq!(Some(answer), full, "{line}");
                fast += 1;
            }
            check(line, 5);
        }
        assert!(fast >= 12, "the fast path took {fast} lines");
    }

    #[test]
    fn examples() {
        // Request 2 was answered, 3 went to another seat, 4 timed out; 5 is pending.
        let mut ids = RequestIds::default();
        ids.sent(2);
        ids.sent(4);
        ids.timed_out(4);
        ids.sent(5);
        assert_eq!(
            classify(r#"{"id":5,"action":"bet","amount":4}"#, 5, &ids),
            Classified::Answer(Choice::Action(Action::Bet { amount: 4 }))
        );
        assert_eq!(
            classify(r#"{"id":5.0,"action":"bet","amount":4.0}"#, 5, &ids),
            Classified::Answer(Choice::Action(Action::Bet { amount: 4 }))
        );
        // The late answer to the request that timed out: dropped, whatever its shape.
        assert_eq!(
            classify(r#"{"id":4,"action":"pack"}"#, 5, &ids),
            Classified::Stale(4)
        );
        assert_eq!(
            classify(r#"{"id":4,"note":"hi"}"#, 5, &ids),
            Classified::Stale(4)
        );
        let fault = |line: &str| match classify(line, 5, &ids) {
            Classified::Fault(f) => (f.kind, f.detail),
            other => panic!("{line}: {other:?}"),
        };
        // Another seat's request, this bot's answered one, one not sent yet: all wrong ids.
        let (kind, detail) = fault(r#"{"id":3,"action":"pack"}"#);
        assert_eq!(kind, FaultKind::WrongId);
        assert!(
            detail.contains("request 3 was never sent to this bot"),
            "{detail}"
        );
        let (kind, detail) = fault(r#"{"id":2,"action":"pack"}"#);
        assert_eq!(kind, FaultKind::WrongId);
        assert!(
            detail.contains("request 2 was already answered"),
            "{detail}"
        );
        let (kind, detail) = fault(r#"{"id":6,"action":"pack"}"#);
        assert_eq!(kind, FaultKind::WrongId);
        assert!(
            detail.contains("no request with that id was sent yet"),
            "{detail}"
        );
        assert_eq!(fault(r#"{"id":5,"action":"fly"}"#).0, FaultKind::Malformed);
        let (kind, detail) = fault(r#"{"id":5,"action":"bet"}"#);
        assert_eq!(kind, FaultKind::Malformed);
        assert_eq!(
            detail,
            r#"not an answer to request 5: "action":"bet" needs an "amount", e.g. "amount":4"#
        );
        let (_, detail) = fault(r#"{"id":5,"action":"bet","amount":18446744073709551616}"#);
        assert!(
            detail.contains("\"amount\":18446744073709551616 is above"),
            "{detail}"
        );
        assert_eq!(fault(r#"{"id":3,"note":"hi"}"#).0, FaultKind::Malformed);
        assert_eq!(fault(r#"{"action":"pack"}"#).0, FaultKind::Malformed);
        assert_eq!(fault("").0, FaultKind::Malformed);
        assert_eq!(fault(&"[".repeat(10_000)).0, FaultKind::Malformed);
        let long = format!("{}é", "x".repeat(LINE_EXCERPT_BYTES - 1));
        match classify(&long, 5, &ids) {
            Classified::Fault(f) => assert_eq!(
                f.line.unwrap(),
                format!("{}...", "x".repeat(LINE_EXCERPT_BYTES - 1))
            ),
            other => panic!("{other:?}"),
        }
    }
}
