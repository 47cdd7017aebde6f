//! The organizer's page and API: freeze and unfreeze uploads, start the final round robin,
//! follow it. Admins only (`users.is_admin`, from `[accounts] admins`): other accounts get 404
//! on the page and its forms (a participant learns nothing of it; without a session, the login
//! page) and 403 from the API.
//!
//! - `GET /admin`, `POST /admin/freeze`, `POST /admin/unfreeze`, `POST /admin/final` (forms
//!   with the session's CSRF token, like every other form).
//! - `GET /api/admin/contest`: uploads, the final (with its error), the entrants.
//! - `POST /api/admin/freeze`, `POST /api/admin/unfreeze`: 200 with the new status (either
//!   is harmless to repeat); unfreezing while the final runs: 409.
//! - `POST /api/admin/final`: 202, the final starts in the background; 409 with the reason
//!   when it cannot (uploads open, builds pending, too few bots, running or played already).

use askama::Template;
use axum::Form;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Serialize;

use super::auth::{self, ApiUser, Session};
use super::html::{self, Layout};
use super::pages::CsrfForm;
use super::{Shared, WebError};
use crate::ladder::final_round::StartError;
use crate::storage::{ContestRecord, Entrant, FinalState, User, now_ms};

/// The contest's state as the organizer sees it.
#[derive(Serialize)]
pub struct AdminStatus {
    pub frozen: bool,
    pub frozen_at_ms: Option<i64>,
    #[serde(rename = "final")]
    pub final_round: FinalStatus,
    /// The bots the final would play now (every bot's ready version).
    pub entrants: Vec<EntrantRow>,
    /// Versions uploaded but not yet built: the final waits for them.
    pub pending_builds: i64,
    pub hands_per_match: u64,
    pub duplicate: bool,
    pub jobs: u64,
}

/// The final, as `/api/final` shows it to everyone (`error` only to admins).
#[derive(Serialize)]
pub struct FinalStatus {
    pub state: &'static str,
    pub started_at_ms: Option<i64>,
    pub finished_at_ms: Option<i64>,
    /// Matches finished and scheduled, once the tournament has started.
    pub played: Option<u64>,
    pub total: Option<u64>,
    /// Where the report is, once played.
    pub report: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Serialize)]
pub struct EntrantRow {
    pub bot: String,
    pub owner: String,
    pub version: i64,
}

/// The contest row, or an internal error (a server always records it at start).
pub async fn contest_row(state: &Shared) -> Result<ContestRecord, WebError> {
    state
        .db
        .contest_record()
        .await?
        .ok_or_else(|| WebError::internal("the contest row is missing"))
}

/// The final's status; `with_error`: the failure's reason (server paths, bots' output) for
/// admins.
pub fn final_status(state: &Shared, row: &ContestRecord, with_error: bool) -> FinalStatus {
    let final_state = FinalState::parse(&row.final_state).unwrap_or(FinalState::None);
    let progress = match final_state {
        FinalState::None => None,
        _ => state.final_round.paths().ok().and_then(|p| p.progress()),
    };
    FinalStatus {
        state: final_state.as_str(),
        started_at_ms: row.final_started_at,
        finished_at_ms: row.final_finished_at,
        played: progress.map(|p| p.played),
        total: progress.map(|p| p.total),
        report: (final_state == FinalState::Done).then_some("/final/"),
        error: if with_error {
            row.final_error.clone()
        } else {
            None
        },
    }
}

async fn status(state: &Shared) -> Result<AdminStatus, WebError> {
    let row = contest_row(state).await?;
    let entrants = state.db.final_entrants().await?;
    let f = &state.contest.final_round;
    Ok(AdminStatus {
        frozen: row.frozen_at.is_some(),
        frozen_at_ms: row.frozen_at,
        final_round: final_status(state, &row, true),
        entrants: entrants
            .into_iter()
            .map(
                |Entrant {
                     bot,
                     owner,
                     version,
                     ..
                 }| EntrantRow {
                    bot,
                    owner,
                    version,
                },
            )
            .collect(),
        pending_builds: state.db.pending_builds().await?,
        hands_per_match: f.hands_per_match,
        duplicate: f.duplicate,
        jobs: f.jobs,
    })
}

/// The admin's session; a redirect to the login page without one, 404 for anyone else.
async fn require_admin(state: &Shared, headers: &HeaderMap) -> Result<Session, Response> {
    match auth::session(state, headers).await {
        Ok(Some(s)) if s.user().is_admin => Ok(s),
        Ok(Some(_)) => Err(WebError::not_found().into_response()),
        Ok(None) => Err(Redirect::to("/login").into_response()),
        Err(e) => Err(e.into_response()),
    }
}

/// The organizer's page.
#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage<'a> {
    layout: Layout<'a>,
    message: &'a str,
    csrf: &'a str,
    frozen_since: Option<String>,
    state: &'static str,
    /// " · 3 of 6 matches played", or nothing.
    progress: String,
    /// " · started ... · ended ...", or nothing.
    times: String,
    /// Why the final failed, while it stands failed.
    error: Option<String>,
    pending_builds: i64,
    action: FinalAction,
    hands: u64,
    duplicate: bool,
    jobs: u64,
    entrants: Vec<EntrantRow>,
}

