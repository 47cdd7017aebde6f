//! The bot's process group: killing it, and watching the leader without reaping it.
//!
//! Invariant: the group leader (the spawned process, pid == pgid) is reaped only *after* the
//! last group kill. While the leader is alive or an unreaped zombie its pid, and so the pgid,
//! can't be reused, so `kill(-pgid)` never hits a stranger.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use rustix::io::Errno;
use rustix::process::{
    Pid, Signal, WaitId, WaitIdOptions, WaitIdStatus, kill_process_group, waitid, waitpgid,
};
use tokio::time::Instant;

/// Sends SIGKILL to the whole group when dropped, unless disarmed (after the leader is reaped).
#[derive(Debug)]
pub(crate) struct GroupGuard {
    pgid: Pid,
    armed: bool,
}

impl GroupGuard {
    pub(crate) fn new(pgid: Pid) -> GroupGuard {
        GroupGuard { pgid, armed: true }
    }

    /// SIGKILL to every process of the group. ESRCH (nobody left) is fine.
    pub(crate) fn kill(&self) {
        if self.armed {
            match kill_process_group(self.pgid, Signal::KILL) {
                Ok(()) | Err(Errno::SRCH) => {}
                Err(e) => tracing::warn!(pgid = self.pgid.as_raw_nonzero().get(), "killpg: {e}"),
            }
        }
    }

    /// Call once the leader has been reaped: from then on the pgid may be reused.
    pub(crate) fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Has the leader exited? Uses `waitid(WNOWAIT)`, so the zombie stays unreaped (see the module
/// invariant). `Ok(None)`: still running.
pub(crate) fn peek_exit(pid: Pid) -> io::Result<Option<ExitStatus>> {
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    match waitid(WaitId::Pid(pid), options)? {
        None => Ok(None),
        Some(status) => Ok(to_exit_status(&status)),
    }
}

/// Waits until the leader exits (without reaping it) or `deadline` passes, polling with a
/// short backoff: this path is taken only at shutdown or when the referee asks.
pub(crate) async fn wait_exit_until(pid: Pid, deadline: Instant) -> Option<ExitStatus> {
    let mut pause = Duration::from_millis(1);
    loop {
        match peek_exit(pid) {
            Ok(Some(status)) => return Some(status),
            Ok(None) => {}
            Err(e) => {
                // ECHILD would mean someone else reaped our child; nothing to wait for.
                tracing::warn!("waitid({}): {e}", pid.as_raw_nonzero());
                return None;
            }
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        tokio::time::sleep_until((now + pause).min(deadline)).await;
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Builds the `ExitStatus` that `waitpid` would have returned.
fn to_exit_status(status: &WaitIdStatus) -> Option<ExitStatus> {
    if let Some(code) = status.exit_status() {
        Some(ExitStatus::from_raw((code & 0xff) << 8))
    } else {
        let core = if status.dumped() { 0x80 } else { 0 };
        status
            .terminating_signal()
            .map(|sig| ExitStatus::from_raw((sig & 0x7f) | core))
    }
}

/// Makes the calling process (the arena) a child subreaper (`PR_SET_CHILD_SUBREAPER`):
/// orphaned descendants of bots, such as a grandchild whose parent exited, are re-parented to
/// the arena instead of to PID 1, and [`BotProcess::shutdown`] reaps the ones left in the
/// bot's group. Without this they are reaped by PID 1, which in some containers never
/// happens (they stay zombies). Process-wide; call once at startup.
///
/// [`BotProcess::shutdown`]: super::BotProcess::shutdown
pub fn set_child_subreaper() -> io::Result<()> {
    rustix::process::set_child_subreaper(Some(rustix::process::getpid()))?;
    super::orphans::enable();
    Ok(())
}

/// After the group was killed and the leader reaped: reap group members that are our children
/// (only possible when we're a subreaper). Stops at ECHILD (none left that are ours) or after
/// `patience`.
pub(crate) async fn reap_group_orphans(pgid: Pid, patience: Duration) {
    let deadline = Instant::now() + patience;
    loop {
        match waitpgid(pgid, rustix::process::WaitOptions::NOHANG) {
            Ok(Some(_)) => continue,
            Ok(None) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            Ok(None) | Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peek_until_exit(child: &std::process::Child) -> ExitStatus {
        let pid = Pid::from_child(child);
        for _ in 0..500 {
            if let Some(status) = peek_exit(pid).unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("child did not exit");
    }

    #[test]
    fn peek_reports_the_status_without_reaping() {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "exit 3"])
            .spawn()
            .unwrap();
        assert_eq!(peek_until_exit(&child).code(), Some(3));
        // Still a zombie: a second peek and the real wait see the same status.
        assert_eq!(peek_until_exit(&child).code(), Some(3));
        assert_eq!(child.wait().unwrap().code(), Some(3));
    }

    #[test]
    fn peek_reports_signals() {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", "kill -9 $$"])
            .spawn()
            .unwrap();
        let status = peek_until_exit(&child);
        assert_eq!((status.code(), status.signal()), (None, Some(9)));
        assert_eq!(child.wait().unwrap().signal(), Some(9));
    }
}
