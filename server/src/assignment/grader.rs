//! The grader: one step judges every upload that is not yet graded against every reference
//! bot from the blocks played so far, and schedules the blocks a verdict still needs. The
//! workers run a step before each match (where the ladder would pick its next pair), on the
//! server and on `arena worker` machines alike: the database is all they share, and a block
//! two of them schedule at once is refused the second time by its unique key.
//!
//! A block is a duplicate pair (both seat orders of one deal) of the ladder's own matches,
//! played by whichever worker claims it; a worker lost mid-match loses its lease and the
//! match is played again, and a block counts only once both its results are stored, so
//! nothing is counted twice. A grade is judged again when its mark changed, and after the
//! teacher's re-grade.
//!
//! Once an upload's grade against a reference is out, the step also schedules its copy
//! probes: blocks on deals every upload meets (the graded blocks' deals are each upload's
//! own), for the copy check alone: never judged here and never shown to the student.

use std::collections::{HashMap, HashSet};

use arena::standings::BlockSample;
use sha2::{Digest, Sha256};

use super::sequential::{Estimate, Judgement, Looks};
use super::summary::faults_from_json;
use crate::config::{AssignmentPolicy, Contest, Counted, Reference};
use crate::storage::{BlockMatch, Db, Grade, NewPair, StorageError, Submission, now_ms};

/// A grade's states, as stored and shown.
pub const GRADING: &str = "grading";
pub const PASS: &str = "pass";
pub const FAIL: &str = "fail";
pub const NOT_SETTLED: &str = "not settled";
pub const PAUSED: &str = "paused";
pub const REPLACED: &str = "replaced";

/// Whether a grade in this state is finished (judged again only if its mark changes).
pub fn is_final(state: &str) -> bool {
    matches!(state, PASS | FAIL | NOT_SETTLED | REPLACED)
}

/// The fixed looks of the contest's assignment.
pub fn looks(policy: &AssignmentPolicy) -> Looks {
    Looks {
        min_blocks: policy.min_blocks,
        max_blocks: policy.max_blocks,
        confidence: policy.confidence,
    }
}

/// The deal seed of an upload's block `block` against `reference`: its own, never met by
/// another upload. A student's replays show whole deals (the opponent's cards too), so a deal
/// met twice could be played with hindsight: by the same student's next upload, or by a
/// classmate they share replays with. Both seat orders of the block share it.
pub fn block_seed(secret: &str, reference: &str, version_id: i64, block: i64) -> u64 {
    seed_of(&format!("block:{secret}:{reference}:{version_id}:{block}"))
}

/// The deal seed of copy probe `probe` against `reference`: the same for every upload (the
/// copy check compares two students' decisions on it), and secret because no probe is ever
/// shown to a student.
pub fn probe_seed(secret: &str, reference: &str, probe: i64) -> u64 {
    seed_of(&format!("probe:{secret}:{reference}:{probe}"))
}

fn seed_of(text: &str) -> u64 {
    let digest = Sha256::digest(text.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().unwrap_or([0; 8]))
}

