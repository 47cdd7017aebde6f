//! `arena tournament`, `arena standings` and `arena merge`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use tokio_util::sync::CancellationToken;

use crate::exit::{Exit, ExitKind};
use crate::output::print;
use crate::standings;
use crate::tournament::output::{Plan, read_plan, read_results, write_atomically};
use crate::tournament::{MatchRecord, RunOptions, Tournament, grading};

/// The switches of `arena tournament` that change how it runs, not what it plays.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunFlags {
    /// No progress bar or progress lines.
    pub quiet: bool,
    /// Pin each job slot to one CPU.
    pub affinity: bool,
    /// Overrides the file's `[limits] max_log_kb`.
    pub max_log_kb: Option<u64>,
    /// The live view: where, at what pace, and whether it outlives the run.
    pub watch: crate::watch::WatchOptions,
}

/// `arena tournament FILE`.
pub async fn tournament(
    file: &Path,
    jobs: Option<usize>,
    out: Option<PathBuf>,
    shard: Option<(u64, u64)>,
    flags: RunFlags,
) -> anyhow::Result<()> {
    let RunFlags {
        quiet,
        affinity,
        max_log_kb,
        watch,
    } = flags;
    let mut t = Tournament::load(file).map_err(|e| Exit::new(ExitKind::BadInput, e.to_string()))?;
    if let Some(kb) = max_log_kb {
        t.max_log_kb = kb;
    }
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let out = out.unwrap_or_else(|| t.output.clone());
    if !quiet {
        crate::output::eprint_line(&crate::bot::SandboxReport::new(t.sandbox, &t.limits).line());
    }
    // Kept until the tournament is over: dropping it stops the live view.
    let (watching, hub) = crate::watch::serve_if_asked(watch).await?;
    let options = RunOptions {
        jobs,
        out: out.clone(),
        shard,
        progress: !quiet,
        affinity,
        watch: hub,
    };
    let cancel = CancellationToken::new();
    crate::signals::cancel_on_signal(cancel.clone());
    let plan = t.clone();
    let summary = crate::tournament::run(t, &options, &cancel)
        .await
        .map_err(|e| match e.downcast::<Exit>() {
            Ok(exit) => anyhow::Error::new(exit),
            Err(e) => e,
        })?;
    let text = write_standings(&out, &summary.records, &plan)?;
    // The standings text ends with the SPRT verdict of an SPRT tournament.
    let mut report = String::new();
    report.push_str(&text);
    report.push_str(&format!(
        "\n{} matches played now, {} from before; results in {}\n",
        summary.played,
        summary.already_done,
        out.display()
    ));
    // Like check-bot's verdict, an interruption keeps its exit code on a closed stdout.
    let printed = print(&report);
    // An interrupted run stops its view too: the Ctrl-C that stopped it was for everything.
    if !summary.interrupted {
        crate::watch::after_the_matches(watching, watch, &cancel).await;
    }
    if summary.interrupted {
        return Err(Exit::new(
            ExitKind::Interrupted,
            "interrupted: finished matches are saved; run the same command again to resume".into(),
        )
        .into());
    }
    printed?;
    Ok(())
}

/// The plan.json of an output directory, if it has one that this arena reads.
fn planned(dir: &Path) -> Option<Plan> {
    dir.join("plan.json")
        .exists()
        .then(|| read_plan(dir).ok())
        .flatten()
}

