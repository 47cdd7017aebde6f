//! The classic game's chance term: a control variate on the luck of the cards (AIVAT-style,
//! chance corrections only), unbiased for any bots, stochastic ones included.
//!
//! # The idea
//!
//! AIVAT (Burch, Schmid, Moravčík, Morrill, Bowling, 2018) subtracts from a player's payoff, at
//! every chance event, `v(after) − E_chance[v(after)]` for a fixed value function `v`. Each term
//! has expectation zero whatever the players do, because the chance outcome is drawn from a known
//! distribution given everything that happened before it. Terms at the *players'* decisions
//! need their policies, which the arena knows only where a bot answered with a mix: those are
//! [`super::luck_mix`]'s, added after this module's chance term ([`super::controls`]).
//!
//! In Teen Patti every card is dealt before the first action, so a correction that is a function
//! of the deal alone cancels *exactly* inside a two-seat duplicate block (each bot holds both
//! seats' cards once, and the correction is zero-sum): on the block totals the arena's
//! intervals are computed from, it changes nothing. The classic game's blind play gives a better
//! handle. A seat's cards influence no action before that seat *sees* them (or before a
//! showdown, if it never does): the bots know nothing of them, and the arena's deal is a uniform
//! shuffle. So the deal can be replayed, without changing the distribution of anything, as a
//! *lazy* deal: seat `k`'s three cards are drawn, uniformly from the cards not drawn yet, at the
//! moment the game first depends on them — its `saw` event, or the showdown for a seat still
//! blind. Each such draw is a chance event *after* some betting, and its correction may depend
//! on that betting (the pot) without bias. This is what makes the correction useful with
//! duplicate deals and stochastic bots: it removes the luck of who wins a *big* pot, which
//! duplication alone does not when the two matches of a block bet differently.
//!
//! # The value function (fixed, not fitted to the results it judges)
//!
//! Two seats, zero-sum. `w₀(c₀, c₁)` is 1 if seat 0's hand beats seat 1's (`rules::eval`),
//! ½ on an exact tie, 0 if it loses; `W₀(known)` its expectation given the hands drawn so far
//! (the others uniform over the remaining cards): ½ with none known (symmetry), the equity
//! `eq(c₀)` of `c₀` against a uniformly random hand of the other 49 cards with only `c₀` known,
//! `1 − eq(c₁)` with only `c₁`, and `w₀` with both. For a draw that takes `W₀` from `before`
//! to `after` at a moment when the pot is `P`:
//!
//! * at a `saw` event: `luck₀ += β · P · (after − before)`, with `β =` [`SEE_SCALE`];
//! * at a showdown (`show`, pot limit or turn cap) for each seat still blind, in seat order:
//!   `luck₀ += P_final · (after − before)`, the exact AIVAT term (the winner takes the pot,
//!   so `P_final·w₀ − contribution₀` is the payoff, ties aside).
//!
//! and `luck₁ = −luck₀`. Since `before = E[after]` over the draw (tower property), every term
//! has mean zero given the history, hence `E[luck] = 0` for any bots and any fixed `β`, and
//! `mean(payoff − luck)` is an unbiased estimate of the mean payoff. Hands that end with a
//! pack have no showdown draw; the cards of a seat that never looked are then never drawn.
//!
//! `β` is a documented constant. It was chosen on seeds disjoint from those the measurements in
//! BENCHMARKS.md report (see there); any fixed value keeps the estimator unbiased, a poor one
//! only widens the interval.
//!
//! # Scope
//!
//! Classic game, two seats. Other variants and larger tables are refused
//! ([`LuckError::Unsupported`]). The other games have no blind play, so this value function (one
//! shared by both seats, zero-sum) would cancel in a duplicate block; theirs are weights per
//! cell of the deal fitted for one bot ([`super::luck_closest`], [`super::luck_lallan`]).

use std::collections::HashMap;

