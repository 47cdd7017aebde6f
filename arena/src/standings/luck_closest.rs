//! Control variates on the luck of the cards for Closest to 555 with two seats: for each hand
//! and seat, a vector `z` of chance terms that each have mean exactly zero whatever the bots do.
//! [`super::controls`] turns them into a corrected estimate with coefficients fitted on other
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

use rules::{Card, SequenceOrder, Variant, hand_value};

use crate::replay::Record;

use super::controls::HandControls;
use super::luck::{EventFields, LuckError, two_seats_of};

/// Strength classes of a hand for the deal's terms.
pub const BUCKETS: usize = 8;

/// A three-card hand as its digits (A = 1, T J Q K = 0): all Closest to 555 looks at.
fn digit(card: Card) -> usize {
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

/// Exact distributions of the deal's terms: the hands as digit multisets, their values, classes
/// and numbers of card choices, and the joint probabilities of two disjoint hands.
pub struct DealTable {
    /// Value key of each digit multiset (indexed by `d₀ ≤ d₁ ≤ d₂` packed as `100d₀+10d₁+d₂`).
    key: Vec<u32>,
    /// Class of each digit multiset.
    class: Vec<usize>,
    /// Strength classes.
    buckets: usize,
    /// `P(own class, opponent's class, outcome)`, indexed by [`cell_index`].
    cell: Vec<f64>,
}

fn code(d: [usize; 3]) -> usize {
    let mut d = d;
    d.sort_unstable();
    100 * d[0] + 10 * d[1] + d[2]
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

impl DealTable {
    pub fn new(order: SequenceOrder) -> DealTable {
        DealTable::with_buckets(order, BUCKETS)
    }

    /// A table with another number of classes (for measurements).
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
        // Classes: cut the distribution of keys (weighted by card choices) into BUCKETS parts
        // as equal as the ties allow.
        let total: u64 = sets.iter().map(|s| s.2).sum();
        let mut by_key: Vec<(u32, u64)> = sets.iter().map(|s| (key[code(s.0)], s.2)).collect();
        by_key.sort_unstable();
        let mut class_of_key = std::collections::BTreeMap::new();
        let mut below = 0u64;
        for (k, w) in by_key {
            class_of_key
                .entry(k)
                .or_insert(((below * buckets as u64) / total) as usize);
            below += w;
        }
        let mut class = vec![0usize; 1000];
        for (d, _, _) in &sets {
            class[code(*d)] = class_of_key[&key[code(*d)]].min(buckets - 1);
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
            buckets,
            key,
            class,
            cell,
        }
    }

    /// A hand's value key (as `rules::hand_value`'s).
    pub(super) fn key(&self, cards: &[Card; 3]) -> u32 {
        self.key[code([digit(cards[0]), digit(cards[1]), digit(cards[2])])]
    }

    /// A hand's strength class, `0..buckets()` from the weakest.
    pub(super) fn class(&self, cards: &[Card; 3]) -> usize {
        self.class[code([digit(cards[0]), digit(cards[1]), digit(cards[2])])]
    }

    /// How many strength classes there are.
    pub(super) fn buckets(&self) -> usize {
        self.buckets
    }

    /// `P(class i)` of one hand (the marginal of the joint table).
    #[cfg(test)]
    fn marginal(&self, i: usize) -> f64 {
        let row = self.buckets * 3;
        self.cell[i * row..(i + 1) * row].iter().sum()
    }

    /// Cells of one position.
    fn cells(&self) -> usize {
        self.cell.len()
    }

    /// Numbers in one seat's `z` for one hand: the cells of both positions.
    pub fn features(&self) -> usize {
        2 * self.cells()
    }

    /// The cell of a seat holding `own` against `other`.
    fn cell_of(&self, own: &[Card; 3], other: &[Card; 3]) -> usize {
        cell_index(
            self.buckets,
            self.class(own),
            self.class(other),
            self.key(own),
            self.key(other),
        )
    }
}

fn cell_index(buckets: usize, own: usize, other: usize, own_key: u32, other_key: u32) -> usize {
    let outcome = match own_key.cmp(&other_key) {
        std::cmp::Ordering::Greater => 0,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 2,
    };
    (own * buckets + other) * 3 + outcome
}

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
    let mut pending: Option<Pending> = None;
    for record in records {
        let Record::Event { hand, event } = record else {
            continue;
        };
        let e = EventFields { hand: *hand, event };
        let bad = |what: &str| e.bad(what);
        let kind = e.kind();
        if kind == "hand_started" {
            pending = Some(Pending {
                hand: *hand,
                dealer: e.number("dealer").unwrap_or(0) as usize,
                hands: [None, None],
                seen: 0,
                z: [vec![0.0; table.features()], vec![0.0; table.features()]],
                dealt_terms_done: false,
            });
            continue;
        }
        let Some(p) = pending.as_mut().filter(|p| p.hand == *hand) else {
            continue;
        };
        match kind {
            "dealt" => {
                let cards = e.cards()?;
                p.hands[e.seat()?] = Some(cards);
                for c in cards {
                    p.seen |= 1 << c.index();
                }
            }
            "swapped" => {
                let s = e.seat()?;
                let (Some(discarded), Some(drawn)) = (e.card("discarded"), e.card("drawn")) else {
                    return Err(bad("a swap without its cards"));
                };
                deal_terms(p, table, &bad)?;
                swap_terms(p, table, s, discarded, drawn, &bad)?;
            }
            "hand_ended" => {
                deal_terms(p, table, &bad)?;
                out.push(HandControls {
                    hand: p.hand,
                    payoffs: e.payoffs()?,
                    z: std::mem::take(&mut p.z),
                    decisions: 0,
                });
                pending = None;
            }
            _ => {}
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
    let first = (p.dealer + 1) % 2;
    for (s, (own, other)) in [(h0, h1), (h1, h0)].into_iter().enumerate() {
        // The block of terms of this seat's position this hand.
        let base = if s == first { 0 } else { table.cells() };
        let z = &mut p.z[s];
        for (i, &pr) in table.cell.iter().enumerate() {
            z[base + i] -= pr;
        }
        z[base + table.cell_of(&own, &other)] += 1.0;
    }
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
mod tests {
    use super::*;

    #[test]
    fn the_deal_table_is_a_distribution() {
        let t = DealTable::new(SequenceOrder::A23High);
        let total: f64 = t.cell.iter().sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // Symmetry: P(i, j, win) = P(j, i, lose) and P(i, j, tie) = P(j, i, tie).
        for i in 0..BUCKETS {
            for j in 0..BUCKETS {
                for (o, mirror) in [(0, 2), (1, 1), (2, 0)] {
                    let a = t.cell[(i * BUCKETS + j) * 3 + o];
                    let b = t.cell[(j * BUCKETS + i) * 3 + mirror];
                    assert!((a - b).abs() < 1e-12, "{i} {j} {o}: {a} {b}");
                }
            }
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
}

#[cfg(test)]
mod worked {
    use super::*;
    use crate::standings::luck::tests::{event_record, header_record};
    use rules::{EndReason, Event};

    fn h(text: &str) -> [Card; 3] {
        let c: Vec<Card> = text.split(' ').map(|c| c.parse().unwrap()).collect();
        [c[0], c[1], c[2]]
    }

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
    use super::*;
    use crate::standings::luck::tests::play_with;

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
        type Weight = Box<dyn Fn(usize) -> f64>;
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
        for seat in 0..2 {
            for (name, w) in &mixtures {
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
        // Each event moves one cell in and takes a distribution over cells out: every seat's
        // terms of a hand sum to zero.
        for h in &hands {
            for z in &h.z {
                assert!(z.iter().sum::<f64>().abs() < 1e-9, "{z:?}");
            }
        }
    }

    #[test]
    fn the_cells_match_the_frequencies_of_real_deals() {
        // 100,000 deals of the engine's shuffle: every cell's frequency within 5 standard
        // errors of the table's exact probability.
        let t = DealTable::new(SequenceOrder::A23High);
        let mut counts = vec![0u64; t.cells()];
        let n = 100_000u64;
        for i in 0..n {
            let deck = rules::Deck::shuffled(42, i, 0);
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
}
