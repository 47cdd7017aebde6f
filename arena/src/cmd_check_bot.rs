//! `arena check-bot [--game V] -- CMD...`

use protocol::{TimeLimits, Variant};

use crate::bot_command::{self, SpecInput};
use crate::check_bot::{Outcome, render, run_scenario, scenarios};
use crate::exit::{Exit, ExitKind};

pub async fn run(
    game: Option<Variant>,
    command: &[String],
    time: TimeLimits,
    json: bool,
) -> anyhow::Result<()> {
    let cwd = std::env::current_dir()?;
    let argv = bot_command::absolutize(command, &cwd);
    let work = tempfile::Builder::new()
        .prefix("arena-check-bot-")
        .tempdir()?;
    let name = bot_command::default_name(&argv);
    let mut checks = Vec::new();
    for (i, scenario) in scenarios(game).iter().enumerate() {
        let spec = bot_command::spec(SpecInput {
            name: &name,
            argv: argv.clone(),
            workdir: work.path().join(format!("scenario{i}")),
            log_dir: work.path(),
            seat: scenario.bot_seat,
            sandbox: crate::bot::default_level(),
            limits: bot_command::DEFAULT_LIMITS,
        });
        let results = run_scenario(&spec, scenario, time).await;
        let cannot_start = results
            .iter()
            .any(|c| c.name == "handshake" && c.outcome == Outcome::Fail);
        checks.extend(results);
        if cannot_start && i == 0 {
            break; // the same failure would repeat for every scenario
        }
    }
    let text = if json {
        format!("{}\n", serde_json::to_string_pretty(&checks)?)
    } else {
        render(&command.join(" "), &checks)
    };
    // The verdict is the exit code, which scripts read even when they read only the first
    // line (`| head -1`): a closed stdout does not turn a failure into a success.
    let printed = crate::output::print(&text);
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
