//! Control variates on the luck of the cards for Closest to 555 with two seats: for each hand
//! and seat, a vector `z` of chance terms that each have mean exactly zero whatever the bots do.
//! [`crate::standings::estimator`] turns them into a corrected estimate with coefficients fitted on other
//! blocks than the ones they correct.
//!
//! # The value of a state, and the chance events that move it
//!
//! A seat's state is summed up by its *cell*: its hand's strength class, the opponent's
//! class ([`BUCKETS`] classes of equal probability, cut on the hand values; suits ignored, as
//! the game ignores them), and whether its hand beats, ties or loses to the other. Which seat
//! acts first is fixed by the schedule (the dealer), not by chance, so each position has its
//! own cells: `z` has `2 · 3 · BUCKETS²` numbers ([`DealTable::features`]). The value function
//! is a weight per cell (`θ`, fitted elsewhere), and every chance event adds to `z` the cell it
//! moved the seat to minus the cell it was expected to:
//!
//! * **The deal**: the one-hot of the dealt cell minus every cell's exact probability (both
//!   hands enumerated as multisets of digits with their numbers of card choices,
//!   [`DealTable`]).
//! * **Each swap's draw**, for both seats (the swapper's cell and the other's both move): the
//!   one-hot of the cell reached minus the average over every card the draw could have given,
//!   the cards nobody has held yet (the stock is the rest of a uniform shuffle, and nothing any
//!   bot did depended on its order).
//!
//! Every term is `f(outcome) − E[f(outcome) | everything before it]`, so its expectation is
//! zero for any bots, deterministic or not, and a linear combination `θ·z` with `θ` chosen
//! without looking at the hands it corrects keeps `payoff − θ·z` an unbiased estimate of the
//! payoff. The decisions (what to discard, what to bet) get no terms: that needs the bots'
//! policies (BENCHMARKS.md section 6).
//!
//! The form of the terms (8 classes, the cells, the swap terms) was chosen on seeds disjoint
//! from those BENCHMARKS.md reports; only `θ` is fitted, and never on the hands it corrects.

use rules::{Card, Event, Variant};

use crate::replay::Record;

use crate::standings::estimator::deal_table::DealTable;
use crate::standings::estimator::replay_hands::{finished_hands, two_seats_of};
use crate::standings::estimator::{HandControls, LuckError};

/// The state of one hand while its events are read.
struct Pending {
    hand: u64,
    dealer: usize,
    hands: [Option<[Card; 3]>; 2],
    /// Cards anyone has held (dealt or drawn): the draw is uniform over the others.
    seen: u64,
    z: [Vec<f64>; 2],
    dealt_terms_done: bool,
}