/// The standings of the output directory `dir` with its `records`: with the SPRT verdict
/// when its plan.json is an SPRT tournament's.
///
/// A luck-corrected SPRT that ran with another estimator revision than this arena's
/// ([`standings::controls::ESTIMATOR_REVISION`]) is not judged again with other arithmetic:
/// its verdict is the one its run saved in standings.json, said to be so. Without a saved
/// verdict, this arena's recomputation is shown with a caveat.
pub fn standings_of(dir: &Path, records: &[MatchRecord]) -> standings::Standings {
    let plan = planned(dir);
    let tournament = plan.as_ref().map(|p| &p.tournament);
    let Some(plan) = plan.as_ref().filter(|p| !p.estimator_is_current()) else {
        return standings::compute_for(records, tournament, Some(dir));
    };
    let ours = standings::controls::ESTIMATOR_REVISION;
    let theirs = plan.describe_revision();
    if let Some(mut saved) =
        saved_verdict(dir).filter(|v| v.estimator_revision == plan.luck_estimator_revision)
    {
        // The saved verdict stands in for the SPRT: its replays are not read again.
        let mut standings = standings::compute_for(records, None, Some(dir));
        saved.caveat = Some(format!(
            "this is the verdict the run saved. The test ran with the luck-corrected \
             estimator's {theirs}; this arena's is revision {ours}, and a sequential test is \
             judged by the estimator it ran with, so it is not recomputed"
        ));
        standings.sprt = Some(saved);
        return standings;
    }
    let mut standings = standings::compute_for(records, tournament, Some(dir));
    if let Some(verdict) = &mut standings.sprt {
        verdict.caveat = Some(format!(
            "recomputed with this arena's luck-corrected estimator, revision {ours}. The test \
             ran with {theirs}, and standings.json holds no verdict saved with it, so this may \
             differ from the verdict the test stopped on"
        ));
    }
    standings
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
    (t.format == crate::tournament::Format::Gauntlet).then(|| {
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
) -> anyhow::Result<String> {
    let standings = standings::compute_for(records, Some(plan), Some(out));
    let (text, grades) = standings_text(&standings, Some(plan));
    if let Some(grades) = grades
        && !plan.pass_marks.is_empty()
    {
        write_atomically(
            &out.join("grades.json"),
            &serde_json::to_string_pretty(&grades)?,
        )?;
    }
    write_atomically(
        &out.join("standings.json"),
        &serde_json::to_string_pretty(&standings)?,
    )?;
    write_atomically(&out.join("standings.csv"), &standings::to_csv(&standings))?;
    write_atomically(&out.join("standings.txt"), &text)?;
    Ok(text)
}

/// `arena standings DIR`: prints the standings of an output directory again.
pub fn show_standings(dir: &Path) -> anyhow::Result<()> {
    let records: Vec<MatchRecord> = read_results(&dir.join("results.jsonl"))?
        .into_values()
        .collect();
    if records.is_empty() {
        bail!("{} has no finished matches", dir.display());
    }
    let standings = standings_of(dir, &records);
    let plan = planned(dir).map(|p| p.tournament);
    print(&standings_text(&standings, plan.as_ref()).0)?;
    Ok(())
}

/// `arena merge DIR... --out DIR [--partial]`: combines shard outputs into one directory with
/// the standings one machine would give. An incomplete set (a shard of N missing, or matches
/// of the schedule missing) is refused, naming what is missing, unless `partial`: then it is
/// merged and the standings are said to be partial.
pub fn merge(dirs: &[PathBuf], out: &Path, partial: bool) -> anyhow::Result<()> {
    let mut tournament: Option<(Tournament, String)> = None;
    let mut all: BTreeMap<u64, MatchRecord> = BTreeMap::new();
    // Shard counts N → the shard numbers I given; `whole`: a directory of an unsharded run.
    let mut shards: BTreeMap<u64, std::collections::BTreeSet<u64>> = BTreeMap::new();
    let mut whole = false;
    for dir in dirs {
        let plan = read_plan(dir)?;
        if !plan.estimator_is_current() {
            bail!(
                "{} holds a luck-corrected SPRT run with the estimator's {}; this arena's is \
                 revision {}, and merging would judge the test again with other arithmetic. \
                 Merge it with the arena that ran it",
                dir.display(),
                plan.describe_revision(),
                standings::controls::ESTIMATOR_REVISION
            );
        }
        let (t, fingerprint, shard) = (plan.tournament, plan.fingerprint, plan.shard);
        match shard {
            Some((i, n)) => {
                shards.entry(n).or_default().insert(i);
            }
            None => whole = true,
        }
        match &tournament {
            None => tournament = Some((t, fingerprint)),
            // A drawn seed is not in the fingerprint: compare the seeds too.
            Some((first, f)) if *f != fingerprint || first.seed != t.seed => bail!(
                "{} holds a different tournament than {}; refusing to merge",
                dir.display(),
                dirs[0].display()
            ),
            Some(_) => {}
        }
        for (index, record) in read_results(&dir.join("results.jsonl"))? {
            if let Some(existing) = all.get(&index)
                && existing != &record
            {
                bail!(
                    "match {index} has different results in two directories (one is {})",
                    dir.display()
                );
            }
            if let Some(replay) = &record.replay {
                let from = dir.join(replay);
                let to = out.join(replay);
                if from.exists() && from != to {
                    let dir = to.parent().expect("replays/ dir");
                    std::fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create folder {}", dir.display()))?;
                    std::fs::copy(&from, &to)
                        .with_context(|| format!("cannot copy {}", from.display()))?;
                }
            }
            all.insert(index, record);
        }
    }
    let Some((mut t, tournament_fingerprint)) = tournament else {
        bail!("nothing to merge");
    };
    // Matches an earlier merge put into `out` count too (shards can be merged in turns).
    let mut known = all.clone();
    if out.join("plan.json").exists()
        && let Ok(earlier) = read_plan(out)
        && tournament_fingerprint == earlier.fingerprint
        && earlier.tournament.seed == t.seed
    {
        for (index, record) in read_results(&out.join("results.jsonl"))? {
            known.entry(index).or_insert(record);
        }
    }
    let missing = missing_parts(&t, &known, &shards, whole);
    if let Some(what) = &missing
        && !partial
    {
        return Err(Exit::new(
            ExitKind::Failure,
            format!(
                "incomplete set of shards: {what}. Add the missing shards' directories (run \
                 them first if need be), or pass --partial to merge what is there into partial \
                 standings; nothing was written to {}",
                out.display()
            ),
        )
        .into());
    }
    let (mut merged, _) = crate::tournament::output::OutputDir::open(out, &mut t, None)?;
    let already: BTreeMap<u64, MatchRecord> = read_results(&out.join("results.jsonl"))?;
    for record in all.values() {
        if !already.contains_key(&record.index) {
            merged.append(record)?;
        }
    }
    let records: Vec<MatchRecord> = read_results(&out.join("results.jsonl"))?
        .into_values()
        .collect();
    let text = write_standings(out, &records, &t)?;
    // The directory may hold matches of an earlier merge: say what is missing from it now.
    let merged: BTreeMap<u64, MatchRecord> = records.iter().map(|r| (r.index, r.clone())).collect();
    let still = missing_parts(&t, &merged, &shards, whole).or(missing);
    print(&format!(
        "{text}\nmerged {} matches into {}{}\n",
        records.len(),
        out.display(),
        match still {
            Some(what) => format!(
                "\nPARTIAL standings (--partial): {what}; merge again with the missing shards"
            ),
            None => String::new(),
        }
    ))?;
    Ok(())
}

/// What an incomplete merge lacks, in words: shards of N not given, and matches of the
/// schedule not among `records`; `None` when nothing is missing. An SPRT tournament (never
/// sharded, its length decided as it runs) has no schedule to check.
fn missing_parts(
    t: &Tournament,
    records: &BTreeMap<u64, MatchRecord>,
    shards: &BTreeMap<u64, std::collections::BTreeSet<u64>>,
    whole: bool,
) -> Option<String> {
    let schedule = match t.format {
        crate::tournament::Format::Sprt => Vec::new(),
        _ => crate::tournament::schedule::schedule(t),
    };
    // A shard not given is missing if any of its matches is (none may be: merged earlier).
    let lacks = |i: u64, n: u64| {
        t.format == crate::tournament::Format::Sprt
            || schedule
                .iter()
                .any(|m| m.index % n == i - 1 && !records.contains_key(&m.index))
    };
    let mut parts = Vec::new();
    if !whole {
        for (&n, given) in shards {
            let absent: Vec<String> = (1..=n)
                .filter(|&i| !given.contains(&i) && lacks(i, n))
                .map(|i| format!("{i}/{n}"))
                .collect();
            if !absent.is_empty() {
                parts.push(format!(
                    "{} of {n} shards given, shard{} {} missing",
                    given.len(),
                    if absent.len() == 1 { "" } else { "s" },
                    absent.join(", ")
                ));
            }
        }
    }
    if t.format != crate::tournament::Format::Sprt {
        let absent: Vec<u64> = schedule
            .iter()
            .map(|m| m.index)
            .filter(|i| !records.contains_key(i))
            .collect();
        if !absent.is_empty() {
            let shown: Vec<String> = absent.iter().take(10).map(u64::to_string).collect();
            parts.push(format!(
                "{} of the {} scheduled matches missing (match{} {}{})",
                absent.len(),
                schedule.len(),
                if absent.len() == 1 { "" } else { "es" },
                shown.join(", "),
                if absent.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            ));
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Parses `I/N` (1 <= I <= N).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected I/N like 2/8, got {}", crate::quote::quoted(text)))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index in {}", crate::quote::quoted(text)))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count in {}", crate::quote::quoted(text)))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!(
            "shard {}: need 1 <= I <= N",
            crate::quote::quoted(text)
        ));
    }
    Ok((i, n))
}
