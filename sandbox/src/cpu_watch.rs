//! `cpu_seconds` for a bot as a whole: a task that reads the CPU time of the bot's cgroup and
//! kills all of it once it has used more than its limit.
//!
//! `RLIMIT_CPU` (see `limits`) counts each process on its own, so a bot with four spinning
//! children would get four times its limit, and a child that exits resets nothing. The
//! cgroup counts every process the bot ever started, the exited ones included. The rlimit
//! stays as a backstop for one process, and where there is no cgroup.
//!
//! The task sleeps for the least time in which the bot could go over its limit, running on
//! every CPU it may use (its quota, or the machine's), between [`MIN_CHECK`] and
//! [`MAX_CHECK`]: a bot well under its limit costs one file read a second, and one that is
//! about to go over is caught within [`MIN_CHECK`] of CPU time per CPU it runs on.

use std::time::Duration;

use tokio::task::JoinHandle;

use super::cgroup::{BotCgroup, CpuTimeHandle};

/// Shortest wait between two readings.
const MIN_CHECK: Duration = Duration::from_millis(50);
/// Longest wait between two readings.
const MAX_CHECK: Duration = Duration::from_secs(1);

/// The running watcher of one bot; dropping it stops the watcher.
#[derive(Debug)]
pub(crate) struct CpuWatch {
    task: JoinHandle<()>,
}

impl CpuWatch {
    /// Starts watching `cgroup` when it has a CPU time limit and counts CPU time; `None`
    /// otherwise (then only the per-process rlimit applies). Must be called within a tokio
    /// runtime.
    pub(crate) fn start(cgroup: &BotCgroup) -> Option<CpuWatch> {
        let (handle, limit) = cgroup.cpu_time_limit()?;
        Some(CpuWatch {
            task: tokio::spawn(watch(handle, limit)),
        })
    }
}

impl Drop for CpuWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn watch(handle: CpuTimeHandle, limit: Duration) {
    loop {
        // Unreadable: the cgroup is gone with its bot.
        let Some(used) = handle.cpu_time() else {
            return;
        };
        if used > limit {
            tracing::debug!(
                "the bot used {:.1} s of CPU time, over its {} s: killing it",
                used.as_secs_f64(),
                limit.as_secs()
            );
            // Blocking (up to 2 s while the processes die): off the runtime's threads.
            let _ = tokio::task::spawn_blocking(move || handle.kill_for_cpu_time()).await;
            return;
        }
        let wait = handle.soonest_over(used, limit).clamp(MIN_CHECK, MAX_CHECK);
        tokio::time::sleep(wait).await;
    }
}
