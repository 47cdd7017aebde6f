//! The organizer's final round robin: every bot's ready version against every other, played
//! by the arena's own tournament engine (`arena::tournament::run`, what `arena tournament`
//! runs), then published with the arena's report (`arena::html::write_report`, what `arena
//! report` writes).
//!
//! When an admin starts it (uploads frozen, no build pending, at least `seats` bots), the
//! server writes a real tournament file, `DATA_DIR/final/final.toml`: the contest's `game`,
//! `seats`, `sandbox`, `[table]`, `[time]` and `[limits]` copied as they are (the contest
//! reads them with the tournament's own code), `[final]`'s hands and duplicate setting, and
//! one `[[bot]]` per entrant, started with its language's run command in its build directory
//! (`ladder::build::run_command`), in a fresh private directory per match, as in the ladder,
//! with its owner as `author` (no table of the final seats two bots of one owner).
//! The file names no seed: the engine draws one and records it in the output's plan.json.
//! The organizer can run or resume the same file by hand with `arena tournament`.
//!
//! On disk, under `DATA_DIR/final/`:
//!
//! ```text
//! final.toml     the tournament file
//! tournament/    the engine's output directory (plan.json, results.jsonl, replays/, logs/,
//!                standings.*): private, the bots' stderr logs are there
//! report/        the published report: index.html and index_replays/ (replays without any
//!                bot's stderr), swapped in whole once written
//! ```
//!
//! Resuming: the engine appends each finished match to `results.jsonl` at once and plays only
//! the missing ones when started again on the same directory with the same file. A server
//! stopped or killed mid-final leaves the contest row `running`; the next start of the server
//! resumes it from `final.toml` as recorded (entrants added since do not join). Starting a
//! failed final again resumes it too when nothing changed (same entrants and settings: the
//! same file), and starts afresh otherwise.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use arena::tournament::{RunOptions, Tournament};
use tokio_util::sync::CancellationToken;

use super::build::run_command;
use super::log_paths::LogPaths;
use crate::config::Contest;
use crate::storage::{Db, FinalState, StorageError, now_ms};

/// Why the final cannot start now.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("freeze uploads first: the final plays the bots as they are at the freeze")]
    NotFrozen,
    #[error("the final is already running")]
    Running,
    #[error("the final has been played; its report is at /final/")]
    Done,
    #[error(
        "{0} uploaded version(s) are still being built; start the final once they are ready or failed"
    )]
    BuildsPending(i64),
    #[error(
        "a {seats}-seat round robin needs at least {seats} bots with a ready version; there are {ready}"
    )]
    TooFewBots { seats: usize, ready: usize },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// How far a final is: matches finished of the schedule's total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub played: u64,
    pub total: u64,
}

/// What one run of the final did (tests, logs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to the end and published: matches played now and found from before.
    Done { played: u64, already_done: u64 },
    /// Stopped by the server's shutdown: finished matches are kept; the next start resumes.
    Interrupted,
    /// Failed (recorded with its reason).
    Failed,
}

/// The final's files.
#[derive(Clone, Debug)]
pub struct FinalPaths {
    pub root: PathBuf,
    pub file: PathBuf,
    pub tournament: PathBuf,
    pub report: PathBuf,
}

impl FinalPaths {
    /// Absolute, so that the tournament file's commands and output do not depend on the
    /// directory the server runs from.
    pub fn new(data_dir: &Path) -> std::io::Result<FinalPaths> {
        let root = std::path::absolute(data_dir)?.join("final");
        Ok(FinalPaths {
            file: root.join("final.toml"),
            tournament: root.join("tournament"),
            report: root.join("report"),
            root,
        })
    }

    /// How far the tournament in `tournament/` is; `None` before its plan exists.
    pub fn progress(&self) -> Option<Progress> {
        let t = arena::tournament::read_plan(&self.tournament)
            .ok()?
            .tournament;
        // A plan always records its settled seed; never trust a file enough to panic.
        t.seed?;
        let total = arena::tournament::schedule(&t).len() as u64;
        let played = arena::tournament::read_results(&self.tournament.join("results.jsonl"))
            .ok()?
            .len() as u64;
        Some(Progress { played, total })
    }
}

/// The server's final: started by an admin, run in a background task of the server.
#[derive(Debug)]
pub struct FinalRound {
    db: Db,
    contest: Arc<Contest>,
    /// Cancelled when the server shuts down: the engine stops its matches (their bots are
    /// killed), keeps the finished ones, and the next start resumes.
    cancel: CancellationToken,
    task: Mutex<Option<tokio::task::JoinHandle<Outcome>>>,
}

