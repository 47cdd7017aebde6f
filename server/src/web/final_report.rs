//! The final round robin in public: `/final/` is the arena's tournament report once the final
//! is played (its `index.html` and `index_replays/`, read-only from `DATA_DIR/final/report`),
//! and a short page saying it has not been played (or is being played, with progress)
//! before. `/api/final` says the same as JSON. [`contest_notice`] is the line other pages
//! show about the freeze and the final.
//!
//! Only regular files under the report directory are served, reached without any symlink,
//! `.`/`..` or hidden name on the way, and only the kinds a report holds (HTML, its viewer's
//! script and styles). The report's pages run their own inline and same-folder scripts: they
//! get a CSP allowing exactly that (scripts and styles inline or from this site, images from
//! `data:`; no connections, frames or forms). Uploaded files are never served as scripts
//! (`nosniff`, text/plain, and only to their owner), so `'self'` adds nothing a participant
//! controls.

use std::path::{Path, PathBuf};

use askama::Template;
use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};

use super::admin::{contest_row, final_status};
use super::html;
use super::{Shared, WebError, auth};
use crate::storage::FinalState;

const REPORT_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; \
     style-src 'self' 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; \
     form-action 'none'";

/// What the site's pages say about the freeze and the final (the templates' macro
/// `contest_notice`): nothing, or that uploads are frozen, the final is being played, or it
/// has been played (with links to its report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ContestNotice {
    #[default]
    Nothing,
    Frozen,
    Running,
    Done,
}

impl ContestNotice {
    pub fn frozen(&self) -> bool {
        *self == ContestNotice::Frozen
    }

    pub fn running(&self) -> bool {
        *self == ContestNotice::Running
    }

    pub fn done(&self) -> bool {
        *self == ContestNotice::Done
    }
}

/// The notice for a participant's own pages, read afresh. Errors are logged and say
/// nothing: a page does not fail over its banner.
pub async fn contest_notice(state: &Shared) -> ContestNotice {
    match state.db.contest_record().await {
        Ok(row) => notice_of(row.as_ref()),
        Err(e) => {
            tracing::warn!("contest row: {e}");
            ContestNotice::Nothing
        }
    }
}

/// The same for the public pages (home, leaderboard), read at most once a second for all
/// their readers and kept while the database is away, as the board is. A participant's own
/// pages read it afresh: right after a freeze they must say so.
pub async fn public_notice(state: &Shared) -> ContestNotice {
    let db = state.db.clone();
    match state
        .notice
        .get(move || async move { Ok(notice_of(db.contest_record().await?.as_ref())) })
        .await
    {
        Ok(notice) => *notice.value,
        // Logged by the refresh.
        Err(_) => ContestNotice::Nothing,
    }
}

fn notice_of(row: Option<&crate::storage::ContestRecord>) -> ContestNotice {
    let Some(row) = row else {
        return ContestNotice::Nothing;
    };
    match FinalState::parse(&row.final_state) {
        Some(FinalState::Done) => ContestNotice::Done,
        Some(FinalState::Running) => ContestNotice::Running,
        _ if row.frozen_at.is_some() => ContestNotice::Frozen,
        _ => ContestNotice::Nothing,
    }
}

/// `/final` without the slash: the report's relative links need it.
pub async fn redirect() -> Redirect {
    Redirect::permanent("/final/")
}

/// `/final/` before the report exists: where the final stands.
#[derive(Template)]
#[template(path = "final.html")]
struct FinalPage<'a> {
    layout: html::Layout<'a>,
    text: &'a str,
}

pub async fn index(State(state): State<Shared>, headers: HeaderMap) -> Result<Response, WebError> {
    if state.db.final_state().await? == FinalState::Done {
        return serve(&state, "index.html").await;
    }
    let session = auth::session(&state, &headers).await?;
    let row = contest_row(&state).await?;
    let s = final_status(&state, &row, false);
    let progress = match (s.played, s.total) {
        (Some(p), Some(t)) => format!(" {p} of {t} matches are played."),
        _ => String::new(),
    };
    let text = match s.state {
        "running" => format!(
            "The final round robin is being played.{progress} Its report appears here when it is over."
        ),
        // Why it failed is the organizer's to read (server paths, bots' output).
        "failed" => format!(
            "The final round robin stopped before its end.{progress} The organizer will start it again."
        ),
        _ if row.frozen_at.is_some() => {
            "The final round robin has not been played yet; uploads are frozen for it.".to_string()
        }
        _ => "The final round robin has not been played yet.".to_string(),
    };
    let page = FinalPage {
        layout: html::Layout::new(
            &state.contest.name,
            "Final",
            session.as_ref().map(html::Viewer::of),
        ),
        text: &text,
    };
    let mut response = html::page(&page);
    if s.state == "running" {
        response
            .headers_mut()
            .insert(header::REFRESH, HeaderValue::from_static("30"));
    }
    Ok(response)
}

