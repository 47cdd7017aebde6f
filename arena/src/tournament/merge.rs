//! `arena merge`: shard output directories combined into one, with the standings one
//! machine would give.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::error::MergeError;
use crate::tournament::output::{read_plan, read_results};
use crate::tournament::output_standings::write_standings;
use crate::tournament::{MatchRecord, Tournament};

/// What a merge did: the standings text of the whole, the matches now in the output
/// directory, and what is still missing from it (a `--partial` merge).
#[derive(Debug)]
pub struct Merged {
    pub standings_text: String,
    pub matches: usize,
    pub still_missing: Option<String>,
}

/// Combines shard outputs into one directory with
/// the standings one machine would give. An incomplete set (a shard of N missing, or matches
/// of the schedule missing) is refused, naming what is missing, unless `partial`: then it is
/// merged and the standings are said to be partial.
pub fn merge(dirs: &[PathBuf], out: &Path, partial: bool) -> Result<Merged, MergeError> {
    let mut tournament: Option<(Tournament, String)> = None;
    let mut all: BTreeMap<u64, MatchRecord> = BTreeMap::new();
    // Shard counts N → the shard numbers I given; `whole`: a directory of an unsharded run.
    let mut shards: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    let mut whole = false;
    for dir in dirs {
        let plan = read_plan(dir)?;
        if !plan.estimator_is_current() {
            return Err(MergeError::OtherEstimator {
                dir: dir.clone(),
                revision: plan.luck_estimator_revision,
            });
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
            Some((first, f)) if *f != fingerprint || first.seed != t.seed => {
                return Err(MergeError::OtherTournament {
                    dir: dir.clone(),
                    first: dirs[0].clone(),
                });
            }
            Some(_) => {}
        }
        for (index, record) in read_results(&dir.join("results.jsonl"))? {
            if let Some(existing) = all.get(&index)
                && existing != &record
            {
                return Err(MergeError::ConflictingResults {
                    index,
                    dir: dir.clone(),
                });
            }
            if let Some(replay) = &record.replay {
                let from = dir.join(replay);
                let to = out.join(replay);
                if from.exists() && from != to {
                    let dir = to.parent().expect("replays/ dir");
                    std::fs::create_dir_all(dir).map_err(|source| MergeError::CreateReplays {
                        dir: dir.to_path_buf(),
                        source,
                    })?;
                    if let Err(source) = std::fs::copy(&from, &to) {
                        return Err(MergeError::CopyReplay { from, source });
                    }
                }
            }
            all.insert(index, record);
        }
    }
    let Some((mut t, tournament_fingerprint)) = tournament else {
        return Err(MergeError::Nothing);
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
        return Err(MergeError::Incomplete {
            missing: what.clone(),
            out: out.to_path_buf(),
        });
    }
    let (mut merged, _) = crate::tournament::output::OutputDir::open(out, &mut t, None)?;
    let already: BTreeMap<u64, MatchRecord> = read_results(&out.join("results.jsonl"))?;
    for record in all.values() {
        if !already.contains_key(&record.index) {
            merged.append(record).map_err(|reason| MergeError::Append {
                path: out.join("results.jsonl"),
                reason,
            })?;
        }
    }
    let records: Vec<MatchRecord> = read_results(&out.join("results.jsonl"))?
        .into_values()
        .collect();
    let text = write_standings(out, &records, &t)?;
    // The directory may hold matches of an earlier merge: say what is missing from it now.
    let merged: BTreeMap<u64, MatchRecord> = records.iter().map(|r| (r.index, r.clone())).collect();
    let still = missing_parts(&t, &merged, &shards, whole).or(missing);
    Ok(Merged {
        standings_text: text,
        matches: records.len(),
        still_missing: still,
    })
}

/// What an incomplete merge lacks, in words: shards of N not given, and matches of the
/// schedule not among `records`; `None` when nothing is missing. An SPRT tournament (never
/// sharded, its length decided as it runs) has no schedule to check.
fn missing_parts(
    t: &Tournament,
    records: &BTreeMap<u64, MatchRecord>,
    shards: &BTreeMap<u64, BTreeSet<u64>>,
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