impl FinalRound {
    pub fn new(db: Db, contest: Arc<Contest>) -> FinalRound {
        FinalRound {
            db,
            contest,
            cancel: CancellationToken::new(),
            task: Mutex::new(None),
        }
    }

    pub fn paths(&self) -> std::io::Result<FinalPaths> {
        FinalPaths::new(&self.contest.data_dir)
    }

    /// Starts the final in the background (an admin asked). Checked first, then claimed
    /// atomically: of two admins clicking at once, one starts it.
    pub async fn start(self: &Arc<Self>) -> Result<(), StartError> {
        match self.db.final_state().await? {
            FinalState::Running => return Err(StartError::Running),
            FinalState::Done => return Err(StartError::Done),
            FinalState::None | FinalState::Failed => {}
        }
        if self.db.frozen_at().await?.is_none() {
            return Err(StartError::NotFrozen);
        }
        let pending = self.db.pending_builds().await?;
        if pending > 0 {
            return Err(StartError::BuildsPending(pending));
        }
        let ready = self.db.final_entrants().await?.len();
        if ready < self.contest.seats {
            return Err(StartError::TooFewBots {
                seats: self.contest.seats,
                ready,
            });
        }
        if !self.db.claim_final(now_ms()).await? {
            // Someone else moved it meanwhile (or unfroze): say what it is now.
            return Err(match self.db.final_state().await? {
                FinalState::Done => StartError::Done,
                FinalState::Running => StartError::Running,
                _ => StartError::NotFrozen,
            });
        }
        self.spawn(true);
        Ok(())
    }

    /// At the server's start: resumes a final that a stopped or killed server left running.
    pub async fn resume_if_running(self: &Arc<Self>) -> Result<bool, StorageError> {
        if self.db.final_state().await? != FinalState::Running {
            return Ok(false);
        }
        tracing::info!("resuming the final round robin");
        self.spawn(false);
        Ok(true)
    }

    fn spawn(self: &Arc<Self>, fresh: bool) {
        let me = self.clone();
        let handle = tokio::spawn(async move {
            let inner = me.clone();
            // A panic in the run is a failure to record, not a final stuck at `running`.
            match tokio::spawn(async move { inner.run(fresh).await }).await {
                Ok(outcome) => outcome,
                Err(e) => {
                    let why = format!("the final's task stopped: {e}");
                    tracing::error!("{why}");
                    if let Err(e) = me.db.finish_final(now_ms(), Some(&why)).await {
                        tracing::error!("cannot record the final's failure: {e}");
                    }
                    Outcome::Failed
                }
            }
        });
        if let Ok(mut task) = self.task.lock() {
            *task = Some(handle);
        }
    }

    /// Waits for the background run (tests); `None` if none was started.
    pub async fn wait(&self) -> Option<Outcome> {
        let handle = self.task.lock().ok()?.take()?;
        handle.await.ok()
    }

    /// Stops a running final for the server's shutdown and waits for its bots to be gone.
    pub async fn shutdown(&self) {
        self.cancel.cancel();
        let _ = self.wait().await;
    }

    /// Runs (or resumes) the final to its end and records how it ended. `fresh`: an admin
    /// started it now (the tournament file is written from the current entrants); else a
    /// resume at start-up (the recorded file is played).
    pub async fn run(&self, fresh: bool) -> Outcome {
        match self.play(fresh).await {
            Ok(Some((played, already_done))) => {
                tracing::info!(
                    "the final round robin is over: {played} matches played now, {already_done} from before"
                );
                match self.db.finish_final(now_ms(), None).await {
                    Ok(_) => Outcome::Done {
                        played,
                        already_done,
                    },
                    Err(e) => {
                        tracing::error!("cannot record the end of the final: {e}");
                        Outcome::Failed
                    }
                }
            }
            Ok(None) => {
                tracing::info!("the final round robin was interrupted; the next start resumes it");
                Outcome::Interrupted
            }
            Err(e) => {
                let why = format!("{e:#}");
                tracing::error!("the final round robin failed: {why}");
                if let Err(e) = self.db.finish_final(now_ms(), Some(&why)).await {
                    tracing::error!("cannot record the final's failure: {e}");
                }
                Outcome::Failed
            }
        }
    }

