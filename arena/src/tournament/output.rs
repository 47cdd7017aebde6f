//! The output directory of a tournament:
//!
//! ```text
//! plan.json        the checked tournament and its fingerprint (resuming refuses a change)
//! results.jsonl    one line per finished match, appended and flushed at once
//! replays/         match-<index>.jsonl, one replay per match
//! logs/            each bot's capped stderr, per match
//! standings.json   written with tempfile + rename (never half-written)
//! standings.csv, standings.txt
//! ```
//!
//! The standings of an SPRT tournament carry its verdict, recomputed from results.jsonl and
//! the `[sprt]` settings recorded in plan.json (see `crate::tournament::sprt_blocks::verdict`). A
//! luck-corrected SPRT's plan also records the revision of the estimator's arithmetic it runs
//! with ([`crate::standings::estimator::ESTIMATOR_REVISION`]): an arena of another revision
//! refuses to resume it.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MatchRecord;
use super::config::Tournament;
use super::error::TournamentOutputError;
use crate::standings::estimator::ESTIMATOR_REVISION;

/// plan.json: what an output directory holds.
#[derive(Serialize, Deserialize)]
pub struct Plan {
    pub fingerprint: String,
    /// `--shard I/N` of the run that wrote this directory, if any.
    #[serde(default)]
    pub shard: Option<(u64, u64)>,
    /// For a luck-corrected SPRT, the estimator revision it runs with; `None` for other
    /// tournaments, and for a luck-corrected SPRT started before revisions were recorded.
    /// Kept out of the fingerprint: it is a property of the arena, not of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck_estimator_revision: Option<u32>,
    pub tournament: Tournament,
}

impl Plan {
    /// Whether an arena of this build may go on with, or recompute, this plan's test: always,
    /// unless the plan is a luck-corrected SPRT of another estimator revision.
    pub fn estimator_is_current(&self) -> bool {
        !self.tournament.is_luck_corrected_sprt()
            || self.luck_estimator_revision == Some(ESTIMATOR_REVISION)
    }

    /// The plan's estimator revision in words, for messages: `revision 3`, or the unnumbered
    /// ones before revisions were recorded.
    pub fn describe_revision(&self) -> String {
        describe_revision(self.luck_estimator_revision)
    }
}

/// An estimator revision in words (see [`Plan::describe_revision`]).
pub(super) fn describe_revision(revision: Option<u32>) -> String {
    match revision {
        Some(r) => format!("revision {r}"),
        None => "an unnumbered revision (from before revisions were recorded)".into(),
    }
}

/// An opened output directory.
pub struct OutputDir {
    pub root: PathBuf,
    results: File,
}

impl OutputDir {
    /// Opens (or starts) the output directory of `t`. An existing directory must belong to the
    /// same tournament; its finished matches are returned so that only the rest is played.
    /// A seed the file does not give is settled here: the recorded one when resuming, else
    /// one drawn from the operating system, then recorded in the new plan.json.
    pub fn open(
        root: &Path,
        t: &mut Tournament,
        shard: Option<(u64, u64)>,
    ) -> Result<(OutputDir, BTreeMap<u64, MatchRecord>), TournamentOutputError> {
        std::fs::create_dir_all(root.join("replays"))
            .and_then(|_| std::fs::create_dir_all(root.join("logs")))
            .map_err(|source| TournamentOutputError::CreateDir {
                root: root.to_path_buf(),
                source,
            })?;
        let plan_path = root.join("plan.json");
        let fingerprint = t.fingerprint();
        if plan_path.exists() {
            let plan = read_plan(root)?;
            if plan.fingerprint != fingerprint {
                return Err(TournamentOutputError::OtherTournament {
                    root: root.to_path_buf(),
                });
            }
            if plan.shard != shard {
                return Err(TournamentOutputError::OtherShard {
                    root: root.to_path_buf(),
                    started: plan.shard,
                    asked: shard,
                });
            }
            if !plan.estimator_is_current() {
                return Err(TournamentOutputError::OtherEstimator {
                    root: root.to_path_buf(),
                    revision: plan.luck_estimator_revision,
                });
            }
            t.settle_seed(Some(&plan.tournament)).map_err(|source| {
                TournamentOutputError::PlanSeed {
                    path: plan_path,
                    source,
                }
            })?;
            // The fingerprint leaves a drawn seed out: directories of two draws must not mix.
            if t.seed != plan.tournament.seed {
                return Err(TournamentOutputError::OtherSeed {
                    root: root.to_path_buf(),
                });
            }
        } else {
            t.settle_seed(None)?;
            let plan = Plan {
                fingerprint,
                shard,
                luck_estimator_revision: t.is_luck_corrected_sprt().then_some(ESTIMATOR_REVISION),
                tournament: t.clone(),
            };
            let text =
                serde_json::to_string_pretty(&plan).map_err(TournamentOutputError::Encode)?;
            write_atomically(&plan_path, &text)?;
        }
        let results_path = root.join("results.jsonl");
        let done = read_results(&results_path)?;
        // Rewrite the file without a torn last line (a run killed mid-write), then append.
        write_atomically(&results_path, &results_text(done.values())?)?;
        let results = open_to_append(&results_path)?;
        Ok((
            OutputDir {
                root: root.to_path_buf(),
                results,
            },
            done,
        ))
    }

