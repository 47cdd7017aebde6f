//! The hand state machine against the rules notes (`/work/shared/rules-notes.md`): one named
//! test per rule point, each a worked example on stacked decks so that every card is known.
//!
//! Deal order: one card at a time, clockwise, starting left of the dealer. [`start`] builds the
//! deck from the hands each seat should hold, so a test states hands per seat, not deck order.
//! Closest to 555 swaps draw the `stock` cards that follow the deal, in order.

use rules::card::cards;
use rules::{
    Action, Card, DealSource, Decision, DecisionKind, Deck, EndReason, Event, Hand, Illegal,
    LegalAction, PackReason, RevealReason, SeatView, SequenceOrder, Settings, SettingsError,
    Variant,
};

// ----- helpers -------------------------------------------------------------------------------

fn parse(text: &str) -> Vec<Card> {
    cards(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn hand3(text: &str) -> [Card; 3] {
    parse(text).try_into().expect("three cards")
}

/// The deck that deals `hands[seat]` to each seat (in the order given) with `dealer` dealing,
/// followed by `stock`, then the rest of the pack in canonical order.
fn deck_for(dealer: usize, hands: &[&str], stock: &str) -> Deck {
    let n = hands.len();
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| parse(h)).collect();
    let order: Vec<Card> = (0..3)
        .flat_map(|round| (1..=n).map(move |k| (round, (dealer + k) % n)))
        .map(|(round, seat)| hands[seat][round])
        .chain(parse(stock))
        .collect();
    Deck::stacked(&order).expect("no card twice")
}

fn start_with(
    settings: Settings,
    dealer: usize,
    hands: &[&str],
    stock: &str,
) -> (Hand, Vec<Event>) {
    Hand::new(
        settings,
        hands.len(),
        dealer,
        DealSource::Stacked(vec![deck_for(dealer, hands, stock)]),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn start(variant: Variant, dealer: usize, hands: &[&str]) -> (Hand, Vec<Event>) {
    start_with(Settings::new(variant), dealer, hands, "")
}

fn act(hand: &mut Hand, seat: usize, action: Action) -> Vec<Event> {
    hand.apply(seat, action)
        .unwrap_or_else(|e| panic!("seat {seat} {action:?} refused: {e}"))
}

fn bet(amount: u64) -> Action {
    Action::Bet { amount }
}

fn decision(seat: usize, kind: DecisionKind) -> Option<Decision> {
    Some(Decision { seat, kind })
}

fn bet_decision(seat: usize) -> Option<Decision> {
    decision(seat, DecisionKind::Bet)
}

/// The `Bet` entry of the legal set: (min, max, multiple_of).
fn bet_bounds(hand: &Hand) -> Option<(u64, u64, u64)> {
    hand.legal().into_iter().find_map(|l| match l {
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => Some((min, max, multiple_of)),
        _ => None,
    })
}

fn offers(hand: &Hand, name: &str) -> bool {
    hand.legal().iter().any(|l| l.name() == name)
}

fn show_cost(hand: &Hand) -> Option<u64> {
    hand.legal().into_iter().find_map(|l| match l {
        LegalAction::Show { cost } => Some(cost),
        _ => None,
    })
}

fn sideshow_offer(hand: &Hand) -> Option<(u64, usize)> {
    hand.legal().into_iter().find_map(|l| match l {
        LegalAction::Sideshow { cost, target } => Some((cost, target)),
        _ => None,
    })
}

/// Everything observable about a hand, to check that a refused action changed nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    debug: String,
    views: Vec<SeatView>,
    legal: Vec<LegalAction>,
    to_act: Option<Decision>,
    pot: u64,
    stake: u64,
    turns: u32,
    payoffs: Option<Vec<i64>>,
}

fn snapshot(hand: &Hand) -> Snapshot {
    Snapshot {
        debug: format!("{hand:?}"),
        views: (0..hand.seat_count()).map(|s| hand.view(s)).collect(),
        legal: hand.legal(),
        to_act: hand.to_act(),
        pot: hand.pot(),
        stake: hand.stake(),
        turns: hand.turns(),
        payoffs: hand.payoffs().map(<[i64]>::to_vec),
    }
}

/// Applies an action that must be refused, and checks that nothing changed.
fn refused(hand: &mut Hand, seat: usize, action: Action) -> Illegal {
    let before = snapshot(hand);
    let err = match hand.apply(seat, action) {
        Ok(events) => panic!("seat {seat} {action:?} was accepted: {events:?}"),
        Err(e) => e,
    };
    assert_eq!(
        snapshot(hand),
        before,
        "refused {action:?} changed the hand"
    );
    err
}

/// The `HandEnded` event: (reason, winners, pot, payoffs). Checks it is the last event, that
/// the hand agrees, and that the payoffs are zero-sum.
fn ended(hand: &Hand, events: &[Event]) -> (EndReason, Vec<usize>, u64, Vec<i64>) {
    let Some(Event::HandEnded {
        reason,
        winners,
        pot,
        payoffs,
    }) = events.last()
    else {
        panic!("the hand did not end: {events:?}");
    };
    assert!(hand.is_over());
    assert_eq!(hand.to_act(), None);
    assert!(hand.legal().is_empty());
    assert_eq!(hand.payoffs(), Some(payoffs.as_slice()));
    assert_eq!(payoffs.iter().sum::<i64>(), 0, "payoffs not zero-sum");
    let put_in: u64 = hand.view(0).players.iter().map(|p| p.put_in).sum();
    assert_eq!(*pot, put_in, "pot is not the sum of what was put in");
    (*reason, winners.clone(), *pot, payoffs.clone())
}

/// Who showed which cards.
type Shown = Vec<(usize, [Card; 3])>;

fn revealed(events: &[Event]) -> Option<(RevealReason, Shown)> {
    events.iter().find_map(|e| match e {
        Event::Revealed { reason, hands } => {
            Some((*reason, hands.iter().map(|h| (h.seat, h.cards)).collect()))
        }
        _ => None,
    })
}

fn put_in(hand: &Hand, seat: usize) -> u64 {
    hand.view(seat).players[seat].put_in
}

// ----- boot, deal, order of play -------------------------------------------------------------

#[test]
fn boot_is_paid_by_every_seat_before_the_deal_and_is_the_first_stake() {
    let mut settings = Settings::new(Variant::Classic);
    settings.boot = 3;
    settings.max_stake = 192;
    settings.pot_limit = 3072;
    let (hand, events) = Hand::seeded(settings, 4, 2, 7, 0).unwrap();
    assert_eq!(
        events[0],
        Event::HandStarted {
            dealer: 2,
            seats: 4,
            boot: 3,
            pot: 12,
            stake: 3
        }
    );
    assert_eq!(hand.pot(), 12);
    assert_eq!(hand.stake(), 3);
    for seat in 0..4 {
        assert_eq!(put_in(&hand, seat), 3);
    }
    // The first blind bet is measured against the boot: [S, 2S].
    assert_eq!(bet_bounds(&hand), Some((3, 6, 1)));
}

#[test]
fn cards_are_dealt_one_at_a_time_clockwise_starting_left_of_the_dealer() {
    // Two seats, dealer 0: the deck order is seat 1, seat 0, seat 1, seat 0, seat 1, seat 0.
    let deck = Deck::stacked(&parse("Ac 2c 3c 4c 5c 6c")).unwrap();
    let (hand, events) = Hand::new(
        Settings::new(Variant::Classic),
        2,
        0,
        DealSource::Stacked(vec![deck]),
    )
    .unwrap();
    assert_eq!(hand.cards(1), hand3("Ac 3c 5c"));
    assert_eq!(hand.cards(0), hand3("2c 4c 6c"));
    // Dealt events come in deal order too.
    let dealt: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            Event::Dealt { seat, .. } => Some(*seat),
            _ => None,
        })
        .collect();
    assert_eq!(dealt, vec![1, 0]);

    // Four seats, dealer 2: seats 3, 0, 1, 2 receive cards 1-4, then again, then again.
    let deck = Deck::stacked(&parse("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc")).unwrap();
    let (hand, _) = Hand::new(
        Settings::new(Variant::Classic),
        4,
        2,
        DealSource::Stacked(vec![deck]),
    )
    .unwrap();
    assert_eq!(hand.cards(3), hand3("Ac 5c 9c"));
    assert_eq!(hand.cards(0), hand3("2c 6c Tc"));
    assert_eq!(hand.cards(1), hand3("3c 7c Jc"));
    assert_eq!(hand.cards(2), hand3("4c 8c Qc"));
}

