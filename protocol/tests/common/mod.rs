//! One value of every kind the protocol's Rust types can take, shared by the schema tests
//! (each must validate) and the wire tests (each must be written as serde writes it).
#![allow(dead_code)] // each test file uses a different part

use std::collections::BTreeMap;

use protocol::{
    Action, ArenaMessage, DecisionKind, Event, FaultKind, FaultNotice, Hello, LegalAction,
    MatchEnd, PlayerView, Request, SequenceOrder, Settings, TimeLimits, Variant,
};
use rules::eval::Category;
use rules::{Card, EndReason, HandDescription, PackReason, RevealReason, RevealedHand};

pub fn card(text: &str) -> Card {
    text.parse().unwrap()
}

pub fn hand3(text: &str) -> [Card; 3] {
    let cards = rules::card::cards(text).unwrap();
    [cards[0], cards[1], cards[2]]
}

/// One of each variant, for each enum without an `ALL` list. Each `match` has no wildcard, so
/// a new variant stops this test from compiling until it is listed here (and in the schema).
pub fn every_pack_reason() -> Vec<PackReason> {
    let all = vec![PackReason::Chose, PackReason::LostSideshow];
    for r in &all {
        match r {
            PackReason::Chose | PackReason::LostSideshow => {}
        }
    }
    all
}

pub fn every_reveal_reason() -> Vec<RevealReason> {
    let all = vec![
        RevealReason::Show,
        RevealReason::PotLimit,
        RevealReason::TurnCap,
    ];
    for r in &all {
        match r {
            RevealReason::Show | RevealReason::PotLimit | RevealReason::TurnCap => {}
        }
    }
    all
}

pub fn every_end_reason() -> Vec<EndReason> {
    let all = vec![
        EndReason::LastStanding,
        EndReason::LoneSurvivor,
        EndReason::Show,
        EndReason::PotLimit,
        EndReason::TurnCap,
        EndReason::RedealCap,
    ];
    for r in &all {
        match r {
            EndReason::LastStanding
            | EndReason::LoneSurvivor
            | EndReason::Show
            | EndReason::PotLimit
            | EndReason::TurnCap
            | EndReason::RedealCap => {}
        }
    }
    all
}

pub fn every_category() -> Vec<Category> {
    let all = vec![
        Category::HighCard,
        Category::Pair,
        Category::Colour,
        Category::Sequence,
        Category::PureSequence,
        Category::Trail,
    ];
    for c in &all {
        match c {
            Category::HighCard
            | Category::Pair
            | Category::Colour
            | Category::Sequence
            | Category::PureSequence
            | Category::Trail => {}
        }
    }
    all
}

pub fn every_decision_kind() -> Vec<DecisionKind> {
    let all = vec![
        DecisionKind::Bet,
        DecisionKind::Swap,
        DecisionKind::SideshowReply,
    ];
    for k in &all {
        match k {
            DecisionKind::Bet | DecisionKind::Swap | DecisionKind::SideshowReply => {}
        }
    }
    all
}

pub fn every_sequence_order() -> Vec<SequenceOrder> {
    let all = vec![SequenceOrder::A23High, SequenceOrder::AkqHigh];
    for o in &all {
        match o {
            SequenceOrder::A23High | SequenceOrder::AkqHigh => {}
        }
    }
    all
}

pub fn every_action() -> Vec<Action> {
    let all = vec![
        Action::Pack,
        Action::See,
        Action::Bet { amount: 4 },
        Action::Show,
        Action::Sideshow,
        Action::Swap { card: card("Td") },
        Action::Keep,
        Action::Accept,
        Action::Refuse,
    ];
    for a in &all {
        match a {
            Action::Pack
            | Action::See
            | Action::Bet { .. }
            | Action::Show
            | Action::Sideshow
            | Action::Swap { .. }
            | Action::Keep
            | Action::Accept
            | Action::Refuse => {}
        }
    }
    all
}

