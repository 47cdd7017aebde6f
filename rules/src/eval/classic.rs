//! The classic Teen Patti ranking (rules notes, section 1 "Standard hand ranking").
//!
//! Trail > pure sequence > sequence > colour > pair > high card. Trails by rank (A-A-A top).
//! Runs by the table's [`SequenceOrder`]; there is no wraparound (K-A-2 is no run). Colour and
//! high card compare the highest card, then the second, then the third, ace high. A pair compares
//! its rank, then the kicker. Suits never break ties.
//!
//! The key is `(category + 1) << 12 | r1 << 8 | r2 << 4 | r3`:
//! - trail, colour, high card: `r1 >= r2 >= r3` are the three ranks (2..=14);
//! - pair: `r1` is the pair's rank, `r2` the kicker, `r3 = 0`;
//! - runs: `r1` is the run's strength (4 for 4-3-2 up to 15 for the top run), `r2 = r3 = 0`.
//!
//! Every key is at least `1 << 12`, so key 0 stays free (Lallan Kallan's dead hand).

use serde::{Deserialize, Serialize};

use super::{HandDescription, HandValue};
use crate::card::Card;
use crate::settings::SequenceOrder;

/// The six classic categories, weakest first (so the derived order is the ranking).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    HighCard,
    Pair,
    Colour,
    Sequence,
    PureSequence,
    Trail,
}

impl Category {
    const ALL: [Category; 6] = [
        Category::HighCard,
        Category::Pair,
        Category::Colour,
        Category::Sequence,
        Category::PureSequence,
        Category::Trail,
    ];
}

const ACE: u32 = 14;

/// The key of a hand from its category and deciding ranks (see the module comment).
#[inline(always)]
pub(crate) const fn key(category: Category, r1: u32, r2: u32, r3: u32) -> u32 {
    ((category as u32 + 1) << 12) | (r1 << 8) | (r2 << 4) | r3
}

/// The category a key encodes.
fn category_of(key: u32) -> Category {
    Category::ALL[(key >> 12) as usize - 1]
}

/// The strength of a run given its ranks sorted high to low (ace as 14), or 0 if it is no run.
///
/// Ordinary runs are worth their top rank (4-3-2 is 4, K-Q-J is 13). The two top runs are
/// worth 14 and 15, in the order the table chose.
#[inline(always)]
pub(crate) fn run_strength(order: SequenceOrder, a: u32, b: u32, c: u32) -> u32 {
    if a == b + 1 && b == c + 1 {
        // A-K-Q has a == 14: it is the top run only under akq-high.
        if a == ACE && order == SequenceOrder::AkqHigh {
            15
        } else {
            a
        }
    } else if a == ACE && b == 3 && c == 2 {
        match order {
            SequenceOrder::A23High => 15,
            SequenceOrder::AkqHigh => 14,
        }
    } else {
        0
    }
}

/// The value of a hand. Any three cards are accepted (even repeated ones, which reference
/// evaluators for other wild rules rely on); no allocation, no sorting beyond three swaps.
#[inline]
pub(crate) fn value(order: SequenceOrder, cards: &[Card; 3]) -> HandValue {
    let mut a = u32::from(cards[0].rank().value());
    let mut b = u32::from(cards[1].rank().value());
    let mut c = u32::from(cards[2].rank().value());
    // Sorting network: a >= b >= c afterwards.
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    if b < c {
        std::mem::swap(&mut b, &mut c);
    }
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    let one_suit = cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();

    let key = if a == c {
        key(Category::Trail, a, a, a)
    } else if a == b {
        key(Category::Pair, a, c, 0)
    } else if b == c {
        key(Category::Pair, b, a, 0)
    } else {
        let run = run_strength(order, a, b, c);
        match (run != 0, one_suit) {
            (true, true) => key(Category::PureSequence, run, 0, 0),
            (true, false) => key(Category::Sequence, run, 0, 0),
            (false, true) => key(Category::Colour, a, b, c),
            (false, false) => key(Category::HighCard, a, b, c),
        }
    };
    HandValue(key)
}

/// The description of a hand: its category and its cards, most significant first.
///
/// - Trail, colour, high card: high to low.
/// - Pair: the two paired cards, then the kicker.
/// - Runs: as the run is named, top card first: A-K-Q, K-Q-J, ..., 4-3-2, and A-2-3 (the ace
///   first, as in "A-2-3", though it plays low there).
///
/// Cards of one rank are listed by suit, spades, hearts, diamonds, clubs, so the description
/// does not depend on the order in which the cards were dealt.
pub(crate) fn describe(order: SequenceOrder, cards: &[Card; 3]) -> HandDescription {
    let category = category_of(value(order, cards).0);
    let mut sorted = *cards;
    // Card's order is rank (ace high) then suit; reversed gives high to low.
    sorted.sort_unstable_by(|x, y| y.cmp(x));
    let [a, b, c] = sorted;
    let cards = match category {
        Category::Pair if b.rank() == c.rank() => [b, c, a],
        // A-2-3 sorts as A, 3, 2; name it A-2-3.
        Category::Sequence | Category::PureSequence if a.rank().value() != b.rank().value() + 1 => {
            [a, c, b]
        }
        _ => [a, b, c],
    };
    HandDescription::Ranked {
        category,
        cards,
        wild: None,
    }
}
