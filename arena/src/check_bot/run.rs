//! Plays each scenario with the bot in one seat and the checker in the others, and records a
//! check for everything the bot must get right.
//!
//! Hands are named as people count them (hand 1 is the request's `"hand":0`), requests by
//! the `"id"` the bot sees in them.

use std::collections::BTreeMap;
use std::time::Duration;

use protocol::{ArenaMessage, DecisionKind, Hello, MatchEnd, PROTOCOL_VERSION, TimeLimits};
use sandbox::BotSpec;

use super::checker_table::CheckerTable;
use super::scenarios::Scenario;
use crate::referee::mix_draw::MixDraws;
use crate::referee::{Connection, DecisionLoop, HandEnd};

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail,
    /// The situation did not arise (the bot's own choices avoided it); not a failure.
    NotReached,
    /// The situation could not be checked after an earlier failure in the scenario (the bot
    /// crashed or wrote text on stdout, or the arena's answers for failed decisions steered
    /// the hands away from it); that failure is reported on its own.
    Skipped,
}

/// One named check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Check {
    pub scenario: String,
    pub name: String,
    pub outcome: Outcome,
    pub detail: String,
    /// For a failure: the exact line the bot sent, if it sent one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<String>,
    /// For a failure: what was expected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// For a failure that ended the bot's process (it did not start, crashed, or exited
    /// badly): the last lines of its stderr, if it wrote any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// A likely cause, when the arena sees one (a script missing from the current
    /// directory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Check {
    /// A check with its outcome in words; what was sent and expected, the stderr and a note
    /// are added where there are some.
    pub fn new(scenario: &str, name: &str, outcome: Outcome, detail: String) -> Check {
        Check {
            scenario: scenario.to_string(),
            name: name.to_string(),
            outcome,
            detail,
            sent: None,
            expected: None,
            stderr: None,
            note: None,
        }
    }
}

/// What one scenario gave: its checks, and whether every later scenario would only repeat its
/// failure.
pub struct ScenarioRun {
    pub checks: Vec<Check>,
    pub stop: Option<Stop>,
}

/// A failure that every scenario would repeat, so the checker stops at the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The bot did not start or failed its handshake.
    NoStart,
    /// The bot wrote text that is not JSON on its stdout (see [`super::stdout_text`]).
    TextOnStdout,
}

/// Runs one scenario against a fresh process of the bot. Within a scenario the checks that
/// passed come first, then the failures, then what could not be checked: a scenario never
/// shows a pass after a failure, and a kind of decision that failed once gets no "answered"
/// pass at all.
pub async fn run_scenario(spec: &BotSpec, scenario: &Scenario, time: TimeLimits) -> ScenarioRun {
    let mut run = play_scenario(spec, scenario, time).await;
    let order = |c: &Check| match c.outcome {
        Outcome::Pass => 0,
        Outcome::NotReached => 1,
        Outcome::Fail => 2,
        Outcome::Skipped => 3,
    };
    run.checks.sort_by_key(order); // stable: each group keeps the order it happened in
    run
}

