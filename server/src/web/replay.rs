//! A ladder match's replay page (`/matches/ID/replay`) in the arena's viewer, and the
//! viewer's files it links.
//!
//! The game is public (unless the contest says `[ladder] public_replays = false`: then only
//! the owners of the match's bots and admins see it); a bot's stderr (a fault's last lines,
//! each decision's lines) is its owner's alone: a log may hold a strategy. So the page is
//! cut to its viewer: everyone sees the moves, a logged-in owner also their own bot's lines,
//! an admin every bot's.
//!
//! The page is made as a report's replay pages are: the records gzipped in it, the arena's
//! viewer script and styles linked from `/assets/` (served once, then cached) rather than
//! inlined in every page. A 60-hand match with a bot's stderr at every decision: 15 KB,
//! where the records inline with the viewer made 241 KB (`tests/it/replay_page.rs`).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::{Shared, WebError, auth};
use arena::html::{BackLink, ReplayPageOptions, ViewerLinks};
use arena::replay::Record;

/// Where the pages find the arena's viewer (routes of [`super::router`]).
pub const VIEWER_SCRIPT: &str = "/assets/viewer.js";
pub const VIEWER_STYLE: &str = "/assets/viewer.css";

/// The replay viewer's CSP: its script from this site (no inline script), its styles from
/// this site and inline (the viewer sets some), images from data URLs; no request leaves it.
/// `'self'` runs no participant's code: uploaded files are served only to their owner, as
/// text, with `nosniff`, which browsers refuse to run as a script.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// The page of `records` in the arena's viewer, with a link back to `back` (`href`, label).
pub fn viewer_page(records: &[Record], back: (&str, &str)) -> anyhow::Result<String> {
    let page = arena::html::linked_replay_page(
        records,
        &ReplayPageOptions {
            source: None,
            back: Some(BackLink {
                href: back.0.to_string(),
                label: back.1.to_string(),
            }),
        },
        ViewerLinks {
            script: VIEWER_SCRIPT,
            style: VIEWER_STYLE,
        },
    )?;
    Ok(page)
}

/// The viewer's script, made once.
pub async fn viewer_script() -> Response {
    static SCRIPT: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(arena::html::viewer_script);
    asset("text/javascript; charset=utf-8", SCRIPT.as_str())
}

/// The viewer's styles, made once.
pub async fn viewer_style() -> Response {
    static STYLE: std::sync::LazyLock<String> = std::sync::LazyLock::new(arena::html::viewer_style);
    asset("text/css; charset=utf-8", STYLE.as_str())
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // As the site's CSS: an hour, so that a new server's viewer reaches every reader
            // soon.
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        text,
    )
        .into_response()
}

/// The viewer's page. Its own CSP: the arena's viewer is one page with inline script and
/// style (no request leaves it: connect, images and frames stay off).
pub async fn page(
    State(state): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let session = auth::session(&state, &headers).await?;
    let owners = state.db.match_seat_owners(id).await?;
    let viewer = session.as_ref().map(|s| s.user());
    let admin = viewer.is_some_and(|u| u.is_admin);
    let own_seats: Vec<usize> = owners
        .iter()
        .filter(|(_, owner)| viewer.is_some_and(|u| u.id == *owner))
        .map(|(seat, _)| *seat)
        .collect();
    // An assignment's games are their student's and the teacher's alone.
    let public = state.contest.ladder.public_replays && state.contest.assignment.is_none();
    if !public && !admin && own_seats.is_empty() {
        return Err(WebError::not_found());
    }
    // A copy probe's deals are met by every upload: they are the teacher's alone.
    if !admin && state.contest.assignment.is_some() && state.db.is_copy_probe(id).await? {
        return Err(WebError::not_found());
    }
    let Some(gz) = state.db.replay_gz(id).await? else {
        return Err(WebError::not_found());
    };
    let personal = admin || !own_seats.is_empty();
    let page = tokio::task::spawn_blocking(move || -> anyhow::Result<String> {
        let mut records = records_of(&gz)?;
        keep_stderr_of(&mut records, |seat| admin || own_seats.contains(&seat));
        viewer_page(&records, ("/leaderboard", "Leaderboard"))
    })
    .await
    .map_err(WebError::internal)?;
    let page = match page {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("replay of match {id}: {e:#}");
            return Err(WebError::not_found());
        }
    };
    let mut response = axum::response::Html(page).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    if personal {
        // Cut to this viewer: no shared cache may hand it to anyone else.
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("private, no-store"),
        );
    }
    Ok(response)
}

/// Takes the stderr of every seat but those `keep` accepts out of a replay: a fault's last
/// lines and each decision's lines.
pub fn keep_stderr_of(records: &mut [Record], keep: impl Fn(usize) -> bool) {
    for record in records {
        match record {
            Record::Fault { seat, stderr, .. } if !keep(*seat) => *stderr = None,
            Record::Action {
                seat,
                stderr_lines,
                stderr_dropped,
                ..
            } if !keep(*seat) => {
                stderr_lines.clear();
                *stderr_dropped = 0;
            }
            _ => {}
        }
    }
}

/// The records of a stored replay (gzip-compressed JSON lines, as the workers store them).
fn records_of(gz: &[u8]) -> anyhow::Result<Vec<Record>> {
    use std::io::Read;
    // Far above any ladder match; stops a damaged row from taking the server's memory.
    const MAX: u64 = 512 << 20;
    let mut text = String::new();
    flate2::read::GzDecoder::new(gz)
        .take(MAX)
        .read_to_string(&mut text)?;
    Ok(arena::replay::parse(&text, "the stored replay")?)
}

/// Takes every bot's stderr out of a replay: what everyone may see.
pub fn without_stderr(records: &mut [Record]) {
    keep_stderr_of(records, |_| false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_kept_seats_keep_their_stderr() {
        let lines = [
            r#"{"type":"fault","hand":0,"seat":1,"fault":"crashed","detail":"the bot exited","stderr":"Traceback: secret plan"}"#,
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"pack","source":"bot","elapsed_ms":3,"bank_ms":10000,"stderr_lines":["thinking: bluff"],"stderr_dropped":2}"#,
        ];
        let records = || -> Vec<Record> {
            lines
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        };
        let text = |r: &[Record]| serde_json::to_string(r).unwrap();
        let mut seat0 = records();
        keep_stderr_of(&mut seat0, |s| s == 0);
        assert!(text(&seat0).contains("thinking: bluff"));
        assert!(!text(&seat0).contains("secret plan"));
        let mut seat1 = records();
        keep_stderr_of(&mut seat1, |s| s == 1);
        assert!(!text(&seat1).contains("thinking: bluff"));
        assert!(text(&seat1).contains("secret plan"));
        let mut nobody = records();
        without_stderr(&mut nobody);
        assert!(!text(&nobody).contains("stderr"), "{}", text(&nobody));
    }
}