    /// Appends one finished match and flushes it to the file at once.
    pub fn append(&mut self, record: &MatchRecord) -> io::Result<()> {
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        self.results.write_all(line.as_bytes())?;
        self.results.flush()
    }

    /// Replaces the results file with exactly `records` (atomically), and appends after them.
    pub fn rewrite_results<'a>(
        &mut self,
        records: impl Iterator<Item = &'a MatchRecord>,
    ) -> Result<(), TournamentOutputError> {
        let path = self.root.join("results.jsonl");
        write_atomically(&path, &results_text(records)?)?;
        self.results = open_to_append(&path)?;
        Ok(())
    }

    pub fn replay_path(&self, index: u64) -> PathBuf {
        self.root
            .join("replays")
            .join(format!("match-{index:06}.jsonl"))
    }

    pub fn work_dir(&self, index: u64) -> PathBuf {
        self.root.join("work").join(format!("match-{index:06}"))
    }

    pub fn log_dir(&self, index: u64) -> PathBuf {
        self.root.join("logs").join(format!("match-{index:06}"))
    }
}

/// The lines of a results file holding `records`.
fn results_text<'a>(
    records: impl Iterator<Item = &'a MatchRecord>,
) -> Result<String, TournamentOutputError> {
    let mut text = String::new();
    for record in records {
        text.push_str(&serde_json::to_string(record).map_err(TournamentOutputError::Encode)?);
        text.push('\n');
    }
    Ok(text)
}

fn open_to_append(path: &Path) -> Result<File, TournamentOutputError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|source| TournamentOutputError::OpenResults {
            path: path.to_path_buf(),
            source,
        })
}

/// The finished matches in a results file, by index. A torn last line is ignored; any other
/// bad line is an error naming it.
pub fn read_results(path: &Path) -> Result<BTreeMap<u64, MatchRecord>, TournamentOutputError> {
    let mut done = BTreeMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(done),
        Err(source) => {
            return Err(TournamentOutputError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<MatchRecord>(line) {
            Ok(record) => {
                done.insert(record.index, record);
            }
            // The last line without its newline: the run was killed while writing it.
            Err(_) if i + 1 == lines.len() => {}
            Err(reason) => {
                return Err(TournamentOutputError::BadResult {
                    path: path.to_path_buf(),
                    line: i + 1,
                    reason,
                });
            }
        }
    }
    Ok(done)
}

/// An output directory's plan.json.
pub fn read_plan(root: &Path) -> Result<Plan, TournamentOutputError> {
    let path = root.join("plan.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(source) => return Err(TournamentOutputError::Read { path, source }),
    };
    serde_json::from_str(&text).map_err(|source| TournamentOutputError::NotAPlan { path, source })
}

/// Writes a file so that readers see either the old or the new content, never a part.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), TournamentOutputError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|source| {
        TournamentOutputError::CreateTemporary {
            dir: dir.to_path_buf(),
            source,
        }
    })?;
    tmp.write_all(text.as_bytes())
        .and_then(|()| tmp.flush())
        .map_err(|reason| TournamentOutputError::WriteTemporary {
            path: path.to_path_buf(),
            reason,
        })?;
    tmp.persist(path)
        .map_err(|source| TournamentOutputError::Replace {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(())
}

/// A shard as `--shard` spells it (`shard 2/8`), or `no --shard`.
pub(super) fn describe_shard(shard: Option<(u64, u64)>) -> String {
    match shard {
        Some((index, count)) => format!("shard {index}/{count}"),
        None => "no --shard".into(),
    }
}
