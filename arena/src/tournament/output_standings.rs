//! The standings of a tournament's output directory: computed from its results (with the
//! SPRT verdict a run saved, when the estimator has changed since), written as standings.json,
//! .csv and .txt (and a graded gauntlet's grades.json), and rendered as text.

use std::path::Path;

use crate::standings;
use crate::tournament::error::TournamentOutputError;
use crate::tournament::output::{Plan, read_plan, write_atomically};
use crate::tournament::{Format, MatchRecord, Tournament, grading, sprt_blocks};

/// The plan.json of an output directory, if it has one that this arena reads.
pub fn planned(dir: &Path) -> Option<Plan> {
    dir.join("plan.json")
        .exists()
        .then(|| read_plan(dir).ok())
        .flatten()
}

/// The standings of the output directory `dir` with its `records`: with the SPRT verdict
/// when its plan.json is an SPRT tournament's.
///
/// A luck-corrected SPRT that ran with another estimator revision than this arena's
/// ([`standings::estimator::ESTIMATOR_REVISION`]) is not judged again with other arithmetic:
/// its verdict is the one its run saved in standings.json, said to be so. Without a saved
/// verdict, this arena's recomputation is shown with a caveat.
pub fn standings_of(dir: &Path, records: &[MatchRecord]) -> standings::Standings {
    let plan = planned(dir);
    let tournament = plan.as_ref().map(|p| &p.tournament);
    let Some(plan) = plan.as_ref().filter(|p| !p.estimator_is_current()) else {
        return compute_for(records, tournament, Some(dir));
    };
    let ours = standings::estimator::ESTIMATOR_REVISION;
    let theirs = plan.describe_revision();
    if let Some(mut saved) =
        saved_verdict(dir).filter(|v| v.estimator_revision == plan.luck_estimator_revision)
    {
        // The saved verdict stands in for the SPRT: its replays are not read again.
        let mut standings = compute_for(records, None, Some(dir));
        saved.caveat = Some(format!(
            "this is the verdict the run saved. The test ran with the luck-corrected \
             estimator's {theirs}; this arena's is revision {ours}, and a sequential test is \
             judged by the estimator it ran with, so it is not recomputed"
        ));
        standings.sprt = Some(saved);
        return standings;
    }
    let mut standings = compute_for(records, tournament, Some(dir));
    if let Some(verdict) = &mut standings.sprt {
        verdict.caveat = Some(format!(
            "recomputed with this arena's luck-corrected estimator, revision {ours}. The test \
             ran with {theirs}, and standings.json holds no verdict saved with it, so this may \
             differ from the verdict the test stopped on"
        ));
    }
    standings
}

/// The standings of `records`, with the verdict of the SPRT when `tournament` (the one of the
/// output directory's plan.json, if known) is an SPRT tournament. `dir` is the output
/// directory with the records' replays (the SPRT's luck-corrected estimator reads them).
fn compute_for(
    records: &[MatchRecord],
    tournament: Option<&Tournament>,
    dir: Option<&Path>,
) -> standings::Standings {
    let mut standings = standings::compute(records);
    standings.sprt = tournament.and_then(|t| sprt_verdict(records, t, dir));
    standings
}

/// The verdict of an SPRT tournament's test over `records`; `None` for other formats.
fn sprt_verdict(
    records: &[MatchRecord],
    t: &Tournament,
    dir: Option<&Path>,
) -> Option<standings::SprtVerdict> {
    let config = t.sprt.filter(|_| t.format == Format::Sprt)?;
    let [candidate, baseline] = [t.bots.first()?, t.bots.get(1)?];
    Some(sprt_blocks::verdict(
        records,
        &config,
        &candidate.name,
        &baseline.name,
        dir,
    ))
}

/// The SPRT verdict in an output directory's standings.json, as the last run wrote it.
fn saved_verdict(dir: &Path) -> Option<standings::SprtVerdict> {
    let text = std::fs::read_to_string(dir.join("standings.json")).ok()?;
    let mut json: serde_json::Value = serde_json::from_str(&text).ok()?;
    serde_json::from_value(json.get_mut("sprt")?.take()).ok()
}

/// The grades of a gauntlet `t` (with or without pass marks) over `records`; `None` for other
/// formats.
pub fn gauntlet_report(
    standings: &standings::Standings,
    t: &Tournament,
) -> Option<grading::GradeReport> {
    (t.format == Format::Gauntlet).then(|| {
        let bots: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        grading::grade(standings, &bots, &t.candidates, &t.pass_marks)
    })
}

/// The standings text: for a gauntlet (`plan` says), the candidates' ranking
/// against the field and the grades first, then the per-bot totals unranked; otherwise the
/// ranked table.
pub fn standings_text(
    standings: &standings::Standings,
    plan: Option<&Tournament>,
) -> (String, Option<grading::GradeReport>) {
    match plan.and_then(|t| gauntlet_report(standings, t).map(|g| (t, g))) {
        Some((t, grades)) => {
            let mut text = grading::render(&grades, !t.pass_marks.is_empty());
            text.push('\n');
            text.push_str(&standings::render_totals(standings));
            (text, Some(grades))
        }
        None => (standings::render_table(standings), None),
    }
}

/// Computes the standings of `records` of the tournament `plan` (with the SPRT verdict of an
/// SPRT tournament) and writes them as JSON, CSV and text (and a graded gauntlet's
/// grades.json); returns the text.
pub fn write_standings(
    out: &Path,
    records: &[MatchRecord],
    plan: &Tournament,
) -> Result<String, TournamentOutputError> {
    let standings = compute_for(records, Some(plan), Some(out));
    let (text, grades) = standings_text(&standings, Some(plan));
    if let Some(grades) = grades
        && !plan.pass_marks.is_empty()
    {
        write_atomically(&out.join("grades.json"), &pretty_json(&grades)?)?;
    }
    write_atomically(&out.join("standings.json"), &pretty_json(&standings)?)?;
    write_atomically(&out.join("standings.csv"), &standings::to_csv(&standings))?;
    write_atomically(&out.join("standings.txt"), &text)?;
    Ok(text)
}

fn pretty_json(value: &impl serde::Serialize) -> Result<String, TournamentOutputError> {
    serde_json::to_string_pretty(value).map_err(TournamentOutputError::Encode)
}
