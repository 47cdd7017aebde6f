//! `arena check-bot [--game V] [--logs DIR] [--sandbox LEVEL] -- CMD...`

use std::path::PathBuf;

use anyhow::Context;
use arena::bot_command::{self, PathBase, SpecInput};
use arena::check_bot::{Check, Outcome, render, run_all, scenarios};
use arena::console::exit::{Exit, ExitKind};
use clap::Args;
use protocol::{TimeLimits, Variant};

use super::shared_args::{SandboxArg, at_least_one, sandbox_level, variant_parser};

#[derive(Args, Debug)]
pub struct CheckBotArgs {
    /// Check only this game (default: all three).
    #[arg(long, value_parser = variant_parser())]
    pub game: Option<Variant>,
    /// Time for the bot to start and answer hello (ms).
    #[arg(long, default_value_t = 5000, value_parser = at_least_one::<u64>)]
    pub startup_ms: u64,
    /// Time for each decision (ms); there is no time bank.
    #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
    pub decision_ms: u64,
    /// Print the checks as JSON.
    #[arg(long)]
    pub json: bool,
    /// Keep the bot's stderr log of each scenario in this directory
    /// (`01-classic-blind-and-seen-bets-see-show.stderr.log`, ...; default: discarded).
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    /// Isolation, as for `arena match` (default: the strongest this machine supports);
    /// `none` tells a sandbox problem from a bot's own.
    #[arg(long, value_name = "LEVEL")]
    pub sandbox: Option<SandboxArg>,
    /// The bot's command, after `--`: `arena check-bot -- python3 my_bot.py`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

pub async fn run(args: CheckBotArgs) -> anyhow::Result<()> {
    let CheckBotArgs {
        game,
        startup_ms,
        decision_ms,
        json,
        logs,
        sandbox,
        command,
    } = args;
    let time = TimeLimits {
        startup_ms,
        decision_ms,
        bank_ms: 0,
    };
    let sandbox = sandbox_level(sandbox);
    let logs = logs.as_deref();
    let command = &command[..];
    let cwd = std::env::current_dir()?;
    let argv = bot_command::absolutize(command, &cwd);
    let work = tempfile::Builder::new()
        .prefix("arena-check-bot-")
        .tempdir()?;
    let name = bot_command::default_name(&argv);
    let log_dir = match logs {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create log directory {}", dir.display()))?;
            dir.to_path_buf()
        }
        None => work.path().join("logs"),
    };
    let mut checks = run_all(&scenarios(game), time, |i, scenario| {
        let mut spec = bot_command::spec(SpecInput {
            name: &name,
            argv: argv.clone(),
            workdir: work.path().join(format!("scenario{i}")),
            log_dir: work.path(),
            seat: scenario.bot_seat,
            sandbox,
            limits: bot_command::DEFAULT_LIMITS,
        });
        spec.stderr_log = log_dir.join(log_name(i, &scenario.name));
        spec
    })
    .await;
    let failed_handshake = |c: &Check| c.name == "handshake" && c.outcome == Outcome::Fail;
    if checks.iter().any(failed_handshake)
        && let Some(note) = bot_command::missing_file_note(command, &PathBase::current_dir(&cwd))
    {
        for c in checks.iter_mut().filter(|c| failed_handshake(c)) {
            c.note = Some(note.clone());
        }
    }
    let text = if json {
        format!("{}\n", serde_json::to_string_pretty(&checks)?)
    } else {
        let mut text = render(&command.join(" "), &checks);
        if let Some(dir) = logs {
            text.push_str(&format!(
                "the bot's stderr, per scenario: {}\n",
                dir.display()
            ));
        }
        text
    };
    // The verdict is the exit code, which scripts read even when they read only the first
    // line (`| head -1`): a closed stdout does not turn a failure into a success.
    let printed = arena::console::output::print(&text);
    if checks.iter().any(|c| c.outcome == Outcome::Fail) {
        return Err(Exit::new(
            ExitKind::ChecksFailed,
            "some checks failed (see above)".into(),
        )
        .into());
    }
    printed?;
    Ok(())
}

/// `01-classic-blind-and-seen-bets-see-show.stderr.log`: the scenario's number and its name
/// in file-name characters.
fn log_name(index: usize, scenario: &str) -> String {
    let mut slug = String::new();
    for c in scenario.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.trim_matches('-').chars().take(60).collect();
    format!("{:02}-{slug}.stderr.log", index + 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn log_names_come_from_the_scenario() {
        assert_eq!(
            super::log_name(0, "classic: blind and seen bets, see, show"),
            "01-classic-blind-and-seen-bets-see-show.stderr.log"
        );
        assert_eq!(
            super::log_name(
                11,
                "lallan-kallan: every hand dead, redeal; a lone survivor"
            ),
            "12-lallan-kallan-every-hand-dead-redeal-a-lone-survivor.stderr.log"
        );
    }
}
