//! A random legal bot: picks one of the offered actions uniformly, and a uniform amount for a
//! bet. Seeded from the hello (or `--seed N`), so a match against it is reproducible.

use protocol::{Action, LegalAction, Request};
use sample_bots::{Bot, Dice, Game, concrete, run, seed_argument};

struct RandomBot {
    dice: Option<Dice>,
    seed_override: Option<u64>,
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

fn main() {
    run(
        "random-bot",
        RandomBot {
            dice: None,
            seed_override: seed_argument(),
        },
    );
}
