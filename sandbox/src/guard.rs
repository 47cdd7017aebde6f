//! The guard: a small process that outlives the arena by a moment, to kill what the arena's
//! bots left running if the arena itself is killed (SIGKILL, OOM killer, power loss of the
//! terminal) before it could.
//!
//! Under bwrap a bot's whole PID namespace dies with bwrap, which dies with the arena. At the
//! `limits` level only the bot's own process has a death signal: a descendant that called
//! `setsid` would survive. The guard is the arena's child in a session of its own, holding
//! the read end of a pipe whose only write end the arena holds (close-on-exec: bots never
//! inherit it). When the arena dies, for any reason, the guard reads EOF and kills every
//! process left in the arena's cgroups (see `cgroup::reap_arena`), then exits. When the arena
//! ends normally the same happens with nothing left to kill.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use super::orphans;

/// The hidden subcommand that runs the guard.
pub const GUARD_COMMAND: &str = "__guard";

/// Starts the guard of this arena, if this machine has cgroups to clean (otherwise it could
/// do nothing). Best effort: a failure is logged, the arena goes on.
pub fn spawn_guard() {
    if super::cgroup::detect().is_err() {
        return;
    }
    if let Err(e) = try_spawn() {
        tracing::debug!("no guard process: {e}");
    }
}

fn try_spawn() -> io::Result<()> {
    let exe = std::env::current_exe()?;
    // Both ends close-on-exec: the guard gets the read end as its stdin (dup2 clears the
    // flag there), bots get neither.
    let (read, write) = io::pipe()?;
    let mut registry = orphans::lock();
    let child = Command::new(exe)
        .arg(GUARD_COMMAND)
        .arg(std::process::id().to_string())
        .stdin(Stdio::from(read))
        .stdout(Stdio::null())
        .process_group(0)
        .spawn()?;
    // Not an orphan of a bot: the sweep must leave it alone.
    registry.insert(child.id() as i32);
    drop(registry);
    // The write end lives as long as the arena: its closing is the signal.
    std::mem::forget(write);
    // Reaped by nobody while the arena lives (it exits after the arena); if the arena ends
    // first it goes to init.
    std::mem::forget(child);
    Ok(())
}

/// The guard's own life: wait for the arena's end, then clean up after it.
pub fn run_guard(arena_pid: u32) {
    let mut buf = [0u8; 64];
    let mut stdin = io::stdin().lock();
    // Nothing is ever written: returns at EOF (or an error, which means the same).
    while matches!(stdin.read(&mut buf), Ok(n) if n > 0) {}
    super::cgroup::reap_arena(arena_pid);
}
