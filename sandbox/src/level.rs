//! The default sandbox level: the strongest this machine supports, found out once per run.

use std::sync::OnceLock;

use super::bwrap::probe_bwrap;
use super::spec::SandboxLevel;

/// [`SandboxLevel::Bwrap`] when bubblewrap works here (the probe runs a real sandboxed
/// `true`, exactly as a bot would run), else [`SandboxLevel::Limits`] after saying once on
/// stderr what that means. Cached for the life of the process.
pub fn default_level() -> SandboxLevel {
    static LEVEL: OnceLock<SandboxLevel> = OnceLock::new();
    *LEVEL.get_or_init(|| match probe_in_own_thread() {
        Ok(()) => SandboxLevel::Bwrap,
        Err(why) => {
            crate::eprint_line(&format!(
                "warning: bots are NOT isolated: they can read each other's files, the \
                 replay and the arena's own files, and see each other's processes \
                 (bubblewrap is not usable here: {why}). Install bubblewrap (Debian: \
                 apt-get install bubblewrap) for the isolating sandbox; running at \
                 `--sandbox limits` (resource limits only)."
            ));
            SandboxLevel::Limits
        }
    })
}

/// Runs the async probe on a runtime of its own, in a thread of its own, so that it can be
/// called from anywhere (inside or outside another runtime).
fn probe_in_own_thread() -> Result<(), String> {
    std::thread::spawn(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start a runtime: {e}"))?
            .block_on(probe_bwrap())
            .map_err(|e| e.to_string())
    })
    .join()
    .unwrap_or_else(|_| Err("the probe panicked".to_string()))
}
