//! A match worker on an OS thread of its own, with a current-thread runtime: a bot's answer
//! wakes the very thread that waits for it, as in the arena's job slots
//! (`arena/src/tournament/slots.rs`). As a task on the server's multi-threaded runtime, one
//! worker used 8-26 % more CPU than `arena tournament --jobs 1` on the same matches and played
//! 6-17 % fewer a minute; on its own thread, 4-9 % more CPU and 0.90-1.02x the rate
//! (BENCHMARKS.md, section 10).

use std::sync::Arc;
use std::thread::JoinHandle;

use tokio_util::sync::CancellationToken;

use super::worker::Worker;

/// A running worker thread; [`WorkerThread::stop`] ends it.
#[derive(Debug)]
pub struct WorkerThread {
    cancel: CancellationToken,
    thread: JoinHandle<()>,
}

impl WorkerThread {
    /// Starts `worker`'s loop ([`Worker::run`]) on a new thread named `name`.
    pub fn spawn(worker: Arc<Worker>, name: String) -> std::io::Result<WorkerThread> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let cancel = CancellationToken::new();
        let token = cancel.clone();
        let thread = std::thread::Builder::new().name(name).spawn(move || {
            runtime.block_on(async move {
                tokio::select! {
                    _ = worker.run() => {}
                    _ = token.cancelled() => {}
                }
            });
        })?;
        Ok(WorkerThread { cancel, thread })
    }

    /// Stops the worker and waits for its thread. A match it was playing is dropped (its
    /// bots are killed); its lease expires and the match is played again.
    pub fn stop(self) {
        self.cancel.cancel();
        let _ = self.thread.join();
    }
}
