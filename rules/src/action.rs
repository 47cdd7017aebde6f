//! Decisions, actions and the legal set a seat is offered.

use serde::{Deserialize, Serialize};

use crate::card::Card;

/// The kind of decision a seat must make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// Closest to 555: at the start of the seat's first or second turn, swap one card or keep.
    Swap,
    /// The seat's betting turn: bet, pack, see (classic), show or sideshow.
    Bet,
    /// A sideshow was asked of this seat (not on turn): accept or refuse.
    SideshowReply,
}

impl DecisionKind {
    /// The kind's name on the wire (a request's `kind`).
    pub fn name(self) -> &'static str {
        match self {
            DecisionKind::Swap => "swap",
            DecisionKind::Bet => "bet",
            DecisionKind::SideshowReply => "sideshow_reply",
        }
    }
}

/// Who must decide now, and what kind of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub seat: usize,
    pub kind: DecisionKind,
}

/// An action a seat takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Leave the hand, losing what was put in.
    Pack,
    /// Classic: a blind seat looks at its cards; the same turn goes on as seen.
    See,
    /// Put `amount` chips in (blind: S..=2S, current stake becomes amount; seen: even 2S..=4S,
    /// current stake becomes amount / 2).
    Bet { amount: u64 },
    /// With exactly two seats left: pay for a show.
    Show,
    /// Pay the minimum seen bet and ask the previous active seat for a private comparison.
    Sideshow,
    /// Closest to 555: discard this card and draw the next one from the stock.
    Swap { card: Card },
    /// Closest to 555: decline the swap this turn.
    Keep,
    /// Sideshow reply.
    Accept,
    /// Sideshow reply.
    Refuse,
}

/// One entry of the legal set, with its bounds and cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum LegalAction {
    Pack,
    See,
    /// Any amount in `min..=max` that is a multiple of `multiple_of` (2 for seen bets).
    Bet {
        min: u64,
        max: u64,
        multiple_of: u64,
    },
    Show {
        cost: u64,
    },
    Sideshow {
        cost: u64,
        /// The seat that would be asked.
        target: usize,
    },
    /// Any one of the seat's own cards may be discarded.
    Swap {
        cards: [Card; 3],
        cost: u64,
    },
    Keep,
    Accept,
    Refuse,
}

impl LegalAction {
    /// Whether `action` is an instance of this legal entry.
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (LegalAction::Pack, Action::Pack)
            | (LegalAction::See, Action::See)
            | (LegalAction::Show { .. }, Action::Show)
            | (LegalAction::Sideshow { .. }, Action::Sideshow)
            | (LegalAction::Keep, Action::Keep)
            | (LegalAction::Accept, Action::Accept)
            | (LegalAction::Refuse, Action::Refuse) => true,
            (
                LegalAction::Bet {
                    min,
                    max,
                    multiple_of,
                },
                Action::Bet { amount },
            ) => (*min..=*max).contains(amount) && amount % multiple_of == 0,
            (LegalAction::Swap { cards, .. }, Action::Swap { card }) => cards.contains(card),
            _ => false,
        }
    }

    /// One action this entry allows. Where it allows several (a bet's amounts, a swap's
    /// cards), `pick(n)` chooses which: it gets the number of choices and returns an index
    /// below it (a random one for random play, `0` for the smallest bet or the first card).
    pub fn instance(&self, mut pick: impl FnMut(u64) -> u64) -> Action {
        match self {
            LegalAction::Pack => Action::Pack,
            LegalAction::See => Action::See,
            LegalAction::Bet {
                min,
                max,
                multiple_of,
            } => {
                let choices = (max - min) / multiple_of + 1;
                let k = pick(choices);
                debug_assert!(k < choices, "pick({choices}) returned {k}");
                Action::Bet {
                    amount: min + multiple_of * k.min(choices - 1),
                }
            }
            LegalAction::Show { .. } => Action::Show,
            LegalAction::Sideshow { .. } => Action::Sideshow,
            LegalAction::Swap { cards, .. } => Action::Swap {
                card: cards[pick(3).min(2) as usize],
            },
            LegalAction::Keep => Action::Keep,
            LegalAction::Accept => Action::Accept,
            LegalAction::Refuse => Action::Refuse,
        }
    }

    /// The action's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            LegalAction::Pack => "pack",
            LegalAction::See => "see",
            LegalAction::Bet { .. } => "bet",
            LegalAction::Show { .. } => "show",
            LegalAction::Sideshow { .. } => "sideshow",
            LegalAction::Swap { .. } => "swap",
            LegalAction::Keep => "keep",
            LegalAction::Accept => "accept",
            LegalAction::Refuse => "refuse",
        }
    }
}

impl Action {
    /// The action's name on the wire.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Pack => "pack",
            Action::See => "see",
            Action::Bet { .. } => "bet",
            Action::Show => "show",
            Action::Sideshow => "sideshow",
            Action::Swap { .. } => "swap",
            Action::Keep => "keep",
            Action::Accept => "accept",
            Action::Refuse => "refuse",
        }
    }
}

/// Why an action was refused. The hand is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the hand is over")]
    HandOver,
    #[error("seat {seat} is not the one to decide (seat {expected} is)")]
    NotYourTurn { seat: usize, expected: usize },
    #[error("{action} is not a legal {} decision here: {reason}", kind.name())]
    NotLegal {
        action: &'static str,
        kind: DecisionKind,
        reason: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_picks_among_the_allowed_actions() {
        let bet = LegalAction::Bet {
            min: 4,
            max: 10,
            multiple_of: 2,
        };
        let amounts: Vec<Action> = (0..4).map(|k| bet.instance(|_| k)).collect();
        let expected: Vec<Action> = [4, 6, 8, 10].map(|amount| Action::Bet { amount }).into();
        assert_eq!(amounts, expected);
        let mut offered = 0;
        bet.instance(|n| {
            offered = n;
            0
        });
        assert_eq!(offered, 4, "a bet offers each multiple in its bounds");
        let cards = ["As", "Td", "2c"].map(|c| c.parse().unwrap());
        let swap = LegalAction::Swap { cards, cost: 0 };
        for k in 0..3 {
            assert_eq!(
                swap.instance(|_| k),
                Action::Swap {
                    card: cards[k as usize]
                }
            );
        }
        for entry in [
            LegalAction::Pack,
            LegalAction::See,
            LegalAction::Show { cost: 2 },
            LegalAction::Sideshow { cost: 2, target: 1 },
            LegalAction::Keep,
            LegalAction::Accept,
            LegalAction::Refuse,
            bet,
            swap,
        ] {
            let action = entry.instance(|n| n - 1);
            assert!(entry.allows(&action), "{entry:?} -> {action:?}");
            assert_eq!(entry.name(), action.name());
        }
    }
}
