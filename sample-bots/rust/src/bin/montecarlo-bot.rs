//! A stronger bot: it estimates its chance of holding the best hand by Monte-Carlo sampling
//! of the opponents' possible hands, then bets by pot odds.
//!
//! - Win chance: deal the seats still in the hand random hands from the cards it cannot see
//!   (not its own, not revealed ones), evaluate with the engine's own hand values, count wins
//!   (ties count half). 400 samples per decision, seeded from the hello: reproducible.
//! - The range of hands still in play: an opponent who has put a lot in is unlikely to hold a
//!   weak hand, so a sampled hand below a strength percentile that grows with what that
//!   opponent put in is redrawn. In Lallan Kallan a live opponent never holds a dead hand.
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
    /// Every three-card hand's value key, sorted: a hand's strength percentile.
    table: Vec<u32>,
}

/// The value keys of all 22,100 hands, sorted.
fn value_table(game: &Game) -> Vec<u32> {
    let s = &game.hello.settings;
    let mut keys = Vec::with_capacity(22_100);
    for a in 0..52 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                let hand = [
                    Card::from_index(a),
                    Card::from_index(b),
                    Card::from_index(c),
                ];
                keys.push(hand_value(s.variant, s.sequence_order, &hand).key());
            }
        }
    }
    keys.sort_unstable();
    keys
}

/// The share of all hands worth less than `key`.
fn percentile(table: &[u32], key: u32) -> f64 {
    table.partition_point(|&k| k < key) as f64 / table.len() as f64
}

/// The weakest percentile an opponent who put `put_in` chips in is assumed to hold.
fn floor_for(put_in: u64, boot: u64) -> f64 {
    let units = put_in as f64 / boot.max(1) as f64;
    (0.12 * units.max(1.0).log2()).min(0.7)
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

    /// Chance that `mine` beats every opponent, each drawn from its likely range.
    fn win_chance(
        game: &Game,
        table: &[u32],
        dice: &mut Dice,
        mine: &[Card; 3],
        pool: &[Card],
        floors: &[f64],
    ) -> f64 {
        let s = &game.hello.settings;
        let my_value = hand_value(s.variant, s.sequence_order, mine);
        let mut pool = pool.to_vec();
        let mut score = 0.0;
        for _ in 0..SAMPLES {
            let mut next = 0;
            let mut best_other = None;
            for &floor in floors {
                // Redraw a hand below the opponent's range (a few tries, then take it).
                let mut value = None;
                for _attempt in 0..8 {
                    if next + 3 > pool.len() {
                        break;
                    }
                    for i in next..next + 3 {
                        let j = i + dice.below((pool.len() - i) as u64) as usize;
                        pool.swap(i, j);
                    }
                    let hand = [pool[next], pool[next + 1], pool[next + 2]];
                    let v = hand_value(s.variant, s.sequence_order, &hand);
                    let dead = s.variant == Variant::LallanKallan && v.key() == 0;
                    value = Some(v);
                    if !dead && percentile(table, v.key()) >= floor {
                        break;
                    }
                }
                next += 3;
                if let Some(v) = value
                    && best_other.is_none_or(|b| v > b)
                {
                    best_other = Some(v);
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
        if self.table.is_empty() {
            self.table = value_table(game);
        }
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
        let boot = game.hello.settings.boot;
        let floors: Vec<f64> = request
            .players
            .iter()
            .enumerate()
            .filter(|(i, p)| *i != me && p.in_hand)
            .map(|(_, p)| floor_for(p.put_in, boot))
            .collect();
        let opponents = floors.len();
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
            Self::win_chance(game, &self.table, dice, &mine, &pool, &floors)
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
    run(
        "montecarlo-bot",
        MonteCarloBot {
            dice: None,
            table: Vec::new(),
        },
    );
}
