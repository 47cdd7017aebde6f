//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. No login needed.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::html::{self, esc};
use super::{Shared, WebError, auth};
use crate::storage::Standing;

#[derive(Serialize)]
struct Row {
    rank: usize,
    bot: String,
    owner: String,
    version: i64,
    rating: f64,
    deviation: f64,
    /// The interval shown on the page: rating ± 2 deviations.
    low: f64,
    high: f64,
    /// Rated duplicate pairs.
    games: i64,
    last_played_at_ms: Option<i64>,
}

fn rows(standings: &[Standing]) -> Vec<Row> {
    standings
        .iter()
        .enumerate()
        .map(|(i, s)| Row {
            rank: i + 1,
            bot: s.bot.clone(),
            owner: s.owner.clone(),
            version: s.version,
            rating: round1(s.rating),
            deviation: round1(s.deviation),
            low: round1(s.rating - 2.0 * s.deviation),
            high: round1(s.rating + 2.0 * s.deviation),
            games: s.games,
            last_played_at_ms: s.last_played_at,
        })
        .collect()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub async fn api(State(state): State<Shared>) -> Result<Response, WebError> {
    let standings = state.db.leaderboard().await?;
    Ok(Json(serde_json::json!({ "leaderboard": rows(&standings) })).into_response())
}

pub async fn page(
    State(state): State<Shared>,
    headers: axum::http::HeaderMap,
) -> Result<Response, WebError> {
    let session = auth::session(&state, &headers).await?;
    let standings = state.db.leaderboard().await?;
    let table = if standings.is_empty() {
        "<p>No bot is ready yet: the ladder starts once two participants have one.</p>".to_string()
    } else {
        let mut t = String::from(
            "<table class=\"list\"><tr><th>#</th><th>Bot</th><th>Owner</th>\
             <th>Rating ± 2σ</th><th>Games</th><th>Last played</th></tr>",
        );
        for r in rows(&standings) {
            t.push_str(&format!(
                "<tr><td>{}</td><td>{} <span class=\"muted\">v{}</span></td><td>{}</td>\
                 <td>{:.0} ± {:.0}</td><td>{}</td><td>{}</td></tr>",
                r.rank,
                esc(&r.bot),
                r.version,
                esc(&r.owner),
                r.rating,
                2.0 * r.deviation,
                r.games,
                r.last_played_at_ms
                    .map(html::time)
                    .unwrap_or_else(|| "never".to_string()),
            ));
        }
        t.push_str("</table>");
        t
    };
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
