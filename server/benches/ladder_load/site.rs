//! The real router served on 127.0.0.1:0, as `arena-server` serves it (with the peer's
//! address for the rate limits), in this process's runtime.

use std::net::SocketAddr;
use std::sync::Arc;

use server::accounts::ratelimit::RateLimiter;
use server::config::Contest;
use server::ladder::submissions::Submissions;
use server::storage::Db;
use server::web::{self, AppState, Shared};

/// The site's state over `db`. `open_uploads`: no per-address upload limit (the bench's
/// uploads all come from 127.0.0.1; the contest's limit, 5 at once then one every 10 s per
/// address and per account, would measure the limiter, not the server).
pub fn state(contest: Arc<Contest>, db: Db, open_uploads: bool) -> Shared {
    let submissions = Submissions::of_contest(db.clone(), &contest).expect("the uploads directory");
    if open_uploads {
        AppState::with_limiters(
            contest,
            db,
            submissions,
            RateLimiter::new(10, std::time::Duration::from_secs(6)),
            RateLimiter::new(1_000_000, std::time::Duration::from_micros(1)),
        )
    } else {
        AppState::new(contest, db, submissions)
    }
}

/// Serves `state` until the returned task is aborted.
pub async fn serve(state: Shared) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = listener.local_addr().expect("its address");
    let app = web::router(state);
    let task = tokio::spawn(async move {
        let _ = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await;
    });
    (address, task)
}
