//! A participant's own view of the final round robin: `/final-logs` lists the final's
//! matches their bots played, `/final-logs/INDEX` shows one in the replay viewer with their
//! own bots' stderr (the published report at `/final/` carries nobody's). From the final's
//! private output (`DATA_DIR/final/tournament/`), cut to the viewer as ladder replays are
//! (`replay::keep_stderr_of`): owners see their bots' lines, admins every bot's, anyone else
//! gets 404 for a match their bots did not play.

use std::collections::HashMap;

use askama::Template;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};

use super::html::{self, Layout};
use super::replay::keep_stderr_of;
use super::{Shared, WebError, auth};
use crate::ladder::final_round::FinalPaths;
use crate::ladder::log_paths::LogPaths;

/// The final's finished matches, with for each the seats whose bots `user_id` owns (all of
/// them for an admin); matches with none are left out.
async fn own_matches(
    state: &Shared,
    user_id: i64,
    admin: bool,
) -> Result<Vec<(arena::tournament::MatchRecord, Vec<usize>)>, WebError> {
    let paths = FinalPaths::new(&state.contest.data_dir).map_err(WebError::internal)?;
    let results_file = paths.tournament.join("results.jsonl");
    if !results_file.exists() {
        return Ok(Vec::new());
    }
    let results =
        tokio::task::spawn_blocking(move || arena::tournament::read_results(&results_file))
            .await
            .map_err(WebError::internal)?
            .map_err(WebError::internal)?;
    // Bots in the final are named as on the site (`[[bot]] name` is the bot's name).
    let mut owner_of: HashMap<String, Option<i64>> = HashMap::new();
    let mut out = Vec::new();
    for record in results.into_values() {
        let mut seats = Vec::new();
        for (seat, name) in record.seats.iter().enumerate() {
            if !owner_of.contains_key(name) {
                let owner = state.db.bot_by_name(name).await?.map(|b| b.owner_id);
                owner_of.insert(name.clone(), owner);
            }
            if admin || owner_of[name] == Some(user_id) {
                seats.push(seat);
            }
        }
        if !seats.is_empty() {
            out.push((record, seats));
        }
    }
    Ok(out)
}

/// The list of a participant's final matches.
#[derive(Template)]
#[template(path = "final_logs.html")]
struct FinalLogsPage<'a> {
    layout: Layout<'a>,
    matches: Vec<MatchRow>,
}

struct MatchRow {
    /// From 1.
    number: u64,
    /// The seats' bots, "a / b".
    seats: String,
    /// Their net chips, "+3 / -3".
    chips: String,
    index: u64,
}

pub async fn list(State(state): State<Shared>, headers: HeaderMap) -> Result<Response, WebError> {
    let Some(session) = auth::session(&state, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    let user = session.user();
    let matches = own_matches(&state, user.id, user.is_admin).await?;
    let matches = matches
        .iter()
        .map(|(r, _)| MatchRow {
            number: r.index + 1,
            seats: r.seats.join(" / "),
            chips: r
                .net
                .iter()
                .map(|n| format!("{n:+}"))
                .collect::<Vec<_>>()
                .join(" / "),
            index: r.index,
        })
        .collect();
    let mut response = html::page(&FinalLogsPage {
        layout: Layout::new(
            &state.contest.name,
            "Your final matches",
            Some(html::Viewer::of(&session)),
        ),
        matches,
    });
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    Ok(response)
}

pub async fn match_page(
    State(state): State<Shared>,
    Path(index): Path<u64>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let Some(session) = auth::session(&state, &headers).await? else {
        return Ok(Redirect::to("/login").into_response());
    };
    let user = session.user();
    let matches = own_matches(&state, user.id, user.is_admin).await?;
    let Some((_, seats)) = matches.into_iter().find(|(r, _)| r.index == index) else {
        return Err(WebError::not_found());
    };
    let paths = FinalPaths::new(&state.contest.data_dir).map_err(WebError::internal)?;
    // The engine's own name for the file (an index, never a path from the request).
    let file = paths
        .tournament
        .join("replays")
        .join(format!("match-{index:06}.jsonl"));
    let data_dir = state.contest.data_dir.clone();
    let page = tokio::task::spawn_blocking(move || -> anyhow::Result<String> {
        // The owner's stderr and the bots' commands name the uploads' files, not the
        // server's build directories.
        let text = std::fs::read_to_string(&file)?;
        let text = LogPaths::of_data_dir(&data_dir).apply(&text);
        let mut records = arena::replay::parse(&text, &file.to_string_lossy())?;
        keep_stderr_of(&mut records, |seat| seats.contains(&seat));
        super::replay::viewer_page(&records, ("/final-logs", "Your final matches"))
    })
    .await
    .map_err(WebError::internal)?;
    let page = match page {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("final match {index}: {e:#}");
            return Err(WebError::not_found());
        }
    };
    let mut response = axum::response::Html(page).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(super::replay::CSP),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    Ok(response)
}
