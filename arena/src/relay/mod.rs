//! `arena run-bot`: one bot started exactly as a match starts it ([`BotProcess`]: the sandbox
//! level, a cleared environment, its own process group and cgroup, rlimits, seccomp, bwrap),
//! its lines relayed between the arena's own stdin and stdout and the bot's, its stderr passed
//! on to the arena's stderr as it comes. For programs that want the arena's sandbox around a
//! bot without linking the arena (the Python package's `teenpatti.Subprocess`).
//!
//! Both directions run at once: a bot that writes without reading, or reads without writing,
//! stalls neither. The arena's own stdin and stdout are read and written on threads of their
//! own (a blocking read of a descriptor the arena does not own must not keep it from exiting,
//! which tokio's `stdin` would do until the caller writes again).
//!
//! Bounded whatever the bot does: a stdout line is at most the spec's cap (a longer one, or
//! one that is not UTF-8, ends the bot, as it is a fault in a match); a few lines wait for a
//! caller that does not read, and then the bot's stdout is not read either (it blocks, as on a
//! pipe); stderr goes through a short queue that drops what an unread stderr cannot take
//! ([`StderrRelay`]).
//!
//! The end, whichever comes first: the bot exits (its last lines are passed on); the arena's
//! stdin closes or its stdout's reader goes (the bot's stdin is closed, and it has a grace
//! period to exit on its own); SIGINT or SIGTERM (the bot is killed at once); a line past the
//! rules (killed at once). Then, always, the bot's whole group and cgroup are killed and
//! reaped, as at the end of a match ([`BotProcess::shutdown`]). [`Outcome::code`] is the exit
//! status: the bot's own, or one of the arena's (`exit.rs`).

use std::fs::File;
use std::io::{self, BufRead, Write};
use std::os::fd::AsFd;
use std::os::unix::process::ExitStatusExt;
use std::time::Duration;

use sandbox::{BotProcess, BotSpec, ExitSummary, ReadError, SandboxLevel, SpawnError, StderrRelay};
use tokio::io::AsyncWriteExt;
use tokio::process::ChildStdin;
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, MissedTickBehavior, sleep_until, timeout, timeout_at};
use tokio_util::sync::CancellationToken;

use crate::console::exit::ExitKind;

/// Lines of the caller's input queued for the bot (each read whole: the caller is trusted).
const INPUT_QUEUE: usize = 64;
/// Lines of the bot's output queued for a caller that reads slowly. With the line cap, a
/// bound on the arena's memory: past it the bot's stdout waits.
const OUTPUT_QUEUE: usize = 16;
/// Most bytes written in one go, in either direction, when several lines are queued.
const BLOCK_BYTES: usize = 64 * 1024;
/// How often the bot's leader is checked for having exited (its stdout may stay open, held by
/// a child it left).
const EXIT_POLL: Duration = Duration::from_millis(50);
/// After the bot exited, how long its last lines may take to arrive (a descendant may hold
/// its stdout open).
const LAST_LINES: Duration = Duration::from_millis(200);
/// At the end, how long the last lines may take to be written to the caller (one that does
/// not read any more is not waited for longer).
const FLUSH_PATIENCE: Duration = Duration::from_secs(2);

/// Why the relay ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The bot exited on its own (its leader did), or within its grace.
    BotExited,
    /// The arena's stdin closed: the caller is done. The bot's grace ran out.
    InputClosed,
    /// The arena's stdout could not be written: its reader has gone. The bot's grace ran out.
    OutputClosed,
    /// SIGINT or SIGTERM.
    Interrupted,
    /// The bot's stdout broke the rules of a line (too long, not UTF-8) or could not be read.
    BadLine(ReadError),
}

/// How a relay ended, and how the bot did.
#[derive(Debug)]
pub struct Outcome {
    pub ending: Ending,
    pub exit: ExitSummary,
    /// What it ran under, for the messages.
    pub sandbox: SandboxLevel,
    pub cpu_seconds: Option<u64>,
    pub memory_bytes: Option<u64>,
    pub max_line_bytes: usize,
    pub grace: Duration,
}

impl Outcome {
    /// The exit status of `arena run-bot`: the bot's own exit code, 128 + the signal that
    /// ended it (as a shell says), or the arena's: 124 (a limit: CPU time, memory, a line),
    /// 137 (killed when its grace ran out), 130 (interrupted), 1 (its stdout unreadable).
    pub fn code(&self) -> u8 {
        self.verdict().0
    }