pub fn every_legal_action() -> Vec<LegalAction> {
    let all = vec![
        LegalAction::Pack,
        LegalAction::See,
        LegalAction::Bet {
            min: 2,
            max: 4,
            multiple_of: 2,
        },
        LegalAction::Show { cost: 2 },
        LegalAction::Sideshow { cost: 2, target: 1 },
        LegalAction::Swap {
            cards: hand3("5s Kd 9h"),
            cost: 0,
        },
        LegalAction::Keep,
        LegalAction::Accept,
        LegalAction::Refuse,
    ];
    for l in &all {
        match l {
            LegalAction::Pack
            | LegalAction::See
            | LegalAction::Bet { .. }
            | LegalAction::Show { .. }
            | LegalAction::Sideshow { .. }
            | LegalAction::Swap { .. }
            | LegalAction::Keep
            | LegalAction::Accept
            | LegalAction::Refuse => {}
        }
    }
    all
}

/// Hand descriptions of every kind and category, from the evaluator itself.
pub fn every_hand_description() -> Vec<HandDescription> {
    let order = SequenceOrder::A23High;
    let mut all: Vec<HandDescription> = [
        "Ac Kd 9h", "8s 8c 6s", "Ah 8h 3h", "Qh Jc Td", "5d 4d 3d", "7c 7d 7h",
    ]
    .iter()
    .map(|h| rules::describe(Variant::Classic, order, &hand3(h)))
    .collect();
    all.push(rules::describe(
        Variant::Closest555,
        order,
        &hand3("5c 5d 4s"),
    ));
    // Lallan Kallan: a live hand with a wild, and a dead (one-colour) one.
    all.push(rules::describe(
        Variant::LallanKallan,
        order,
        &hand3("Qh Td 8c"),
    ));
    all.push(rules::describe(
        Variant::LallanKallan,
        order,
        &hand3("Qh Td 8d"),
    ));
    for d in &all {
        match d {
            HandDescription::Ranked { .. }
            | HandDescription::Closest555 { .. }
            | HandDescription::Dead => {}
        }
    }
    all
}

/// Every event kind, each with its hidden fields present and absent where it has some.
pub fn every_event() -> Vec<Event> {
    let mut all = vec![
        Event::HandStarted {
            dealer: 3,
            seats: 4,
            boot: 1,
            pot: 4,
            stake: 1,
        },
        Event::Dealt {
            seat: 0,
            redeal: 0,
            cards: Some(hand3("As Kd 3h")),
        },
        Event::Dealt {
            seat: 1,
            redeal: 2,
            cards: None,
        },
        Event::Dead { seats: vec![1, 3] },
        Event::Redeal { redeal: 1, pot: 4 },
        Event::Saw {
            seat: 1,
            cards: Some(hand3("4h 4d Ks")),
        },
        Event::Saw {
            seat: 2,
            cards: None,
        },
        Event::Swapped {
            seat: 0,
            cost: 0,
            discarded: Some(card("Tc")),
            drawn: Some(card("7s")),
        },
        Event::Swapped {
            seat: 2,
            cost: 1,
            discarded: None,
            drawn: None,
        },
        Event::Kept { seat: 1 },
        Event::Bet {
            seat: 1,
            amount: 1,
            blind: true,
            stake: 1,
            pot: 5,
        },
        Event::Bet {
            seat: 2,
            amount: 2,
            blind: false,
            stake: 1,
            pot: 7,
        },
        Event::ShowAsked {
            seat: 1,
            against: 2,
            cost: 2,
            pot: 9,
        },
        Event::SideshowAsked {
            seat: 2,
            target: 1,
            cost: 8,
            pot: 24,
        },
        Event::SideshowRefused { seat: 2, target: 1 },
        Event::SideshowCompared {
            seat: 2,
            target: 1,
            loser: 2,
            seat_cards: Some(hand3("9h As 4d")),
            target_cards: Some(hand3("Qh Td 8c")),
        },
        Event::SideshowCompared {
            seat: 2,
            target: 1,
            loser: 1,
            seat_cards: None,
            target_cards: None,
        },
    ];
    for reason in every_pack_reason() {
        all.push(Event::Packed { seat: 0, reason });
    }
    for reason in every_reveal_reason() {
        all.push(Event::Revealed {
            reason,
            hands: every_hand_description()
                .into_iter()
                .enumerate()
                .map(|(seat, value)| RevealedHand {
                    seat,
                    cards: hand3("Qh Td 8c"),
                    value,
                })
                .collect(),
        });
    }
    for reason in every_end_reason() {
        all.push(Event::HandEnded {
            reason,
            winners: vec![1],
            pot: 48,
            payoffs: vec![-17, 27, -9, -1],
        });
    }
    for e in &all {
        match e {
            Event::HandStarted { .. }
            | Event::Dealt { .. }
            | Event::Dead { .. }
            | Event::Redeal { .. }
            | Event::Saw { .. }
            | Event::Swapped { .. }
            | Event::Kept { .. }
            | Event::Bet { .. }
            | Event::Packed { .. }
            | Event::ShowAsked { .. }
            | Event::SideshowAsked { .. }
            | Event::SideshowRefused { .. }
            | Event::SideshowCompared { .. }
            | Event::Revealed { .. }
            | Event::HandEnded { .. } => {}
        }
    }
    all
}

