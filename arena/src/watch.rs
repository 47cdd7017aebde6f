//! `--watch`: a live view of matches as they are played, served on localhost for a projector
//! in class or a contest screen. The referee hands each replay line to the match's feed; the
//! server streams the feeds to the shared replay viewer as server-sent events.

mod feed;
mod server;

pub use feed::{Joined, LiveHub, LiveMatch, MatchEntry};
pub use server::{KEEP_BYTES, WatchServer, start};

use std::net::SocketAddr;
use std::sync::Arc;

/// Starts the live view when `--watch` was given and tells the user where to point a browser.
/// The server stops when the returned handle is dropped.
pub async fn serve_if_asked(
    addr: Option<SocketAddr>,
) -> anyhow::Result<(Option<WatchServer>, Option<Arc<LiveHub>>)> {
    let Some(addr) = addr else {
        return Ok((None, None));
    };
    let hub = LiveHub::new();
    let server = start(addr, hub.clone()).await?;
    if !server.addr.ip().is_loopback() {
        crate::output::eprint_line(&format!(
            "arena: warning: the live view listens on {}, reachable from other machines; it \
             shows every seat's cards to anyone with its URL",
            server.addr
        ));
    }
    crate::output::eprint_line(&format!("arena: watch live at {}", server.url()));
    Ok((Some(server), Some(hub)))
}