/// One grading step; returns how many blocks and probes it scheduled.
pub async fn step(db: &Db, contest: &Contest) -> anyhow::Result<usize> {
    let Some(policy) = &contest.assignment else {
        return Ok(0);
    };
    let references = current_references(db, policy).await?;
    let submissions = db.submissions(policy.closes_at_ms()).await?;
    let grades: HashMap<(i64, String), Grade> = db
        .grades(None)
        .await?
        .into_iter()
        .map(|g| ((g.version_id, g.reference.clone()), g))
        .collect();
    let latest = latest_by_owner(&submissions);
    let probes: HashSet<(i64, i64, i64)> = db.copy_probes().await?.into_iter().collect();
    let mut secret = None;
    let mut scheduled = 0;
    // Replaced uploads whose copy probes may still wait: only the counted upload is compared.
    let mut replaced_probes = Vec::new();
    for sub in &submissions {
        let settled = |r: &Reference| {
            grades
                .get(&(sub.version_id, r.name.clone()))
                .is_some_and(|g| (is_final(&g.state) && g.mark == r.mark) || g.state == PAUSED)
        };
        let replaced =
            policy.counted == Counted::Latest && latest.get(&sub.owner_id) != Some(&sub.version_id);
        if replaced && probes.iter().any(|p| p.0 == sub.version_id) {
            replaced_probes.push(sub.version_id);
        }
        if !replaced && matches!(sub.state.as_str(), "ready" | "retired") {
            let graded = Graded {
                grades: &grades,
                references: &references,
                probes: &probes,
            };
            scheduled += schedule_probes(db, contest, sub, &graded, &mut secret).await?;
        }
        if policy.references.iter().all(settled) {
            continue;
        }
        if replaced {
            // Its games still waiting would grade an upload that no longer counts.
            db.cancel_grading_of(sub.version_id).await?;
        }
        let blocks = match sub.state.as_str() {
            "ready" | "retired" if !replaced => db.block_matches(sub.version_id).await?,
            _ => Vec::new(),
        };
        for reference in &policy.references {
            if settled(reference) {
                continue;
            }
            let old = grades.get(&(sub.version_id, reference.name.clone()));
            let mut grade = Grade {
                version_id: sub.version_id,
                reference: reference.name.clone(),
                state: GRADING.into(),
                blocks: 0,
                edge: None,
                lower: None,
                upper: None,
                mark: reference.mark,
                why: String::new(),
                match_id: None,
                updated_at: now_ms(),
            };
            match sub.state.as_str() {
                _ if replaced => {
                    grade.state = REPLACED.into();
                    grade.why = "a later upload replaced this one: only the latest counts".into();
                }
                "uploaded" | "building" => grade.why = "waiting for its build and checks".into(),
                "failed" => {
                    grade.state = FAIL.into();
                    grade.why = format!(
                        "it did not build or did not pass the arena's checks: {}",
                        log_tail(sub)
                    );
                }
                _ => match references.get(&reference.name).copied().flatten() {
                    None => grade.why = "waiting for the reference bot's build".into(),
                    Some(reference_version) => {
                        let mine: Vec<&BlockMatch> = blocks
                            .iter()
                            .filter(|m| m.reference_version_id == reference_version)
                            .collect();
                        let wanted = judge(policy, reference, &mine, &mut grade);
                        if let Some(until) = wanted {
                            let secret = match &secret {
                                Some(s) => s,
                                None => secret.insert(db.assignment_secret().await?),
                            };
                            // Blocks a re-grade dropped leave gaps: those are played again.
                            let present: HashSet<i64> = mine.iter().map(|m| m.block).collect();
                            for block in (0..until as i64).filter(|b| !present.contains(b)) {
                                let seed =
                                    block_seed(secret, &reference.name, sub.version_id, block);
                                let pair =
                                    block_pair(contest, policy, sub, reference_version, seed);
                                let done = db.schedule_grading_block(&pair, block).await;
                                scheduled += usize::from(first_to_schedule(done)?);
                            }
                        }
                    }
                },
            }
            let changed = old.is_none_or(|o| {
                (&o.state, &o.why, o.blocks, o.mark)
                    != (&grade.state, &grade.why, grade.blocks, grade.mark)
            });
            if changed {
                db.put_grade(&grade).await?;
            }
        }
    }
    db.cancel_probes_of(&replaced_probes).await?;
    Ok(scheduled)
}

/// What a step read of the grading so far.
struct Graded<'a> {
    grades: &'a HashMap<(i64, String), Grade>,
    /// Each reference's ready version.
    references: &'a HashMap<String, Option<i64>>,
    /// (upload, reference version, probe) of the copy probes scheduled.
    probes: &'a HashSet<(i64, i64, i64)>,
}