    /// What the arena says at the end, when the bot did not simply exit or its end was the
    /// arena's doing.
    pub fn message(&self) -> Option<String> {
        self.verdict().1
    }

    fn verdict(&self) -> (u8, Option<String>) {
        const SIGKILL: i32 = 9;
        const SIGXCPU: i32 = 24;
        let over_limit = ExitKind::BotOverLimit.code();
        let everything = "stopped it and everything it started";
        match &self.ending {
            Ending::Interrupted => return (ExitKind::Interrupted.code(), None),
            Ending::BadLine(ReadError::LineTooLong) => {
                return (
                    over_limit,
                    Some(format!(
                        "the bot wrote a stdout line longer than {} bytes (the protocol's \
                         limit): {everything}",
                        self.max_line_bytes
                    )),
                );
            }
            Ending::BadLine(ReadError::InvalidUtf8) => {
                return (
                    over_limit,
                    Some(format!(
                        "the bot wrote a stdout line that is not UTF-8: {everything}"
                    )),
                );
            }
            Ending::BadLine(e) => {
                return (
                    ExitKind::Failure.code(),
                    Some(format!("cannot read the bot's stdout ({e}): {everything}")),
                );
            }
            Ending::BotExited | Ending::InputClosed | Ending::OutputClosed => {}
        }
        let usage = self.exit.cgroup_usage.as_ref();
        let cpu = || {
            let limit = self
                .cpu_seconds
                .map_or(String::new(), |s| format!(" ({s} s, --cpu-seconds)"));
            Some(format!(
                "the bot went over its CPU time limit{limit}: {everything}"
            ))
        };
        if usage.is_some_and(|u| u.cpu_limit_hit) {
            return (over_limit, cpu());
        }
        if self.exit.killed_by_arena {
            let closed = match self.ending {
                Ending::OutputClosed => "the reader of its stdout went",
                _ => "its stdin closed",
            };
            return (
                ExitKind::BotKilled.code(),
                Some(format!(
                    "the bot was still running {} ms after {closed}: killed it and everything \
                     it started",
                    self.grace.as_millis()
                )),
            );
        }
        let Some(status) = self.exit.status else {
            return (
                ExitKind::Failure.code(),
                Some("the bot could not be reaped in time; its exit status is unknown".into()),
            );
        };
        // Under bwrap the leader is bwrap, which reports a bot ended by signal S as 128 + S.
        let signal = status.signal().or_else(|| {
            let code = status.code()?;
            (self.sandbox == SandboxLevel::Bwrap && code > 128).then(|| code - 128)
        });
        match signal {
            Some(SIGXCPU) => (over_limit, cpu()),
            Some(SIGKILL) if usage.is_some_and(|u| u.memory_limit_hit) => {
                let limit = self.memory_bytes.map_or(String::new(), |b| {
                    format!(" ({} MiB, --memory-mb)", b >> 20)
                });
                (
                    over_limit,
                    Some(format!(
                        "the bot went over its memory limit{limit} and was killed"
                    )),
                )
            }
            Some(signal) => (128u8.saturating_add(signal as u8), None),
            None => (status.code().unwrap_or(1) as u8, None),
        }
    }
}

/// Why a relay could not start.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    #[error("cannot set up the relay: {0}")]
    Setup(#[from] io::Error),
}

