//! What one seat may know about a hand: its own cards once seen, public facts, and cards
//! revealed to it. Nothing else.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::action::{Decision, LegalAction};
use crate::card::Card;

/// The public state of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Still in the hand (not packed, not dead).
    pub in_hand: bool,
    pub seen: bool,
    /// Lallan Kallan: a one-colour hand.
    pub dead: bool,
    /// Chips this seat has put in the pot this hand.
    pub put_in: u64,
    /// Betting turns this seat has completed.
    pub turns: u32,
    /// Closest to 555: cards this seat has swapped.
    pub swaps: u32,
}

/// One seat's view of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub dealer: usize,
    pub pot: u64,
    pub stake: u64,
    /// The seat's own cards, once it has seen them.
    pub cards: Option<[Card; 3]>,
    pub players: Vec<PlayerView>,
    /// Other seats' current cards that were revealed to this seat (show, sideshow, group reveal).
    pub known: BTreeMap<usize, [Card; 3]>,
    pub to_act: Option<Decision>,
    /// The legal actions, when this seat is the one to decide.
    pub legal: Vec<LegalAction>,
}

impl SeatView {
    /// Every card in this view (for leak checks).
    pub fn cards_visible(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.cards.iter().flatten().copied().collect();
        all.extend(self.known.values().flatten());
        for legal in &self.legal {
            if let LegalAction::Swap { cards, .. } = legal {
                all.extend(cards);
            }
        }
        all
    }
}
