//! The strength reference bot (`strength-bot`): the strategy of the kit's
//! `sample-bots/python/strength_bot.py`, the same decisions on the same views (the Python file
//! stays the readable example; the test `tests/it/strength_parity.rs` holds the two together).
//!
//! - Win chance: the percentile of its hand (the share of all three-card hands it beats, ties
//!   half; in Lallan Kallan among live hands only), raised to the power of the opponents still
//!   in, as if their hands were random and independent; an opponent whose cards it knows
//!   (show, sideshow, group reveal) counts 1 if it beats them, 0 if they beat it, 0.5 on a tie.
//!   What the opponents' bets say about their hands is ignored.
//! - Betting: look at once (classic); ask for a show with two left when the win chance is in
//!   [`SHOW_FROM`, `RAISE_FULL`) (a near-certain winner raises instead, to keep the other
//!   paying); ask for a sideshow with a percentile of [`SIDESHOW_FROM`] or more (or a known
//!   better hand), unless that target refused it once this hand; above [`RAISE_FROM`] bet
//!   more, from the minimum to the maximum at [`RAISE_FULL`]; else call when the win chance
//!   plus [`LOOSENESS`] pays the price of calling (`min / (pot + min)`); else pack, except for
//!   a bluff call now and then ([`BLUFF_RATE`]).
//! - Sideshow replies: accept a known worse hand, else a percentile of [`ACCEPT_FROM`] or more.
//! - Closest to 555 swaps: for each of its three cards, the mean distance to 555 after
//!   replacing it by each card it has not seen (not its own, not its discards, not revealed);
//!   it swaps the best one if that mean, plus a paid swap's cost ([`SWAP_COST_WEIGHT`] distance
//!   per boot), beats keeping.
//!
//! Deterministic given the hello: the only draw, the bluff, comes from a generator seeded from
//! the hello's seed (or `--seed N`), the seat and the first hand, as the Python bot's does
//! (another generator than Python's, so the bluffs fall elsewhere: [`StrengthBot::without_bluff`]
//! and the Python bot's `--no-bluff` leave them out to compare the two).
//!
//! Two facts come from events, not requests (the bot follows them in [`Bot::observe`]): its own
//! discards this hand (cards it will not draw again) and the sideshows refused this hand.

use std::cmp::Ordering;
use std::sync::OnceLock;

use protocol::{
    Action, Card, DecisionKind, HandDescription, LegalAction, Request, SequenceOrder, Variant,
    describe, hand_value,
};
use serde_json::Value;

use crate::{Bot, Dice, Game, concrete, find};

// The knobs of the strategy: the values of strength_bot.py.

/// Win chance above which it bets more than the minimum ...
pub const RAISE_FROM: f64 = 0.55;
/// ... rising to the maximum bet at this win chance.
pub const RAISE_FULL: f64 = 0.90;
/// Ask for a show (two left) when the win chance is at least this.
pub const SHOW_FROM: f64 = 0.50;
/// Ask for a sideshow when its percentile is at least this.
pub const SIDESHOW_FROM: f64 = 0.65;
/// Accept a sideshow when its percentile is at least this.
pub const ACCEPT_FROM: f64 = 0.60;
/// Call a bit more often than the pot odds say (bets are not all-in).
pub const LOOSENESS: f64 = 0.10;
/// Now and then, call with a hand that should pack.
pub const BLUFF_RATE: f64 = 0.05;
/// Closest to 555 with a paid swap: one boot of cost is worth this much distance.
pub const SWAP_COST_WEIGHT: u64 = 5;

pub struct StrengthBot {
    /// `--seed N`: the bluff's seed instead of the hello's.
    seed_override: Option<u64>,
    bluff: bool,
    dice: Option<Dice>,
    notes: HandNotes,
}

/// What this hand's events told the bot that its requests do not.
#[derive(Default)]
struct HandNotes {
    hand: Option<u64>,
    /// Closest to 555: the cards it discarded (gone for good: not in the stock).
    discards: Vec<Card>,
    /// (asker, target) of every refused sideshow.
    refusals: Vec<(usize, usize)>,
}

