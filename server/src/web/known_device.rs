//! The known-device cookie, and who a login comes from as the lockout sees it
//! ([`crate::accounts::login_guard`]).
//!
//! Set at every successful login, sign-up and account setup, kept across logouts (it names
//! the browser, not the session). `HttpOnly` and `SameSite=Strict` like the session's, under
//! the `__Host-` prefix with `secure_cookies`.

use axum::http::{HeaderMap, HeaderValue};

use super::{Shared, WebError, auth};
use crate::accounts::device::LIFETIME_MS;
use crate::accounts::login_guard::Client;
use crate::storage::{now_ms, secret_digest};

const COOKIE: &str = "arena_device";
const SECURE_COOKIE: &str = "__Host-arena_device";

fn cookie_name(state: &Shared) -> &'static str {
    if state.contest.accounts.secure_cookies {
        SECURE_COOKIE
    } else {
        COOKIE
    }
}

/// Which credentials beyond the cookie may make a client known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accept {
    /// The site's forms: the cookie only.
    Cookie,
    /// The API's token request: also one of the account's API tokens (a script that already
    /// holds one asks for another).
    CookieOrBearer,
}

/// Who a login to the account `user_id` (`None`: no such account) comes from: a known client
/// of that account, or an unknown one at `address`.
pub async fn client(
    state: &Shared,
    headers: &HeaderMap,
    address: &str,
    user_id: Option<i64>,
    accept: Accept,
) -> Client {
    let unknown = || Client::Unknown {
        address: address.to_string(),
    };
    let Some(user_id) = user_id else {
        return unknown();
    };
    if let Some(device) = auth::cookie(headers, cookie_name(state))
        .and_then(|token| state.login_guard.key.verify(token, now_ms()))
        .filter(|d| d.user_id == user_id)
    {
        return Client::Known {
            user_id,
            credential: format!("device:{}", device.nonce),
        };
    }
    if accept == Accept::CookieOrBearer
        && let Some(token) = auth::bearer(headers)
    {
        let digest = secret_digest(token);
        // A database error here only means the token does not count: the login is then
        // judged as an unknown client's, never refused for it.
        if let Ok(Some(owner)) = state.db.api_token_user(&digest).await
            && owner.id == user_id
        {
            return Client::Known {
                user_id,
                credential: format!("token:{}", &digest[..16.min(digest.len())]),
            };
        }
    }
    unknown()
}

/// The `Set-Cookie` header that makes this client a known device of `user_id`.
pub fn set_cookie(state: &Shared, user_id: i64) -> Result<HeaderValue, WebError> {
    let token = state.login_guard.key.issue(user_id, now_ms())?;
    let secure = if state.contest.accounts.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
        cookie_name(state),
        LIFETIME_MS / 1000
    ))
    .map_err(WebError::internal)
}
