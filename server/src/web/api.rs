//! The JSON API, for curl and scripts: bearer tokens only (see [`super::auth`]).
//!
//! - `POST /api/tokens` `{"name", "password", "label"}`: a new token (under the lockout
//!   like a login; sent with one of the account's tokens, or the known-device cookie it
//!   sets, it passes the account's lockout).
//! - `GET /api/me`, `GET /api/bots`: the account and its bots with their versions.
//! - `POST /api/bots/NAME/versions` (multipart `file`, `language`): a new version.
//! - `GET /api/bots/NAME/versions/N`: a version with its logs and file list;
//!   `.../files/PATH`: one file. Someone else's bot is a 404, exactly like a missing one.

use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::auth::{ApiUser, ClientIp};
use super::forms::read_upload;
use super::known_device::{self, Accept};
use super::pages::{authenticate, file_response, new_token, owned_version};
use super::{Shared, WebError};
use crate::storage::{Bot, Version};

#[derive(Serialize)]
struct VersionSummary {
    number: i64,
    language: String,
    state: &'static str,
    source_kind: &'static str,
    source_name: String,
    source_bytes: i64,
    uploaded_at_ms: i64,
    updated_at_ms: i64,
}

impl From<&Version> for VersionSummary {
    fn from(v: &Version) -> Self {
        VersionSummary {
            number: v.number,
            language: v.language.clone(),
            state: v.state.as_str(),
            source_kind: v.source_kind.as_str(),
            source_name: v.source_name.clone(),
            source_bytes: v.source_bytes,
            uploaded_at_ms: v.created_at,
            updated_at_ms: v.updated_at,
        }
    }
}

#[derive(Serialize)]
struct FileEntry {
    path: String,
    bytes: u64,
}

#[derive(Serialize)]
struct VersionDetail {
    bot: String,
    #[serde(flatten)]
    summary: VersionSummary,
    sha256: String,
    unpacked_bytes: i64,
    file_count: i64,
    build_attempts: i64,
    build_log: String,
    check_log: String,
    files: Vec<FileEntry>,
}

fn detail(state: &Shared, bot: &Bot, v: &Version) -> Result<VersionDetail, WebError> {
    let files = state
        .submissions
        .files(v)
        .map_err(|e| WebError::internal(e).api())?;
    Ok(VersionDetail {
        bot: bot.name.clone(),
        summary: v.into(),
        sha256: v.source_sha256.clone(),
        unpacked_bytes: v.unpacked_bytes,
        file_count: v.file_count,
        build_attempts: v.build_attempt,
        build_log: v.build_log.clone(),
        check_log: v.check_log.clone(),
        files: files
            .into_iter()
            .map(|(path, bytes)| FileEntry { path, bytes })
            .collect(),
    })
}

#[derive(Deserialize)]
pub struct TokenRequest {
    name: String,
    password: String,
    #[serde(default)]
    label: String,
}

pub async fn create_token(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Json(request): Json<TokenRequest>,
) -> Result<Response, WebError> {
    let accept = Accept::CookieOrBearer;
    let user = authenticate(
        &state,
        &ip,
        &headers,
        accept,
        &request.name,
        &request.password,
    )
    .await
    .map_err(WebError::api)?
    .ok_or_else(|| WebError::unauthorized("wrong name or password").api())?;
    let label = if request.label.trim().is_empty() {
        "api"
    } else {
        request.label.as_str()
    };
    let token = new_token(&state, &user, label)
        .await
        .map_err(WebError::api)?;
    // A script keeping cookies is a known device at its next token request.
    let device = known_device::set_cookie(&state, user.id).map_err(WebError::api)?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, device)],
        Json(serde_json::json!({ "token": token })),
    )
        .into_response())
}

pub async fn me(ApiUser(user): ApiUser) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "name": user.name,
        "display_name": user.display_name,
        "admin": user.is_admin,
    }))
}

pub async fn my_bots(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
) -> Result<Json<serde_json::Value>, WebError> {
    let mut bots = Vec::new();
    for bot in state
        .db
        .bots_of(user.id)
        .await
        .map_err(|e| WebError::from(e).api())?
    {
        let versions: Vec<VersionSummary> = state
            .db
            .versions_of(bot.id)
            .await
            .map_err(|e| WebError::from(e).api())?
            .iter()
            .map(VersionSummary::from)
            .collect();
        bots.push(serde_json::json!({ "name": bot.name, "versions": versions }));
    }
    Ok(Json(serde_json::json!({ "bots": bots })))
}

pub async fn upload(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    ApiUser(user): ApiUser,
    Path(name): Path<String>,
    multipart: Multipart,
) -> Result<Response, WebError> {
    state
        .upload_limiter
        .check_all(&[&format!("ip:{ip}"), &format!("user:{}", user.id)])
        .map_err(|w| WebError::too_many(w).api())?;
    let form = read_upload(multipart).await.map_err(WebError::api)?;
    let (file_name, bytes) = form.file.clone().ok_or_else(|| {
        WebError::bad_request("send the bot as a multipart field named file").api()
    })?;
    let (bot, version) = state
        .submissions
        .submit(&user, &name, form.field("language"), &file_name, bytes)
        .await
        .map_err(|e| WebError::from(e).api())?;
    Ok((StatusCode::CREATED, Json(detail(&state, &bot, &version)?)).into_response())
}

pub async fn version(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
    Path((name, number)): Path<(String, String)>,
) -> Result<Response, WebError> {
    let (bot, v) = owned_version(&state, &user, &name, &number)
        .await
        .map_err(WebError::api)?;
    Ok(Json(detail(&state, &bot, &v)?).into_response())
}

pub async fn version_file(
    State(state): State<Shared>,
    ApiUser(user): ApiUser,
    Path((name, number, path)): Path<(String, String, String)>,
) -> Result<Response, WebError> {
    let (_, v) = owned_version(&state, &user, &name, &number)
        .await
        .map_err(WebError::api)?;
    let bytes = state
        .submissions
        .read_file(&v, &path)
        .map_err(|e| WebError::internal(e).api())?
        .ok_or_else(|| WebError::not_found().api())?;
    Ok(file_response(bytes))
}
