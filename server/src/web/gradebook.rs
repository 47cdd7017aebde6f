//! The teacher's gradebook in an assignment contest (admins only, like `/admin`; 404 for
//! everyone else and in a contest without `[assignment]`):
//!
//! - `GET /admin/gradebook`: students x reference bots for the counted upload, its time and
//!   late flag, the grade and why; the grading queue; the reference bots' builds; the copies
//!   found; paused grades with the reference's fault.
//! - `GET /admin/gradebook.csv`: `name,id,grade,comment` for a learning-management system.
//! - `POST /admin/regrade` (form), `POST /api/admin/regrade`: judge every grade again with the
//!   marks the server has now (after a changed contest file and a restart), and play again
//!   the blocks that paused a grade.
//! - `GET /api/admin/gradebook`: all of it as JSON.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Serialize;

use super::auth::{self, ApiUser, Session};
use super::grades::{AssignmentInfo, info, policy, upload_section};
use super::html::{self, csrf_field, esc};
use super::pages::CsrfForm;
use super::{Shared, WebError};
use crate::assignment::gradebook::{self, CopyFlag, StudentGrades};
use crate::assignment::grader;

/// The last copy check, with what it was made from: the graded matches played and the
/// counted uploads with their build states. It reads every counted upload's sources and every graded match's moves,
/// so it is made again only when one of those changed; one at a time (the lock is held while
/// it runs, so readers meanwhile wait for it rather than start another).
#[derive(Debug, Default)]
pub struct CopiesCache(tokio::sync::Mutex<Option<(CopiesKey, Vec<CopyFlag>)>>);

type CopiesKey = (i64, Vec<(i64, String)>);

async fn copies(state: &Shared, students: &[StudentGrades]) -> Result<Vec<CopyFlag>, WebError> {
    let policy = policy(state)?;
    let counted: Vec<(i64, String)> = students
        .iter()
        .filter_map(|s| {
            let u = &s.uploads[s.counted?];
            Some((u.version_id, u.build.clone()))
        })
        .collect();
    let key = (state.db.graded_matches().await?, counted);
    let mut last = state.copies.0.lock().await;
    if let Some((made_from, flags)) = last.as_ref()
        && *made_from == key
    {
        return Ok(flags.clone());
    }
    let flags = gradebook::copies(&state.db, policy, &state.submissions, students)
        .await
        .map_err(WebError::internal)?;
    *last = Some((key, flags.clone()));
    Ok(flags)
}

#[derive(Serialize)]
pub struct Gradebook {
    pub assignment: AssignmentInfo,
    pub students: Vec<StudentGrades>,
    pub queue: Queue,
    pub references: Vec<ReferenceBuild>,
    pub copies: Vec<CopyFlag>,
}

#[derive(Serialize)]
pub struct Queue {
    /// Grading matches waiting for a worker.
    pub queued: i64,
    pub running: i64,
    /// Grades not final yet (grading or paused).
    pub open_grades: usize,
    pub paused_grades: usize,
}

#[derive(Serialize)]
pub struct ReferenceBuild {
    pub name: String,
    pub version: i64,
    pub state: String,
}

async fn gradebook(state: &Shared) -> Result<Gradebook, WebError> {
    let policy = policy(state)?;
    let participants = state.db.participants().await?;
    let submissions = state.db.submissions(policy.closes_at_ms()).await?;
    let grades = state.db.grades(None).await?;
    let students = gradebook::build(policy, &participants, &submissions, &grades);
    let (queued, running) = state.db.grading_queue().await?;
    let references = state.db.reference_versions().await?;
    let mut newest: Vec<ReferenceBuild> = Vec::new();
    for r in references {
        if !newest.iter().any(|n| n.name == r.name) {
            newest.push(ReferenceBuild {
                name: r.name,
                version: r.number,
                state: r.state,
            });
        }
    }
    let copies = copies(state, &students).await?;
    Ok(Gradebook {
        assignment: info(policy),
        queue: Queue {
            queued,
            running,
            open_grades: grades
                .iter()
                .filter(|g| !grader::is_final(&g.state))
                .count(),
            paused_grades: grades.iter().filter(|g| g.state == grader::PAUSED).count(),
        },
        students,
        references: newest,
        copies,
    })
}

