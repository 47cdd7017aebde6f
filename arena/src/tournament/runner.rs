//! Runs a tournament: checks every bot, plays the missing matches concurrently, appends each
//! result as it finishes, and writes the standings.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use protocol::{Hello, PROTOCOL_VERSION};
use sandbox::BotSpec;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::MatchRecord;
use super::config::{BotSeeds, Format, Tournament};
use super::output::OutputDir;
use super::page_cache::PageCache;
use super::run_error::{BotCheckFailure, RunError};
use super::schedule::{ScheduledMatch, schedule, sprt_block};
use crate::bot_command::{self, SpecInput};
use crate::referee::{Connection, MatchConfig, MatchError, MatchResult, SeatConfig};
use crate::standings::{Sprt, SprtDecision};
use crate::tournament::slots;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub jobs: usize,
    pub out: std::path::PathBuf,
    /// `(i, n)`: play only the matches with index mod n == i - 1 (1-based i).
    pub shard: Option<(u64, u64)>,
    /// Show a progress bar (on a terminal) or plain progress lines.
    pub progress: bool,
    /// Pin each job slot and its bots to one CPU (`--affinity`).
    pub affinity: bool,
    /// The live view's hub (`--watch`): every match gets a feed while it is played.
    pub watch: Option<Arc<crate::watch::LiveHub>>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct RunSummary {
    pub played: u64,
    pub already_done: u64,
    pub interrupted: bool,
    /// Every match of the output directory (an SPRT's verdict is computed from them with the
    /// standings).
    pub records: Vec<MatchRecord>,
}

/// Starts every bot once and checks its handshake, so that a broken bot is reported before
/// the first match (with the file and line of its entry).
pub async fn check_bots(t: &Tournament, scratch: &std::path::Path) -> Result<(), RunError> {
    let mut checks = JoinSet::new();
    for (i, bot) in t.bots.iter().enumerate() {
        let mut spec = spec_for(t, bot, &scratch.join(format!("check-{i}")), scratch, i);
        spec.hidden = vec![scratch.to_path_buf(), t.file.clone()];
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            game: t.settings.variant,
            settings: t.settings,
            seat: 0,
            seats: t.seats,
            hands: 0,
            first_hand: 0,
            seed: 0,
            players: vec![bot.name.clone()],
            time: t.time,
        };
        let line = bot.line;
        let name = bot.name.clone();
        let note = crate::bot_command::missing_file_note(&bot.argv, &t.paths_of(bot))
            .map(|note| format!("\n  note: {note}"))
            .unwrap_or_default();
        checks.spawn(async move {
            let result = match Connection::start(&spec, &hello, None, None).await {
                Ok(connection) => {
                    connection.close(Duration::from_millis(200)).await;
                    Ok(())
                }
                Err(Ok(spawn)) => Err(format!("{spawn}{note}")),
                Err(Err(fault)) => Err(format!(
                    "fails its handshake ({}): {}{}\n{}{note}",
                    fault.kind,
                    fault.detail,
                    fault
                        .line
                        .map(|l| format!("; it sent: {l}"))
                        .unwrap_or_default(),
                    sandbox::stderr_block(fault.stderr.as_deref(), "  ").trim_end()
                )),
            };
            (i, line, name, result)
        });
    }
    let mut failures = Vec::new();
    while let Some(joined) = checks.join_next().await {
        let (i, line, bot, result) = joined.map_err(RunError::CheckPanicked)?;
        if let Err(problem) = result {
            failures.push((i, BotCheckFailure { line, bot, problem }));
        }
    }
    if failures.is_empty() {
        return Ok(());
    }
    failures.sort_by_key(|(i, _)| *i);
    Err(RunError::BotChecks {
        file: t.file.clone(),
        failures: failures.into_iter().map(|(_, f)| f).collect(),
    })
}

fn spec_for(
    t: &Tournament,
    bot: &super::config::BotEntry,
    private_dir: &std::path::Path,
    log_dir: &std::path::Path,
    seat: usize,
) -> BotSpec {
    let mut spec = bot_command::spec(SpecInput {
        name: &bot.name,
        argv: bot.argv.clone(),
        workdir: bot
            .workdir
            .clone()
            .unwrap_or_else(|| private_dir.to_path_buf()),
        log_dir,
        seat,
        sandbox: t.sandbox,
        limits: t.limits,
    });
    spec.env = bot.env.clone();
    spec.private_workdir = bot.workdir.is_none();
    spec.stderr_keep_bytes = bot_command::log_keep_bytes(t.max_log_kb);
    spec
}

