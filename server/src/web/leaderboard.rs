//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. Provisional ratings (the contest's
//! `[ladder] provisional_*` rule) are listed after the ranked ones, unranked. A bot's own page is
//! [`super::bot_page`], a match's replay [`super::replay`]. No login needed: only played
//! matches are shown (an unplayed match's seed stays secret). The leaderboard itself is made
//! at most once a second for all readers ([`super::board`]). While the database is away both
//! serve the last board with its age (the page says so; the JSON has `age_seconds`, `stale`),
//! or answer 503 with `Retry-After` when there is none yet.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::html::{self, esc};
use super::{Shared, WebError, auth};

pub async fn api(State(state): State<Shared>) -> Result<Response, WebError> {
    let board = state
        .board
        .get(&state.db)
        .await
        .map_err(|e| WebError::from(e).api())?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        board.json_with_age(&board.value.json),
    )
        .into_response())
}

pub async fn page(
    State(state): State<Shared>,
    headers: axum::http::HeaderMap,
) -> Result<Response, WebError> {
    // At once rather than one after the other: each waits at most half a second for a
    // database that is away, and the page must answer within a second.
    let (session, board, banner) = tokio::join!(
        auth::visitor(&state, &headers),
        state.board.get(&state.db),
        super::final_report::public_notice(&state),
    );
    let board = board?;
    let stale = board.note();
    let table = &board.value.table;
    let rule = esc(&state.contest.ladder.provisional.describe());
    let body = format!(
        "{banner}<section class=\"panel\"><h2>Leaderboard</h2>{stale}{table}\
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
