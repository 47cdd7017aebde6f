//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. A bot's page
//! (`/leaderboard/BOT`) lists its recent matches with links to their replays
//! (`/matches/ID/replay`, the arena's self-contained replay page). No login needed: only
//! played matches are shown (an unplayed match's seed stays secret). The leaderboard itself
//! is made at most once a second for all readers ([`super::board`]).

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use super::html::{self, esc};
use super::{Shared, WebError, auth};

pub async fn api(State(state): State<Shared>) -> Result<Response, WebError> {
    let board = state.board.get(&state.db).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        board.json.clone(),
    )
        .into_response())
}

pub async fn page(
    State(state): State<Shared>,
    headers: axum::http::HeaderMap,
) -> Result<Response, WebError> {
    let session = auth::session(&state, &headers).await?;
    let board = state.board.get(&state.db).await?;
    let table = &board.table;
    let body = format!(
        "<section class=\"panel\"><h2>Leaderboard</h2>{table}\
         <p class=\"muted\">Each game is a duplicate pair: the same deals played twice with \
         the seats swapped, won by the bot with more chips over both. Ratings are Glicko-2; \
         ± 2σ is about a 95% interval and narrows as a bot plays. A new version starts \
         afresh.</p></section>"
    );
    let viewer = session.as_ref().map(|s| html::Viewer {
        user: s.user(),
        csrf: &s.record.csrf_token,
    });
    Ok(html::page(&state.contest.name, "Leaderboard", viewer, &body).into_response())
}

/// How many matches a bot's page lists.
const RECENT: i64 = 50;

pub async fn bot_page(
    State(state): State<Shared>,
    Path(name): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, WebError> {
    let session = auth::session(&state, &headers).await?;
    let Some(bot) = state.db.bot_by_name(&name).await? else {
        return Err(WebError::not_found());
    };
    let played = state.db.recent_matches(bot.id, RECENT).await?;
    let list = if played.is_empty() {
        "<p>No match played yet.</p>".to_string()
    } else {
        let mut t = String::from(
            "<table class=\"list\"><tr><th>Finished</th><th>Version</th><th>Seat</th>\
             <th>Opponent</th><th>Chips</th><th></th></tr>",
        );
        for m in &played {
            let replay = if m.replay_path.is_some() {
                format!("<a href=\"/matches/{}/replay\">replay</a>", m.match_id)
            } else {
                String::new()
            };
            t.push_str(&format!(
                "<tr><td>{}</td><td>v{}</td><td>{}</td><td><a href=\"/leaderboard/{}\">{}</a></td>\
                 <td>{:+} / {:+}</td><td>{replay}</td></tr>",
                html::time(m.finished_at),
                m.version,
                m.seat + 1,
                esc(&m.opponent),
                esc(&m.opponent),
                m.chips,
                m.opponent_chips,
            ));
        }
        t.push_str("</table>");
        t
    };
    let body = format!(
        "<section class=\"panel\"><h2>{}</h2><p><a href=\"/leaderboard\">The leaderboard</a></p>\
         <h3>Recent matches</h3>{list}</section>",
        esc(&bot.name)
    );
    let viewer = session.as_ref().map(|s| html::Viewer {
        user: s.user(),
        csrf: &s.record.csrf_token,
    });
    Ok(html::page(&state.contest.name, &bot.name, viewer, &body).into_response())
}

/// Takes every bot's own words out of a replay before it is shown to everyone: a fault's
/// last stderr lines and a decision's stderr lines are the owner's to see (a bot's log may
/// hold its strategy), the game itself is public.
pub fn without_stderr(records: &mut [arena::replay::Record]) {
    use arena::replay::Record;
    for record in records {
        match record {
            Record::Fault { stderr, .. } => *stderr = None,
            Record::Action {
                stderr_lines,
                stderr_dropped,
                ..
            } => {
                stderr_lines.clear();
                *stderr_dropped = 0;
            }
            _ => {}
        }
    }
}

/// A played match's replay page. Its own CSP: the arena's viewer is one page with inline
/// script and style (no request leaves it: connect, images and frames stay off).
pub async fn replay(
    State(state): State<Shared>,
    Path(id): Path<i64>,
) -> Result<Response, WebError> {
    let Some(path) = state.db.replay_path(id).await? else {
        return Err(WebError::not_found());
    };
    // Written by the workers as `replays/FILE`; anything else is not served.
    if !path.starts_with("replays/") || path.contains("..") {
        return Err(WebError::not_found());
    }
    let file = state.contest.data_dir.join(&path);
    let page = tokio::task::spawn_blocking(move || -> anyhow::Result<String> {
        let mut records = arena::replay::read(&file)?;
        without_stderr(&mut records);
        arena::html::replay_page(
            &records,
            &arena::html::ReplayPageOptions {
                source: None,
                back: Some(arena::html::BackLink {
                    href: "/leaderboard".to_string(),
                    label: "Leaderboard".to_string(),
                }),
            },
        )
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
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    Ok(response)
}

#[cfg(test)]
mod stderr_tests {
    use super::*;

    #[test]
    fn public_replays_carry_no_bot_stderr() {
        let lines = [
            r#"{"type":"fault","hand":0,"seat":1,"fault":"crashed","detail":"the bot exited","stderr":"Traceback: secret plan"}"#,
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"pack","source":"bot","elapsed_ms":3,"bank_ms":10000,"stderr_lines":["thinking: bluff"],"stderr_dropped":2}"#,
        ];
        let mut records: Vec<arena::replay::Record> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        without_stderr(&mut records);
        let text: Vec<String> = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        let text = text.join("\n");
        assert!(!text.contains("secret plan"), "{text}");
        assert!(!text.contains("bluff"), "{text}");
        assert!(!text.contains("stderr"), "{text}");
    }
}
