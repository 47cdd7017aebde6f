//! `arena match`: one match from the command line.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use arena::bot_command::{self, PathBase, SpecInput};
use arena::console::exit::{Exit, ExitKind};
use arena::referee::{MatchConfig, MatchError, MatchResult, SeatConfig, run_match};
use clap::Args;
use protocol::Variant;
use tokio_util::sync::CancellationToken;

use super::shared_args::{LimitArgs, TableArgs, WatchArgs, at_least_one, variant_parser};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_parser = variant_parser())]
    pub game: Variant,
    /// Number of hands, at least 1.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<u64>)]
    pub hands: u64,
    /// Seed of the deals (and of the bots' own seeds). Default: drawn from the operating
    /// system and printed with the result (and recorded in the replay). Anyone who knows the
    /// seed knows every deal: keep a graded match's seed secret until it is over.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A bot's command line, split like a shell would; once per seat, in seat order.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    pub bots: Vec<String>,
    /// A display name for the bot of the same position (default: from its command).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Write the replay (JSON lines) to this file; its folder is created if missing.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Print one JSON object instead of the readable summary.
    #[arg(long)]
    pub json: bool,
    /// Write a transcript of every line exchanged with each bot into this directory
    /// (`seat0.txt`, ...: `>>` arena to bot, `<<` bot to arena).
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,
    /// Keep each bot's stderr log in this directory (default: discarded after the match);
    /// every process of a restarted seat has its own (`seat0-NAME.restart1.stderr.log`, ...).
    /// The replay then also records each decision's stderr lines (bounded), which anyone
    /// watching it can read.
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    #[command(flatten)]
    pub watch: WatchArgs,
    /// Largest stderr log per bot process (KiB): its first and last halves are kept, with a
    /// line saying how many bytes were dropped between them.
    #[arg(long, default_value_t = arena::bot_command::DEFAULT_MAX_LOG_KB, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_log_kb: u64,
    /// Largest transcript file (MiB): its first and last halves are kept, with a line saying
    /// how many bytes were dropped between them.
    #[arg(long, default_value_t = arena::referee::DEFAULT_MAX_TRANSCRIPT_MB, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_transcript_mb: u64,
    /// With --logs, the replay also holds each decision's stderr lines: at most this many KiB
    /// per bot over the match (and 20 lines, 2 KiB per decision); the lines past it are counted.
    #[arg(long, default_value_t = (sandbox::SEAT_BUDGET_BYTES / 1024) as u64, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_replay_stderr_kb: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

