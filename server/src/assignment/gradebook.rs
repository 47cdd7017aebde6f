//! The gradebook: per student, every graded upload with its verdicts, the upload that counts
//! (the latest, or the best), its grade with the late penalty, and a comment saying why; the
//! CSV a learning-management system imports; and the copies found among the counted uploads.

use std::collections::HashMap;

use serde::Serialize;

use super::copies::{Agreement, agreement, normalised_source};
use super::grader::{FAIL, PASS, is_final};
use super::summary::moves_from_json;
use crate::clock::utc_text;
use crate::config::{AssignmentPolicy, Counted};
use crate::ladder::submissions::Submissions;
use crate::storage::{Db, Grade, Participant, Submission, Version};

/// One verdict of an upload.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub reference: String,
    pub state: String,
    pub blocks: i64,
    pub edge: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub mark: f64,
    /// What the mark means (the teacher's words).
    pub mark_means: String,
    pub why: String,
    /// The match a fault happened in.
    pub match_id: Option<i64>,
}

/// One upload with its verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct UploadGrades {
    pub version_id: i64,
    pub bot: String,
    pub version: i64,
    pub uploaded_at_ms: i64,
    pub uploaded_at: String,
    pub late: bool,
    /// The upload's build state.
    pub build: String,
    pub verdicts: Vec<Verdict>,
    /// The share of references passed, in percent, once every verdict is final.
    pub score: Option<f64>,
}

/// A student's row.
#[derive(Clone, Debug, Serialize)]
pub struct StudentGrades {
    pub name: String,
    pub display_name: String,
    pub uploads: Vec<UploadGrades>,
    /// The index in `uploads` of the one that counts.
    pub counted: Option<usize>,
    /// The grade in percent (late penalty applied); `None` while the counted upload is being
    /// graded.
    pub grade: Option<f64>,
    pub comment: String,
}

/// The rule, in two sentences, as every student's page states it.
pub fn rule_text(policy: &AssignmentPolicy) -> String {
    format!(
        "Your bot passes against a reference bot when its edge (chips per hand over both seat orders of the same deals) is above that bot's mark with {:.0}% confidence, and fails when it is at or below the mark with that confidence. \
         Grading plays blocks of {} hands until each verdict is settled, at most {} blocks; a verdict still open then is \"not settled\", and a crash, timeout or illegal move of your bot fails it.",
        policy.confidence * 100.0,
        2 * policy.hands,
        policy.max_blocks
    )
}

/// Every participant's grades. `submissions` oldest first.
pub fn build(
    policy: &AssignmentPolicy,
    participants: &[Participant],
    submissions: &[Submission],
    grades: &[Grade],
) -> Vec<StudentGrades> {
    let by_version: HashMap<(i64, &str), &Grade> = grades
        .iter()
        .map(|g| ((g.version_id, g.reference.as_str()), g))
        .collect();
    participants
        .iter()
        .map(|p| {
            let uploads: Vec<UploadGrades> = submissions
                .iter()
                .filter(|s| s.owner_id == p.id)
                .map(|s| upload_grades(policy, s, &by_version))
                .collect();
            let counted = match policy.counted {
                Counted::Latest => uploads.len().checked_sub(1),
                Counted::Best => {
                    let best = uploads
                        .iter()
                        .enumerate()
                        .filter_map(|(i, u)| u.score.map(|s| (i, penalised(policy, u, s))))
                        .max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                    best.map(|(i, _)| i).or(uploads.len().checked_sub(1))
                }
            };
            let grade = match counted {
                None => Some(0.0),
                Some(i) => uploads[i].score.map(|s| penalised(policy, &uploads[i], s)),
            };
            let comment = match counted {
                None => "no upload".to_string(),
                Some(i) => comment(policy, &uploads[i]),
            };
            StudentGrades {
                name: p.name.clone(),
                display_name: p.display_name.clone(),
                uploads,
                counted,
                grade,
                comment,
            }
        })
        .collect()
}

