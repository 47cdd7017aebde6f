//! `arena check-bot`: a conformance check a student runs before submitting a bot.
//!
//! The bot plays fixed situations covering every decision kind of every variant (bets, see,
//! shows, sideshow requests and replies, 555 swaps, dead hands, a redeal) against the
//! checker; every answer must come in time, carry the request's id and be legal, and the bot
//! must exit when told. The report names each check by the protocol's words (`bet`,
//! `sideshow_reply`); a failure shows the exact line the bot sent and what was expected, and a
//! check that could not be played says why (the bot's own choices, or an earlier failure).

mod checker_table;
mod run;
mod scenarios;
pub(crate) mod stdout_text;

use protocol::TimeLimits;
use sandbox::BotSpec;

pub use run::{Check, Outcome, ScenarioRun, Stop, run_scenario};
pub use scenarios::{Scenario, scenarios};

/// Runs `scenarios` in order, each against a fresh process of the bot (`spec_for` makes its
/// spec), and stops at a failure every later scenario would only repeat: the bot does not
/// start in the first one, or it writes text on stdout. One line then says what was not run.
pub async fn run_all(
    scenarios: &[Scenario],
    time: TimeLimits,
    mut spec_for: impl FnMut(usize, &Scenario) -> BotSpec,
) -> Vec<Check> {
    let mut checks = Vec::new();
    for (i, scenario) in scenarios.iter().enumerate() {
        let run = run_scenario(&spec_for(i, scenario), scenario, time).await;
        checks.extend(run.checks);
        let why = match run.stop {
            Some(Stop::NoStart) if i == 0 => "the bot did not start (see above)",
            Some(Stop::TextOnStdout) => {
                "the bot writes text that is not JSON on its stdout (see above); fix that first"
            }
            _ => continue,
        };
        let left = scenarios.len() - i - 1;
        if left > 0 {
            checks.push(Check {
                scenario: format!(
                    "the {} other scenario{}",
                    left,
                    if left == 1 { "" } else { "s" }
                ),
                name: "not run".into(),
                outcome: Outcome::Skipped,
                detail: why.into(),
                sent: None,
                expected: None,
                stderr: None,
                note: None,
            });
        }
        break;
    }
    checks
}

/// Renders the report as text.
pub fn render(command: &str, checks: &[Check]) -> String {
    use std::fmt::Write;
    let mut out = format!("check-bot: {command}\n");
    let mut scenario = "";
    for c in checks {
        if c.scenario != scenario {
            scenario = &c.scenario;
            let _ = writeln!(out, "\n{scenario}");
        }
        let mark = match c.outcome {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::NotReached => "----",
            Outcome::Skipped => "SKIP",
        };
        let _ = writeln!(out, "  {mark}  {:<34} {}", c.name, c.detail);
        if let Some(sent) = &c.sent {
            let _ = writeln!(out, "        sent:     {sent}");
        }
        if let Some(expected) = &c.expected {
            let _ = writeln!(out, "        expected: {expected}");
        }
        if let Some(stderr) = &c.stderr {
            out.push_str(&sandbox::stderr_block(Some(stderr), "        "));
        }
        if let Some(note) = &c.note {
            let _ = writeln!(out, "        note:     {note}");
        }
    }
    let count = |o| checks.iter().filter(|c| c.outcome == o).count();
    let _ = write!(
        out,
        "\n{} passed, {} failed",
        count(Outcome::Pass),
        count(Outcome::Fail)
    );
    // Each kind of "not played" says its own cause: the bot's choices, or an earlier failure.
    if count(Outcome::NotReached) > 0 {
        let _ = write!(
            out,
            ", {} not reached (the bot's own play avoided the situation; not a failure)",
            count(Outcome::NotReached)
        );
    }
    if count(Outcome::Skipped) > 0 {
        let _ = write!(
            out,
            ", {} skipped (not checked after an earlier failure: see the failure before them)",
            count(Outcome::Skipped)
        );
    }
    out.push('\n');
    out
}
