//! Lallan Kallan (rules notes, section 3).
//!
//! Red is hearts and diamonds, black is clubs and spades. Three cards of one colour: the hand
//! is dead (key 0, below every live hand). Otherwise exactly one card has the odd colour and is
//! wild: it stands for any card of any rank and suit except a copy of one of the two natural
//! cards, and the hand is worth the best classic hand that can be made.
//!
//! Resolved analytically, with naturals `hi >= lo` (ranks, ace as 14):
//! 1. `hi == lo`: trail of that rank.
//! 2. Both inside one three-rank window: the highest such run. `{hi, lo}` within {A, 2, 3}
//!    gives A-2-3; otherwise, if `hi - lo <= 2`, the window topped by `min(lo + 2, A)`. Pure if the
//!    naturals share a suit. This choice is the same in both sequence orders: A-2-3 and A-K-Q
//!    share only the ace, so no pair of naturals fits both, and each beats every other run.
//! 3. Same suit: colour, with the best free card of that suit: the ace, or the king if the
//!    ace is a natural (then the king is not, or case 2 would apply). No run can come out of it,
//!    since the naturals fit no window.
//! 4. Otherwise: a pair of the higher natural, the lower as kicker.
//!
//! A trail, a run or a colour is the best category the naturals allow, and within each case the
//! pick is the highest, so this is the maximum over every legal replacement (the exhaustive test
//! `lallan_kallan_analytic_value_equals_brute_force_for_every_hand` checks it).
//!
//! The card the wild becomes keeps the wild's own suit (which is never a natural's suit, as
//! the wild has the other colour), except in a pure sequence or a colour, which need the
//! naturals' suit. Either way it is never a copy of a natural.

use super::{Category, HandDescription, HandValue, classic};
use crate::card::{Card, Rank};
use crate::settings::SequenceOrder;

/// Whether all three cards have one colour (the hand is dead).
#[inline]
pub(crate) fn is_dead(cards: &[Card; 3]) -> bool {
    let colour = cards[0].colour();
    cards[1].colour() == colour && cards[2].colour() == colour
}

/// The position of the wild card (the one of the odd colour), or `None` for a dead hand.
#[inline(always)]
fn wild_index(cards: &[Card; 3]) -> Option<usize> {
    let (c0, c1, c2) = (cards[0].colour(), cards[1].colour(), cards[2].colour());
    if c0 == c1 {
        if c1 == c2 { None } else { Some(2) }
    } else if c0 == c2 {
        Some(1)
    } else {
        Some(0)
    }
}

/// The live hand with its wild replaced by the card it becomes, and the wild's position.
#[inline(always)]
fn resolve(cards: &[Card; 3]) -> Option<([Card; 3], usize)> {
    let w = wild_index(cards)?;
    let (x, y) = match w {
        0 => (cards[1], cards[2]),
        1 => (cards[0], cards[2]),
        _ => (cards[0], cards[1]),
    };
    let (hi, lo) = if x.rank() >= y.rank() {
        (x.rank().value(), y.rank().value())
    } else {
        (y.rank().value(), x.rank().value())
    };
    let one_suit = x.suit() == y.suit();
    let wild_suit = cards[w].suit();
    const A: u8 = 14;

    let (rank, suit) = if hi == lo {
        (hi, wild_suit)
    } else if let Some(missing) = run_completion(hi, lo) {
        (missing, if one_suit { x.suit() } else { wild_suit })
    } else if one_suit {
        (if hi == A { 13 } else { A }, x.suit())
    } else {
        (hi, wild_suit)
    };
    let rank = Rank::from_value(rank).expect("resolved ranks are 2..=14");
    let mut resolved = *cards;
    resolved[w] = Card::new(rank, suit);
    Some((resolved, w))
}

/// The rank that completes the highest run holding both naturals (`hi > lo`), if any.
#[inline(always)]
fn run_completion(hi: u8, lo: u8) -> Option<u8> {
    const A: u8 = 14;
    if matches!((hi, lo), (A, 3) | (A, 2) | (3, 2)) {
        // A-2-3 (ranks 14 + 2 + 3 = 19): the top run, or second only to A-K-Q, which cannot
        // hold both of these naturals.
        Some(19 - hi - lo)
    } else if hi - lo <= 2 {
        let top = (lo + 2).min(A);
        // The window is top-2, top-1, top.
        Some(3 * top - 3 - hi - lo)
    } else {
        None
    }
}

/// The value: 0 for a dead hand, else the classic value of the best hand the wild can make.
///
/// The same case analysis as [`resolve`], computing the classic key straight from the ranks
/// (the exhaustive tests check both against a brute force).
#[inline]
pub(crate) fn value(order: SequenceOrder, cards: &[Card; 3]) -> HandValue {
    let Some(w) = wild_index(cards) else {
        return HandValue(0);
    };
    let (x, y) = match w {
        0 => (cards[1], cards[2]),
        1 => (cards[0], cards[2]),
        _ => (cards[0], cards[1]),
    };
    let (xr, yr) = (u32::from(x.rank().value()), u32::from(y.rank().value()));
    let (hi, lo) = if xr >= yr { (xr, yr) } else { (yr, xr) };
    let one_suit = x.suit() == y.suit();
    const A: u32 = 14;

    let key = if hi == lo {
        classic::key(Category::Trail, hi, hi, hi)
    } else if let Some(missing) = run_completion(hi as u8, lo as u8) {
        let m = u32::from(missing);
        // Sort the three run ranks high to low for the classic run strength.
        let (a, b, c) = if m > hi {
            (m, hi, lo)
        } else if m > lo {
            (hi, m, lo)
        } else {
            (hi, lo, m)
        };
        let category = if one_suit {
            Category::PureSequence
        } else {
            Category::Sequence
        };
        classic::key(category, classic::run_strength(order, a, b, c), 0, 0)
    } else if one_suit {
        if hi == A {
            classic::key(Category::Colour, A, 13, lo)
        } else {
            classic::key(Category::Colour, A, hi, lo)
        }
    } else {
        classic::key(Category::Pair, hi, lo, 0)
    };
    HandValue(key)
}

/// `Dead`, or the classic description of the resolved hand with `wild` set to the dealt wild.
pub(crate) fn describe(order: SequenceOrder, cards: &[Card; 3]) -> HandDescription {
    let Some((resolved, w)) = resolve(cards) else {
        return HandDescription::Dead;
    };
    match classic::describe(order, &resolved) {
        HandDescription::Ranked {
            category, cards: c, ..
        } => HandDescription::Ranked {
            category,
            cards: c,
            wild: Some(cards[w]),
        },
        other => other,
    }
}