fn upload_grades(
    policy: &AssignmentPolicy,
    s: &Submission,
    grades: &HashMap<(i64, &str), &Grade>,
) -> UploadGrades {
    let verdicts: Vec<Verdict> = policy
        .references
        .iter()
        .map(|r| match grades.get(&(s.version_id, r.name.as_str())) {
            Some(g) => Verdict {
                reference: r.name.clone(),
                state: g.state.clone(),
                blocks: g.blocks,
                edge: g.edge,
                lower: g.lower,
                upper: g.upper,
                mark: r.mark,
                mark_means: r.why.clone(),
                why: g.why.clone(),
                match_id: g.match_id,
            },
            None => Verdict {
                reference: r.name.clone(),
                state: "waiting".into(),
                blocks: 0,
                edge: None,
                lower: None,
                upper: None,
                mark: r.mark,
                mark_means: r.why.clone(),
                why: "not graded yet".into(),
                match_id: None,
            },
        })
        .collect();
    // A grade judged with another mark is not final for this one.
    let all_final = verdicts
        .iter()
        .zip(&policy.references)
        .all(|(v, r)| is_final(&v.state) && v.mark == r.mark && v.state != "replaced");
    let passed = verdicts.iter().filter(|v| v.state == PASS).count();
    let score = (all_final || verdicts.iter().all(|v| v.state == FAIL))
        .then(|| 100.0 * passed as f64 / verdicts.len().max(1) as f64);
    UploadGrades {
        version_id: s.version_id,
        bot: s.bot.clone(),
        version: s.number,
        uploaded_at_ms: s.created_at,
        uploaded_at: utc_text(s.created_at),
        late: s.created_at > policy.deadline_ms,
        build: s.state.clone(),
        verdicts,
        score,
    }
}

fn penalised(policy: &AssignmentPolicy, upload: &UploadGrades, score: f64) -> f64 {
    let factor = if upload.late {
        1.0 - policy.late_penalty
    } else {
        1.0
    };
    (score * factor * 10.0).round() / 10.0
}

fn comment(policy: &AssignmentPolicy, u: &UploadGrades) -> String {
    let mut parts = vec![format!(
        "{} v{} uploaded {}{}",
        u.bot,
        u.version,
        u.uploaded_at,
        if u.late {
            format!(" (late: -{:.0}%)", policy.late_penalty * 100.0)
        } else {
            String::new()
        }
    )];
    for v in &u.verdicts {
        parts.push(match (v.edge, v.lower, v.upper) {
            (Some(e), Some(l), Some(h)) if v.state != FAIL || v.match_id.is_none() => format!(
                "{}: {} (edge {e:+.2} [{l:+.2}, {h:+.2}], mark {:+.2})",
                v.reference, v.state, v.mark
            ),
            _ => format!("{}: {} ({})", v.reference, v.state, v.why),
        });
    }
    parts.join("; ")
}

/// The gradebook as CSV: `name,id,grade,comment`, one row per student (the grade empty while
/// the counted upload is being graded).
pub fn csv(students: &[StudentGrades]) -> String {
    let mut out = String::from("name,id,grade,comment\n");
    for s in students {
        let grade = s.grade.map(|g| format!("{g:.1}")).unwrap_or_default();
        out.push_str(&format!(
            "{},{},{},{}\n",
            csv_field(&s.display_name),
            csv_field(&s.name),
            grade,
            csv_field(&s.comment)
        ));
    }
    out
}

/// A CSV field: quoted when it holds a comma, a quote or a line break, and kept from being
/// read as a formula by a spreadsheet (a leading `=`, `+`, `-` or `@` gets a `'`).
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// A pair of bots that look copied.
#[derive(Clone, Debug, Serialize)]
pub struct CopyFlag {
    /// Students' login names, or `reference NAME`.
    pub a: String,
    pub b: String,
    /// `source` (equal once normalised) or `play` (decisions alike on equal deals).
    pub kind: &'static str,
    /// The share of identical decisions (play), 1 for source.
    pub share: f64,
    /// Decisions compared (play).
    pub compared: u64,
}

/// Fewer decisions compared than this say nothing either way.
pub const MIN_DECISIONS: u64 = 30;

