//! `arena`: turns errors into messages and exit codes; the work is in the library.

// `println!` and `eprintln!` panic on a closed pipe (`arena ... | head`, or a stderr whose
// reader has gone, which once killed the signal task): write through `output` instead.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use anyhow::Context;
use arena::cli::{Cli, Command, ReplayCommand};
use arena::exit::{Exit, ExitKind};
use arena::output::eprint_line;
use clap::Parser;

/// `arena serve ...`: becomes `arena-server ...` (the contest server, a binary of its own so
/// that the arena builds without a database driver), found next to this program.
/// `arena serve` and `arena worker`: become `program` (arena-server, arena-worker) installed
/// next to this arena, with `args`.
fn exec_sibling(command: &str, program: &str, args: &[std::ffi::OsString]) -> ExitCode {
    use std::os::unix::process::CommandExt;
    let server = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(program)));
    let Some(server) = server.filter(|path| path.exists()) else {
        eprint_line(&format!(
            "arena: error: arena {command} runs {program}, which is not installed next to this \
             arena; build it with `cargo build --release -p teenpatti-server` (the demo's build \
             leaves the server out)",
        ));
        return ExitCode::from(ExitKind::BadInput.code());
    };
    // exec: signals, the exit code and the terminal go straight to the server.
    let error = std::process::Command::new(&server).args(args).exec();
    eprint_line(&format!(
        "arena: error: cannot run {}: {}",
        server.display(),
        arena::output::io_reason(&error)
    ));
    ExitCode::from(ExitKind::Failure.code())
}

