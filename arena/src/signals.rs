//! SIGINT and SIGTERM: the first cancels the work (bots are stopped, finished results kept),
//! a second one exits at once with code 130.

use tokio::signal::unix::{SignalKind, signal};
use tokio_util::sync::CancellationToken;

pub fn cancel_on_signal(cancel: CancellationToken) {
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
        eprintln!("arena: stopping (finished work is kept); signal again to quit at once");
        cancel.cancel();
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
        }
        std::process::exit(130);
    });
}
