//! Decision terms: AIVAT's correction at the decisions of a bot that answered with a mix
//! (`protocol::mix`). The arena drew the action from the bot's own distribution `π`, recorded
//! in the replay, so for any function `φ` of the state after an action,
//! `φ(after the action drawn) − Σₐ π(a)·φ(after a)` has mean zero given everything before the
//! decision, whatever the bots do. Fitted weights on such terms ([`super::fit`]) remove
//! the part of a result that the mixing bot's coin flips decided; a bot that never mixes adds
//! no term (its decisions are its own, and the arena cannot know their odds).
//!
//! `φ` (every game, two seats, from the seat's own side): the payoff if
//! the action ended the hand; else, with `w` the seat's showdown share if the cards were shown
//! now minus one half (½, 0 or −½), `pot·w`, an indicator that the hand goes on, the pot,
//! `stake·w`, `w`, and `w` again in one of [`DECISION_CLASSES`] slots, the one of the seat's own
//! strength class (the deal tables' classes, [`DealTable`]; in Lallan Kallan class 0 is the
//! dead hands, which never bet, so its slot stays empty). The last eight let the value of going on depend
//! on the hand: a bot that mixes between stopping and betting on, and then bets on with its
//! good hands to the turn cap, puts hundreds of chips on that coin flip with some hands and a
//! few with others. Fourteen numbers, chosen on training seeds (BENCHMARKS.md, section 6):
//! few enough for the fit to learn on the tens of blocks a tournament has (192 more did much
//! worse over 20). The classic game got the same fourteen, carried over unchanged before any
//! of its replays was read; its cards are all dealt at the start (the lazy deal of its chance
//! terms is a way of reading the same deal), and the arena's draw of an action is independent
//! of them, so `w` may look at a seat's cards before anyone has seen them.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use protocol::MixEntry;
use rules::{Event, Hand};

use super::LuckError;
use super::deal_table::DealTable;
use super::replay_hands::{EventFields, two_seats_of};
use crate::replay::Record;

/// Strength classes of the class-by-class part of `φ`.
pub const DECISION_CLASSES: usize = 8;

/// How many decision terms a seat has per hand.
pub const DECISION_FEATURES: usize = 6 + DECISION_CLASSES;

/// `φ` of `hand` from `seat`'s side (see the module documentation).
fn features(hand: &Hand, seat: usize, table: &DealTable) -> [f64; DECISION_FEATURES] {
    let mut f = [0.0; DECISION_FEATURES];
    if let Some(payoffs) = hand.payoffs() {
        f[0] = payoffs[seat] as f64;
        return f;
    }
    let (own, other) = (hand.cards(seat), hand.cards(1 - seat));
    let share = match table.key(&own).cmp(&table.key(&other)) {
        Ordering::Greater => 1.0,
        Ordering::Equal => 0.5,
        Ordering::Less => 0.0,
    };
    let pot = hand.pot() as f64;
    let (w, stake) = (share - 0.5, hand.stake() as f64);
    f[1..6].copy_from_slice(&[pot * w, 1.0, pot, stake * w, w]);
    f[6 + table.class(&own) * DECISION_CLASSES / table.buckets()] = w;
    f
}

