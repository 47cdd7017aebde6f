//! A student's grades in an assignment contest: `GET /grades` and `GET /api/grades`. Each of
//! their uploads with its verdict against every reference bot (the edge, its interval, the
//! mark and what it means, the verdict and why), the upload that counts and its grade, the
//! rule, and their own graded games (whose replays show them their bot's stderr). Only the
//! student's own: there is no address for another's, and a contest without `[assignment]`
//! has none of these pages (404).

use askama::Template;
use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Serialize;

use super::auth::{self, ApiUser};
use super::html::{self, Layout};
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
    let page = grades_page(
        Layout::new(
            &state.contest.name,
            "My grades",
            Some(html::Viewer::of(&session)),
        ),
        &g,
    );
    html::page(&page)
}

/// A student's grades page.
#[derive(Template)]
#[template(path = "grades.html")]
struct GradesPage<'a> {
    layout: Layout<'a>,
    has_upload: bool,
    /// "87.5%", once the counted upload is graded.
    grade: Option<String>,
    comment: &'a str,
    deadline: &'a str,
    /// When late uploads close, if they are allowed.
    late_until: Option<String>,
    /// The late penalty in whole percent.
    late_penalty: String,
    counted: &'a str,
    rule: &'a str,
    /// Newest first.
    uploads: Vec<UploadView>,
    games: Vec<GameRow>,
}

struct GameRow {
    bot: String,
    version: i64,
    reference: String,
    /// From 1.
    block: i64,
    seat: i64,
    /// "+12", or nothing before the game is played.
    chips: String,
    /// The match to watch, once played.
    replay: Option<i64>,
    state: String,
}

fn grades_page<'a>(layout: Layout<'a>, g: &'a MyGrades) -> GradesPage<'a> {
    let a = &g.assignment;
    let counted = g.grades.counted;
    GradesPage {
        layout,
        has_upload: counted.is_some(),
        grade: g.grades.grade.map(|grade| format!("{grade:.1}%")),
        comment: &g.grades.comment,
        deadline: &a.deadline,
        late_until: (a.closes_at_ms > a.deadline_ms).then(|| utc_text(a.closes_at_ms)),
        late_penalty: format!("{:.0}", a.late_penalty * 100.0),
        counted: a.counted,
        rule: &a.rule,
        uploads: g
            .grades
            .uploads
            .iter()
            .enumerate()
            .rev()
            .map(|(i, u)| upload_view(u, Some(i) == counted, ""))
            .collect(),
        games: g
            .matches
            .iter()
            .map(|m| GameRow {
                bot: m.bot.clone(),
                version: m.version,
                reference: m.reference.clone(),
                block: m.block + 1,
                seat: m.seat,
                chips: m.chips.map(|c| format!("{c:+}")).unwrap_or_default(),
                replay: (m.state == "done").then_some(m.match_id),
                state: m.state.clone(),
            })
            .collect(),
    }
}

/// One upload's verdicts, as `partials/upload_grades.html` shows them.
pub struct UploadView {
    /// The student's login name (the gradebook's heading above it; empty on their own page).
    pub student: String,
    pub bot: String,
    pub version: i64,
    pub uploaded_at: String,
    pub late: bool,
    pub counted: bool,
    /// " · 50% passed", or nothing.
    pub score: String,
    pub rows: Vec<VerdictRow>,
}

pub struct VerdictRow {
    pub reference: String,
    /// "+0.12 [-0.03, +0.27]", or nothing before the first block.
    pub interval: String,
    /// "+0.10".
    pub mark: String,
    pub mark_means: String,
    /// The state as a class name (no spaces).
    pub state_class: String,
    pub state: String,
    /// Why, as the student reads it (a paused grade's details are the teacher's).
    pub why: String,
    /// Why, in the grader's own words (the gradebook's tooltip, for the teacher).
    pub detail: String,
    /// The match a failed verdict was decided by.
    pub failed_in: Option<i64>,
}

pub fn upload_view(u: &UploadGrades, counted: bool, student: &str) -> UploadView {
    let rows = u
        .verdicts
        .iter()
        .map(|v| {
            let interval = match (v.edge, v.lower, v.upper) {
                (Some(e), Some(l), Some(h)) => format!("{e:+.2} [{l:+.2}, {h:+.2}]"),
                _ => String::new(),
            };
            let why = if v.state == "paused" {
                // A paused grade's details are for the teacher.
                "paused by a problem on the teacher's side; the teacher has been told".to_string()
            } else {
                v.why.clone()
            };
            VerdictRow {
                reference: v.reference.clone(),
                interval,
                mark: format!("{:+.2}", v.mark),
                mark_means: v.mark_means.clone(),
                state_class: v.state.replace(' ', "-"),
                state: v.state.clone(),
                why,
                detail: v.why.clone(),
                failed_in: v.match_id.filter(|_| v.state == "fail"),
            }
        })
        .collect();
    UploadView {
        student: student.to_string(),
        bot: u.bot.clone(),
        version: u.version,
        uploaded_at: u.uploaded_at.clone(),
        late: u.late,
        counted,
        score: u
            .score
            .map(|s| format!(" · {s:.0}% passed"))
            .unwrap_or_default(),
        rows,
    }
}