/// Every hand's value key, sorted: the percentile table of a game (strength_bot.py's
/// `StrengthTable`). Computed, not embedded: 22,100 evaluations take a few milliseconds, and
/// embedding would mean five tables of up to 22,100 keys (one per game and sequence order).
/// Computed once per process and kept (a table is 88 KB), so in-process policies made by the
/// thousand (the Python package's environments) share it.
fn strength_table(variant: Variant, order: SequenceOrder) -> &'static [u32] {
    static TABLES: [OnceLock<Vec<u32>>; 6] = [const { OnceLock::new() }; 6];
    let slot = match variant {
        Variant::Classic => 0,
        Variant::Closest555 => 2,
        Variant::LallanKallan => 4,
    } + usize::from(order == SequenceOrder::AkqHigh);
    TABLES[slot].get_or_init(|| {
        let mut keys = Vec::with_capacity(22_100);
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let hand = [a, b, c].map(Card::from_index);
                    // Dead Lallan Kallan hands never play: they are not in the table.
                    if variant == Variant::LallanKallan && rules::eval::is_dead(&hand) {
                        continue;
                    }
                    keys.push(hand_value(variant, order, &hand).key());
                }
            }
        }
        keys.sort_unstable();
        keys
    })
}

/// The share of the table's hands worse than `key`, exact ties counting half (0.0 ..= 1.0).
fn percentile(table: &[u32], key: u32) -> f64 {
    let worse = table.partition_point(|&k| k < key);
    let ties = table.partition_point(|&k| k <= key) - worse;
    (worse as f64 + 0.5 * ties as f64) / table.len() as f64
}

/// Closest to 555: how far the hand is from 555.
fn distance(cards: &[Card; 3]) -> u64 {
    match describe(Variant::Closest555, SequenceOrder::default(), cards) {
        HandDescription::Closest555 { distance, .. } => u64::from(distance),
        other => unreachable!("a closest-555 hand is described as such, not {other:?}"),
    }
}

/// `amount` as a legal bet as the Python helper's `Legal.clamp` makes it: truncated, kept
/// within the bounds, rounded down to a multiple of `multiple_of` (up if that falls below the
/// minimum).
fn clamp_bet(min: u64, max: u64, multiple_of: u64, amount: f64) -> Action {
    let step = multiple_of.max(1);
    let mut amount = (amount as u64).clamp(min, max);
    amount -= amount % step;
    if amount < min {
        amount += step;
    }
    Action::Bet { amount }
}

/// The answer that risks nothing more: pack, keep or refuse (else the first offered).
fn safe_default(request: &Request) -> Action {
    let name = match request.kind {
        DecisionKind::Bet => "pack",
        DecisionKind::Swap => "keep",
        DecisionKind::SideshowReply => "refuse",
    };
    match find(request, name).or(request.legal.first()) {
        Some(entry) => concrete(entry, 0),
        None => Action::Pack,
    }
}

impl StrengthBot {
    /// The bot, bluffing from the hello's seed, or from `seed_override` (`--seed N`).
    pub fn new(seed_override: Option<u64>) -> StrengthBot {
        StrengthBot {
            seed_override,
            bluff: true,
            dice: None,
            notes: HandNotes::default(),
        }
    }

    /// The same bot without its bluff (`--no-bluff`): it packs where it would have drawn
    /// whether to bluff, so it decides as strength_bot.py's `--no-bluff` does, with no draw.
    pub fn without_bluff(mut self) -> StrengthBot {
        self.bluff = false;
        self
    }

    /// This hand's notes, or none if the events of this hand were not seen.
    fn notes(&self, hand: u64) -> (&[Card], &[(usize, usize)]) {
        if self.notes.hand == Some(hand) {
            (&self.notes.discards, &self.notes.refusals)
        } else {
            (&[], &[])
        }
    }

