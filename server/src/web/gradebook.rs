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

use askama::Template;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Form, Json};
use serde::Serialize;

use super::auth::{self, ApiUser, Session};
use super::grades::{AssignmentInfo, UploadView, info, policy, upload_view};
use super::html::{self, Layout, Person};
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
    html::page(&gradebook_page(
        Layout::new(
            &state.contest.name,
            "Gradebook",
            Some(html::Viewer::of(&session)),
        ),
        &book,
        &session.record.csrf_token,
    ))
}

/// The gradebook's page.
#[derive(Template)]
#[template(path = "gradebook.html")]
struct GradebookPage<'a> {
    layout: Layout<'a>,
    csrf: &'a str,
    deadline: &'a str,
    counted: &'a str,
    references: Vec<ReferenceColumn<'a>>,
    students: Vec<StudentRow<'a>>,
    queued: i64,
    running: i64,
    open: usize,
    paused: Vec<PausedRow<'a>>,
    copies: Vec<CopyRow<'a>>,
    builds: &'a [ReferenceBuild],
    /// Each student's counted upload in full.
    details: Vec<UploadView>,
}

struct ReferenceColumn<'a> {
    name: &'a str,
    /// "+0.10".
    mark: String,
}

struct StudentRow<'a> {
    name: &'a str,
    display_name: &'a str,
    counted: Option<UploadView>,
    /// "87.5%", or "grading".
    grade: String,
}

impl StudentRow<'_> {
    fn person(&self) -> Person<'_> {
        html::person(self.name, self.display_name)
    }
}

struct PausedRow<'a> {
    student: &'a str,
    bot: &'a str,
    version: i64,
    reference: &'a str,
    why: &'a str,
}

struct CopyRow<'a> {
    a: &'a str,
    b: &'a str,
    why: String,
    kind: &'a str,
}