#[test]
fn betting_starts_left_of_the_dealer_and_goes_clockwise_round_after_round() {
    let (mut hand, _) = Hand::seeded(Settings::new(Variant::Classic), 4, 2, 1, 0).unwrap();
    let mut order = Vec::new();
    for _ in 0..8 {
        let seat = hand.to_act().unwrap().seat;
        order.push(seat);
        act(&mut hand, seat, bet(1));
    }
    assert_eq!(order, vec![3, 0, 1, 2, 3, 0, 1, 2]);

    // Dealer on the last seat: the first to act wraps round to seat 0.
    let (hand, _) = Hand::seeded(Settings::new(Variant::Classic), 5, 4, 1, 0).unwrap();
    assert_eq!(hand.to_act(), bet_decision(0));
}

#[test]
fn packed_seats_are_skipped_in_the_clockwise_order() {
    let (mut hand, _) = Hand::seeded(Settings::new(Variant::Classic), 4, 0, 3, 0).unwrap();
    act(&mut hand, 1, bet(1));
    act(&mut hand, 2, Action::Pack);
    act(&mut hand, 3, bet(1));
    act(&mut hand, 0, bet(1));
    assert_eq!(hand.to_act(), bet_decision(1));
    act(&mut hand, 1, bet(1));
    assert_eq!(
        hand.to_act(),
        bet_decision(3),
        "seat 2 packed and is skipped"
    );
}

// ----- bets ----------------------------------------------------------------------------------

const THREE: [&str; 3] = ["2c 7d 9h", "3c 8d Th", "4c 6d Jh"];

#[test]
fn seen_bet_is_an_even_amount_from_2s_to_4s_and_the_stake_becomes_half_of_it() {
    let (mut hand, _) = start(Variant::Classic, 0, &THREE);
    act(&mut hand, 1, Action::See);
    assert_eq!(
        hand.legal(),
        vec![
            LegalAction::Pack,
            LegalAction::Bet {
                min: 2,
                max: 4,
                multiple_of: 2
            }
        ]
    );
    for amount in [0, 1, 3, 5, 6] {
        refused(&mut hand, 1, bet(amount));
    }
    let events = act(&mut hand, 1, bet(4));
    assert_eq!(
        events[0],
        Event::Bet {
            seat: 1,
            amount: 4,
            blind: false,
            stake: 2,
            pot: 7
        }
    );
    assert_eq!(hand.stake(), 2);

    act(&mut hand, 2, Action::See);
    assert_eq!(bet_bounds(&hand), Some((4, 8, 2)));
    refused(&mut hand, 2, bet(7));
    act(&mut hand, 2, bet(6));
    assert_eq!(hand.stake(), 3);

    // S = 3 is odd; the seen range [6, 12] is still all even.
    act(&mut hand, 0, Action::See);
    assert_eq!(bet_bounds(&hand), Some((6, 12, 2)));
    // "chaal" = the minimum 2S leaves the stake where it was.
    act(&mut hand, 0, bet(6));
    assert_eq!(hand.stake(), 3);
    assert_eq!(hand.pot(), 3 + 4 + 6 + 6);
}

#[test]
fn blind_bet_is_from_s_to_2s_and_the_stake_becomes_the_amount() {
    let (mut hand, _) = start(Variant::Classic, 0, &THREE);
    assert_eq!(
        hand.legal(),
        vec![
            LegalAction::Pack,
            LegalAction::See,
            LegalAction::Bet {
                min: 1,
                max: 2,
                multiple_of: 1
            }
        ]
    );
    refused(&mut hand, 1, bet(0));
    refused(&mut hand, 1, bet(3));
    let events = act(&mut hand, 1, bet(2));
    assert_eq!(
        events[0],
        Event::Bet {
            seat: 1,
            amount: 2,
            blind: true,
            stake: 2,
            pot: 5
        }
    );
    assert_eq!(bet_bounds(&hand), Some((2, 4, 1)));
    act(&mut hand, 2, bet(3));
    assert_eq!(hand.stake(), 3);
    // A seen seat then bets against the blind stake: [2S, 4S].
    act(&mut hand, 0, Action::See);
    assert_eq!(bet_bounds(&hand), Some((6, 12, 2)));
    act(&mut hand, 0, bet(6));
    // And a blind seat against a seen one: S = 6 / 2 = 3, so [3, 6].
    assert_eq!(hand.stake(), 3);
    assert_eq!(bet_bounds(&hand), Some((3, 6, 1)));
}

#[test]
fn blind_seat_may_see_at_its_turn_and_then_acts_as_seen_in_that_same_turn() {
    let (mut hand, dealt) = start(Variant::Classic, 0, &THREE);
    assert_eq!(
        hand.view(1).cards,
        None,
        "a blind seat does not know its cards"
    );
    for event in &dealt {
        for viewer in 0..3 {
            assert!(
                event.for_seat(viewer, true).cards().is_empty(),
                "classic deal shown to seat {viewer}: {event:?}"
            );
        }
    }
    let events = act(&mut hand, 1, Action::See);
    assert_eq!(
        events,
        vec![Event::Saw {
            seat: 1,
            cards: Some(hand3(THREE[1]))
        }]
    );
    // Same seat, same turn, now seen: no See, seen bet bounds, and no turn used.
    assert_eq!(hand.to_act(), bet_decision(1));
    assert!(!offers(&hand, "see"));
    assert_eq!(bet_bounds(&hand), Some((2, 4, 2)));
    assert_eq!(hand.turns(), 0);
    let view = hand.view(1);
    assert_eq!(view.cards, Some(hand3(THREE[1])));
    assert!(view.players[1].seen);
    assert_eq!(view.players[1].turns, 0);
    // Others learn that seat 1 saw, not what.
    assert_eq!(hand.view(2).cards, None);
    assert!(hand.view(2).known.is_empty());
    assert!(hand.view(2).players[1].seen);
    assert_eq!(
        events[0].for_seat(2, true),
        Event::Saw {
            seat: 1,
            cards: None
        }
    );
    assert_eq!(events[0].for_seat(1, true), events[0]);
    refused(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    assert_eq!(hand.to_act(), bet_decision(2));
}

#[test]
fn blind_limit_forces_a_seat_to_see_after_that_many_blind_bets() {
    let mut settings = Settings::new(Variant::Classic);
    settings.blind_limit = 2;
    let (mut hand, _) = start_with(settings, 0, &THREE, "");
    for _ in 0..2 {
        for seat in [1, 2, 0] {
            act(&mut hand, seat, bet(1));
        }
    }
    assert_eq!(hand.to_act(), bet_decision(1));
    assert_eq!(hand.legal(), vec![LegalAction::Pack, LegalAction::See]);
    refused(&mut hand, 1, bet(1));
    act(&mut hand, 1, Action::See);
    assert_eq!(bet_bounds(&hand), Some((2, 4, 2)));

    // Default: 4 blind turns.
    assert_eq!(Settings::new(Variant::Classic).blind_limit, 4);
    let (mut hand, _) = start(Variant::Classic, 0, &THREE);
    for _ in 0..4 {
        for seat in [1, 2, 0] {
            assert!(offers(&hand, "bet"));
            act(&mut hand, seat, bet(1));
        }
    }
    assert_eq!(hand.legal(), vec![LegalAction::Pack, LegalAction::See]);

    // With two left, a blind seat at its limit may not ask for a blind show either.
    let mut settings = Settings::new(Variant::Classic);
    settings.blind_limit = 1;
    let (mut hand, _) = start_with(settings, 0, &THREE[..2], "");
    act(&mut hand, 1, bet(1));
    act(&mut hand, 0, bet(1));
    assert_eq!(hand.legal(), vec![LegalAction::Pack, LegalAction::See]);
}

#[test]
fn max_stake_caps_the_stake_so_the_bet_maximum_shrinks() {
    let mut settings = Settings::new(Variant::Classic);
    settings.max_stake = 3;
    let (mut hand, _) = start_with(settings, 0, &THREE, "");
    act(&mut hand, 1, Action::See);
    assert_eq!(bet_bounds(&hand), Some((2, 4, 2)));
    act(&mut hand, 1, bet(4));
    act(&mut hand, 2, Action::See);
    // 4S = 8 would lift the stake to 4 > 3: the maximum is 2 x 3 = 6.
    assert_eq!(bet_bounds(&hand), Some((4, 6, 2)));
    refused(&mut hand, 2, bet(8));
    act(&mut hand, 2, bet(6));
    assert_eq!(hand.stake(), 3);
    // Blind at the cap: [S, min(2S, max_stake)] = [3, 3].
    assert_eq!(bet_bounds(&hand), Some((3, 3, 1)));
    refused(&mut hand, 0, bet(4));
    act(&mut hand, 0, bet(3));
    assert_eq!(hand.stake(), 3);
    // Seen at the cap: only the chaal 2S = 6 remains.
    assert_eq!(bet_bounds(&hand), Some((6, 6, 2)));
    assert_eq!(Settings::new(Variant::Classic).max_stake, 64);
}

// ----- pack ----------------------------------------------------------------------------------

#[test]
fn pack_leaves_the_hand_and_the_last_player_standing_takes_the_pot_without_showing() {
    let (mut hand, _) = start(Variant::Classic, 0, &THREE);
    act(&mut hand, 1, bet(2));
    let events = act(&mut hand, 2, Action::Pack);
    assert_eq!(
        events[0],
        Event::Packed {
            seat: 2,
            reason: PackReason::Chose
        }
    );
    assert!(!hand.view(0).players[2].in_hand);
    assert_eq!(hand.to_act(), bet_decision(0));
    let events = act(&mut hand, 0, Action::Pack);
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!(reason, EndReason::LastStanding);
    assert_eq!(winners, vec![1]);
    assert_eq!(pot, 5);
    assert_eq!(payoffs, vec![-1, 2, -1]);
    assert!(revealed(&events).is_none(), "nobody shows");
    for seat in 0..3 {
        assert!(hand.view(seat).known.is_empty(), "seat {seat} learnt cards");
    }
}

// ----- show ----------------------------------------------------------------------------------

#[test]
fn show_is_offered_only_with_exactly_two_players_left() {
    let (mut hand, _) = start(Variant::Classic, 0, &THREE);
    assert_eq!(show_cost(&hand), None);
    refused(&mut hand, 1, Action::Show);
    act(&mut hand, 1, Action::Pack);
    assert_eq!(show_cost(&hand), Some(1));
}

#[test]
fn show_seen_against_seen_costs_2s_reveals_both_to_everyone_and_the_better_hand_wins() {
    // Seat 0: pair of kings; seat 1: ace high.
    let hands = ["Kc Kd 4h", "Ah 9c 5d"];
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(4)); // S = 2
    act(&mut hand, 0, Action::See);
    assert_eq!(show_cost(&hand), Some(4));
    let events = act(&mut hand, 0, Action::Show);
    assert_eq!(
        events[0],
        Event::ShowAsked {
            seat: 0,
            against: 1,
            cost: 4,
            pot: 10
        }
    );
    let (reason, shown) = revealed(&events).unwrap();
    assert_eq!(reason, RevealReason::Show);
    assert_eq!(shown, vec![(0, hand3(hands[0])), (1, hand3(hands[1]))]);
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((reason, winners, pot), (EndReason::Show, vec![0], 10));
    assert_eq!(payoffs, vec![5, -5]);
    assert_eq!(hand.view(1).known.get(&0), Some(&hand3(hands[0])));
    assert_eq!(hand.view(0).known.get(&1), Some(&hand3(hands[1])));

    // Same cards, the worse hand asks: it pays and loses.
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, Action::See);
    act(&mut hand, 0, bet(2));
    let events = act(&mut hand, 1, Action::Show);
    let (_, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((winners, pot), (vec![0], 8));
    assert_eq!(payoffs, vec![5, -5]);
}

