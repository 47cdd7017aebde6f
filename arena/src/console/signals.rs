//! SIGINT and SIGTERM: the first cancels the work (bots are stopped, finished results kept),
//! a second one exits at once with code 130.
//!
//! The task must outlive anything it prints: once tokio has installed its handler, a signal
//! whose task is gone is only recorded, never acted on, so a panic here (`eprintln!` on a
//! stderr whose reader has gone, as in `arena match ... 2>&1 | head` after Ctrl-C) would leave
//! the arena deaf to both signals. So it cancels first and prints through
//! [`crate::console::output::eprint_line`], which never fails, on a thread that may block.

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

pub fn cancel_on_signal(cancel: CancellationToken) {
    on_signal(cancel, true);
}

/// As [`cancel_on_signal`], without the message: for `arena run-bot`, whose stderr is its
/// bot's.
pub fn cancel_quietly_on_signal(cancel: CancellationToken) {
    on_signal(cancel, false);
}

fn on_signal(cancel: CancellationToken, say: bool) {
    tokio::spawn(async move {
        let (Ok(mut int), Ok(mut term)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return;
        };
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
        cancel.cancel();
        // From a thread of its own: a stderr pipe that is full (a paused pager) would block
        // the write, and with it the runtime that has to stop the bots.
        if say {
            std::thread::spawn(|| {
                crate::console::output::eprint_line(
                    "arena: stopping (finished work is kept); signal again to quit at once",
                );
            });
        }
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
        std::process::exit(130);
    });
}
