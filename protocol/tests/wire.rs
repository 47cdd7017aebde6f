//! The hand-written writers (`protocol::wire`) against serde: byte for byte the same line for
//! every request and every event view of thousands of random hands of every variant, and for
//! arbitrary field values.

use std::collections::BTreeMap;

use proptest::prelude::*;
use protocol::wire::{write_event, write_message, write_request};
use protocol::{ArenaMessage, FaultKind, FaultNotice, Request};

mod common;
use common::{every_arena_message, every_event, every_request};
use rules::{
    Action, Card, DecisionKind, EndReason, Event, Hand, LegalAction, PlayerView, Settings, Variant,
};

/// What serde writes: the specification the fast writers must match.
fn serde_line(message: &ArenaMessage) -> String {
    serde_json::to_string(message).unwrap()
}

fn fast_request(request: &Request) -> String {
    let mut out = Vec::new();
    write_request(&mut out, request);
    String::from_utf8(out).unwrap()
}

fn fast_event(hand: u64, event: &Event) -> String {
    let mut out = b"junk already in the buffer".to_vec();
    let start = out.len();
    write_event(&mut out, hand, event);
    String::from_utf8(out[start..].to_vec()).unwrap()
}

fn check_event(hand: u64, event: &Event) {
    let message = ArenaMessage::Event {
        hand,
        event: event.clone(),
    };
    assert_eq!(fast_event(hand, event), serde_line(&message));
}

/// xorshift64*: the test's own choices, reproducible from the loop indices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

fn random_action(rng: &mut Rng, legal: &[LegalAction]) -> Action {
    // Packs and shows less often, so that hands reach sideshows, reveals and swaps.
    let mut entry = &legal[rng.below(legal.len() as u64) as usize];
    if matches!(entry, LegalAction::Pack | LegalAction::Show { .. }) && rng.below(4) != 0 {
        entry = &legal[rng.below(legal.len() as u64) as usize];
    }
    entry.instance(|n| rng.below(n))
}

/// Every event (whole, and as each seat and an outsider see it) and every request of
/// `hands` random hands, written both ways.
fn play_and_compare(variant: Variant, seats: usize, hands: u64) -> (u64, u64) {
    let (mut events_checked, mut requests_checked) = (0, 0);
    let blind_start = variant.has_blind_play();
    for hand_index in 0..hands {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ((hand_index + 1) * (seats as u64 + 7)));
        let mut settings = Settings::new(variant);
        settings.boot = 1 + rng.below(3);
        settings.max_stake = settings.boot * [1, 2, 8, 64][rng.below(4) as usize];
        settings.pot_limit = settings.boot * seats as u64 + 1 + rng.below(60 * settings.boot);
        settings.swap_cost = rng.below(3);
        settings.sideshow = rng.below(5) != 0;
        let dealer = hand_index as usize % seats;
        let (mut hand, mut events) =
            Hand::seeded(settings, seats, dealer, 77 + seats as u64, hand_index).unwrap();
        let mut id = hand_index * 1000;
        loop {
            for event in &events {
                check_event(hand_index, event);
                check_event(hand_index, &event.for_seat(usize::MAX, blind_start));
                for seat in 0..seats {
                    check_event(hand_index, &event.for_seat(seat, blind_start));
                }
                events_checked += 1;
            }
            let Some(decision) = hand.to_act() else { break };
            id += 1;
            let request = Request::from_hand(
                &hand,
                hand_index,
                decision.kind,
                decision.seat,
                id,
                rng.below(100_000),
                rng.below(1 << 40),
            );
            assert_eq!(
                fast_request(&request),
                serde_line(&ArenaMessage::Request(request.clone()))
            );
            requests_checked += 1;
            let action = random_action(&mut rng, &request.legal);
            events = hand.apply(decision.seat, action).unwrap();
        }
    }
    (events_checked, requests_checked)
}

#[test]
fn requests_and_events_of_random_hands_are_written_as_serde_writes_them() {
    let mut kinds = std::collections::BTreeSet::new();
    for variant in [Variant::Classic, Variant::Closest555, Variant::LallanKallan] {
        for seats in [2, 3, 6, 10] {
            let (events, requests) = play_and_compare(variant, seats, 300);
            eprintln!("{variant:?} {seats} seats: {events} events, {requests} requests");
            assert!(
                events > 1000 && requests > 300,
                "{variant:?} {seats}: {events} events, {requests} requests"
            );
            kinds.insert(format!("{variant:?}"));
        }
    }
    assert_eq!(kinds.len(), 3);
}