use rules::{Card, EndReason, Event, SequenceOrder, Settings, Variant, hand_value};

use super::stats::{BlockEstimate, BlockSample, block_estimate};
use crate::replay::Record;

/// `β`: the weight of a `saw` draw's correction, in units of the pot at that moment. Chosen on
/// held-out seeds (BENCHMARKS.md, "Luck-corrected estimates"); fixed before the judged data.
pub const SEE_SCALE: f64 = 1.0;

/// Chips added to `β · pot` at a `saw` draw (0: the scale is the pot alone).
pub const SEE_OFFSET: f64 = 0.0;

/// Why a replay cannot be corrected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LuckError {
    #[error("the replay has no header on its first line")]
    NoHeader,
    #[error("luck correction supports the classic game with two seats, not {0}")]
    Unsupported(String),
    #[error("hand {0}: {1}")]
    Malformed(u64, String),
}

/// One hand of a replay: each seat's payoff and its luck term.
#[derive(Clone, Debug, PartialEq)]
pub struct HandLuck {
    pub hand: u64,
    pub payoffs: [i64; 2],
    /// `luck[0] = −luck[1]`; `E[luck] = 0` whatever the bots do.
    pub luck: [f64; 2],
}

impl HandLuck {
    /// `payoff − luck` of a seat.
    pub fn corrected(&self, seat: usize) -> f64 {
        self.payoffs[seat] as f64 - self.luck[seat]
    }
}

/// Each three-card hand's equity against a uniformly random hand of the other 49 cards
/// (win 1, tie ½), computed on demand by enumeration and cached.
pub struct Equity {
    order: SequenceOrder,
    /// All C(52,3) hands: their card mask and value key.
    hands: Vec<(u64, u32)>,
    cache: HashMap<u64, f64>,
}

impl Equity {
    /// The classic game's equities under a sequence order.
    pub fn classic(order: SequenceOrder) -> Equity {
        let pack = Card::pack();
        let mut hands = Vec::with_capacity(22_100);
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let cards = [pack[a], pack[b], pack[c]];
                    hands.push((mask(&cards), value(order, &cards)));
                }
            }
        }
        Equity {
            order,
            hands,
            cache: HashMap::new(),
        }
    }

    /// `eq(cards)`: P(win) + ½ P(tie) against a random hand from the other 49 cards.
    pub fn of(&mut self, cards: &[Card; 3]) -> f64 {
        let m = mask(cards);
        if let Some(&e) = self.cache.get(&m) {
            return e;
        }
        let v = value(self.order, cards);
        let (mut wins2, mut n) = (0u64, 0u64);
        for &(other, ov) in &self.hands {
            if other & m != 0 {
                continue;
            }
            n += 1;
            wins2 += match v.cmp(&ov) {
                std::cmp::Ordering::Greater => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 0,
            };
        }
        let e = wins2 as f64 / (2 * n) as f64;
        self.cache.insert(m, e);
        e
    }

    /// `W₀(known)`: seat 0's expected showdown share given the hands drawn so far.
    fn w0(&mut self, known: [Option<[Card; 3]>; 2]) -> f64 {
        match known {
            [None, None] => 0.5,
            [Some(c0), None] => self.of(&c0),
            [None, Some(c1)] => 1.0 - self.of(&c1),
            [Some(c0), Some(c1)] => match value(self.order, &c0).cmp(&value(self.order, &c1)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            },
        }
    }
}

fn mask(cards: &[Card; 3]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1 << c.index())
}

fn value(order: SequenceOrder, cards: &[Card; 3]) -> u32 {
    hand_value(Variant::Classic, order, cards).key()
}

/// The settings of a replay of `variant` with two seats, the tables the corrections support.
pub(super) fn two_seats_of(records: &[Record], variant: Variant) -> Result<Settings, LuckError> {
    let Some(Record::Header(header)) = records.first() else {
        return Err(LuckError::NoHeader);
    };
    let settings = header.settings;
    if settings.variant != variant || header.bots.len() != 2 {
        return Err(LuckError::Unsupported(format!(
            "{} with {} seats",
            settings.variant,
            header.bots.len()
        )));
    }
    Ok(settings)
}

