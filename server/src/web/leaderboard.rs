//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. Provisional ratings (the contest's
//! `[ladder] provisional_*` rule) are listed after the ranked ones, unranked. A bot's own page is
//! [`super::bot_page`], a match's replay [`super::replay`]. No login needed: only played
//! matches are shown (an unplayed match's seed stays secret). The leaderboard itself is made
//! at most once a second for all readers ([`super::board`]).

use axum::extract::State;
use axum::http::header;
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
    let banner = super::final_report::contest_notice(&state).await;
    let rule = esc(&state.contest.ladder.provisional.describe());
    let body = format!(
        "{banner}<section class=\"panel\"><h2>Leaderboard</h2>{table}\
         <p class=\"muted\">Each game is a duplicate pair: the same deals played twice with \
         the seats swapped, won by the bot with more chips over both. Ratings are Glicko-2; \
         ± 2σ is about a 95% interval and narrows as a bot plays. A new version starts \
         afresh.</p>\
         <p class=\"muted\" id=\"provisional-rule\">Provisional: {rule}. Such a rating says \
         too little to rank, so those bots are listed after the ranked ones, without a rank \
         (–), until they have played enough.</p></section>"
    );
    let viewer = session.as_ref().map(|s| html::Viewer {
        user: s.user(),
        csrf: &s.record.csrf_token,
    });
    Ok(html::page(&state.contest.name, "Leaderboard", viewer, &body).into_response())
}
