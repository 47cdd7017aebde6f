//! The passive reference bot, `sample-bots/python/minimal_bot.py`'s rule: see at once
//! (classic), bet the minimum (chaal), keep (Closest to 555), refuse sideshows; pack only when
//! nothing else is offered. Deterministic.

use protocol::{Action, Request};

use crate::{Bot, Game, concrete, find};

#[derive(Default)]
pub struct PassiveBot;

impl Bot for PassiveBot {
    fn decide(&mut self, _game: &Game, request: &Request) -> Action {
        // The same order of preference as minimal_bot.py.
        for name in ["see", "bet", "keep", "refuse"] {
            if let Some(entry) = find(request, name) {
                return concrete(entry, 0);
            }
        }
        Action::Pack
    }
}
