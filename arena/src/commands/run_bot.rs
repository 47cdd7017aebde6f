//! `arena run-bot [--sandbox LEVEL] [limits] [--grace-ms MS] -- CMD...`: one bot, started
//! as a match starts it, its lines relayed through the arena's own stdin and stdout and its
//! stderr passed on (`arena::relay`). How `teenpatti.Subprocess` runs a bot in the sandbox.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use arena::bot_command::{self, PathBase, SpecInput};
use arena::console::exit::{Exit, ExitKind};
use arena::console::output::eprint_line;
use clap::Args;
use tokio_util::sync::CancellationToken;

use super::shared_args::SandboxArgs;

#[derive(Args, Debug)]
pub struct RunBotArgs {
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// When the arena's stdin closes (or its stdout's reader goes), the bot's stdin is closed
    /// and it has this long to exit on its own (ms); then it and everything it started are
    /// killed (exit code 137).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub grace_ms: u64,
    /// The bot's command, after `--`: `arena run-bot -- python3 my_bot.py`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

pub async fn run(args: RunBotArgs) -> anyhow::Result<ExitCode> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    if let Some(problem) =
        bot_command::missing_path(&args.command[..1], &PathBase::current_dir(&cwd))
    {
        return Err(Exit::new(ExitKind::Failure, problem).into());
    }
    let argv = bot_command::absolutize(&args.command, &cwd);
    let work = tempfile::Builder::new()
        .prefix("arena-run-bot-")
        .tempdir()
        .context("cannot create a working directory")?;
    let name = bot_command::default_name(&argv);
    let mut spec = bot_command::spec(SpecInput {
        name: &name,
        argv,
        workdir: work.path().join("bot"),
        log_dir: work.path(),
        seat: 0,
        sandbox: args.sandbox.level(),
        limits: args.sandbox.limits(),
    });
    // The arena's directory for the bot (its stderr log beside its own folder) is hidden
    // from it under bwrap, as a match's is.
    spec.hidden = vec![work.path().to_path_buf()];
    // Its stderr is passed on whole: the log beside it needs nothing.
    spec.stderr_keep_bytes = 0;
    let cancel = CancellationToken::new();
    // Quietly: this stderr is the bot's.
    arena::console::signals::cancel_quietly_on_signal(cancel.clone());
    let outcome = arena::relay::run(&spec, Duration::from_millis(args.grace_ms), &cancel).await?;
    if let Some(message) = outcome.message() {
        eprint_line(&format!("arena run-bot: {message}"));
    }
    Ok(ExitCode::from(outcome.code()))
}
