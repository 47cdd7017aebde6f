//! The terminal's side of the decision loop in `arena play`: the person plays their own seat
//! at the prompt, reads every event as their seat sees it, and is told when a bot faults.

use std::io::{BufRead, Write};
use std::time::Duration;

use protocol::{Action, ArenaMessage, DecisionKind, FaultNotice, Request, Settings};
use rules::{Event, Hand};

use super::Console;
use super::prompt::ask_person;
use crate::referee::{AfterFault, Connection, SeatFault, Table, fallback};
use crate::replay::{DisplayFacts, Names, describe_event};

/// A game at the terminal: the person's seat, the bots in the others.
pub(super) struct Terminal<'a, R, W> {
    pub console: &'a mut Console<R, W>,
    /// The person's seat.
    pub me: usize,
    pub settings: Settings,
    /// Every seat's name; the person's is "you".
    pub names: Vec<String>,
    /// The bots, by seat; `None` at the person's seat and for a bot that stopped working.
    pub bots: Vec<Option<Connection>>,
    /// The seats already told that their stdout carries only protocol lines.
    pub hinted: Vec<bool>,
    /// The person left (or their input ended): the arena packs for them from then on.
    pub quit: bool,
}

impl<R: BufRead, W: Write> Table for Terminal<'_, R, W> {
    type Error = std::io::Error;

    fn bot(&mut self, seat: usize) -> Option<&mut Connection> {
        self.bots[seat].as_mut()
    }

    /// Shows the event as the person's seat sees it.
    async fn see_event(&mut self, hand_index: u64, event: &Event) -> std::io::Result<()> {
        let blind_start = self.settings.variant.has_blind_play();
        let mine = event.for_seat(self.me, blind_start);
        // The wild card from the deal on, and both values at a sideshow the person was in.
        let facts = DisplayFacts::of(&self.settings, &mine);
        let names = Names {
            names: &self.names,
            you: Some(self.me),
        };
        let line = describe_event(hand_index, &mine, &facts, &names);
        if !line.is_empty() {
            writeln!(self.console.output, "{}", line.trim_start_matches('\n'))?;
        }
        Ok(())
    }

    /// The person's seat asks the person; a bot that stopped working is played by the arena.
    async fn act_without_bot(
        &mut self,
        hand: &Hand,
        seat: usize,
        kind: DecisionKind,
    ) -> std::io::Result<Action> {
        if seat != self.me || self.quit {
            return Ok(fallback(kind));
        }
        let names = Names {
            names: &self.names,
            you: Some(self.me),
        };
        Ok(match ask_person(self.console, hand, kind, &names)? {
            Some(action) => action,
            None => {
                self.quit = true;
                fallback(kind)
            }
        })
    }

    /// Tells the person, who may be the bot's author; a broken bot is closed and its stderr
    /// shown. As in a match, the arena plays the seat for the rest of the hand, and a bot that
    /// stopped working is not asked again.
    async fn faulted(
        &mut self,
        seat: usize,
        kind: DecisionKind,
        request: &Request,
        fault: SeatFault,
    ) -> std::io::Result<AfterFault> {
        let out = &mut self.console.output;
        let name = &self.names[seat];
        writeln!(out, "  ! {name} fault ({}): {}", fault.kind, fault.detail)?;
        // Said once a bot: the same print would fault every hand.
        if crate::check_bot::stdout_text::is_text_on_stdout(&fault) && !self.hinted[seat] {
            self.hinted[seat] = true;
            writeln!(out, "    note: {}", crate::check_bot::stdout_text::HINT)?;
        }
        // As a match tells it (PROTOCOL.md, `fault`).
        if !fault.broken
            && let Some(bot) = &mut self.bots[seat]
        {
            bot.queue(&ArenaMessage::Fault(FaultNotice {
                id: Some(request.id),
                fault: fault.kind,
                detail: fault.detail.clone(),
                applied: Some(fallback(kind)),
            }));
        }
        if fault.broken
            && let Some(bot) = self.bots[seat].take()
        {
            let exit = bot.close(Duration::ZERO).await;
            writeln!(
                out,
                "  ! {name} stopped working; the arena plays its seat from now on"
            )?;
            write!(
                out,
                "{}",
                sandbox::stderr_block(exit.stderr.excerpt().as_deref(), "    ")
            )?;
        }
        Ok(AfterFault::ArenaPlaysTheHand)
    }
}