/// The copies among the counted uploads of `students`, and of a reference bot.
pub async fn copies(
    db: &Db,
    policy: &AssignmentPolicy,
    submissions: &Submissions,
    students: &[StudentGrades],
) -> anyhow::Result<Vec<CopyFlag>> {
    // The counted, built upload of each student.
    let counted: Vec<(String, i64)> = students
        .iter()
        .filter_map(|s| {
            let u = &s.uploads[s.counted?];
            matches!(u.build.as_str(), "ready" | "retired").then(|| (s.name.clone(), u.version_id))
        })
        .collect();
    let mut sources: Vec<(String, String)> = Vec::new();
    for (name, id) in &counted {
        if let Some(v) = db.version_by_id(*id).await? {
            sources.push((name.clone(), source_of(submissions, &v)));
        }
    }
    let references = db.reference_versions().await?;
    let mut reference_names: HashMap<i64, String> = HashMap::new();
    for r in &references {
        reference_names.insert(r.version_id, r.name.clone());
    }
    for r in policy.references.iter() {
        // The newest version of each reference.
        if let Some(v) = references.iter().find(|v| v.name == r.name)
            && let Some(version) = db.version_by_id(v.version_id).await?
        {
            sources.push((
                format!("reference {}", r.name),
                source_of(submissions, &version),
            ));
        }
    }
    let mut flags = Vec::new();
    for (i, (a, sa)) in sources.iter().enumerate() {
        for (b, sb) in &sources[i + 1..] {
            if sa == sb && !sa.trim().is_empty() && !a.starts_with("reference ") {
                flags.push(CopyFlag {
                    a: a.clone(),
                    b: b.clone(),
                    kind: "source",
                    share: 1.0,
                    compared: 0,
                });
            }
        }
    }
    let ids: Vec<i64> = counted.iter().map(|(_, id)| *id).collect();
    let moves = db.graded_moves(&ids).await?;
    let policy = policy.clone();
    let counted_names = counted.clone();
    let play = tokio::task::spawn_blocking(move || {
        play_copies(&policy, &counted_names, &reference_names, moves)
    })
    .await?;
    flags.extend(play);
    Ok(flags)
}

/// An upload's played matches: (a copy probe's?, reference version, block or probe number,
/// the upload's seat) -> moves.
type Plays = HashMap<(bool, i64, i64, i64), Vec<Vec<super::summary::Move>>>;

fn play_copies(
    policy: &AssignmentPolicy,
    counted: &[(String, i64)],
    reference_names: &HashMap<i64, String>,
    moves: Vec<crate::storage::GradedMoves>,
) -> Vec<CopyFlag> {
    let mut plays: HashMap<i64, Plays> = HashMap::new();
    for m in moves {
        plays.entry(m.version_id).or_default().insert(
            (m.probe, m.reference_version_id, m.block, m.seat),
            moves_from_json(&m.moves),
        );
    }
    let mut flags = Vec::new();
    let flag = |a: &str, b: &str, agreed: Agreement, flags: &mut Vec<CopyFlag>| {
        if agreed.compared >= MIN_DECISIONS && agreed.share() >= policy.copy_threshold {
            flags.push(CopyFlag {
                a: a.to_string(),
                b: b.to_string(),
                kind: "play",
                share: agreed.share(),
                compared: agreed.compared,
            });
        }
    };
    let empty = Plays::new();
    for (i, (a, ida)) in counted.iter().enumerate() {
        let pa = plays.get(ida).unwrap_or(&empty);
        for (b, idb) in &counted[i + 1..] {
            let pb = plays.get(idb).unwrap_or(&empty);
            // Two students met the same deals in the copy probes only (graded blocks are
            // every upload's own).
            let mut agreed = Agreement::default();
            for (key, ma) in pa.iter().filter(|(k, _)| k.0) {
                if let Some(mb) = pb.get(key) {
                    agreed.add(agreement(ma, mb, key.3 as usize));
                }
            }
            flag(a, b, agreed, &mut flags);
        }
        // Against each reference: the two seat orders of one block or probe.
        let mut by_reference: HashMap<i64, Agreement> = HashMap::new();
        for (&(probe, reference, block, seat), ma) in pa {
            if seat != 0 {
                continue;
            }
            if let Some(mb) = pa.get(&(probe, reference, block, 1)) {
                let entry = by_reference.entry(reference).or_default();
                // Seat 0: the student in `ma`, the reference in `mb`; seat 1 the other way.
                entry.add(agreement(ma, mb, 0));
                entry.add(agreement(mb, ma, 1));
            }
        }
        for (reference, agreed) in by_reference {
            let name = reference_names
                .get(&reference)
                .map(|n| format!("reference {n}"))
                .unwrap_or_else(|| "a reference".into());
            flag(a, &name, agreed, &mut flags);
        }
    }
    flags
}

