//! Closest to 555 (rules notes, section 2).
//!
//! Each card is a digit: A = 1, 2..9 at face value, T/J/Q/K = 0; suits do not matter. The
//! hand's distance is the smallest |n - 555| over the six orders of its three digits (leading
//! zeros allowed; they never change the result, and 0-0-0 reads 000 at distance 555, the worst).
//! Smaller is better, so the key is `1000 - distance` (445..=1000, never 0).
//!
//! When two numbers reach the best distance (digits 5, 4, 6: 546 and 564 are both 9 away), the
//! description names the lower number. Only the distance counts for the value.

use super::{HandDescription, HandValue};
use crate::card::Card;

/// The digit of each ace-high rank value (index 2..=14).
const DIGIT: [u8; 15] = [0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1];

#[inline(always)]
fn digit(card: Card) -> usize {
    usize::from(DIGIT[usize::from(card.rank().value())])
}

/// The best (number, distance) for three digits; the lower number on an equal distance.
const fn best(a: u16, b: u16, c: u16) -> (u16, u16) {
    let orders = [
        [a, b, c],
        [a, c, b],
        [b, a, c],
        [b, c, a],
        [c, a, b],
        [c, b, a],
    ];
    let mut best_number = u16::MAX;
    let mut best_distance = u16::MAX;
    let mut i = 0;
    while i < orders.len() {
        let [x, y, z] = orders[i];
        let number = x * 100 + y * 10 + z;
        let distance = number.abs_diff(555);
        if distance < best_distance || (distance == best_distance && number < best_number) {
            best_number = number;
            best_distance = distance;
        }
        i += 1;
    }
    (best_number, best_distance)
}

/// For digits `d0 d1 d2` (index `100 d0 + 10 d1 + d2`): `number << 16 | distance`.
static TABLE: [u32; 1000] = {
    let mut table = [0u32; 1000];
    let mut i = 0;
    while i < 1000 {
        let (number, distance) = best((i / 100) as u16, (i / 10 % 10) as u16, (i % 10) as u16);
        table[i] = ((number as u32) << 16) | distance as u32;
        i += 1;
    }
    table
};

#[inline(always)]
fn lookup(cards: &[Card; 3]) -> u32 {
    TABLE[digit(cards[0]) * 100 + digit(cards[1]) * 10 + digit(cards[2])]
}

/// The value of a hand: `1000 - distance`.
#[inline]
pub(crate) fn value(cards: &[Card; 3]) -> HandValue {
    HandValue(1000 - (lookup(cards) & 0xffff))
}

/// The best number and its distance to 555.
pub(crate) fn describe(cards: &[Card; 3]) -> HandDescription {
    let entry = lookup(cards);
    HandDescription::Closest555 {
        number: (entry >> 16) as u16,
        distance: (entry & 0xffff) as u16,
    }
}