/// Every finished hand of a Closest to 555 replay with two seats and its control terms, in
/// order. Pure and deterministic.
pub fn hand_controls(
    records: &[Record],
    table: &DealTable,
) -> Result<Vec<HandControls>, LuckError> {
    two_seats_of(records, Variant::Closest555)?;
    let mut out = Vec::new();
    for (start, events) in finished_hands(records) {
        let p = &mut Pending {
            hand: start.hand,
            dealer: start.dealer().unwrap_or(0),
            hands: [None, None],
            seen: 0,
            z: [vec![0.0; table.features()], vec![0.0; table.features()]],
            dealt_terms_done: false,
        };
        for e in &events {
            let bad = |what: &str| e.bad(what);
            match *e.event {
                Event::Dealt { .. } => {
                    let cards = e.cards()?;
                    p.hands[e.seat()?] = Some(cards);
                    for c in cards {
                        p.seen |= 1 << c.index();
                    }
                }
                Event::Swapped {
                    discarded, drawn, ..
                } => {
                    let s = e.seat()?;
                    let (Some(discarded), Some(drawn)) = (discarded, drawn) else {
                        return Err(bad("a swap without its cards"));
                    };
                    deal_terms(p, table, &bad)?;
                    swap_terms(p, table, s, discarded, drawn, &bad)?;
                }
                Event::HandEnded { .. } => {
                    deal_terms(p, table, &bad)?;
                    out.push(HandControls {
                        hand: p.hand,
                        payoffs: e.payoffs()?,
                        z: std::mem::take(&mut p.z),
                        decisions: 0,
                    });
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

/// The deal's terms, once per hand (at its first swap or its end, when both hands are known).
fn deal_terms(
    p: &mut Pending,
    table: &DealTable,
    bad: &dyn Fn(&str) -> LuckError,
) -> Result<(), LuckError> {
    if p.dealt_terms_done {
        return Ok(());
    }
    let [Some(h0), Some(h1)] = p.hands else {
        return Err(bad("a seat's cards were never dealt"));
    };
    table.add_deal_terms([h0, h1], (p.dealer + 1) % 2, &mut p.z);
    p.dealt_terms_done = true;
    Ok(())
}

/// A swap's draw: seat `swapper` replaced `discarded` by `drawn`, uniform over unseen cards.
fn swap_terms(
    p: &mut Pending,
    table: &DealTable,
    swapper: usize,
    discarded: Card,
    drawn: Card,
    bad: &dyn Fn(&str) -> LuckError,
) -> Result<(), LuckError> {
    let [Some(h0), Some(h1)] = p.hands else {
        return Err(bad("a swap before both hands were dealt"));
    };
    let hands = [h0, h1];
    let Some(at) = hands[swapper].iter().position(|&c| c == discarded) else {
        return Err(bad("a swap discarded a card the seat did not hold"));
    };
    if p.seen & (1 << drawn.index()) != 0 {
        return Err(bad("a swap drew a card already seen"));
    }
    // The value of a state is a weight per cell (own class, other's class, outcome) of each
    // seat; the draw moves both seats' cells. Term: the cell reached minus the expected cell.
    let first = (p.dealer + 1) % 2;
    let cells_with = |card: Card| -> [usize; 2] {
        let mut h = hands;
        h[swapper][at] = card;
        [0, 1].map(|s| {
            let (own, other) = (&h[s], &h[1 - s]);
            let base = if s == first { 0 } else { table.cells() };
            base + table.cell_of(own, other)
        })
    };
    let unseen: Vec<Card> = Card::pack()
        .into_iter()
        .filter(|c| p.seen & (1 << c.index()) == 0)
        .collect();
    let weight = 1.0 / unseen.len() as f64;
    for card in unseen {
        for (z, cell) in p.z.iter_mut().zip(cells_with(card)) {
            z[cell] -= weight;
        }
    }
    for (z, cell) in p.z.iter_mut().zip(cells_with(drawn)) {
        z[cell] += 1.0;
    }
    let mut h = hands[swapper];
    h[at] = drawn;
    p.hands[swapper] = Some(h);
    p.seen |= 1 << drawn.index();
    Ok(())
}

#[cfg(test)]
mod worked {
    use super::*;
    use crate::standings::estimator::test_play::{event_record, h, header_record};
    use rules::{EndReason, Event};

    #[test]
    fn a_swap_is_centred_on_the_cards_nobody_has_seen() {
        // Dealer 0, so seat 1 acts first. Seat 0 holds 5c 5d Kh (550), seat 1 2c 3d 4h.
        // Seat 0 throws Kh and draws 5h (555); then seat 1 throws 2c and draws 5s.
        let table = DealTable::new(rules::SequenceOrder::A23High);
        let (s0, s1) = (h("5c 5d Kh"), h("2c 3d 4h"));
        let settings = rules::Settings::new(Variant::Closest555);
        let mut records = vec![header_record(settings)];
        let events = [
            Event::HandStarted {
                dealer: 0,
                seats: 2,
                boot: 1,
                pot: 2,
                stake: 1,
            },
            Event::Dealt {
                seat: 0,
                redeal: 0,
                cards: Some(s0),
            },
            Event::Dealt {
                seat: 1,
                redeal: 0,
                cards: Some(s1),
            },
            Event::Swapped {
                seat: 0,
                cost: 0,
                discarded: Some("Kh".parse().unwrap()),
                drawn: Some("5h".parse().unwrap()),
            },
            Event::Swapped {
                seat: 1,
                cost: 0,
                discarded: Some("2c".parse().unwrap()),
                drawn: Some("5s".parse().unwrap()),
            },
            Event::HandEnded {
                reason: EndReason::Show,
                winners: vec![0],
                pot: 4,
                payoffs: vec![2, -2],
            },
        ];
        records.extend(events.iter().map(|e| event_record(0, e)));
        let hands = hand_controls(&records, &table).unwrap();
        assert_eq!(hands.len(), 1);
        let cells = table.cells();
        // Seat 0 is second to act: its terms are in the second half; seat 1's in the first.
        let (base0, base1) = (cells, 0);
        // The expected terms, computed here from the rules: the deal's cell minus its
        // probability, then for each swap the reached cell minus the average over the unseen
        // cards (46 for the first swap, 45 for the second: 5h is seen by then).
        let mut want = [vec![0.0; 2 * cells], vec![0.0; 2 * cells]];
        let deal = [(s0, s1, base0, 0usize), (s1, s0, base1, 1usize)];
        for (own, other, base, seat) in deal {
            for (i, p) in table.cell.iter().enumerate() {
                want[seat][base + i] -= p;
            }
            want[seat][base + table.cell_of(&own, &other)] += 1.0;
        }
        let pack = Card::pack();
        let seen1: Vec<Card> = s0.iter().chain(&s1).copied().collect();
        let unseen1: Vec<Card> = pack
            .iter()
            .copied()
            .filter(|c| !seen1.contains(c))
            .collect();
        assert_eq!(unseen1.len(), 46);
        let five = |x: Card| [s0[0], s0[1], x];
        for &c in &unseen1 {
            want[0][base0 + table.cell_of(&five(c), &s1)] -= 1.0 / 46.0;
            want[1][base1 + table.cell_of(&s1, &five(c))] -= 1.0 / 46.0;
        }
        let after0 = five("5h".parse().unwrap());
        want[0][base0 + table.cell_of(&after0, &s1)] += 1.0;
        want[1][base1 + table.cell_of(&s1, &after0)] += 1.0;
        let unseen2: Vec<Card> = unseen1
            .iter()
            .copied()
            .filter(|c| *c != "5h".parse::<Card>().unwrap())
            .collect();
        assert_eq!(unseen2.len(), 45);
        let one = |x: Card| [x, s1[1], s1[2]];
        for &c in &unseen2 {
            want[0][base0 + table.cell_of(&after0, &one(c))] -= 1.0 / 45.0;
            want[1][base1 + table.cell_of(&one(c), &after0)] -= 1.0 / 45.0;
        }
        let after1 = one("5s".parse().unwrap());
        want[0][base0 + table.cell_of(&after0, &after1)] += 1.0;
        want[1][base1 + table.cell_of(&after1, &after0)] += 1.0;
        for seat in 0..2 {
            for (i, (got, want)) in hands[0].z[seat].iter().zip(&want[seat]).enumerate() {
                assert!(
                    (got - want).abs() < 1e-12,
                    "seat {seat}, term {i}: {got} vs {want}"
                );
            }
        }
        assert_eq!(hands[0].payoffs, [2, -2]);
    }
}

#[cfg(test)]
mod sampled {
    use super::super::tests::{Weight, assert_mixtures_have_mean_zero};
    use super::*;
    use crate::standings::estimator::deal_table::BUCKETS;
    use crate::standings::estimator::test_play::play_with;

    #[test]
    fn every_term_has_mean_zero_under_card_dependent_play() {
        // 6,000 hands of a stochastic policy whose bets, packs and swaps depend on its cards.
        // Single cells are too rare for a normal test, so the check is on fixed mixtures of
        // the terms (each a mean-zero sum): all terms, the deal's cells, the terms of cells
        // holding the strongest class, of ties: mean within 4 standard errors of 0.
        let settings = rules::Settings::new(Variant::Closest555);
        let table = DealTable::new(settings.sequence_order);
        let mut strength = |cards: &[Card; 3]| {
            // 1 for 555, 0 for the farthest hand.
            1.0 - f64::from(table.key(cards) % 1000) / 1000.0
        };
        let records = play_with(settings, 17, 6000, &mut strength);
        let hands = hand_controls(&records, &table).unwrap();
        assert_eq!(hands.len(), 6000);
        assert!(hands.iter().any(|h| h.payoffs[0] != 0));
        let cells = table.cells();
        // The weight of term i in each mixture.
        let mixtures: Vec<(&str, Weight)> = vec![
            ("all", Box::new(|i| 1.0 + (i % 7) as f64)),
            (
                "strong",
                Box::new(move |i| ((i % cells) / 3 / BUCKETS == BUCKETS - 1) as u8 as f64),
            ),
            ("ties", Box::new(|i| (i % 3 == 1) as u8 as f64)),
            (
                "wins, first",
                Box::new(move |i| (i < cells && i % 3 == 0) as u8 as f64),
            ),
        ];
        assert_mixtures_have_mean_zero(&hands, &mixtures);
    }
}
