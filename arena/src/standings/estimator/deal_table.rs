//! The exact distribution of a two-seat deal, by *cells*: a seat's hand's strength class, the
//! opponent's class, and whether the seat's hand beats, ties or loses to the other. The chance
//! terms of Closest to 555 ([`super::chance_terms::closest`]) and Lallan Kallan ([`super::chance_terms::lallan`])
//! are "the cell dealt minus every cell's probability", so these probabilities must be exact:
//! they are counted over every pair of disjoint hands, never sampled.
//!
//! * **Closest to 555** looks only at the digits of the cards, so a hand is a multiset of digits
//!   (220 of them) counted with its number of card choices.
//! * **Lallan Kallan** looks at ranks, suits and colours, so a hand is one of the C(52,3) =
//!   22,100 sets of cards. Its dead hands (one colour) are their own class, class 0, below every
//!   live hand; the live hands are cut into the other classes.
//! * **The classic game**: the same 22,100 sets of cards, every one in the classes. Its chance
//!   terms are the lazy deal's ([`super::chance_terms::classic`]); the table serves its
//!   decision terms' strength classes and showdown shares ([`super::decision_terms`]).
//!
//! The classes are parts of (nearly) equal probability, cut on the hand values; ties of values
//! never straddle two classes, so the parts are only as equal as the ties allow.

use std::cmp::Ordering;

use rules::{Card, SequenceOrder, Variant, hand_value};

/// Strength classes of a hand for the deal's terms.
pub const BUCKETS: usize = 8;

/// How a hand is looked up in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Index {
    /// Closest to 555: the sorted digits `d₀ ≤ d₁ ≤ d₂` packed as `100d₀ + 10d₁ + d₂`.
    Digits,
    /// Lallan Kallan: the sorted card indices `a < b < c` in the combinatorial number system,
    /// `C(a,1) + C(b,2) + C(c,3)`.
    Cards,
}

/// Exact distributions of the deal's terms: each hand's value key and class, and the joint
/// probabilities of (own class, opponent's class, outcome) for two disjoint hands.
pub struct DealTable {
    index: Index,
    /// Value key of each hand (as `rules::hand_value`'s), by [`Index`].
    key: Vec<u32>,
    /// Strength class of each hand, by [`Index`].
    class: Vec<usize>,
    /// Strength classes.
    buckets: usize,
    /// `P(own class, opponent's class, outcome)`, indexed by [`cell_index`].
    pub(super) cell: Vec<f64>,
}

/// A three-card hand as its digits (A = 1, T J Q K = 0): all Closest to 555 looks at.
pub(super) fn digit(card: Card) -> usize {
    match card.rank().value() {
        14 => 1,
        v @ 2..=9 => usize::from(v),
        _ => 0,
    }
}

/// Cards of each digit in the pack.
const CARDS_OF_DIGIT: [u64; 10] = [16, 4, 4, 4, 4, 4, 4, 4, 4, 4];

fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn code(d: [usize; 3]) -> usize {
    let mut d = d;
    d.sort_unstable();
    100 * d[0] + 10 * d[1] + d[2]
}

/// Index of a set of three distinct card indices (any order) among the C(52,3) sets.
fn combination(cards: [usize; 3]) -> usize {
    let mut c = cards;
    c.sort_unstable();
    let [a, b, c] = c.map(|x| x as u64);
    (a + choose(b, 2) + choose(c, 3)) as usize
}

/// Cards of each rank value standing for a digit, for evaluating a multiset.
fn card_of_digit(d: usize, suit: usize) -> Card {
    let rank = match d {
        0 => 10,
        1 => 14,
        d => d,
    };
    let pack = Card::pack();
    *pack
        .iter()
        .filter(|c| usize::from(c.rank().value()) == rank)
        .nth(suit)
        .expect("four suits")
}