pub fn player(in_hand: bool, seen: bool) -> PlayerView {
    PlayerView {
        in_hand,
        seen,
        dead: false,
        put_in: 1,
        turns: 0,
        swaps: 0,
    }
}

pub fn every_request() -> Vec<Request> {
    let base = Request {
        id: 17,
        hand: 0,
        kind: DecisionKind::Bet,
        legal: every_legal_action(),
        pot: 10,
        stake: 1,
        dealer: 0,
        sideshow_from: None,
        cards: Some(hand3("As Kd 3h")),
        players: vec![player(true, true), player(true, false), player(false, true)],
        known: BTreeMap::from([(1, hand3("2c 2d 9s"))]),
        time_ms: 1000,
        bank_ms: 10000,
    };
    let mut all = Vec::new();
    for kind in every_decision_kind() {
        all.push(Request {
            kind,
            sideshow_from: (kind == DecisionKind::SideshowReply).then_some(2),
            ..base.clone()
        });
    }
    // Blind (no cards), nothing known.
    all.push(Request {
        cards: None,
        known: BTreeMap::new(),
        legal: vec![
            LegalAction::Pack,
            LegalAction::See,
            LegalAction::Bet {
                min: 1,
                max: 2,
                multiple_of: 1,
            },
        ],
        ..base.clone()
    });
    all
}

pub fn every_settings() -> Vec<Settings> {
    let mut all = Vec::new();
    for variant in Variant::ALL {
        for sequence_order in every_sequence_order() {
            all.push(Settings {
                sequence_order,
                ..Settings::new(variant)
            });
        }
    }
    all
}

/// Every arena message the Rust types can build, one per variant of everything inside.
pub fn every_arena_message() -> Vec<ArenaMessage> {
    let mut all = Vec::new();
    for settings in every_settings() {
        all.push(ArenaMessage::Hello(Hello {
            protocol: protocol::PROTOCOL_VERSION,
            game: settings.variant,
            settings,
            seat: 1,
            seats: 3,
            hands: 100,
            first_hand: 0,
            seed: u64::MAX,
            players: vec!["a".into(), "b".into(), "c".into()],
            time: TimeLimits {
                startup_ms: 5000,
                decision_ms: 1000,
                bank_ms: 10000,
            },
        }));
    }
    for event in every_event() {
        all.push(ArenaMessage::Event { hand: 3, event });
    }
    for request in every_request() {
        all.push(ArenaMessage::Request(request));
    }
    for fault in FaultKind::ALL {
        all.push(ArenaMessage::Fault(FaultNotice {
            id: Some(17),
            fault,
            detail: format!("a {fault} fault"),
            applied: Some(Action::Pack),
        }));
    }
    for applied in every_action() {
        all.push(ArenaMessage::Fault(FaultNotice {
            id: None,
            fault: FaultKind::Timeout,
            detail: String::new(),
            applied: Some(applied),
        }));
    }
    all.push(ArenaMessage::Fault(FaultNotice {
        id: None,
        fault: FaultKind::Startup,
        detail: "no hello".into(),
        applied: None,
    }));
    all.push(ArenaMessage::MatchEnd(MatchEnd {
        hands: 100,
        totals: vec![12, -12],
    }));
    all
}