    /// Plays the tournament and publishes its report; `None` when interrupted.
    async fn play(&self, fresh: bool) -> anyhow::Result<Option<(u64, u64)>> {
        let paths = self.paths().context("cannot resolve the data directory")?;
        std::fs::create_dir_all(&paths.root)
            .with_context(|| format!("cannot create {}", paths.root.display()))?;
        if fresh || !paths.file.exists() {
            self.write_tournament_file(&paths).await?;
        }
        let tournament = Tournament::load(&paths.file)?;
        let plan = tournament.clone();
        let options = RunOptions {
            jobs: self.contest.final_round.jobs as usize,
            out: paths.tournament.clone(),
            shard: None,
            progress: false,
            affinity: false,
            watch: None,
        };
        let summary = arena::tournament::run(tournament, &options, &self.cancel).await?;
        if summary.interrupted {
            return Ok(None);
        }
        let records = summary.records;
        let done = (summary.played, summary.already_done);
        tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
            arena::tournament::write_standings(&paths.tournament, &records, &plan)?;
            publish(&paths)
        })
        .await
        .context("the report's task stopped")??;
        Ok(Some(done))
    }

    /// Writes `final.toml` for the current entrants. An identical file from an earlier
    /// attempt is kept with its output (the engine resumes it); a different one (other
    /// entrants or settings) replaces it, and the old output is removed.
    async fn write_tournament_file(&self, paths: &FinalPaths) -> anyhow::Result<()> {
        let data_dir = std::path::absolute(&self.contest.data_dir)?;
        let mut bots = Vec::new();
        for entrant in self.db.final_entrants().await? {
            let version = self
                .db
                .version_by_id(entrant.version_id)
                .await?
                .with_context(|| format!("version {} vanished", entrant.version_id))?;
            let argv =
                run_command(&data_dir, &version).with_context(|| format!("bot {}", entrant.bot))?;
            bots.push(FinalBot {
                name: entrant.bot,
                owner: entrant.owner,
                argv,
            });
        }
        let text = tournament_file(&self.contest, &bots, &paths.tournament)?;
        if std::fs::read_to_string(&paths.file).ok().as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        for dir in [&paths.tournament, &paths.report] {
            if dir.exists() {
                std::fs::remove_dir_all(dir)
                    .with_context(|| format!("cannot remove {}", dir.display()))?;
            }
        }
        arena::tournament::write_atomically(&paths.file, &text)?;
        Ok(())
    }
}

/// One bot of the final, as its tournament file names it.
#[derive(Clone, Debug)]
pub struct FinalBot {
    pub name: String,
    /// Its owner's account: the bot's `author`, so that no table of the final seats two
    /// bots of one owner (who could play them as a team).
    pub owner: String,
    pub argv: Vec<String>,
}

/// The text of the final's tournament file: the contest's game and table sections as
/// written, the `[final]` policy, one bot per entrant.
pub fn tournament_file(
    contest: &Contest,
    bots: &[FinalBot],
    output: &Path,
) -> anyhow::Result<String> {
    let source: toml::Table = toml::from_str(&contest.text).context("the contest file")?;
    let mut file = toml::Table::new();
    file.insert("name".into(), format!("{} final", contest.name).into());
    file.insert("format".into(), "round-robin".into());
    for key in ["game", "seats", "sandbox", "table", "time", "limits"] {
        if let Some(value) = source.get(key) {
            file.insert(key.into(), value.clone());
        }
    }
    let f = &contest.final_round;
    file.insert(
        "hands".into(),
        i64::try_from(f.hands_per_match).unwrap_or(i64::MAX).into(),
    );
    file.insert("duplicate".into(), f.duplicate.into());
    file.insert("rounds".into(), 1.into());
    // Each decision's stderr in the private replays, for the owners' own view
    // (`/final-logs`), within the ladder's budget; the published copy carries none.
    let stderr_kb = contest.ladder.replay_stderr_bytes >> 10;
    file.insert("replay_stderr".into(), (stderr_kb > 0).into());
    if stderr_kb > 0 {
        file.insert(
            "replay_stderr_kb".into(),
            i64::try_from(stderr_kb).unwrap_or(i64::MAX).into(),
        );
    }
    file.insert(
        "output".into(),
        output.to_string_lossy().into_owned().into(),
    );
    let bots: Vec<toml::Value> = bots
        .iter()
        .map(|entry| {
            let mut bot = toml::Table::new();
            bot.insert("name".into(), entry.name.clone().into());
            bot.insert(
                "command".into(),
                toml::Value::Array(entry.argv.iter().map(|a| a.clone().into()).collect()),
            );
            bot.insert("author".into(), entry.owner.clone().into());
            toml::Value::Table(bot)
        })
        .collect();
    file.insert("bot".into(), toml::Value::Array(bots));
    Ok(format!(
        "# The final round robin of {:?}, written by arena-server when an organizer started it.\n\
         # By hand: arena tournament THIS_FILE (resumes into `output`), arena report OUTPUT -o ...\n{}",
        contest.name,
        toml::to_string(&file).context("cannot write the tournament file")?
    ))
}

