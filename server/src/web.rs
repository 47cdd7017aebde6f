//! The HTTP layer: routes, pages, cookies, CSRF, rate limits. It calls [`crate::accounts`],
//! [`crate::ladder`] and [`crate::storage`] and holds no SQL of its own.

pub mod admin;
pub mod api;
pub mod auth;
pub mod board;
pub mod body_limit;
pub mod bot_page;
pub mod cached;
pub mod cached_map;
pub mod error;
pub mod final_logs;
pub mod final_report;
pub mod forms;
pub mod gradebook;
pub mod grades;
pub mod html;
pub mod known_device;
pub mod leaderboard;
pub mod pages;
pub mod replay;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use error::WebError;

use crate::accounts::device::DeviceKey;
use crate::accounts::login_guard::LoginGuard;
use crate::accounts::ratelimit::RateLimiter;
use crate::config::Contest;
use crate::ladder::final_round::FinalRound;
use crate::ladder::submissions::Submissions;
use crate::storage::Db;

/// Everything a request handler may use.
#[derive(Debug)]
pub struct AppState {
    pub contest: Arc<Contest>,
    pub db: Db,
    pub submissions: Submissions,
    /// Logins, sign-ups, setups and API token requests: every try, per address (a login from
    /// a known device: per account, see `login_guard`).
    pub login_limiter: RateLimiter,
    /// The login lockout: wrong passwords per address, per account and per known device.
    pub login_guard: LoginGuard,
    /// Uploads, per address and per account (the hourly cap is in the database).
    pub upload_limiter: RateLimiter,
    /// The organizer's final round robin (a background task once started).
    pub final_round: Arc<FinalRound>,
    /// The leaderboard, made at most once a second for every reader.
    pub board: board::BoardCache,
    /// The public pages' line about the freeze and the final, likewise.
    pub notice: cached::Cached<final_report::ContestNotice>,
    /// Each bot's page, made at most every [`bot_page::MAX_AGE`] for its readers.
    pub bot_pages: bot_page::Pages,
    /// An assignment's last copy check, made again when grading moved on.
    pub copies: gradebook::CopiesCache,
}

pub type Shared = Arc<AppState>;

impl AppState {
    /// The state with a device key of this process only (tests): known devices are
    /// forgotten when it ends. The server's is [`AppState::with_device_key`].
    pub fn new(contest: Arc<Contest>, db: Db, submissions: Submissions) -> Shared {
        // Only tests and benchmarks build the state this way: the OS's random source failing
        // there may stop them.
        let key = DeviceKey::random().expect("the OS random source");
        AppState::with_device_key(contest, db, submissions, key)
    }

    /// The state with the contest's limits and the server's device key (kept in its data
    /// directory, so that devices stay known across restarts).
    pub fn with_device_key(
        contest: Arc<Contest>,
        db: Db,
        submissions: Submissions,
        key: DeviceKey,
    ) -> Shared {
        // Logins: 10 tries at once, then one every 6 s per address: a person mistyping is
        // never slowed; wrong passwords are slowed further by the lockout. Uploads: 5 at
        // once, then one every 10 s (a build costs far more than a request).
        AppState::with_parts(
            contest,
            db,
            submissions,
            RateLimiter::new(10, Duration::from_secs(6)),
            RateLimiter::new(5, Duration::from_secs(10)),
            LoginGuard::new(key),
        )
    }

    /// The state with other buckets for tries and uploads (tests that make many).
    pub fn with_limiters(
        contest: Arc<Contest>,
        db: Db,
        submissions: Submissions,
        login_limiter: RateLimiter,
        upload_limiter: RateLimiter,
    ) -> Shared {
        // As in `new`: tests and benchmarks only.
        let key = DeviceKey::random().expect("the OS random source");
        AppState::with_parts(
            contest,
            db,
            submissions,
            login_limiter,
            upload_limiter,
            LoginGuard::new(key),
        )
    }

    /// The state from all its parts.
    pub fn with_parts(
        contest: Arc<Contest>,
        db: Db,
        submissions: Submissions,
        login_limiter: RateLimiter,
        upload_limiter: RateLimiter,
        login_guard: LoginGuard,
    ) -> Shared {
        let final_round = Arc::new(FinalRound::new(db.clone(), contest.clone()));
        let board = board::BoardCache::new(board::MAX_AGE, contest.ladder.provisional);
        Arc::new(AppState {
            contest,
            db,
            submissions,
            login_limiter,
            login_guard,
            upload_limiter,
            final_round,
            board,
            notice: cached::Cached::new(board::MAX_AGE, cached::WAIT),
            bot_pages: bot_page::pages(),
            copies: gradebook::CopiesCache::default(),
        })
    }
}

