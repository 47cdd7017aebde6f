//! `arena`: starts the command (`commands/`, one file per subcommand) and turns its errors
//! into messages and exit codes; the work is in the library.

// `println!` and `eprintln!` panic on a closed pipe (`arena ... | head`, or a stderr whose
// reader has gone, which once killed the signal task): write through `output` instead.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use arena::console::exit::{Exit, ExitKind};
use arena::console::output::eprint_line;
use clap::Parser;
use commands::{Cli, Command};

mod commands;

fn main() -> ExitCode {
    // Before anything is started: no descriptor this arena inherited (`flock DIR arena ...`,
    // a shell's `3>>log`) may reach a bot, a guard or a sibling it execs
    // (`sandbox::cloexec_inherited`). Best effort: every sandboxed child marks them again
    // before its exec.
    let inherited = sandbox::cloexec_inherited();
    // The guard of another arena process (see `sandbox::run_guard`): not a user command.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(sandbox::GUARD_COMMAND) {
        if let Some(pid) = args.next().and_then(|p| p.parse().ok()) {
            sandbox::run_guard(pid);
        }
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse(); // exits with code 2 on a bad command line
    match &cli.command {
        Command::Serve(passed) => {
            return commands::exec_sibling("serve", "arena-server", &passed.args);
        }
        Command::Worker(passed) => {
            return commands::exec_sibling("worker", "arena-worker", &passed.args);
        }
        _ => {}
    }
    init_tracing(cli.verbose);
    if let Err(e) = inherited {
        tracing::warn!("cannot mark inherited descriptors close-on-exec: {e}");
    }
    // Orphaned grandchildren of bots are reparented to the arena and reaped with the bot, so
    // a killed bot never leaves a zombie behind (some init processes never reap).
    if let Err(e) = sandbox::set_child_subreaper() {
        tracing::debug!("cannot become a child subreaper: {e}");
    }
    // Bots of an arena that was killed (SIGKILL, power cut) may still run in its cgroups.
    sandbox::reap_stale();
    // And if this arena is killed, its guard kills what its bots leave running.
    if cli.command.starts_bots() {
        sandbox::spawn_guard();
    }
    let runtime = match cli.command.runtime().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprint_line(&format!("arena: cannot start the async runtime: {e}"));
            return ExitCode::from(ExitKind::Failure.code());
        }
    };
    match runtime.block_on(commands::run(cli.command)) {
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
            Some(io) => arena::console::output::io_reason(io),
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