/// Class of each key: cut the keys' distribution (weighted) into `buckets` parts as equal as
/// the ties allow, numbered from `first`.
fn classes_of_keys(
    weighted: impl Iterator<Item = (u32, u64)>,
    buckets: usize,
    first: usize,
) -> std::collections::BTreeMap<u32, usize> {
    let mut by_key: Vec<(u32, u64)> = weighted.collect();
    by_key.sort_unstable();
    let total: u64 = by_key.iter().map(|(_, w)| w).sum();
    let mut class_of_key = std::collections::BTreeMap::new();
    let mut below = 0u64;
    for (k, w) in by_key {
        class_of_key
            .entry(k)
            .or_insert(first + (((below * buckets as u64) / total) as usize).min(buckets - 1));
        below += w;
    }
    class_of_key
}

/// The outcome part of a cell: 0 if the own hand wins, 1 on a tie, 2 if it loses.
fn outcome(own_key: u32, other_key: u32) -> usize {
    match own_key.cmp(&other_key) {
        Ordering::Greater => 0,
        Ordering::Equal => 1,
        Ordering::Less => 2,
    }
}

fn cell_index(buckets: usize, own: usize, other: usize, own_key: u32, other_key: u32) -> usize {
    (own * buckets + other) * 3 + outcome(own_key, other_key)
}

/// Every set of three cards.
const CARD_SETS: usize = 22_100;

/// The 22,100 hands of a game that looks at whole cards (Lallan Kallan, classic) with what
/// counting their opponents needs.
struct CardCounter {
    buckets: usize,
    /// Card indices of each hand, by [`combination`].
    sets: Vec<[usize; 3]>,
    key: Vec<u32>,
    class: Vec<usize>,
    /// Sorted keys of each class's hands.
    all: Vec<Vec<u32>>,
    /// Sorted keys of each class's hands that hold a card, by card.
    with_card: Vec<Vec<Vec<u32>>>,
}

impl CardCounter {
    /// Lallan Kallan's dead hands are class 0, its live ones classes `1..buckets`; the classic
    /// game's hands are all in classes `0..buckets`.
    fn new(variant: Variant, order: SequenceOrder, buckets: usize) -> CardCounter {
        let lallan = variant == Variant::LallanKallan;
        assert!(
            buckets > usize::from(lallan),
            "a class of live hands at least (and Lallan Kallan's dead one)"
        );
        let mut sets = vec![[0usize; 3]; CARD_SETS];
        let mut key = vec![0u32; CARD_SETS];
        for c in 0..52 {
            for b in 0..c {
                for a in 0..b {
                    let i = combination([a, b, c]);
                    sets[i] = [a, b, c];
                    let cards = [a, b, c].map(Card::from_index);
                    key[i] = hand_value(variant, order, &cards).key();
                }
            }
        }
        let dead =
            |cards: &[usize; 3]| lallan && rules::eval::is_dead(&cards.map(Card::from_index));
        let live_classes = classes_of_keys(
            (0..CARD_SETS)
                .filter(|&i| !dead(&sets[i]))
                .map(|i| (key[i], 1)),
            buckets - usize::from(lallan),
            usize::from(lallan),
        );
        let class: Vec<usize> = (0..CARD_SETS)
            .map(|i| {
                if dead(&sets[i]) {
                    0
                } else {
                    live_classes[&key[i]]
                }
            })
            .collect();
        let mut all: Vec<Vec<u32>> = vec![Vec::new(); buckets];
        let mut with_card: Vec<Vec<Vec<u32>>> = vec![vec![Vec::new(); buckets]; 52];
        for i in 0..CARD_SETS {
            all[class[i]].push(key[i]);
            for card in sets[i] {
                with_card[card][class[i]].push(key[i]);
            }
        }
        for keys in all.iter_mut().chain(with_card.iter_mut().flatten()) {
            keys.sort_unstable();
        }
        CardCounter {
            buckets,
            sets,
            key,
            class,
            all,
            with_card,
        }
    }

