//! Starting a process's match workers: the server's `[ladder] workers` and an `arena-worker`
//! process's `--jobs` alike.

use std::sync::Arc;

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use super::cache::BuildCache;
use super::worker::Worker;
use super::worker_thread::WorkerThread;
use crate::config::Contest;
use crate::storage::Db;

/// Starts `count` workers, each on a thread of its own, playing `contest` (its `data_dir` is
/// this process's own: the match scratch left by a killed run is removed, builds are cached
/// in `cache/`), named `NAME:I`. They stop between matches once `stop` is cancelled.
pub async fn start(
    db: &Db,
    contest: Arc<Contest>,
    count: u64,
    name: &str,
    stop: &CancellationToken,
) -> anyhow::Result<Vec<WorkerThread>> {
    let data = &contest.data_dir;
    let scratch = data.join("matches");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch)
            .with_context(|| format!("cannot clear {}", scratch.display()))?;
    }
    let cache = BuildCache::new(data.join("cache"))
        .with_context(|| format!("cannot prepare {}", data.join("cache").display()))?;
    // No match runs yet: copies of versions no longer played can go.
    cache
        .sweep(&db.ready_version_ids().await?)
        .with_context(|| format!("cannot clean {}", data.join("cache").display()))?;
    let cache = Arc::new(cache);
    if contest.seats != 2 && count > 0 {
        tracing::warn!(
            "the ladder plays two-seat tables only: with seats = {} no match is scheduled",
            contest.seats
        );
    }
    std::fs::create_dir_all(data.join("matches"))
        .with_context(|| format!("cannot prepare {}", data.join("matches").display()))?;
    (0..count)
        .map(|i| {
            let (contest, cache, name) = (contest.clone(), cache.clone(), format!("{name}:{i}"));
            WorkerThread::spawn(format!("worker-{i}"), db, stop.clone(), move |db| {
                Worker::new(db, contest, name, cache)
            })
            .context("cannot start a worker thread")
        })
        .collect()
}

/// This machine's name and this process's id: what names its workers in the database.
pub fn default_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "worker".to_string());
    format!("{host}:{}", std::process::id())
}