/// Starts the bot of `spec` and relays its lines until one of the ends in the module's
/// documentation; `grace` is how long it has to exit once its stdin is closed. The arena's
/// stdin, stdout and stderr are the caller's side. Must run within a tokio runtime.
pub async fn run(
    spec: &BotSpec,
    grace: Duration,
    cancel: &CancellationToken,
) -> Result<Outcome, RelayError> {
    let own = |fd: std::os::fd::BorrowedFd<'_>| fd.try_clone_to_owned().map(File::from);
    // Written through descriptors of their own, never std's locked handles: a write that
    // blocks (a caller that does not read) holds nothing the arena's own messages need.
    let (stderr_relay, stderr_writer) = StderrRelay::start(own(io::stderr().as_fd())?)?;
    let output_file = own(io::stdout().as_fd())?;

    let mut bot = BotProcess::spawn_relaying(spec, stderr_relay)?;
    let bot_stdin = bot.take_stdin().expect("a new bot's stdin is open");

    let (input_tx, input_rx) = mpsc::channel(INPUT_QUEUE);
    let (input_eof_tx, mut input_eof) = oneshot::channel();
    std::thread::Builder::new()
        .name("relay-input".into())
        .spawn(move || read_input(input_tx, input_eof_tx))?;
    let mut feeder = tokio::spawn(feed_bot(bot_stdin, input_rx));
    let (output_tx, output_rx) = mpsc::channel::<String>(OUTPUT_QUEUE);
    let (output_done_tx, output_done) = oneshot::channel();
    std::thread::Builder::new()
        .name("relay-output".into())
        .spawn(move || {
            write_output(output_rx, output_file);
            let _ = output_done_tx.send(());
        })?;

    // A line read from the bot, waiting for room in the output queue.
    let mut pending: Option<String> = None;
    // The bot's stdout has not ended.
    let mut reading = true;
    let mut input_open = true;
    let mut output_open = true;
    // The caller is done (or gone): why, and when the bot's grace ends.
    let mut closing: Option<(Ending, Instant)> = None;
    let mut poll = tokio::time::interval(EXIT_POLL);
    poll.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let ending = loop {
        let grace_end = closing.as_ref().map(|(_, at)| *at);
        tokio::select! {
            biased;
            () = cancel.cancelled() => break Ending::Interrupted,
            () = sleep_until(grace_end.unwrap_or_else(Instant::now)), if grace_end.is_some() => {
                break closing.take().expect("a grace that ends").0;
            }
            permit = output_tx.reserve(), if pending.is_some() => match permit {
                Ok(permit) => permit.send(pending.take().expect("a pending line")),
                Err(_) => {
                    pending = None;
                    output_open = false;
                }
            },
            () = output_tx.closed(), if output_open && pending.is_none() => output_open = false,
            line = bot.next_line(), if reading && pending.is_none() => match line {
                // Nobody reads them any more, but the bot must not block during its grace.
                Ok(line) if output_open => pending = Some(line),
                Ok(_) => {}
                Err(ReadError::Closed) => {
                    reading = false;
                    if bot.try_wait().is_some() {
                        break Ending::BotExited;
                    }
                }
                Err(e) => break Ending::BadLine(e),
            },
            _ = &mut input_eof, if input_open => input_open = false,
            _ = poll.tick() => {
                if bot.try_wait().is_some() {
                    break Ending::BotExited;
                }
            }
        }
        if closing.is_none() && !(input_open && output_open) {
            let why = if output_open {
                Ending::InputClosed
            } else {
                // The bot is told too: its stdin closes.
                feeder.abort();
                Ending::OutputClosed
            };
            closing = Some((why, Instant::now() + grace));
        }
    };

    match &ending {
        Ending::BotExited if output_open => {
            pass_last_lines(&mut bot, &output_tx, pending.take(), reading).await;
        }
        Ending::Interrupted | Ending::BadLine(_) => bot.kill_now(),
        _ => {}
    }
    feeder.abort();
    let _ = (&mut feeder).await;
    // Kills what is left of the bot's group and cgroup, reaps it, and ends its stderr.
    let exit = bot.shutdown(Duration::ZERO).await;
    drop(output_tx);
    let _ = timeout(FLUSH_PATIENCE, output_done).await;
    stderr_writer.finish(FLUSH_PATIENCE).await;
    Ok(Outcome {
        ending,
        exit,
        sandbox: spec.sandbox,
        cpu_seconds: spec.limits.cpu_seconds,
        memory_bytes: spec.limits.memory_bytes,
        max_line_bytes: spec.max_line_bytes,
        grace,
    })
}

/// After the bot exited: the line it left pending and those it wrote last, until its stdout
/// ends (or [`LAST_LINES`] passes: a descendant may hold it open).
async fn pass_last_lines(
    bot: &mut BotProcess,
    output: &mpsc::Sender<String>,
    pending: Option<String>,
    reading: bool,
) {
    let until = Instant::now() + LAST_LINES;
    if let Some(line) = pending
        && !matches!(timeout_at(until, output.send(line)).await, Ok(Ok(())))
    {
        return;
    }
    if !reading {
        return;
    }
    while let Ok(Ok(line)) = timeout_at(until, bot.next_line()).await {
        if !matches!(timeout_at(until, output.send(line)).await, Ok(Ok(()))) {
            return;
        }
    }
}