/// A replay's event with its hand, and what the luck terms read of it, each with a
/// [`LuckError::Malformed`] naming the hand when it is missing.
pub(super) struct EventFields<'a> {
    pub hand: u64,
    pub event: &'a Event,
}

impl EventFields<'_> {
    pub fn bad(&self, what: &str) -> LuckError {
        LuckError::Malformed(self.hand, what.to_string())
    }

    /// The pot after the event, for the events that say it.
    pub fn pot(&self) -> Option<u64> {
        match *self.event {
            Event::HandStarted { pot, .. }
            | Event::Redeal { pot, .. }
            | Event::Bet { pot, .. }
            | Event::ShowAsked { pot, .. }
            | Event::SideshowAsked { pot, .. }
            | Event::HandEnded { pot, .. } => Some(pot),
            _ => None,
        }
    }

    /// A `hand_started` event's dealer.
    pub fn dealer(&self) -> Option<usize> {
        match *self.event {
            Event::HandStarted { dealer, .. } => Some(dealer),
            _ => None,
        }
    }

    /// The event's seat, one of two.
    pub fn seat(&self) -> Result<usize, LuckError> {
        let seat = match *self.event {
            Event::Dealt { seat, .. }
            | Event::Saw { seat, .. }
            | Event::Swapped { seat, .. }
            | Event::Kept { seat }
            | Event::Bet { seat, .. }
            | Event::Packed { seat, .. }
            | Event::ShowAsked { seat, .. }
            | Event::SideshowAsked { seat, .. }
            | Event::SideshowRefused { seat, .. }
            | Event::SideshowCompared { seat, .. } => Some(seat),
            _ => None,
        };
        seat.filter(|&s| s < 2)
            .ok_or_else(|| self.bad("an event without a valid seat"))
    }

    /// A `dealt` event's three cards.
    pub fn cards(&self) -> Result<[Card; 3], LuckError> {
        match *self.event {
            Event::Dealt {
                cards: Some(cards), ..
            } => Ok(cards),
            _ => Err(self.bad("a deal without its cards")),
        }
    }

    /// A `hand_ended` event's two payoffs.
    pub fn payoffs(&self) -> Result<[i64; 2], LuckError> {
        match self.event {
            Event::HandEnded { payoffs, .. } => <[i64; 2]>::try_from(payoffs.as_slice()).ok(),
            _ => None,
        }
        .ok_or_else(|| self.bad("an end without two payoffs"))
    }
}

/// The state of one hand while its events are read.
/// A replay's finished hands: each hand's `hand_started` event, then its events up to and
/// including its `hand_ended` (the last of the list), in order. Events outside a started hand,
/// and a hand that never ended (a cut replay), are left out.
pub(super) fn finished_hands(records: &[Record]) -> Vec<(EventFields<'_>, Vec<EventFields<'_>>)> {
    let mut out = Vec::new();
    let mut current: Option<(EventFields<'_>, Vec<EventFields<'_>>)> = None;
    for record in records {
        let Record::Event { hand, event } = record else {
            continue;
        };
        let e = EventFields { hand: *hand, event };
        if matches!(event, Event::HandStarted { .. }) {
            current = Some((e, Vec::new()));
            continue;
        }
        let Some((_, events)) = current.as_mut().filter(|(start, _)| start.hand == *hand) else {
            continue;
        };
        let ended = matches!(event, Event::HandEnded { .. });
        events.push(e);
        if ended {
            out.extend(current.take());
        }
    }
    out
}

struct Pending {
    hand: u64,
    cards: [Option<[Card; 3]>; 2],
    /// The hands drawn so far in the lazy deal.
    known: [Option<[Card; 3]>; 2],
    pot: u64,
    luck0: f64,
}

