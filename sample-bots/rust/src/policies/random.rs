//! The random reference bot (`random-bot`): picks one of the offered actions uniformly, and a
//! uniform amount for a bet. Seeded from the hello (or `--seed N`), so a match against it is
//! reproducible.

use crate::{Bot, Dice, Game, concrete};
use protocol::{Action, LegalAction, Request};

pub struct RandomBot {
    dice: Option<Dice>,
    seed_override: Option<u64>,
}

impl RandomBot {
    /// The bot, drawing from the hello's seed, or from `seed_override` (`--seed N`).
    pub fn new(seed_override: Option<u64>) -> RandomBot {
        RandomBot {
            dice: None,
            seed_override,
        }
    }
}

impl Bot for RandomBot {
    fn decide(&mut self, game: &Game, request: &Request) -> Action {
        let seed = self.seed_override.unwrap_or(game.hello.seed);
        let dice = self.dice.get_or_insert_with(|| Dice::new(seed));
        let legal = &request.legal[dice.below(request.legal.len() as u64) as usize];
        match legal {
            LegalAction::Bet {
                min,
                max,
                multiple_of,
            } => {
                let steps = (max - min) / multiple_of + 1;
                Action::Bet {
                    amount: min + dice.below(steps) * multiple_of,
                }
            }
            LegalAction::Swap { cards, .. } => Action::Swap {
                card: cards[dice.below(3) as usize],
            },
            other => concrete(other, 0),
        }
    }
}