/// The input thread: the arena's stdin, line by line, to the bot's feeder; then the end of
/// it. Once the feeder has gone (the bot closed its stdin), reads on, dropping the lines, so
/// that the caller never blocks on a full pipe and its end is still seen.
fn read_input(lines: mpsc::Sender<Vec<u8>>, eof: oneshot::Sender<()>) {
    let mut input = io::stdin().lock();
    let mut feeding = true;
    loop {
        let mut line = Vec::new();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                if feeding && lines.blocking_send(line).is_err() {
                    feeding = false;
                }
            }
        }
    }
    drop(lines);
    let _ = eof.send(());
}

/// The bot's stdin: the caller's lines, several at once when they are queued. Returns when
/// the caller's input has ended (dropping the pipe closes the bot's stdin) or the bot closed
/// its stdin. No deadline: a bot that does not read only stalls this task.
async fn feed_bot(mut stdin: ChildStdin, mut lines: mpsc::Receiver<Vec<u8>>) {
    while let Some(mut block) = lines.recv().await {
        while block.len() < BLOCK_BYTES {
            match lines.try_recv() {
                Ok(line) => block.extend_from_slice(&line),
                Err(_) => break,
            }
        }
        if stdin.write_all(&block).await.is_err() {
            return;
        }
    }
}

/// The output thread: the bot's lines to the arena's stdout, several at once when they are
/// queued. Stops at the first failed write (the reader has gone), which the relay sees as
/// its queue closing.
fn write_output(mut lines: mpsc::Receiver<String>, mut out: File) {
    let mut block = Vec::new();
    while let Some(line) = lines.blocking_recv() {
        block.clear();
        block.extend_from_slice(line.as_bytes());
        block.push(b'\n');
        while block.len() < BLOCK_BYTES {
            match lines.try_recv() {
                Ok(line) => {
                    block.extend_from_slice(line.as_bytes());
                    block.push(b'\n');
                }
                Err(_) => break,
            }
        }
        if out.write_all(&block).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandbox::StderrSummary;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    fn outcome(ending: Ending, status: Option<ExitStatus>, killed: bool) -> Outcome {
        Outcome {
            ending,
            exit: ExitSummary {
                status,
                code: status.and_then(|s| s.code()),
                signal: status.and_then(|s| s.signal()),
                killed_by_arena: killed,
                leaked_pipe: false,
                stderr: StderrSummary {
                    total_bytes: 0,
                    dropped_bytes: 0,
                    log_path: "log".into(),
                    tail: String::new(),
                    log_error: None,
                },
                cgroup_usage: None,
            },
            sandbox: SandboxLevel::Bwrap,
            cpu_seconds: Some(600),
            memory_bytes: Some(2048 << 20),
            max_line_bytes: 65536,
            grace: Duration::from_millis(500),
        }
    }

    #[test]
    fn the_status_is_the_bots_own_unless_the_arena_ended_it() {
        let exited = |raw| outcome(Ending::BotExited, Some(ExitStatus::from_raw(raw)), false);
        assert_eq!(exited(0).code(), 0);
        assert_eq!(exited(3 << 8).code(), 3);
        assert_eq!(exited(3 << 8).message(), None);
        // Killed by SIGSEGV outside bwrap, or reported so by bwrap.
        assert_eq!(exited(11).code(), 139);
        assert_eq!(exited(139 << 8).code(), 139);
        // SIGXCPU: the CPU time rlimit.
        assert_eq!(exited(24).code(), 124);
        assert!(
            exited(24)
                .message()
                .unwrap()
                .contains("CPU time limit (600 s")
        );

        let killed = outcome(Ending::InputClosed, Some(ExitStatus::from_raw(9)), true);
        assert_eq!(killed.code(), 137);
        assert!(
            killed
                .message()
                .unwrap()
                .contains("500 ms after its stdin closed")
        );
        let long = outcome(
            Ending::BadLine(ReadError::LineTooLong),
            Some(ExitStatus::from_raw(9)),
            true,
        );
        assert_eq!(long.code(), 124);
        assert!(long.message().unwrap().contains("longer than 65536 bytes"));
        let interrupted = outcome(Ending::Interrupted, Some(ExitStatus::from_raw(9)), true);
        assert_eq!((interrupted.code(), interrupted.message()), (130, None));
    }
}
