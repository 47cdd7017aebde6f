//! A running bot: line I/O with deadlines, exit checks, and cleanup on every path.

use std::fs::File;
use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use futures::FutureExt;
use futures::StreamExt;
use rustix::process::Pid;
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin};
use tokio::time::{Instant, timeout, timeout_at};
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

use super::cgroup::CgroupUsage;
use super::command::{self, Prepared};
use super::cpu_watch::CpuWatch;
use super::decision_stderr::DecisionStderr;
use super::error::{ReadError, SpawnError, WriteError};
use super::group::{self, GroupGuard};
use super::orphans;
use super::spec::BotSpec;
use super::stderr::{StderrDrain, StderrRelay, StderrSummary};
use super::stdout::{BotStdout, StdoutFifo};

/// After the leader exits on its own, how long its pipes may stay open before we conclude
/// that a descendant holds them.
const LEAK_WINDOW: Duration = Duration::from_millis(200);
/// How long to wait for the leader to die after SIGKILL before leaving it to a background task.
const REAP_PATIENCE: Duration = Duration::from_secs(5);
/// How long to wait for orphaned group members to die (only when the arena is a subreaper).
const ORPHAN_PATIENCE: Duration = Duration::from_secs(1);
/// How long to wait for stderr EOF after the group is dead; then a process outside the group
/// holds it and we stop reading.
const STDERR_PATIENCE: Duration = Duration::from_secs(2);

/// How a bot ended, from [`BotProcess::shutdown`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitSummary {
    /// The leader's status; `None` only if it couldn't be reaped in time (left to a
    /// background task).
    pub status: Option<ExitStatus>,
    /// Exit code, if it exited normally.
    pub code: Option<i32>,
    /// Terminating signal, if killed (9 when the arena killed it). Under bwrap the leader is
    /// `bwrap`, which reports a bot killed by a signal inside the sandbox as exit code
    /// 128 + signal (SIGSEGV: 139), so only the arena's own kill shows up here.
    pub signal: Option<i32>,
    /// The arena killed the bot: it was still running when the grace period ended, or
    /// [`BotProcess::kill_now`] was called earlier.
    pub killed_by_arena: bool,
    /// The leader exited but its stdout or stderr stayed open: a descendant held them (it was
    /// then killed with the group). Also set if a process outside the group (one that called
    /// `setsid`) kept stderr open after the kill.
    pub leaked_pipe: bool,
    pub stderr: StderrSummary,
    /// The bot's cgroup at the end (peak memory, limits reached), where it had one.
    pub cgroup_usage: Option<CgroupUsage>,
}

/// A running bot. Dropping it kills the bot's whole process group, then reaps it in the
/// background; prefer [`BotProcess::shutdown`], which also reports how the bot ended.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    pid: Pid,
    /// `Some` until `shutdown` or `Drop` takes it.
    inner: Option<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// First field, so it drops first: the group is killed before `Child`'s own drop may reap
    /// the leader (see the invariant in `group`).
    guard: GroupGuard,
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    stdout: FramedRead<BotStdout, LinesCodec>,
    stderr: StderrDrain,
    /// The leader's status once observed (without reaping it).
    exit: Option<ExitStatus>,
    /// `kill_now` (or drop) was called.
    killed: bool,
    /// The bot's uid reservation and the like: released only once the bot is dead.
    held: command::Held,
}

impl BotProcess {
    /// Starts the bot. Must be called within a tokio runtime (the stderr drain is a task).
    pub fn spawn(spec: &BotSpec) -> Result<BotProcess, SpawnError> {
        BotProcess::start(spec, None, None)
    }

    /// [`BotProcess::spawn`], also feeding its stderr to `decisions` (for the replay).
    pub fn spawn_gathering(
        spec: &BotSpec,
        decisions: Option<DecisionStderr>,
    ) -> Result<BotProcess, SpawnError> {
        BotProcess::start(spec, decisions, None)
    }

    /// [`BotProcess::spawn`], also passing its stderr on to `relay` as it comes (`arena
    /// run-bot`); the log is still written.
    pub fn spawn_relaying(spec: &BotSpec, relay: StderrRelay) -> Result<BotProcess, SpawnError> {
        BotProcess::start(spec, None, Some(relay))
    }