fn match_config(t: &Tournament, m: &ScheduledMatch, out: &OutputDir) -> MatchConfig {
    let work = out.work_dir(m.index);
    let logs = out.log_dir(m.index);
    MatchConfig {
        settings: t.settings,
        hands: t.hands,
        seed: m.seed,
        first_hand: 0,
        first_dealer: 0,
        seats: m
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &b)| {
                let mut spec = spec_for(
                    t,
                    &t.bots[b],
                    &work.join(format!("seat{seat}")),
                    &logs,
                    seat,
                );
                // Under bwrap: no other seat's directory, no logs, replays or results, and
                // not the tournament file (it names the seed) even where it sits next to a
                // bot's own files.
                spec.hidden = vec![out.root.clone(), t.file.clone()];
                SeatConfig {
                    spec,
                    bot_seed: independent_bot_seed(t, m, seat),
                }
            })
            .collect(),
        time: t.time,
        max_restarts: t.max_restarts,
        exit_grace: Duration::from_millis(500),
        replay: Some(out.replay_path(m.index)),
        transcripts: None,
        live: None,
        transcript_max_bytes: 0,
        // Tournament replays are often published: no bot's stderr in them unless the file
        // asks for it (the logs directory keeps it for the operator either way).
        decision_stderr: t
            .replay_stderr
            .then_some((t.replay_stderr_kb as usize).saturating_mul(1024)),
    }
}

/// The hello seed of `seat` in match `m` under `bot_seeds = "independent"`: derived one-way
/// from the tournament seed, stream `index × 2¹⁶ + seat` (a table has far fewer seats), so
/// every match and every seat has its own. `None` under the default (per-seat) seeds.
pub fn independent_bot_seed(t: &Tournament, m: &ScheduledMatch, seat: usize) -> Option<u64> {
    match t.bot_seeds {
        BotSeeds::PerSeat => None,
        BotSeeds::Independent => Some(crate::referee::seeds::derive(
            t.seed(),
            crate::referee::seeds::MATCH_BOT_SEED,
            (m.index << 16) | seat as u64,
        )),
    }
}

fn record(m: &ScheduledMatch, result: &MatchResult, out: &OutputDir) -> MatchRecord {
    MatchRecord {
        index: m.index,
        block: m.block,
        seats: result.seats.iter().map(|s| s.name.clone()).collect(),
        hands: result.hands,
        net: result.seats.iter().map(|s| s.net).collect(),
        hands_won: result.seats.iter().map(|s| s.hands_won).collect(),
        faults: result.seats.iter().map(|s| s.faults.clone()).collect(),
        replay: out
            .replay_path(m.index)
            .strip_prefix(&out.root)
            .ok()
            .map(|p| p.to_string_lossy().into_owned()),
    }
}

/// Plays `matches` on `options.jobs` job slots (see [`slots`]), appending each result as it
/// finishes.
async fn play_all(
    t: &Arc<Tournament>,
    matches: Vec<ScheduledMatch>,
    out: &mut OutputDir,
    options: &RunOptions,
    progress: &Progress,
    cancel: &CancellationToken,
) -> Result<(Vec<MatchRecord>, bool), RunError> {
    let queue = matches
        .into_iter()
        .map(|m| {
            let config = match_config(t, &m, out);
            let work = out.work_dir(m.index);
            (m, config, work)
        })
        .collect();
    let (mut played, threads) = slots::start_slots(
        options.jobs,
        queue,
        slots::SlotOptions {
            pin: options.affinity,
            drop_page_cache: t.page_cache == PageCache::Drop,
        },
        options.watch.clone(),
        cancel,
    )
    .map_err(RunError::StartSlots)?;
    let mut results = Results::default();
    let mut failure = None;
    // Every slot sends until the queue is empty or, once cancelled, drained; the channel
    // closes when all have stopped, so their bots are gone too.
    while let Some((m, result)) = played.recv().await {
        if failure.is_none()
            && let Err(e) = results.add(m, result, out, progress)
        {
            cancel.cancel();
            failure = Some(e);
        }
    }
    let panicked = tokio::task::spawn_blocking(move || {
        threads.into_iter().any(|thread| thread.join().is_err())
    })
    .await
    .unwrap_or(true);
    if let Some(e) = failure {
        return Err(e);
    }
    if panicked {
        return Err(RunError::SlotPanicked);
    }
    Ok((results.finished, results.interrupted))
}

