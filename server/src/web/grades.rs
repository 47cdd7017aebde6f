//! A student's grades in an assignment contest: `GET /grades` and `GET /api/grades`. Each of
//! their uploads with its verdict against every reference bot (the edge, its interval, the
//! mark and what it means, the verdict and why), the upload that counts and its grade, the
//! rule, and their own graded games (whose replays show them their bot's stderr). Only the
//! student's own: there is no address for another's, and a contest without `[assignment]`
//! has none of these pages (404).

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Serialize;

use super::auth::{self, ApiUser};
use super::html::{self, esc};
use super::{Shared, WebError};
use crate::assignment::gradebook::{self, StudentGrades, UploadGrades, rule_text};
use crate::clock::utc_text;
use crate::config::AssignmentPolicy;
use crate::storage::{Participant, User};

/// What a student sees of their assignment.
#[derive(Serialize)]
pub struct MyGrades {
    pub assignment: AssignmentInfo,
    #[serde(flatten)]
    pub grades: StudentGrades,
    /// Their played grading matches, newest upload first.
    pub matches: Vec<GradedMatch>,
}

#[derive(Serialize)]
pub struct AssignmentInfo {
    pub deadline: String,
    pub deadline_ms: i64,
    /// Uploads after this are refused.
    pub closes_at_ms: i64,
    pub late_penalty: f64,
    pub counted: &'static str,
    pub rule: String,
    pub references: Vec<ReferenceInfo>,
}

#[derive(Serialize)]
pub struct ReferenceInfo {
    pub name: String,
    pub mark: f64,
    pub why: String,
}

#[derive(Serialize)]
pub struct GradedMatch {
    pub bot: String,
    pub version: i64,
    pub reference: String,
    pub block: i64,
    pub match_id: i64,
    /// Counted from 1, as pages count seats.
    pub seat: i64,
    pub state: String,
    pub chips: Option<i64>,
}

/// The assignment, or 404 in a contest without one.
pub fn policy(state: &Shared) -> Result<&AssignmentPolicy, WebError> {
    state
        .contest
        .assignment
        .as_ref()
        .ok_or_else(WebError::not_found)
}

pub fn info(policy: &AssignmentPolicy) -> AssignmentInfo {
    AssignmentInfo {
        deadline: utc_text(policy.deadline_ms),
        deadline_ms: policy.deadline_ms,
        closes_at_ms: policy.closes_at_ms(),
        late_penalty: policy.late_penalty,
        counted: policy.counted.as_str(),
        rule: rule_text(policy),
        references: policy
            .references
            .iter()
            .map(|r| ReferenceInfo {
                name: r.name.clone(),
                mark: r.mark,
                why: r.why.clone(),
            })
            .collect(),
    }
}

async fn mine(state: &Shared, user: &User) -> Result<MyGrades, WebError> {
    let policy = policy(state)?;
    let me = Participant {
        id: user.id,
        name: user.name.clone(),
        display_name: user.display_name.clone(),
    };
    let submissions: Vec<_> = state
        .db
        .submissions(i64::MAX)
        .await?
        .into_iter()
        .filter(|s| s.owner_id == user.id)
        .collect();
    let grades = state.db.grades(None).await?;
    let mut grades_of_mine = Vec::new();
    for g in grades {
        if submissions.iter().any(|s| s.version_id == g.version_id) {
            grades_of_mine.push(g);
        }
    }
    let student = gradebook::build(
        policy,
        std::slice::from_ref(&me),
        &submissions,
        &grades_of_mine,
    )
    .pop()
    .ok_or_else(|| WebError::internal("no row for the student"))?;
    let references = state.db.reference_versions().await?;
    let mut matches = Vec::new();
    for s in submissions.iter().rev() {
        for m in state.db.block_matches(s.version_id).await? {
            let reference = references
                .iter()
                .find(|r| r.version_id == m.reference_version_id)
                .map(|r| r.name.clone())
                .unwrap_or_default();
            matches.push(GradedMatch {
                bot: s.bot.clone(),
                version: s.number,
                reference,
                block: m.block,
                match_id: m.match_id,
                seat: m.seat + 1,
                state: m.state,
                chips: m.chips,
            });
        }
    }
    Ok(MyGrades {
        assignment: info(policy),
        grades: student,
        matches,
    })
}

pub async fn api(State(state): State<Shared>, ApiUser(user): ApiUser) -> Response {
    match mine(&state, &user).await {
        Ok(g) => Json(g).into_response(),
        Err(e) => e.api().into_response(),
    }
}

