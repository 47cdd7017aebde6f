//! Control variates on the luck of the cards for Lallan Kallan with two seats: for each hand and
//! seat, a vector `z` of chance terms of mean exactly zero whatever the bots do, in the same
//! cells as Closest to 555's ([`super::closest`]; the table is [`DealTable::lallan_kallan`]):
//! the seat's strength class, the opponent's, and win, tie or lose, a set of cells per position
//! (first or second to act).
//!
//! Lallan Kallan's only chance events are its deals: every card is dealt and seen at once, and
//! there are no draws. A hand may be dealt several times: when both hands are dead (one colour
//! each) the same dealer deals again from a fresh shuffle, the pot carried over. Each deal is a
//! chance event of its own, independent of everything before it, so each adds the one-hot of
//! the cell dealt minus every cell's probability; the terms of a hand are their sum. A dead hand
//! is class 0 of the table, so a deal that kills one seat (the other takes the pot at once) or
//! both (a redeal) is a cell like any other.
//!
//! Why this is not the empty correction the classic game's argument suggests (a function of
//! the deal alone cancels inside a duplicate block): the weights `θ` are fitted for one bot,
//! not shared by both seats, so `θ·z` is not zero-sum and measures how much more *this* bot
//! makes of a cell than the other does with the same cards, which is what a block's total
//! still depends on ([`crate::standings::estimator`]).

use rules::{Card, Event, Variant};

use crate::replay::Record;

use crate::standings::estimator::deal_table::DealTable;
use crate::standings::estimator::replay_hands::{finished_hands, two_seats_of};
use crate::standings::estimator::{HandControls, LuckError};

/// The state of one hand while its events are read.
struct Pending {
    hand: u64,
    dealer: usize,
    /// The deal being read: its redeal number and each seat's cards once dealt.
    redeal: u64,
    hands: [Option<[Card; 3]>; 2],
    deals: usize,
    z: [Vec<f64>; 2],
}