#[test]
fn show_by_a_blind_requester_costs_s() {
    let hands = ["Kc Kd 4h", "Ah 9c 5d"];
    // Blind against blind.
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, bet(2)); // S = 2
    assert_eq!(show_cost(&hand), Some(2));
    let events = act(&mut hand, 0, Action::Show);
    assert_eq!(
        events[0],
        Event::ShowAsked {
            seat: 0,
            against: 1,
            cost: 2,
            pot: 6
        }
    );
    assert_eq!(ended(&hand, &events).1, vec![0]);

    // Blind against seen.
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2)); // S = 1
    assert_eq!(show_cost(&hand), Some(1));
    let events = act(&mut hand, 0, Action::Show);
    let (_, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((winners, pot), (vec![0], 5));
    assert_eq!(payoffs, vec![3, -3]);
}

#[test]
fn seen_player_may_not_ask_for_a_show_against_a_blind_player() {
    let hands = ["Kc Kd 4h", "Ah 9c 5d"];
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, Action::See);
    assert_eq!(show_cost(&hand), None, "seat 0 is still blind");
    refused(&mut hand, 1, Action::Show);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, bet(1));
    // Still blind: still no show for the seen seat.
    assert_eq!(show_cost(&hand), None);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, Action::See);
    act(&mut hand, 0, bet(2));
    // Now both are seen.
    assert_eq!(show_cost(&hand), Some(2));
}

#[test]
fn show_exact_tie_loses_for_the_requester_and_suits_never_break_it() {
    // A-K-9 high card in both hands, suits differ.
    let hands = ["Ah Kd 9c", "As Kc 9d"];
    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    let events = act(&mut hand, 1, Action::Show);
    let (_, winners, _, payoffs) = ended(&hand, &events);
    assert_eq!(winners, vec![0], "seat 1 asked and tied");
    assert_eq!(payoffs, vec![2, -2]);

    let (mut hand, _) = start(Variant::Classic, 0, &hands);
    act(&mut hand, 1, bet(1));
    let events = act(&mut hand, 0, Action::Show);
    let (_, winners, _, payoffs) = ended(&hand, &events);
    assert_eq!(winners, vec![1], "seat 0 asked and tied");
    assert_eq!(payoffs, vec![-2, 2]);
}

#[test]
fn sequence_order_setting_decides_a23_against_akq_at_a_show() {
    let hands = ["Ac 2d 3h", "Ad Kh Qs"];
    for (order, winner) in [(SequenceOrder::A23High, 0), (SequenceOrder::AkqHigh, 1)] {
        let mut settings = Settings::new(Variant::Classic);
        settings.sequence_order = order;
        let (mut hand, _) = start_with(settings, 0, &hands, "");
        let events = act(&mut hand, 1, Action::Show);
        assert_eq!(ended(&hand, &events).1, vec![winner], "{order}");
    }
    assert_eq!(
        Settings::new(Variant::Classic).sequence_order,
        SequenceOrder::A23High
    );
}

// ----- sideshow ------------------------------------------------------------------------------

/// Three seats, dealer 0: seat 1 sees and bets 2 (S = 1), seat 2 sees. Seat 2 may now ask
/// seat 1 for a sideshow.
fn sideshow_table(settings: Settings, hands: &[&str; 3]) -> Hand {
    let (mut hand, _) = start_with(settings, 0, hands, "");
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::See);
    hand
}

/// Seat 0 weak, seat 1 a pair of aces, seat 2 king high.
const SIDESHOW: [&str; 3] = ["5c 7d 9s", "Ac Ad 2h", "Kc Qd 9h"];

#[test]
fn sideshow_needs_three_in_hand_a_seen_requester_and_a_seen_previous_seat_that_has_acted() {
    // Eligible: seat 2 seen, seat 1 (the previous active seat) seen and has acted.
    let hand = sideshow_table(Settings::new(Variant::Classic), &SIDESHOW);
    assert_eq!(sideshow_offer(&hand), Some((2, 1)));

    // The first seat to act: the previous seat (the dealer) has not acted yet.
    let (mut hand, _) = start(Variant::Classic, 0, &SIDESHOW);
    act(&mut hand, 1, Action::See);
    assert_eq!(sideshow_offer(&hand), None, "seat 0 has not acted");
    refused(&mut hand, 1, Action::Sideshow);

    // A blind requester may not ask.
    let (mut hand, _) = start(Variant::Classic, 0, &SIDESHOW);
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    assert_eq!(sideshow_offer(&hand), None, "seat 2 is blind");

    // The previous seat is blind.
    let (mut hand, _) = start(Variant::Classic, 0, &SIDESHOW);
    act(&mut hand, 1, bet(1));
    act(&mut hand, 2, Action::See);
    assert_eq!(sideshow_offer(&hand), None, "seat 1 is blind");
    refused(&mut hand, 2, Action::Sideshow);

    // The previous *active* seat: a packed seat is passed over.
    let (mut hand, _) = Hand::new(
        Settings::new(Variant::Classic),
        4,
        0,
        DealSource::Stacked(vec![Deck::stacked(&[]).unwrap()]),
    )
    .unwrap();
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::Pack);
    act(&mut hand, 3, Action::See);
    assert_eq!(sideshow_offer(&hand), Some((2, 1)));

    // Only two left: a show, never a sideshow.
    let (mut hand, _) = start(Variant::Classic, 0, &SIDESHOW);
    act(&mut hand, 1, Action::See);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::See);
    act(&mut hand, 2, bet(2));
    act(&mut hand, 0, Action::Pack);
    assert_eq!(hand.to_act(), bet_decision(1));
    assert_eq!(sideshow_offer(&hand), None);
    assert_eq!(show_cost(&hand), Some(2));
    refused(&mut hand, 1, Action::Sideshow);
}

