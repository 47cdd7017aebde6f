//! The hand-ranking rules of rules-notes sections 1-3, one named test per rule, each with a
//! worked example, plus exhaustive checks over all C(52,3) = 22100 hands.
//!
//! Lallan Kallan is "worth the best standard hand that can be made", so a live Lallan Kallan
//! value is compared directly with the classic value of that standard hand (same sequence
//! order): that equality is the rule itself, and the brute force below relies on it too.

use std::collections::{BTreeMap, HashMap};

use rules::card::parse_hand;
use rules::eval::{Category, HandDescription, describe, hand_value, is_dead};
use rules::{Card, HandValue, SequenceOrder, Variant};

const ORDERS: [SequenceOrder; 2] = [SequenceOrder::A23High, SequenceOrder::AkqHigh];

fn hand(text: &str) -> [Card; 3] {
    let texts: Vec<&str> = text.split_whitespace().collect();
    parse_hand(&texts).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cards(text: &str) -> Vec<Card> {
    rules::card::cards(text).unwrap()
}

fn classic_in(order: SequenceOrder, text: &str) -> HandValue {
    hand_value(Variant::Classic, order, &hand(text))
}

fn classic(text: &str) -> HandValue {
    classic_in(SequenceOrder::A23High, text)
}

fn ranked(variant: Variant, order: SequenceOrder, cards: &[Card; 3]) -> (Category, [Card; 3]) {
    match describe(variant, order, cards) {
        HandDescription::Ranked {
            category, cards, ..
        } => (category, cards),
        other => panic!("{cards:?}: expected a ranked hand, got {other:?}"),
    }
}

fn category_in(order: SequenceOrder, text: &str) -> Category {
    ranked(Variant::Classic, order, &hand(text)).0
}

fn lk_in(order: SequenceOrder, text: &str) -> HandValue {
    hand_value(Variant::LallanKallan, order, &hand(text))
}

fn lk(text: &str) -> HandValue {
    lk_in(SequenceOrder::A23High, text)
}

fn v555(text: &str) -> HandValue {
    // The order setting has no meaning in 555; it must not change anything.
    let cards = hand(text);
    let a = hand_value(Variant::Closest555, SequenceOrder::A23High, &cards);
    let b = hand_value(Variant::Closest555, SequenceOrder::AkqHigh, &cards);
    assert_eq!(a, b, "{text}: 555 value depends on the sequence order");
    a
}

fn d555(text: &str) -> (u16, u16) {
    match describe(Variant::Closest555, SequenceOrder::A23High, &hand(text)) {
        HandDescription::Closest555 { number, distance } => (number, distance),
        other => panic!("{text}: expected a 555 description, got {other:?}"),
    }
}

/// All 22100 three-card hands of the pack, each once.
fn all_hands() -> impl Iterator<Item = [Card; 3]> {
    (0..52).flat_map(|i| {
        (i + 1..52).flat_map(move |j| {
            (j + 1..52).map(move |k| {
                [
                    Card::from_index(i),
                    Card::from_index(j),
                    Card::from_index(k),
                ]
            })
        })
    })
}

/// Asserts that the hands are listed strictly best first.
fn assert_strictly_decreasing(order: SequenceOrder, variant: Variant, texts: &[&str]) {
    for pair in texts.windows(2) {
        let (a, b) = (hand(pair[0]), hand(pair[1]));
        assert!(
            hand_value(variant, order, &a) > hand_value(variant, order, &b),
            "{order}: expected {} > {}",
            pair[0],
            pair[1]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Classic ranking
// ---------------------------------------------------------------------------------------------

#[test]
fn classic_category_order_is_trail_pure_sequence_sequence_colour_pair_high_card() {
    // Each category's weakest hand beats the next category's strongest.
    let ladder = [
        ("2c 2d 2h", Category::Trail),        // weakest trail
        ("As 2s 3s", Category::PureSequence), // strongest pure sequence (a23-high)
        ("As Ks Qs", Category::PureSequence), // strongest pure sequence (akq-high)
        ("4h 3h 2h", Category::PureSequence), // weakest pure sequence
        ("Ah 2d 3c", Category::Sequence),     // strongest sequence (a23-high)
        ("Ah Kd Qc", Category::Sequence),     // strongest sequence (akq-high)
        ("4h 3d 2c", Category::Sequence),     // weakest sequence
        ("Ad Kd Jd", Category::Colour),       // strongest colour
        ("5c 3c 2c", Category::Colour),       // weakest colour
        ("As Ah Kd", Category::Pair),         // strongest pair
        ("2s 2h 3d", Category::Pair),         // weakest pair
        ("As Kh Jd", Category::HighCard),     // strongest high card
        ("5s 3h 2d", Category::HighCard),     // weakest high card
    ];
    for order in ORDERS {
        for (text, category) in ladder {
            assert_eq!(category_in(order, text), category, "{order}: {text}");
        }
        for (i, (high, high_category)) in ladder.iter().enumerate() {
            for (low, low_category) in &ladder[i + 1..] {
                if high_category > low_category {
                    assert!(
                        classic_in(order, high) > classic_in(order, low),
                        "{order}: expected {high} > {low}"
                    );
                }
            }
        }
    }
    // The derived order of the enum is the ranking.
    assert!(Category::Trail > Category::PureSequence);
    assert!(Category::PureSequence > Category::Sequence);
    assert!(Category::Sequence > Category::Colour);
    assert!(Category::Colour > Category::Pair);
    assert!(Category::Pair > Category::HighCard);
}

#[test]
fn classic_trails_rank_by_rank_aces_highest() {
    let trails = [
        "Ac Ad Ah", "Kc Kd Kh", "Qc Qd Qh", "Jc Jd Jh", "Tc Td Th", "9c 9d 9h", "8c 8d 8h",
        "7c 7d 7h", "6c 6d 6h", "5c 5d 5h", "4c 4d 4h", "3c 3d 3h", "2c 2d 2h",
    ];
    for order in ORDERS {
        assert_strictly_decreasing(order, Variant::Classic, &trails);
    }
}

#[test]
fn classic_runs_follow_a23_high_order_a23_then_akq_down_to_432() {
    let pure = [
        "As 2s 3s", "As Ks Qs", "Ks Qs Js", "Qs Js Ts", "Js Ts 9s", "Ts 9s 8s", "9s 8s 7s",
        "8s 7s 6s", "7s 6s 5s", "6s 5s 4s", "5s 4s 3s", "4s 3s 2s",
    ];
    let mixed = [
        "Ah 2s 3d", "Ah Ks Qd", "Kh Qs Jd", "Qh Js Td", "Jh Ts 9d", "Th 9s 8d", "9h 8s 7d",
        "8h 7s 6d", "7h 6s 5d", "6h 5s 4d", "5h 4s 3d", "4h 3s 2d",
    ];
    let order = SequenceOrder::A23High;
    assert_strictly_decreasing(order, Variant::Classic, &pure);
    assert_strictly_decreasing(order, Variant::Classic, &mixed);
    for text in pure {
        assert_eq!(category_in(order, text), Category::PureSequence, "{text}");
    }
    for text in mixed {
        assert_eq!(category_in(order, text), Category::Sequence, "{text}");
    }
}

#[test]
fn classic_runs_follow_akq_high_order_akq_then_a23_then_kqj() {
    let mixed = [
        "Ah Ks Qd", "Ah 2s 3d", "Kh Qs Jd", "Qh Js Td", "Jh Ts 9d", "Th 9s 8d", "9h 8s 7d",
        "8h 7s 6d", "7h 6s 5d", "6h 5s 4d", "5h 4s 3d", "4h 3s 2d",
    ];
    assert_strictly_decreasing(SequenceOrder::AkqHigh, Variant::Classic, &mixed);
    let pure = ["As Ks Qs", "As 2s 3s", "Ks Qs Js", "4s 3s 2s"];
    assert_strictly_decreasing(SequenceOrder::AkqHigh, Variant::Classic, &pure);
}

#[test]
fn classic_a23_beats_akq_under_a23_high_and_loses_under_akq_high() {
    use SequenceOrder::*;
    assert!(classic_in(A23High, "Ac 2d 3h") > classic_in(A23High, "Ac Kd Qh"));
    assert!(classic_in(AkqHigh, "Ac 2d 3h") < classic_in(AkqHigh, "Ac Kd Qh"));
    assert!(classic_in(A23High, "Ac 2c 3c") > classic_in(A23High, "Ad Kd Qd"));
    assert!(classic_in(AkqHigh, "Ac 2c 3c") < classic_in(AkqHigh, "Ad Kd Qd"));
    // Either way, both stay above K-Q-J, and A-2-3 (ace low in it) is far above 4-3-2.
    for order in ORDERS {
        assert!(classic_in(order, "Ac 2d 3h") > classic_in(order, "Kc Qd Jh"));
        assert!(classic_in(order, "Ac Kd Qh") > classic_in(order, "Kc Qd Jh"));
        assert!(classic_in(order, "Ac 2d 3h") > classic_in(order, "4c 3d 2h"));
        // The order only moves runs: A-2-3 as a high card would be weak, but it is no high card.
        assert_eq!(category_in(order, "Ac 2d 3h"), Category::Sequence);
    }
}

#[test]
fn classic_k_a_2_is_not_a_run_no_wraparound() {
    for order in ORDERS {
        assert_eq!(
            category_in(order, "Kh As 2d"),
            Category::HighCard,
            "{order}"
        );
        assert_eq!(category_in(order, "Ks As 2s"), Category::Colour, "{order}");
        assert_eq!(
            category_in(order, "Qh Kd 2c"),
            Category::HighCard,
            "{order}"
        );
        // So K-A-2 loses to the lowest run and ranks as the high card A-K-2.
        assert!(classic_in(order, "Kh As 2d") < classic_in(order, "4c 3d 2h"));
        assert!(classic_in(order, "Kh As 2d") < classic_in(order, "Ah Kc 3d"));
        assert_eq!(classic_in(order, "Kh As 2d"), classic_in(order, "Ac Kd 2h"));
        assert!(classic_in(order, "Ks As 2s") < classic_in(order, "4c 3d 2h"));
    }
}

#[test]
fn classic_equal_runs_tie_and_higher_runs_win() {
    for order in ORDERS {
        assert_eq!(classic_in(order, "5c 6d 7h"), classic_in(order, "7s 5h 6c"));
        assert_eq!(classic_in(order, "5c 6c 7c"), classic_in(order, "7d 5d 6d"));
        assert!(classic_in(order, "6c 7d 8h") > classic_in(order, "5c 6d 7h"));
        // A pure sequence beats any plain sequence, even a higher one.
        assert!(classic_in(order, "4c 3c 2c") > classic_in(order, "Ac Kd Qh"));
    }
}

#[test]
fn classic_colour_compares_highest_then_second_then_third_card() {
    assert!(classic("Ah Th 9h") > classic("Kd Qd Td")); // highest card decides: A > K
    assert!(classic("Ah Qh 3h") > classic("Ad Jd 9d")); // then the second: Q > J
    assert!(classic("Ah Qh 4h") > classic("Ad Qd 3d")); // then the third: 4 > 3
    assert_eq!(classic("Ah Qh 4h"), classic("Ac Qc 4c")); // same ranks: a tie
    // The ace is always high outside a run: A-5-4 colour beats K-Q-T colour.
    assert!(classic("Ah 5h 4h") > classic("Kd Qd Td"));
}

#[test]
fn classic_colour_a_k_j_is_highest_and_5_3_2_lowest() {
    let colours: Vec<([Card; 3], HandValue)> = all_hands()
        .filter(|h| ranked(Variant::Classic, SequenceOrder::A23High, h).0 == Category::Colour)
        .map(|h| (h, hand_value(Variant::Classic, SequenceOrder::A23High, &h)))
        .collect();
    let max = colours.iter().map(|c| c.1).max().unwrap();
    let min = colours.iter().map(|c| c.1).min().unwrap();
    assert_eq!(max, classic("As Ks Js"));
    assert_eq!(min, classic("5s 3s 2s"));
    for (h, v) in &colours {
        if *v == max {
            assert_eq!(ranks(h), [14, 13, 11], "{h:?}");
        }
        if *v == min {
            assert_eq!(ranks(h), [5, 3, 2], "{h:?}");
        }
    }
}

#[test]
fn classic_high_card_compares_highest_then_second_then_third_and_a_k_j_is_best() {
    assert!(classic("Ah 3d 2c") > classic("Kd Qs Jh")); // A beats K
    assert!(classic("Ah Qd 2c") > classic("Ad Js 9h")); // Q beats J in second place
    assert!(classic("Ah Qd 5c") > classic("Ad Qs 4h")); // 5 beats 4 in third place
    let high: Vec<HandValue> = all_hands()
        .filter(|h| ranked(Variant::Classic, SequenceOrder::A23High, h).0 == Category::HighCard)
        .map(|h| hand_value(Variant::Classic, SequenceOrder::A23High, &h))
        .collect();
    assert_eq!(high.iter().max(), Some(&classic("As Kh Jd")));
    assert_eq!(high.iter().min(), Some(&classic("5s 3h 2d")));
}

#[test]
fn classic_pair_compares_pair_rank_then_kicker() {
    assert!(classic("3c 3d 2h") > classic("2c 2d Ah")); // pair rank first: 3s beat 2s with an ace
    assert!(classic("Kc Kd 5h") > classic("Kh Ks 4d")); // then the kicker
    assert_eq!(classic("Kc Kd 5h"), classic("Kh Ks 5d")); // suits never matter
    assert!(classic("Ac Ad Kh") > classic("Kc Kd Ah")); // A-A-K is the top pair
    // The kicker may sit above or below the pair: Q-Q-A > Q-Q-2, and 2-Q-Q = Q-Q-2.
    assert!(classic("Qc Qd Ah") > classic("Qc Qd 2h"));
    assert_eq!(classic("2s Qc Qd"), classic("Qh 2c Qs"));
    let pairs: Vec<HandValue> = all_hands()
        .filter(|h| ranked(Variant::Classic, SequenceOrder::A23High, h).0 == Category::Pair)
        .map(|h| hand_value(Variant::Classic, SequenceOrder::A23High, &h))
        .collect();
    assert_eq!(pairs.iter().max(), Some(&classic("As Ah Kd")));
    assert_eq!(pairs.iter().min(), Some(&classic("2s 2h 3d")));
}

fn ranks(cards: &[Card]) -> Vec<u8> {
    let mut r: Vec<u8> = cards.iter().map(|c| c.rank().value()).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

#[test]
fn classic_suits_never_break_ties_for_every_hand() {
    // Worked examples from each category.
    assert_eq!(classic("Ac Ad Ah"), classic("As Ad Ac"));
    assert_eq!(classic("As Kd Qc"), classic("Ah Kc Qd")); // esrrhs TestCompareEqual
    assert_eq!(classic("2h 4h 3d"), classic("2d 3h 4h")); // Wohlig "Split Pot"
    // Exhaustively: the value depends only on the ranks and on whether the suits are all one.
    for order in ORDERS {
        let mut seen: HashMap<(Vec<u8>, bool), HandValue> = HashMap::new();
        for h in all_hands() {
            let one_suit = h[0].suit() == h[1].suit() && h[1].suit() == h[2].suit();
            let v = hand_value(Variant::Classic, order, &h);
            let prev = *seen.entry((ranks(&h), one_suit)).or_insert(v);
            assert_eq!(prev, v, "{order}: {h:?}");
        }
        // 455 rank multisets, of which 286 with three distinct ranks can also be one suit.
        assert_eq!(seen.len(), 455 + 286);
    }
}

#[test]
fn classic_value_does_not_depend_on_the_order_of_the_cards() {
    for order in ORDERS {
        for [a, b, c] in all_hands() {
            let v = hand_value(Variant::Classic, order, &[a, b, c]);
            for p in [[a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]] {
                assert_eq!(hand_value(Variant::Classic, order, &p), v, "{p:?}");
                assert_eq!(
                    describe(Variant::Classic, order, &p),
                    describe(Variant::Classic, order, &[a, b, c])
                );
            }
        }
    }
}

#[test]
fn classic_category_counts_over_all_22100_hands_are_the_known_numbers() {
    for order in ORDERS {
        let mut counts: BTreeMap<Category, usize> = BTreeMap::new();
        for h in all_hands() {
            *counts
                .entry(ranked(Variant::Classic, order, &h).0)
                .or_default() += 1;
        }
        let expected = BTreeMap::from([
            (Category::Trail, 52),        // 13 ranks x C(4,3)
            (Category::PureSequence, 48), // 12 runs x 4 suits
            (Category::Sequence, 720),    // 12 runs x 4^3 - 48
            (Category::Colour, 1096),     // 4 x C(13,3) - 48
            (Category::Pair, 3744),       // 13 x C(4,2) x 48
            (Category::HighCard, 16440),  // the rest
        ]);
        assert_eq!(counts, expected, "{order}");
        assert_eq!(counts.values().sum::<usize>(), 22100);
    }
}

#[test]
fn classic_distinct_values_count_and_category_agree_with_value() {
    // Equal values <=> equal categories and equal deciding ranks; a key's category never
    // overlaps another's range: sorting by value sorts by category.
    for order in ORDERS {
        let mut by_value: Vec<(HandValue, Category)> = all_hands()
            .map(|h| {
                (
                    hand_value(Variant::Classic, order, &h),
                    ranked(Variant::Classic, order, &h).0,
                )
            })
            .collect();
        by_value.sort();
        for w in by_value.windows(2) {
            assert!(w[0].1 <= w[1].1, "{order}: {:?} then {:?}", w[0], w[1]);
        }
        by_value.dedup_by_key(|x| x.0);
        // 13 trails + 12 pure + 12 runs + (286 - 12) colours + 13*12 pairs + (286 - 12) high.
        assert_eq!(by_value.len(), 13 + 12 + 12 + 274 + 156 + 274, "{order}");
        assert!(by_value[0].0.key() > 0, "key 0 is reserved for a dead hand");
    }
}

#[test]
fn classic_describe_lists_deciding_cards_most_significant_first() {
    let d = |text: &str| ranked(Variant::Classic, SequenceOrder::A23High, &hand(text));
    assert_eq!(
        d("5d Kc Kh"),
        (Category::Pair, cards("Kh Kc 5d").try_into().unwrap())
    );
    assert_eq!(
        d("Kc 5d Kh"),
        (Category::Pair, cards("Kh Kc 5d").try_into().unwrap())
    );
    assert_eq!(
        d("9h As Kd"),
        (Category::HighCard, cards("As Kd 9h").try_into().unwrap())
    );
    assert_eq!(
        d("3s As 2s"),
        (
            Category::PureSequence,
            cards("As 2s 3s").try_into().unwrap()
        )
    );
    assert_eq!(
        d("Qs Ah Kd"),
        (Category::Sequence, cards("Ah Kd Qs").try_into().unwrap())
    );
    assert_eq!(
        d("2c 4h 3d"),
        (Category::Sequence, cards("4h 3d 2c").try_into().unwrap())
    );
    assert_eq!(
        d("7d 7s 7c"),
        (Category::Trail, cards("7s 7d 7c").try_into().unwrap())
    );
    // A classic hand never reports a wild.
    match describe(Variant::Classic, SequenceOrder::A23High, &hand("7d 7s 7c")) {
        HandDescription::Ranked { wild, .. } => assert_eq!(wild, None),
        other => panic!("{other:?}"),
    }
}

#[test]
fn classic_description_serializes_with_snake_case_category_and_no_wild() {
    let json = serde_json::to_value(describe(
        Variant::Classic,
        SequenceOrder::A23High,
        &hand("3s As 2s"),
    ))
    .unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "ranked", "category": "pure_sequence", "cards": ["As", "2s", "3s"]})
    );
    let json = serde_json::to_value(describe(
        Variant::Classic,
        SequenceOrder::A23High,
        &hand("9h As Kd"),
    ))
    .unwrap();
    assert_eq!(json["category"], "high_card");
}

// ---------------------------------------------------------------------------------------------
// Closest to 555
// ---------------------------------------------------------------------------------------------

#[test]
fn closest555_554_beats_557() {
    assert_eq!(d555("5c 5d 4h"), (554, 1));
    assert_eq!(d555("5c 5d 7h"), (557, 2));
    assert!(v555("5c 5d 4h") > v555("5c 5d 7h"));
}

#[test]
fn closest555_554_ties_556_above_and_below_count_the_same() {
    assert_eq!(d555("5c 5d 6h"), (556, 1));
    assert_eq!(v555("5c 5d 4h"), v555("5s 5h 6d"));
}

#[test]
fn closest555_550_ties_560() {
    // 5-5-K reads 550 (5 below); 5-6-Q reads 560 (5 above).
    assert_eq!(d555("5c 5d Kh"), (550, 5));
    assert_eq!(d555("5c 6d Qh"), (560, 5));
    assert_eq!(v555("5c 5d Kh"), v555("5c 6d Qh"));
}

#[test]
fn closest555_research_derived_vectors() {
    let vectors = [
        ("5c 5d 4h", 554, 1),
        ("5c 5d 7h", 557, 2),
        ("Kc 5d 5h", 550, 5),
        ("6c 4d 9h", 496, 59),
        ("Ac Kd 9h", 901, 346),
        ("2c 3d Ah", 321, 234),
        ("9c 9d 9h", 999, 444),
        ("Tc Jd Qh", 0, 555),
        // 546 and 564 are both 9 away: the description names the lower number.
        ("5c 4d 6h", 546, 9),
    ];
    for (text, number, distance) in vectors {
        assert_eq!(d555(text), (number, distance), "{text}");
    }
    // Values follow the distances: smaller distance, higher value.
    for (a, _, da) in vectors {
        for (b, _, db) in vectors {
            assert_eq!(v555(a).cmp(&v555(b)), db.cmp(&da), "{a} vs {b}");
        }
    }
}

#[test]
fn closest555_ace_is_one_and_ten_to_king_are_zero() {
    assert_eq!(d555("Ac 5d 5h"), (551, 4)); // not 5-5-14 or 5-5-11
    assert_eq!(d555("Tc 5d 5h"), (550, 5));
    assert_eq!(d555("Jc 5d 5h"), (550, 5));
    assert_eq!(d555("Qc 5d 5h"), (550, 5));
    assert_eq!(d555("Kc 5d 5h"), (550, 5));
    assert_eq!(d555("Ac Ad Ah"), (111, 444));
}

#[test]
fn closest555_ten_jack_queen_king_make_000_the_worst_hand() {
    let worst = all_hands()
        .map(|h| hand_value(Variant::Closest555, SequenceOrder::A23High, &h))
        .min()
        .unwrap();
    assert_eq!(worst, v555("Tc Jd Qh"));
    assert_eq!(v555("Tc Jd Qh"), v555("Kc Kd Kh"));
    // Even the worst hand is above key 0.
    assert!(worst.key() > 0);
}

#[test]
fn closest555_digits_are_not_added_and_classic_categories_do_not_score() {
    // 6-4-9 (high card, digit sum 19, reads 496, 59 away) beats three aces (111, 444 away)
    // and the pure sequence A-K-Q (digits 1, 0, 0: 100, 455 away).
    assert!(v555("6c 4d 9h") > v555("Ac Ad Ah"));
    assert!(v555("6c 4d 9h") > v555("As Ks Qs"));
    // 9-9-9 (sum 27) loses to 5-5-4 (sum 14): adding would say the opposite of closeness.
    assert!(v555("5c 5d 4h") > v555("9c 9d 9h"));
}

#[test]
fn closest555_suits_and_card_order_do_not_matter_for_every_hand() {
    let mut by_ranks: HashMap<Vec<u8>, (HandValue, HandDescription)> = HashMap::new();
    for [a, b, c] in all_hands() {
        let v = hand_value(Variant::Closest555, SequenceOrder::A23High, &[a, b, c]);
        let d = describe(Variant::Closest555, SequenceOrder::A23High, &[a, b, c]);
        for p in [[b, a, c], [c, b, a], [b, c, a]] {
            assert_eq!(
                hand_value(Variant::Closest555, SequenceOrder::A23High, &p),
                v
            );
            assert_eq!(describe(Variant::Closest555, SequenceOrder::A23High, &p), d);
        }
        let prev = by_ranks.entry(ranks(&[a, b, c])).or_insert((v, d.clone()));
        assert_eq!(*prev, (v, d), "{:?}", [a, b, c]);
    }
}

fn digit(card: Card) -> u16 {
    match card.rank().value() {
        14 => 1,
        v @ 2..=9 => u16::from(v),
        _ => 0,
    }
}

#[test]
fn closest555_matches_a_reference_over_all_orders_for_every_hand() {
    // Reference: every arrangement of the digits, best distance, lower number on a tie.
    for h in all_hands() {
        let [a, b, c] = h.map(digit);
        let mut best = (u16::MAX, u16::MAX); // (distance, number)
        for [x, y, z] in [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ] {
            let n = 100 * x + 10 * y + z;
            best = best.min((n.abs_diff(555), n));
        }
        let got = match describe(Variant::Closest555, SequenceOrder::A23High, &h) {
            HandDescription::Closest555 { number, distance } => (distance, number),
            other => panic!("{other:?}"),
        };
        assert_eq!(got, best, "{h:?}");
    }
}

#[test]
fn closest555_leading_zeros_never_change_the_distance() {
    // Research 3.3: forbidding a leading zero (unless all three digits are zero) gives the
    // same best distance for every hand.
    for h in all_hands() {
        let [a, b, c] = h.map(digit);
        let mut best_any = u16::MAX;
        let mut best_no_leading_zero = u16::MAX;
        for [x, y, z] in [
            [a, b, c],
            [a, c, b],
            [b, a, c],
            [b, c, a],
            [c, a, b],
            [c, b, a],
        ] {
            let d = (100 * x + 10 * y + z).abs_diff(555);
            best_any = best_any.min(d);
            if x != 0 || (y == 0 && z == 0) {
                best_no_leading_zero = best_no_leading_zero.min(d);
            }
        }
        assert_eq!(best_any, best_no_leading_zero, "{h:?}");
    }
}

#[test]
fn closest555_distance_0_only_for_555_and_distance_1_only_for_455_or_556() {
    let mut zero = 0;
    let mut one = 0;
    for h in all_hands() {
        let (_, distance) = match describe(Variant::Closest555, SequenceOrder::A23High, &h) {
            HandDescription::Closest555 { number, distance } => (number, distance),
            other => panic!("{other:?}"),
        };
        let mut digits = h.map(digit);
        digits.sort_unstable();
        match distance {
            0 => {
                zero += 1;
                assert_eq!(digits, [5, 5, 5], "{h:?}");
            }
            1 => {
                one += 1;
                assert!(digits == [4, 5, 5] || digits == [5, 5, 6], "{h:?}");
            }
            _ => assert!(digits != [5, 5, 5] && digits != [4, 5, 5] && digits != [5, 5, 6]),
        }
    }
    assert_eq!(zero, 4); // C(4,3) ways to hold three fives
    assert_eq!(one, 2 * 6 * 4); // two kinds x C(4,2) fives x 4 suits of the other card
}

#[test]
fn closest555_value_orders_strictly_by_distance() {
    let mut map: BTreeMap<u16, HandValue> = BTreeMap::new();
    for h in all_hands() {
        let v = hand_value(Variant::Closest555, SequenceOrder::A23High, &h);
        let HandDescription::Closest555 { distance, .. } =
            describe(Variant::Closest555, SequenceOrder::A23High, &h)
        else {
            panic!()
        };
        assert_eq!(*map.entry(distance).or_insert(v), v, "{h:?}");
    }
    let values: Vec<HandValue> = map.values().copied().collect();
    assert!(
        values.windows(2).all(|w| w[0] > w[1]),
        "smaller distance must be higher"
    );
}

// ---------------------------------------------------------------------------------------------
// Lallan Kallan
// ---------------------------------------------------------------------------------------------

fn lk_ranked(order: SequenceOrder, text: &str) -> (Category, [Card; 3], Option<Card>) {
    match describe(Variant::LallanKallan, order, &hand(text)) {
        HandDescription::Ranked {
            category,
            cards,
            wild,
        } => (category, cards, wild),
        other => panic!("{text}: expected a live hand, got {other:?}"),
    }
}

#[test]
fn lallan_kallan_three_reds_or_three_blacks_are_dead() {
    for text in ["Ah Kd 2h", "2c 7s Kc", "As Ks Qs", "5h 5d 9d"] {
        let cards = hand(text);
        assert!(is_dead(&cards), "{text}");
        for order in ORDERS {
            assert_eq!(
                describe(Variant::LallanKallan, order, &cards),
                HandDescription::Dead
            );
            assert_eq!(hand_value(Variant::LallanKallan, order, &cards).key(), 0);
        }
    }
    assert!(!is_dead(&hand("Ah Kd 2c")));
    assert!(!is_dead(&hand("Ah Ks 2c")));
}

#[test]
fn lallan_kallan_dead_hands_are_below_every_live_hand() {
    // A-K-Q of spades (a pure sequence in the classic game) is dead here, below the weakest
    // live hand, 5-5-2.
    for order in ORDERS {
        assert!(lk_in(order, "As Ks Qs") < lk_in(order, "5h 2d 9c"));
        let mut dead = 0;
        let mut max_dead = None;
        let mut min_live = None;
        for h in all_hands() {
            let v = hand_value(Variant::LallanKallan, order, &h);
            if is_dead(&h) {
                dead += 1;
                max_dead = max_dead.max(Some(v));
            } else {
                min_live = Some(min_live.map_or(v, |m: HandValue| m.min(v)));
            }
        }
        assert_eq!(dead, 2 * 2600); // 2 x C(26,3)
        assert!(max_dead < min_live, "{order}");
    }
}

#[test]
fn lallan_kallan_pair_of_naturals_makes_a_trail() {
    // Kh Kd + black wild -> K-K-K, whatever the wild's rank.
    for text in ["Kh Kd 2c", "Kh Kd Ks", "Kh Kd Ac"] {
        let (category, cards, wild) = lk_ranked(SequenceOrder::A23High, text);
        assert_eq!(category, Category::Trail, "{text}");
        assert!(
            cards.iter().all(|c| c.rank().value() == 13),
            "{text}: {cards:?}"
        );
        assert_eq!(wild, Some(hand(text)[2]));
        assert_eq!(lk(text), classic("Kh Kd Ks"));
    }
    // The wild may take any free king: two red kings leave clubs and spades.
    assert!(lk("Kh Kd 2c") > lk("Qh Qd Ac"));
}

#[test]
fn lallan_kallan_naturals_in_one_run_make_the_highest_such_run() {
    // 2h 3d + black wild -> A-2-3 sequence (the top run), not 2-3-4.
    let (category, cards, _) = lk_ranked(SequenceOrder::A23High, "2h 3d 9s");
    assert_eq!(category, Category::Sequence);
    assert_eq!(ranks(&cards), [14, 3, 2]);
    assert_eq!(lk("2h 3d 9s"), classic("Ac 2h 3d"));
    // Ah 2d -> A-2-3; 7c 8s -> 7-8-9 (not 6-7-8); 4h 6d -> 4-5-6 (filling the gap);
    // Jh Kd -> K-Q-J (the only run holding both); Ah Kd -> A-K-Q (A-2-3 does not hold the K).
    assert_eq!(lk("Ah 2d Ks"), classic("Ah 2d 3s"));
    assert_eq!(lk("7c 8s Kh"), classic("7c 8s 9h"));
    assert_eq!(lk("4h 6d Ks"), classic("4h 5s 6d"));
    assert_eq!(lk("Jh Kd 2s"), classic("Jh Qs Kd"));
    assert_eq!(lk("Ah Kd 2s"), classic("Ah Kd Qs"));
}

#[test]
fn lallan_kallan_same_suit_naturals_in_a_run_make_a_pure_sequence() {
    // 2h 3h + black wild -> A-2-3 of hearts, the best pure sequence.
    let (category, cards, wild) = lk_ranked(SequenceOrder::A23High, "2h 3h Ks");
    assert_eq!(category, Category::PureSequence);
    assert_eq!(cards.to_vec(), rules::card::cards("Ah 2h 3h").unwrap());
    assert_eq!(wild, Some("Ks".parse().unwrap()));
    assert_eq!(lk("2h 3h Ks"), classic("Ah 2h 3h"));
    assert!(lk("2h 3h Ks") > lk("2h 3d Ks"));
    // 9c Ts are both black but of two suits: the run 9-T-J is plain, not pure.
    assert_eq!(lk("9c Ts 4d"), classic("9c Ts Jd"));
}

#[test]
fn lallan_kallan_q_k_make_a_k_q_under_both_orders() {
    for order in ORDERS {
        let (category, cards, _) = lk_ranked(order, "Qh Kd 2s");
        assert_eq!(category, Category::Sequence, "{order}");
        assert_eq!(ranks(&cards), [14, 13, 12], "{order}");
        assert_eq!(lk_in(order, "Qh Kd 2s"), classic_in(order, "Ac Kd Qh"));
    }
    // And the two top runs swap places with the order, as in the classic game.
    use SequenceOrder::*;
    assert!(lk_in(A23High, "2h 3d 9s") > lk_in(A23High, "Qh Kd 2s"));
    assert!(lk_in(AkqHigh, "2h 3d 9s") < lk_in(AkqHigh, "Qh Kd 2s"));
}

#[test]
fn lallan_kallan_same_suit_makes_colour_with_the_best_free_card() {
    // As 9s + red wild -> A-K-9 colour (the ace is held, so the king), never A-A-9.
    let (category, cards, wild) = lk_ranked(SequenceOrder::A23High, "As 9s 4h");
    assert_eq!(category, Category::Colour);
    assert_eq!(cards.to_vec(), rules::card::cards("As Ks 9s").unwrap());
    assert_eq!(wild, Some("4h".parse().unwrap()));
    assert_eq!(lk("As 9s 4h"), classic("As Ks 9s"));
    // 9s 4s + red wild -> A-9-4 colour.
    assert_eq!(lk("9s 4s Kh"), classic("As 9s 4s"));
    assert!(lk("As 9s 4h") > lk("9s 4s Kh"));
}

#[test]
fn lallan_kallan_otherwise_pairs_the_higher_natural_with_the_lower_as_kicker() {
    // Kh 5d + black wild -> K-K-5 (beats 5-5-K).
    let (category, cards, wild) = lk_ranked(SequenceOrder::A23High, "Kh 5d 9c");
    assert_eq!(category, Category::Pair);
    // The wild keeps its own suit when that is allowed: 9c becomes Kc.
    assert_eq!(cards.to_vec(), rules::card::cards("Kh Kc 5d").unwrap());
    assert_eq!(wild, Some("9c".parse().unwrap()));
    assert_eq!(lk("Kh 5d 9c"), classic("Kh Ks 5d"));
    assert!(lk("Kh 5d 9c") > classic("5h 5d Kc"));
}

#[test]
fn lallan_kallan_live_hand_is_never_worse_than_a_pair_and_5_5_2_is_the_weakest() {
    for order in ORDERS {
        let mut weakest = None;
        for h in all_hands().filter(|h| !is_dead(h)) {
            let (category, ..) = ranked(Variant::LallanKallan, order, &h);
            assert!(category >= Category::Pair, "{order}: {h:?} is {category:?}");
            let v = hand_value(Variant::LallanKallan, order, &h);
            weakest = Some(weakest.map_or(v, |w: HandValue| w.min(v)));
        }
        // Naturals 5 and 2 of different suits fit no run and no colour: 5-5-2.
        assert_eq!(weakest, Some(lk_in(order, "5h 2d 9c")));
        assert_eq!(weakest, Some(classic_in(order, "5h 5c 2d")));
    }
}

#[test]
fn lallan_kallan_wild_never_copies_a_natural_in_any_hand() {
    for order in ORDERS {
        for h in all_hands().filter(|h| !is_dead(h)) {
            let (_, resolved, wild) = ranked_with_wild(order, &h);
            let wild = wild.expect("a live hand names its wild");
            let naturals: Vec<Card> = h.iter().copied().filter(|&c| c != wild).collect();
            assert_eq!(naturals.len(), 2, "{h:?}");
            // The wild is the card of the odd colour.
            assert!(
                naturals.iter().all(|n| n.colour() != wild.colour()),
                "{h:?}"
            );
            // The resolved hand holds both naturals and one other, distinct card.
            let mut r = resolved.to_vec();
            for n in &naturals {
                let i = r
                    .iter()
                    .position(|c| c == n)
                    .unwrap_or_else(|| panic!("{h:?}"));
                r.remove(i);
            }
            assert!(!naturals.contains(&r[0]), "{h:?}: wild became {}", r[0]);
            // And the resolved hand is worth exactly the Lallan Kallan value.
            assert_eq!(
                hand_value(Variant::Classic, order, &resolved),
                hand_value(Variant::LallanKallan, order, &h),
                "{h:?}"
            );
        }
    }
}

fn ranked_with_wild(order: SequenceOrder, h: &[Card; 3]) -> (Category, [Card; 3], Option<Card>) {
    match describe(Variant::LallanKallan, order, h) {
        HandDescription::Ranked {
            category,
            cards,
            wild,
        } => (category, cards, wild),
        other => panic!("{h:?}: {other:?}"),
    }
}

#[test]
fn lallan_kallan_equal_hands_tie_whether_the_wild_changed_or_not() {
    // Kh Kd Ks: the wild Ks is already a king (a "natural" K-K-K). Kh Kd 2c: the wild 2c had
    // to become one. Kc Ks Kh: the red king is the wild. All three are K-K-K and tie.
    assert_eq!(lk("Kh Kd Ks"), lk("Kh Kd 2c"));
    assert_eq!(lk("Kh Kd Ks"), lk("Kc Ks Kh"));
    // The same for a pair: Kh 5d Kc (wild already a king) ties Kh 5d 9s.
    assert_eq!(lk("Kh 5d Kc"), lk("Kh 5d 9s"));
    // And for a pure sequence: 7h 8h 9c (9c becomes 9h) ties 7c 8c 9h (9h becomes 9c).
    assert_eq!(lk("7h 8h 9c"), lk("7c 8c 9h"));
    // Suits never break a tie: red naturals with a black wild equal black ones with a red wild.
    assert_eq!(lk("2h 3h Ks"), lk("2c 3c Kh"));
    assert_eq!(lk("As 9s 4h"), lk("Ah 9h 4c"));
}

#[test]
fn lallan_kallan_description_reports_the_dealt_wild_and_the_card_it_became() {
    let text = "9c Kh 5d";
    match describe(Variant::LallanKallan, SequenceOrder::A23High, &hand(text)) {
        HandDescription::Ranked {
            category,
            cards,
            wild,
        } => {
            assert_eq!(category, Category::Pair);
            assert_eq!(cards.to_vec(), rules::card::cards("Kh Kc 5d").unwrap());
            assert_eq!(wild, Some("9c".parse().unwrap()));
        }
        other => panic!("{other:?}"),
    }
    let json = serde_json::to_value(describe(
        Variant::LallanKallan,
        SequenceOrder::A23High,
        &hand(text),
    ))
    .unwrap();
    assert_eq!(
        json,
        serde_json::json!({"kind": "ranked", "category": "pair", "cards": ["Kh", "Kc", "5d"], "wild": "9c"})
    );
    let json = serde_json::to_value(describe(
        Variant::LallanKallan,
        SequenceOrder::A23High,
        &hand("Kh Kd 2h"),
    ))
    .unwrap();
    assert_eq!(json, serde_json::json!({"kind": "dead"}));
}

/// The brute force of the rule's text: the wild becomes any of the 52 cards except a copy of
/// one of the two naturals; the hand is worth the best classic value reached.
fn lallan_brute_force(order: SequenceOrder, h: &[Card; 3]) -> Option<HandValue> {
    if is_dead(h) {
        return None;
    }
    let w = (0..3)
        .find(|&i| h.iter().filter(|c| c.colour() == h[i].colour()).count() == 1)
        .expect("a live hand has one card of the odd colour");
    let naturals: Vec<Card> = (0..3).filter(|&i| i != w).map(|i| h[i]).collect();
    Card::pack()
        .into_iter()
        .filter(|c| !naturals.contains(c))
        .map(|c| hand_value(Variant::Classic, order, &[naturals[0], naturals[1], c]))
        .max()
}

#[test]
fn lallan_kallan_analytic_value_equals_brute_force_for_every_hand() {
    for order in ORDERS {
        let mut live = 0;
        for h in all_hands() {
            let got = hand_value(Variant::LallanKallan, order, &h);
            match lallan_brute_force(order, &h) {
                Some(best) => {
                    live += 1;
                    assert_eq!(got, best, "{order}: {h:?}");
                }
                None => assert_eq!(got.key(), 0, "{order}: {h:?}"),
            }
        }
        assert_eq!(live, 22100 - 5200);
    }
}

#[test]
fn lallan_kallan_value_does_not_depend_on_the_order_of_the_cards() {
    for order in ORDERS {
        for [a, b, c] in all_hands() {
            let v = hand_value(Variant::LallanKallan, order, &[a, b, c]);
            let d = describe(Variant::LallanKallan, order, &[a, b, c]);
            for p in [[a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]] {
                assert_eq!(hand_value(Variant::LallanKallan, order, &p), v, "{p:?}");
                assert_eq!(describe(Variant::LallanKallan, order, &p), d, "{p:?}");
            }
        }
    }
}

#[test]
fn best_returns_every_index_of_an_exact_tie() {
    let values = [
        lk("Kh Kd 2c"),
        lk("Kh 5d 9c"),
        lk("Kc Ks Kh"),
        lk("As Ks Qs"),
    ];
    assert_eq!(rules::eval::best(&values), vec![0, 2]);
    assert_eq!(rules::eval::best(&[]), Vec::<usize>::new());
}
