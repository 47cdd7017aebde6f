//! Table settings: the variant and every house choice the rules notes leave to the table.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The game played at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The classic game: standard ranking, blind and seen play.
    Classic,
    /// Closest to 555: digits, distance to 555, two free swaps.
    #[serde(rename = "closest-555")]
    Closest555,
    /// Lallan Kallan: one-colour hands are dead, the odd-colour card is wild.
    LallanKallan,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::Closest555, Variant::LallanKallan];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Closest555 => "closest-555",
            Variant::LallanKallan => "lallan-kallan",
        }
    }

    /// Seats a table of this variant may have.
    ///
    /// 555 reserves three cards plus two replacements per seat (10 x 5 <= 52); Lallan Kallan
    /// deals three each (16 x 3 <= 52). The classic game also deals three each and draws
    /// nothing, so it allows 17 seats (17 x 3 = 51), the most a single pack can serve.
    pub fn seat_range(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Variant::Classic => 2..=17,
            Variant::Closest555 => 2..=10,
            Variant::LallanKallan => 2..=16,
        }
    }

    /// Whether seats start blind (only the classic game has blind play).
    pub fn has_blind_play(self) -> bool {
        self == Variant::Classic
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A game's name that is none of the three.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {text:?}; expected classic, closest-555 or lallan-kallan")]
pub struct UnknownVariant {
    pub text: String,
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        match text {
            "classic" => Ok(Variant::Classic),
            "closest-555" | "555" => Ok(Variant::Closest555),
            "lallan-kallan" => Ok(Variant::LallanKallan),
            _ => Err(UnknownVariant { text: text.into() }),
        }
    }
}

/// Which of the two top runs is higher. Neither order allows a wraparound (K-A-2 is no run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SequenceOrder {
    /// A-2-3 > A-K-Q > K-Q-J > ... > 4-3-2 (the guides' order).
    #[default]
    #[serde(rename = "a23-high")]
    A23High,
    /// A-K-Q > A-2-3 > K-Q-J > ... > 4-3-2 (Octro's order, and several public test vectors').
    #[serde(rename = "akq-high")]
    AkqHigh,
}

/// A sequence order's name that is neither of the two.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown sequence order {text:?}; expected a23-high or akq-high")]
pub struct UnknownSequenceOrder {
    pub text: String,
}

impl FromStr for SequenceOrder {
    type Err = UnknownSequenceOrder;
    fn from_str(text: &str) -> Result<SequenceOrder, UnknownSequenceOrder> {
        match text {
            "a23-high" => Ok(SequenceOrder::A23High),
            "akq-high" => Ok(SequenceOrder::AkqHigh),
            _ => Err(UnknownSequenceOrder { text: text.into() }),
        }
    }
}

impl fmt::Display for SequenceOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SequenceOrder::A23High => "a23-high",
            SequenceOrder::AkqHigh => "akq-high",
        })
    }
}

/// The largest boot and swap cost (chips). With the pot limit below, every chip count of a
/// hand stays far from overflow whatever the bots do.
pub const MAX_BOOT: u64 = 1 << 30;
/// The largest pot limit (chips).
pub const MAX_POT_LIMIT: u64 = 1 << 40;

/// Everything that fixes how a hand is played. All amounts are in chips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
// Unknown fields are ignored, not refused: bots parse these settings from the hello, and the
// protocol promises that additions never break old bots.
#[serde(default)]
pub struct Settings {
    pub variant: Variant,
    /// Paid by every seat before the deal; the first current stake.
    pub boot: u64,
    /// The chaal limit: no bet may lift the current stake above this.
    pub max_stake: u64,
    /// When a bet or a sideshow payment takes the pot to this or above, all remaining hands
    /// are revealed at once. (A show's payment does not: the show itself settles the hand. A
    /// Closest to 555 swap fee does, when the swapping seat's turn ends.)
    pub pot_limit: u64,
    /// Whether sideshows may be asked for.
    pub sideshow: bool,
    pub sequence_order: SequenceOrder,
    /// Classic game only: after this many blind bets a seat must see its cards.
    pub blind_limit: u32,
    /// Closest to 555 only: chips paid into the pot for each swap (0: free, as the guide says).
    pub swap_cost: u64,
    /// Safety cap on betting turns per hand; reaching it ends the hand in a group reveal.
    pub max_turns: u32,
}

impl Settings {
    /// The defaults of the rules notes for a variant.
    pub fn new(variant: Variant) -> Settings {
        Settings {
            variant,
            boot: 1,
            max_stake: 64,
            pot_limit: 1024,
            sideshow: true,
            sequence_order: SequenceOrder::A23High,
            blind_limit: 4,
            swap_cost: 0,
            max_turns: 500,
        }
    }

    /// Checks the settings and the number of seats against each other.
    pub fn validate(&self, seats: usize) -> Result<(), SettingsError> {
        let range = self.variant.seat_range();
        if !range.contains(&seats) {
            return Err(SettingsError::Seats {
                variant: self.variant,
                seats,
                min: *range.start(),
                max: *range.end(),
            });
        }
        if self.boot == 0 || self.boot > MAX_BOOT {
            return Err(SettingsError::Field(
                "boot",
                format!("must be from 1 to {MAX_BOOT}"),
            ));
        }
        if self.pot_limit > MAX_POT_LIMIT {
            return Err(SettingsError::Field(
                "pot_limit",
                format!("must be at most {MAX_POT_LIMIT} chips"),
            ));
        }
        // boot <= 2^30 and seats <= 17, so this cannot overflow.
        let boots = self.boot * seats as u64;
        if self.pot_limit <= boots {
            return Err(SettingsError::Field(
                "pot_limit",
                format!("must be more than the boots of all seats ({boots})"),
            ));
        }
        if self.max_stake < self.boot || self.max_stake > MAX_POT_LIMIT {
            return Err(SettingsError::Field(
                "max_stake",
                format!("must be from the boot ({}) to {MAX_POT_LIMIT}", self.boot),
            ));
        }
        if self.swap_cost > MAX_BOOT {
            return Err(SettingsError::Field(
                "swap_cost",
                format!("must be at most {MAX_BOOT} chips"),
            ));
        }
        if self.max_turns == 0 {
            return Err(SettingsError::Field(
                "max_turns",
                "must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::new(Variant::Classic)
    }
}

/// A table that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("{variant} is played by {min} to {max} players, not {seats}")]
    Seats {
        variant: Variant,
        seats: usize,
        min: usize,
        max: usize,
    },
    #[error("setting {0}: {1}")]
    Field(&'static str, String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_ones_say_what_is_expected() {
        for variant in [Variant::Classic, Variant::Closest555, Variant::LallanKallan] {
            assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        }
        assert_eq!("555".parse::<Variant>(), Ok(Variant::Closest555));
        let e = "poker".parse::<Variant>().unwrap_err();
        assert_eq!(e.text, "poker");
        assert_eq!(
            e.to_string(),
            "unknown game \"poker\"; expected classic, closest-555 or lallan-kallan"
        );
        for order in [SequenceOrder::A23High, SequenceOrder::AkqHigh] {
            assert_eq!(order.to_string().parse::<SequenceOrder>(), Ok(order));
        }
        let e = "k-high".parse::<SequenceOrder>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown sequence order \"k-high\"; expected a23-high or akq-high"
        );
    }
}