    fn decide_bet(&mut self, game: &Game, request: &Request) -> Action {
        // Classic: a blind seat looks at once (the same seat then gets a request as seen).
        if find(request, "see").is_some() {
            return Action::See;
        }
        let (
            Some(&LegalAction::Bet {
                min,
                max,
                multiple_of,
            }),
            Some(cards),
        ) = (find(request, "bet"), request.cards)
        else {
            return safe_default(request);
        };
        let s = &game.hello.settings;
        let me = game.hello.seat;
        let value = |cards: &[Card; 3]| hand_value(s.variant, s.sequence_order, cards);
        let mine = value(&cards);
        let p = percentile(strength_table(s.variant, s.sequence_order), mine.key());

        // The chance that its hand beats every opponent still in.
        let mut chance = 1.0;
        for (seat, player) in request.players.iter().enumerate() {
            if seat == me || !player.in_hand {
                continue;
            }
            chance *= match request.known.get(&seat) {
                Some(theirs) => match mine.cmp(&value(theirs)) {
                    Ordering::Greater => 1.0,
                    Ordering::Equal => 0.5,
                    Ordering::Less => 0.0,
                },
                None => p,
            };
        }
        // The share of the final pot its call pays for.
        let price = min as f64 / (request.pot + min) as f64;

        // Two left: a good hand asks for a show; a near-certain winner raises instead.
        if find(request, "show").is_some() && (SHOW_FROM..RAISE_FULL).contains(&chance) {
            return Action::Show;
        }
        if let Some(&LegalAction::Sideshow { target, .. }) = find(request, "sideshow") {
            let (_, refusals) = self.notes(request.hand);
            let good = if refusals.contains(&(me, target)) {
                false // refused once this hand: asking again only costs chips
            } else if let Some(theirs) = request.known.get(&target) {
                mine > value(theirs)
            } else {
                p >= SIDESHOW_FROM
            };
            if good {
                return Action::Sideshow;
            }
        }
        if chance > RAISE_FROM {
            // From the minimum at RAISE_FROM to the maximum at RAISE_FULL, in proportion.
            let share = ((chance - RAISE_FROM) / (RAISE_FULL - RAISE_FROM)).min(1.0);
            let amount = min as f64 + share * (max - min) as f64;
            return clamp_bet(min, max, multiple_of, amount);
        }
        if chance + LOOSENESS >= price {
            return clamp_bet(min, max, multiple_of, min as f64);
        }
        if self.bluff {
            let seed = self.seed_override.unwrap_or(game.hello.seed);
            let (seat, first_hand) = (game.hello.seat, game.hello.first_hand);
            let dice = self
                .dice
                .get_or_insert_with(|| Dice::new(bluff_seed(seed, seat, first_hand)));
            if dice.unit() < BLUFF_RATE {
                return clamp_bet(min, max, multiple_of, min as f64);
            }
        }
        Action::Pack
    }

    /// Someone seen asks to compare in private; the worse hand packs (the asker on a tie).
    fn decide_sideshow_reply(game: &Game, request: &Request) -> Action {
        let Some(cards) = request.cards else {
            return safe_default(request);
        };
        let s = &game.hello.settings;
        let value = |cards: &[Card; 3]| hand_value(s.variant, s.sequence_order, cards);
        let known = request.sideshow_from.and_then(|a| request.known.get(&a));
        let accept = match known {
            Some(theirs) => value(&cards) > value(theirs),
            // The asker chose to ask, so their hand is probably good: accept a good hand only.
            None => {
                let table = strength_table(s.variant, s.sequence_order);
                percentile(table, value(&cards).key()) >= ACCEPT_FROM
            }
        };
        if accept {
            Action::Accept
        } else {
            Action::Refuse
        }
    }

    /// Closest to 555: throw away the card whose replacement is expected to help most.
    fn decide_swap(&self, game: &Game, request: &Request) -> Action {
        let Some(&LegalAction::Swap { cards, cost }) = find(request, "swap") else {
            return safe_default(request);
        };
        let now = distance(&cards);
        // The cards it has not seen: the next card of the stock is one of them, each equally
        // likely as far as it can tell (cards in other players' hands are among them too).
        let (discards, _) = self.notes(request.hand);
        let mut seen = [false; 52];
        let known = request.known.values().flatten();
        for card in request.cards.iter().flatten().chain(discards).chain(known) {
            seen[card.index()] = true;
        }
        for card in cards {
            seen[card.index()] = true;
        }
        let unseen: Vec<Card> = (0..52)
            .filter(|&i| !seen[i])
            .map(Card::from_index)
            .collect();

        let mut best: Option<(Card, f64)> = None;
        for (slot, &card) in cards.iter().enumerate() {
            let mut hand = cards;
            let total: u64 = unseen
                .iter()
                .map(|&new| {
                    hand[slot] = new;
                    distance(&hand)
                })
                .sum();
            let expected = total as f64 / unseen.len().max(1) as f64;
            if best.is_none_or(|(_, b)| expected < b) {
                best = Some((card, expected));
            }
        }
        let boot = game.hello.settings.boot;
        let penalty = (SWAP_COST_WEIGHT * cost) as f64 / boot.max(1) as f64;
        match best {
            Some((card, expected)) if expected + penalty < now as f64 => Action::Swap { card },
            _ => Action::Keep,
        }
    }
}

