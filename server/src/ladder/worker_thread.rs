//! A match worker on an OS thread of its own, with a current-thread runtime: a bot's answer
//! wakes the very thread that waits for it, as in the arena's job slots
//! (`arena/src/tournament/slots.rs`). As a task on the server's multi-threaded runtime, one
//! worker used 8-26 % more CPU than `arena tournament --jobs 1` on the same matches and played
//! 6-17 % fewer a minute; on its own thread, 4-9 % more CPU and 0.90-1.02x the rate
//! (BENCHMARKS.md, section 10).
//!
//! The thread opens its own small database pool: a connection is driven by the runtime that
//! opened it, so connections opened by this thread must not outlive it in a shared pool.

use std::thread::JoinHandle;

use tokio_util::sync::CancellationToken;

use super::worker::Worker;
use crate::storage::Db;

/// Connections of one worker thread's pool (a match needs one at a time; the lease renewal
/// may want a second).
const POOL: u32 = 2;

/// A running worker thread.
#[derive(Debug)]
pub struct WorkerThread {
    /// Cancelled by [`WorkerThread::stop`]: drops the match under way.
    hard: CancellationToken,
    thread: JoinHandle<()>,
}

impl WorkerThread {
    /// Starts a thread named `name` that opens its own pool to `db`'s database, makes its
    /// worker with `make` and runs it ([`Worker::run`]) until `stop` is cancelled (then it
    /// ends after the match under way) or [`WorkerThread::stop`].
    pub fn spawn(
        name: String,
        db: &Db,
        stop: CancellationToken,
        make: impl FnOnce(Db) -> std::io::Result<Worker> + Send + 'static,
    ) -> std::io::Result<WorkerThread> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let hard = CancellationToken::new();
        let token = hard.clone();
        let db = db.clone();
        let label = name.clone();
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            runtime.block_on(async move {
                let own = match db.reconnect(POOL).await {
                    Ok(own) => own,
                    Err(e) => {
                        tracing::error!("worker {label}: cannot connect to the database: {e}");
                        return;
                    }
                };
                let worker = match make(own.clone()) {
                    Ok(w) => std::sync::Arc::new(w),
                    Err(e) => {
                        tracing::error!("worker {label}: {e}");
                        return;
                    }
                };
                tokio::select! {
                    _ = worker.run(stop) => {}
                    _ = token.cancelled() => {}
                }
                own.close().await;
            });
        })?;
        Ok(WorkerThread { hard, thread })
    }

    /// Waits for the thread to end (after its `stop` token was cancelled).
    pub fn join(self) {
        let _ = self.thread.join();
    }

    /// Stops the worker at once and waits for its thread. A match it was playing is dropped
    /// (its bots are killed); its lease expires and the match is played again.
    pub fn stop(self) {
        self.hard.cancel();
        let _ = self.thread.join();
    }
}
