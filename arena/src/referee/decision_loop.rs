//! The decision loop of a hand, one for a match, `arena play` and `check-bot`: ask the seat
//! that must decide, check the answer against the legal set, apply it, and give every bot its
//! view of the events. What differs between them is a [`Table`].
//!
//! A bot's answer is refused as a fault when it is late, broken or illegal; the arena then
//! plays [`fallback`] for it, so a hand always goes on (unless the table stops it).

use protocol::{Action, DecisionKind, Request};
use rules::{Event, Hand};

use super::connection::SeatFault;
use super::mix_draw::MixDraws;
use super::table::{AfterFault, BotAnswer, HandEnd, Table};

/// The loop's state across the hands of one game: request ids never repeat within it, and
/// each seat's mixed answers are drawn from one stream.
pub(crate) struct DecisionLoop {
    /// The time for one decision (ms), as every request states it.
    decision_ms: u64,
    next_request: u64,
    /// The draws of each seat's mixed answers, kept across hands and restarts: a restarted
    /// bot must not see the draws of its first process again.
    draws: Vec<MixDraws>,
    /// The public view of the event being dispatched, serialized once for every seat that
    /// sees it that way (a reused buffer).
    public_line: Vec<u8>,
}

/// A bot's decision that did not become its action.
struct Refused {
    request: Request,
    fault: SeatFault,
}

impl DecisionLoop {
    /// `draws`: one per seat, in seat order.
    pub fn new(decision_ms: u64, draws: Vec<MixDraws>) -> DecisionLoop {
        DecisionLoop {
            decision_ms,
            next_request: 1,
            draws,
            public_line: Vec::new(),
        }
    }

    /// Plays `hand` (just dealt, with `deal` its events) to its end, or until the table stops
    /// it.
    pub async fn play_hand<T: Table>(
        &mut self,
        table: &mut T,
        hand: &mut Hand,
        hand_index: u64,
        deal: &[Event],
    ) -> Result<HandEnd, T::Error> {
        let blind_start = hand.settings().variant.has_blind_play();
        // Seats whose bot faulted this hand: the arena plays them until it ends.
        let mut arena_plays = vec![false; self.draws.len()];
        self.dispatch(table, hand_index, deal, blind_start).await?;
        while let Some(decision) = hand.to_act() {
            let (seat, kind) = (decision.seat, decision.kind);
            let (action, answer, events) = if arena_plays[seat] {
                let (action, events) = play_fallback(hand, seat, kind);
                (action, None, events)
            } else if table.bot(seat).is_some() {
                match self.ask(table, hand, hand_index, seat, kind).await {
                    Ok((action, answer, events)) => (action, Some(answer), events),
                    Err(Refused { request, fault }) => {
                        match table.faulted(seat, kind, &request, fault).await? {
                            AfterFault::ArenaPlaysTheHand => arena_plays[seat] = true,
                            AfterFault::AskAgain => {}
                            AfterFault::StopTheHand => return Ok(HandEnd::Stopped),
                        }
                        let (action, events) = play_fallback(hand, seat, kind);
                        (action, None, events)
                    }
                }
            } else {
                let action = table.act_without_bot(hand, seat, kind).await?;
                let events = hand
                    .apply(seat, action)
                    .expect("a table acts for a seat without a bot from the legal set");
                (action, None, events)
            };
            table.acted(hand_index, seat, kind, action, answer).await?;
            self.dispatch(table, hand_index, &events, blind_start)
                .await?;
        }
        Ok(HandEnd::Over)
    }

    /// Asks the bot at `seat` and applies its answer: the action, how it was decided, and its
    /// events; or why it was refused (the hand unchanged).
    async fn ask<T: Table>(
        &mut self,
        table: &mut T,
        hand: &mut Hand,
        hand_index: u64,
        seat: usize,
        kind: DecisionKind,
    ) -> Result<(Action, BotAnswer, Vec<Event>), Refused> {
        let bot = table.bot(seat).expect("asked seats have a bot");
        let request = Request::from_hand(
            hand,
            hand_index,
            kind,
            seat,
            self.next_request,
            self.decision_ms,
            bot.bank().as_millis() as u64,
        );
        self.next_request += 1;
        let asked = match bot.ask(&request).await {
            Ok(asked) => asked,
            Err(fault) => return Err(Refused { request, fault }),
        };
        let bank = bot.bank();
        table.answer_arrived(seat, asked.elapsed);
        let (action, mix) = match asked.resolve(&request.legal, &mut self.draws[seat]) {
            Ok(resolved) => resolved,
            Err(fault) => return Err(Refused { request, fault }),
        };
        match hand.apply(seat, action) {
            Ok(events) => {
                let answer = BotAnswer {
                    mix,
                    elapsed: asked.elapsed,
                    bank,
                };
                Ok((action, answer, events))
            }
            Err(illegal) => {
                // In the words of the request the bot saw; the engine's own reason only if
                // the two ever disagree.
                let detail = protocol::explain::refusal(&action, &request.legal)
                    .unwrap_or_else(|| illegal.to_string());
                let fault = SeatFault {
                    kind: protocol::FaultKind::Illegal,
                    detail,
                    line: Some(asked.line),
                    broken: false,
                    stderr: None,
                }
                .excerpted();
                Err(Refused { request, fault })
            }
        }
    }

    /// Shows the table each event whole, then queues each bot's view of it (written with the
    /// bot's next request, or when the table flushes it).
    async fn dispatch<T: Table>(
        &mut self,
        table: &mut T,
        hand_index: u64,
        events: &[Event],
        blind_start: bool,
    ) -> Result<(), T::Error> {
        let seats = self.draws.len();
        for event in events {
            table.see_event(hand_index, event).await?;
            if event.is_public() {
                // Most events (bets, packs, ...): one line for the whole table, no copies.
                self.public_line.clear();
                protocol::wire::write_event(&mut self.public_line, hand_index, event);
                for seat in 0..seats {
                    if let Some(bot) = table.bot(seat) {
                        bot.queue_line(&self.public_line);
                    }
                }
                continue;
            }
            // Events with private cards still look the same to most seats: serialize that
            // public view once. (No seat has this index: the view of a seat that knows nothing.)
            let public = event.for_seat(usize::MAX, blind_start);
            self.public_line.clear();
            for seat in 0..seats {
                let Some(bot) = table.bot(seat) else {
                    continue;
                };
                let mine = event.for_seat(seat, blind_start);
                if mine == public {
                    if self.public_line.is_empty() {
                        protocol::wire::write_event(&mut self.public_line, hand_index, &public);
                    }
                    bot.queue_line(&self.public_line);
                } else {
                    bot.queue_event(hand_index, &mine);
                }
            }
        }
        Ok(())
    }
}

/// What the arena does for a seat that faulted this hand or has no running bot.
pub fn fallback(kind: DecisionKind) -> Action {
    match kind {
        DecisionKind::Bet => Action::Pack,
        DecisionKind::Swap => Action::Keep,
        DecisionKind::SideshowReply => Action::Refuse,
    }
}

/// Plays [`fallback`] for `seat` (a refused answer changed nothing: the hand still waits
/// for it).
fn play_fallback(hand: &mut Hand, seat: usize, kind: DecisionKind) -> (Action, Vec<Event>) {
    let action = fallback(kind);
    let events = hand
        .apply(seat, action)
        .expect("pack, keep and refuse are always legal for their decision");
    (action, events)
}