    fn start(
        spec: &BotSpec,
        decisions: Option<DecisionStderr>,
        relay: Option<StderrRelay>,
    ) -> Result<BotProcess, SpawnError> {
        let Prepared {
            mut cmd,
            program,
            held,
        } = command::prepare(spec)?;
        let log = create_log(spec)?;
        // Under the registry's lock, so that no orphan sweep sees the new child before it is
        // known to be a bot.
        let mut registry = orphans::lock();
        let mut child = cmd.spawn().map_err(|source| {
            if source.kind() == io::ErrorKind::NotFound {
                SpawnError::ProgramNotFound {
                    name: spec.name.clone(),
                    program: program.clone(),
                    detail: " (or its #! interpreter)".to_string(),
                }
            } else {
                SpawnError::Spawn {
                    name: spec.name.clone(),
                    program: program.clone(),
                    source,
                }
            }
        })?;
        let pid = child
            .id()
            .and_then(|id| Pid::from_raw(id as i32))
            .expect("a freshly spawned child has a pid");
        registry.insert(pid.as_raw_nonzero().get());
        drop(registry);
        let guard = GroupGuard::new(pid);
        let stdin = child.stdin.take().expect("stdin is piped");
        let mut held = held;
        // bwrap has read its seccomp program (or never will): no need to keep it open.
        held.seccomp = None;
        held.cpu_watch = held.cgroup.as_ref().and_then(CpuWatch::start);
        let stdout = match held.stdout_fifo.as_mut().and_then(StdoutFifo::take_reader) {
            Some(fifo) => BotStdout::Fifo(fifo),
            None => BotStdout::Pipe(child.stdout.take().expect("stdout is piped")),
        };
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr = StderrDrain::start(
            stderr,
            log,
            spec.stderr_log.clone(),
            spec.stderr_keep_bytes,
            decisions,
            relay,
        );
        let stdout = FramedRead::with_capacity(
            stdout,
            LinesCodec::new_with_max_length(spec.max_line_bytes),
            8 * 1024,
        );
        tracing::debug!(bot = %spec.name, pid = pid.as_raw_nonzero().get(), %program, "spawned");
        Ok(BotProcess {
            name: spec.name.clone(),
            pid,
            inner: Some(Inner {
                guard,
                child,
                stdin: Some(stdin),
                stdout,
                stderr,
                exit: None,
                killed: false,
                held,
            }),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The leader's pid, which is also the bot's process group id.
    pub fn pid(&self) -> u32 {
        self.pid.as_raw_nonzero().get() as u32
    }

    fn inner(&mut self) -> &mut Inner {
        self.inner
            .as_mut()
            .expect("inner is only taken by shutdown and drop")
    }

    /// The next stdout line, without its `\n` (a trailing `\r` is stripped too). Cancel-safe:
    /// dropping the future loses nothing, and after [`ReadError::Timeout`] a later call gets
    /// the line. After any other error every call returns [`ReadError::Closed`]; treat the bot
    /// as broken.
    pub async fn recv_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        match timeout_at(deadline, self.next_line()).await {
            Err(_elapsed) => Err(ReadError::Timeout),
            Ok(result) => result,
        }
    }

    /// The next stdout line, with no deadline of its own: for a caller that races it against
    /// its own timer (the referee keeps one armed timer per bot instead of a new one per
    /// wait). Cancel-safe as [`Self::recv_line`]; never returns [`ReadError::Timeout`].
    pub async fn next_line(&mut self) -> Result<String, ReadError> {
        match self.inner().stdout.next().await {
            None => Err(ReadError::Closed),
            Some(Ok(line)) => Ok(line),
            Some(Err(LinesCodecError::MaxLineLengthExceeded)) => Err(ReadError::LineTooLong),
            Some(Err(LinesCodecError::Io(e))) if e.kind() == io::ErrorKind::InvalidData => {
                Err(ReadError::InvalidUtf8)
            }
            Some(Err(LinesCodecError::Io(e))) => Err(ReadError::Io(e.to_string())),
        }
    }

    /// Writes `line` and a `\n`, and flushes. `line` must not contain a newline. A bot that
    /// doesn't read makes this return [`WriteError::Timeout`] at `deadline`. Not cancel-safe
    /// for the line's integrity: after a timeout or a dropped future, part of the line may
    /// have been written.
    pub async fn send_line(&mut self, line: &str, deadline: Instant) -> Result<(), WriteError> {
        debug_assert!(!line.contains('\n'), "a protocol line contains a newline");
        let mut block = Vec::with_capacity(line.len() + 1);
        block.extend_from_slice(line.as_bytes());
        block.push(b'\n');
        self.write_block(&block, deadline).await
    }

    /// Writes several complete lines at once (`block` is lines each ending in `\n`) with one
    /// flush: the referee batches the events of a hand this way, one write instead of many.
    /// Same deadline and error rules as [`Self::send_line`].
    pub async fn send_lines(&mut self, block: &[u8], deadline: Instant) -> Result<(), WriteError> {
        debug_assert!(
            block.is_empty() || block.ends_with(b"\n"),
            "a block of whole lines"
        );
        self.write_block(block, deadline).await
    }

    /// Writes `block` straight to the pipe (no buffer of our own: callers hand over whole
    /// batches). The common case, a pipe with room, takes no timer: non-blocking writes are
    /// tried first and only what they could not write waits, with the deadline.
    async fn write_block(&mut self, block: &[u8], deadline: Instant) -> Result<(), WriteError> {
        let Some(stdin) = self.inner().stdin.as_mut() else {
            return Err(WriteError::Closed);
        };
        let io_error = |e: io::Error| match e.kind() {
            io::ErrorKind::BrokenPipe => WriteError::Closed,
            _ => WriteError::Io(e.to_string()),
        };
        let mut written = 0;
        while written < block.len() {
            // One poll with a no-op waker: `None` means the pipe is full (nothing written).
            match stdin.write(&block[written..]).now_or_never() {
                Some(Ok(0)) => return Err(WriteError::Closed),
                Some(Ok(n)) => written += n,
                Some(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Some(Err(e)) => return Err(io_error(e)),
                None => break,
            }
        }
        if written == block.len() {
            return Ok(());
        }
        match timeout_at(deadline, stdin.write_all(&block[written..])).await {
            Err(_elapsed) => Err(WriteError::Timeout),
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(io_error(e)),
        }
    }

    /// Closes the bot's stdin (it sees EOF). Later sends return [`WriteError::Closed`].
    pub fn close_stdin(&mut self) {
        self.inner().stdin = None;
    }

    /// The bot's stdin, for a caller that writes to it while it reads the bot's lines (`arena
    /// run-bot` relays both ways at once: a bot that writes without reading, or reads without
    /// writing, must stall neither direction). Dropping it closes the bot's stdin; later
    /// sends return [`WriteError::Closed`]. `None` once taken or closed.
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.inner().stdin.take()
    }

    /// The leader's exit status if it has exited, without blocking. It is not reaped (that
    /// happens in `shutdown`), so this can be asked any number of times.
    ///
    /// Use it after a [`ReadError::Timeout`] to tell a crashed bot from a slow one. After
    /// [`ReadError::Closed`] the bot may need a moment to exit: see [`Self::wait_timeout`].
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        let pid = self.pid;
        let inner = self.inner();
        if inner.exit.is_none() {
            match group::peek_exit(pid) {
                Ok(status) => inner.exit = status,
                Err(e) => tracing::warn!(pid = pid.as_raw_nonzero().get(), "waitid: {e}"),
            }
        }
        inner.exit
    }

    /// Like [`Self::try_wait`], waiting up to `timeout` for the leader to exit. Doesn't kill.
    pub async fn wait_timeout(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let pid = self.pid;
        let inner = self.inner();
        if inner.exit.is_none() {
            inner.exit = group::wait_exit_until(pid, Instant::now() + timeout).await;
        }
        inner.exit
    }

    /// SIGKILL to the bot's whole process group, now. Reaping happens in `shutdown` (or drop).
    pub fn kill_now(&mut self) {
        let inner = self.inner();
        inner.guard.kill();
        inner.killed = true;
    }

    /// Ends the bot: closes stdin, waits up to `grace` for it to exit, SIGKILLs its process
    /// group (always: descendants may linger), reaps it and finishes the stderr log.
    ///
    /// If this future is dropped before completion, the group is still killed (drop guard)
    /// and the leader left to tokio's orphan reaping.
    pub async fn shutdown(mut self, grace: Duration) -> ExitSummary {
        let inner = self
            .inner
            .take()
            .expect("inner is only taken by shutdown and drop");
        let summary = finish(inner, self.pid, grace).await;
        tracing::debug!(bot = %self.name, ?summary, "shut down");
        summary
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let Some(mut inner) = self.inner.take() else {
            return;
        };
        // Synchronously, whatever happens to the task below.
        inner.guard.kill();
        inner.killed = true;
        let name = std::mem::take(&mut self.name);
        let pid = self.pid;
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                handle.spawn(async move {
                    let summary = finish(inner, pid, Duration::ZERO).await;
                    tracing::debug!(bot = %name, ?summary, "reaped after drop");
                });
            }
            // No runtime: `kill_on_drop` and tokio's orphan queue are all we have.
            Err(_) => drop(inner),
        }
    }
}

