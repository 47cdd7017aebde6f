//! Why the live view (`--watch`) could not start.

use std::io;
use std::net::SocketAddr;

use crate::console::output::io_reason;

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The address of `--watch` cannot be listened on (taken, not this machine's, ...).
    #[error("--watch {addr}: cannot listen there: {reason}")]
    Listen { addr: SocketAddr, reason: io::Error },
    /// The listening socket has no address to show: said as the bare reason, as it always
    /// was.
    #[error("{}", io_reason(.0))]
    LocalAddress(io::Error),
    #[error("cannot draw the live view's token: {0}")]
    Token(rand_core::OsError),
}