fn main() -> ExitCode {
    // Before anything is started: no descriptor this arena inherited (`flock DIR arena ...`,
    // a shell's `3>>log`) may reach a bot, a guard or a sibling it execs (`bot::descriptors`).
    // Best effort: every sandboxed child marks them again before its exec.
    let inherited = arena::bot::cloexec_inherited();
    // The guard of another arena process (see `bot::guard`): not a user command.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(arena::bot::GUARD_COMMAND) {
        if let Some(pid) = args.next().and_then(|p| p.parse().ok()) {
            arena::bot::run_guard(pid);
        }
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse(); // exits with code 2 on a bad command line
    match &cli.command {
        Command::Serve { args } => return exec_sibling("serve", "arena-server", args),
        Command::Worker { args } => return exec_sibling("worker", "arena-worker", args),
        _ => {}
    }
    init_tracing(cli.verbose);
    if let Err(e) = inherited {
        tracing::warn!("cannot mark inherited descriptors close-on-exec: {e}");
    }
    // Orphaned grandchildren of bots are reparented to the arena and reaped with the bot, so
    // a killed bot never leaves a zombie behind (some init processes never reap).
    if let Err(e) = arena::bot::set_child_subreaper() {
        tracing::debug!("cannot become a child subreaper: {e}");
    }
    // Bots of an arena that was killed (SIGKILL, power cut) may still run in its cgroups.
    arena::bot::reap_stale();
    // And if this arena is killed, its guard kills what its bots leave running.
    if matches!(
        cli.command,
        Command::Match(_)
            | Command::Tournament { .. }
            | Command::Play(_)
            | Command::CheckBot { .. }
    ) {
        arena::bot::spawn_guard();
    }
    // One match is one referee task plus idle stderr drains: a current-thread runtime serves
    // it with one thread and no cross-thread wake-ups (~8% fewer instructions per decision
    // than a multi-thread one; BENCHMARKS.md). Tournaments run matches in parallel, and
    // `play` blocks a thread on the terminal, so they keep the multi-thread runtime.
    let mut builder = match cli.command {
        Command::Match(_) => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    let runtime = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprint_line(&format!("arena: cannot start the async runtime: {e}"));
            return ExitCode::from(ExitKind::Failure.code());
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (e.g. `arena ... | head`) is not an error worth a message.
            if e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            let kind = e
                .downcast_ref::<Exit>()
                .map(|exit| exit.kind)
                .unwrap_or(ExitKind::Failure);
            eprint_line(&format!("arena: error: {}", error_text(&e)));
            ExitCode::from(kind.code())
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Compare {
            game,
            sequence_order,
        } => {
            let stdin = io::stdin().lock();
            let bad = arena::compare::run(game, sequence_order, stdin, io::stdout().lock())?;
            if bad > 0 {
                eprint_line(&format!(
                    "arena compare: {bad} bad line(s); see the error lines"
                ));
                return Ok(ExitCode::from(ExitKind::BadLines.code()));
            }
        }
        Command::Match(args) => arena::cmd_match::run(args).await?,
        Command::Replay { command } => match command {
            ReplayCommand::Verify { file } => {
                let records = arena::replay::read(&file)?;
                let verified = arena::replay::verify(&records)
                    .with_context(|| format!("{} does not re-simulate", file.display()))?;
                arena::output::print(&format!(
                    "{}: OK ({} hands, {} actions, {} events re-simulated)\n",
                    file.display(),
                    verified.hands,
                    verified.actions,
                    verified.events
                ))?;
            }
            ReplayCommand::Show { file } => {
                let records = arena::replay::read(&file)?;
                arena::output::print(&arena::replay::show(&records))?;
            }
            ReplayCommand::Html { file, out } => arena::html::cmd_replay_html(&file, &out)?,
        },
        Command::Tournament {
            file,
            jobs,
            out,
            resume: _,
            shard,
            quiet,
            affinity,
            max_log_kb,
            watch,
        } => {
            arena::cmd_tournament::tournament(
                &file,
                jobs,
                out,
                shard,
                arena::cmd_tournament::RunFlags {
                    quiet,
                    affinity,
                    max_log_kb,
                    watch: watch.options(),
                },
            )
            .await?
        }
        Command::Play(args) => arena::cmd_play::run(args).await?,
        Command::CheckBot {
            game,
            startup_ms,
            decision_ms,
            json,
            logs,
            sandbox,
            command,
        } => {
            let time = protocol::TimeLimits {
                startup_ms,
                decision_ms,
                bank_ms: 0,
            };
            let options = arena::cmd_check_bot::Options {
                time,
                json,
                logs: logs.as_deref(),
                sandbox: arena::cli::sandbox_level(sandbox),
            };
            arena::cmd_check_bot::run(game, &command, options).await?
        }
        Command::Pack(args) => arena::pack::run(&args)?,
        Command::Standings { dir } => arena::cmd_tournament::show_standings(&dir)?,
        Command::Report { dir, out, replays } => arena::html::cmd_report(&dir, &out, replays)?,
        Command::Merge { dirs, out, partial } => {
            arena::cmd_tournament::merge(&dirs, &out, partial)?
        }
        // Handled in `main`, before any runtime: the process becomes the server.
        Command::Serve { .. } | Command::Worker { .. } => {
            unreachable!("arena serve and arena worker exec their programs")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The error and its causes, `: `-separated like `{:#}`, but a cause whose text the message
/// already holds (compared case-insensitively) is left out: many errors put their source in their own message (thiserror's
/// `{source}`), and `{:#}` would then say it twice (`...: Permission denied (os error 13):
/// Permission denied (os error 13)`).
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        // An IO error follows a message that names the file: `not a directory`, not
        // `Not a directory (os error 20)`.
        let part = match cause.downcast_ref::<io::Error>() {
            Some(io) => arena::output::io_reason(io),
            None => cause.to_string(),
        };
        if text.to_lowercase().contains(&part.to_lowercase()) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(io::stderr().is_terminal())
        .init();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error that says its source in its own message, as thiserror's `{source}` does.
    #[derive(Debug)]
    struct Says(io::Error);

    impl std::fmt::Display for Says {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot write /x/y: {}", self.0)
        }
    }

    impl std::error::Error for Says {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_cause_already_in_the_message_is_said_once() {
        let e = anyhow::Error::new(Says(io::Error::other("disk on fire"))).context("saving");
        assert_eq!(error_text(&e), "saving: cannot write /x/y: disk on fire");
        let e = anyhow::Error::new(io::Error::other("gone")).context("reading /a");
        assert_eq!(error_text(&e), "reading /a: gone");
    }
}
