//! What a process that starts bots does first, as the `arena` binary does: become the child
//! subreaper (orphans of bots are reaped, never left as zombies), kill what bots of a killed
//! earlier run left in their cgroups, and start the guard that kills this process's bots if
//! it is itself killed (SIGKILL, the OOM killer): no bot outlives its match.

/// When this process was started as the guard of another (the guard re-runs the current
/// executable with a hidden argument): runs it and returns true; the caller then exits.
pub fn run_as_guard() -> bool {
    let mut args = std::env::args();
    if args.nth(1).as_deref() != Some(sandbox::GUARD_COMMAND) {
        return false;
    }
    if let Some(pid) = args.next().and_then(|p| p.parse().ok()) {
        sandbox::run_guard(pid);
    }
    true
}

/// Call once at start, before any bot or build runs.
pub fn prepare_for_bots() {
    // Before the guard and any build or bot is started: what this server inherited (an
    // open directory, a log file, a supervisor's pipe) must reach none of them.
    if let Err(e) = sandbox::cloexec_inherited() {
        tracing::warn!("cannot mark inherited descriptors close-on-exec: {e}");
    }
    if let Err(e) = sandbox::set_child_subreaper() {
        tracing::debug!("cannot become a child subreaper: {e}");
    }
    sandbox::reap_stale();
    sandbox::spawn_guard();
}

/// Logs to stderr, `RUST_LOG` or `info` (both binaries). Coloured only on a terminal: a
/// server's log usually goes to a file or a supervisor's pipe, where escape codes are noise
/// in every line (`NO_COLOR` turns colour off on a terminal too).
pub fn init_tracing() {
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .init();
}

/// The exit code for a failed run: 2 for a bad contest file (as the arena exits for bad
/// input), 1 for anything else; the error is printed first, after `program: `.
pub fn exit_code(program: &str, error: &anyhow::Error) -> std::process::ExitCode {
    eprintln!("{program}: {error:#}");
    if error
        .downcast_ref::<arena::tournament::ConfigError>()
        .is_some()
    {
        std::process::ExitCode::from(2)
    } else {
        std::process::ExitCode::from(1)
    }
}
