//! The site's connections: accepted, capped and timed here rather than by `axum::serve`,
//! which has no header, body or idle timeout and no cap, so that slow or idle clients (a
//! half-sent request, a body announced and never sent, thousands of open sockets) cannot hold
//! the server or take its file descriptors from real visitors.
//!
//! - A request's head must arrive within `header_seconds` of the connection opening or of
//!   the previous answer (hyper's header read timeout, which also closes idle keep-alive
//!   connections); its body within `body_seconds` of the head ([`deadline_body`]).
//! - An answer the client stops taking fails after `body_seconds` without progress
//!   ([`stalled_writes`]).
//! - Connections beyond `max_connections` in all, or `max_connections_per_address` from one
//!   address, are answered a fixed 503 or 429 at once, without reading, and closed
//!   ([`caps`]). The total is kept well under the process's limit of open files
//!   ([`open_files`]).
//! - Bodies larger than a route accepts are refused by the router (`web::body_limit`).

pub mod caps;
pub mod deadline_body;
pub mod open_files;
pub mod stalled_writes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use crate::config::HttpPolicy;
use caps::{ConnectionCaps, Refusal};
use deadline_body::DeadlineBody;
use stalled_writes::StalledWrites;

/// How long a stopping server lets the requests under way finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// The limits in force: the contest's, the total lowered to fit the open-files limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub header: Duration,
    pub body: Duration,
    pub max_connections: usize,
    pub max_connections_per_address: usize,
}

impl Limits {
    /// The contest's limits, with the connection cap fitted under `open_files` (the soft
    /// limit in force; `None`: unlimited). A cap lowered that far also lowers the share of
    /// one address, to a quarter, so that one client cannot fill it.
    pub fn fitted(policy: &HttpPolicy, open_files: Option<u64>) -> Limits {
        let total = open_files::connection_cap(policy.max_connections, open_files);
        let per_address = if total < policy.max_connections {
            policy.max_connections_per_address.min((total / 4).max(1))
        } else {
            policy.max_connections_per_address
        };
        Limits {
            header: Duration::from_secs(policy.header_seconds),
            body: Duration::from_secs(policy.body_seconds),
            max_connections: total as usize,
            max_connections_per_address: per_address as usize,
        }
    }
}

/// Serves `app` on `listener` until `stop` is cancelled, then lets the requests under way
/// finish (at most [`SHUTDOWN_GRACE`]).
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, stop: CancellationToken) {
    let caps = Arc::new(ConnectionCaps::new(
        limits.max_connections,
        limits.max_connections_per_address,
    ));
    let closing = CancellationToken::new();
    loop {
        let (stream, remote) = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
        };
        let slot = match caps.admit(remote.ip()) {
            Ok(slot) => slot,
            Err(refusal) => {
                refuse(stream, refusal);
                continue;
            }
        };
        let app = app.clone();
        let limits = limits.clone();
        let closing = closing.clone();
        tokio::spawn(async move {
            serve_connection(stream, remote, app, &limits, closing).await;
            drop(slot);
        });
    }
    drop(listener);
    closing.cancel();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, caps.all_closed()).await;
}

/// One connection, HTTP/1.1 with keep-alive, until the client or a timeout closes it.
async fn serve_connection(
    stream: TcpStream,
    remote: SocketAddr,
    app: Router,
    limits: &Limits,
    closing: CancellationToken,
) {
    let _ = stream.set_nodelay(true);
    let body_limit = limits.body;
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        let mut request = request.map(|body| Body::new(DeadlineBody::new(body, body_limit)));
        // What `auth::ClientIp` reads (the socket's address, never a header).
        request.extensions_mut().insert(ConnectInfo(remote));
        app.clone().oneshot(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .keep_alive(true)
        // A client that sends its request and shuts its side (`nc -N`, some scripts) still
        // gets its answer.
        .half_close(true);
    let io = TokioIo::new(StalledWrites::new(stream, limits.body));
    let connection = builder.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(e) = result {
                tracing::debug!("connection from {remote}: {e}");
            }
        }
        _ = closing.cancelled() => {
            // Idle connections close now; a request under way gets its answer first.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}

/// A connection over a cap: a fixed answer if the socket takes it at once, then closed.
/// Nothing is read and nothing waits, so refusing costs one descriptor for an instant.
fn refuse(stream: TcpStream, refusal: Refusal) {
    let answer: &[u8] = match refusal {
        Refusal::Full => {
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
              retry-after: 5\r\nconnection: close\r\ncontent-length: 42\r\n\r\n\
              the server is busy; try again in a moment\n"
        }
        Refusal::AddressFull => {
            b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n\
              retry-after: 5\r\nconnection: close\r\ncontent-length: 44\r\n\r\n\
              too many connections open from your address\n"
        }
    };
    let _ = stream.try_write(answer);
}

/// Out of descriptors (EMFILE) or a similar failure: wait for connections to close rather
/// than spin. A client that gave up before being accepted is no failure.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("cannot accept a connection: {e}");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(total: u64, per_address: u64) -> HttpPolicy {
        HttpPolicy {
            header_seconds: 10,
            body_seconds: 60,
            max_connections: total,
            max_connections_per_address: per_address,
        }
    }

    #[test]
    fn a_lowered_cap_lowers_one_address_share_too() {
        let l = Limits::fitted(&policy(2048, 256), Some(524_288));
        assert_eq!(
            (l.max_connections, l.max_connections_per_address),
            (2048, 256)
        );
        let l = Limits::fitted(&policy(2048, 256), Some(1024));
        assert_eq!(
            (l.max_connections, l.max_connections_per_address),
            (256, 64)
        );
        assert_eq!(l.header, Duration::from_secs(10));
    }
}