#[test]
fn sideshow_previous_seat_must_have_acted_even_when_it_is_seen() {
    // Lallan Kallan: everyone is seen from the start, so only "has acted" stops the first
    // seat from asking the dealer (who has not acted yet).
    let (mut hand, _) = start(
        Variant::LallanKallan,
        0,
        &["3c 8s Kd", "4c 6h Js", "5c 7d 9s"],
    );
    assert_eq!(hand.to_act(), bet_decision(1));
    assert!(hand.view(1).players[0].seen);
    assert_eq!(sideshow_offer(&hand), None, "seat 0 has not acted");
    refused(&mut hand, 1, Action::Sideshow);
    act(&mut hand, 1, bet(2));
    assert_eq!(sideshow_offer(&hand), Some((2, 1)));
    act(&mut hand, 2, bet(2));
    // Round two: seat 1 may now ask the dealer, who has acted.
    act(&mut hand, 0, bet(2));
    assert_eq!(sideshow_offer(&hand), Some((2, 0)));
}

#[test]
fn sideshow_setting_off_removes_the_sideshow() {
    assert!(Settings::new(Variant::Classic).sideshow, "on by default");
    let mut settings = Settings::new(Variant::Classic);
    settings.sideshow = false;
    let mut hand = sideshow_table(settings, &SIDESHOW);
    assert_eq!(sideshow_offer(&hand), None);
    refused(&mut hand, 2, Action::Sideshow);
    // The same in the all-seen variants.
    for variant in [Variant::Closest555, Variant::LallanKallan] {
        let mut settings = Settings::new(variant);
        settings.sideshow = false;
        let (mut hand, _) = start_with(settings, 0, &["3c 8s Kd", "4c 6h Js", "5c 7d 9s"], "");
        for seat in [1, 2] {
            if variant == Variant::Closest555 {
                act(&mut hand, seat, Action::Keep);
            }
            assert_eq!(sideshow_offer(&hand), None, "{variant}");
            act(&mut hand, seat, bet(2));
        }
    }
}

#[test]
fn sideshow_costs_2s_and_when_accepted_the_worse_hand_packs() {
    // Seat 2 (king high) asks seat 1 (pair of aces): seat 2 is worse and packs.
    let mut hand = sideshow_table(Settings::new(Variant::Classic), &SIDESHOW);
    let events = act(&mut hand, 2, Action::Sideshow);
    assert_eq!(
        events,
        vec![Event::SideshowAsked {
            seat: 2,
            target: 1,
            cost: 2,
            pot: 7
        }]
    );
    assert_eq!(hand.stake(), 1, "a sideshow does not change the stake");
    assert_eq!(hand.to_act(), decision(1, DecisionKind::SideshowReply));
    assert_eq!(hand.legal(), vec![LegalAction::Accept, LegalAction::Refuse]);
    let events = act(&mut hand, 1, Action::Accept);
    assert_eq!(
        events[..2],
        [
            Event::SideshowCompared {
                seat: 2,
                target: 1,
                loser: 2,
                seat_cards: Some(hand3(SIDESHOW[2])),
                target_cards: Some(hand3(SIDESHOW[1])),
            },
            Event::Packed {
                seat: 2,
                reason: PackReason::LostSideshow
            }
        ]
    );
    assert!(!hand.view(0).players[2].in_hand);
    assert_eq!(put_in(&hand, 2), 3, "boot + 2S");
    assert_eq!(
        hand.view(0).players[2].turns,
        1,
        "the sideshow was seat 2's turn"
    );
    assert_eq!(
        hand.to_act(),
        bet_decision(0),
        "play goes on after the requester"
    );

    // The requester holds the better hand: the asked seat packs.
    let hands = [SIDESHOW[0], SIDESHOW[2], SIDESHOW[1]];
    let mut hand = sideshow_table(Settings::new(Variant::Classic), &hands);
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Accept);
    assert!(matches!(
        events[0],
        Event::SideshowCompared { loser: 1, .. }
    ));
    assert_eq!(
        events[1],
        Event::Packed {
            seat: 1,
            reason: PackReason::LostSideshow
        }
    );
    assert!(hand.view(0).players[2].in_hand);
    assert_eq!(hand.to_act(), bet_decision(0));
}

#[test]
fn sideshow_exact_tie_packs_the_requester() {
    let hands = ["5c 7d 9s", "Ah Kd 9c", "As Kc 9d"];
    let mut hand = sideshow_table(Settings::new(Variant::Classic), &hands);
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Accept);
    assert!(matches!(
        events[0],
        Event::SideshowCompared {
            seat: 2,
            target: 1,
            loser: 2,
            ..
        }
    ));
    assert!(hand.view(0).players[1].in_hand);
    assert!(!hand.view(0).players[2].in_hand);
}

#[test]
fn sideshow_cards_are_seen_only_by_the_two_players() {
    // Classic: the third seat is blind.
    let mut hand = sideshow_table(Settings::new(Variant::Classic), &SIDESHOW);
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Accept);
    let compared = &events[0];
    assert_eq!(compared.for_seat(1, true), *compared);
    assert_eq!(compared.for_seat(2, true), *compared);
    assert_eq!(
        compared.for_seat(0, true),
        Event::SideshowCompared {
            seat: 2,
            target: 1,
            loser: 2,
            seat_cards: None,
            target_cards: None
        }
    );
    assert!(compared.for_seat(0, true).cards().is_empty());
    assert_eq!(
        hand.view(1).known.into_iter().collect::<Vec<_>>(),
        vec![(2, hand3(SIDESHOW[2]))]
    );
    assert_eq!(
        hand.view(2).known.into_iter().collect::<Vec<_>>(),
        vec![(1, hand3(SIDESHOW[1]))]
    );
    assert!(hand.view(0).known.is_empty());
    assert!(hand.view(0).cards_visible().is_empty());
    // Seeing its own cards later teaches seat 0 nothing about the sideshow.
    act(&mut hand, 0, Action::See);
    assert_eq!(hand.view(0).cards_visible(), parse(SIDESHOW[0]));

    // Closest to 555: everyone is seen, the third seat still learns nothing.
    let hands = ["5c 7d 9s", "5h 5d 4s", "Kc Qd 9h"];
    let (mut hand, _) = start(Variant::Closest555, 0, &hands);
    act(&mut hand, 1, Action::Keep);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::Keep);
    assert_eq!(sideshow_offer(&hand), Some((2, 1)));
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Accept);
    assert_eq!(events[0].for_seat(0, false).cards(), Vec::<Card>::new());
    // Seat 0 is now deciding its swap: its own cards are all it sees.
    let mut visible = hand.view(0).cards_visible();
    visible.sort();
    visible.dedup();
    let mut own = parse(hands[0]);
    own.sort();
    assert_eq!(visible, own);
    assert!(hand.view(0).known.is_empty());
    assert_eq!(hand.view(1).known.get(&2), Some(&hand3(hands[2])));
}

#[test]
fn sideshow_refused_costs_no_penalty_and_play_goes_on_after_the_requester() {
    let mut hand = sideshow_table(Settings::new(Variant::Classic), &SIDESHOW);
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Refuse);
    assert_eq!(events, vec![Event::SideshowRefused { seat: 2, target: 1 }]);
    // Only the requester's 2S went in; nobody packs, nothing is shown.
    assert_eq!(hand.pot(), 7);
    assert_eq!(put_in(&hand, 1), 3);
    assert_eq!(put_in(&hand, 2), 3);
    assert_eq!(hand.stake(), 1);
    for seat in 0..3 {
        assert!(hand.view(0).players[seat].in_hand);
        assert!(hand.view(seat).known.is_empty());
    }
    assert_eq!(hand.to_act(), bet_decision(0));
}

// ----- limits and group reveals ---------------------------------------------------------------

