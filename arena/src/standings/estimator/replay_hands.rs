//! What every term reads of a replay: its two seats' settings, its finished hands (each
//! `hand_started` event with the events of the hand up to its `hand_ended`), and the fields
//! of an event, each missing one a [`LuckError::Malformed`] naming the hand.

use rules::{Card, Event, Settings, Variant};

use super::LuckError;
use crate::replay::Record;

/// The settings of a replay of `variant` with two seats, the tables the corrections support.
pub fn two_seats_of(records: &[Record], variant: Variant) -> Result<Settings, LuckError> {
    let Some(Record::Header(header)) = records.first() else {
        return Err(LuckError::NoHeader);
    };
    let settings = header.settings;
    if settings.variant != variant || header.bots.len() != 2 {
        return Err(LuckError::Unsupported(format!(
            "{} with {} seats",
            settings.variant,
            header.bots.len()
        )));
    }
    Ok(settings)
}

/// A replay's event with its hand, and what the luck terms read of it, each with a
/// [`LuckError::Malformed`] naming the hand when it is missing.
pub struct EventFields<'a> {
    pub hand: u64,
    pub event: &'a Event,
}

impl EventFields<'_> {
    pub fn bad(&self, what: &str) -> LuckError {
        LuckError::Malformed(self.hand, what.to_string())
    }

    /// The pot after the event, for the events that say it.
    pub fn pot(&self) -> Option<u64> {
        match *self.event {
            Event::HandStarted { pot, .. }
            | Event::Redeal { pot, .. }
            | Event::Bet { pot, .. }
            | Event::ShowAsked { pot, .. }
            | Event::SideshowAsked { pot, .. }
            | Event::HandEnded { pot, .. } => Some(pot),
            _ => None,
        }
    }

    /// A `hand_started` event's dealer.
    pub fn dealer(&self) -> Option<usize> {
        match *self.event {
            Event::HandStarted { dealer, .. } => Some(dealer),
            _ => None,
        }
    }

    /// The event's seat, one of two.
    pub fn seat(&self) -> Result<usize, LuckError> {
        let seat = match *self.event {
            Event::Dealt { seat, .. }
            | Event::Saw { seat, .. }
            | Event::Swapped { seat, .. }
            | Event::Kept { seat }
            | Event::Bet { seat, .. }
            | Event::Packed { seat, .. }
            | Event::ShowAsked { seat, .. }
            | Event::SideshowAsked { seat, .. }
            | Event::SideshowRefused { seat, .. }
            | Event::SideshowCompared { seat, .. } => Some(seat),
            _ => None,
        };
        seat.filter(|&s| s < 2)
            .ok_or_else(|| self.bad("an event without a valid seat"))
    }

    /// A `dealt` event's three cards.
    pub fn cards(&self) -> Result<[Card; 3], LuckError> {
        match *self.event {
            Event::Dealt {
                cards: Some(cards), ..
            } => Ok(cards),
            _ => Err(self.bad("a deal without its cards")),
        }
    }

    /// A `hand_ended` event's two payoffs.
    pub fn payoffs(&self) -> Result<[i64; 2], LuckError> {
        match self.event {
            Event::HandEnded { payoffs, .. } => <[i64; 2]>::try_from(payoffs.as_slice()).ok(),
            _ => None,
        }
        .ok_or_else(|| self.bad("an end without two payoffs"))
    }
}

/// A replay's finished hands: each hand's `hand_started` event, then its events up to and
/// including its `hand_ended` (the last of the list), in order. Events outside a started hand,
/// and a hand that never ended (a cut replay), are left out.
pub fn finished_hands(records: &[Record]) -> Vec<(EventFields<'_>, Vec<EventFields<'_>>)> {
    let mut out = Vec::new();
    let mut current: Option<(EventFields<'_>, Vec<EventFields<'_>>)> = None;
    for record in records {
        let Record::Event { hand, event } = record else {
            continue;
        };
        let e = EventFields { hand: *hand, event };
        if matches!(event, Event::HandStarted { .. }) {
            current = Some((e, Vec::new()));
            continue;
        }
        let Some((_, events)) = current.as_mut().filter(|(start, _)| start.hand == *hand) else {
            continue;
        };
        let ended = matches!(event, Event::HandEnded { .. });
        events.push(e);
        if ended {
            out.extend(current.take());
        }
    }
    out
}