/// Schedules an upload's copy probes against each reference whose grade is out; returns how
/// many.
async fn schedule_probes(
    db: &Db,
    contest: &Contest,
    sub: &Submission,
    graded: &Graded<'_>,
    secret: &mut Option<String>,
) -> anyhow::Result<usize> {
    let Some(policy) = &contest.assignment else {
        return Ok(0);
    };
    let mut scheduled = 0;
    for reference in &policy.references {
        // Once its grade is out (a fault's fail says all there is to say).
        let judged = graded
            .grades
            .get(&(sub.version_id, reference.name.clone()))
            .is_some_and(|g| {
                matches!(g.state.as_str(), PASS | FAIL | NOT_SETTLED) && g.match_id.is_none()
            });
        let reference_version = graded.references.get(&reference.name).copied().flatten();
        let (true, Some(reference_version)) = (judged, reference_version) else {
            continue;
        };
        for probe in 0..policy.copy_blocks as i64 {
            if graded
                .probes
                .contains(&(sub.version_id, reference_version, probe))
            {
                continue;
            }
            let secret = match secret {
                Some(s) => s,
                None => secret.insert(db.assignment_secret().await?),
            };
            let seed = probe_seed(secret, &reference.name, probe);
            let pair = block_pair(contest, policy, sub, reference_version, seed);
            let done = db.schedule_copy_probe(&pair, probe).await;
            scheduled += usize::from(first_to_schedule(done)?);
        }
    }
    Ok(scheduled)
}

/// Both seat orders of one deal: `sub` against a reference bot's version.
fn block_pair(
    contest: &Contest,
    policy: &AssignmentPolicy,
    sub: &Submission,
    reference_version: i64,
    seed: u64,
) -> NewPair {
    NewPair {
        version_a: sub.version_id,
        version_b: reference_version,
        seeds: [seed, seed],
        hands: policy.hands,
        max_attempts: i64::from(contest.ladder.max_attempts),
    }
}