pub async fn file(
    State(state): State<Shared>,
    UrlPath(path): UrlPath<String>,
) -> Result<Response, WebError> {
    if state.db.final_state().await? != FinalState::Done {
        return Err(WebError::not_found());
    }
    serve(&state, &path).await
}

pub async fn api(State(state): State<Shared>) -> Result<Response, WebError> {
    let row = contest_row(&state).await.map_err(WebError::api)?;
    let s = final_status(&state, &row, false);
    Ok(Json(serde_json::json!({
        "frozen": row.frozen_at.is_some(),
        "frozen_at_ms": row.frozen_at,
        "final": s,
    }))
    .into_response())
}

/// The content type of a report's file, by its name; `None` for anything else.
fn kind(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "html" => Some("text/html; charset=utf-8"),
        "js" => Some("text/javascript; charset=utf-8"),
        "css" => Some("text/css; charset=utf-8"),
        _ => None,
    }
}

/// The file at `rel` under `root`, if it is a regular file reached through plain names only:
/// no empty, `.`, `..` or hidden segment, no backslash or NUL, no symlink anywhere on the
/// way (the root's own path is the server's), and inside `root` once resolved.
pub fn resolve(root: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() || rel.len() > 1024 {
        return None;
    }
    let mut path = root.to_path_buf();
    for segment in rel.split('/') {
        if segment.is_empty() || segment.starts_with('.') || segment.contains(['\\', '\0']) {
            return None;
        }
        path.push(segment);
        if std::fs::symlink_metadata(&path)
            .ok()?
            .file_type()
            .is_symlink()
        {
            return None;
        }
    }
    if !std::fs::symlink_metadata(&path).ok()?.is_file() {
        return None;
    }
    let inside = path
        .canonicalize()
        .ok()?
        .starts_with(root.canonicalize().ok()?);
    inside.then_some(path)
}

async fn serve(state: &Shared, rel: &str) -> Result<Response, WebError> {
    let root = state
        .final_round
        .paths()
        .map_err(WebError::internal)?
        .report;
    let rel = rel.to_string();
    let found = tokio::task::spawn_blocking(move || {
        let path = resolve(&root, &rel)?;
        let kind = kind(&path)?;
        std::fs::read(&path).ok().map(|bytes| (kind, bytes))
    })
    .await
    .map_err(WebError::internal)?;
    let Some((kind, bytes)) = found else {
        return Err(WebError::not_found());
    };
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(REPORT_CSP),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_paths_to_regular_files_resolve() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("report");
        std::fs::create_dir_all(root.join("index_replays")).unwrap();
        std::fs::write(root.join("index.html"), "x").unwrap();
        std::fs::write(root.join("index_replays/match-000000.html"), "x").unwrap();
        std::fs::write(dir.path().join("secret.html"), "s").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.html"), root.join("link.html")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        std::fs::write(root.join(".hidden.html"), "h").unwrap();
        assert!(resolve(&root, "index.html").is_some());
        assert!(resolve(&root, "index_replays/match-000000.html").is_some());
        for bad in [
            "",
            "../secret.html",
            "index_replays/../../secret.html",
            "./index.html",
            "index_replays//match-000000.html",
            "link.html",
            "up/secret.html",
            ".hidden.html",
            "index_replays",
            "nothing.html",
            "index_replays\\..\\..\\secret.html",
            "/etc/passwd",
        ] {
            assert!(resolve(&root, bad).is_none(), "{bad}");
        }
        assert_eq!(kind(Path::new("a.html")), Some("text/html; charset=utf-8"));
        assert_eq!(kind(Path::new("a.jsonl")), None);
    }
}