fn create_log(spec: &BotSpec) -> Result<File, SpawnError> {
    let err = |source| SpawnError::StderrLog {
        name: spec.name.clone(),
        path: spec.stderr_log.clone(),
        source,
    };
    if let Some(dir) = spec
        .stderr_log
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    // What a bot writes on stderr may name its cards: the arena's user's only.
    crate::create_private(&spec.stderr_log).map_err(err)
}

/// The common end of `shutdown` and `drop`.
async fn finish(inner: Inner, pid: Pid, grace: Duration) -> ExitSummary {
    let Inner {
        mut guard,
        mut child,
        stdin,
        mut stdout,
        mut stderr,
        mut exit,
        killed,
        held,
    } = inner;
    drop(stdin);

    let mut killed_by_arena = killed;
    let mut leaked_pipe = false;
    if !killed {
        if exit.is_none() {
            exit = group::wait_exit_until(pid, Instant::now() + grace).await;
        }
        if exit.is_some() {
            // The leader is gone on its own. Its pipes reach EOF at once unless a descendant
            // still holds them.
            let window = Instant::now() + LEAK_WINDOW;
            let stdout_eof = timeout_at(window, async { while stdout.next().await.is_some() {} })
                .await
                .is_ok();
            let stderr_eof = stderr
                .wait_eof(window.saturating_duration_since(Instant::now()))
                .await;
            leaked_pipe = !(stdout_eof && stderr_eof);
        } else {
            killed_by_arena = true;
        }
    }

    // Always: a well-behaved leader may still have left descendants behind. The cgroup
    // also holds those that left the group with `setsid`.
    guard.kill();
    let cgroup_usage = held.cgroup.as_ref().map(|cgroup| {
        cgroup.kill_all();
        cgroup.usage()
    });
    let status = match timeout(REAP_PATIENCE, child.wait()).await {
        Ok(Ok(status)) => {
            guard.disarm();
            orphans::lock().remove(&pid.as_raw_nonzero().get());
            group::reap_group_orphans(pid, ORPHAN_PATIENCE).await;
            orphans::reap(ORPHAN_PATIENCE).await;
            Some(status)
        }
        Ok(Err(e)) => {
            tracing::warn!(pid = pid.as_raw_nonzero().get(), "wait: {e}");
            exit
        }
        Err(_elapsed) => {
            tracing::warn!(
                pid = pid.as_raw_nonzero().get(),
                "not dead 5 s after SIGKILL"
            );
            tokio::spawn(async move {
                let _ = child.wait().await;
            });
            exit
        }
    };
    drop(stdout);
    let (stderr, eof) = stderr.finish(STDERR_PATIENCE).await;
    leaked_pipe |= !eof;
    drop(guard);
    drop(held);

    ExitSummary {
        status,
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| s.signal()),
        killed_by_arena,
        leaked_pipe,
        stderr,
        cgroup_usage,
    }
}