    /// How many of the C(49,3) hands disjoint from hand `i` fall in each (class, outcome for
    /// hand `i`), indexed `class * 3 + outcome`. By inclusion-exclusion: every hand, minus those
    /// holding one of `i`'s cards (sorted keys per class, overall and per card, counted by
    /// binary search), plus those holding two of them (50 per pair, listed), minus `i` itself.
    fn opponents(&self, i: usize) -> Vec<i64> {
        let [a, b, c] = self.sets[i];
        let (own, own_key) = (self.class[i], self.key[i]);
        // Hands of `keys` that hand `i` beats, ties and loses to.
        let split = |keys: &[u32]| -> [i64; 3] {
            let below = keys.partition_point(|&k| k < own_key);
            let up_to = keys.partition_point(|&k| k <= own_key);
            [
                below as i64,
                (up_to - below) as i64,
                (keys.len() - up_to) as i64,
            ]
        };
        let mut n = vec![0i64; self.buckets * 3];
        for other in 0..self.buckets {
            let mut m = split(&self.all[other]);
            for card in [a, b, c] {
                let taken = split(&self.with_card[card][other]);
                for o in 0..3 {
                    m[o] -= taken[o];
                }
            }
            n[other * 3..other * 3 + 3].copy_from_slice(&m);
        }
        // The hands holding two of `i`'s cards were taken away twice: add them back once.
        for (x, y) in [(a, b), (a, c), (b, c)] {
            for z in (0..52).filter(|&z| z != x && z != y) {
                let j = combination([x, y, z]);
                n[self.class[j] * 3 + outcome(own_key, self.key[j])] += 1;
            }
        }
        // Hand `i` itself: once in every hand, taken away three times, added back three
        // times; it is no opponent.
        n[own * 3 + outcome(own_key, own_key)] -= 1;
        n
    }
}

impl DealTable {
    /// Closest to 555's table with [`BUCKETS`] classes.
    #[cfg(test)]
    pub fn new(order: SequenceOrder) -> DealTable {
        DealTable::with_buckets(order, BUCKETS)
    }

    /// The table of a game.
    pub fn for_variant(variant: Variant, order: SequenceOrder, buckets: usize) -> DealTable {
        match variant {
            Variant::LallanKallan | Variant::Classic => {
                DealTable::of_cards(variant, order, buckets)
            }
            Variant::Closest555 => DealTable::with_buckets(order, buckets),
        }
    }

    /// Closest to 555's table with `buckets` classes.
    pub fn with_buckets(order: SequenceOrder, buckets: usize) -> DealTable {
        // Every multiset d0 <= d1 <= d2 with its digit counts and number of card choices.
        let mut sets: Vec<([usize; 3], [u64; 10], u64)> = Vec::new();
        for a in 0..10 {
            for b in a..10 {
                for c in b..10 {
                    let mut counts = [0u64; 10];
                    for d in [a, b, c] {
                        counts[d] += 1;
                    }
                    let ways = (0..10)
                        .map(|d| choose(CARDS_OF_DIGIT[d], counts[d]))
                        .product();
                    sets.push(([a, b, c], counts, ways));
                }
            }
        }
        let mut key = vec![0u32; 1000];
        for (d, _, _) in &sets {
            let cards = [
                card_of_digit(d[0], 0),
                card_of_digit(d[1], 1),
                card_of_digit(d[2], 2),
            ];
            key[code(*d)] = hand_value(Variant::Closest555, order, &cards).key();
        }
        let class_of_key = classes_of_keys(sets.iter().map(|s| (key[code(s.0)], s.2)), buckets, 0);
        let mut class = vec![0usize; 1000];
        for (d, _, _) in &sets {
            class[code(*d)] = class_of_key[&key[code(*d)]];
        }
        // Joint probabilities of (own, opponent) for two disjoint hands.
        let mut cell = vec![0f64; buckets * buckets * 3];
        let mut pairs = 0f64;
        for (d1, c1, w1) in &sets {
            for (d2, c2, _) in &sets {
                let w2: u64 = (0..10)
                    .map(|d| choose(CARDS_OF_DIGIT[d] - c1[d], c2[d]))
                    .product();
                if w2 == 0 {
                    continue;
                }
                let w = (*w1 * w2) as f64;
                let (k1, k2) = (key[code(*d1)], key[code(*d2)]);
                cell[cell_index(buckets, class[code(*d1)], class[code(*d2)], k1, k2)] += w;
                pairs += w;
            }
        }
        for p in &mut cell {
            *p /= pairs;
        }
        DealTable {
            index: Index::Digits,
            buckets,
            key,
            class,
            cell,
        }
    }

