//! `arena tournament FILE`: run (or resume) a tournament described by a TOML file.

use std::path::PathBuf;

use arena::console::exit::{Exit, ExitKind};
use arena::console::output::print;
use arena::tournament::{RunOptions, Tournament, write_standings};
use clap::Args;
use tokio_util::sync::CancellationToken;

use super::shared_args::{WatchArgs, at_least_one};

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The tournament file (see tournaments/).
    pub file: PathBuf,
    /// Matches played at once, at least 1 (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
    pub jobs: Option<usize>,
    /// Output directory, created if missing (default: the file's `output`, else
    /// out/<name>).
    #[arg(short, long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Play only what is missing from the output directory (rerunning does the same).
    #[arg(long)]
    pub resume: bool,
    /// Play only shard I of N (1-based), e.g. --shard 2/8; combine with `arena merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Pin each job slot (its referee thread and its bots) to one CPU: faster for light
    /// bots, especially on virtual machines; a bot can then use only that CPU.
    #[arg(long)]
    pub affinity: bool,
    #[command(flatten)]
    pub watch: WatchArgs,
    /// Largest stderr log per bot process (KiB; default: the file's `[limits]
    /// max_log_kb`, else 128): its first and last halves are kept.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_log_kb: Option<u64>,
}

pub async fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let watch = args.watch.options();
    let mut t =
        Tournament::load(&args.file).map_err(|e| Exit::new(ExitKind::BadInput, e.to_string()))?;
    if let Some(kb) = args.max_log_kb {
        t.max_log_kb = kb;
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let out = args.out.unwrap_or_else(|| t.output.clone());
    if !args.quiet {
        arena::console::output::eprint_line(
            &sandbox::SandboxReport::new(t.sandbox, &t.limits).line(),
        );
    }
    // Kept until the tournament is over: dropping it stops the live view.
    let (watching, hub) = arena::watch::serve_if_asked(watch).await?;
    let options = RunOptions {
        jobs,
        out: out.clone(),
        shard: args.shard,
        progress: !args.quiet,
        affinity: args.affinity,
        watch: hub,
    };
    let cancel = CancellationToken::new();
    arena::console::signals::cancel_on_signal(cancel.clone());
    let plan = t.clone();
    let summary = arena::tournament::run(t, &options, &cancel)
        .await
        .map_err(super::exit_error)?;
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
        arena::watch::after_the_matches(watching, watch, &cancel).await;
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

/// Parses `I/N` (1 <= I <= N).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let quoted = arena::console::quote::quoted;
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected I/N like 2/8, got {}", quoted(text)))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index in {}", quoted(text)))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count in {}", quoted(text)))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("shard {}: need 1 <= I <= N", quoted(text)));
    }
    Ok((i, n))
}