/// The admin's session; a redirect to the login page without one, 404 for anyone else.
async fn require_admin(state: &Shared, headers: &HeaderMap) -> Result<Session, Response> {
    if state.contest.assignment.is_none() {
        return Err(WebError::not_found().into_response());
    }
    match auth::session(state, headers).await {
        Ok(Some(s)) if s.user().is_admin => Ok(s),
        Ok(Some(_)) => Err(WebError::not_found().into_response()),
        Ok(None) => Err(Redirect::to("/login").into_response()),
        Err(e) => Err(e.into_response()),
    }
}

pub async fn page(State(state): State<Shared>, headers: HeaderMap) -> Response {
    let session = match require_admin(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let book = match gradebook(&state).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let body = body(&book, &session.record.csrf_token);
    html::page(
        &state.contest.name,
        "Gradebook",
        Some(html::Viewer {
            user: session.user(),
            csrf: &session.record.csrf_token,
        }),
        &body,
    )
    .into_response()
}

fn body(b: &Gradebook, csrf: &str) -> String {
    let mut head = String::from("<tr><th>Student</th><th>Counted upload</th>");
    for r in &b.assignment.references {
        head.push_str(&format!("<th>{} ({:+.2})</th>", esc(&r.name), r.mark));
    }
    head.push_str("<th>Grade</th></tr>");
    let mut rows = String::new();
    let mut paused = String::new();
    for s in &b.students {
        let mut row = format!("<tr><td>{}</td>", html::person(&s.name, &s.display_name));
        match s.counted.map(|i| &s.uploads[i]) {
            None => {
                row.push_str("<td class=\"muted\">no upload</td>");
                for _ in &b.assignment.references {
                    row.push_str("<td></td>");
                }
            }
            Some(u) => {
                row.push_str(&format!(
                    "<td>{} v{} · {}{}</td>",
                    esc(&u.bot),
                    u.version,
                    esc(&u.uploaded_at),
                    if u.late { " · <b>late</b>" } else { "" }
                ));
                for v in &u.verdicts {
                    row.push_str(&format!(
                        "<td title=\"{}\"><span class=\"state state-{}\">{}</span></td>",
                        esc(&v.why),
                        esc(&v.state.replace(' ', "-")),
                        esc(&v.state)
                    ));
                }
            }
        }
        row.push_str(&format!(
            "<td>{}</td></tr>",
            s.grade
                .map(|g| format!("{g:.1}%"))
                .unwrap_or_else(|| "grading".into())
        ));
        rows.push_str(&row);
        for u in &s.uploads {
            for v in u.verdicts.iter().filter(|v| v.state == grader::PAUSED) {
                paused.push_str(&format!(
                    "<li>{} {} v{} against {}: {}</li>",
                    esc(&s.name),
                    esc(&u.bot),
                    u.version,
                    esc(&v.reference),
                    esc(&v.why)
                ));
            }
        }
    }
    let mut copies = String::new();
    for c in &b.copies {
        copies.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.a),
            esc(&c.b),
            if c.kind == "source" {
                "the same source once comments, spacing and names are normalised".to_string()
            } else {
                format!(
                    "{:.1}% of {} decisions identical on the same deals",
                    c.share * 100.0,
                    c.compared
                )
            },
            c.kind
        ));
    }
    let copies = if copies.is_empty() {
        "<p>None found.</p>".to_string()
    } else {
        format!(
            "<table class=\"list\"><tr><th>Bot</th><th>Looks like</th><th>Why</th><th>Check</th></tr>{copies}</table>"
        )
    };
    let mut references = String::new();
    for r in &b.references {
        references.push_str(&format!(
            "<li>{} v{}: <span class=\"state state-{}\">{}</span></li>",
            esc(&r.name),
            r.version,
            esc(&r.state),
            esc(&r.state)
        ));
    }
    let paused = if paused.is_empty() {
        String::new()
    } else {
        format!(
            "<section class=\"panel\"><h2>Paused grades</h2><p>Fix the reference bot (or the machine), then re-grade.</p><ul>{paused}</ul></section>"
        )
    };
    let mut details = String::new();
    for s in &b.students {
        if let Some(i) = s.counted {
            details.push_str(&format!(
                "<h3 id=\"{}\">{}</h3>",
                esc(&s.name),
                esc(&s.name)
            ));
            details.push_str(&upload_section(&s.uploads[i], true));
        }
    }
    format!(
        "<section class=\"panel\"><h2>Gradebook</h2>\
         <p>Deadline {deadline} · counted: {counted} upload · <a href=\"/admin/gradebook.csv\">CSV for the learning-management system</a></p>\
         <table class=\"list\">{head}{rows}</table>\
         <p>Queue: {queued} grading match(es) waiting, {running} being played; {open} grade(s) open.</p>\
         <form method=\"post\" action=\"/admin/regrade\" class=\"inline\">{csrf}<button type=\"submit\">Re-grade everyone</button></form>\
         <p class=\"muted\">Re-grading judges every grade again with the marks the server runs with now (change them in the contest file and restart) and plays again the games that paused a grade.</p></section>\
         {paused}\
         <section class=\"panel\"><h2>Copies</h2>{copies}</section>\
         <section class=\"panel\"><h2>Reference bots</h2><ul>{references}</ul></section>\
         <section class=\"panel\"><h2>Verdicts</h2>{details}</section>",
        deadline = esc(&b.assignment.deadline),
        counted = b.assignment.counted,
        queued = b.queue.queued,
        running = b.queue.running,
        open = b.queue.open_grades,
        csrf = csrf_field(csrf),
    )
}

