//! A tiny helper for Teen Patti bots in Rust: it speaks the protocol so that a bot is only
//! its `decide` function. Read `protocol/PROTOCOL.md` for the messages.
//!
//! ```no_run
//! use sample_bots::{Bot, Game, run};
//! use protocol::{Action, Request};
//! struct AlwaysPack;
//! impl Bot for AlwaysPack {
//!     fn decide(&mut self, _game: &Game, _request: &Request) -> Action { Action::Pack }
//! }
//! run("always-pack", AlwaysPack);
//! ```

pub mod policies;

use std::io::{self, BufRead, Write};

use protocol::{Action, Choice, Hello, LegalAction, MixEntry, Request};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::Value;

/// What a bot knows about the match (from `hello`).
pub struct Game {
    pub hello: Hello,
}

/// A bot: one decision per request. Events arrive through `observe` (optional).
pub trait Bot {
    fn decide(&mut self, game: &Game, request: &Request) -> Action;
    /// The answer sent: by default `decide`'s action. A bot that chooses at random may answer
    /// with its distribution instead (`Choice::Mix`, PROTOCOL.md "Mixed answers"): the arena
    /// draws from it, and a luck-corrected estimate can then remove the draw's luck.
    fn choose(&mut self, game: &Game, request: &Request) -> Choice {
        Choice::Action(self.decide(game, request))
    }
    /// Called for every event line (`{"type":"event",...}`), fault notice and match end.
    fn observe(&mut self, _game: &Game, _message: &Value) {}
}

/// Runs the protocol loop on stdin/stdout until `match_end` or end of input.
pub fn run(name: &str, mut bot: impl Bot) {
    let stdin = io::stdin().lock();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut game: Option<Game> = None;
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            eprintln!("{name}: cannot parse {line}");
            continue;
        };
        match message["type"].as_str() {
            Some("hello") => {
                match serde_json::from_value::<Hello>(message.clone()) {
                    Ok(hello) => game = Some(Game { hello }),
                    Err(e) => eprintln!("{name}: bad hello: {e}"),
                }
                let answer = serde_json::json!({
                    "type": "hello", "name": name, "version": env!("CARGO_PKG_VERSION"), "protocol": 1
                });
                let _ = writeln!(stdout, "{answer}");
                let _ = stdout.flush();
            }
            Some("request") => {
                let (Some(game), Ok(request)) =
                    (&game, serde_json::from_value::<Request>(message.clone()))
                else {
                    // Never leave a request unanswered: a safe answer for its kind.
                    eprintln!("{name}: cannot read request {line}; answering safely");
                    let safe = match message["kind"].as_str() {
                        Some("swap") => "keep",
                        Some("sideshow_reply") => "refuse",
                        _ => "pack",
                    };
                    let answer = serde_json::json!({"id": message["id"], "action": safe});
                    let _ = writeln!(stdout, "{answer}");
                    let _ = stdout.flush();
                    continue;
                };
                let mut answer = match bot.choose(game, &request) {
                    Choice::Action(action) => {
                        serde_json::to_value(action).expect("actions serialize")
                    }
                    Choice::Mix(mix) => serde_json::json!({ "mix": mix }),
                };
                answer["id"] = request.id.into();
                let _ = writeln!(stdout, "{answer}");
                let _ = stdout.flush();
            }
            Some("fault") => {
                eprintln!("{name}: the arena reports a fault: {line}");
                if let Some(game) = &game {
                    bot.observe(game, &message);
                }
            }
            Some("match_end") => {
                if let Some(game) = &game {
                    bot.observe(game, &message);
                }
                break;
            }
            _ => {
                if let Some(game) = &game {
                    bot.observe(game, &message);
                }
            }
        }
    }
}

/// The `N` of a `--seed N` argument: a seed that replaces the hello's, so the same deals can
/// be played again with other draws (or two copies of a bot given different draws).
pub fn seed_argument() -> Option<u64> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
}

/// `mix` with the entries of the same action merged and those of probability 0 dropped: a
/// well-formed mixed answer (no action twice), or a plain action when one is left. The
/// probabilities must be legal and add up to 1, as the protocol asks (an empty mix stays
/// empty, and the arena refuses it).
pub fn merged(mix: &[MixEntry]) -> Choice {
    let mut out: Vec<MixEntry> = Vec::new();
    for entry in mix.iter().filter(|e| e.p > 0.0) {
        match out.iter_mut().find(|e| e.action == entry.action) {
            Some(e) => e.p += entry.p,
            None => out.push(*entry),
        }
    }
    match out.as_slice() {
        [only] => Choice::Action(only.action),
        _ => Choice::Mix(out),
    }
}

/// A small seeded random source for bots (ChaCha8, so runs are reproducible).
pub struct Dice(ChaCha8Rng);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in 0..n (n > 0); the tiny modulo bias is irrelevant for a bot.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A concrete action for a legal entry: for a bet, the largest allowed amount up to `amount`
/// (the minimum if `amount` is below it); for a swap, the first card.
pub fn concrete(legal: &LegalAction, amount: u64) -> Action {
    legal.instance(|choices| match legal {
        LegalAction::Bet {
            min, multiple_of, ..
        } => (amount.saturating_sub(*min) / multiple_of).min(choices - 1),
        _ => 0,
    })
}

/// The legal entry with this name, if offered.
pub fn find<'a>(request: &'a Request, name: &str) -> Option<&'a LegalAction> {
    request.legal.iter().find(|l| l.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concrete_clamps_a_bet_into_its_bounds_and_multiples() {
        let bet = LegalAction::Bet {
            min: 4,
            max: 16,
            multiple_of: 2,
        };
        let amount = |wanted| match concrete(&bet, wanted) {
            Action::Bet { amount } => amount,
            other => panic!("{other:?}"),
        };
        assert_eq!(amount(0), 4, "below the minimum: the minimum");
        assert_eq!(amount(9), 8, "between: the multiple below");
        assert_eq!(amount(10), 10);
        assert_eq!(amount(u64::MAX), 16, "above the maximum: the maximum");
        let cards = ["As", "Td", "2c"].map(|c| c.parse().unwrap());
        let swap = LegalAction::Swap { cards, cost: 0 };
        assert_eq!(concrete(&swap, 7), Action::Swap { card: cards[0] });
        assert_eq!(concrete(&LegalAction::Refuse, 7), Action::Refuse);
    }

    #[test]
    fn merged_adds_up_repeated_actions_and_drops_impossible_ones() {
        let entry = |action, p| MixEntry { action, p };
        let bet = |amount| Action::Bet { amount };
        let mix = [
            entry(Action::Pack, 0.25),
            entry(bet(4), 0.5),
            entry(Action::Pack, 0.25),
            entry(bet(8), 0.0),
        ];
        let Choice::Mix(out) = merged(&mix) else {
            panic!("two actions are left: a mix");
        };
        assert_eq!(out, vec![entry(Action::Pack, 0.5), entry(bet(4), 0.5)]);
        let one = [
            entry(bet(4), 0.5),
            entry(bet(4), 0.5),
            entry(Action::Pack, 0.0),
        ];
        assert_eq!(
            merged(&one),
            Choice::Action(bet(4)),
            "one action: a plain answer"
        );
    }
}