/// Forms and API calls other than uploads: small.
const SMALL_BODY: usize = 64 * 1024;

/// The whole site.
pub fn router(state: Shared) -> Router {
    // Multipart framing and the other fields around the file.
    let upload_body = state.contest.uploads.max_bytes as usize + 64 * 1024;
    let uploads = limit_bodies(
        Router::new()
            .route("/bots/upload", post(pages::upload))
            .route("/api/bots/{name}/versions", post(api::upload)),
        upload_body,
    );
    let site = Router::new()
        .route("/", get(pages::home))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/register", get(pages::register_form).post(pages::register))
        .route("/setup/{token}", get(pages::setup_form))
        .route("/setup", post(pages::setup))
        .route("/logout", post(pages::logout))
        .route("/matches/{id}/replay", get(replay::page))
        .route("/grades", get(grades::page))
        .route("/api/grades", get(grades::api))
        .route("/admin/gradebook", get(gradebook::page))
        .route("/admin/gradebook.csv", get(gradebook::csv))
        .route("/admin/regrade", post(gradebook::regrade))
        .route("/api/admin/gradebook", get(gradebook::api))
        .route("/api/admin/gradebook.csv", get(gradebook::api_csv))
        .route("/api/admin/regrade", post(gradebook::api_regrade))
        .route("/bots", get(pages::my_bots))
        .route("/bots/{name}/versions/{number}", get(pages::version_page))
        .route(
            "/bots/{name}/versions/{number}/files/{*path}",
            get(pages::version_file),
        )
        .route("/admin", get(admin::page))
        .route("/admin/freeze", post(admin::freeze))
        .route("/admin/unfreeze", post(admin::unfreeze))
        .route("/admin/final", post(admin::start_final))
        .route("/api/admin/contest", get(admin::api_status))
        .route("/api/admin/freeze", post(admin::api_freeze))
        .route("/api/admin/unfreeze", post(admin::api_unfreeze))
        .route("/api/admin/final", post(admin::api_start_final))
        .route("/final", get(final_report::redirect))
        .route("/final/", get(final_report::index))
        .route("/final/{*path}", get(final_report::file))
        .route("/api/final", get(final_report::api))
        .route("/final-logs", get(final_logs::list))
        .route("/final-logs/{index}", get(final_logs::match_page))
        .route("/tokens", post(pages::create_token))
        .route("/tokens/{id}/revoke", post(pages::revoke_token))
        .route("/assets/common.css", get(common_css))
        .route("/assets/server.css", get(server_css))
        // `replay::VIEWER_SCRIPT` and `VIEWER_STYLE`, written out: the client-mistakes test
        // reads the routes from this file's literals.
        .route("/assets/viewer.js", get(replay::viewer_script))
        .route("/assets/viewer.css", get(replay::viewer_style))
        .route("/api/tokens", post(api::create_token))
        .route("/api/me", get(api::me))
        .route("/api/bots", get(api::my_bots))
        .route("/api/bots/{name}/versions/{number}", get(api::version))
        .route(
            "/api/bots/{name}/versions/{number}/files/{*path}",
            get(api::version_file),
        );
    // An assignment has no leaderboard and no public bot pages: a student sees only their
    // own grades and games.
    let site = if state.contest.assignment.is_none() {
        site.route("/leaderboard", get(leaderboard::page))
            .route("/leaderboard/{bot}", get(bot_page::page))
            .route("/api/leaderboard", get(leaderboard::api))
            .route("/api/leaderboard/{bot}", get(bot_page::api))
    } else {
        site
    };
    limit_bodies(site, SMALL_BODY)
        .merge(uploads)
        // axum's own 405 has an empty body (its `Allow` header stays).
        .method_not_allowed_fallback(|uri: Uri| async move {
            let e = WebError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this address does not take that method",
            );
            if uri.path().starts_with("/api/") {
                e.api()
            } else {
                e
            }
        })
        .fallback(|| async { WebError::not_found() })
        .layer(middleware::from_fn(error::json_under_api))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

/// `routes` accept bodies of at most `max` bytes: announced (413 at once) or sent.
fn limit_bodies(routes: Router<Shared>, max: usize) -> Router<Shared> {
    routes
        .route_layer(DefaultBodyLimit::max(max))
        .route_layer(middleware::from_fn_with_state(
            max,
            body_limit::refuse_announced,
        ))
}

/// Headers on every answer: no framing (clickjacking), no MIME sniffing (an uploaded file
/// served as text stays text), no referrer to other sites (setup links carry a token),
/// scripts from nowhere (the pages have none), and nothing private cached.
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
    // Not `no-referrer`: under it a browser sends `Origin: null` with the site's own form
    // posts, and `auth::check_origin` refused every login, sign-up and upload.
    set(h, "referrer-policy", "same-origin");
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
