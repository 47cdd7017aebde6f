//! The checker's side of the decision loop in `check-bot`: the house plays the other seats by
//! its script, and each of the bot's decisions is checked as it is made. A failed decision
//! becomes a named check; the bot is asked again at its next one, unless every later check
//! would only repeat the failure (the bot is gone, or it writes text on stdout).

use std::collections::BTreeMap;

use protocol::{Action, ArenaMessage, DecisionKind, FaultKind, FaultNotice, Request, TimeLimits};
use rules::Hand;

use super::run::{Check, Outcome, Stop};
use super::scenarios::Scenario;
use crate::referee::{AfterFault, BotAnswer, Connection, SeatFault, Table, fallback};

/// One scenario's table: the bot in its seat, the house in the others.
pub(super) struct CheckerTable<'a> {
    pub scenario: &'a Scenario,
    pub time: TimeLimits,
    pub connection: Connection,
    pub checks: Vec<Check>,
    /// Decisions answered correctly, per kind: (count, slowest ms).
    pub answered: BTreeMap<DecisionKind, (u32, u128)>,
    /// Kinds with a failed decision: their "answered" line would read as a pass.
    pub failed: Vec<DecisionKind>,
    /// Set when the bot wrote text on stdout: the later scenarios would repeat it.
    pub stop_all: Option<Stop>,
    /// The check that a broken connection failed: it gets the end of the bot's stderr.
    pub broken: Option<usize>,
    /// Why the bot stopped working, if it did: the checks it never reached say so.
    pub stopped: Option<String>,
}

impl Table for CheckerTable<'_> {
    type Error = std::convert::Infallible;

    fn bot(&mut self, seat: usize) -> Option<&mut Connection> {
        (seat == self.scenario.bot_seat).then_some(&mut self.connection)
    }

    /// The house's scripted play.
    async fn act_without_bot(
        &mut self,
        hand: &Hand,
        _seat: usize,
        _kind: DecisionKind,
    ) -> Result<Action, Self::Error> {
        Ok(self
            .scenario
            .house
            .act(&hand.legal(), self.scenario.bot_seat))
    }

    async fn acted(
        &mut self,
        _hand_index: u64,
        _seat: usize,
        kind: DecisionKind,
        _action: Action,
        answer: Option<BotAnswer>,
    ) -> Result<(), Self::Error> {
        if let Some(answer) = answer {
            let entry = self.answered.entry(kind).or_default();
            entry.0 += 1;
            entry.1 = entry.1.max(answer.elapsed.as_millis());
        }
        Ok(())
    }

    async fn faulted(
        &mut self,
        _seat: usize,
        kind: DecisionKind,
        request: &Request,
        fault: SeatFault,
    ) -> Result<AfterFault, Self::Error> {
        self.failed.push(kind);
        // "hand 1" as people count; the id as the bot reads it in the request.
        let name = format!(
            "{} decision (hand {}, \"id\":{})",
            kind.name(),
            request.hand + 1,
            request.id
        );
        // Where a message quotes the request, its own numbers too.
        let at = format!(
            "hand {} (the request with \"id\":{}, \"hand\":{})",
            request.hand + 1,
            request.id,
            request.hand
        );
        let legal = protocol::explain::legal_set(&request.legal);
        let expected = match fault.kind {
            FaultKind::Timeout => format!("an answer within {} ms", self.time.decision_ms),
            FaultKind::WrongId => format!("\"id\":{}", request.id),
            // An answer to this request, whose action is not in the legal set.
            FaultKind::Illegal => format!("\"id\":{} and one of: {legal}", request.id),
            _ => format!(
                "one JSON line with \"id\":{} and one of: {legal}",
                request.id
            ),
        };
        let detail = match fault.kind {
            // The connection's words count a time bank; check-bot gives none.
            FaultKind::Timeout => format!(
                "no answer within {} ms, the time for one decision (--decision-ms; check-bot \
                 has no time bank); a late answer with \"id\":{} is dropped",
                self.time.decision_ms, request.id
            ),
            _ => fault.detail.clone(),
        };
        let mut check = Check::new(
            &self.scenario.name,
            &name,
            Outcome::Fail,
            format!("{} fault: {detail}", fault.kind),
        );
        check.sent = fault.line.clone();
        check.expected = Some(expected);
        let text = super::stdout_text::is_text_on_stdout(&fault);
        if text {
            check.note = Some(super::stdout_text::HINT.to_string());
        }
        self.checks.push(check);
        if fault.broken {
            self.broken = Some(self.checks.len() - 1);
            self.stopped = Some(format!(
                "not reached: the bot was stopped after a {} fault at {at}",
                fault.kind
            ));
            return Ok(AfterFault::StopTheHand);
        }
        if text {
            // Its real answer comes next and would be read as the answer to the next request:
            // every later check would fail for this line.
            self.stopped = Some(format!(
                "not checked: the checks stopped at {at}, where the bot wrote text on stdout"
            ));
            self.stop_all = Some(Stop::TextOnStdout);
            return Ok(AfterFault::StopTheHand);
        }
        // As a match tells it (PROTOCOL.md, `fault`): a bot that mishandles the notice fails
        // here, not first in a match.
        self.connection.queue(&ArenaMessage::Fault(FaultNotice {
            id: Some(request.id),
            fault: fault.kind,
            detail: fault.detail.clone(),
            applied: Some(fallback(kind)),
        }));
        Ok(AfterFault::AskAgain)
    }
}
