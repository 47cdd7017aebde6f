//! `arena check-bot`: a conformance check a student runs before submitting a bot.
//!
//! The bot plays fixed situations covering every decision kind of every variant (bets, see,
//! shows, sideshow requests and replies, 555 swaps, dead hands, a redeal) against the
//! checker; every answer must come in time, carry the request's id and be legal, and the bot
//! must exit when told. The report names each check by the protocol's words (`bet`,
//! `sideshow_reply`); a failure shows the exact line the bot sent and what was expected, and a
//! check that could not be played says why (the bot's own choices, or the bot had stopped).

mod run;
mod scenarios;

pub use run::{Check, Outcome, run_scenario};
pub use scenarios::{Scenario, scenarios};

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
            out.push_str(&crate::bot::stderr_block(Some(stderr), "        "));
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
    // Each kind of "not played" says its own cause: the bot's choices, or the bot stopping.
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
            ", {} skipped (the bot had stopped working: see the failure before them)",
            count(Outcome::Skipped)
        );
    }
    out.push('\n');
    out
}
