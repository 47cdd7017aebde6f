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
//! [`crate::standings::estimator`]'s decision terms, added after this module's chance term.
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
//! cell of the deal fitted for one bot ([`super::closest`], [`super::lallan`]).

use std::collections::HashMap;

use rules::{Card, EndReason, Event, SequenceOrder, Variant, hand_value};

use crate::replay::Record;
use crate::standings::estimator::LuckError;
use crate::standings::estimator::replay_hands::{finished_hands, two_seats_of};

/// `β`: the weight of a `saw` draw's correction, in units of the pot at that moment. Chosen on
/// held-out seeds (BENCHMARKS.md, "Luck-corrected estimates"); fixed before the judged data.
pub const SEE_SCALE: f64 = 1.0;

/// Chips added to `β · pot` at a `saw` draw (0: the scale is the pot alone).
pub const SEE_OFFSET: f64 = 0.0;

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
    #[cfg(test)]
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
                    let scale = p.pot as f64 * SEE_SCALE + SEE_OFFSET;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::estimator::test_play::{event_record, header_record, play_with};
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    use rules::{Event, Settings};

    /// Plays `hands` hands of the classic game with a stochastic policy that looks at its cards
    /// and bets more with better hands (so actions and cards are correlated, as with real
    /// bots), and returns the replay records.
    fn play(seed: u64, hands: u64) -> Vec<Record> {
        let settings = Settings::new(Variant::Classic);
        let mut eq = Equity::classic(settings.sequence_order);
        play_with(settings, seed, hands, &mut |cards| eq.of(cards))
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
    fn other_games_are_refused() {
        let records = vec![header_record(Settings::new(Variant::LallanKallan))];
        let err = hand_luck(&records, &mut Equity::classic(SequenceOrder::A23High));
        assert!(matches!(err, Err(LuckError::Unsupported(_))));
    }
}