#[test]
fn pot_limit_reached_by_a_bet_reveals_every_remaining_hand_and_the_best_takes_the_pot() {
    assert_eq!(Settings::new(Variant::Classic).pot_limit, 1024);
    // Seat 0: nine high; seat 1: pair of queens; seat 2: a sequence.
    let hands = ["2c 7d 9h", "Qc Qd 3h", "4c 5d 6h"];
    let mut settings = Settings::new(Variant::Classic);
    settings.pot_limit = 6;
    let (mut hand, _) = start_with(settings, 0, &hands, "");
    act(&mut hand, 1, bet(1)); // pot 4
    let events = act(&mut hand, 2, bet(2)); // pot 6 = the limit
    let (reason, shown) = revealed(&events).unwrap();
    assert_eq!(reason, RevealReason::PotLimit);
    let seats: Vec<usize> = shown.iter().map(|(s, _)| *s).collect();
    assert_eq!(seats, vec![0, 1, 2]);
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((reason, winners, pot), (EndReason::PotLimit, vec![2], 6));
    assert_eq!(payoffs, vec![-1, -2, 3]);
    for seat in 0..3 {
        assert_eq!(hand.view(seat).known.len(), 2, "all hands public");
    }

    // Packed seats are not revealed.
    let (mut hand, _) = start_with(settings, 0, &hands, "");
    act(&mut hand, 1, Action::Pack);
    act(&mut hand, 2, bet(2)); // pot 5
    let events = act(&mut hand, 0, bet(2)); // pot 7
    let (_, shown) = revealed(&events).unwrap();
    assert_eq!(
        shown.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert_eq!(ended(&hand, &events).1, vec![2]);
    assert!(!hand.view(0).known.contains_key(&1));
}

#[test]
fn pot_limit_reached_by_a_sideshow_payment_reveals_every_remaining_hand() {
    let mut settings = Settings::new(Variant::Classic);
    settings.pot_limit = 7;
    let mut hand = sideshow_table(settings, &SIDESHOW); // pot 5
    let events = act(&mut hand, 2, Action::Sideshow); // pot 7
    let (reason, shown) = revealed(&events).unwrap();
    assert_eq!(reason, RevealReason::PotLimit);
    assert_eq!(shown.len(), 3);
    let (reason, winners, _, _) = ended(&hand, &events);
    assert_eq!((reason, winners), (EndReason::PotLimit, vec![1]));
}

#[test]
fn group_reveal_exact_tie_splits_the_pot_odd_chip_to_the_tied_seat_nearest_the_dealers_left() {
    // Seats 0 and 2 tie (A-K-9 high card, suits differ); seat 1 is worse.
    let hands = ["Ah Kd 9c", "2c 3d 5h", "As Kc 9d"];
    let mut settings = Settings::new(Variant::Classic);
    settings.pot_limit = 5;

    // Dealer 0: from the dealer's left the order is 1, 2, 0, so seat 2 gets the odd chip.
    let (mut hand, _) = start_with(settings, 0, &hands, "");
    let events = act(&mut hand, 1, bet(2)); // pot 5: 2 each, 1 left over
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((reason, winners, pot), (EndReason::PotLimit, vec![0, 2], 5));
    assert_eq!(payoffs, vec![2 - 1, -3, 3 - 1]);

    // Dealer 2: the order is 0, 1, 2, so seat 0 gets it.
    let (mut hand, _) = start_with(settings, 2, &hands, "");
    let events = act(&mut hand, 0, bet(2));
    let (_, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((winners, pot), (vec![0, 2], 5));
    assert_eq!(payoffs, vec![3 - 3, -1, 2 - 1]);

    // Three-way tie in Closest to 555 (digits 5 0 0 -> 500, 55 away; K Q T -> 000 is worse):
    // 8 chips over 3 winners, 2 each and 2 odd chips, both to the seat nearest the dealer's left.
    let hands = ["5c Tc Jd", "5d Qh Ks", "Qc Kd Ts", "5h Th Js"];
    let mut settings = Settings::new(Variant::Closest555);
    settings.pot_limit = 8;
    let (mut hand, _) = start_with(settings, 1, &hands, "");
    // Dealer 1: seat 2 acts first.
    act(&mut hand, 2, Action::Keep);
    let events = act(&mut hand, 2, bet(4)); // pot 8
    let (_, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((winners, pot), (vec![0, 1, 3], 8));
    // Order from the dealer's left: 2, 3, 0, 1: seat 3 takes both odd chips.
    assert_eq!(payoffs, vec![2 - 1, 2 - 1, -5, 4 - 1]);
}

/// A reading of the notes, pinned: the pot limit is checked when "a bet takes the pot to the
/// limit" (a bet, or a sideshow's 2S, which is "the minimum seen bet"). A show's payment is
/// not a bet: a show that takes the pot over the limit stays a show, so an exact tie still
/// loses for the requester instead of splitting.
#[test]
fn show_payment_reaching_the_pot_limit_is_still_a_show() {
    let hands = ["Ah Kd 9c", "As Kc 9d"];
    let mut settings = Settings::new(Variant::Classic);
    settings.pot_limit = 3;
    let (mut hand, _) = start_with(settings, 0, &hands, "");
    let events = act(&mut hand, 1, Action::Show); // pot 3 = the limit
    let (reason, winners, pot, _) = ended(&hand, &events);
    assert_eq!((reason, winners, pot), (EndReason::Show, vec![0], 3));
}

/// A reading of the notes, pinned: a Closest to 555 swap charge is no bet either. When it takes
/// the pot to the limit, the seat still makes its betting decision, and the group reveal
/// comes at the end of that turn.
#[test]
fn closest555_swap_charge_reaching_the_pot_limit_reveals_at_the_end_of_the_turn() {
    let mut settings = Settings::new(Variant::Closest555);
    settings.swap_cost = 2;
    settings.pot_limit = 4;
    let (mut hand, _) = start_with(settings, 0, &H555, "5s 5h 9d");
    act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    ); // pot 4 = the limit
    assert_eq!(hand.to_act(), bet_decision(1));
    let events = act(&mut hand, 1, bet(2));
    let (reason, shown) = revealed(&events).unwrap();
    assert_eq!(reason, RevealReason::PotLimit);
    assert_eq!(shown.len(), 2);
    assert_eq!(ended(&hand, &events).0, EndReason::PotLimit);
}

#[test]
fn turn_cap_ends_the_hand_in_a_group_reveal() {
    assert_eq!(Settings::new(Variant::Classic).max_turns, 500);
    let mut settings = Settings::new(Variant::Classic);
    settings.max_turns = 3;
    let (mut hand, _) = start_with(settings, 0, &THREE, "");
    act(&mut hand, 1, bet(1));
    act(&mut hand, 2, bet(1));
    assert!(!hand.is_over());
    let events = act(&mut hand, 0, bet(1));
    assert_eq!(hand.turns(), 3);
    let (reason, shown) = revealed(&events).unwrap();
    assert_eq!(reason, RevealReason::TurnCap);
    assert_eq!(shown.len(), 3);
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    // J high beats T high and 9 high.
    assert_eq!((reason, winners, pot), (EndReason::TurnCap, vec![2], 6));
    assert_eq!(payoffs, vec![-2, -2, 4]);

    // A pack is a turn too.
    let mut settings = Settings::new(Variant::Classic);
    settings.max_turns = 1;
    let (mut hand, _) = start_with(settings, 0, &THREE, "");
    let events = act(&mut hand, 1, Action::Pack);
    let (_, shown) = revealed(&events).unwrap();
    assert_eq!(
        shown.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![0, 2]
    );
    assert_eq!(ended(&hand, &events).0, EndReason::TurnCap);
}

// ----- Closest to 555 --------------------------------------------------------------------------

/// Seat 0: 4 4 4; seat 1: K Q 2. Stock: 5s 5h 9d.
const H555: [&str; 2] = ["4c 4d 4h", "Kc Qd 2h"];

#[test]
fn closest555_swap_is_offered_at_the_start_of_a_seats_first_and_second_turns_only() {
    let (mut hand, _) = start_with(Settings::new(Variant::Closest555), 0, &H555, "5s 5h 9d");
    assert_eq!(hand.to_act(), decision(1, DecisionKind::Swap));
    assert_eq!(
        hand.legal(),
        vec![
            LegalAction::Swap {
                cards: hand3(H555[1]),
                cost: 0
            },
            LegalAction::Keep
        ]
    );
    // Before the betting decision: no bet or pack until the swap is decided.
    refused(&mut hand, 1, bet(2));
    refused(&mut hand, 1, Action::Pack);
    act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    );
    // At most one swap per turn.
    assert_eq!(hand.to_act(), bet_decision(1));
    assert!(!offers(&hand, "swap") && !offers(&hand, "keep"));
    refused(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Qd")[0],
        },
    );
    act(&mut hand, 1, bet(2));
    // Seat 0's first turn: declined.
    assert_eq!(hand.to_act(), decision(0, DecisionKind::Swap));
    assert_eq!(
        act(&mut hand, 0, Action::Keep),
        vec![Event::Kept { seat: 0 }]
    );
    assert_eq!(hand.to_act(), bet_decision(0));
    act(&mut hand, 0, bet(2));
    // Second turns: offered again.
    assert_eq!(hand.to_act(), decision(1, DecisionKind::Swap));
    act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Qd")[0],
        },
    );
    act(&mut hand, 1, bet(2));
    assert_eq!(hand.to_act(), decision(0, DecisionKind::Swap));
    act(&mut hand, 0, Action::Keep);
    act(&mut hand, 0, bet(2));
    // Third turns: none.
    for seat in [1, 0] {
        assert_eq!(hand.to_act(), bet_decision(seat));
        assert!(!offers(&hand, "swap"));
        refused(&mut hand, seat, Action::Keep);
        act(&mut hand, seat, bet(2));
    }
    assert_eq!(hand.view(0).players[1].swaps, 2);
    assert_eq!(hand.view(0).players[0].swaps, 0);
}

