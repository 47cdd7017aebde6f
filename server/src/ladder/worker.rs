//! The ladder's workers: each keeps the queue topped up with duplicate pairs (the
//! scheduler), claims a queued match with a lease, plays it with the arena's match runner as
//! `arena match` and tournaments do (the contest's game, time limits, resource limits and
//! sandbox; each bot started from the worker's copy of its build, fetched from the database),
//! renews the lease while it plays, and stores the result and the replay (gzip) once
//! (`Db::finish_match`: only while the lease is its own; a match whose bot retired meanwhile
//! is cancelled). A lease that runs out (a worker died or stalled) puts the match back in the
//! queue, attempt + 1, at most `[ladder] max_attempts` times.
//!
//! The same code runs inside the server (`[ladder] workers`) and in `arena-worker` processes
//! on other machines: the database is all they share.
//!
//! On disk, under the worker's data directory: `cache/` (builds, see [`BuildCache`]) and
//! `matches/MATCH/` (the seats' private directories, stderr logs and the replay while the
//! match plays; always removed).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use arena::bot_command::{self, SpecInput};
use arena::referee::{MatchConfig, MatchResult, SeatConfig, run_match};
use tokio_util::sync::CancellationToken;

use super::cache::BuildCache;
use super::log_paths::LogPaths;
use super::schedule::pick_pair;
use crate::config::Contest;
use crate::storage::{Db, Finish, MatchClaim, NewPair, SeatOutcome, now_ms};

/// How often an idle worker looks for work.
const POLL: Duration = Duration::from_secs(5);
/// The longest pause between two tries to store a result while the database is away.
const STORE_RETRY_MAX: Duration = Duration::from_secs(2);
/// Restarts a crashed bot gets within one match before it packs every remaining hand (the
/// tournaments' default).
const MAX_RESTARTS: u32 = 2;

/// What the workers of this server share.
#[derive(Debug)]
pub struct Worker {
    db: Db,
    contest: Arc<Contest>,
    /// Names the worker in the database (`lease_owner`, `match_results.worker`).
    name: String,
    cache: Arc<BuildCache>,
    /// Matches kept queued: enough that a worker never waits for the scheduler.
    queue_target: i64,
}

/// What [`Worker::play_next`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    Idle,
    Match(i64, Finish),
    /// The match could not be played (a bot's files are missing): failed for good.
    Failed(i64),
}

impl Worker {
    /// A worker playing `contest` (its `data_dir` holds the match scratch) with builds from
    /// `cache`, which the worker tasks of one process share.
    pub fn new(
        db: Db,
        contest: Arc<Contest>,
        name: String,
        cache: Arc<BuildCache>,
    ) -> std::io::Result<Worker> {
        std::fs::create_dir_all(contest.data_dir.join("matches"))?;
        let queue_target = 2 * contest.ladder.workers.max(1) as i64;
        Ok(Worker {
            db,
            contest,
            name,
            cache,
            queue_target,
        })
    }

    fn lease_ms(&self) -> i64 {
        self.contest.ladder.lease_seconds as i64 * 1000
    }

