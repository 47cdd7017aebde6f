//! The starter bot: sees at once (classic), always bets the minimum, keeps its cards
//! (closest-555) and refuses sideshows. Your strategy goes in `decide`.
//!
//! `sample_bots::run` speaks the protocol: it answers hello, reads every line, calls `decide`
//! for each request and writes the answer with the request's id, flushed. Events, fault
//! notices and the match end reach `observe`.
//!
//! Build: `cargo build --release -p sample-bots --bin starter-bot`
//! Run:   `arena match --game closest-555 --hands 50 --bot target/release/starter-bot
//!         --bot "python3 sample-bots/python/random_bot.py"`

use protocol::{Action, DecisionKind, Request};
use sample_bots::{Bot, Game, concrete, find, run};
use serde_json::Value;

#[derive(Default)]
struct StarterBot {
    /// My net chips over the match, from the `hand_ended` events.
    total: i64,
}

impl Bot for StarterBot {
    /// One answer per request (the helper adds the id). What you can read:
    /// - `request.kind` (bet, swap or sideshow reply) and `request.legal`, what you may do:
    ///   `find(request, "bet")` gives `LegalAction::Bet { min, max, multiple_of }`;
    ///   `concrete(legal, amount)` turns an entry into a legal action (a bet clamped to its
    ///   bounds);
    /// - `request.cards`: your three cards (`None` while blind in the classic game);
    /// - `request.pot`, `request.stake`, `request.players[seat]` (`in_hand`, `seen`, `dead`,
    ///   `put_in`, `turns`, `swaps`), `request.known` (cards revealed to you, by seat),
    ///   `request.sideshow_from` (who asks you for a sideshow);
    /// - `game.hello`: your `seat`, the `settings` (variant, boot, sequence order ...), the
    ///   `seed` for your own randomness (`sample_bots::Dice`).
    ///
    /// `protocol::hand_value(variant, sequence_order, &cards)` values a hand in any game
    /// (bigger is better); src/policies/montecarlo.rs shows a complete strategy built on it.
    fn decide(&mut self, _game: &Game, request: &Request) -> Action {
        match request.kind {
            DecisionKind::Swap => Action::Keep, // closest-555: no swap
            DecisionKind::SideshowReply => Action::Refuse,
            DecisionKind::Bet => {
                if find(request, "see").is_some() {
                    return Action::See; // classic: look at the cards first
                }
                match find(request, "bet") {
                    Some(bet) => concrete(bet, 0), // clamped up to the minimum: chaal
                    None => Action::Pack,
                }
            }
        }
    }

    /// Every other message: events (`{"type":"event","event":"bet",...}`), fault notices
    /// and the match end. stderr is your log.
    fn observe(&mut self, game: &Game, message: &Value) {
        match message["type"].as_str() {
            Some("fault") => eprintln!("starter-bot: FAULT {message}"),
            Some("event") if message["event"] == "hand_ended" => {
                self.total += message["payoffs"][game.hello.seat].as_i64().unwrap_or(0);
            }
            Some("match_end") => eprintln!("starter-bot: match over, net {}", self.total),
            _ => {}
        }
    }
}

fn main() {
    run("starter-bot", StarterBot::default());
}