#[test]
fn closest555_swap_draws_the_next_stock_card_and_discards_never_return() {
    let (mut hand, _) = start_with(Settings::new(Variant::Closest555), 0, &H555, "5s 5h 9d");
    let events = act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    );
    assert_eq!(
        events,
        vec![Event::Swapped {
            seat: 1,
            cost: 0,
            discarded: Some(parse("Kc")[0]),
            drawn: Some(parse("5s")[0])
        }]
    );
    assert_eq!(hand.cards(1), hand3("5s Qd 2h"));
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, Action::Keep);
    act(&mut hand, 0, bet(2));
    act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Qd")[0],
        },
    );
    assert_eq!(hand.cards(1), hand3("5s 5h 2h"));
    act(&mut hand, 1, bet(2));
    // Seat 0 draws the third stock card, not one of the discards.
    let events = act(
        &mut hand,
        0,
        Action::Swap {
            card: parse("4c")[0],
        },
    );
    assert!(matches!(
        events[0],
        Event::Swapped { drawn: Some(c), .. } if c == parse("9d")[0]
    ));
    assert_eq!(hand.cards(0), hand3("9d 4d 4h"));
}

#[test]
fn closest555_ten_seats_can_each_swap_twice_from_the_reserved_stock() {
    let settings = Settings::new(Variant::Closest555);
    let (mut hand, _) = Hand::seeded(settings, 10, 3, 11, 0).unwrap();
    let deck = Deck::shuffled(11, 0, 0);
    let mut next = 30;
    let mut seen: Vec<Card> = deck.cards()[..30].to_vec();
    for _ in 0..2 {
        for _ in 0..10 {
            let seat = hand.to_act().unwrap().seat;
            let card = hand.cards(seat)[0];
            let events = act(&mut hand, seat, Action::Swap { card });
            let Event::Swapped {
                drawn: Some(drawn), ..
            } = events[0]
            else {
                panic!("{events:?}");
            };
            assert_eq!(drawn, deck.cards()[next], "the next card of the stock");
            assert!(!seen.contains(&drawn));
            seen.push(drawn);
            next += 1;
            act(&mut hand, seat, bet(2));
        }
    }
    assert_eq!(next, 50);
    assert!(!offers(&hand, "swap"));
}

#[test]
fn closest555_swap_is_free_by_default_and_charged_when_swap_cost_is_set() {
    assert_eq!(Settings::new(Variant::Closest555).swap_cost, 0);
    let (mut hand, _) = start_with(Settings::new(Variant::Closest555), 0, &H555, "5s 5h 9d");
    act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    );
    assert_eq!(hand.pot(), 2);
    assert_eq!(put_in(&hand, 1), 1);

    let mut settings = Settings::new(Variant::Closest555);
    settings.swap_cost = 3;
    let (mut hand, _) = start_with(settings, 0, &H555, "5s 5h 9d");
    assert_eq!(
        hand.legal()[0],
        LegalAction::Swap {
            cards: hand3(H555[1]),
            cost: 3
        }
    );
    let events = act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    );
    assert!(matches!(events[0], Event::Swapped { cost: 3, .. }));
    assert_eq!(hand.pot(), 5);
    assert_eq!(put_in(&hand, 1), 4);
    assert_eq!(hand.stake(), 1, "a swap is no bet");
    act(&mut hand, 1, bet(2));
    // Keeping is free.
    act(&mut hand, 0, Action::Keep);
    assert_eq!(hand.pot(), 7);
}

#[test]
fn closest555_swapper_sees_its_new_cards_while_others_learn_only_that_a_swap_happened() {
    let (mut hand, _) = start_with(Settings::new(Variant::Closest555), 0, &H555, "5s 5h 9d");
    let events = act(
        &mut hand,
        1,
        Action::Swap {
            card: parse("Kc")[0],
        },
    );
    assert_eq!(hand.view(1).cards, Some(hand3("5s Qd 2h")));
    let other = hand.view(0);
    assert_eq!(other.cards, Some(hand3(H555[0])));
    assert!(other.known.is_empty());
    assert_eq!(other.players[1].swaps, 1);
    assert_eq!(other.cards_visible(), parse(H555[0]));
    assert_eq!(
        events[0].for_seat(0, false),
        Event::Swapped {
            seat: 1,
            cost: 0,
            discarded: None,
            drawn: None
        }
    );
    assert_eq!(events[0].for_seat(1, false), events[0]);
}

#[test]
fn closest555_a_swap_after_a_sideshow_hides_the_new_cards_from_the_other_player() {
    // Seat 2 asks seat 1 on its first turn and wins; on its second turn it swaps. Seat 1 knew
    // seat 2's old cards; it must not know the new ones.
    let hands = ["5c 7d 9s", "Kc Qd Jh", "5h 5d 4s"];
    let (mut hand, _) = start_with(Settings::new(Variant::Closest555), 0, &hands, "2c 3c");
    act(&mut hand, 1, Action::Keep);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::Keep);
    act(&mut hand, 2, Action::Sideshow);
    let events = act(&mut hand, 1, Action::Accept);
    assert!(matches!(
        events[0],
        Event::SideshowCompared { loser: 1, .. }
    ));
    assert_eq!(hand.view(1).known.get(&2), Some(&hand3(hands[2])));
    act(&mut hand, 0, Action::Keep);
    act(&mut hand, 0, bet(2));
    assert_eq!(hand.to_act(), decision(2, DecisionKind::Swap));
    act(
        &mut hand,
        2,
        Action::Swap {
            card: parse("4s")[0],
        },
    );
    assert_eq!(hand.view(2).cards, Some(hand3("5h 5d 2c")));
    assert!(
        hand.view(1).known.is_empty(),
        "seat 1 only knew the old cards"
    );
    assert!(!hand.view(1).cards_visible().contains(&parse("2c")[0]));
    assert_eq!(hand.view(2).known.get(&1), Some(&hand3(hands[1])));
}

#[test]
fn closest555_554_beats_557_at_a_show_and_ties_556() {
    let describe = |events: &[Event], seat: usize| {
        events.iter().find_map(|e| match e {
            Event::Revealed { hands, .. } => hands
                .iter()
                .find(|h| h.seat == seat)
                .map(|h| h.value.clone()),
            _ => None,
        })
    };
    // 554 against 557: 1 away beats 2 away, whoever asks.
    let hands = ["5c 5d 4h", "5h 5s 7c"];
    let (mut hand, _) = start(Variant::Closest555, 0, &hands);
    act(&mut hand, 1, Action::Keep);
    assert_eq!(show_cost(&hand), Some(2));
    let events = act(&mut hand, 1, Action::Show);
    assert_eq!(ended(&hand, &events).1, vec![0]);
    assert_eq!(
        describe(&events, 0),
        Some(rules::HandDescription::Closest555 {
            number: 554,
            distance: 1
        })
    );
    assert_eq!(
        describe(&events, 1),
        Some(rules::HandDescription::Closest555 {
            number: 557,
            distance: 2
        })
    );
    let (mut hand, _) = start(Variant::Closest555, 0, &hands);
    act(&mut hand, 1, Action::Keep);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, Action::Keep);
    let events = act(&mut hand, 0, Action::Show);
    assert_eq!(ended(&hand, &events).1, vec![0]);

    // 554 against 556: equal distance, the requester loses.
    let hands = ["5c 5d 4h", "5h 5s 6c"];
    let (mut hand, _) = start(Variant::Closest555, 0, &hands);
    act(&mut hand, 1, Action::Keep);
    let events = act(&mut hand, 1, Action::Show);
    assert_eq!(ended(&hand, &events).1, vec![0]);
    let (mut hand, _) = start(Variant::Closest555, 0, &hands);
    act(&mut hand, 1, Action::Keep);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 0, Action::Keep);
    let events = act(&mut hand, 0, Action::Show);
    assert_eq!(ended(&hand, &events).1, vec![1]);
}

