//! What a table brings to the decision loop ([`super::DecisionLoop`]): a match, `arena play`
//! and `check-bot` ask bots, check and apply their answers the same way; they differ in who
//! plays the seats without a bot, what they keep of each event, action and fault, and whether
//! a fault ends the bot's part in the hand.

use std::time::Duration;

use protocol::{Action, DecisionKind, MixEntry, Request};
use rules::{Event, Hand};

use super::connection::{Connection, SeatFault};

/// The side of the decision loop that differs between its users. The loop calls these in the
/// order of the hand: an action, then its events; a fault, then the arena's action for it.
///
/// Async methods in a crate-private trait: whether the loop's future is `Send` is inferred from
/// each table (the server runs check-bot in spawned tasks, which must be), where a public
/// trait would have to promise it for every implementation.
pub(crate) trait Table {
    /// Why the table cannot go on (a replay that cannot be written, a closed terminal).
    type Error;

    /// The running bot at `seat`, if the loop is to ask one: its requests, and every seat's
    /// view of the events.
    fn bot(&mut self, seat: usize) -> Option<&mut Connection>;

    /// Each event whole, before the bots get their views of it: a match writes its replay, the
    /// terminal shows the person's view.
    async fn see_event(&mut self, _hand_index: u64, _event: &Event) -> Result<(), Self::Error> {
        Ok(())
    }

    /// The action of a seat with no bot: the arena's fallback in a match, the person at the
    /// terminal, the house's scripted play in `check-bot`. It must be legal.
    async fn act_without_bot(
        &mut self,
        hand: &Hand,
        seat: usize,
        kind: DecisionKind,
    ) -> Result<Action, Self::Error>;

    /// A bot's answer arrived in time, before it is checked: a match counts the decision and
    /// its time whether or not the answer is then refused.
    fn answer_arrived(&mut self, _seat: usize, _elapsed: Duration) {}

    /// An action was applied to the hand; its events follow. `answer` is the bot's, when a bot
    /// chose it (`None`: the arena's fallback or a seat without a bot).
    async fn acted(
        &mut self,
        _hand_index: u64,
        _seat: usize,
        _kind: DecisionKind,
        _action: Action,
        _answer: Option<BotAnswer>,
    ) -> Result<(), Self::Error> {
        Ok(())
    }

    /// The bot's decision for `request` failed: no answer in time, a broken line, an illegal
    /// action. A table that wants the broken connection closed closes it here. Unless this
    /// stops the hand, the arena's fallback is played for the bot next.
    async fn faulted(
        &mut self,
        seat: usize,
        kind: DecisionKind,
        request: &Request,
        fault: SeatFault,
    ) -> Result<AfterFault, Self::Error>;
}

/// A bot's legal answer, as it was applied.
pub(crate) struct BotAnswer {
    /// The mix the action was drawn from, if the bot answered with one.
    pub mix: Option<Vec<MixEntry>>,
    pub elapsed: Duration,
    /// What was left of the bot's time bank after it.
    pub bank: Duration,
}

/// What happens to a seat whose bot's decision faulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterFault {
    /// The arena plays the seat until the hand ends, as in a match: one fault costs the bot
    /// the hand, not a cascade of timeouts.
    ArenaPlaysTheHand,
    /// The bot is asked again at its next decision: `check-bot` checks every decision it can.
    AskAgain,
    /// The hand ends here, unfinished: every later decision would repeat this failure.
    StopTheHand,
}

/// How a hand given to the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandEnd {
    /// Played to the end: its payoffs are known.
    Over,
    /// Stopped by [`AfterFault::StopTheHand`].
    Stopped,
}
