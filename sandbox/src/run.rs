//! A process run to completion rather than spoken to: a bot's build (a compiler, a syntax
//! check) in the same sandbox as the bot, with its stdin closed, a wall-clock limit, and its
//! output kept, bounded.

use std::time::Duration;

use tokio::time::Instant;

use super::error::{ReadError, SpawnError};
use super::process::{BotProcess, ExitSummary};
use super::spec::BotSpec;

/// How a run to completion ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub exit: ExitSummary,
    /// Still running at the time limit: the arena killed its whole process group.
    pub timed_out: bool,
    /// The first [`BotSpec::stderr_keep_bytes`] bytes of stdout (lossily decoded), with a
    /// note at the end when more was written.
    pub stdout: String,
    /// The stderr log as kept: its head and tail, each of at most
    /// [`BotSpec::stderr_keep_bytes`], with a line saying how much was dropped between them.
    pub stderr: String,
    pub elapsed: Duration,
}

impl Completion {
    /// Exited by itself with status 0 before the limit.
    pub fn succeeded(&self) -> bool {
        !self.timed_out && self.exit.code == Some(0) && !self.exit.killed_by_arena
    }
}

/// Starts `spec` (its sandbox level, limits, uid and workdir as for a bot), closes its stdin,
/// reads its stdout and lets it run until it exits or `limit` has passed; then kills and
/// reaps whatever is left of it. Output beyond the caps is counted, not kept. A stdout line
/// longer than [`BotSpec::max_line_bytes`] ends the reading of stdout (noted in it): a
/// process that keeps writing there then blocks and meets the time limit.
pub async fn run_to_completion(spec: &BotSpec, limit: Duration) -> Result<Completion, SpawnError> {
    let started = Instant::now();
    let deadline = started + limit;
    let mut process = BotProcess::spawn(spec)?;
    process.close_stdin();
    let keep = spec.stderr_keep_bytes;
    let mut stdout = String::new();
    let mut dropped: u64 = 0;
    let mut timed_out = false;
    loop {
        match process.recv_line(deadline).await {
            Ok(line) => {
                if stdout.len() + line.len() < keep {
                    stdout.push_str(&line);
                    stdout.push('\n');
                } else {
                    dropped += line.len() as u64 + 1;
                }
            }
            Err(ReadError::Timeout) => {
                timed_out = true;
                break;
            }
            Err(ReadError::Closed) => break,
            Err(e) => {
                stdout.push_str(&format!("[stdout not read further: {e}]\n"));
                break;
            }
        }
    }
    if dropped > 0 {
        stdout.push_str(&format!(
            "[... {dropped} more bytes of stdout dropped ...]\n"
        ));
    }
    if !timed_out {
        // stdout closed; the process may still be running (it closed its stdout early).
        let left = deadline.saturating_duration_since(Instant::now());
        timed_out = process.wait_timeout(left).await.is_none();
    }
    if timed_out {
        process.kill_now();
    }
    let exit = process.shutdown(Duration::ZERO).await;
    // The drain wrote the log with its own caps (head, tail, a note between them).
    let stderr = std::fs::read(&spec.stderr_log)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_else(|e| format!("[the output could not be read back: {e}]\n"));
    Ok(Completion {
        exit,
        timed_out,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    })
}