/// Every finished hand of a Lallan Kallan replay with two seats and its chance terms, in order.
/// Pure and deterministic.
pub fn hand_controls(
    records: &[Record],
    table: &DealTable,
) -> Result<Vec<HandControls>, LuckError> {
    two_seats_of(records, Variant::LallanKallan)?;
    let mut out = Vec::new();
    for (start, events) in finished_hands(records) {
        let p = &mut Pending {
            hand: start.hand,
            dealer: start.dealer().unwrap_or(0),
            redeal: 0,
            hands: [None, None],
            deals: 0,
            z: [vec![0.0; table.features()], vec![0.0; table.features()]],
        };
        for e in &events {
            match *e.event {
                Event::Dealt { redeal, .. } => {
                    let redeal = u64::from(redeal);
                    if redeal != p.redeal {
                        if p.hands.iter().any(Option::is_some) {
                            return Err(e.bad("a redeal before both seats' cards were dealt"));
                        }
                        p.redeal = redeal;
                    }
                    let seat = e.seat()?;
                    if p.hands[seat].replace(e.cards()?).is_some() {
                        return Err(e.bad("a seat dealt twice in one deal"));
                    }
                    if let [Some(h0), Some(h1)] = p.hands {
                        table.add_deal_terms([h0, h1], (p.dealer + 1) % 2, &mut p.z);
                        p.hands = [None, None];
                        p.deals += 1;
                    }
                }
                Event::HandEnded { .. } => {
                    if p.deals == 0 || p.hands.iter().any(Option::is_some) {
                        return Err(e.bad("a seat's cards were never dealt"));
                    }
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

#[cfg(test)]
mod worked {
    use super::*;
    use crate::standings::estimator::deal_table::BUCKETS;
    use crate::standings::estimator::test_play::{event_record, h, header_record};
    use rules::{EndReason, Event, SequenceOrder, Settings};

    #[test]
    fn every_deal_of_a_hand_adds_its_cell_minus_the_cells_probabilities() {
        // Dealer 1, so seat 0 acts first. Deal 0: both hands dead (Ah Kh Qd, 2c 5s 9c): a
        // redeal. Deal 1: seat 0 Kh Kd 5c (trail K-K-K), seat 1 Qs Jc 2h (sequence K-Q-J);
        // seat 1 packs.
        let table = DealTable::lallan_kallan(SequenceOrder::A23High, BUCKETS);
        let deals = [
            [h("Ah Kh Qd"), h("2c 5s 9c")],
            [h("Kh Kd 5c"), h("Qs Jc 2h")],
        ];
        let mut records = vec![header_record(Settings::new(Variant::LallanKallan))];
        let mut events = vec![Event::HandStarted {
            dealer: 1,
            seats: 2,
            boot: 1,
            pot: 2,
            stake: 1,
        }];
        for (redeal, deal) in deals.iter().enumerate() {
            for seat in [0, 1] {
                events.push(Event::Dealt {
                    seat,
                    redeal: redeal as u32,
                    cards: Some(deal[seat]),
                });
            }
            if redeal == 0 {
                events.push(Event::Dead { seats: vec![0, 1] });
                events.push(Event::Redeal { redeal: 1, pot: 2 });
            }
        }
        events.push(Event::HandEnded {
            reason: EndReason::LoneSurvivor,
            winners: vec![0],
            pot: 4,
            payoffs: vec![2, -2],
        });
        records.extend(events.iter().map(|e| event_record(0, e)));
        let hands = hand_controls(&records, &table).unwrap();
        assert_eq!(hands.len(), 1);
        assert_eq!(hands[0].payoffs, [2, -2]);
        // Seat 0 acts first: its terms are in the first half, seat 1's in the second.
        let cells = table.cells();
        let mut want = [vec![0.0; 2 * cells], vec![0.0; 2 * cells]];
        for deal in deals {
            for (seat, base) in [(0, 0), (1, cells)] {
                for (i, p) in table.cell.iter().enumerate() {
                    want[seat][base + i] -= p;
                }
                want[seat][base + table.cell_of(&deal[seat], &deal[1 - seat])] += 1.0;
            }
        }
        // The dead deal's cell: class 0 against class 0, a tie.
        assert_eq!(table.cell_of(&deals[0][0], &deals[0][1]), 1);
        for seat in 0..2 {
            for (i, (got, want)) in hands[0].z[seat].iter().zip(&want[seat]).enumerate() {
                assert!(
                    (got - want).abs() < 1e-12,
                    "seat {seat}, term {i}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn a_hand_whose_cards_are_missing_is_malformed() {
        let table = DealTable::lallan_kallan(SequenceOrder::A23High, BUCKETS);
        let mut records = vec![header_record(Settings::new(Variant::LallanKallan))];
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
                cards: Some(h("Kh Kd 5c")),
            },
            Event::HandEnded {
                reason: EndReason::LoneSurvivor,
                winners: vec![0],
                pot: 2,
                payoffs: vec![1, -1],
            },
        ];
        records.extend(events.iter().map(|e| event_record(0, e)));
        let err = hand_controls(&records, &table).unwrap_err();
        assert!(matches!(err, LuckError::Malformed(0, _)), "{err}");
    }
}

#[cfg(test)]
mod sampled {
    use super::super::tests::{Weight, assert_mixtures_have_mean_zero};
    use super::*;
    use crate::standings::estimator::deal_table::BUCKETS;
    use crate::standings::estimator::test_play::play_with;
    use rules::Settings;

    #[test]
    fn every_term_has_mean_zero_under_card_dependent_play() {
        // 6,000 hands of a stochastic policy whose bets and packs depend on its cards, redeals
        // included. Single cells are too rare for a normal test, so the check is on fixed
        // mixtures of the terms (each a mean-zero sum): mean within 4 standard errors of 0.
        let settings = Settings::new(Variant::LallanKallan);
        let table = DealTable::lallan_kallan(settings.sequence_order, BUCKETS);
        let mut strength = |cards: &[Card; 3]| table.class(cards) as f64 / (BUCKETS - 1) as f64;
        let records = play_with(settings, 23, 6000, &mut strength);
        let redeals = records
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    Record::Event {
                        event: Event::Redeal { .. },
                        ..
                    }
                )
            })
            .count();
        assert!(redeals > 150, "about 5.5% of hands redeal: {redeals}");
        let hands = hand_controls(&records, &table).unwrap();
        assert_eq!(hands.len(), 6000);
        let cells = table.cells();
        let mixtures: Vec<(&str, Weight)> = vec![
            ("all", Box::new(|i| 1.0 + (i % 7) as f64)),
            (
                "strong",
                Box::new(move |i| ((i % cells) / 3 / BUCKETS == BUCKETS - 1) as u8 as f64),
            ),
            (
                "dead",
                Box::new(move |i| ((i % cells) / 3 / BUCKETS == 0) as u8 as f64),
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
