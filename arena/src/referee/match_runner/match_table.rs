//! A match's side of the decision loop: every decision goes into the replay (actions with
//! their timing, mix and stderr lines; faults, with the notice the bot is sent), the events
//! too, and each seat's counts into the result.

use std::time::Duration;

use protocol::{Action, DecisionKind, Request};
use rules::{Event, Hand};

use super::{MatchError, Referee};
use crate::referee::connection::{Connection, SeatFault};
use crate::referee::decision_loop::fallback;
use crate::referee::table::{AfterFault, BotAnswer, Table};
use crate::replay::{ActionSource, Record};

impl Table for Referee<'_> {
    type Error = MatchError;

    fn bot(&mut self, seat: usize) -> Option<&mut Connection> {
        self.seats[seat].connection.as_mut()
    }

    /// Records the event whole (after the pause of a paced match: no bot has a request then,
    /// so no bot's clock runs).
    async fn see_event(&mut self, hand_index: u64, event: &Event) -> Result<(), MatchError> {
        if let Some(pace) = &mut self.pace {
            pace.wait().await;
        }
        self.replay.write_event(hand_index, event)?;
        Ok(())
    }

    async fn act_without_bot(
        &mut self,
        _hand: &Hand,
        _seat: usize,
        kind: DecisionKind,
    ) -> Result<Action, MatchError> {
        Ok(fallback(kind))
    }

    fn answer_arrived(&mut self, seat: usize, elapsed: Duration) {
        let result = &mut self.seats[seat].result;
        result.decisions += 1;
        result.decision_ms += elapsed.as_millis() as u64;
    }

    async fn acted(
        &mut self,
        hand_index: u64,
        seat: usize,
        kind: DecisionKind,
        action: Action,
        answer: Option<BotAnswer>,
    ) -> Result<(), MatchError> {
        let (source, elapsed_ms, bank_ms, mix, lines) = match answer {
            Some(answer) => (
                ActionSource::Bot,
                Some(answer.elapsed.as_millis() as u64),
                Some(answer.bank.as_millis() as u64),
                answer.mix,
                self.decision_lines(seat).await,
            ),
            None => (
                ActionSource::Arena,
                None,
                None,
                None,
                std::mem::take(&mut self.seats[seat].faulted_lines),
            ),
        };
        self.replay.write(&Record::Action {
            hand: hand_index,
            seat,
            kind,
            action,
            source,
            elapsed_ms,
            bank_ms,
            mix,
            stderr_lines: lines.lines,
            stderr_dropped: lines.dropped,
        })?;
        Ok(())
    }

    async fn faulted(
        &mut self,
        seat: usize,
        kind: DecisionKind,
        request: &Request,
        fault: SeatFault,
    ) -> Result<AfterFault, MatchError> {
        self.fault(request.hand, seat, Some(request.id), kind, fault)
            .await?;
        // After `fault`, which closes a broken connection: a crashed bot's last lines are all
        // in. The arena's action for the bot carries them.
        self.seats[seat].faulted_lines = self.decision_lines(seat).await;
        Ok(AfterFault::ArenaPlaysTheHand)
    }
}