/// Each finished hand's decision terms, `[seat 0's, seat 1's]`, by hand index, for a two-seat
/// replay of any game (all zero in a hand without a mixed answer). The hands are played
/// again from the header's seed and the recorded actions, so that every action a mix offered
/// can be tried.
pub fn decision_terms(
    records: &[Record],
    table: &DealTable,
) -> Result<BTreeMap<u64, [Vec<f64>; 2]>, LuckError> {
    let Some(Record::Header(header)) = records.first() else {
        return Err(LuckError::NoHeader);
    };
    let variant = header.settings.variant;
    let settings = two_seats_of(records, variant)?;
    let mut out = BTreeMap::new();
    let mut current: Option<(u64, Hand, [Vec<f64>; 2])> = None;
    for record in records {
        match record {
            Record::Event { hand, event } => {
                let e = EventFields { hand: *hand, event };
                match event {
                    Event::HandStarted { .. } => {
                        let dealer = e
                            .dealer()
                            .ok_or_else(|| e.bad("a hand without its dealer"))?;
                        let (h, _) = Hand::seeded(settings, 2, dealer, header.seed, *hand)
                            .map_err(|err| e.bad(&err.to_string()))?;
                        let zero = vec![0.0; DECISION_FEATURES];
                        current = Some((*hand, h, [zero.clone(), zero]));
                    }
                    Event::HandEnded { .. } => {
                        if let Some((h, _, z)) = current.take().filter(|(h, ..)| h == hand) {
                            out.insert(h, z);
                        }
                    }
                    _ => {}
                }
            }
            Record::Action {
                hand,
                seat,
                action,
                mix,
                ..
            } => {
                let Some((_, h, z)) = current.as_mut().filter(|(n, ..)| n == hand) else {
                    continue;
                };
                let malformed = |what: String| LuckError::Malformed(*hand, what);
                if let Some(mix) = mix {
                    add_terms(h, *seat, *action, mix, table, z).map_err(malformed)?;
                }
                h.apply(*seat, *action)
                    .map_err(|err| malformed(format!("a recorded action is illegal: {err}")))?;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Adds to both seats' terms the decision term of `seat` drawing `drawn` from `mix` in `hand`.
fn add_terms(
    hand: &Hand,
    seat: usize,
    drawn: rules::Action,
    mix: &[MixEntry],
    table: &DealTable,
    z: &mut [Vec<f64>; 2],
) -> Result<(), String> {
    let after = |action: rules::Action| -> Result<[[f64; DECISION_FEATURES]; 2], String> {
        let mut h = hand.clone();
        h.apply(seat, action)
            .map_err(|err| format!("a mix offered an illegal action: {err}"))?;
        Ok([features(&h, 0, table), features(&h, 1, table)])
    };
    // The arena drew with the probabilities scaled to add up to 1 (`protocol::mix::pick`).
    let total: f64 = mix.iter().map(|e| e.p).sum();
    if total <= 0.0 {
        return Err("a mix without a positive probability".into());
    }
    let taken = after(drawn)?;
    for entry in mix.iter().filter(|e| e.p > 0.0) {
        let f = after(entry.action)?;
        for s in 0..2 {
            for i in 0..DECISION_FEATURES {
                z[s][i] -= entry.p / total * f[s][i];
            }
        }
    }
    for s in 0..2 {
        for i in 0..DECISION_FEATURES {
            z[s][i] += taken[s][i];
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::estimator::test_play::{header_record, play_mixing};
    use rules::{Action, Settings, Variant};

    #[test]
    fn decision_terms_have_mean_zero_and_explain_the_mixing_seats_luck() {
        let r = check_decision_terms(Variant::Closest555, 21);
        // The payoff term tracks seat 0's payoff: what a fit will use. (r = 0.05 is 3.9
        // standard errors above 0 over 6000 hands.)
        assert!(
            r[0] > 0.05,
            "correlation of the payoff term with the payoff: {}",
            r[0]
        );
    }

    #[test]
    fn classic_decision_terms_have_mean_zero_and_explain_the_mixing_seats_luck() {
        assert_some_term_tracks_the_payoff(Variant::Classic, 23);
    }

    #[test]
    fn lallan_kallan_decision_terms_have_mean_zero_and_explain_the_mixing_seats_luck() {
        assert_some_term_tracks_the_payoff(Variant::LallanKallan, 22);
    }

    /// [`check_decision_terms`], and some term correlates with the payoff by more than 3.9
    /// standard errors (which one depends on the policy: this one's odds follow its key
    /// modulo 7, not its strength).
    fn assert_some_term_tracks_the_payoff(variant: Variant, seed: u64) {
        let r = check_decision_terms(variant, seed);
        let best = r.iter().fold(0.0f64, |m, r| m.max(r.abs()));
        assert!(
            best > 0.05,
            "{variant}: correlations of the terms with the payoff: {r:?}"
        );
    }

    /// Over 6,000 hands of `play_mixing`: every term's mean within 4.5 standard errors of 0 and
    /// the seats' terms opposite or equal as the features are. Returns each of seat 0's terms'
    /// correlation with its payoff.
    fn check_decision_terms(variant: Variant, seed: u64) -> Vec<f64> {
        let records = play_mixing(variant, seed, 6000);
        let table = DealTable::for_variant(
            variant,
            rules::SequenceOrder::A23High,
            crate::standings::estimator::BUCKETS,
        );
        let terms = decision_terms(&records, &table).unwrap();
        assert_eq!(terms.len(), 6000);
        let payoffs: BTreeMap<u64, i64> = records
            .iter()
            .filter_map(|r| match r {
                Record::Event {
                    hand,
                    event: Event::HandEnded { payoffs, .. },
                } => Some((*hand, payoffs[0])),
                _ => None,
            })
            .collect();
        for i in 0..DECISION_FEATURES {
            let z: Vec<f64> = terms.values().map(|t| t[0][i]).collect();
            let n = z.len() as f64;
            let mean = z.iter().sum::<f64>() / n;
            let var = z.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
            if var == 0.0 {
                continue;
            }
            let t = mean / (var / n).sqrt();
            assert!(t.abs() < 4.5, "feature {i}: mean {mean}, t {t}");
        }
        // Zero-sum features are opposite for the two seats; the others equal.
        for t in terms.values() {
            for i in [0, 1, 4, 5] {
                assert!((t[0][i] + t[1][i]).abs() < 1e-9, "{t:?}");
            }
            for i in [2, 3] {
                assert!((t[0][i] - t[1][i]).abs() < 1e-9, "{t:?}");
            }
        }
        // Uncentred, as each term has mean zero.
        (0..DECISION_FEATURES)
            .map(|i| {
                let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
                for (h, t) in &terms {
                    let (x, y) = (t[0][i], payoffs[h] as f64);
                    sxy += x * y;
                    sxx += x * x;
                    syy += y * y;
                }
                if sxx == 0.0 {
                    0.0
                } else {
                    sxy / (sxx * syy).sqrt()
                }
            })
            .collect()
    }

    #[test]
    fn a_worked_decision() {
        // The first seed whose one hand reaches a decision of seat 0 (seat 1 acts first and
        // may pack); then that decision alone, by hand.
        let first_mix = |records: &[Record]| {
            records.iter().find_map(|r| match r {
                Record::Action {
                    seat: 0,
                    action,
                    mix: Some(mix),
                    ..
                } => Some((*action, mix.clone())),
                _ => None,
            })
        };
        let (seed, records, first) = (1..100)
            .find_map(|seed| {
                let records = play_mixing(Variant::Closest555, seed, 1);
                first_mix(&records).map(|first| (seed, records, first))
            })
            .expect("some hand reaches seat 0");
        let settings = Settings::new(Variant::Closest555);
        let (hand, _) = Hand::seeded(settings, 2, 0, seed, 0).unwrap();
        // Seat 1 acts first when seat 0 deals: replay up to seat 0's first decision.
        let mut h = hand.clone();
        for r in &records {
            if let Record::Action { seat, action, .. } = r {
                if *seat == 0 {
                    break;
                }
                h.apply(*seat, *action).unwrap();
            }
        }
        let table = DealTable::new(settings.sequence_order);
        let (drawn, mix) = first;
        let phi = |a: Action| {
            let mut c = h.clone();
            c.apply(0, a).unwrap();
            features(&c, 0, &table)
        };
        let mut expected = phi(drawn);
        for e in &mix {
            let f = phi(e.action);
            for i in 0..DECISION_FEATURES {
                expected[i] -= e.p * f[i];
            }
        }
        let zero = vec![0.0; DECISION_FEATURES];
        let mut z = [zero.clone(), zero];
        add_terms(&h, 0, drawn, &mix, &table, &mut z).unwrap();
        for i in 0..DECISION_FEATURES {
            assert!(
                (z[0][i] - expected[i]).abs() < 1e-9,
                "{z:?} vs {expected:?}"
            );
        }
    }

    #[test]
    fn the_value_of_going_on_is_split_by_the_seats_own_strength_class() {
        // 555 (the best hand, the top class) against K Q J (000, the worst): the hand goes on, so
        // each seat's `w` (½ for the winner, −½ for the loser) is in feature 5 and again in
        // the slot of its own class, and in no other slot.
        let p = |c: &str| c.parse::<rules::Card>().unwrap();
        let top: Vec<rules::Card> = ["5c", "Kc", "5d", "Qd", "5h", "Jh"]
            .iter()
            .map(|c| p(c))
            .collect();
        let deck = rules::Deck::stacked(&top).unwrap();
        let settings = Settings::new(Variant::Closest555);
        let (hand, _) = Hand::new(settings, 2, 0, rules::DealSource::Stacked(vec![deck])).unwrap();
        let table = DealTable::new(settings.sequence_order);
        let strong = (0..2)
            .find(|&s| hand.cards(s).iter().all(|c| c.rank().value() == 5))
            .expect("one seat holds the three fives");
        assert_eq!(table.class(&hand.cards(strong)), table.buckets() - 1);
        assert_eq!(table.class(&hand.cards(1 - strong)), 0);
        for (seat, w, class) in [(strong, 0.5, DECISION_CLASSES - 1), (1 - strong, -0.5, 0)] {
            let f = features(&hand, seat, &table);
            assert_eq!(f[5], w);
            for k in 0..DECISION_CLASSES {
                assert_eq!(
                    f[6 + k],
                    if k == class { w } else { 0.0 },
                    "seat {seat} slot {k}"
                );
            }
        }
    }

    #[test]
    fn a_replay_without_mixes_has_zero_terms_and_larger_tables_are_refused() {
        let mut records = play_mixing(Variant::Closest555, 9, 50);
        for r in &mut records {
            if let Record::Action { mix, .. } = r {
                *mix = None;
            }
        }
        let table = DealTable::new(rules::SequenceOrder::A23High);
        let terms = decision_terms(&records, &table).unwrap();
        assert!(
            terms
                .values()
                .all(|t| t.iter().flatten().all(|&v| v == 0.0))
        );
        let mut six_seats = header_record(Settings::new(Variant::Closest555));
        if let Record::Header(h) = &mut six_seats {
            let bot = h.bots[0].clone();
            h.bots.resize(6, bot);
        }
        assert!(matches!(
            decision_terms(&[six_seats], &table),
            Err(LuckError::Unsupported(_))
        ));
    }
}
