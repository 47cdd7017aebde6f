//! Every message on the wire.
//!
//! Arena to bot: [`ArenaMessage`], tagged by `"type"`. Bot to arena: [`BotHello`] once, then
//! one [`Answer`] per [`Request`]. Unknown fields are ignored in both directions so that the
//! protocol can grow without breaking old bots.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use rules::{Action, Card, DecisionKind, Event, Hand, LegalAction, PlayerView, Settings, Variant};

use crate::fault::FaultKind;

/// Time limits, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLimits {
    /// To answer `hello`.
    pub startup_ms: u64,
    /// For each decision, before the time bank is drawn on.
    pub decision_ms: u64,
    /// Extra time for the whole match, spent when a decision takes longer than `decision_ms`.
    pub bank_ms: u64,
}

/// The first message: who you are and what is played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    pub game: Variant,
    pub settings: Settings,
    /// Your seat (0-based) and the table size.
    pub seat: usize,
    pub seats: usize,
    /// Hands in the match, and the first one you play (a restarted bot joins mid-match).
    pub hands: u64,
    pub first_hand: u64,
    /// A seed for your own randomness, so that matches are reproducible.
    pub seed: u64,
    /// Names of the bots in seat order.
    pub players: Vec<String>,
    pub time: TimeLimits,
}

/// A decision the bot must make. Answer with the same `id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub hand: u64,
    pub kind: DecisionKind,
    pub legal: Vec<LegalAction>,
    pub pot: u64,
    pub stake: u64,
    pub dealer: usize,
    /// For a `sideshow_reply`: the seat that asked.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sideshow_from: Option<usize>,
    /// Your cards, once you have seen them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cards: Option<[Card; 3]>,
    /// Every seat's public state, in seat order.
    pub players: Vec<PlayerView>,
    /// Other seats' cards that were revealed to you in this hand (seat number as the key).
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub known: BTreeMap<usize, [Card; 3]>,
    /// Time for this decision, and what is left of your bank.
    pub time_ms: u64,
    pub bank_ms: u64,
}

impl Request {
    /// The request for `seat`'s decision of `kind` in `hand` (the match's hand number
    /// `hand_index`), from `Hand::view(seat)`: nothing that seat may not know.
    pub fn from_hand(
        hand: &Hand,
        hand_index: u64,
        kind: DecisionKind,
        seat: usize,
        id: u64,
        time_ms: u64,
        bank_ms: u64,
    ) -> Request {
        let view = hand.view(seat);
        Request {
            id,
            hand: hand_index,
            kind,
            legal: view.legal,
            pot: view.pot,
            stake: view.stake,
            dealer: view.dealer,
            sideshow_from: hand.sideshow_asker(),
            cards: view.cards,
            players: view.players,
            known: view.known,
            time_ms,
            bank_ms,
        }
    }
}

/// The arena tells a bot what it did wrong and what it did in its place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FaultNotice {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<u64>,
    pub fault: FaultKind,
    pub detail: String,
    /// The action taken for the bot (pack, keep or refuse), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub applied: Option<Action>,
}

/// The end of the match. The bot should exit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchEnd {
    pub hands: u64,
    /// Net chips per seat over the match.
    pub totals: Vec<i64>,
}

/// Arena to bot.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ArenaMessage {
    Hello(Hello),
    /// Something happened that this seat may see (see `rules::Event` for each kind).
    Event {
        hand: u64,
        #[serde(flatten)]
        event: Event,
    },
    Request(Request),
    Fault(FaultNotice),
    MatchEnd(MatchEnd),
}

/// The bot's answer to `hello`. Read it with [`BotHello::read`] (see [`crate::read`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BotHello {
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub version: String,
    /// The protocol version the bot was written for (optional; 1 if absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protocol: Option<u32>,
}

impl BotHello {
    /// Reads a bot's hello line, naming every field at fault.
    pub fn read(line: &str) -> Result<BotHello, crate::read::LineError> {
        crate::read::read_hello(line)
    }
}

/// The bot's answer to a request: the request's id and one action,
/// e.g. `{"id":7,"action":"bet","amount":4}`. Read it with [`Answer::read`] (see
/// [`crate::read`]: `7.0` is read as 7, and a refusal names the field at fault).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    pub id: u64,
    #[serde(flatten)]
    pub action: Action,
}

impl Answer {
    /// Reads an answer line, naming every field at fault.
    pub fn read(line: &str) -> Result<Answer, crate::read::LineError> {
        crate::read::read_answer(line)
    }
}

impl ArenaMessage {
    /// One line of JSON (no newline).
    pub fn to_line(&self) -> String {
        let mut out = Vec::new();
        self.write_line(&mut out);
        String::from_utf8(out).expect("arena messages are UTF-8")
    }

    /// Appends the message as one line of JSON (no newline) to `out`: the same bytes as
    /// `serde_json::to_writer`, written by hand for requests and events (see [`crate::wire`]).
    pub fn write_line(&self, out: &mut Vec<u8>) {
        crate::wire::write_message(out, self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_from_their_documented_form() {
        let a = Answer::read(r#"{"id":7,"action":"bet","amount":4}"#).unwrap();
        assert_eq!(a.action, Action::Bet { amount: 4 });
        let a = Answer::read(r#"{"id":8,"action":"swap","card":"10d","note":"hi"}"#).unwrap();
        assert_eq!(
            a.action,
            Action::Swap {
                card: "Td".parse().unwrap()
            }
        );
        let a = Answer::read(r#"{"action":"pack","id":9}"#).unwrap();
        assert_eq!((a.id, a.action), (9, Action::Pack));
        assert!(Answer::read(r#"{"id":7,"action":"fly"}"#).is_err());
        assert!(Answer::read(r#"{"action":"pack"}"#).is_err());
        assert!(Answer::read(r#"{"id":7,"action":"bet"}"#).is_err());
    }

    #[test]
    fn events_are_flattened_into_the_message() {
        let msg = ArenaMessage::Event {
            hand: 3,
            event: Event::Packed {
                seat: 1,
                reason: rules::PackReason::Chose,
            },
        };
        assert_eq!(
            msg.to_line(),
            r#"{"type":"event","hand":3,"event":"packed","seat":1,"reason":"chose"}"#
        );
    }
}