/// Whether this step scheduled the block or probe: a conflict is another worker's having
/// scheduled it first.
fn first_to_schedule(done: Result<i64, StorageError>) -> anyhow::Result<bool> {
    match done {
        Ok(_) => Ok(true),
        Err(StorageError::Conflict) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Each reference's newest version if it is ready (`None` while it builds, or if its build
/// failed: grading against it waits).
async fn current_references(
    db: &Db,
    policy: &AssignmentPolicy,
) -> anyhow::Result<HashMap<String, Option<i64>>> {
    let versions = db.reference_versions().await?;
    Ok(policy
        .references
        .iter()
        .map(|r| {
            let newest = versions.iter().find(|v| v.name == r.name);
            let ready = newest.filter(|v| v.state == "ready").map(|v| v.version_id);
            (r.name.clone(), ready)
        })
        .collect())
}

/// Each owner's latest upload.
pub fn latest_by_owner(submissions: &[Submission]) -> HashMap<i64, i64> {
    // Oldest first: the last one written wins.
    submissions
        .iter()
        .map(|s| (s.owner_id, s.version_id))
        .collect()
}

/// Judges `grade` from its blocks' matches; returns the block count to play up to, if more
/// are needed.
fn judge(
    policy: &AssignmentPolicy,
    reference: &Reference,
    matches: &[&BlockMatch],
    grade: &mut Grade,
) -> Option<u64> {
    let mut by_block: Vec<(i64, Vec<&BlockMatch>)> = Vec::new();
    for m in matches {
        match by_block.last_mut() {
            Some((b, list)) if *b == m.block => list.push(m),
            _ => by_block.push((m.block, vec![m])),
        }
    }
    let mut samples = Vec::new();
    for (_, block) in &by_block {
        for m in block {
            match m.state.as_str() {
                "done" => {}
                "failed" | "cancelled" => {
                    grade.state = PAUSED.into();
                    grade.match_id = Some(m.match_id);
                    grade.why = format!(
                        "grading match {} could not be played ({}); the teacher re-grades once it is fixed",
                        m.match_id,
                        m.error.as_deref().unwrap_or("no reason recorded")
                    );
                    return None;
                }
                _ => {
                    grade.blocks = samples.len() as i64;
                    grade.why = format!(
                        "playing: {} of {} blocks so far",
                        samples.len(),
                        by_block.len()
                    );
                    return None;
                }
            }
            // The first fault decides (the student's fails the grade, the reference's pauses it).
            if let Some(fault) = faults_from_json(m.faults.as_deref().unwrap_or("[]"))
                .into_iter()
                .next()
            {
                grade.match_id = Some(m.match_id);
                if fault.seat as i64 == m.seat {
                    grade.state = FAIL.into();
                    grade.why = format!(
                        "your bot's fault in match {} (hand {}): {}: {}",
                        m.match_id,
                        fault.hand + 1,
                        fault.fault,
                        fault.detail
                    );
                } else {
                    grade.state = PAUSED.into();
                    grade.why = format!(
                        "the reference bot {} faulted in match {} (hand {}, {}: {}): grading against it waits for the teacher",
                        reference.name,
                        m.match_id,
                        fault.hand + 1,
                        fault.fault,
                        fault.detail
                    );
                }
                return None;
            }
        }
        samples.push(BlockSample {
            chips: block.iter().filter_map(|m| m.chips).sum::<i64>() as f64,
            hands: block.iter().map(|m| m.hands.max(0) as u64).sum(),
        });
    }
    let looks = looks(policy);
    let level = looks.level() * 100.0;
    let estimate = |e: &Estimate| {
        format!(
            "edge {:+.2} chips per hand, {level:.2}% interval [{:+.2}, {:+.2}] over {} blocks",
            e.edge, e.lower, e.upper, e.blocks
        )
    };
    let (state, why, e, more) = match looks.judge(&samples, reference.mark) {
        Judgement::Pass(e) => (
            PASS,
            format!("{}: above the mark {:+.2}", estimate(&e), reference.mark),
            Some(e),
            None,
        ),
        Judgement::Fail(e) => (
            FAIL,
            format!(
                "{}: not above the mark {:+.2}",
                estimate(&e),
                reference.mark
            ),
            Some(e),
            None,
        ),
        Judgement::NotSettled(e) => (
            NOT_SETTLED,
            format!(
                "{}: the interval still holds the mark {:+.2} at the hand cap",
                estimate(&e),
                reference.mark
            ),
            Some(e),
            None,
        ),
        Judgement::PlayUntil(n, e) => (
            GRADING,
            match &e {
                Some(e) => format!("{}: not settled yet, playing up to {n} blocks", estimate(e)),
                None => format!("playing the first {n} blocks"),
            },
            e,
            Some(n),
        ),
    };
    grade.state = state.into();
    grade.why = why;
    grade.blocks = samples.len() as i64;
    if let Some(e) = e {
        grade.edge = Some(e.edge);
        grade.lower = Some(e.lower);
        grade.upper = Some(e.upper);
    }
    more
}

/// The end of an upload's check log, else its build log: what went wrong.
fn log_tail(sub: &Submission) -> String {
    let log = if sub.check_log.trim().is_empty() {
        &sub.build_log
    } else {
        &sub.check_log
    };
    let log = log.trim();
    let start = log.char_indices().rev().nth(399).map_or(0, |(i, _)| i);
    if start > 0 {
        format!("…{}", &log[start..])
    } else {
        log.to_string()
    }
}

/// The teacher's re-grade: blocks that paused a grade (a match that could not be played, a
/// reference bot's fault) are dropped so that they are played again, and every grade is
/// judged anew with the marks the server has now. Returns how many grades.
pub async fn regrade(db: &Db) -> anyhow::Result<u64> {
    for grade in db.grades(None).await? {
        if grade.state != PAUSED {
            continue;
        }
        let Some(match_id) = grade.match_id else {
            continue;
        };
        for m in db.block_matches(grade.version_id).await? {
            if m.match_id == match_id {
                db.discard_grading_block(m.pair_id).await?;
            }
        }
    }
    Ok(db.regrade_all().await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_upload_meets_its_own_deals_and_every_probe_the_same() {
        // A block: the same deal for both its seat orders and a replayed match ...
        assert_eq!(
            block_seed("s", "random", 7, 3),
            block_seed("s", "random", 7, 3)
        );
        // ... and another one for every other block, upload, reference and assignment.
        let seeds = [
            block_seed("s", "random", 7, 3),
            block_seed("s", "random", 7, 4),
            block_seed("s", "random", 8, 3),
            block_seed("s", "passive", 7, 3),
            block_seed("t", "random", 7, 3),
            probe_seed("s", "random", 3),
            probe_seed("s", "random", 4),
            probe_seed("s", "passive", 3),
            probe_seed("t", "random", 3),
        ];
        let distinct: HashSet<u64> = seeds.iter().copied().collect();
        assert_eq!(distinct.len(), seeds.len(), "{seeds:?}");
        // A probe does not depend on the upload: every student meets it.
        assert_eq!(probe_seed("s", "random", 3), probe_seed("s", "random", 3));
    }
}
