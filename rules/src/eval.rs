//! Hand value for each variant: a total order with exact ties.
//!
//! `HandValue` is a small integer key: a higher key is a better hand and equal keys are an
//! exact tie. Keys are only comparable between hands of the same variant and sequence order.
//! The per-variant rules live in the submodules; this file only dispatches.

mod classic;
mod closest555;
mod lallan;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::settings::{SequenceOrder, Variant};

pub use classic::Category;

/// The strength of a three-card hand under one variant and sequence order. Higher is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandValue(pub(crate) u32);

impl HandValue {
    /// The raw key (for tables and benchmarks; only comparable within one variant and order).
    pub fn key(self) -> u32 {
        self.0
    }
}

/// What a hand is, in words a person or a bot can check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HandDescription {
    /// Classic ranking (the classic game, and Lallan Kallan once the wild is resolved).
    Ranked {
        category: Category,
        /// The deciding cards, most significant first. In Lallan Kallan the wild stands here
        /// as the card it became.
        cards: [Card; 3],
        /// Lallan Kallan: the dealt card that is wild (the odd colour).
        #[serde(skip_serializing_if = "Option::is_none")]
        wild: Option<Card>,
    },
    /// Closest to 555: the best number the digits make and its distance to 555.
    Closest555 { number: u16, distance: u16 },
    /// Lallan Kallan: all three cards of one colour.
    Dead,
}

/// The value of a hand.
pub fn hand_value(variant: Variant, order: SequenceOrder, cards: &[Card; 3]) -> HandValue {
    match variant {
        Variant::Classic => classic::value(order, cards),
        Variant::Closest555 => closest555::value(cards),
        Variant::LallanKallan => lallan::value(order, cards),
    }
}

/// The description of a hand (slower than `hand_value`; for output, not for comparisons).
pub fn describe(variant: Variant, order: SequenceOrder, cards: &[Card; 3]) -> HandDescription {
    match variant {
        Variant::Classic => classic::describe(order, cards),
        Variant::Closest555 => closest555::describe(cards),
        Variant::LallanKallan => lallan::describe(order, cards),
    }
}

/// Lallan Kallan: whether all three cards have one colour (the hand is dead).
pub fn is_dead(cards: &[Card; 3]) -> bool {
    lallan::is_dead(cards)
}

/// Indices of the best values (several on an exact tie), in index order.
pub fn best(values: &[HandValue]) -> Vec<usize> {
    let Some(top) = values.iter().max() else {
        return Vec::new();
    };
    (0..values.len()).filter(|&i| values[i] == *top).collect()
}
