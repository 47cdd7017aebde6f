//! Who is asking: session cookies for the site, bearer tokens for the API, the client's
//! address for rate limits, and the CSRF checks on every state-changing form.
//!
//! - The cookie holds a 256-bit random id; the database keeps only its SHA-256. It is
//!   `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it),
//!   `Path=/`, and with `secure_cookies` also `Secure` under the `__Host-` prefix (the browser
//!   then refuses it over plain HTTP or from a subdomain).
//! - Forms that change state carry the session's random form token, compared in constant
//!   time, and the request's `Origin` (when the browser sends one, which all current browsers
//!   do on POST) must name this host; `Sec-Fetch-Site: cross-site` is refused. Login and
//!   sign-up forms have no session yet: they get the Origin check.
//! - The API takes only `Authorization: Bearer` tokens, never the cookie, so no other site
//!   can make a browser call it with the user's rights: it needs no CSRF token.

use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use super::{Shared, WebError};
use crate::accounts::Secret;
use crate::storage::{self, SessionRecord, User, now_ms, secret_digest};

const COOKIE: &str = "arena_session";
const SECURE_COOKIE: &str = "__Host-arena_session";

/// The session cookie's name for this contest.
pub fn cookie_name(state: &Shared) -> &'static str {
    if state.contest.accounts.secure_cookies {
        SECURE_COOKIE
    } else {
        COOKIE
    }
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// A logged-in visitor of the site.
#[derive(Clone, Debug)]
pub struct Session {
    pub record: SessionRecord,
    pub id_hash: String,
}

impl Session {
    pub fn user(&self) -> &User {
        &self.record.user
    }

    /// Checks a form's CSRF token against the session's.
    pub fn check_csrf(&self, form_token: &str) -> Result<(), WebError> {
        if constant_time_eq(form_token.as_bytes(), self.record.csrf_token.as_bytes()) {
            Ok(())
        } else {
            Err(WebError::forbidden(
                "the form is stale or came from another site; reload the page and try again",
            ))
        }
    }
}

/// The session of the request's cookie, if any and live.
pub async fn session(state: &Shared, headers: &HeaderMap) -> Result<Option<Session>, WebError> {
    let Some(id) = cookie(headers, cookie_name(state)) else {
        return Ok(None);
    };
    // A well-formed id only: nothing else is hashed or looked up.
    if id.len() != 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(None);
    }
    let id_hash = secret_digest(id);
    Ok(state
        .db
        .session(&id_hash, now_ms())
        .await?
        .map(|record| Session { record, id_hash }))
}

/// How long a public page waits for the visitor's session before showing itself as to
/// anyone: as long as it waits for its cached figures (the two are looked up at once), so
/// the page answers within a second while the database is away.
const VISITOR_WAIT: Duration = super::cached::WAIT;

/// The session of the request's cookie for a public page (the leaderboard, a bot's page, the
/// home page), which shows the same to everyone but the header's name and logout button:
/// when the database does not answer within [`VISITOR_WAIT`], or fails, the page is shown
/// as to a visitor without a session rather than not at all. It grants nothing. The lookup
/// runs on a task of its own, so a slow one finishes in the background instead of being
/// cut off mid-query.
pub async fn visitor(state: &Shared, headers: &HeaderMap) -> Option<Session> {
    // No cookie, no lookup (and no task).
    cookie(headers, cookie_name(state))?;
    let (state, headers) = (state.clone(), headers.clone());
    let lookup = tokio::spawn(async move { session(&state, &headers).await });
    match tokio::time::timeout(VISITOR_WAIT, lookup).await {
        Ok(Ok(Ok(session))) => session,
        Ok(Ok(Err(e))) => {
            tracing::debug!(
                "a public page shown without its visitor's session: {}",
                e.message
            );
            None
        }
        Ok(Err(_)) | Err(_) => None,
    }
}