    /// Lallan Kallan's table: class 0 the dead hands, classes `1..buckets` the live ones.
    #[cfg(test)]
    pub fn lallan_kallan(order: SequenceOrder, buckets: usize) -> DealTable {
        DealTable::of_cards(Variant::LallanKallan, order, buckets)
    }

    /// The table of a game that looks at whole cards ([`CardCounter::new`]).
    fn of_cards(variant: Variant, order: SequenceOrder, buckets: usize) -> DealTable {
        let counter = CardCounter::new(variant, order, buckets);
        let mut count = vec![0i64; buckets * buckets * 3];
        for i in 0..CARD_SETS {
            let row = counter.class[i] * buckets * 3;
            for (n, m) in count[row..row + buckets * 3]
                .iter_mut()
                .zip(counter.opponents(i))
            {
                *n += m;
            }
        }
        let pairs = CARD_SETS as i64 * 18_424;
        debug_assert_eq!(count.iter().sum::<i64>(), pairs);
        let cell = count.iter().map(|&n| n as f64 / pairs as f64).collect();
        DealTable {
            index: Index::Cards,
            buckets,
            key: counter.key,
            class: counter.class,
            cell,
        }
    }

    fn slot(&self, cards: &[Card; 3]) -> usize {
        match self.index {
            Index::Digits => code(cards.map(digit)),
            Index::Cards => combination(cards.map(Card::index)),
        }
    }

    /// A hand's value key (as `rules::hand_value`'s).
    pub(super) fn key(&self, cards: &[Card; 3]) -> u32 {
        self.key[self.slot(cards)]
    }

    /// A hand's strength class, `0..buckets()` from the weakest.
    pub(super) fn class(&self, cards: &[Card; 3]) -> usize {
        self.class[self.slot(cards)]
    }

    /// How many strength classes there are.
    pub(super) fn buckets(&self) -> usize {
        self.buckets
    }

    /// `P(class i)` of one hand (the marginal of the joint table).
    #[cfg(test)]
    pub(super) fn marginal(&self, i: usize) -> f64 {
        let row = self.buckets * 3;
        self.cell[i * row..(i + 1) * row].iter().sum()
    }

    /// Cells of one position.
    pub(super) fn cells(&self) -> usize {
        self.cell.len()
    }

    /// Numbers in one seat's `z` for one hand: the cells of both positions.
    pub fn features(&self) -> usize {
        2 * self.cells()
    }

    /// The cell of a seat holding `own` against `other`.
    pub(super) fn cell_of(&self, own: &[Card; 3], other: &[Card; 3]) -> usize {
        cell_index(
            self.buckets,
            self.class(own),
            self.class(other),
            self.key(own),
            self.key(other),
        )
    }