/// A version's source files, normalised (text files only, at most 1 MB in all).
fn source_of(submissions: &Submissions, version: &Version) -> String {
    let mut files = Vec::new();
    let mut total = 0usize;
    for (rel, size) in submissions.files(version).unwrap_or_default() {
        if total + size as usize > 1 << 20 {
            break;
        }
        if let Ok(Some(bytes)) = submissions.read_file(version, &rel)
            && let Ok(text) = String::from_utf8(bytes)
        {
            total += text.len();
            files.push((rel, text));
        }
    }
    normalised_source(&files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Language, Reference};

    fn policy(counted: Counted) -> AssignmentPolicy {
        let reference = |name: &str| Reference {
            name: name.into(),
            source: "r.py".into(),
            files: vec![],
            language: Language::Python,
            mark: 0.0,
            why: String::new(),
        };
        AssignmentPolicy {
            references: vec![reference("a"), reference("b")],
            hands: 10,
            min_blocks: 2,
            max_blocks: 2,
            confidence: 0.95,
            deadline_ms: 1_000,
            late_ms: 500,
            late_penalty: 0.2,
            counted,
            copy_threshold: 0.9,
            copy_blocks: 2,
        }
    }

    fn upload(id: i64, at: i64) -> Submission {
        Submission {
            version_id: id,
            bot: "b".into(),
            number: id,
            owner_id: 7,
            owner: "ann".into(),
            owner_display: "Ann".into(),
            state: "ready".into(),
            language: "python".into(),
            created_at: at,
            build_log: String::new(),
            check_log: String::new(),
        }
    }

    fn grade(version_id: i64, reference: &str, state: &str) -> Grade {
        Grade {
            version_id,
            reference: reference.into(),
            state: state.into(),
            blocks: 2,
            edge: Some(1.0),
            lower: Some(0.5),
            upper: Some(1.5),
            mark: 0.0,
            why: String::new(),
            match_id: None,
            updated_at: 0,
        }
    }

    #[test]
    fn the_counted_upload_its_grade_and_the_late_penalty() {
        let ann = [Participant {
            id: 7,
            name: "ann".into(),
            display_name: "Ann".into(),
        }];
        // v1 on time passes both; v2, late, passes one.
        let subs = [upload(1, 900), upload(2, 1_200)];
        let grades = [
            grade(1, "a", "pass"),
            grade(1, "b", "pass"),
            grade(2, "a", "pass"),
            grade(2, "b", "fail"),
        ];
        let latest = build(&policy(Counted::Latest), &ann, &subs, &grades);
        assert_eq!(latest[0].counted, Some(1));
        // 50% less the late fifth.
        assert_eq!(latest[0].grade, Some(40.0));
        assert!(
            latest[0].comment.contains("(late: -20%)"),
            "{}",
            latest[0].comment
        );
        let best = build(&policy(Counted::Best), &ann, &subs, &grades);
        assert_eq!((best[0].counted, best[0].grade), (Some(0), Some(100.0)));
        // While the counted upload is being graded there is no grade yet.
        let open = [grade(2, "a", "pass"), grade(2, "b", "grading")];
        let latest = build(&policy(Counted::Latest), &ann, &subs, &open);
        assert_eq!(latest[0].grade, None);
        // No upload at all: 0.
        let none = build(&policy(Counted::Latest), &ann, &[], &[]);
        assert_eq!((none[0].counted, none[0].grade), (None, Some(0.0)));
        assert_eq!(csv(&none), "name,id,grade,comment\nAnn,ann,0.0,no upload\n");
    }

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
    }
}
