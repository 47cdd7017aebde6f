//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. Provisional ratings (the contest's
//! `[ladder] provisional_*` rule) are listed after the ranked ones, unranked. A bot's own page is
//! [`super::bot_page`], a match's replay [`super::replay`]. No login needed: only played
//! matches are shown (an unplayed match's seed stays secret). The leaderboard itself is made
//! at most once a second for all readers ([`super::board`]). While the database is away both
//! serve the last board with its age (the page says so; the JSON has `age_seconds`, `stale`),
//! or answer 503 with `Retry-After` when there is none yet.

use askama::Template;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::final_report::ContestNotice;
use super::html::{self, Fragment, Layout};
use super::{Shared, WebError, auth};

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage<'a> {
    layout: Layout<'a>,
    banner: ContestNotice,
    /// "As of ... ago" when the board is stale.
    stale: String,
    table: &'a Fragment,
    /// The contest's rule for provisional ratings, in words.
    rule: String,
}

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
    Ok(html::page(&LeaderboardPage {
        layout: Layout::new(
            &state.contest.name,
            "Leaderboard",
            session.as_ref().map(html::Viewer::of),
        ),
        banner,
        stale: board.note(),
        table: &board.value.table,
        rule: state.contest.ladder.provisional.describe(),
    }))
}
