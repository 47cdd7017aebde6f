//! The Teen Patti rules engine: pure, deterministic, no IO, no global state.
//!
//! - [`card`]: cards and their notation.
//! - [`settings`]: the variant and the table's house choices.
//! - [`eval`]: hand values for each variant.
//! - [`deck`]: the version-stable deal from a seed.
//! - [`hand`]: the state machine of one hand (who decides, legal actions, apply, payoffs).
//! - [`action`], [`event`], [`view`]: what goes in and out of a hand.

pub mod action;
pub mod card;
pub mod deck;
pub mod eval;
pub mod event;
pub mod hand;
pub mod settings;
pub mod view;

pub use action::{Action, Decision, DecisionKind, Illegal, LegalAction};
pub use card::{Card, Colour, ParseCardError, Rank, Suit};
pub use deck::Deck;
pub use eval::{HandDescription, HandValue, describe, hand_value};
pub use event::{EndReason, Event, PackReason, RevealReason, RevealedHand};
pub use hand::{DealSource, Hand, LegalSet, WhyNot};
pub use settings::{
    SequenceOrder, Settings, SettingsError, UnknownSequenceOrder, UnknownVariant, Variant,
};
pub use view::{PlayerView, SeatView};

// The README's examples run as doc tests, so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