pub async fn run(args: MatchArgs) -> anyhow::Result<()> {
    let settings = args.table.settings(args.game);
    settings.validate(args.bots.len()).map_err(|e| {
        let message = match &e {
            // Name the option and the value given: `--boot 0: setting boot: must be ...`.
            rules::SettingsError::Field(field, _) => {
                let value = serde_json::to_value(settings)
                    .ok()
                    .and_then(|v| v.get(*field).map(|v| v.to_string()))
                    .unwrap_or_default();
                format!("--{} {value}: {e}", field.replace('_', "-"))
            }
            rules::SettingsError::Seats { .. } => {
                format!("{e} (--bot was given {} times)", args.bots.len())
            }
        };
        Exit::new(ExitKind::BadInput, message)
    })?;
    if args.names.len() > args.bots.len() {
        return Err(Exit::new(
            ExitKind::BadInput,
            format!(
                "--name given {} times but --bot only {}",
                args.names.len(),
                args.bots.len()
            ),
        )
        .into());
    }
    if args.limits.decision_ms == 0 && args.limits.bank_ms == 0 {
        return Err(Exit::new(
            ExitKind::BadInput,
            "--decision-ms 0 with --bank-ms 0: no bot could ever answer in time".into(),
        )
        .into());
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let work = tempfile::Builder::new()
        .prefix("arena-match-")
        .tempdir()
        .context("cannot create a working directory")?;
    let log_dir = match &args.logs {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create log directory {}", dir.display()))?;
            dir.clone()
        }
        None => work.path().join("logs"),
    };
    // A transcript that cannot be written would only be a warning later: fail now instead.
    if let Some(dir) = &args.transcripts {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create transcript directory {}", dir.display()))?;
    }
    let paths_from = PathBase::current_dir(&cwd);
    let mut argvs = Vec::new();
    let mut notes = Vec::new();
    for (i, command) in args.bots.iter().enumerate() {
        let argv = bot_command::split(command)
            .map_err(|e| Exit::new(ExitKind::BadInput, format!("--bot number {}: {e}", i + 1)))?;
        if let Some(problem) = bot_command::missing_path(&argv[..1], &paths_from) {
            return Err(Exit::new(
                ExitKind::Failure,
                format!("--bot number {}: {problem}", i + 1),
            )
            .into());
        }
        notes.push(bot_command::missing_file_note(&argv, &paths_from));
        argvs.push(bot_command::absolutize(&argv, &cwd));
    }
    let names = bot_command::unique_names(
        argvs
            .iter()
            .enumerate()
            .map(|(i, argv)| {
                args.names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| bot_command::default_name(argv))
            })
            .collect(),
    );
    let limits = args.limits.sandbox.limits();
    // Under bwrap a bot sees none of these: the other seats' directories, the logs, the
    // transcripts and the replay (which holds every seat's cards).
    let hidden: Vec<_> = [Some(work.path()), Some(log_dir.as_path())]
        .into_iter()
        .chain([args.transcripts.as_deref(), args.replay.as_deref()])
        .flatten()
        .map(Path::to_path_buf)
        .collect();
    let sandbox = args.limits.sandbox.level();
    let protection = sandbox::SandboxReport::new(sandbox, &limits);
    let context = FailureContext {
        max_restarts: args.limits.max_restarts,
        logs_kept: args.logs.is_some(),
        notes,
    };
    let seats = argvs
        .into_iter()
        .zip(&names)
        .enumerate()
        .map(|(seat, (argv, name))| {
            let mut spec = bot_command::spec(SpecInput {
                name,
                argv,
                workdir: work.path().join(format!("seat{seat}")),
                log_dir: &log_dir,
                seat,
                sandbox,
                limits,
            });
            spec.hidden = hidden.clone();
            spec.stderr_keep_bytes = bot_command::log_keep_bytes(args.max_log_kb);
            SeatConfig {
                spec,
                bot_seed: None,
            }
        })
        .collect();
    // Kept until the match is over: dropping it stops the live view.
    let (watching, hub) = arena::watch::serve_if_asked(args.watch.options()).await?;
    // A watched match needs a replay file: its viewers read the match so far from it. It
    // holds every seat's cards, so it goes in a directory of its own (0700, the arena's
    // user only), never next to the bots' directories, and is hidden from them.
    let live_dir = match (&args.replay, &hub) {
        (None, Some(_)) => Some(
            tempfile::Builder::new()
                .prefix("arena-live-")
                .tempdir()
                .context("cannot create a directory for the live replay")?,
        ),
        _ => None,
    };
    let replay = match &live_dir {
        Some(dir) => Some(dir.path().join("live-replay.jsonl")),
        None => args.replay.clone(),
    };
    let live = hub
        .as_ref()
        .zip(replay.as_deref())
        .map(|(hub, replay)| hub.open(names.join(" vs "), replay));
    let config = MatchConfig {
        settings,
        hands: args.hands,
        seed: match args.seed {
            Some(seed) => seed,
            None => arena::referee::seeds::from_os()?,
        },
        first_hand: 0,
        first_dealer: 0,
        seats,
        time: args.limits.time(),
        max_restarts: args.limits.max_restarts,
        exit_grace: Duration::from_millis(500),
        replay,
        transcripts: args.transcripts.clone(),
        live: live.clone(),
        transcript_max_bytes: args.max_transcript_mb.saturating_mul(1 << 20),
        // Kept logs are the operator's choice to look at what bots write: the replay then
        // shows it per decision too.
        decision_stderr: args
            .logs
            .is_some()
            .then_some((args.max_replay_stderr_kb as usize).saturating_mul(1024)),
    };
    let cancel = CancellationToken::new();
    arena::console::signals::cancel_on_signal(cancel.clone());
    let played = run_match(&config, &cancel).await;
    if let (Some(hub), Some(feed)) = (&hub, &live) {
        hub.close(feed);
    }
    let result = match played {
        Ok(result) => result,
        Err(MatchError::Cancelled) => {
            return Err(Exit::new(ExitKind::Interrupted, "interrupted".into()).into());
        }
        Err(MatchError::Settings(e)) => {
            return Err(Exit::new(ExitKind::BadInput, e.to_string()).into());
        }
        Err(e) => return Err(e.into()),
    };
    if args.json {
        let mut summary = summary_json(&result, &context);
        // The arena's own peak memory: bots must not be able to make it grow.
        summary["arena_max_rss_kb"] = sandbox::peak_rss_kb().into();
        summary["sandbox"] = serde_json::to_value(&protection)?;
        arena::console::output::print(&format!("{summary}\n"))?;
    } else {
        let text = summary_text(&result, args.replay.as_deref());
        let failures = failures_text(&result, &context);
        arena::console::output::print(&format!("{text}{failures}{}\n", protection.line()))?;
    }
    arena::watch::after_the_matches(watching, args.watch.options(), &cancel).await;
    disabled_exit(&result)
}

/// Exit code 5 when a seat was disabled: the match was played, but not by all of its bots.
fn disabled_exit(result: &MatchResult) -> anyhow::Result<()> {
    let disabled: Vec<String> = result
        .seats
        .iter()
        .filter_map(|s| {
            // Hands are numbered from 1 where people read them.
            let hand = s.disabled_before_hand? + 1;
            let how = if s.starts == 0 {
                "never started and was disabled"
            } else {
                "was disabled"
            };
            // Seats too.
            Some(format!(
                "seat {} ({}) {how} before hand {hand}",
                s.seat + 1,
                s.name
            ))
        })
        .collect();
    if disabled.is_empty() {
        return Ok(());
    }
    Err(Exit::new(
        ExitKind::BotDisabled,
        format!(
            "{}; the arena packed for it from then on (see the summary for why)",
            disabled.join("; ")
        ),
    )
    .into())
}