#[test]
fn closest555_everyone_plays_seen_from_the_start() {
    let (mut hand, events) = start(Variant::Closest555, 0, &H555);
    for (seat, cards) in H555.iter().enumerate() {
        let view = hand.view(seat);
        assert!(view.players.iter().all(|p| p.seen));
        assert_eq!(view.cards, Some(hand3(cards)));
    }
    for event in &events {
        if let Event::Dealt { seat, .. } = event {
            assert_eq!(event.for_seat(*seat, false), *event, "own cards known");
            assert!(event.for_seat(1 - seat, false).cards().is_empty());
        }
    }
    act(&mut hand, 1, Action::Keep);
    assert!(!offers(&hand, "see"));
    refused(&mut hand, 1, Action::See);
    assert_eq!(bet_bounds(&hand), Some((2, 4, 2)));
    refused(&mut hand, 1, bet(1));
    let events = act(&mut hand, 1, bet(2));
    assert!(matches!(events[0], Event::Bet { blind: false, .. }));
}

// ----- Lallan Kallan ----------------------------------------------------------------------------

#[test]
fn lallan_kallan_dead_hands_pack_at_once_boot_in_the_pot_public_but_cards_private() {
    // Seat 0: three reds, dead. Seats 1 and 2 live.
    let hands = ["2h 5d 9h", "3c 8s Kd", "4c 6h Js"];
    let (mut hand, events) = start(Variant::LallanKallan, 0, &hands);
    let dead = events
        .iter()
        .find(|e| matches!(e, Event::Dead { .. }))
        .expect("a Dead event");
    assert_eq!(*dead, Event::Dead { seats: vec![0] });
    assert_eq!(
        dead.for_seat(1, false),
        *dead,
        "which seats are dead is public"
    );
    for event in &events {
        if let Event::Dealt { seat: 0, .. } = event {
            assert!(event.for_seat(1, false).cards().is_empty());
            assert!(event.for_seat(2, false).cards().is_empty());
            assert_eq!(event.for_seat(0, false).cards(), parse(hands[0]));
        }
    }
    assert_eq!(hand.pot(), 3, "the dead seat's boot stays in the pot");
    for viewer in 1..3 {
        let view = hand.view(viewer);
        assert!(view.players[0].dead && !view.players[0].in_hand);
        assert_eq!(view.players[0].put_in, 1);
        assert!(view.known.is_empty());
    }
    // Play goes round the live seats only.
    assert_eq!(hand.to_act(), bet_decision(1));
    act(&mut hand, 1, bet(2));
    assert_eq!(hand.to_act(), bet_decision(2));
    act(&mut hand, 2, bet(2));
    assert_eq!(hand.to_act(), bet_decision(1), "dead seat 0 is skipped");
    refused(&mut hand, 0, bet(2));
    // Two live seats: a show, and the dead hand stays hidden.
    let events = act(&mut hand, 1, Action::Show);
    let (_, shown) = revealed(&events).unwrap();
    assert_eq!(
        shown.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![1, 2]
    );
    let (_, _, pot, payoffs) = ended(&hand, &events);
    assert_eq!(pot, 9);
    assert_eq!(payoffs[0], -1);
    assert!(!hand.view(1).known.contains_key(&0));

    // A dead seat left of the dealer: betting starts with the next live seat.
    let hands = ["3c 8s Kd", "2h 5d 9h", "4c 6h Js"];
    let (hand, _) = start(Variant::LallanKallan, 0, &hands);
    assert_eq!(hand.to_act(), bet_decision(2));
}

#[test]
fn lallan_kallan_all_dead_redeals_same_dealer_pot_carried_forward_no_new_boot() {
    let first = deck_for(0, &["5c 6s 7c", "2h 3h 4d"], "");
    let second = deck_for(0, &["5h 6d 8h", "7c 9c Ts"], "");
    let third = deck_for(0, &["Qc Js 3h", "Kh Kd 2s"], "");
    let (hand, events) = Hand::new(
        Settings::new(Variant::LallanKallan),
        2,
        0,
        DealSource::Stacked(vec![first, second, third]),
    )
    .unwrap();
    let dealt = |seat: usize, redeal: u32, text: &str| Event::Dealt {
        seat,
        redeal,
        cards: Some(hand3(text)),
    };
    assert_eq!(
        events,
        vec![
            Event::HandStarted {
                dealer: 0,
                seats: 2,
                boot: 1,
                pot: 2,
                stake: 1
            },
            dealt(1, 0, "2h 3h 4d"),
            dealt(0, 0, "5c 6s 7c"),
            Event::Dead { seats: vec![0, 1] },
            Event::Redeal { redeal: 1, pot: 2 },
            dealt(1, 1, "7c 9c Ts"),
            dealt(0, 1, "5h 6d 8h"),
            Event::Dead { seats: vec![0, 1] },
            Event::Redeal { redeal: 2, pot: 2 },
            dealt(1, 2, "Kh Kd 2s"),
            dealt(0, 2, "Qc Js 3h"),
        ]
    );
    assert_eq!(hand.dealer(), 0);
    assert_eq!(hand.pot(), 2);
    assert_eq!(hand.stake(), 1);
    for seat in 0..2 {
        let view = hand.view(seat);
        assert_eq!(view.players[seat].put_in, 1, "no new boot");
        assert!(view.players[seat].in_hand && !view.players[seat].dead);
    }
    assert_eq!(hand.cards(1), hand3("Kh Kd 2s"));
    assert_eq!(hand.view(1).cards, Some(hand3("Kh Kd 2s")));
    assert_eq!(hand.to_act(), bet_decision(1));
}

#[test]
fn lallan_kallan_lone_survivor_takes_the_pot_at_once() {
    let hands = ["2h 5d 9h", "3c 8s Kd", "4c 6c Js"];
    let (hand, events) = start(Variant::LallanKallan, 0, &hands);
    assert!(events.contains(&Event::Dead { seats: vec![0, 2] }));
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!(
        (reason, winners, pot),
        (EndReason::LoneSurvivor, vec![1], 3)
    );
    assert_eq!(payoffs, vec![-1, 2, -1]);
    assert!(revealed(&events).is_none());
    assert!(hand.view(0).known.is_empty());
}

#[test]
fn lallan_kallan_everyone_left_plays_seen() {
    let hands = ["3c 8s Kd", "4c 6h Js"];
    let (mut hand, events) = start(Variant::LallanKallan, 0, &hands);
    assert!(!events.iter().any(|e| matches!(e, Event::Dead { .. })));
    assert_eq!(
        hand.legal(),
        vec![
            LegalAction::Pack,
            LegalAction::Bet {
                min: 2,
                max: 4,
                multiple_of: 2
            },
            LegalAction::Show { cost: 2 }
        ]
    );
    refused(&mut hand, 1, Action::See);
    refused(&mut hand, 1, bet(1));
    for (seat, cards) in hands.iter().enumerate() {
        assert_eq!(hand.view(seat).cards, Some(hand3(cards)));
        assert!(hand.view(seat).players.iter().all(|p| p.seen));
    }
}

#[test]
fn lallan_kallan_wild_resolves_before_a_show() {
    // Seat 0: 2h 3d + wild Qc -> A-2-3; seat 1: Kh 5d + wild 9s -> K-K-5.
    let hands = ["2h 3d Qc", "Kh 5d 9s"];
    let (mut hand, _) = start(Variant::LallanKallan, 0, &hands);
    let events = act(&mut hand, 1, Action::Show);
    assert_eq!(ended(&hand, &events).1, vec![0]);
    let Some(Event::Revealed { hands: shown, .. }) =
        events.iter().find(|e| matches!(e, Event::Revealed { .. }))
    else {
        panic!("no reveal");
    };
    let seat0 = shown.iter().find(|h| h.seat == 0).unwrap();
    assert!(matches!(
        seat0.value,
        rules::HandDescription::Ranked {
            category: rules::eval::Category::Sequence,
            wild: Some(w),
            ..
        } if w == parse("Qc")[0]
    ));
}

#[test]
fn lallan_kallan_natural_and_wild_assisted_equal_hands_split_a_group_reveal() {
    // 5h 6d + 7s (the wild plays as itself) and 5c 6s + Ah (the wild plays as a 7): 7-6-5 both.
    let hands = ["5h 6d 7s", "5c 6s Ah"];
    let mut settings = Settings::new(Variant::LallanKallan);
    settings.pot_limit = 3;
    let (mut hand, _) = start_with(settings, 0, &hands, "");
    let events = act(&mut hand, 1, bet(2));
    let (reason, winners, pot, payoffs) = ended(&hand, &events);
    assert_eq!((reason, winners, pot), (EndReason::PotLimit, vec![0, 1], 4));
    assert_eq!(payoffs, vec![1, -1]);
}

// ----- table sizes --------------------------------------------------------------------------