/// Finished matches in the order they end, each appended to the results file at once.
#[derive(Default)]
struct Results {
    finished: Vec<MatchRecord>,
    interrupted: bool,
}

impl Results {
    /// Records one match; an error is a match the arena itself could not play.
    fn add(
        &mut self,
        m: ScheduledMatch,
        result: Result<MatchResult, MatchError>,
        out: &mut OutputDir,
        progress: &Progress,
    ) -> Result<(), RunError> {
        match result {
            Ok(result) => {
                let rec = record(&m, &result, out);
                out.append(&rec).map_err(|source| RunError::Append {
                    root: out.root.clone(),
                    source,
                })?;
                progress.finished(&rec);
                self.finished.push(rec);
            }
            Err(MatchError::Cancelled) => self.interrupted = true,
            Err(source) => {
                return Err(RunError::Match {
                    index: m.index,
                    source,
                });
            }
        }
        Ok(())
    }
}

/// Runs (or resumes) a tournament into `options.out`.
pub async fn run(
    t: Tournament,
    options: &RunOptions,
    cancel: &CancellationToken,
) -> Result<RunSummary, RunError> {
    if options.shard.is_some() && t.format == Format::Sprt {
        return Err(RunError::ShardedSprt { file: t.file });
    }
    if options.shard.is_some() && t.seed_drawn {
        return Err(RunError::ShardedWithoutSeed {
            file: t.file,
            suggested: crate::referee::seeds::from_os()?,
        });
    }
    if t.page_cache == PageCache::Drop
        && let Some(why) = super::page_cache::unavailable(options.jobs)
    {
        return Err(RunError::PageCacheUnavailable { file: t.file, why });
    }
    let mut t = t;
    let (mut out, done) = OutputDir::open(&options.out, &mut t, options.shard)?;
    let scratch = tempfile::Builder::new()
        .prefix("arena-check-")
        .tempdir()
        .map_err(RunError::Scratch)?;
    check_bots(&t, scratch.path()).await?;
    let t = Arc::new(t);
    let mut summary = RunSummary {
        already_done: done.len() as u64,
        ..RunSummary::default()
    };
    let mut all: BTreeMap<u64, MatchRecord> = done;
    if t.format == Format::Sprt {
        let sprt = t.sprt.expect("checked at load");
        let mut test = Sprt::of(&sprt);
        // A slot plays a whole block (both halves, one after the other): one block per slot.
        let batch = options.jobs.max(1) as u64;
        let mut scorer =
            super::sprt_blocks::BlockScorer::new(sprt.estimator, &t.bots[0].name, Some(&out.root));
        let mut block = 0;
        let progress = Progress::new(options.progress, 2 * sprt.max_blocks, all.len() as u64);
        loop {
            // Feed finished blocks in order (resumed ones first), then decide.
            // Stop at the first decision: blocks played past it in the same batch are left
            // out, so the result does not depend on --jobs (the batch size).
            // Live LLR: a line per block played now; resumed blocks get one line for all.
            let resumed = block == 0 && summary.played == 0;
            let fed_from = block;
            while test.decision() == SprtDecision::Continue
                && block < sprt.max_blocks
                && let (Some(a), Some(b)) = (all.get(&(2 * block)), all.get(&(2 * block + 1)))
            {
                test.add(scorer.score(a, b));
                block += 1;
                if !resumed {
                    progress.line(&crate::standings::sprt::progress_line(&test));
                }
            }
            if resumed && block > fed_from {
                progress.line(&format!(
                    "{} (resumed)",
                    crate::standings::sprt::progress_line(&test)
                ));
            }
            if test.decision() != SprtDecision::Continue || block >= sprt.max_blocks {
                break;
            }
            if cancel.is_cancelled() {
                summary.interrupted = true;
                break;
            }
            let upto = (block + batch).min(sprt.max_blocks);
            let matches: Vec<ScheduledMatch> = (block..upto)
                .flat_map(|b| sprt_block(&t, b))
                .filter(|m| !all.contains_key(&m.index))
                .collect();
            let (finished, interrupted) =
                play_all(&t, matches, &mut out, options, &progress, cancel).await?;
            summary.played += finished.len() as u64;
            all.extend(finished.into_iter().map(|r| (r.index, r)));
            if interrupted {
                summary.interrupted = true;
                break;
            }
        }
        progress.done();
        // Blocks played past the decision (a batch plays several at once) are dropped from
        // the results, so the output does not depend on --jobs.
        if all.keys().any(|&index| index / 2 >= block) {
            let dropped: Vec<u64> = all.keys().copied().filter(|&i| i / 2 >= block).collect();
            all.retain(|&index, _| index / 2 < block);
            out.rewrite_results(all.values())?;
            for index in dropped {
                let _ = std::fs::remove_file(out.replay_path(index));
            }
        }
    } else {
        let mut matches = schedule(&t);
        if let Some((i, n)) = options.shard {
            matches.retain(|m| m.index % n == i - 1);
        }
        let total = matches.len() as u64;
        matches.retain(|m| !all.contains_key(&m.index));
        let progress = Progress::new(options.progress, total, total - matches.len() as u64);
        let (finished, interrupted) =
            play_all(&t, matches, &mut out, options, &progress, cancel).await?;
        progress.done();
        summary.played = finished.len() as u64;
        summary.interrupted = interrupted;
        all.extend(finished.into_iter().map(|r| (r.index, r)));
    }
    let _ = std::fs::remove_dir_all(out.root.join("work"));
    summary.records = all.into_values().collect();
    Ok(summary)
}

