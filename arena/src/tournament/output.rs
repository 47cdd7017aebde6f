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

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::MatchRecord;
use super::config::Tournament;
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
        match self.luck_estimator_revision {
            Some(r) => format!("revision {r}"),
            None => "an unnumbered revision (from before revisions were recorded)".into(),
        }
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
    ) -> anyhow::Result<(OutputDir, BTreeMap<u64, MatchRecord>)> {
        std::fs::create_dir_all(root.join("replays"))
            .and_then(|_| std::fs::create_dir_all(root.join("logs")))
            .with_context(|| format!("cannot create the output directory {}", root.display()))?;
        let plan_path = root.join("plan.json");
        let fingerprint = t.fingerprint();
        if plan_path.exists() {
            let plan: Plan = serde_json::from_str(
                &std::fs::read_to_string(&plan_path)
                    .with_context(|| format!("cannot read {}", plan_path.display()))?,
            )
            .with_context(|| format!("{} is not a plan of this arena", plan_path.display()))?;
            if plan.fingerprint != fingerprint {
                return Err(crate::exit::Exit::new(
                    crate::exit::ExitKind::BadInput,
                    format!(
                        "{} was started by a different tournament file (or a changed one); \
                         refusing to mix results. Use another --out, or delete the directory to start over",
                        root.display()
                    ),
                )
                .into());
            }
            if plan.shard != shard {
                bail!(
                    "{} was started with {}, this run asks for {}",
                    root.display(),
                    describe_shard(plan.shard),
                    describe_shard(shard)
                );
            }
            if !plan.estimator_is_current() {
                return Err(crate::exit::Exit::new(
                    crate::exit::ExitKind::BadInput,
                    format!(
                        "{}: this luck-corrected SPRT was started by an arena whose estimator \
                         is {}; this arena's is revision {ESTIMATOR_REVISION}. A sequential \
                         test is judged by one estimator from its first block to its last, so \
                         this arena does not go on with it: finish it with the arena that \
                         started it, or start over with another --out. `arena standings` \
                         shows the verdict its run saved",
                        root.display(),
                        plan.describe_revision()
                    ),
                )
                .into());
            }
            t.settle_seed(Some(&plan.tournament))
                .with_context(|| format!("{}", plan_path.display()))?;
            // The fingerprint leaves a drawn seed out: directories of two draws must not mix.
            if t.seed != plan.tournament.seed {
                bail!(
                    "{} was started with another seed; refusing to mix results",
                    root.display()
                );
            }
        } else {
            t.settle_seed(None)?;
            let plan = Plan {
                fingerprint,
                shard,
                luck_estimator_revision: t.is_luck_corrected_sprt().then_some(ESTIMATOR_REVISION),
                tournament: t.clone(),
            };
            write_atomically(&plan_path, &serde_json::to_string_pretty(&plan)?)?;
        }
        let results_path = root.join("results.jsonl");
        let done = read_results(&results_path)?;
        // Rewrite the file without a torn last line (a run killed mid-write), then append.
        let mut text = String::new();
        for record in done.values() {
            text.push_str(&serde_json::to_string(record)?);
            text.push('\n');
        }
        write_atomically(&results_path, &text)?;
        let results = OpenOptions::new()
            .append(true)
            .open(&results_path)
            .with_context(|| format!("cannot open {}", results_path.display()))?;
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
    ) -> anyhow::Result<()> {
        let path = self.root.join("results.jsonl");
        let mut text = String::new();
        for record in records {
            text.push_str(&serde_json::to_string(record)?);
            text.push('\n');
        }
        write_atomically(&path, &text)?;
        self.results = OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
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

/// The finished matches in a results file, by index. A torn last line is ignored; any other
/// bad line is an error naming it.
pub fn read_results(path: &Path) -> anyhow::Result<BTreeMap<u64, MatchRecord>> {
    let mut done = BTreeMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(done),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
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
            Err(e) => bail!("{}:{}: not a match result: {e}", path.display(), i + 1),
        }
    }
    Ok(done)
}

/// An output directory's plan.json.
pub fn read_plan(root: &Path) -> anyhow::Result<Plan> {
    let path = root.join("plan.json");
    serde_json::from_str(
        &std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?,
    )
    .with_context(|| format!("{} is not a plan of this arena", path.display()))
}

/// Writes a file so that readers see either the old or the new content, never a part.
pub fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    tmp.write_all(text.as_bytes())?;
    tmp.flush()?;
    tmp.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

/// A shard as `--shard` spells it (`shard 2/8`), or `no --shard`.
fn describe_shard(shard: Option<(u64, u64)>) -> String {
    match shard {
        Some((index, count)) => format!("shard {index}/{count}"),
        None => "no --shard".into(),
    }
}