#[test]
fn player_counts_outside_each_variants_range_are_refused_with_a_clear_error() {
    for (variant, min, max, name) in [
        (Variant::Classic, 2, 17, "classic"),
        (Variant::Closest555, 2, 10, "closest-555"),
        (Variant::LallanKallan, 2, 16, "lallan-kallan"),
    ] {
        for seats in [0, 1, max + 1, max + 10] {
            let err = Hand::seeded(Settings::new(variant), seats, 0, 1, 0).unwrap_err();
            assert_eq!(
                err,
                SettingsError::Seats {
                    variant,
                    seats,
                    min,
                    max
                }
            );
            assert_eq!(
                err.to_string(),
                format!("{name} is played by {min} to {max} players, not {seats}")
            );
        }
        for seats in [min, max] {
            let (hand, _) = Hand::seeded(Settings::new(variant), seats, seats - 1, 1, 0)
                .unwrap_or_else(|e| panic!("{variant} {seats}: {e}"));
            assert_eq!(hand.seat_count(), seats);
        }
    }
    // A dealer seat that does not exist is refused too.
    assert!(Hand::seeded(Settings::new(Variant::Classic), 3, 3, 1, 0).is_err());
}

#[test]
fn settings_errors_name_the_offending_field() {
    let field = |f: &dyn Fn(&mut Settings)| {
        let mut settings = Settings::new(Variant::Closest555);
        f(&mut settings);
        match Hand::seeded(settings, 4, 0, 1, 0) {
            Err(SettingsError::Field(name, _)) => name,
            other => panic!("expected a field error, got {:?}", other.map(|_| ())),
        }
    };
    assert_eq!(field(&|s| s.boot = 0), "boot");
    assert_eq!(field(&|s| s.max_stake = 0), "max_stake");
    assert_eq!(field(&|s| s.pot_limit = 4), "pot_limit");
    assert_eq!(field(&|s| s.max_turns = 0), "max_turns");
    assert_eq!(field(&|s| s.pot_limit = (1 << 40) + 1), "pot_limit");
}

#[test]
fn settings_error_for_a_huge_swap_cost_names_swap_cost() {
    let mut settings = Settings::new(Variant::Closest555);
    settings.swap_cost = (1 << 30) + 1;
    let err = Hand::seeded(settings, 4, 0, 1, 0).map(|_| ()).unwrap_err();
    assert!(
        matches!(err, SettingsError::Field("swap_cost", _)),
        "{err:?}"
    );
}

/// Settings that `validate` accepts must never make the engine overflow (a panic in debug
/// builds, wrapped chip counts in release). The arena takes `max_stake` and `boot` from the
/// command line and from match files.
#[test]
fn huge_max_stake_is_refused_or_played_without_overflow() {
    let mut settings = Settings::new(Variant::Classic);
    settings.max_stake = u64::MAX;
    let Ok((mut hand, _)) = Hand::seeded(settings, 3, 0, 1, 0) else {
        return; // refused: fine
    };
    act(&mut hand, 1, Action::See);
    // Panics here in debug: attempt to multiply with overflow.
    assert_eq!(bet_bounds(&hand), Some((2, 4, 2)));
}

#[test]
fn huge_boot_is_refused_without_overflow() {
    let mut settings = Settings::new(Variant::Classic);
    settings.boot = 1 << 63;
    settings.max_stake = u64::MAX;
    // Debug: panics in validate (attempt to multiply with overflow). Release: boot * 2 wraps
    // to 0, the pot_limit check passes, and the hand starts with a pot of 0.
    let result =
        std::panic::catch_unwind(|| Hand::seeded(settings, 2, 0, 1, 0).map(|(h, _)| h.pot()));
    match result {
        Ok(Err(_)) => {}
        Ok(Ok(pot)) => panic!("accepted a boot of 2^63 with a pot of {pot}"),
        Err(_) => panic!("validate panicked (overflow) instead of refusing the boot"),
    }
}

// ----- illegal actions ----------------------------------------------------------------------

#[test]
fn illegal_actions_are_errors_and_change_nothing() {
    let not_legal = |e: Illegal, kind: DecisionKind| {
        assert!(
            matches!(e, Illegal::NotLegal { kind: k, .. } if k == kind),
            "{e:?}"
        );
    };
    let (mut hand, _) = start(Variant::Classic, 0, &SIDESHOW);
    // Wrong seat, including one that does not exist.
    for seat in [0, 2, 3, 99] {
        assert_eq!(
            refused(&mut hand, seat, Action::Pack),
            Illegal::NotYourTurn { seat, expected: 1 }
        );
    }
    // Out of bounds, and actions not offered.
    for action in [
        bet(0),
        bet(3),
        bet(u64::MAX),
        Action::Show,
        Action::Sideshow,
        Action::Swap {
            card: hand3(SIDESHOW[1])[0],
        },
        Action::Keep,
        Action::Accept,
        Action::Refuse,
    ] {
        not_legal(refused(&mut hand, 1, action), DecisionKind::Bet);
    }
    act(&mut hand, 1, Action::See);
    // Seen: odd, below, above.
    for amount in [1, 3, 5, 6] {
        not_legal(refused(&mut hand, 1, bet(amount)), DecisionKind::Bet);
    }
    not_legal(refused(&mut hand, 1, Action::See), DecisionKind::Bet);
    act(&mut hand, 1, bet(2));
    act(&mut hand, 2, Action::See);
    act(&mut hand, 2, Action::Sideshow);
    // The reply belongs to seat 1, and only accept or refuse.
    assert_eq!(
        refused(&mut hand, 2, Action::Pack),
        Illegal::NotYourTurn {
            seat: 2,
            expected: 1
        }
    );
    refused(&mut hand, 0, Action::Accept);
    for action in [
        Action::Pack,
        bet(2),
        Action::Show,
        Action::See,
        Action::Keep,
    ] {
        not_legal(refused(&mut hand, 1, action), DecisionKind::SideshowReply);
    }
    act(&mut hand, 1, Action::Refuse);
    act(&mut hand, 0, Action::Pack);
    let events = act(&mut hand, 1, Action::Pack);
    ended(&hand, &events);
    // After the hand is over.
    for seat in 0..3 {
        for action in [Action::Pack, bet(2), Action::Show, Action::Accept] {
            assert_eq!(refused(&mut hand, seat, action), Illegal::HandOver);
        }
    }

    // Closest to 555: a card not held, and betting before the swap decision.
    let (mut hand, _) = start(Variant::Closest555, 0, &H555);
    for action in [
        Action::Swap {
            card: parse("As")[0],
        },
        Action::Swap {
            card: hand3(H555[0])[0],
        },
        Action::Pack,
        bet(2),
        Action::See,
        Action::Show,
    ] {
        not_legal(refused(&mut hand, 1, action), DecisionKind::Swap);
    }
    refused(&mut hand, 0, Action::Keep);

    // Lallan Kallan: a dead seat never acts.
    let (mut hand, _) = start(
        Variant::LallanKallan,
        0,
        &["2h 5d 9h", "3c 8s Kd", "4c 6h Js"],
    );
    refused(&mut hand, 0, Action::Pack);
    refused(&mut hand, 1, Action::See);
}

// ----- payoffs ----------------------------------------------------------------------------------

#[test]
fn payoffs_are_net_chips_and_every_hand_is_zero_sum() {
    for variant in Variant::ALL {
        for seats in [2, 3, 5] {
            for seed in 0..20 {
                let (mut hand, mut events) = Hand::seeded(
                    Settings::new(variant),
                    seats,
                    seed as usize % seats,
                    seed,
                    0,
                )
                .unwrap();
                // Everyone chaals twice, then everyone but the last to act packs.
                let mut steps = 0;
                while let Some(decision) = hand.to_act() {
                    let action = match decision.kind {
                        DecisionKind::Swap => Action::Keep,
                        DecisionKind::SideshowReply => Action::Refuse,
                        DecisionKind::Bet if steps < 2 * seats => {
                            steps += 1;
                            let (min, _, _) = bet_bounds(&hand).unwrap_or((0, 0, 0));
                            if min == 0 { Action::See } else { bet(min) }
                        }
                        DecisionKind::Bet => Action::Pack,
                    };
                    events.extend(act(&mut hand, decision.seat, action));
                }
                let (_, winners, pot, payoffs) = ended(&hand, &events);
                let put: Vec<u64> = hand.view(0).players.iter().map(|p| p.put_in).collect();
                for seat in 0..seats {
                    let won = if winners.contains(&seat) { pot } else { 0 };
                    assert_eq!(payoffs[seat], won as i64 - put[seat] as i64);
                }
            }
        }
    }
}