/// Starts a session for `user`; returns the `Set-Cookie` header.
pub async fn start_session(state: &Shared, user: &User) -> Result<HeaderValue, WebError> {
    let secret = Secret::new()?;
    let csrf = storage::random_hex(32)?;
    let hours = state.contest.accounts.session_hours;
    let expires = now_ms() + (hours as i64) * 3_600_000;
    state
        .db
        .create_session(&secret.digest, user.id, &csrf, expires)
        .await?;
    set_cookie(state, &secret.token, hours * 3600)
}

/// The `Set-Cookie` header that ends the session in the browser.
pub fn clear_cookie(state: &Shared) -> Result<HeaderValue, WebError> {
    set_cookie(state, "", 0)
}

fn set_cookie(state: &Shared, value: &str, max_age: u64) -> Result<HeaderValue, WebError> {
    let secure = if state.contest.accounts.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}",
        cookie_name(state)
    ))
    .map_err(WebError::internal)
}

/// Refuses a state-changing request that another site's page made the browser send.
pub fn check_origin(headers: &HeaderMap) -> Result<(), WebError> {
    let refused = || WebError::forbidden("cross-site form submissions are refused");
    if headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("cross-site"))
    {
        return Err(refused());
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        // No Origin: not a current browser's cross-site POST (curl, old browsers); the form
        // token still guards the forms of a session.
        return Ok(());
    };
    let origin = origin.to_str().map_err(|_| refused())?;
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or_else(refused)?;
    // The origin's scheme is not compared: behind a TLS-terminating proxy the server sees
    // plain HTTP while the browser says https. The host (and port) is what another site
    // cannot fake.
    let origin_host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(refused)?;
    if origin_host.eq_ignore_ascii_case(host) {
        Ok(())
    } else {
        Err(refused())
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The client's address, from the socket (never from a header a client can write), as the
/// connection caps count it: an IPv6 client by its /64, the block one subscriber is usually
/// given whole (else each of its 2^64 addresses would get limits of its own). Tests without
/// a socket get "unknown", one shared bucket; tests of addresses insert the `ConnectInfo`
/// the listener inserts.
#[derive(Clone, Debug)]
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| crate::listen::caps::address_key(c.0.ip()).to_string())
                .unwrap_or_else(|| "unknown".into()),
        ))
    }
}

/// A well-formed bearer token of the request, if any (nothing else is hashed or looked up).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The account behind an API request's bearer token.
#[derive(Clone, Debug)]
pub struct ApiUser(pub User);

impl FromRequestParts<Shared> for ApiUser {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &Shared) -> Result<Self, WebError> {
        let missing =
            || WebError::unauthorized("send an API token: Authorization: Bearer TOKEN").api();
        let token = bearer(&parts.headers).ok_or_else(missing)?;
        match state.db.api_token_user(&secret_digest(token)).await {
            Ok(Some(user)) => Ok(ApiUser(user)),
            Ok(None) => Err(WebError::unauthorized("unknown or revoked API token").api()),
            Err(e) => Err(WebError::from(e).api()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn origin_must_be_this_host() {
        let host = ("host", "contest.example:8080");
        assert!(check_origin(&headers(&[host])).is_ok(), "no Origin: curl");
        assert!(check_origin(&headers(&[host, ("origin", "http://contest.example:8080")])).is_ok());
        assert!(
            check_origin(&headers(&[
                host,
                ("origin", "https://contest.example:8080")
            ]))
            .is_ok()
        );
        for bad in [
            "http://evil.example",
            "http://contest.example",
            "null",
            "contest.example:8080",
        ] {
            assert!(
                check_origin(&headers(&[host, ("origin", bad)])).is_err(),
                "{bad}"
            );
        }
        assert!(check_origin(&headers(&[host, ("sec-fetch-site", "cross-site")])).is_err());
        assert!(check_origin(&headers(&[host, ("sec-fetch-site", "same-origin")])).is_ok());
    }

    #[test]
    fn cookies_are_found_among_others() {
        let h = headers(&[("cookie", "a=1; arena_session=abc"), ("cookie", "b=2")]);
        assert_eq!(cookie(&h, "arena_session"), Some("abc"));
        assert_eq!(cookie(&h, "b"), Some("2"));
        assert_eq!(cookie(&h, "arena"), None);
    }

    #[test]
    fn constant_time_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
