//! Cards: ranks, suits, colours and the two-character notation (`As`, `Td`, `7c`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A card rank. The numeric value is the rank with the ace high: 2..=14.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const TEN: Rank = Rank(10);
    pub const KING: Rank = Rank(13);
    pub const ACE: Rank = Rank(14);

    /// Ranks from two to ace.
    pub fn all() -> impl Iterator<Item = Rank> {
        (2..=14).map(Rank)
    }

    /// The rank with this ace-high value (2..=14), if there is one.
    pub fn from_value(value: u8) -> Option<Rank> {
        (2..=14).contains(&value).then_some(Rank(value))
    }

    /// Ace-high value: 2 for a two, 14 for an ace.
    pub fn value(self) -> u8 {
        self.0
    }

    pub fn symbol(self) -> char {
        b"23456789TJQKA"[usize::from(self.0 - 2)] as char
    }

    fn from_symbol(text: &str) -> Option<Rank> {
        let value = match text {
            "10" => 10,
            _ if text.len() == 1 => {
                let c = text.as_bytes()[0].to_ascii_uppercase();
                match c {
                    b'2'..=b'9' => c - b'0',
                    b'T' => 10,
                    b'J' => 11,
                    b'Q' => 12,
                    b'K' => 13,
                    b'A' => 14,
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(Rank(value))
    }
}

/// A suit. Suits never rank against each other; they matter for colour and runs of one suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn symbol(self) -> char {
        match self {
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
            Suit::Hearts => 'h',
            Suit::Spades => 's',
        }
    }

    pub fn colour(self) -> Colour {
        match self {
            Suit::Hearts | Suit::Diamonds => Colour::Red,
            Suit::Clubs | Suit::Spades => Colour::Black,
        }
    }

    fn from_symbol(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            'c' => Some(Suit::Clubs),
            'd' => Some(Suit::Diamonds),
            'h' => Some(Suit::Hearts),
            's' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// Red is hearts and diamonds; black is clubs and spades (Lallan Kallan's dead hands and wilds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Black,
}

/// One card of the 52-card pack.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    rank: Rank,
    suit: Suit,
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    pub fn rank(self) -> Rank {
        self.rank
    }

    pub fn suit(self) -> Suit {
        self.suit
    }

    pub fn colour(self) -> Colour {
        self.suit.colour()
    }

    /// Index 0..52 in the canonical order used to build a fresh pack: 2c 2d 2h 2s 3c ... As.
    pub fn index(self) -> usize {
        usize::from(self.rank.0 - 2) * 4 + self.suit as usize
    }

    pub fn from_index(index: usize) -> Card {
        assert!(index < 52, "card index out of range: {index}");
        Card {
            rank: Rank(index as u8 / 4 + 2),
            suit: Suit::ALL[index % 4],
        }
    }

    /// The 52 cards in canonical order.
    pub fn pack() -> [Card; 52] {
        std::array::from_fn(Card::from_index)
    }
}

/// Why a card's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad card {text:?}: {reason}")]
pub struct ParseCardError {
    pub text: String,
    pub reason: &'static str,
}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Accepts `As`, `td`, `10d` (the rank letter in either case, then the suit letter).
    fn from_str(text: &str) -> Result<Card, ParseCardError> {
        let err = |reason| ParseCardError {
            text: text.to_string(),
            reason,
        };
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let suit_char = chars
            .next_back()
            .ok_or_else(|| err("empty; expected rank then suit, like \"As\""))?;
        let rank_text = chars.as_str();
        if rank_text.is_empty() {
            return Err(err("expected rank then suit, like \"As\" or \"10d\""));
        }
        let rank = Rank::from_symbol(rank_text)
            .ok_or_else(|| err("unknown rank; expected one of 2-9, T (or 10), J, Q, K, A"))?;
        let suit = Suit::from_symbol(suit_char)
            .ok_or_else(|| err("unknown suit; expected one of c, d, h, s"))?;
        Ok(Card { rank, suit })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.symbol(), self.suit.symbol())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = [self.rank.symbol() as u8, self.suit.symbol() as u8];
        serializer.serialize_str(std::str::from_utf8(&text).expect("ASCII"))
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses three cards, refusing duplicates: the form every hand takes on input.
pub fn parse_hand(texts: &[impl AsRef<str>]) -> Result<[Card; 3], ParseCardError> {
    if texts.len() != 3 {
        return Err(ParseCardError {
            text: texts
                .iter()
                .map(|t| t.as_ref())
                .collect::<Vec<_>>()
                .join(","),
            reason: "a hand has exactly three cards",
        });
    }
    let cards = [
        texts[0].as_ref().parse::<Card>()?,
        texts[1].as_ref().parse::<Card>()?,
        texts[2].as_ref().parse::<Card>()?,
    ];
    if cards[0] == cards[1] || cards[0] == cards[2] || cards[1] == cards[2] {
        return Err(ParseCardError {
            text: texts
                .iter()
                .map(|t| t.as_ref())
                .collect::<Vec<_>>()
                .join(","),
            reason: "the same card twice in one hand",
        });
    }
    Ok(cards)
}

/// Parses a space- or comma-separated list of cards (test and CLI convenience): `"As Kd 3h"`.
pub fn cards(text: &str) -> Result<Vec<Card>, ParseCardError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_card() {
        for card in Card::pack() {
            let text = card.to_string();
            assert_eq!(text.len(), 2);
            assert_eq!(text.parse::<Card>().unwrap(), card);
            assert_eq!(Card::from_index(card.index()), card);
        }
    }

    #[test]
    fn ten_is_accepted_as_10_on_input() {
        assert_eq!("10d".parse::<Card>().unwrap().to_string(), "Td");
        assert_eq!("as".parse::<Card>().unwrap().to_string(), "As");
    }

    #[test]
    fn bad_cards_are_refused_with_a_reason() {
        for bad in ["", "A", "1s", "Ax", "11d", "Asx", "ZZ", "s"] {
            let err = bad.parse::<Card>().unwrap_err();
            assert!(!err.reason.is_empty(), "{bad}");
        }
        assert!(parse_hand(&["As", "As", "2c"]).is_err());
        assert!(parse_hand(&["As", "2c"]).is_err());
    }

    #[test]
    fn colours_follow_the_suits() {
        assert_eq!("Ah".parse::<Card>().unwrap().colour(), Colour::Red);
        assert_eq!("Ad".parse::<Card>().unwrap().colour(), Colour::Red);
        assert_eq!("Ac".parse::<Card>().unwrap().colour(), Colour::Black);
        assert_eq!("As".parse::<Card>().unwrap().colour(), Colour::Black);
    }
}