/// The bluff's seed: the hello's seed (or `--seed N`), the seat and the first hand, so that two
/// copies given one `--seed` and a restarted bot draw differently (strength_bot.py's rule).
fn bluff_seed(seed: u64, seat: usize, first_hand: u64) -> u64 {
    // Arbitrary odd multipliers (SplitMix64's) keep the three apart.
    seed ^ (seat as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ first_hand
            .wrapping_add(1)
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

impl Bot for StrengthBot {
    fn decide(&mut self, game: &Game, request: &Request) -> Action {
        match request.kind {
            DecisionKind::Swap => self.decide_swap(game, request),
            DecisionKind::SideshowReply => Self::decide_sideshow_reply(game, request),
            DecisionKind::Bet => self.decide_bet(game, request),
        }
    }

    fn observe(&mut self, game: &Game, message: &Value) {
        if message["type"] != "event" {
            return;
        }
        let Some(hand) = message["hand"].as_u64() else {
            return;
        };
        let seat = |field: &str| message[field].as_u64().map(|s| s as usize);
        if message["event"] == "hand_started" || self.notes.hand != Some(hand) {
            self.notes = HandNotes {
                hand: Some(hand),
                ..HandNotes::default()
            };
        }
        match message["event"].as_str() {
            Some("swapped") if seat("seat") == Some(game.hello.seat) => {
                if let Some(card) = message["discarded"].as_str().and_then(|c| c.parse().ok()) {
                    self.notes.discards.push(card);
                }
            }
            Some("sideshow_refused") => {
                if let (Some(asker), Some(target)) = (seat("seat"), seat("target")) {
                    self.notes.refusals.push((asker, target));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    //! Worked examples; the numbers in the comments are strength_bot.py's (its helper's
    //! `StrengthTable.percentile` and `closest555_distance`).

    use std::collections::BTreeMap;

    use protocol::{Hello, PlayerView, Settings, TimeLimits};
    use serde_json::json;

    use super::*;

    fn game_with(settings: Settings, seats: usize, seat: usize) -> Game {
        Game {
            hello: Hello {
                protocol: 1,
                game: settings.variant,
                settings,
                seat,
                seats,
                hands: 100,
                first_hand: 0,
                seed: 7,
                players: (0..seats).map(|i| format!("bot{i}")).collect(),
                time: TimeLimits {
                    startup_ms: 5_000,
                    decision_ms: 1_000,
                    bank_ms: 10_000,
                },
            },
        }
    }

    fn game(variant: Variant, seats: usize) -> Game {
        game_with(Settings::new(variant), seats, 0)
    }

    fn hand(text: &str) -> [Card; 3] {
        let cards: Vec<Card> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        cards.try_into().unwrap()
    }

    /// Seat 0's request in hand 3, every seat of `seats` in the hand.
    fn request(
        kind: DecisionKind,
        legal: Vec<LegalAction>,
        pot: u64,
        cards: Option<&str>,
        seats: usize,
    ) -> Request {
        let player = PlayerView {
            in_hand: true,
            seen: true,
            dead: false,
            put_in: 1,
            turns: 1,
            swaps: 0,
        };
        Request {
            id: 1,
            hand: 3,
            kind,
            legal,
            pot,
            stake: 1,
            dealer: seats - 1,
            sideshow_from: None,
            cards: cards.map(hand),
            players: vec![player; seats],
            known: BTreeMap::new(),
            time_ms: 1_000,
            bank_ms: 10_000,
        }
    }

    fn bet(min: u64, max: u64) -> LegalAction {
        LegalAction::Bet {
            min,
            max,
            multiple_of: 2,
        }
    }

    /// A seen betting decision: pack, bet `min..=max`, and `extra`.
    fn betting(
        cards: &str,
        pot: u64,
        min: u64,
        max: u64,
        extra: &[LegalAction],
        seats: usize,
    ) -> Request {
        let mut legal = vec![LegalAction::Pack, bet(min, max)];
        legal.extend_from_slice(extra);
        request(DecisionKind::Bet, legal, pot, Some(cards), seats)
    }

    const SHOW: LegalAction = LegalAction::Show { cost: 4 };
    const SIDESHOW: LegalAction = LegalAction::Sideshow { cost: 8, target: 2 };

    fn no_bluff() -> StrengthBot {
        StrengthBot::new(None).without_bluff()
    }

    #[test]
    fn percentiles_are_strength_bot_py_s_to_the_last_bit() {
        let p = |variant, cards| {
            let table = strength_table(variant, SequenceOrder::A23High);
            percentile(
                table,
                hand_value(variant, SequenceOrder::A23High, &hand(cards)).key(),
            )
        };
        // strength_bot.py's values, printed by Python (shortest repr: the same doubles).
        assert_eq!(p(Variant::Classic, "As Ad 7c"), 0.9062443438914027);
        assert_eq!(p(Variant::Classic, "Ah Kh 3d"), 0.720814479638009);
        assert_eq!(p(Variant::Classic, "5s 3d 2h"), 0.0013574660633484162);
        assert_eq!(p(Variant::Classic, "As Ah Ad"), 0.9999095022624435);
        assert_eq!(p(Variant::Closest555, "5s 5h Kd"), 0.9831674208144796);
        assert_eq!(p(Variant::Closest555, "Qs Ah 9d"), 0.08579185520361991);
        // All 22,100 hands, but Lallan Kallan's 2 x C(26, 3) = 5,200 dead ones never play.
        let len = |variant| strength_table(variant, SequenceOrder::AkqHigh).len();
        assert_eq!(len(Variant::Classic), 22_100);
        assert_eq!(len(Variant::LallanKallan), 16_900);
    }

    #[test]
    fn a_blind_seat_looks_at_its_cards_first() {
        let legal = vec![LegalAction::Pack, LegalAction::See, bet(1, 2), SHOW];
        let request = request(DecisionKind::Bet, legal, 4, None, 2);
        assert_eq!(
            no_bluff().decide(&game(Variant::Classic, 2), &request),
            Action::See
        );
    }

    #[test]
    fn a_strong_hand_bets_more_the_stronger_it_is() {
        let classic = game(Variant::Classic, 2);
        // A-K-3 (percentile 0.7208) against one opponent: win chance 0.7208, a share
        // (0.7208 - 0.55) / 0.35 = 0.488 of the way from 16 to 32: 23.8, rounded down to an
        // even 22.
        let ak3 = betting("Ah Kh 3d", 40, 16, 32, &[], 2);
        assert_eq!(
            no_bluff().decide(&classic, &ak3),
            Action::Bet { amount: 22 }
        );
        // A pair of aces (0.906): at or above RAISE_FULL, the most it may.
        let aces = betting("As Ad 7c", 40, 16, 32, &[], 2);
        assert_eq!(
            no_bluff().decide(&classic, &aces),
            Action::Bet { amount: 32 }
        );
        // The same pair against two opponents: 0.906^2 = 0.821, a share 0.775: 28.4 -> 28.
        let aces = betting("As Ad 7c", 40, 16, 32, &[], 3);
        assert_eq!(
            no_bluff().decide(&game(Variant::Classic, 3), &aces),
            Action::Bet { amount: 28 }
        );
    }

    #[test]
    fn two_left_a_good_hand_asks_for_a_show_but_a_near_certain_winner_raises() {
        let classic = game(Variant::Classic, 2);
        let ak3 = betting("Ah Kh 3d", 40, 16, 32, &[SHOW], 2);
        assert_eq!(no_bluff().decide(&classic, &ak3), Action::Show);
        let aces = betting("As Ad 7c", 40, 16, 32, &[SHOW], 2);
        assert_eq!(
            no_bluff().decide(&classic, &aces),
            Action::Bet { amount: 32 }
        );
        // Q-J-9 (0.422): no show, and a call of 16 into 40 pays for 16/56 = 0.29 of the pot,
        // less than 0.422 + 0.1: it calls.
        let qj9 = betting("Qs Jd 9c", 40, 16, 32, &[SHOW], 2);
        assert_eq!(
            no_bluff().decide(&classic, &qj9),
            Action::Bet { amount: 16 }
        );
    }

    #[test]
    fn a_weak_hand_packs_against_a_big_bet_and_calls_a_cheap_one() {
        let classic = game(Variant::Classic, 3);
        // 5-3-2 (0.0014): a call of 32 into 40 pays 0.44 of the pot: pack.
        let weak = betting("5s 3d 2h", 40, 32, 64, &[], 3);
        assert_eq!(no_bluff().decide(&classic, &weak), Action::Pack);
        // Q-J-9 (0.422) against two: 0.178. A call of 8 into 10 pays 0.44: pack; a call of 2
        // into 100 pays 0.02: call.
        let qj9 = betting("Qs Jd 9c", 10, 8, 16, &[], 3);
        assert_eq!(no_bluff().decide(&classic, &qj9), Action::Pack);
        let qj9 = betting("Qs Jd 9c", 100, 2, 4, &[], 3);
        assert_eq!(no_bluff().decide(&classic, &qj9), Action::Bet { amount: 2 });
    }

    #[test]
    fn the_bluff_calls_about_one_weak_hand_in_twenty_and_is_the_seed_s() {
        let classic = game(Variant::Classic, 3);
        let weak = betting("5s 3d 2h", 40, 32, 64, &[], 3);
        let calls = |mut bot: StrengthBot| -> Vec<bool> {
            (0..2_000)
                .map(|_| bot.decide(&classic, &weak) != Action::Pack)
                .collect()
        };
        let first = calls(StrengthBot::new(None));
        let bluffs = first.iter().filter(|&&b| b).count();
        // 100 expected, sd 9.7: a window of 5 sd on each side.
        assert!((50..=150).contains(&bluffs), "{bluffs} bluffs in 2000");
        assert_eq!(
            first,
            calls(StrengthBot::new(None)),
            "the hello's seed decides"
        );
        assert_ne!(first, calls(StrengthBot::new(Some(8))), "--seed changes it");
        assert!(!calls(no_bluff()).contains(&true), "no bluff without it");
    }

    #[test]
    fn a_good_hand_asks_for_a_sideshow_unless_refused_this_hand() {
        let classic = game(Variant::Classic, 3);
        // A pair of nines (0.838 >= 0.65) asks seat 2.
        let nines = betting("9s 9d 4c", 30, 8, 16, &[SIDESHOW], 3);
        let mut bot = no_bluff();
        assert_eq!(bot.decide(&classic, &nines), Action::Sideshow);
        // Seat 2 refused it in an earlier hand: that does not count.
        let refused = |hand| json!({"type": "event", "hand": hand, "event": "sideshow_refused", "seat": 0, "target": 2});
        bot.observe(&classic, &refused(2));
        assert_eq!(bot.decide(&classic, &nines), Action::Sideshow);
        // Refused in this hand: it raises instead (0.838^2 = 0.702, a share 0.434 of 8 to 16:
        // 11.5 -> 10).
        bot.observe(&classic, &json!({"type": "event", "hand": 3, "event": "hand_started", "dealer": 2, "seats": 3, "boot": 1, "pot": 3, "stake": 1}));
        bot.observe(&classic, &refused(3));
        assert_eq!(bot.decide(&classic, &nines), Action::Bet { amount: 10 });
        // K-J-9 (0.542) does not ask.
        let kj9 = betting("Ks Jd 9c", 30, 8, 16, &[SIDESHOW], 3);
        assert_eq!(no_bluff().decide(&classic, &kj9), Action::Bet { amount: 8 });
    }

    #[test]
    fn known_cards_are_compared_exactly() {
        let classic = game(Variant::Classic, 2);
        let mut kj9 = betting("Ks Jd 9c", 10, 4, 8, &[SHOW], 2);
        // Against a known Q-J-9: a sure win, so no show but the most it may bet.
        kj9.known.insert(1, hand("Qs Jh 9d"));
        assert_eq!(no_bluff().decide(&classic, &kj9), Action::Bet { amount: 8 });
        // Against a known pair: a sure loss, and a call of 4 into 10 pays 0.29: pack.
        kj9.known.insert(1, hand("7s 7d 2c"));
        assert_eq!(no_bluff().decide(&classic, &kj9), Action::Pack);
        // A tie counts half: 0.5, so a show.
        kj9.known.insert(1, hand("Kh Jc 9s"));
        assert_eq!(no_bluff().decide(&classic, &kj9), Action::Show);
    }

    #[test]
    fn a_sideshow_is_accepted_with_a_good_hand_or_a_known_better_one() {
        let classic = game(Variant::Classic, 3);
        let reply = |cards, known: Option<&str>| {
            let mut r = request(
                DecisionKind::SideshowReply,
                vec![LegalAction::Accept, LegalAction::Refuse],
                30,
                Some(cards),
                3,
            );
            r.sideshow_from = Some(1);
            if let Some(k) = known {
                r.known.insert(1, hand(k));
            }
            no_bluff().decide(&classic, &r)
        };
        assert_eq!(
            reply("7s 7d 2c", None),
            Action::Accept,
            "pair of sevens, 0.810 >= 0.60"
        );
        assert_eq!(
            reply("Ks Jd 9c", None),
            Action::Refuse,
            "K-J-9, 0.542 < 0.60"
        );
        assert_eq!(
            reply("Ks Jd 9c", Some("Qs Jh 9d")),
            Action::Accept,
            "beats the asker's known hand"
        );
        assert_eq!(
            reply("Ks Jd 9c", Some("Kh Jc 9s")),
            Action::Refuse,
            "a tie: only a sure win accepts"
        );
    }

    fn swap_request(cards: &str, cost: u64) -> Request {
        let legal = vec![
            LegalAction::Swap {
                cards: hand(cards),
                cost,
            },
            LegalAction::Keep,
        ];
        request(DecisionKind::Swap, legal, 2, Some(cards), 2)
    }

    #[test]
    fn a_swap_throws_the_card_whose_replacement_is_expected_closest_to_555() {
        let free = game(Variant::Closest555, 2);
        let swap = |cards, cost| no_bluff().decide(&free, &swap_request(cards, cost));
        let card = |c: &str| Action::Swap {
            card: c.parse().unwrap(),
        };
        // Q A 9 (best 901, 346 away): over the 49 unseen cards, throwing Qs gives 232.8 on
        // average, Ah 229.4, 9d 287.1: the ace goes.
        assert_eq!(swap("Qs Ah 9d", 0), card("Ah"));
        // 6 J 2 (47 away): 6c 247.1, Jd 57.1, 2h 44.8: the two goes.
        assert_eq!(swap("6c Jd 2h", 0), card("2h"));
        // 5 5 K (550, 5 away): the king, 3.16 on average.
        assert_eq!(swap("5s 5h Kd", 0), card("Kd"));
        // 5 5 5 is 555: every swap is worse (3.27 on average): keep.
        assert_eq!(swap("5s 5h 5d", 0), Action::Keep);
        // A swap costing one boot weighs 5 of distance: 3.16 + 5 is no better than 5: keep.
        assert_eq!(swap("5s 5h Kd", 1), Action::Keep);
        // ... but from 346 away the ace is still worth it.
        assert_eq!(swap("Qs Ah 9d", 1), card("Ah"));
    }

    #[test]
    fn cards_it_has_discarded_are_not_drawn_again() {
        // 4 4 5 (544, 11 away): with all 49 other cards in the stock, throwing a
        // four gives 11.04 on average: keep. It threw a ten away earlier this hand (and drew
        // the 5c): without that ten the stock is better, 10.96: swap.
        let free = game(Variant::Closest555, 2);
        let request = swap_request("4c 4d 5c", 0);
        assert_eq!(no_bluff().decide(&free, &request), Action::Keep);
        let mut bot = no_bluff();
        bot.observe(&free, &json!({"type": "event", "hand": 3, "event": "hand_started", "dealer": 1, "seats": 2, "boot": 1, "pot": 2, "stake": 1}));
        bot.observe(&free, &json!({"type": "event", "hand": 3, "event": "swapped", "seat": 0, "cost": 0, "discarded": "Tc", "drawn": "5c"}));
        // Another seat's swap tells it nothing.
        bot.observe(
            &free,
            &json!({"type": "event", "hand": 3, "event": "swapped", "seat": 1, "cost": 0}),
        );
        assert_eq!(
            bot.decide(&free, &request),
            Action::Swap {
                card: "4c".parse().unwrap()
            }
        );
    }
}
