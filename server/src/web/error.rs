//! What a request that fails answers: JSON `{"error": ...}` for the API, a small page for the
//! site. Internal errors are logged in full and shown as a plain "internal error". A database
//! that cannot be reached is no internal error: 503 with `Retry-After`, said in words.

use std::time::Duration;

use askama::Template;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::html;
use crate::ladder::submissions::SubmitError;
use crate::storage::StorageError;

#[derive(Debug)]
pub struct WebError {
    pub status: StatusCode,
    pub message: String,
    pub json: bool,
    pub retry_after: Option<Duration>,
}

impl WebError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> WebError {
        WebError {
            status,
            message: message.into(),
            json: false,
            retry_after: None,
        }
    }

    /// The same error, answered as JSON (the API).
    pub fn api(mut self) -> WebError {
        self.json = true;
        self
    }

    /// Not found; also what a participant gets for anything of someone else's, so that
    /// existence does not leak.
    pub fn not_found() -> WebError {
        WebError::new(StatusCode::NOT_FOUND, "not found")
    }

    pub fn bad_request(message: impl Into<String>) -> WebError {
        WebError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn forbidden(message: impl Into<String>) -> WebError {
        WebError::new(StatusCode::FORBIDDEN, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> WebError {
        WebError::new(StatusCode::UNAUTHORIZED, message)
    }

    pub fn too_many(wait: Duration) -> WebError {
        let mut e = WebError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many attempts; try again in {} s", whole_seconds(wait)),
        );
        e.retry_after = Some(wait);
        e
    }

    /// The database is away (refused, shutting down, no connection within the wait): 503,
    /// try again shortly. Logged as a warning: the server is fine, the database is not.
    pub fn unavailable(what: impl std::fmt::Display) -> WebError {
        tracing::warn!("database unavailable: {what}");
        WebError::unavailable_logged()
    }

    /// The same answer for a failure logged already (a cached page's refresh logs its own,
    /// once for all the readers it fails).
    pub fn unavailable_logged() -> WebError {
        let mut e = WebError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database is unreachable just now; try again in a few seconds",
        );
        e.retry_after = Some(RETRY_UNAVAILABLE);
        e
    }

    pub fn internal(what: impl std::fmt::Display) -> WebError {
        tracing::error!("internal error: {what}");
        WebError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")
    }
}

/// What a 503 for an unreachable database asks a client to wait: long enough for a restarted
/// database to take connections again, short enough that a visitor retries soon.
pub const RETRY_UNAVAILABLE: Duration = Duration::from_secs(5);

impl From<StorageError> for WebError {
    fn from(e: StorageError) -> Self {
        if e.is_unavailable() {
            WebError::unavailable(e)
        } else {
            WebError::internal(e)
        }
    }
}

impl From<SubmitError> for WebError {
    fn from(e: SubmitError) -> Self {
        use crate::ladder::unpack::UnpackError;
        let status = match &e {
            // The server's own disk or database failed: not the participant's doing.
            SubmitError::Storage(s) if s.is_unavailable() => return WebError::unavailable(e),
            SubmitError::Storage(_)
            | SubmitError::Io(_)
            | SubmitError::Unpack(UnpackError::Io(_)) => {
                return WebError::internal(e);
            }
            SubmitError::BadBotName | SubmitError::Language(..) | SubmitError::Unpack(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            SubmitError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            // The contest's state refuses it, whoever asks: 409 (documented in the README).
            SubmitError::NameTaken(_)
            | SubmitError::TooManyBots(_)
            | SubmitError::Frozen
            | SubmitError::Closed(_) => StatusCode::CONFLICT,
            SubmitError::TooOften(_) => StatusCode::TOO_MANY_REQUESTS,
        };
        WebError::new(status, e.to_string())
    }
}

/// A failed request's page: its status in words as the title, the message below.
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    layout: html::Layout<'a>,
    message: &'a str,
}

/// Put on every error's response: what [`json_under_api`] needs to answer it as JSON.
#[derive(Clone, Debug)]
struct ErrorMessage(String);

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let message = ErrorMessage(self.message.clone());
        let mut response = if self.json {
            (
                self.status,
                axum::Json(serde_json::json!({ "error": self.message })),
            )
                .into_response()
        } else {
            let title = self.status.canonical_reason().unwrap_or("error");
            let page = ErrorPage {
                layout: html::Layout::new("", title, None),
                message: &self.message,
            };
            (self.status, html::page(&page)).into_response()
        };
        if let Some(wait) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&whole_seconds(wait).to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response.extensions_mut().insert(message);
        response
    }
}

/// A wait in whole seconds, rounded up (a client that waits what `Retry-After` says must not
/// come back early), at least 1.
fn whole_seconds(wait: Duration) -> u64 {
    let up = u64::from(wait.subsec_nanos() > 0);
    wait.as_secs().saturating_add(up).max(1)
}

/// Middleware: an error under `/api/` is answered as JSON, whichever handler or extractor
/// made it. Handlers mark most of their errors with [`WebError::api`], but one raised through
/// `?` from deep inside (the database gone away mid-request) would otherwise answer a script
/// with an HTML page. Its status and headers (`Retry-After`) stay.
pub async fn json_under_api(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let response = next.run(request).await;
    if !api {
        return response;
    }
    let is_html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    let Some(ErrorMessage(message)) = response.extensions().get::<ErrorMessage>().cloned() else {
        return response;
    };
    if !is_html {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let json = axum::Json(serde_json::json!({ "error": message })).into_response();
    let (json_parts, body) = json.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    for (name, value) in &json_parts.headers {
        parts.headers.insert(name, value.clone());
    }
    Response::from_parts(parts, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::http::Request;
    use axum::routing::get;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// An error raised as a page (no `.api()`) under `/api/` reaches the client as JSON, with
    /// its status and `Retry-After`; elsewhere it stays a page.
    #[tokio::test]
    async fn errors_under_the_api_are_json_whoever_raised_them() {
        async fn away() -> Result<String, WebError> {
            Err(WebError::from(StorageError::Sql(sqlx::Error::PoolTimedOut)))
        }
        let app = Router::new()
            .route("/api/x", get(away))
            .route("/x", get(away))
            .layer(axum::middleware::from_fn(json_under_api));
        for (path, json) in [("/api/x", true), ("/x", false)] {
            let response = app
                .clone()
                .oneshot(Request::get(path).body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
            assert_eq!(response.headers()[header::RETRY_AFTER], "5", "{path}");
            let kind = response.headers()[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .to_string();
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let body = String::from_utf8_lossy(&body);
            if json {
                assert_eq!(kind, "application/json", "{path}");
                let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                assert!(
                    v["error"].as_str().unwrap().contains("unreachable"),
                    "{body}"
                );
            } else {
                assert!(kind.starts_with("text/html"), "{path}: {kind}");
                assert!(body.contains("unreachable"), "{body}");
            }
        }
    }
}
