//! Killing and reaping the orphans the arena inherits as a child subreaper.
//!
//! A bot's descendant that leaves the bot's process group (`setsid`) survives the group kill
//! when there is no cgroup to find it, and when its parent dies it is re-parented to the
//! arena. The arena's only children are bot leaders, so every other child is such an orphan:
//! it is killed and reaped. The bots' leaders are kept in a registry; a leader is added under
//! the registry's lock *while* it is spawned, so a sweep never mistakes a new bot for an
//! orphan.
//!
//! Sweeps run only in a process that made itself a subreaper ([`enable`]), the `arena`
//! binary: a test process that embeds the library has children of its own.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};
use tokio::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);
static LEADERS: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

/// The registry of live bot leaders (pids).
pub(crate) struct Registry(MutexGuard<'static, Option<HashSet<i32>>>);

impl Registry {
    pub(crate) fn insert(&mut self, pid: i32) {
        self.0.get_or_insert_with(HashSet::new).insert(pid);
    }

    pub(crate) fn remove(&mut self, pid: &i32) {
        if let Some(set) = self.0.as_mut() {
            set.remove(pid);
        }
    }

    fn contains(&self, pid: i32) -> bool {
        self.0.as_ref().is_some_and(|set| set.contains(&pid))
    }
}

pub(crate) fn lock() -> Registry {
    Registry(
        LEADERS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    )
}

/// Turns sweeping on; called once the process is a subreaper.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Kills and reaps every child of the arena that is not a bot leader, repeatedly (killing one
/// may orphan its own children to us), until none is left or `patience` runs out.
pub(crate) async fn reap(patience: Duration) {
    if !ENABLED.load(Ordering::Relaxed) {
        return;
    }
    let deadline = Instant::now() + patience;
    loop {
        let orphans = {
            let registry = lock();
            let orphans: Vec<i32> = children_of(std::process::id())
                .into_iter()
                .filter(|pid| !registry.contains(*pid))
                .collect();
            for &pid in &orphans {
                if let Some(pid) = Pid::from_raw(pid) {
                    let _ = kill_process(pid, Signal::KILL);
                }
            }
            orphans
        };
        if orphans.is_empty() {
            return;
        }
        for pid in orphans.iter().filter_map(|&p| Pid::from_raw(p)) {
            // Blocking is fine: it was SIGKILLed, so it dies at once.
            let _ = waitpid(Some(pid), WaitOptions::empty());
        }
        if Instant::now() >= deadline {
            tracing::warn!(
                "orphans of bots still appearing after {} ms",
                patience.as_millis()
            );
            return;
        }
        tokio::task::yield_now().await;
    }
}

/// The pids whose parent is `parent`, from `/proc/<pid>/stat` (field 4).
fn children_of(parent: u32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| parent_of(pid) == Some(parent))
        .collect()
}

fn parent_of(pid: i32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may contain spaces: parse after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_of_reads_the_parent_pid() {
        let child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert_eq!(parent_of(pid), Some(std::process::id()));
        assert!(children_of(std::process::id()).contains(&pid));
        let mut child = child;
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
