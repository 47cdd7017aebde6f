//! Everything that happens in a hand, and what each seat may see of it.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::eval::HandDescription;

/// Why a seat left the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PackReason {
    /// The seat chose to pack.
    Chose,
    /// It lost a sideshow.
    LostSideshow,
}

/// Why cards were shown to the whole table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevealReason {
    /// A paid show between the last two seats.
    Show,
    /// A payment took the pot to the pot limit.
    PotLimit,
    /// The safety cap on turns was reached.
    TurnCap,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Everyone else packed.
    LastStanding,
    /// Lallan Kallan: the only live hand after inspection.
    LoneSurvivor,
    Show,
    PotLimit,
    TurnCap,
    /// Lallan Kallan: every hand dead on every redeal up to the cap; the pot is shared back.
    RedealCap,
}

/// A hand shown to the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedHand {
    pub seat: usize,
    pub cards: [Card; 3],
    pub value: HandDescription,
}

/// One thing that happened. Events carry full information (the replay keeps them whole);
/// [`Event::for_seat`] blanks what a given seat may not know. Written and read back as JSON
/// (`{"event":"bet","seat":1,...}`): replays hold them, and their readers get these types, not
/// names to match as strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Boots are in; `pot` is their sum.
    HandStarted {
        dealer: usize,
        seats: usize,
        boot: u64,
        pot: u64,
        stake: u64,
    },
    /// Three cards went to `seat` (`redeal` counts Lallan Kallan's all-dead redeals).
    Dealt {
        seat: usize,
        redeal: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<[Card; 3]>,
    },
    /// Lallan Kallan: these seats hold one-colour hands and are out.
    Dead {
        seats: Vec<usize>,
    },
    /// Lallan Kallan: every hand was dead; the pot stays and the same dealer deals again.
    Redeal {
        redeal: u32,
        pot: u64,
    },
    /// Classic: a blind seat looked at its cards.
    Saw {
        seat: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        cards: Option<[Card; 3]>,
    },
    /// Closest to 555: the seat swapped one card (which ones only it knows).
    Swapped {
        seat: usize,
        cost: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        discarded: Option<Card>,
        #[serde(skip_serializing_if = "Option::is_none")]
        drawn: Option<Card>,
    },
    /// Closest to 555: the seat declined its swap.
    Kept {
        seat: usize,
    },
    Bet {
        seat: usize,
        amount: u64,
        blind: bool,
        stake: u64,
        pot: u64,
    },
    Packed {
        seat: usize,
        reason: PackReason,
    },
    ShowAsked {
        seat: usize,
        against: usize,
        cost: u64,
        pot: u64,
    },
    SideshowAsked {
        seat: usize,
        target: usize,
        cost: u64,
        pot: u64,
    },
    SideshowRefused {
        seat: usize,
        target: usize,
    },
    /// The two hands compared in private: only `seat` and `target` see the cards.
    SideshowCompared {
        seat: usize,
        target: usize,
        loser: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        seat_cards: Option<[Card; 3]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        target_cards: Option<[Card; 3]>,
    },
    /// Hands shown to everyone.
    Revealed {
        reason: RevealReason,
        hands: Vec<RevealedHand>,
    },
    /// The hand is over. `payoffs[i]` is seat i's net chips (sum zero).
    HandEnded {
        reason: EndReason,
        winners: Vec<usize>,
        pot: u64,
        payoffs: Vec<i64>,
    },
}

impl Event {
    /// The event's name as written (`hand_started`, `bet`, ...): its `event` field.
    pub fn name(&self) -> &'static str {
        match self {
            Event::HandStarted { .. } => "hand_started",
            Event::Dealt { .. } => "dealt",
            Event::Dead { .. } => "dead",
            Event::Redeal { .. } => "redeal",
            Event::Saw { .. } => "saw",
            Event::Swapped { .. } => "swapped",
            Event::Kept { .. } => "kept",
            Event::Bet { .. } => "bet",
            Event::Packed { .. } => "packed",
            Event::ShowAsked { .. } => "show_asked",
            Event::SideshowAsked { .. } => "sideshow_asked",
            Event::SideshowRefused { .. } => "sideshow_refused",
            Event::SideshowCompared { .. } => "sideshow_compared",
            Event::Revealed { .. } => "revealed",
            Event::HandEnded { .. } => "hand_ended",
        }
    }

    /// Whether every seat sees this event whole (`for_seat` changes nothing for anyone): true
    /// for every kind that never holds private cards. The referee writes such an event once
    /// for the whole table instead of copying it per seat.
    pub fn is_public(&self) -> bool {
        !matches!(
            self,
            Event::Dealt { .. }
                | Event::Saw { .. }
                | Event::Swapped { .. }
                | Event::SideshowCompared { .. }
        )
    }

    /// This event as `viewer` may see it: hidden cards removed.
    ///
    /// `blind_start` is true in the classic game, where a seat does not know its dealt cards
    /// until it sees them.
    pub fn for_seat(&self, viewer: usize, blind_start: bool) -> Event {
        let mut event = self.clone();
        match &mut event {
            Event::Dealt { seat, cards, .. } if *seat != viewer || blind_start => *cards = None,
            Event::Saw { seat, cards } if *seat != viewer => *cards = None,
            Event::Swapped {
                seat,
                discarded,
                drawn,
                ..
            } if *seat != viewer => {
                *discarded = None;
                *drawn = None;
            }
            Event::SideshowCompared {
                seat,
                target,
                seat_cards,
                target_cards,
                ..
            } if viewer != *seat && viewer != *target => {
                *seat_cards = None;
                *target_cards = None;
            }
            _ => {}
        }
        event
    }

    /// Every card this event mentions (for leak checks).
    pub fn cards(&self) -> Vec<Card> {
        match self {
            Event::Dealt { cards, .. } | Event::Saw { cards, .. } => {
                cards.iter().flatten().copied().collect()
            }
            Event::Swapped {
                discarded, drawn, ..
            } => discarded.iter().chain(drawn.iter()).copied().collect(),
            Event::SideshowCompared {
                seat_cards,
                target_cards,
                ..
            } => seat_cards
                .iter()
                .chain(target_cards.iter())
                .flatten()
                .copied()
                .collect(),
            Event::Revealed { hands, .. } => hands.iter().flat_map(|h| h.cards).collect(),
            _ => Vec::new(),
        }
    }
}