async fn play_scenario(spec: &BotSpec, scenario: &Scenario, time: TimeLimits) -> ScenarioRun {
    let mut checks = Vec::new();
    let done = |checks, stop| ScenarioRun { checks, stop };
    let check = |name: &str, outcome, detail| Check::new(&scenario.name, name, outcome, detail);
    let seats = scenario.seats;
    let hello = Hello {
        protocol: PROTOCOL_VERSION,
        game: scenario.settings.variant,
        settings: scenario.settings,
        seat: scenario.bot_seat,
        seats,
        hands: scenario.hands.len() as u64,
        first_hand: 0,
        seed: 7,
        players: (0..seats)
            .map(|s| {
                if s == scenario.bot_seat {
                    spec.name.clone()
                } else {
                    format!("checker-{s}")
                }
            })
            .collect(),
        time,
    };
    let connection = match Connection::start(spec, &hello, None, None).await {
        Ok(c) => {
            checks.push(check(
                "handshake",
                Outcome::Pass,
                format!(
                    "answered hello in {} ms: {}",
                    c.startup.as_millis(),
                    describe_hello(&c.hello)
                ),
            ));
            c
        }
        Err(Ok(spawn)) => {
            checks.push(check("handshake", Outcome::Fail, spawn.to_string()));
            return done(checks, Some(Stop::NoStart));
        }
        Err(Err(fault)) => {
            let mut c = check("handshake", Outcome::Fail, fault.detail.clone());
            c.sent = fault.line.clone();
            c.stderr = fault.stderr.clone();
            c.expected = Some(format!(
                "within {} ms, a line like {{\"type\":\"hello\",\"name\":\"my-bot\",\"version\":\"1.0\",\"protocol\":{PROTOCOL_VERSION}}}",
                time.startup_ms
            ));
            checks.push(c);
            return done(checks, Some(Stop::NoStart));
        }
    };
    let mut table = CheckerTable {
        scenario,
        time,
        connection,
        checks,
        answered: BTreeMap::new(),
        failed: Vec::new(),
        stop_all: None,
        broken: None,
        stopped: None,
    };
    // The draws of the bot's mixed answers (a check is not a match: any fixed key will do).
    let draws = (0..seats)
        .map(|seat| MixDraws::new(hello.seed, seat, None))
        .collect();
    let mut decisions = DecisionLoop::new(time.decision_ms, draws);
    for index in 0..scenario.hands.len() {
        let (mut hand, events) = scenario.start_hand(index);
        let Ok(end) = decisions
            .play_hand(&mut table, &mut hand, index as u64, &events)
            .await;
        if end == HandEnd::Stopped {
            break;
        }
    }
    let CheckerTable {
        mut connection,
        mut checks,
        answered,
        failed,
        stop_all,
        broken,
        stopped,
        ..
    } = table;
    for kind in [
        DecisionKind::Swap,
        DecisionKind::Bet,
        DecisionKind::SideshowReply,
    ] {
        let name = format!("{} decisions", kind.name());
        match answered.get(&kind) {
            Some(_) if failed.contains(&kind) => {} // its failures say it; no pass beside them
            Some((n, slowest)) => checks.push(check(
                &name,
                Outcome::Pass,
                format!("{n} answered with the right id and a legal action (slowest {slowest} ms)"),
            )),
            // Every decision asked was answered or failed: not failed here means not asked.
            None if scenario.meant_for.contains(&kind) && !failed.contains(&kind) => {
                checks.push(match &stopped {
                    Some(why) => check(&name, Outcome::Skipped, why.clone()),
                    // Not the bot's choice: the arena's stand-in answers steered the hands.
                    None if !failed.is_empty() => check(
                        &name,
                        Outcome::Skipped,
                        "not reached: the arena answered the failed decisions above for the bot \
                         (pack, keep, refuse), which avoided this situation"
                            .into(),
                    ),
                    None => check(
                        &name,
                        Outcome::NotReached,
                        "not reached: the bot's own choices (e.g. packing early) avoided this situation".into(),
                    ),
                })
            }
            None => {}
        }
    }
    if let Some(why) = stopped {
        checks.push(check("exits when told", Outcome::Skipped, why));
        let exit = connection.close(Duration::ZERO).await;
        if let Some(failed) = broken {
            checks[failed].stderr = exit.stderr.excerpt();
        }
        return done(checks, stop_all);
    }
    connection.queue(&ArenaMessage::MatchEnd(MatchEnd {
        hands: scenario.hands.len() as u64,
        totals: vec![0; seats],
    }));
    let exit = connection.close(Duration::from_secs(2)).await;
    if !exit.killed_by_arena && exit.code == Some(0) {
        checks.push(check(
            "exits when told",
            Outcome::Pass,
            "exited with status 0 after match_end".into(),
        ));
    } else {
        let mut c = check(
            "exits when told",
            Outcome::Fail,
            match (exit.killed_by_arena, exit.code, exit.signal) {
                (true, _, _) => "still running 2 s after match_end; it was killed".to_string(),
                (_, Some(code), _) => format!("exited with status {code}"),
                (_, _, Some(signal)) => format!("died of signal {signal}"),
                _ => "unknown exit".to_string(),
            },
        );
        c.expected = Some("exit with status 0 within 2 s of match_end".into());
        c.stderr = exit.stderr.excerpt();
        checks.push(c);
    }
    done(checks, None)
}

/// The fields of a bot's hello as it sent them: `"name":"my-bot", "version":"1.0", "protocol":1`.
fn describe_hello(hello: &protocol::BotHello) -> String {
    let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut out = format!("\"name\":{}", quote(&hello.name));
    if !hello.version.is_empty() {
        out.push_str(&format!(", \"version\":{}", quote(&hello.version)));
    }
    match hello.protocol {
        Some(protocol) => out.push_str(&format!(", \"protocol\":{protocol}")),
        None => out.push_str(&format!(" (no \"protocol\": {PROTOCOL_VERSION} assumed)")),
    }
    out
}