/// What the page offers for the final.
enum FinalAction {
    Start,
    FreezeFirst,
    Running,
    Report,
}

async fn render_page(
    state: &Shared,
    session: &Session,
    message: &str,
) -> Result<Response, WebError> {
    let s = status(state).await?;
    let f = s.final_round;
    let progress = match (f.played, f.total) {
        (Some(p), Some(t)) => format!(" · {p} of {t} matches played"),
        _ => String::new(),
    };
    let times = match (f.started_at_ms, f.finished_at_ms) {
        (Some(a), Some(b)) => format!(" · started {} · ended {}", html::time(a), html::time(b)),
        (Some(a), None) => format!(" · started {}", html::time(a)),
        _ => String::new(),
    };
    let action = match f.state {
        "none" | "failed" if s.frozen => FinalAction::Start,
        "none" | "failed" => FinalAction::FreezeFirst,
        "running" => FinalAction::Running,
        _ => FinalAction::Report,
    };
    Ok(html::page(&AdminPage {
        layout: Layout::new(
            &state.contest.name,
            "Organizer",
            Some(html::Viewer::of(session)),
        ),
        message,
        csrf: &session.record.csrf_token,
        frozen_since: s.frozen_at_ms.map(html::time),
        state: f.state,
        progress,
        times,
        error: f.error.filter(|_| f.state == "failed"),
        pending_builds: s.pending_builds,
        action,
        hands: s.hands_per_match,
        duplicate: s.duplicate,
        jobs: s.jobs,
        entrants: s.entrants,
    }))
}

pub async fn page(State(state): State<Shared>, headers: HeaderMap) -> Response {
    let session = match require_admin(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match render_page(&state, &session, "").await {
        Ok(page) => page,
        Err(e) => e.into_response(),
    }
}

/// A form's action: origin and CSRF checked, then `act`; back to the page, with the refusal
/// above it if `act` refused.
async fn form_action<F, Fut>(state: Shared, headers: HeaderMap, form: CsrfForm, act: F) -> Response
where
    F: FnOnce(Shared) -> Fut,
    Fut: std::future::Future<Output = Result<(), WebError>>,
{
    let session = match require_admin(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Err(e) = auth::check_origin(&headers).and_then(|_| session.check_csrf(&form.csrf)) {
        return e.into_response();
    }
    match act(state.clone()).await {
        Ok(()) => Redirect::to("/admin").into_response(),
        Err(e) if e.status == StatusCode::CONFLICT => {
            match render_page(&state, &session, &format!("Refused: {}", e.message)).await {
                Ok(page) => (e.status, page).into_response(),
                Err(e) => e.into_response(),
            }
        }
        Err(e) => e.into_response(),
    }
}

async fn do_freeze(state: Shared) -> Result<(), WebError> {
    contest_row(&state).await?;
    state.db.freeze_uploads(now_ms()).await?;
    tracing::info!("uploads frozen");
    Ok(())
}

async fn do_unfreeze(state: Shared) -> Result<(), WebError> {
    let row = contest_row(&state).await?;
    if !state.db.unfreeze_uploads().await? && row.final_state == "running" {
        return Err(WebError::new(
            StatusCode::CONFLICT,
            "the final round robin is running: uploads stay frozen until it ends",
        ));
    }
    tracing::info!("uploads open");
    Ok(())
}

async fn do_start(state: Shared) -> Result<(), WebError> {
    match state.final_round.start().await {
        Ok(()) => {
            tracing::info!("the final round robin started");
            Ok(())
        }
        Err(StartError::Storage(e)) => Err(e.into()),
        Err(e) => Err(WebError::new(StatusCode::CONFLICT, e.to_string())),
    }
}

pub async fn freeze(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    form_action(state, headers, form, do_freeze).await
}

pub async fn unfreeze(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    form_action(state, headers, form, do_unfreeze).await
}

pub async fn start_final(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    form_action(state, headers, form, do_start).await
}

/// The API caller, if an admin.
fn api_admin(user: User) -> Result<User, WebError> {
    if user.is_admin {
        Ok(user)
    } else {
        Err(WebError::forbidden("this needs an organizer's (admin's) API token").api())
    }
}

async fn api_answer(state: &Shared, code: StatusCode) -> Result<Response, WebError> {
    let s = status(state).await.map_err(WebError::api)?;
    Ok((code, Json(s)).into_response())
}

pub async fn api_status(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
) -> Result<Response, WebError> {
    api_admin(user)?;
    api_answer(&state, StatusCode::OK).await
}

pub async fn api_freeze(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
) -> Result<Response, WebError> {
    api_admin(user)?;
    do_freeze(state.clone()).await.map_err(WebError::api)?;
    api_answer(&state, StatusCode::OK).await
}

pub async fn api_unfreeze(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
) -> Result<Response, WebError> {
    api_admin(user)?;
    do_unfreeze(state.clone()).await.map_err(WebError::api)?;
    api_answer(&state, StatusCode::OK).await
}

pub async fn api_start_final(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
) -> Result<Response, WebError> {
    api_admin(user)?;
    do_start(state.clone()).await.map_err(WebError::api)?;
    api_answer(&state, StatusCode::ACCEPTED).await
}
