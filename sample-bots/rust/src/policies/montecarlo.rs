//! The montecarlo reference bot (`montecarlo-bot`): it estimates its chance of holding the
//! best hand by Monte-Carlo sampling of the opponents' possible hands, then bets by pot odds.
//!
//! - Win chance: deal the seats still in the hand random hands from the cards it cannot see
//!   (not its own, not revealed ones), evaluate with the engine's own hand values, count wins
//!   (ties count half). 1600 samples per decision, seeded from the hello (or `--seed N`).
//! - The range of hands still in play: an opponent who has put a lot in is unlikely to hold a
//!   weak hand, so a sampled hand below a strength percentile that grows with what that
//!   opponent put in is redrawn. In Lallan Kallan a live opponent never holds a dead hand.
//! - Closest to 555 swaps: for each of its three cards, the mean hand value after replacing it
//!   with each card it cannot see; it swaps the card with the best mean if that beats keeping.
//! - Betting: with chance p and a pot P, a call of C is worth it when p * (P + C) > C.
//!   Strong hands raise, very strong hands ask for a show (two left) or a sideshow.
//! - It answers a betting decision with a **mix** (PROTOCOL.md, "Mixed answers"): its estimate
//!   of p is a sample, so near a threshold of the rule its action is a coin flip anyway; it
//!   says so, with the rule's action at each point of a normal spread around the estimate
//!   ([`DOUBT_SAMPLES`]), and the arena draws. Far from every threshold the answer is one action.
//!   Declaring the coin flip lets a luck-corrected estimate remove its luck (BENCHMARKS.md,
//!   section 6); the odds of its play are the same as if it drew itself.
//! - Classic game: it looks at its cards at once (blind play is a gamble it does not take).

use crate::{Bot, Dice, Game, concrete, find, merged};
use protocol::{Action, Card, Choice, LegalAction, MixEntry, Request, Variant, hand_value};

const SAMPLES: u32 = 1600;

/// Its doubt about an estimated win chance `p`: the sampling error of an estimate from this
/// many samples, `√(p(1−p)/n)`. It plays about as a bot deciding on a 400-sample estimate
/// would (it did, before it declared its doubt), but that error is now in the declared mix,
/// where the arena's draw replaces it; its own 1600-sample estimate adds a quarter as much
/// variance again, undeclared (a spread of its play 1.12 times the old one's).
const DOUBT_SAMPLES: f64 = 400.0;

/// Points at which the betting rule is evaluated under that doubt (z from -3 to 3).
const DOUBT_POINTS: usize = 61;

pub struct MonteCarloBot {
    dice: Option<Dice>,
    /// `--seed N`: the sampling's seed instead of the hello's.
    seed_override: Option<u64>,
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
    /// The bot, drawing from the hello's seed, or from `seed_override` (`--seed N`).
    pub fn new(seed_override: Option<u64>) -> MonteCarloBot {
        MonteCarloBot {
            dice: None,
            seed_override,
            table: Vec::new(),
        }
    }

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

    /// The card whose replacement gives the best mean hand value over every card it cannot
    /// see (each is equally likely to be drawn, as far as it knows), or keep.
    fn choose_swap(game: &Game, mine: &[Card; 3], pool: &[Card]) -> Action {
        let s = &game.hello.settings;
        let key =
            |cards: &[Card; 3]| f64::from(hand_value(s.variant, s.sequence_order, cards).key());
        let keep = key(mine);
        let mut best = (keep, None);
        for slot in 0..3 {
            let mut total = 0.0;
            for &card in pool {
                let mut hand = *mine;
                hand[slot] = card;
                total += key(&hand);
            }
            let mean = total / pool.len().max(1) as f64;
            if mean > best.0 {
                best = (mean, Some(mine[slot]));
            }
        }
        match best.1 {
            Some(card) => Action::Swap { card },
            None => Action::Keep,
        }
    }

    /// Its betting rule for a win chance `p` (see the module documentation).
    fn bet_by_odds(request: &Request, p: f64) -> Action {
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

    /// The betting rule under its doubt about an estimated win chance `p`: the rule's action
    /// at each point of a normal distribution around `p` (spread: [`DOUBT_SAMPLES`]), weighted
    /// by its density. Far from every threshold of the rule this is one action.
    fn doubtful_bet(request: &Request, p: f64) -> Choice {
        let doubt = (p * (1.0 - p) / DOUBT_SAMPLES).sqrt();
        let weights: Vec<(f64, f64)> = (0..DOUBT_POINTS)
            .map(|i| {
                let z = -3.0 + 6.0 * i as f64 / (DOUBT_POINTS - 1) as f64;
                (z, (-z * z / 2.0).exp())
            })
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mix: Vec<MixEntry> = weights
            .iter()
            .map(|&(z, w)| MixEntry {
                action: Self::bet_by_odds(request, (p + doubt * z).clamp(0.0, 1.0)),
                p: w / total,
            })
            .collect();
        merged(&mix)
    }
}

impl Bot for MonteCarloBot {
    /// What it plays when it draws from its own answer (the arena draws instead: `choose`).
    fn decide(&mut self, game: &Game, request: &Request) -> Action {
        match self.choose(game, request) {
            Choice::Action(action) => action,
            Choice::Mix(mix) => {
                let u = self.dice.as_mut().map_or(0.5, Dice::unit);
                protocol::mix::pick(&mix, u)
            }
        }
    }

    fn choose(&mut self, game: &Game, request: &Request) -> Choice {
        let seed = self.seed_override.unwrap_or(game.hello.seed);
        let dice = self.dice.get_or_insert_with(|| Dice::new(seed));
        if self.table.is_empty() {
            self.table = value_table(game);
        }
        let Some(mine) = request.cards else {
            // Classic, still blind: look first.
            return Choice::Action(match find(request, "see") {
                Some(_) => Action::See,
                None => Action::Pack,
            });
        };
        let pool = Self::unseen(request, &mine);
        if request.legal.iter().any(|l| matches!(l, LegalAction::Keep)) {
            return Choice::Action(Self::choose_swap(game, &mine, &pool));
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
        // A revealed opponent (sideshow) is compared exactly: no doubt.
        if opponents == 1
            && request.known.len() == 1
            && game.hello.settings.variant != Variant::Closest555
        {
            let s = &game.hello.settings;
            let theirs = request.known.values().next().expect("one known");
            let (a, b) = (
                hand_value(s.variant, s.sequence_order, &mine),
                hand_value(s.variant, s.sequence_order, theirs),
            );
            let p = match a.cmp(&b) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            return Choice::Action(Self::bet_by_odds(request, p));
        }
        let p = Self::win_chance(game, &self.table, dice, &mine, &pool, &floors);
        Self::doubtful_bet(request, p)
    }
}
