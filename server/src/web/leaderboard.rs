//! The public leaderboard: `/leaderboard` (a page) and `/api/leaderboard` (JSON). Every
//! bot's ready version, best rating first, with its Glicko-2 rating ± 2 deviations (about a
//! 95% interval), its rated pairs and when it last played. A bot's own page is
//! [`super::bot_page`], a match's replay [`super::replay`]. No login needed: only played
//! matches are shown (an unplayed match's seed stays secret). The leaderboard itself is made
//! at most once a second for all readers ([`super::board`]).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::html;
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
    let body = format!(
        "{banner}<section class=\"panel\"><h2>Leaderboard</h2>{table}\
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
