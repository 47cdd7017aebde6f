//! A stronger bot: it estimates its chance of holding the best hand by Monte-Carlo sampling
//! of the opponents' possible hands, then bets by pot odds.
//!
//! - Win chance: deal the seats still in the hand random hands from the cards it cannot see
//!   (not its own, not revealed ones), evaluate with the engine's own hand values, count wins
//!   (ties count half). 400 samples per decision, seeded from the hello: reproducible.
//! - Closest to 555 swaps: for each of its three cards, the mean distance after replacing it
//!   with a random unseen card; it swaps the card with the best mean if that beats keeping.
//! - Betting: with chance p and a pot P, a call of C is worth it when p * (P + C) > C.
//!   Strong hands raise, very strong hands ask for a show (two left) or a sideshow.
//! - Classic game: it looks at its cards at once (blind play is a gamble it does not take).

use protocol::{Action, Card, LegalAction, Request, Variant, hand_value};
use sample_bots::{Bot, Dice, Game, concrete, find, run};

const SAMPLES: u32 = 400;

struct MonteCarloBot {
    dice: Option<Dice>,
}

impl MonteCarloBot {
    fn unseen(request: &Request, mine: &[Card; 3]) -> Vec<Card> {
        let mut hidden = [true; 52];
        for c in mine {
            hidden[c.index()] = false;
        }
        for cards in request.known.values() {
            for c in cards {
                hidden[c.index()] = false;
            }
        }
        (0..52)
            .filter(|&i| hidden[i])
            .map(Card::from_index)
            .collect()
    }

    /// Chance that `mine` beats every one of `opponents` random hands.
    fn win_chance(
        game: &Game,
        dice: &mut Dice,
        mine: &[Card; 3],
        pool: &[Card],
        opponents: usize,
    ) -> f64 {
        let s = &game.hello.settings;
        let my_value = hand_value(s.variant, s.sequence_order, mine);
        let mut pool = pool.to_vec();
        let mut score = 0.0;
        for _ in 0..SAMPLES {
            // Partial Fisher-Yates: the first 3 * opponents cards are the opponents' hands.
            let need = (3 * opponents).min(pool.len());
            for i in 0..need {
                let j = i + dice.below((pool.len() - i) as u64) as usize;
                pool.swap(i, j);
            }
            let mut best_other = None;
            for k in 0..opponents {
                if 3 * k + 3 > need {
                    break;
                }
                let hand = [pool[3 * k], pool[3 * k + 1], pool[3 * k + 2]];
                let value = hand_value(s.variant, s.sequence_order, &hand);
                if best_other.is_none_or(|b| value > b) {
                    best_other = Some(value);
                }
            }
            score += match best_other {
                None => 1.0,
                Some(b) if my_value > b => 1.0,
                Some(b) if my_value == b => 0.5,
                _ => 0.0,
            };
        }
        score / f64::from(SAMPLES)
    }

    fn choose_swap(game: &Game, dice: &mut Dice, mine: &[Card; 3], pool: &[Card]) -> Action {
        let s = &game.hello.settings;
        let key =
            |cards: &[Card; 3]| f64::from(hand_value(s.variant, s.sequence_order, cards).key());
        let keep = key(mine);
        let mut best = (keep, None);
        for slot in 0..3 {
            let trials = 60.min(pool.len());
            let mut total = 0.0;
            for _ in 0..trials {
                let mut hand = *mine;
                hand[slot] = pool[dice.below(pool.len() as u64) as usize];
                total += key(&hand);
            }
            let mean = total / trials as f64;
            if mean > best.0 {
                best = (mean, Some(mine[slot]));
            }
        }
        match best.1 {
            Some(card) => Action::Swap { card },
            None => Action::Keep,
        }
    }
}

impl Bot for MonteCarloBot {
    fn decide(&mut self, game: &Game, request: &Request) -> Action {
        let dice = self.dice.get_or_insert_with(|| Dice::new(game.hello.seed));
        let Some(mine) = request.cards else {
            // Classic, still blind: look first.
            return match find(request, "see") {
                Some(_) => Action::See,
                None => Action::Pack,
            };
        };
        let pool = Self::unseen(request, &mine);
        if request.legal.iter().any(|l| matches!(l, LegalAction::Keep)) {
            return Self::choose_swap(game, dice, &mine, &pool);
        }
        let me = game.hello.seat;
        let opponents = request
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| *i != me && p.in_hand)
            .count();
        // A revealed opponent (sideshow) is compared exactly.
        let p = if opponents == 1
            && request.known.len() == 1
            && game.hello.settings.variant != Variant::Closest555
        {
            let s = &game.hello.settings;
            let theirs = request.known.values().next().expect("one known");
            let (a, b) = (
                hand_value(s.variant, s.sequence_order, &mine),
                hand_value(s.variant, s.sequence_order, theirs),
            );
            if a > b {
                1.0
            } else if a == b {
                0.5
            } else {
                0.0
            }
        } else {
            Self::win_chance(game, dice, &mine, &pool, opponents)
        };
        if find(request, "accept").is_some() {
            return if p > 0.5 {
                Action::Accept
            } else {
                Action::Refuse
            };
        }
        let pot = request.pot as f64;
        if p > 0.7 {
            if let Some(LegalAction::Show { .. }) = find(request, "show") {
                return Action::Show;
            }
            if let Some(LegalAction::Sideshow { .. }) = find(request, "sideshow") {
                return Action::Sideshow;
            }
        }
        match find(request, "bet") {
            Some(bet @ LegalAction::Bet { min, max, .. }) => {
                let cost = *min as f64;
                if p * (pot + cost) <= cost && p < 0.5 {
                    return Action::Pack;
                }
                let amount = if p > 0.75 {
                    *max
                } else if p > 0.6 {
                    (min + max) / 2
                } else {
                    *min
                };
                concrete(bet, amount)
            }
            _ => match find(request, "show") {
                Some(_) if p > 0.4 => Action::Show,
                _ => Action::Pack,
            },
        }
    }
}

fn main() {
    run("montecarlo-bot", MonteCarloBot { dice: None });
}