/// What the reports of failed bots need besides the result.
pub struct FailureContext {
    pub max_restarts: u32,
    /// `--logs` was given: the log files are still there after the match.
    pub logs_kept: bool,
    /// Per seat, [`bot_command::missing_file_note`] of its command line.
    pub notes: Vec<Option<String>>,
}

impl FailureContext {
    /// The note for a seat whose bot never started.
    fn note(&self, seat: &arena::referee::SeatResult) -> Option<&str> {
        (seat.starts == 0)
            .then(|| self.notes.get(seat.seat)?.as_deref())
            .flatten()
    }
}

/// For every seat whose bot failed to start or stopped working: what happened last, and the
/// last lines of its stderr. Empty when every bot played the whole match.
pub fn failures_text(result: &MatchResult, context: &FailureContext) -> String {
    use std::fmt::Write;
    let max_restarts = context.max_restarts;
    let mut out = String::new();
    for s in &result.seats {
        let Some(failure) = &s.last_failure else {
            continue;
        };
        // Seats and hands are numbered from 1 where people read them (the JSON keeps the
        // indexes).
        let who = format!("seat {} ({})", s.seat + 1, s.name);
        let _ = writeln!(out);
        match s.disabled_before_hand.map(|hand| hand + 1) {
            Some(hand) if s.starts == 0 => {
                let _ = writeln!(
                    out,
                    "{who} NEVER STARTED: disabled before hand {hand} after {} \
                     (--max-restarts {max_restarts}); the arena packed for it every hand",
                    plural(max_restarts + 1, "attempt")
                );
            }
            Some(hand) => {
                let _ = writeln!(
                    out,
                    "{who} WAS DISABLED before hand {hand}, out of restarts \
                     (--max-restarts {max_restarts}); the arena packed for it from then on"
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "{who} stopped working {} (restarted {}x)",
                    plural(s.failures, "time"),
                    s.restarts
                );
            }
        }
        let _ = writeln!(
            out,
            "  last: hand {}: {}",
            failure.hand + 1,
            failure.reason()
        );
        out.push_str(&sandbox::stderr_block(failure.stderr.as_deref(), "  "));
        if let Some(note) = context.note(s) {
            let _ = writeln!(out, "  note: {note}");
        }
        if context.logs_kept {
            let _ = writeln!(out, "  full log: {}", failure.log.display());
        } else {
            let _ = writeln!(out, "  (--logs DIR keeps every bot's whole stderr)");
        }
    }
    out
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The `--json` summary: one object, per bot its name, seat, net chips and faults, and for a
/// bot that failed to start or stopped working, how (`last_failure`, with the last lines of
/// its stderr) and whether its seat was disabled.
pub fn summary_json(result: &MatchResult, context: &FailureContext) -> serde_json::Value {
    serde_json::json!({
        "game": result.game,
        "hands": result.hands,
        "seed": result.seed,
        "bots": result.seats.iter().map(|s| serde_json::json!({
            "name": s.name,
            "seat": s.seat,
            "net": s.net,
            "chips_per_hand": result.chips_per_hand(s.seat),
            "hands_won": s.hands_won,
            "faults": s.faults,
            "restarts": s.restarts,
            "decisions": s.decisions,
            "mean_decision_ms": if s.decisions == 0 { 0.0 } else { s.decision_ms as f64 / s.decisions as f64 },
            "disabled_before_hand": s.disabled_before_hand,
            "never_started": s.starts == 0,
            "last_failure": s.last_failure.as_ref().map(|f| serde_json::json!({
                "hand": f.hand,
                "fault": f.kind,
                "detail": f.detail,
                "stderr": f.stderr,
                "log": context.logs_kept.then(|| f.log.display().to_string()),
                "note": context.note(s),
            })),
        })).collect::<Vec<_>>(),
    })
}

/// The readable summary.
pub fn summary_text(result: &MatchResult, replay: Option<&Path>) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} match, {} hands, seed {}",
        result.game, result.hands, result.seed
    );
    let _ = writeln!(
        out,
        "{:<4} {:<24} {:>10} {:>10} {:>9}  faults",
        "seat", "bot", "net", "per hand", "hands won"
    );
    for s in &result.seats {
        let faults = if s.faults.is_empty() {
            "-".to_string()
        } else {
            s.faults
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            out,
            "{:<4} {:<24} {:>+10} {:>+10.3} {:>9}  {faults}{}",
            s.seat + 1, // from 1, as people count seats (the JSON keeps the index)
            s.name,
            s.net,
            result.chips_per_hand(s.seat),
            s.hands_won,
            if s.restarts > 0 {
                format!(" (restarted {}x)", s.restarts)
            } else {
                String::new()
            }
        );
    }
    if let Some(replay) = replay {
        let _ = writeln!(out, "replay: {}", replay.display());
    }
    out
}