    /// Adds a deal's terms to both seats' `z`: each seat's cell in its position's block
    /// (first to act: the first half) minus every cell's probability.
    pub(super) fn add_deal_terms(
        &self,
        hands: [[Card; 3]; 2],
        first: usize,
        z: &mut [Vec<f64>; 2],
    ) {
        for (s, (own, other)) in [(hands[0], hands[1]), (hands[1], hands[0])]
            .into_iter()
            .enumerate()
        {
            let base = if s == first { 0 } else { self.cells() };
            for (i, &pr) in self.cell.iter().enumerate() {
                z[s][base + i] -= pr;
            }
            z[s][base + self.cell_of(&own, &other)] += 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::estimator::test_play::h;

    fn assert_a_symmetric_distribution(t: &DealTable) {
        let total: f64 = t.cell.iter().sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let b = t.buckets();
        // Symmetry: P(i, j, win) = P(j, i, lose) and P(i, j, tie) = P(j, i, tie).
        for i in 0..b {
            for j in 0..b {
                for (o, mirror) in [(0, 2), (1, 1), (2, 0)] {
                    let x = t.cell[(i * b + j) * 3 + o];
                    let y = t.cell[(j * b + i) * 3 + mirror];
                    assert!((x - y).abs() < 1e-12, "{i} {j} {o}: {x} {y}");
                }
            }
        }
    }

    /// 100,000 first deals of the engine's shuffle: every cell's frequency within 5 standard
    /// errors of the table's exact probability.
    fn assert_the_cells_match_real_deals(t: &DealTable, seed: u64) {
        let mut counts = vec![0u64; t.cells()];
        let n = 100_000u64;
        for i in 0..n {
            let deck = rules::Deck::shuffled(seed, i, 0);
            let c = deck.cards();
            let (a, b) = ([c[0], c[1], c[2]], [c[3], c[4], c[5]]);
            counts[t.cell_of(&a, &b)] += 1;
        }
        for (i, &k) in counts.iter().enumerate() {
            let p = t.cell[i];
            let se = (p * (1.0 - p) / n as f64).sqrt();
            let f = k as f64 / n as f64;
            assert!(
                (f - p).abs() <= 5.0 * se + 1e-12,
                "cell {i}: {f} vs {p} (se {se})"
            );
        }
    }

    #[test]
    fn the_closest_555_table_is_a_distribution() {
        let t = DealTable::new(SequenceOrder::A23High);
        assert_a_symmetric_distribution(&t);
        for i in 0..BUCKETS {
            // The classes are roughly equal parts (ties of values make them uneven).
            let m = t.marginal(i);
            assert!(m > 0.05 && m < 0.35, "class {i}: {m}");
        }
    }

    #[test]
    fn digits_follow_the_rules() {
        let p = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(digit(p("As")), 1);
        assert_eq!(digit(p("Kd")), 0);
        assert_eq!(digit(p("Th")), 0);
        assert_eq!(digit(p("5c")), 5);
        let t = DealTable::new(SequenceOrder::A23High);
        // 554 beats 557, 554 ties 556 (RULES.md).
        let h = |a: &str, b: &str, c: &str| [p(a), p(b), p(c)];
        assert!(t.key(&h("5s", "5h", "4d")) > t.key(&h("5c", "5d", "7s")));
        assert_eq!(t.key(&h("5s", "5h", "4d")), t.key(&h("5c", "5d", "6s")));
    }

    #[test]
    fn the_closest_555_cells_match_the_frequencies_of_real_deals() {
        assert_the_cells_match_real_deals(&DealTable::new(SequenceOrder::A23High), 42);
    }

    #[test]
    fn the_lallan_kallan_table_is_a_distribution_with_a_dead_class() {
        for order in [SequenceOrder::A23High, SequenceOrder::AkqHigh] {
            let t = DealTable::lallan_kallan(order, BUCKETS);
            assert_a_symmetric_distribution(&t);
            // Dead: two colours, C(26,3) hands each, of C(52,3).
            let dead = 2.0 * 2600.0 / 22100.0;
            assert!((t.marginal(0) - dead).abs() < 1e-12, "{}", t.marginal(0));
            let live = (1.0 - dead) / (BUCKETS - 1) as f64;
            for i in 1..BUCKETS {
                let m = t.marginal(i);
                assert!(m > 0.5 * live && m < 1.6 * live, "class {i}: {m}");
            }
            // Two dead hands tie (a redeal); a dead hand loses to every live one.
            let b = BUCKETS;
            assert!(t.cell[1] > 0.0 && t.cell[0] == 0.0 && t.cell[2] == 0.0);
            for j in 1..b {
                let row = j * 3;
                assert_eq!(t.cell[row], 0.0);
                assert_eq!(t.cell[row + 1], 0.0);
                assert!(t.cell[row + 2] > 0.0);
            }
        }
    }

    #[test]
    fn lallan_kallan_hands_are_looked_up_by_their_cards() {
        let t = DealTable::lallan_kallan(SequenceOrder::A23High, BUCKETS);
        for hand in ["Kh Kd 5c", "2h 3d 9s", "As 9s 4h", "Ah Kh Qd", "Kh 5d 2s"] {
            let cards = h(hand);
            let want = hand_value(Variant::LallanKallan, SequenceOrder::A23High, &cards).key();
            assert_eq!(t.key(&cards), want, "{hand}");
            // The order of the cards does not matter.
            assert_eq!(t.key(&[cards[2], cards[0], cards[1]]), want, "{hand}");
        }
        assert_eq!(t.class(&h("Ah Kh Qd")), 0, "one colour: dead");
        assert_eq!(
            t.class(&h("Kh Kd 5c")),
            BUCKETS - 1,
            "a trail of kings is strong"
        );
        assert!(t.class(&h("3h 2d 5c")) < t.class(&h("Kh Kd 5c")));
        // RULES.md: K-K-K beats K-Q-J.
        assert_eq!(t.cell_of(&h("Kh Kd 5c"), &h("Qs Jc 2h")) % 3, 0);
    }

    #[test]
    fn the_lallan_kallan_cells_match_the_frequencies_of_real_deals() {
        assert_the_cells_match_real_deals(
            &DealTable::lallan_kallan(SequenceOrder::A23High, BUCKETS),
            7,
        );
    }

    #[test]
    fn lallan_kallan_opponents_are_counted_exactly() {
        // The inclusion-exclusion against plain counting over every disjoint hand, for a
        // spread of seat hands (dead, live, tied keys, shared ranks).
        let counter = CardCounter::new(Variant::LallanKallan, SequenceOrder::A23High, BUCKETS);
        for i in (0..CARD_SETS).step_by(997).chain([0, CARD_SETS - 1]) {
            let used: u64 = counter.sets[i].iter().map(|&c| 1u64 << c).sum();
            let mut want = vec![0i64; BUCKETS * 3];
            for j in 0..CARD_SETS {
                if counter.sets[j].iter().any(|&c| used & (1 << c) != 0) {
                    continue;
                }
                want[counter.class[j] * 3 + outcome(counter.key[i], counter.key[j])] += 1;
            }
            assert_eq!(want.iter().sum::<i64>(), 18_424);
            assert_eq!(counter.opponents(i), want, "hand {:?}", counter.sets[i]);
        }
    }

    #[test]
    fn the_classic_table_cuts_every_hand_into_equal_classes() {
        for order in [SequenceOrder::A23High, SequenceOrder::AkqHigh] {
            let t = DealTable::for_variant(Variant::Classic, order, BUCKETS);
            assert_a_symmetric_distribution(&t);
            // No dead class: eight parts of about an eighth (ties of values keep them apart
            // from exactly 1/8; the high cards' keys are fine-grained, the trails' coarse).
            for i in 0..BUCKETS {
                let m = t.marginal(i);
                assert!(m > 0.09 && m < 0.16, "{order:?} class {i}: {m}");
            }
            for hand in ["Kh Kd 5c", "2h 3d 9s", "Ah Kh Qh", "As Ad Ac", "5h 3d 2c"] {
                let cards = h(hand);
                let want = hand_value(Variant::Classic, order, &cards).key();
                assert_eq!(t.key(&cards), want, "{hand}");
            }
            // RULES.md: a trail is the best hand, 2-3-5 of mixed suits the worst; a
            // colour (one suit) is strong, not dead as in Lallan Kallan.
            assert_eq!(t.class(&h("As Ad Ac")), BUCKETS - 1);
            assert_eq!(t.class(&h("5h 3d 2c")), 0);
            assert_eq!(t.class(&h("Ah Kh 9h")), BUCKETS - 1);
            assert!(t.key(&h("As Ad Ac")) > t.key(&h("Kh Qh Jh")));
        }
    }

    #[test]
    fn the_classic_cells_match_the_frequencies_of_real_deals() {
        let t = DealTable::for_variant(Variant::Classic, SequenceOrder::A23High, BUCKETS);
        assert_the_cells_match_real_deals(&t, 11);
    }
}