pub async fn csv(State(state): State<Shared>, headers: HeaderMap) -> Response {
    if let Err(r) = require_admin(&state, &headers).await {
        return r;
    }
    csv_response(&state).await
}

async fn csv_response(state: &Shared) -> Response {
    let policy = match policy(state) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    let students = async {
        let participants = state.db.participants().await?;
        let submissions = state.db.submissions(policy.closes_at_ms()).await?;
        let grades = state.db.grades(None).await?;
        Ok::<_, WebError>(gradebook::build(
            policy,
            &participants,
            &submissions,
            &grades,
        ))
    }
    .await;
    match students {
        Ok(s) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"gradebook.csv\"",
                ),
            ],
            gradebook::csv(&s),
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

pub async fn regrade(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Response {
    let session = match require_admin(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Err(e) = auth::check_origin(&headers).and_then(|_| session.check_csrf(&form.csrf)) {
        return e.into_response();
    }
    match grader::regrade(&state.db).await {
        Ok(n) => {
            tracing::info!("re-grading {n} grades");
            Redirect::to("/admin/gradebook").into_response()
        }
        Err(e) => WebError::internal(format!("{e:#}")).into_response(),
    }
}

fn api_admin(state: &Shared, user: &crate::storage::User) -> Result<(), WebError> {
    policy(state).map_err(WebError::api)?;
    if user.is_admin {
        Ok(())
    } else {
        Err(WebError::forbidden("this needs an organizer's (admin's) API token").api())
    }
}

pub async fn api(State(state): State<Shared>, ApiUser(user): ApiUser) -> Response {
    if let Err(e) = api_admin(&state, &user) {
        return e.into_response();
    }
    match gradebook(&state).await {
        Ok(b) => Json(b).into_response(),
        Err(e) => e.api().into_response(),
    }
}

pub async fn api_csv(State(state): State<Shared>, ApiUser(user): ApiUser) -> Response {
    if let Err(e) = api_admin(&state, &user) {
        return e.into_response();
    }
    csv_response(&state).await
}

pub async fn api_regrade(State(state): State<Shared>, ApiUser(user): ApiUser) -> Response {
    if let Err(e) = api_admin(&state, &user) {
        return e.into_response();
    }
    match grader::regrade(&state.db).await {
        Ok(n) => (
            StatusCode::ACCEPTED,
            Json(serde_json::json!({ "regrading": n })),
        )
            .into_response(),
        Err(e) => WebError::internal(format!("{e:#}")).api().into_response(),
    }
}