/// Publishes the finished tournament: a copy of its output whose replays carry no bot's
/// stderr (each participant's own words; the private logs keep them), the arena's report of
/// that copy, then the report swapped into `report/` whole (a reader never sees half).
pub fn publish(paths: &FinalPaths) -> anyhow::Result<()> {
    use arena::tournament::read_results;
    let public = paths.root.join("public.tmp");
    let report_new = paths.root.join("report.tmp");
    for dir in [&public, &report_new] {
        if dir.exists() {
            std::fs::remove_dir_all(dir)
                .with_context(|| format!("cannot remove {}", dir.display()))?;
        }
    }
    std::fs::create_dir_all(public.join("replays"))
        .with_context(|| format!("cannot create {}", public.display()))?;
    // The bots' commands name their uploads' files, not the server's build directories.
    let server_paths = LogPaths::of_data_dir(paths.root.parent().unwrap_or(&paths.root));
    for name in ["plan.json", "results.jsonl"] {
        std::fs::copy(paths.tournament.join(name), public.join(name))
            .with_context(|| format!("cannot copy {name}"))?;
    }
    for record in read_results(&paths.tournament.join("results.jsonl"))?.values() {
        let Some(replay) = &record.replay else {
            continue;
        };
        let from = paths.tournament.join(replay);
        if !from.is_file() {
            continue;
        }
        let mut records = arena::replay::read(&from)?;
        crate::web::replay::without_stderr(&mut records);
        let mut text = String::new();
        for r in &records {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        let to = public.join(replay);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&to, server_paths.apply(&text))
            .with_context(|| format!("cannot write {}", to.display()))?;
    }
    let summary = arena::html::write_report(
        &public,
        &report_new.join("index.html"),
        arena::html::ReplaySelection::All,
    )?;
    for warning in &summary.warnings {
        tracing::warn!("final report: {warning}");
    }
    if paths.report.exists() {
        std::fs::remove_dir_all(&paths.report)
            .with_context(|| format!("cannot remove {}", paths.report.display()))?;
    }
    std::fs::rename(&report_new, &paths.report)
        .with_context(|| format!("cannot move the report to {}", paths.report.display()))?;
    std::fs::remove_dir_all(&public).ok();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tournament_file_plays_by_the_contest() {
        let text = "name = \"Spring \\\"cup\\\"\"\ngame = \"classic\"\nseats = 3\nsandbox = \"limits\"\n\
                    [table]\nboot = 2\nmax_turns = 40\n[time]\ndecision_ms = 250\n\
                    [limits]\nmemory_mb = 300\n[final]\nhands_per_match = 33\nduplicate = false\n";
        let contest = Contest::parse(text, Path::new("c.toml"), Path::new(".")).unwrap();
        let bots: Vec<FinalBot> = ["a", "b.c", "d-e"]
            .iter()
            .map(|n| FinalBot {
                name: n.to_string(),
                owner: format!("owner of {n}"),
                argv: vec!["sh".to_string(), format!("/x/{n} 'quoted' dir/bot.py")],
            })
            .collect();
        let file = tournament_file(&contest, &bots, Path::new("/data/final/tournament")).unwrap();
        let t = Tournament::parse(&file, Path::new("final.toml"), Path::new("/")).unwrap();
        assert_eq!(t.name, "Spring \"cup\" final");
        assert_eq!(t.format, arena::tournament::Format::RoundRobin);
        assert_eq!(
            (t.settings, t.seats, t.sandbox, t.time, t.limits),
            (
                contest.settings,
                contest.seats,
                contest.sandbox,
                contest.time,
                contest.limits
            )
        );
        assert_eq!((t.hands, t.duplicate, t.rounds), (33, false, 1));
        assert_eq!(t.output, PathBuf::from("/data/final/tournament"));
        assert!(t.seed.is_none(), "drawn when the output is opened");
        let names: Vec<&str> = t.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "b.c", "d-e"]);
        assert_eq!(t.bots[1].argv, bots[1].argv, "argv kept whole");
        assert_eq!(t.bots[1].author.as_deref(), Some("owner of b.c"));
        assert!(t.bots.iter().all(|b| b.workdir.is_none()));
    }
}
