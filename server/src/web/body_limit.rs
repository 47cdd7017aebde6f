//! Each route's largest body: axum's `DefaultBodyLimit` stops a body that grows past it, and
//! a `Content-Length` announcing more is answered 413 at once, before a byte of it is read
//! (otherwise the handler would wait for a body it will refuse anyway).

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::WebError;

/// Refuses a request whose `Content-Length` is over `max`; an unreadable one is a 400 (hyper
/// already refuses most).
pub async fn refuse_announced(State(max): State<usize>, request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api/");
    let answer = |e: WebError| if api { e.api() } else { e }.into_response();
    if let Some(value) = request.headers().get(header::CONTENT_LENGTH) {
        match value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
        {
            Some(length) if length > max as u64 => {
                return answer(WebError::new(
                    axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body is {length} bytes; this page accepts at most {max}"),
                ));
            }
            Some(_) => {}
            None => {
                return answer(WebError::bad_request(
                    "the Content-Length header is not a number",
                ));
            }
        }
    }
    next.run(request).await
}
