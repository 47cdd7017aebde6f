//! One bot seen through the protocol: handshake, buffered notifications, requests with
//! deadlines and a time bank, and the translation of I/O trouble into faults.

use std::time::Duration;

use protocol::{Action, Answer, ArenaMessage, BotHello, FaultKind, Hello, Request};
use tokio::time::Instant;

use super::transcript::Transcript;
use crate::bot::{BotProcess, BotSpec, ExitSummary, ReadError, SpawnError, WriteError};

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
}

impl SeatFault {
    fn new(kind: FaultKind, detail: impl Into<String>, broken: bool) -> SeatFault {
        SeatFault {
            kind,
            detail: detail.into(),
            line: None,
            broken,
        }
    }

    fn with_line(mut self, line: &str) -> SeatFault {
        self.line = Some(excerpt(line));
        self
    }
}

/// An answered request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub action: Action,
    pub elapsed: Duration,
    /// Answers to earlier requests that arrived late and were dropped.
    pub stale_lines: u32,
}

/// A live bot process speaking the protocol.
#[derive(Debug)]
pub struct Connection {
    process: BotProcess,
    /// Lines waiting to be written in one go before the next request (or at `flush`).
    pending: String,
    decision: Duration,
    bank: Duration,
    write_timeout: Duration,
    pub hello: BotHello,
    pub startup: Duration,
    transcript: Option<Transcript>,
}

impl Connection {
    /// Starts the bot and performs the handshake. A program that cannot be started is an
    /// `Err(Ok(SpawnError))`; a bot that starts but fails the handshake is `Err(Err(fault))`.
    pub async fn start(
        spec: &BotSpec,
        hello: &Hello,
        transcript: Option<&std::path::Path>,
    ) -> Result<Connection, Result<SpawnError, SeatFault>> {
        let started = Instant::now();
        let mut transcript = transcript.and_then(|path| match Transcript::create(path) {
            Ok(t) => Some(t),
            Err(e) => {
                tracing::warn!("cannot write the transcript {}: {e}", path.display());
                None
            }
        });
        let mut process = BotProcess::spawn(spec).map_err(Ok)?;
        let startup = Duration::from_millis(hello.time.startup_ms);
        let deadline = started + startup;
        let line = ArenaMessage::Hello(hello.clone()).to_line();
        if let Some(t) = &mut transcript {
            t.sent(&line);
        }
        let fail = |kind, detail: String| Err(SeatFault::new(kind, detail, true));
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
        if let Some(t) = &mut transcript {
            t.received(&answer);
            t.flush();
        }
        let parsed: BotHello = match serde_json::from_str(&answer) {
            Ok(h @ BotHello { .. }) if h.kind == "hello" && !h.name.trim().is_empty() => h,
            _ => {
                return Err(Err(SeatFault::new(
                    FaultKind::Startup,
                    "expected {\"type\":\"hello\",\"name\":\"...\",\"version\":\"...\"}",
                    true,
                )
                .with_line(&answer)));
            }
        };
        Ok(Connection {
            process,
            pending: String::new(),
            transcript,
            decision: Duration::from_millis(hello.time.decision_ms),
            bank: Duration::from_millis(hello.time.bank_ms),
            write_timeout: Duration::from_millis(hello.time.decision_ms.max(1000)),
            hello: parsed,
            startup: started.elapsed(),
        })
    }

    /// Queues a message; it is written with the next request or `flush`.
    pub fn queue(&mut self, message: &ArenaMessage) {
        // serde_json never writes a raw newline inside a JSON value, so lines stay lines.
        self.pending.push_str(&message.to_line());
        self.pending.push('\n');
    }

    /// Writes every queued message.
    pub async fn flush(&mut self) -> Result<(), SeatFault> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut text = std::mem::take(&mut self.pending);
        if let Some(t) = &mut self.transcript {
            t.sent(&text);
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
        self.queue(&ArenaMessage::Request(request.clone()));
        self.flush().await?;
        let sent = Instant::now();
        let deadline = sent + self.decision + self.bank;
        let mut stale_lines = 0;
        loop {
            // Wait in short slices so that a bot whose process has exited is seen as crashed
            // at once, even when a child it forked keeps its stdout open.
            let slice = deadline.min(Instant::now() + EXIT_POLL);
            let line = match self.process.recv_line(slice).await {
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
                    self.bank = Duration::ZERO;
                    return Err(SeatFault::new(
                        FaultKind::Timeout,
                        format!(
                            "no answer to request {} within {} ms",
                            request.id,
                            sent.elapsed().as_millis()
                        ),
                        false,
                    ));
                }
                Err(e) => return Err(self.read_fault(e).await),
            };
            let answer: Answer = match serde_json::from_str(&line) {
                Ok(answer) => answer,
                Err(e) => {
                    // A late answer to an earlier request is dropped, not a fault.
                    if let Some(id) = stale_id(&line)
                        && id < request.id
                    {
                        stale_lines += 1;
                        continue;
                    }
                    return Err(SeatFault::new(
                        FaultKind::Malformed,
                        format!("not an answer: {e}"),
                        false,
                    )
                    .with_line(&line));
                }
            };
            if answer.id < request.id {
                stale_lines += 1;
                continue;
            }
            if answer.id != request.id {
                return Err(SeatFault::new(
                    FaultKind::WrongId,
                    format!(
                        "answer has id {}, the request was {}",
                        answer.id, request.id
                    ),
                    false,
                )
                .with_line(&line));
            }
            let elapsed = sent.elapsed();
            self.bank = self
                .bank
                .saturating_sub(elapsed.saturating_sub(self.decision));
            return Ok(Asked {
                action: answer.action,
                elapsed,
                stale_lines,
            });
        }
    }

    async fn read_fault(&mut self, error: ReadError) -> SeatFault {
        match error {
            ReadError::LineTooLong => SeatFault::new(
                FaultKind::LineTooLong,
                "a line longer than the maximum",
                true,
            ),
            ReadError::InvalidUtf8 => {
                SeatFault::new(FaultKind::InvalidUtf8, "a line that is not UTF-8", true)
            }
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
            t.flush();
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

/// The `id` of a line that is JSON with an integer `id` but not a valid answer.
fn stale_id(line: &str) -> Option<u64> {
    #[derive(serde::Deserialize)]
    struct WithId {
        id: u64,
    }
    serde_json::from_str::<WithId>(line).ok().map(|w| w.id)
}

fn excerpt(line: &str) -> String {
    if line.len() <= LINE_EXCERPT_BYTES {
        return line.to_string();
    }
    let mut end = LINE_EXCERPT_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &line[..end])
}
