//! The `pre_exec` hook of the `limits` and `bwrap` levels: a new session, then [`Limits`].
//!
//! This is resource control, not isolation: at the `limits` level the bot still reads and
//! writes the whole file system as the arena's user and has the network (see
//! [`SandboxLevel::Limits`](super::SandboxLevel::Limits)).

use std::io;

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit, setsid};
use tokio::process::Command;

use super::spec::Limits;

/// Registers a `pre_exec` hook that makes the child a session leader and applies `limits`
/// (and disables core dumps).
///
/// `setsid()` also gives the child its own process group with pgid == pid, exactly like
/// `process_group(0)` (which must then *not* be set: std runs `setpgid` before the hook and
/// `setsid` fails for a group leader). On top of that the bot has no controlling terminal, so
/// it can't open `/dev/tty` or inject keystrokes into the user's shell with `TIOCSTI`.
///
/// Registering a hook switches std from `posix_spawn` to `fork`+`exec`.
pub(crate) fn install(cmd: &mut Command, limits: Limits) {
    // SAFETY: the closure captures only `limits`, a `Copy` struct of integers, and makes plain
    // setsid/getrlimit/setrlimit syscalls. It doesn't allocate, take locks or touch any state
    // shared with other threads of the parent, so it is sound to run between fork and exec.
    // Converting an `Errno` into `io::Error` doesn't allocate either.
    unsafe {
        cmd.pre_exec(move || {
            setsid()?;
            apply(limits)
        });
    }
}

/// Runs in the forked child. Must stay async-signal-safe: no allocation, no formatting.
fn apply(limits: Limits) -> io::Result<()> {
    set(Resource::Core, 0, 0)?;
    if let Some(secs) = limits.cpu_seconds {
        // SIGXCPU at the soft limit, SIGKILL at the hard limit a second later.
        set(Resource::Cpu, secs, secs.saturating_add(1))?;
    }
    if let Some(bytes) = limits.memory_bytes {
        set(Resource::Data, bytes, bytes)?;
    }
    if let Some(bytes) = limits.file_size_bytes {
        set(Resource::Fsize, bytes, bytes)?;
    }
    if let Some(n) = limits.open_files {
        set(Resource::Nofile, n, n)?;
    }
    Ok(())
}

/// Sets a limit, clamped to the current hard limit (raising it would need privileges).
fn set(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let old = getrlimit(resource);
    let clamp = |v: u64| old.maximum.map_or(v, |max| v.min(max));
    let new = Rlimit {
        current: Some(clamp(soft)),
        maximum: Some(clamp(hard)),
    };
    setrlimit(resource, new).map_err(io::Error::from)
}