fn gradebook_page<'a>(layout: Layout<'a>, b: &'a Gradebook, csrf: &'a str) -> GradebookPage<'a> {
    let mut paused = Vec::new();
    for s in &b.students {
        for u in &s.uploads {
            for v in u.verdicts.iter().filter(|v| v.state == grader::PAUSED) {
                paused.push(PausedRow {
                    student: &s.name,
                    bot: &u.bot,
                    version: u.version,
                    reference: &v.reference,
                    why: &v.why,
                });
            }
        }
    }
    GradebookPage {
        layout,
        csrf,
        deadline: &b.assignment.deadline,
        counted: b.assignment.counted,
        references: b
            .assignment
            .references
            .iter()
            .map(|r| ReferenceColumn {
                name: &r.name,
                mark: format!("{:+.2}", r.mark),
            })
            .collect(),
        students: b
            .students
            .iter()
            .map(|s| StudentRow {
                name: &s.name,
                display_name: &s.display_name,
                counted: s.counted.map(|i| upload_view(&s.uploads[i], true, &s.name)),
                grade: s
                    .grade
                    .map(|g| format!("{g:.1}%"))
                    .unwrap_or_else(|| "grading".into()),
            })
            .collect(),
        queued: b.queue.queued,
        running: b.queue.running,
        open: b.queue.open_grades,
        paused,
        copies: b
            .copies
            .iter()
            .map(|c| CopyRow {
                a: &c.a,
                b: &c.b,
                why: if c.kind == "source" {
                    "the same source once comments, spacing and names are normalised".to_string()
                } else {
                    format!(
                        "{:.1}% of {} decisions identical on the same deals",
                        c.share * 100.0,
                        c.compared
                    )
                },
                kind: c.kind,
            })
            .collect(),
        builds: &b.references,
        details: b
            .students
            .iter()
            .filter_map(|s| s.counted.map(|i| upload_view(&s.uploads[i], true, &s.name)))
            .collect(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::gradebook::{UploadGrades, Verdict};
    use crate::web::grades::ReferenceInfo;

    fn verdict(reference: &str, state: &str, why: &str) -> Verdict {
        Verdict {
            reference: reference.into(),
            state: state.into(),
            blocks: 2,
            edge: Some(0.25),
            lower: Some(-0.5),
            upper: Some(1.0),
            mark: 0.1,
            mark_means: "beats <random>".into(),
            why: why.into(),
            match_id: Some(7),
        }
    }

    /// Names, reasons and marks as a teacher and students wrote them are escaped; a paused
    /// grade's reason is the teacher's (in the tooltip and the paused list), the student
    /// reads only that it is paused.
    #[test]
    fn the_gradebook_escapes_and_keeps_the_teachers_details() {
        let upload = UploadGrades {
            version_id: 1,
            bot: "b<1>".into(),
            version: 3,
            uploaded_at_ms: 0,
            uploaded_at: "1970-01-01 00:00 UTC".into(),
            late: true,
            build: "ready".into(),
            verdicts: vec![
                verdict("ref<a>", "paused", "the reference <crashed>"),
                verdict("ref-b", "fail", "your bot's fault"),
            ],
            score: None,
        };
        let book = Gradebook {
            assignment: AssignmentInfo {
                deadline: "2026-12-01 10:25 UTC".into(),
                deadline_ms: 0,
                closes_at_ms: 0,
                late_penalty: 0.2,
                counted: "last",
                rule: "a rule".into(),
                references: vec![ReferenceInfo {
                    name: "ref<a>".into(),
                    mark: 0.1,
                    why: String::new(),
                }],
            },
            students: vec![StudentGrades {
                name: "stu".into(),
                display_name: "Student <One>".into(),
                uploads: vec![upload],
                counted: Some(0),
                grade: None,
                comment: String::new(),
            }],
            queue: Queue {
                queued: 1,
                running: 2,
                open_grades: 1,
                paused_grades: 1,
            },
            references: vec![ReferenceBuild {
                name: "ref<a>".into(),
                version: 1,
                state: "ready".into(),
            }],
            copies: vec![],
        };
        let user = crate::storage::User {
            id: 1,
            name: "teacher".into(),
            display_name: String::new(),
            is_admin: true,
            has_password: true,
        };
        let layout = Layout::new(
            "Class",
            "Gradebook",
            Some(html::Viewer {
                user: &user,
                csrf: "tok",
            }),
        );
        let page = gradebook_page(layout, &book, "tok").render().unwrap();
        for raw in ["<1>", "<a>", "<One>", "<crashed>", "<random>"] {
            assert!(!page.contains(raw), "{raw}: {page}");
        }
        assert!(
            page.contains("<td>Student &lt;One&gt; <span class=\"muted login\">(stu)</span></td>"),
            "{page}"
        );
        assert!(page.contains("<th>ref&lt;a&gt; (+0.10)</th>"), "{page}");
        assert!(
            page.contains("<td title=\"the reference &lt;crashed&gt;\"><span class=\"state state-paused\">paused</span></td>"),
            "{page}"
        );
        assert!(
            page.contains(
                "<li>stu b&lt;1&gt; v3 against ref&lt;a&gt;: the reference &lt;crashed&gt;</li>"
            ),
            "{page}"
        );
        // The verdicts below: as the student reads them.
        assert!(
            page.contains("paused by a problem on the teacher&#39;s side"),
            "{page}"
        );
        assert!(
            page.contains("your bot&#39;s fault (<a href=\"/matches/7/replay\">the match</a>)"),
            "{page}"
        );
        assert!(page.contains("<td>+0.25 [-0.50, +1.00]</td>"), "{page}");
        assert!(page.contains("<h3 id=\"stu\">stu</h3>"), "{page}");
        assert!(
            page.contains("<form method=\"post\" action=\"/admin/regrade\" class=\"inline\"><input type=\"hidden\" name=\"csrf\" value=\"tok\">"),
            "{page}"
        );
    }
}