/// Every finished hand of a replay with its luck terms, in order, for the classic game with two
/// seats. Pure and deterministic: the same records give the same numbers, bit for bit.
pub fn hand_luck(records: &[Record], equity: &mut Equity) -> Result<Vec<HandLuck>, LuckError> {
    hand_luck_with(records, equity, SEE_SCALE, SEE_OFFSET)
}

/// [`hand_luck`] with another `β` and offset (for measurements: any fixed values are unbiased).
pub fn hand_luck_with(
    records: &[Record],
    equity: &mut Equity,
    see_scale: f64,
    see_offset: f64,
) -> Result<Vec<HandLuck>, LuckError> {
    let settings = two_seats_of(records, Variant::Classic)?;
    if equity.order != settings.sequence_order {
        *equity = Equity::classic(settings.sequence_order);
    }
    let mut out = Vec::new();
    for (start, events) in finished_hands(records) {
        let p = &mut Pending {
            hand: start.hand,
            cards: [None, None],
            known: [None, None],
            pot: start.pot().unwrap_or(0),
            luck0: 0.0,
        };
        for e in &events {
            let bad = |what: &str| e.bad(what);
            if let Some(pot) = e.pot() {
                p.pot = pot;
            }
            match e.event {
                Event::Dealt { .. } => p.cards[e.seat()?] = Some(e.cards()?),
                Event::Saw { .. } => {
                    let s = e.seat()?;
                    let scale = p.pot as f64 * see_scale + see_offset;
                    draw(p, s, scale, equity, &bad)?;
                }
                Event::HandEnded { reason, .. } => {
                    if matches!(
                        reason,
                        EndReason::Show | EndReason::PotLimit | EndReason::TurnCap
                    ) {
                        let scale = p.pot as f64;
                        for s in 0..2 {
                            draw(p, s, scale, equity, &bad)?;
                        }
                    }
                    out.push(HandLuck {
                        hand: p.hand,
                        payoffs: e.payoffs()?,
                        luck: [p.luck0, -p.luck0],
                    });
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// Seat `s`'s cards are drawn in the lazy deal (no-op if they already were): adds
/// `scale · (W₀(after) − W₀(before))` to seat 0's luck.
fn draw(
    p: &mut Pending,
    s: usize,
    scale: f64,
    equity: &mut Equity,
    bad: &dyn Fn(&str) -> LuckError,
) -> Result<(), LuckError> {
    if p.known[s].is_some() {
        return Ok(());
    }
    let before = equity.w0(p.known);
    p.known[s] = Some(p.cards[s].ok_or_else(|| bad("a seat's cards were never dealt"))?);
    let after = equity.w0(p.known);
    p.luck0 += scale * (after - before);
    Ok(())
}

/// One seat's hands of one match, for [`estimates`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatHand {
    pub payoff: i64,
    pub luck: f64,
}

/// Plain and luck-corrected chips per hand of one bot over duplicate blocks (each block: the
/// bot's hands in all its matches of the block), with `level` intervals from
/// [`block_estimate`]. The corrected estimate is `Σ(payoff − luck) / hands`.
pub fn estimates(blocks: &[Vec<SeatHand>], level: f64) -> (BlockEstimate, BlockEstimate) {
    let sample = |f: &dyn Fn(&SeatHand) -> f64| -> Vec<BlockSample> {
        blocks
            .iter()
            .map(|b| BlockSample {
                chips: b.iter().map(f).sum(),
                hands: b.len() as u64,
            })
            .collect()
    };
    let plain = block_estimate(&sample(&|h| h.payoff as f64), level);
    let corrected = block_estimate(&sample(&|h| h.payoff as f64 - h.luck), level);
    (plain, corrected)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    use rules::{Event, Hand};

    pub(crate) fn header_record(settings: Settings) -> Record {
        let json = serde_json::json!({
            "type": "header", "format": "teenpatti-arena-replay", "version": 1, "protocol": 1,
            "deal": "chacha8-fisher-yates-v1", "arena_version": "test", "settings": settings,
            "seed": 0, "hands": 0, "first_hand": 0, "first_dealer": 0,
            "time": {"startup_ms": 1, "decision_ms": 1, "bank_ms": 1},
            "bots": [{"seat": 0, "name": "a", "command": ["a"]},
                     {"seat": 1, "name": "b", "command": ["b"]}]
        });
        serde_json::from_value(json).expect("a header")
    }

    /// Three cards from text, `"Kh Kd 5c"`.
    pub(crate) fn h(text: &str) -> [Card; 3] {
        let c: Vec<Card> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        [c[0], c[1], c[2]]
    }

    /// A weight per term index, making a fixed mixture of a hand's terms.
    pub(crate) type Weight = Box<dyn Fn(usize) -> f64>;

    /// Each seat's mixtures of the hands' terms (each a mean-zero sum) have spread and a mean
    /// within 4 standard errors of 0 (single cells are too rare for a normal test); and every
    /// seat's terms of a hand sum to zero (each event moves one cell in and takes a
    /// distribution over cells out).
    pub(crate) fn assert_mixtures_have_mean_zero(
        hands: &[crate::standings::controls::HandControls],
        mixtures: &[(&str, Weight)],
    ) {
        for seat in 0..2 {
            for (name, w) in mixtures {
                let x: Vec<f64> = hands
                    .iter()
                    .map(|h| h.z[seat].iter().enumerate().map(|(i, z)| w(i) * z).sum())
                    .collect();
                let n = x.len() as f64;
                let mean = x.iter().sum::<f64>() / n;
                let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
                let se = (var / n).sqrt();
                assert!(var > 0.0, "{name}: no spread");
                assert!(
                    mean.abs() < 4.0 * se,
                    "{name}, seat {seat}: mean {mean}, se {se}"
                );
            }
        }
        for h in hands {
            for z in &h.z {
                assert!(z.iter().sum::<f64>().abs() < 1e-9, "{z:?}");
            }
        }
    }

    pub(crate) fn event_record(hand: u64, event: &Event) -> Record {
        Record::Event {
            hand,
            event: event.clone(),
        }
    }

    /// Plays `hands` hands of the classic game with a stochastic policy that looks at its cards
    /// and bets more with better hands (so actions and cards are correlated, as with real
    /// bots), and returns the replay records.
    fn play(seed: u64, hands: u64) -> Vec<Record> {
        let settings = Settings::new(Variant::Classic);
        let mut eq = Equity::classic(settings.sequence_order);
        play_with(settings, seed, hands, &mut |cards| eq.of(cards))
    }

    /// Plays `hands` two-seat hands of `settings`' game with a stochastic policy whose
    /// choices depend on `strength` of its cards (0 to 1), and returns the replay records.
    /// A blind seat sees 30% of the time; a swap throws a card chosen by the cards.
    pub(crate) fn play_with(
        settings: Settings,
        seed: u64,
        hands: u64,
        strength: &mut dyn FnMut(&[Card; 3]) -> f64,
    ) -> Vec<Record> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
        let mut records = vec![header_record(settings)];
        for h in 0..hands {
            let (mut hand, events) =
                Hand::seeded(settings, 2, (h % 2) as usize, seed, h).expect("a hand");
            records.extend(events.iter().map(|e| event_record(h, e)));
            let mut seen = [settings.variant != Variant::Classic; 2];
            while let Some(decision) = hand.to_act() {
                let legal = hand.legal();
                let s = decision.seat;
                let cards = hand.cards(s);
                let strength = if seen[s] { strength(&cards) } else { 0.5 };
                let r = (rng.next_u64() % 1000) as f64 / 1000.0;
                let pick = |name: &str| legal.iter().find(|a| a.name() == name);
                let action = if !seen[s] && r < 0.3 {
                    pick("see")
                } else if seen[s] && strength < 0.35 && r < 0.7 {
                    pick("pack").or_else(|| pick("swap"))
                } else if strength > 0.8 && r < 0.3 {
                    pick("show").or_else(|| pick("keep"))
                } else {
                    None
                };
                let action = action
                    .unwrap_or_else(|| &legal[(rng.next_u64() % legal.len() as u64) as usize]);
                let card_choice = cards.iter().map(|c| c.index() as u64).sum::<u64>();
                let mut pick_amount = |n: u64| {
                    if strength > 0.7 {
                        n - 1
                    } else if n == 3 {
                        card_choice % 3
                    } else {
                        rng.next_u64() % n
                    }
                };
                let action = action.instance(&mut pick_amount);
                if action == rules::Action::See {
                    seen[s] = true;
                }
                let events = hand.apply(s, action).expect("a legal action");
                records.extend(events.iter().map(|e| event_record(h, e)));
            }
        }
        records
    }

    #[test]
    fn equity_of_a_random_hand_averages_one_half() {
        // E[eq(c)] over a uniform hand is exactly ½ (by symmetry). A seeded sample of 2000
        // hands: sd(eq) < 0.3, so the sample mean is within 0.03 (> 4.4 sd) of ½.
        let mut eq = Equity::classic(SequenceOrder::A23High);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let pack = Card::pack();
        let mut sum = 0.0;
        let n = 2000;
        for _ in 0..n {
            let deck = rules::Deck::shuffled(rng.next_u64(), 0, 0);
            let c = &deck.cards()[..3];
            sum += eq.of(&[c[0], c[1], c[2]]);
        }
        assert!((sum / n as f64 - 0.5).abs() < 0.03, "{}", sum / n as f64);
        // The best and worst hands.
        let p = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(eq.of(&[p("Ac"), p("Ad"), p("Ah")]), 1.0);
        let worst = eq.of(&[p("2c"), p("3d"), p("5h")]);
        assert!(worst < 0.01, "{worst}");
        let _ = pack;
    }

    #[test]
    #[ignore = "exhaustive: 22,100 x 22,100 comparisons (5 s in a debug build); run with --ignored"]
    fn equity_averages_one_half_exhaustively() {
        let mut eq = Equity::classic(SequenceOrder::A23High);
        let pack = Card::pack();
        let (mut sum, mut n) = (0.0, 0u64);
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    sum += eq.of(&[pack[a], pack[b], pack[c]]);
                    n += 1;
                }
            }
        }
        assert_eq!(n, 22_100);
        assert!((sum / n as f64 - 0.5).abs() < 1e-12, "{}", sum / n as f64);
    }

    #[test]
    fn luck_has_mean_zero_for_card_dependent_stochastic_play() {
        // 4000 hands of a policy whose bets depend on its cards. The luck term's mean must be
        // 0 (it is a sum of centred chance corrections); its standard error is measured from
        // the sample and the test allows 4 standard errors (a false failure < 1e-4).
        let records = play(11, 4000);
        let mut eq = Equity::classic(SequenceOrder::A23High);
        let hands = hand_luck(&records, &mut eq).unwrap();
        assert_eq!(hands.len(), 4000);
        let n = hands.len() as f64;
        let mean = hands.iter().map(|h| h.luck[0]).sum::<f64>() / n;
        let var = hands
            .iter()
            .map(|h| (h.luck[0] - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let se = (var / n).sqrt();
        assert!(var > 0.0);
        assert!(mean.abs() < 4.0 * se, "mean {mean}, se {se}");
        // Zero-sum, and the correction explains part of the payoffs: the corrected payoffs
        // vary less than the plain ones.
        let plain_var = hands
            .iter()
            .map(|h| (h.payoffs[0] as f64).powi(2))
            .sum::<f64>();
        let corrected_var = hands.iter().map(|h| h.corrected(0).powi(2)).sum::<f64>();
        assert!(corrected_var < plain_var, "{corrected_var} vs {plain_var}");
        for h in &hands {
            assert_eq!(h.luck[0], -h.luck[1]);
            assert_eq!(h.payoffs[0], -h.payoffs[1]);
        }
    }

    #[test]
    fn deterministic() {
        let records = play(3, 300);
        let a = hand_luck(&records, &mut Equity::classic(SequenceOrder::A23High)).unwrap();
        let b = hand_luck(&records, &mut Equity::classic(SequenceOrder::A23High)).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().any(|h| h.luck[0] != 0.0));
    }

    #[test]
    fn a_blind_show_is_corrected_by_its_exact_expectation_and_a_pack_not_at_all() {
        let p = |s: &str| s.parse::<Card>().unwrap();
        let settings = Settings::new(Variant::Classic);
        let strong = [p("Ac"), p("Ad"), p("Ah")];
        let weak = [p("2c"), p("3d"), p("5h")];
        let start = |h: u64| {
            vec![
                event_record(
                    h,
                    &Event::HandStarted {
                        dealer: 0,
                        seats: 2,
                        boot: 1,
                        pot: 2,
                        stake: 1,
                    },
                ),
                event_record(
                    h,
                    &Event::Dealt {
                        seat: 0,
                        redeal: 0,
                        cards: Some(strong),
                    },
                ),
                event_record(
                    h,
                    &Event::Dealt {
                        seat: 1,
                        redeal: 0,
                        cards: Some(weak),
                    },
                ),
            ]
        };
        let end = |h: u64, reason, pot, payoffs: Vec<i64>| {
            event_record(
                h,
                &Event::HandEnded {
                    reason,
                    winners: vec![0],
                    pot,
                    payoffs,
                },
            )
        };
        let mut records = vec![header_record(settings)];
        // Hand 0: both blind, a show at pot 4: seat 0's trail of aces wins for sure, so the
        // whole swing is luck: 4 · (1 − ½).
        records.extend(start(0));
        records.push(end(0, rules::EndReason::Show, 4, vec![2, -2]));
        // Hand 1: seat 1 packs: nothing was ever drawn, no luck.
        records.extend(start(1));
        records.push(end(1, rules::EndReason::LastStanding, 2, vec![1, -1]));
        let mut eq = Equity::classic(SequenceOrder::A23High);
        let hands = hand_luck(&records, &mut eq).unwrap();
        assert_eq!(hands.len(), 2);
        assert_eq!(hands[0].luck, [2.0, -2.0]);
        assert_eq!(hands[0].corrected(0), 0.0);
        assert_eq!(hands[1].luck, [0.0, 0.0]);
    }

    #[test]
    fn estimate_equals_the_plain_mean_when_luck_is_zero() {
        let blocks: Vec<Vec<SeatHand>> = (0..10)
            .map(|b| {
                (0..20)
                    .map(|h| SeatHand {
                        payoff: ((b * 7 + h * 13) % 11) as i64 - 5,
                        luck: 0.0,
                    })
                    .collect()
            })
            .collect();
        let (plain, corrected) = estimates(&blocks, 0.95);
        assert_eq!(plain, corrected);
        // And a luck term that is the whole payoff leaves nothing.
        let all_luck: Vec<Vec<SeatHand>> = blocks
            .iter()
            .map(|b| {
                b.iter()
                    .map(|h| SeatHand {
                        payoff: h.payoff,
                        luck: h.payoff as f64,
                    })
                    .collect()
            })
            .collect();
        let (_, none) = estimates(&all_luck, 0.95);
        assert_eq!(none.mean, 0.0);
    }

    #[test]
    fn other_games_are_refused() {
        let records = vec![header_record(Settings::new(Variant::LallanKallan))];
        let err = hand_luck(&records, &mut Equity::classic(SequenceOrder::A23High));
        assert!(matches!(err, Err(LuckError::Unsupported(_))));
    }
}