pub async fn page(State(state): State<Shared>, headers: HeaderMap) -> Response {
    if state.contest.assignment.is_none() {
        return WebError::not_found().into_response();
    }
    let session = match auth::session(&state, &headers).await {
        Ok(Some(s)) => s,
        Ok(None) => return Redirect::to("/login").into_response(),
        Err(e) => return e.into_response(),
    };
    let g = match mine(&state, session.user()).await {
        Ok(g) => g,
        Err(e) => return e.into_response(),
    };
    let body = body(&g);
    html::page(
        &state.contest.name,
        "My grades",
        Some(html::Viewer {
            user: session.user(),
            csrf: &session.record.csrf_token,
        }),
        &body,
    )
    .into_response()
}

fn body(g: &MyGrades) -> String {
    let a = &g.assignment;
    let grade = match (g.grades.counted, g.grades.grade) {
        (None, _) => "<p>No upload yet: <a href=\"/bots\">upload your bot</a>.</p>".to_string(),
        (Some(_), Some(grade)) => format!(
            "<p class=\"grade\">Your grade: <b>{grade:.1}%</b> <span class=\"muted\">({})</span></p>",
            esc(&g.grades.comment)
        ),
        (Some(_), None) => "<p class=\"grade\">Your counted upload is being graded; this page fills in as its games are played.</p>".to_string(),
    };
    let mut uploads = String::new();
    for (i, u) in g.grades.uploads.iter().enumerate().rev() {
        uploads.push_str(&upload_section(u, Some(i) == g.grades.counted));
    }
    let mut games = String::from(
        "<table class=\"list\"><tr><th>Upload</th><th>Against</th><th>Block</th><th>Your seat</th><th>Your chips</th><th>Replay</th></tr>",
    );
    for m in &g.matches {
        let replay = if m.state == "done" {
            format!("<a href=\"/matches/{}/replay\">watch</a>", m.match_id)
        } else {
            esc(&m.state)
        };
        games.push_str(&format!(
            "<tr><td>{} v{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{replay}</td></tr>",
            esc(&m.bot),
            m.version,
            esc(&m.reference),
            m.block + 1,
            m.seat,
            m.chips.map(|c| format!("{c:+}")).unwrap_or_default(),
        ));
    }
    games.push_str("</table>");
    format!(
        "<section class=\"panel\"><h2>My grades</h2>{grade}\
         <p>Deadline: <b>{deadline}</b>{late}. Counted: your <b>{counted}</b> graded upload.</p>\
         <p class=\"rule\">{rule}</p></section>{uploads}\
         <section class=\"panel\"><h2>My graded games</h2>\
         <p class=\"muted\">Each block is two games on the same deals, seats swapped. A replay shows your bot's stderr to you alone.</p>{games}</section>",
        deadline = esc(&a.deadline),
        late = if a.closes_at_ms > a.deadline_ms {
            format!(
                "; late uploads until {} lose {:.0}%",
                esc(&utc_text(a.closes_at_ms)),
                a.late_penalty * 100.0
            )
        } else {
            String::new()
        },
        counted = a.counted,
        rule = esc(&a.rule),
    )
}

/// One upload's verdicts as a table.
pub fn upload_section(u: &UploadGrades, counted: bool) -> String {
    let mut rows = String::new();
    for v in &u.verdicts {
        let interval = match (v.edge, v.lower, v.upper) {
            (Some(e), Some(l), Some(h)) => format!("{e:+.2} [{l:+.2}, {h:+.2}]"),
            _ => String::new(),
        };
        let why = match v.match_id {
            Some(id) if v.state == "fail" => format!(
                "{} (<a href=\"/matches/{id}/replay\">the match</a>)",
                esc(&v.why)
            ),
            // A paused grade's details are for the teacher.
            _ if v.state == "paused" => {
                "paused by a problem on the teacher's side; the teacher has been told".into()
            }
            _ => esc(&v.why),
        };
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{interval}</td><td>{:+.2}<br><span class=\"muted\">{}</span></td>\
             <td><span class=\"state state-{}\">{}</span></td><td>{why}</td></tr>",
            esc(&v.reference),
            v.mark,
            esc(&v.mark_means),
            esc(&v.state.replace(' ', "-")),
            esc(&v.state),
        ));
    }
    format!(
        "<section class=\"panel\"><h3>{} v{} · uploaded {}{}{}{}</h3>\
         <table class=\"list\"><tr><th>Reference bot</th><th>Your edge [interval]</th><th>Mark</th><th>Verdict</th><th>Why</th></tr>{rows}</table></section>",
        esc(&u.bot),
        u.version,
        esc(&u.uploaded_at),
        if u.late { " · <b>late</b>" } else { "" },
        if counted { " · <b>counted</b>" } else { "" },
        match u.score {
            Some(s) => format!(" · {s:.0}% passed"),
            None => String::new(),
        },
    )
}