    /// Plays until `stop` is cancelled, which it looks at between matches only (a match
    /// under way is finished and stored first): the loop of one worker task.
    pub async fn run(self: Arc<Self>, stop: CancellationToken) {
        while !stop.is_cancelled() {
            if let Err(e) = self.db.expire_matches(now_ms()).await {
                tracing::warn!("cannot expire match leases: {e}");
            }
            // The final round robin has the machine to itself: its bots' time limits are
            // the contest's, and ladder matches beside it would eat into them.
            if matches!(
                self.db.final_state().await,
                Ok(crate::storage::FinalState::Running)
            ) {
                tokio::time::sleep(POLL).await;
                continue;
            }
            if let Err(e) = self.schedule().await {
                tracing::warn!("scheduler: {e:#}");
            }
            match self.play_next().await {
                Ok(Played::Idle) => {}
                Err(e) => tracing::warn!("worker {}: {e:#}", self.name),
                Ok(_) => continue,
            }
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Tops the queue up to its target with duplicate pairs; returns how many pairs it
    /// added (none while fewer than two owners have a ready bot). Several workers may top it
    /// up at once: the queue then holds a pair or two more, which is harmless.
    pub async fn schedule(&self) -> anyhow::Result<usize> {
        if self.contest.assignment.is_some() {
            // A class's assignment: the grader's blocks instead of ladder pairs.
            return crate::assignment::grader::step(&self.db, &self.contest).await;
        }
        if self.contest.seats != 2 {
            // A pair swaps two seats; tables of more seats are not laddered (yet).
            return Ok(0);
        }
        // Before counting the queue: the matches of replaced versions leave room for new ones.
        self.db.cancel_stale_matches().await?;
        let mut added = 0;
        while self.db.queued_matches().await? < self.queue_target {
            let candidates = self.db.ladder_candidates().await?;
            let Some((a, b)) = pick_pair(&candidates) else {
                break;
            };
            // Drawn from the OS and stored: secret until the match is played (no page
            // shows the seed of an unplayed match).
            let first = arena::referee::seeds::from_os()?;
            let second = if self.contest.ladder.duplicate {
                first
            } else {
                arena::referee::seeds::from_os()?
            };
            self.db
                .schedule_pair(&NewPair {
                    version_a: a,
                    version_b: b,
                    seeds: [first, second],
                    hands: self.contest.ladder.hands_per_match,
                    max_attempts: i64::from(self.contest.ladder.max_attempts),
                })
                .await?;
            added += 1;
        }
        Ok(added)
    }

    /// Claims and plays the oldest queued match.
    pub async fn play_next(&self) -> anyhow::Result<Played> {
        let Some(claim) = self.db.claim_match(&self.name, self.lease_ms()).await? else {
            return Ok(Played::Idle);
        };
        self.play_claimed(&claim).await
    }

    /// Plays a claimed match, renewing its lease, and stores the result.
    pub async fn play_claimed(&self, claim: &MatchClaim) -> anyhow::Result<Played> {
        let renew_every = Duration::from_millis((self.lease_ms() / 4).max(1) as u64);
        let cancel = CancellationToken::new();
        let play = self.play(claim, &cancel);
        tokio::pin!(play);
        let played = loop {
            tokio::select! {
                played = &mut play => break played,
                _ = tokio::time::sleep(renew_every) => {
                    match self.db.renew_match(claim.id, &claim.lease_token, self.lease_ms()).await {
                        Ok(true) => {}
                        Ok(false) => {
                            // Expired: another worker plays it now. Stop this one (its bots
                            // are killed when the runner returns).
                            cancel.cancel();
                            let _ = (&mut play).await;
                            self.cleanup(claim.id);
                            return Ok(Played::Match(claim.id, Finish::LeaseLost));
                        }
                        Err(e) => tracing::warn!("cannot renew the lease of match {}: {e}", claim.id),
                    }
                }
            }
        };
        self.cleanup(claim.id);
        if self.contest.drop_page_cache {
            // The pair's other match deals the same cards, maybe next on this machine:
            // nothing this match's bots cached may be there for it to find.
            let dropped = tokio::task::spawn_blocking(arena::tournament::page_cache::drop_now)
                .await
                .map_err(std::io::Error::other)
                .and_then(|done| done);
            if let Err(e) = dropped {
                tracing::error!("cannot empty the page cache after match {}: {e}", claim.id);
            }
        }
        let (result, replay) = match played {
            Ok(done) => done,
            // The database went away while the match was being set up (its bots' versions
            // and builds are read from it): not the match's fault. It stays claimed; its
            // lease runs out and it is played again, rather than failed for good.
            Err(e) if database_away(&e) => return Err(e),
            Err(e) => {
                let why = format!("{e:#}");
                tracing::warn!(match_id = claim.id, "cannot play: {why}");
                self.db
                    .fail_match(claim.id, &claim.lease_token, &why)
                    .await?;
                return Ok(Played::Failed(claim.id));
            }
        };
        let seats: Vec<SeatOutcome> = result
            .seats
            .iter()
            .map(|s| SeatOutcome {
                chips: s.net,
                faults: s.faults.values().sum::<u64>() as i64,
            })
            .collect();
        // A grading match's moves and faults, for the grader and the copy check.
        let summary = if claim.grading {
            let gz = replay.clone();
            let summary = tokio::task::spawn_blocking(move || {
                crate::assignment::summary::Summary::of_gz(&gz)
            })
            .await??;
            Some((summary.moves_json(), summary.faults_json()))
        } else {
            None
        };
        let finish = self.store(claim, &replay, &seats, summary).await?;
        tracing::info!(match_id = claim.id, ?finish, "match finished");
        Ok(Played::Match(claim.id, finish))
    }

    /// Stores a played match, trying again while the database is away (a restart, a network
    /// cut) for at most a lease: the match took its bots minutes of time, and dropping the
    /// result would have it played again. Safe to repeat: a result whose commit did land
    /// before the connection was cut makes the next try find the match no longer running
    /// (`LeaseLost`, nothing written twice), and so does a lease another worker took meanwhile.
    async fn store(
        &self,
        claim: &MatchClaim,
        replay: &[u8],
        seats: &[SeatOutcome],
        summary: Option<(String, String)>,
    ) -> anyhow::Result<Finish> {
        let give_up = tokio::time::Instant::now() + Duration::from_millis(self.lease_ms() as u64);
        let mut pause = Duration::from_millis(250);
        loop {
            match self
                .db
                .finish_match_with(
                    claim,
                    &self.name,
                    Some(replay),
                    seats,
                    summary.as_ref().map(|(m, f)| (m.as_str(), f.as_str())),
                )
                .await
            {
                Err(e) if e.is_unavailable() && tokio::time::Instant::now() + pause < give_up => {
                    tracing::warn!(
                        match_id = claim.id,
                        "cannot store the result yet, trying again in {pause:?}: {e}"
                    );
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(STORE_RETRY_MAX);
                }
                done => return Ok(done?),
            }
        }
    }

    fn cleanup(&self, id: i64) {
        let _ = std::fs::remove_dir_all(self.work_dir(id));
    }

    fn work_dir(&self, id: i64) -> PathBuf {
        self.contest.data_dir.join("matches").join(id.to_string())
    }

    /// Plays the match; the result and the replay, gzip-compressed.
    async fn play(
        &self,
        claim: &MatchClaim,
        cancel: &CancellationToken,
    ) -> anyhow::Result<(MatchResult, Vec<u8>)> {
        let work = self.work_dir(claim.id);
        let logs = work.join("logs");
        std::fs::create_dir_all(&logs)?;
        let replay = work.join("replay.jsonl");
        // The owner reads their bot's stderr in the replay: paths relative to its upload.
        let mut paths = LogPaths::default();
        let mut seats = Vec::new();
        for (seat, &version_id) in claim.seats.iter().enumerate() {
            let version = self
                .db
                .version_by_id(version_id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no version {version_id}"))?;
            let bot = self.db.bot_by_id(version.bot_id).await?;
            let name = match bot {
                Some(b) => format!("{}-v{}", b.name, version.number),
                None => format!("version-{version_id}"),
            };
            let argv = self.cache.command(&self.db, version_id).await?;
            paths = paths.dir(&self.cache.dir_of(version_id), ".");
            let spec = bot_command::spec(SpecInput {
                name: &name,
                argv,
                workdir: work.join(format!("seat{seat}")),
                log_dir: &logs,
                seat,
                sandbox: self.contest.sandbox,
                limits: self.contest.limits,
            });
            seats.push(SeatConfig {
                spec,
                bot_seed: None,
            });
        }
        let config = MatchConfig {
            settings: self.contest.settings,
            hands: claim.hands,
            seed: claim.seed,
            first_hand: 0,
            first_dealer: 0,
            seats,
            time: self.contest.time,
            max_restarts: MAX_RESTARTS,
            exit_grace: Duration::from_millis(500),
            replay: Some(replay.clone()),
            transcripts: None,
            live: None,
            transcript_max_bytes: 0,
            // Kept for the owners (the replay page shows a bot's lines to its owner only).
            decision_stderr: (self.contest.ladder.replay_stderr_bytes > 0)
                .then_some(self.contest.ladder.replay_stderr_bytes as usize),
        };
        let paths = paths
            .dir(&work, "<scratch>")
            .dir(&self.contest.data_dir, "<data>");
        let result = run_match(&config, cancel).await?;
        let gz = tokio::task::spawn_blocking(move || gzip_replay(&replay, &paths)).await??;
        Ok((result, gz))
    }
}

/// Whether `e` comes from a database that could not be reached.
fn database_away(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<crate::storage::StorageError>()
            .is_some_and(|s| s.is_unavailable())
    })
}

/// A replay file with the server's paths rewritten, gzip-compressed (a replay shrinks about
/// thirteenfold: 115 KB to 8.6 KB for 100 hands). The paths are rewritten in the JSON text:
/// the rewrites are plain path text, which JSON strings hold as it is.
fn gzip_replay(path: &std::path::Path, paths: &LogPaths) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let text = paths.apply(&std::fs::read_to_string(path)?);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes())?;
    gz.finish()
}