/// Progress on stderr: a bar with ETA on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    total: u64,
    count: std::sync::atomic::AtomicU64,
}

impl Progress {
    fn new(enabled: bool, total: u64, done: u64) -> Progress {
        let terminal = enabled && std::io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} matches (ETA {eta}) {msg}",
                )
                .expect("a valid template"),
            );
            bar.set_position(done);
            bar
        });
        Progress {
            bar,
            plain: enabled && !terminal,
            total,
            count: std::sync::atomic::AtomicU64::new(done),
        }
    }

    fn finished(&self, record: &MatchRecord) {
        let n = self
            .count
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        let line = record
            .seats
            .iter()
            .zip(&record.net)
            .map(|(s, n)| format!("{s} {n:+}"))
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(bar) = &self.bar {
            bar.set_position(n);
            bar.set_message(format!("last: {line}"));
        } else if self.plain {
            crate::console::output::eprint_line(&format!(
                "[{n}/{}] match {} finished: {line}",
                self.total, record.index
            ));
        }
    }

    /// A line of its own (above the bar on a terminal), when progress is shown.
    fn line(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.println(text);
        } else if self.plain {
            crate::console::output::eprint_line(text);
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tournament(bot_seeds: &str) -> Tournament {
        let text = format!(
            "game = \"classic\"\nseed = 5\nrounds = 2\n{bot_seeds}\n\
             [[bot]]\nname = \"a\"\ncommand = \"true\"\n[[bot]]\nname = \"b\"\ncommand = \"true\"\n"
        );
        Tournament::parse(
            &text,
            std::path::Path::new("t.toml"),
            std::path::Path::new("."),
        )
        .unwrap()
    }

    #[test]
    fn independent_bot_seeds_differ_per_match_and_seat_and_are_reproducible() {
        let t = tournament("bot_seeds = \"independent\"");
        assert_eq!(t.bot_seeds, BotSeeds::Independent);
        let matches = schedule(&t);
        assert_eq!(matches.len(), 4);
        let mut seen = std::collections::BTreeSet::new();
        for m in &matches {
            for seat in 0..2 {
                let seed = independent_bot_seed(&t, m, seat).unwrap();
                assert_eq!(Some(seed), independent_bot_seed(&t, m, seat));
                assert_ne!(seed, crate::referee::bot_seed(m.seed, seat));
                seen.insert(seed);
            }
        }
        assert_eq!(seen.len(), 8, "every match and seat its own seed");

        let default = tournament("");
        assert_eq!(default.bot_seeds, BotSeeds::PerSeat);
        assert_eq!(independent_bot_seed(&default, &matches[0], 0), None);
        // The default leaves the fingerprint of older files alone; the option changes it.
        assert_ne!(default.fingerprint(), t.fingerprint());
        assert_eq!(
            default.fingerprint(),
            tournament("bot_seeds = \"per-seat\"").fingerprint()
        );
    }
}
