//! `--watch`: a live view of matches as they are played, served on localhost for a projector
//! in class or a contest screen. The referee hands each replay line to the match's feed; the
//! server streams the feeds to the shared replay viewer as server-sent events. `--pace` slows
//! the matches down for people to follow, and `--keep-serving` keeps the view up afterwards.

mod error;
mod feed;
mod pace;
mod server;

pub use error::WatchError;
pub use feed::{Joined, LiveHub, LiveMatch, MatchEntry};
pub use pace::{MAX_PACE_MS, Pace};
pub use server::{KEEP_BYTES, WatchServer, start};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

/// How to watch: `--watch`, `--pace` and `--keep-serving` of `arena match` and
/// `arena tournament`.
#[derive(Clone, Copy, Debug, Default)]
pub struct WatchOptions {
    /// Serve the live view here (`None`: no live view).
    pub addr: Option<SocketAddr>,
    /// The least time between two events of a match (`--pace MS`; 0: full speed).
    pub pace_ms: u64,
    /// Keep serving after the last match until Ctrl-C.
    pub keep_serving: bool,
}

/// Starts the live view when `--watch` was given and tells the user where to point a browser.
/// The server stops when the returned handle is dropped.
pub async fn serve_if_asked(
    options: WatchOptions,
) -> Result<(Option<WatchServer>, Option<Arc<LiveHub>>), WatchError> {
    let Some(addr) = options.addr else {
        return Ok((None, None));
    };
    let hub = LiveHub::paced(Some(Duration::from_millis(options.pace_ms)));
    let server = start(addr, hub.clone()).await?;
    if !server.addr.ip().is_loopback() {
        crate::console::output::eprint_line(&format!(
            "arena: warning: the live view listens on {}, reachable from other machines; it \
             shows every seat's cards to anyone with its URL",
            server.addr
        ));
    }
    crate::console::output::eprint_line(&format!("arena: watch live at {}", server.url()));
    Ok((Some(server), Some(hub)))
}

/// Once every match is over: lets the viewers get the last lines and the end, then stops the
/// server; with `--keep-serving`, keeps serving the finished matches until `stop` (the run's
/// Ctrl-C) instead.
pub async fn after_the_matches(
    server: Option<WatchServer>,
    options: WatchOptions,
    stop: &CancellationToken,
) {
    let Some(server) = server else {
        return;
    };
    if options.keep_serving {
        crate::console::output::eprint_line(&format!(
            "arena: all played; the live view stays up at {} until Ctrl-C",
            server.url()
        ));
        stop.cancelled().await;
        return;
    }
    server.finish(Duration::from_secs(3)).await;
    crate::console::output::eprint_line(
        "arena: the live view has stopped with the run (--keep-serving keeps it up until Ctrl-C)",
    );
}
