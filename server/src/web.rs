//! The HTTP layer: routes, pages, cookies, CSRF, rate limits. It calls [`crate::accounts`],
//! [`crate::ladder`] and [`crate::storage`] and holds no SQL of its own.

pub mod api;
pub mod auth;
pub mod board;
pub mod error;
pub mod forms;
pub mod html;
pub mod leaderboard;
pub mod pages;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use error::WebError;

use crate::accounts::ratelimit::RateLimiter;
use crate::config::Contest;
use crate::ladder::submissions::Submissions;
use crate::storage::Db;

/// Everything a request handler may use.
#[derive(Debug)]
pub struct AppState {
    pub contest: Arc<Contest>,
    pub db: Db,
    pub submissions: Submissions,
    /// Logins, sign-ups, setups and API token requests, per address and per account name.
    pub login_limiter: RateLimiter,
    /// Uploads, per address and per account (the hourly cap is in the database).
    pub upload_limiter: RateLimiter,
    /// The leaderboard, made at most once a second for every reader.
    pub board: board::BoardCache,
}

pub type Shared = Arc<AppState>;

impl AppState {
    pub fn new(contest: Arc<Contest>, db: Db, submissions: Submissions) -> Shared {
        // Logins: 10 tries at once, then one every 6 s: a person mistyping is never slowed,
        // a guesser gets 10 a minute per account however many addresses it has. Uploads: 5
        // at once, then one every 10 s (a build costs far more than a request).
        AppState::with_limiters(
            contest,
            db,
            submissions,
            RateLimiter::new(10, Duration::from_secs(6)),
            RateLimiter::new(5, Duration::from_secs(10)),
        )
    }

    pub fn with_limiters(
        contest: Arc<Contest>,
        db: Db,
        submissions: Submissions,
        login_limiter: RateLimiter,
        upload_limiter: RateLimiter,
    ) -> Shared {
        Arc::new(AppState {
            contest,
            db,
            submissions,
            login_limiter,
            upload_limiter,
            board: board::BoardCache::new(board::MAX_AGE),
        })
    }
}

/// Forms and API calls other than uploads: small.
const SMALL_BODY: usize = 64 * 1024;

/// The whole site.
pub fn router(state: Shared) -> Router {
    // Multipart framing and the other fields around the file.
    let upload_body = state.contest.uploads.max_bytes as usize + 64 * 1024;
    Router::new()
        .route("/", get(pages::home))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/register", get(pages::register_form).post(pages::register))
        .route("/setup/{token}", get(pages::setup_form))
        .route("/setup", post(pages::setup))
        .route("/logout", post(pages::logout))
        .route("/leaderboard", get(leaderboard::page))
        .route("/leaderboard/{bot}", get(leaderboard::bot_page))
        .route("/matches/{id}/replay", get(leaderboard::replay))
        .route("/api/leaderboard", get(leaderboard::api))
        .route("/bots", get(pages::my_bots))
        .route(
            "/bots/upload",
            post(pages::upload).layer(DefaultBodyLimit::max(upload_body)),
        )
        .route("/bots/{name}/versions/{number}", get(pages::version_page))
        .route(
            "/bots/{name}/versions/{number}/files/{*path}",
            get(pages::version_file),
        )
        .route("/tokens", post(pages::create_token))
        .route("/tokens/{id}/revoke", post(pages::revoke_token))
        .route("/assets/common.css", get(common_css))
        .route("/assets/server.css", get(server_css))
        .route("/api/tokens", post(api::create_token))
        .route("/api/me", get(api::me))
        .route("/api/bots", get(api::my_bots))
        .route(
            "/api/bots/{name}/versions",
            post(api::upload).layer(DefaultBodyLimit::max(upload_body)),
        )
        .route("/api/bots/{name}/versions/{number}", get(api::version))
        .route(
            "/api/bots/{name}/versions/{number}/files/{*path}",
            get(api::version_file),
        )
        .fallback(|| async { WebError::not_found() })
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

/// Headers on every answer: no framing (clickjacking), no MIME sniffing (an uploaded file
/// served as text stays text), no referrer (setup links carry a token), scripts from nowhere
/// (the pages have none), and nothing private cached.
async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name: &'static str, value: &'static str| {
        h.insert(name, HeaderValue::from_static(value));
    };
    // A page with a policy of its own (a replay's inline viewer) keeps it.
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        set(
            h,
            "content-security-policy",
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        );
    }
    set(h, "x-content-type-options", "nosniff");
    set(h, "x-frame-options", "DENY");
    set(h, "referrer-policy", "no-referrer");
    if !h.contains_key(header::CACHE_CONTROL) {
        set(h, "cache-control", "no-store");
    }
    response
}

fn css(text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        text,
    )
        .into_response()
}

async fn common_css() -> Response {
    css(include_str!("../../arena/assets/common.css"))
}

async fn server_css() -> Response {
    css(include_str!("../assets/server.css"))
}