/// Every message kind the schema tests build (every event kind and reason with its hidden
/// fields present and absent, revealed hands of every category, every request shape, every
/// other message), plus numbers at their extremes.
#[test]
fn every_message_kind_is_written_as_serde_writes_it() {
    let mut events = every_event();
    events.extend([
        Event::Bet {
            seat: 16,
            amount: u64::MAX,
            blind: true,
            stake: 0,
            pot: 1 << 40,
        },
        Event::Dead { seats: vec![] },
        Event::HandEnded {
            reason: EndReason::PotLimit,
            winners: vec![],
            pot: 0,
            payoffs: vec![i64::MIN, i64::MAX, 0, -10],
        },
    ]);
    assert!(events.iter().any(|e| matches!(e, Event::Revealed { .. })));
    for (i, event) in events.iter().enumerate() {
        check_event(i as u64 * 1_000_003, event);
    }
    let requests = every_request();
    for request in &requests {
        assert_eq!(
            fast_request(request),
            serde_line(&ArenaMessage::Request(request.clone()))
        );
    }
    let messages = every_arena_message();
    assert!(messages.len() > events.len() / 2 + requests.len() / 2);
    for message in &messages {
        let mut out = Vec::new();
        write_message(&mut out, message);
        assert_eq!(String::from_utf8(out).unwrap(), serde_line(message));
    }
    // serde's escaping where the hand-written writers would have none to do.
    let fault = ArenaMessage::Fault(FaultNotice {
        id: Some(4),
        fault: FaultKind::Timeout,
        detail: "a \"quoted\" detail\nwith a newline".to_string(),
        applied: Some(Action::Pack),
    });
    assert_eq!(fault.to_line(), serde_line(&fault));
}

fn any_card() -> impl Strategy<Value = Card> {
    (0..52usize).prop_map(|i| Card::pack()[i])
}

fn any_cards() -> impl Strategy<Value = [Card; 3]> {
    [any_card(), any_card(), any_card()]
}

fn any_legal() -> impl Strategy<Value = LegalAction> {
    prop_oneof![
        Just(LegalAction::Pack),
        Just(LegalAction::See),
        Just(LegalAction::Keep),
        Just(LegalAction::Accept),
        Just(LegalAction::Refuse),
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(min, max, multiple_of)| {
            LegalAction::Bet {
                min,
                max,
                multiple_of,
            }
        }),
        any::<u64>().prop_map(|cost| LegalAction::Show { cost }),
        (any::<u64>(), any::<usize>())
            .prop_map(|(cost, target)| LegalAction::Sideshow { cost, target }),
        (any_cards(), any::<u64>()).prop_map(|(cards, cost)| LegalAction::Swap { cards, cost }),
    ]
}

fn any_player() -> impl Strategy<Value = PlayerView> {
    (any::<[bool; 3]>(), any::<u64>(), any::<u32>(), any::<u32>()).prop_map(
        |([in_hand, seen, dead], put_in, turns, swaps)| PlayerView {
            in_hand,
            seen,
            dead,
            put_in,
            turns,
            swaps,
        },
    )
}

fn any_request() -> impl Strategy<Value = Request> {
    (
        (any::<u64>(), any::<u64>(), 0..3u8),
        prop::collection::vec(any_legal(), 0..6),
        (any::<u64>(), any::<u64>(), any::<usize>()),
        (
            prop::option::of(any::<usize>()),
            prop::option::of(any_cards()),
        ),
        prop::collection::vec(any_player(), 0..5),
        prop::collection::btree_map(any::<usize>(), any_cards(), 0..4),
        (any::<u64>(), any::<u64>()),
    )
        .prop_map(
            |(
                (id, hand, kind),
                legal,
                (pot, stake, dealer),
                (sideshow_from, cards),
                players,
                known,
                (time_ms, bank_ms),
            )| {
                Request {
                    id,
                    hand,
                    kind: [
                        DecisionKind::Swap,
                        DecisionKind::Bet,
                        DecisionKind::SideshowReply,
                    ][kind as usize],
                    legal,
                    pot,
                    stake,
                    dealer,
                    sideshow_from,
                    cards,
                    players,
                    known: known.into_iter().collect::<BTreeMap<_, _>>(),
                    time_ms,
                    bank_ms,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_requests_are_written_as_serde_writes_them(request in any_request()) {
        prop_assert_eq!(
            fast_request(&request),
            serde_line(&ArenaMessage::Request(request.clone()))
        );
    }
}
