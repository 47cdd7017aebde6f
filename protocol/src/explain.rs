//! The legal set and refused actions in the protocol's words, as a bot sees them in a
//! request: `pack, bet 2..4 in steps of 2, show (costs 2)`.

use rules::{Action, LegalAction};

/// One legal entry: `bet 2..4 in steps of 2`, `show (costs 2)`, `swap one of As Kd 9h`.
pub fn legal_entry(entry: &LegalAction) -> String {
    match entry {
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => bet_range(*min, *max, *multiple_of),
        LegalAction::Show { cost } => format!("show (costs {cost})"),
        LegalAction::Sideshow { cost, target } => {
            format!("sideshow (costs {cost}, asks seat {target})")
        }
        LegalAction::Swap { cards, cost } => format!(
            "swap one of {} (costs {cost})",
            cards.map(|c| c.to_string()).join(" ")
        ),
        other => other.name().to_string(),
    }
}

fn bet_range(min: u64, max: u64, multiple_of: u64) -> String {
    if min == max {
        format!("bet {min}")
    } else if multiple_of > 1 {
        format!("bet {min}..{max} in steps of {multiple_of}")
    } else {
        format!("bet {min}..{max}")
    }
}

/// The whole legal set: `pack, see, bet 1..2`.
pub fn legal_set(legal: &[LegalAction]) -> String {
    legal.iter().map(legal_entry).collect::<Vec<_>>().join(", ")
}

/// An action as the bot wrote it on the wire: `"action":"bet","amount":3`.
pub fn action_fields(action: &Action) -> String {
    let mut out = Vec::new();
    crate::wire::write_action_fields(&mut out, action);
    String::from_utf8(out).expect("action fields are ASCII")
}

/// Why `action` is not allowed by `legal` (the request's legal set), or `None` if it is:
/// the value at fault and the choices offered.
pub fn refusal(action: &Action, legal: &[LegalAction]) -> Option<String> {
    if legal.iter().any(|entry| entry.allows(action)) {
        return None;
    }
    let offered = legal.iter().find(|entry| entry.name() == action.name());
    Some(match (offered, action) {
        (
            Some(LegalAction::Bet {
                min,
                max,
                multiple_of,
            }),
            Action::Bet { amount },
        ) => {
            let why = if amount < min {
                format!("below the minimum {min}")
            } else if amount > max {
                format!("above the maximum {max}")
            } else {
                format!("not a multiple of {multiple_of}")
            };
            format!(
                "bet {amount} is {why}: amounts {}",
                bet_range(*min, *max, *multiple_of).trim_start_matches("bet ")
            )
        }
        (Some(LegalAction::Swap { cards, .. }), Action::Swap { card }) => format!(
            "\"card\":\"{card}\" is not one of your cards; swap one of {}",
            cards.map(|c| c.to_string()).join(" ")
        ),
        _ => format!(
            "\"action\":\"{}\" is not offered; offered: {}",
            action.name(),
            legal_set(legal)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen_bet() -> Vec<LegalAction> {
        vec![
            LegalAction::Pack,
            LegalAction::Bet {
                min: 2,
                max: 4,
                multiple_of: 2,
            },
            LegalAction::Show { cost: 2 },
        ]
    }

    #[test]
    fn a_bet_outside_the_offer_names_the_amount_and_the_offer() {
        let legal = seen_bet();
        let says = |amount| refusal(&Action::Bet { amount }, &legal).unwrap();
        assert_eq!(
            says(3),
            "bet 3 is not a multiple of 2: amounts 2..4 in steps of 2"
        );
        assert_eq!(
            says(1),
            "bet 1 is below the minimum 2: amounts 2..4 in steps of 2"
        );
        assert_eq!(
            says(999_999),
            "bet 999999 is above the maximum 4: amounts 2..4 in steps of 2"
        );
        assert_eq!(
            says(u64::MAX),
            format!(
                "bet {} is above the maximum 4: amounts 2..4 in steps of 2",
                u64::MAX
            )
        );
        assert_eq!(refusal(&Action::Bet { amount: 4 }, &legal), None);
    }

    #[test]
    fn an_action_not_offered_lists_the_offer() {
        assert_eq!(
            refusal(&Action::Sideshow, &seen_bet()).unwrap(),
            "\"action\":\"sideshow\" is not offered; offered: pack, bet 2..4 in steps of 2, show (costs 2)"
        );
        let blind = [
            LegalAction::Pack,
            LegalAction::See,
            LegalAction::Bet {
                min: 1,
                max: 2,
                multiple_of: 1,
            },
        ];
        assert_eq!(
            refusal(&Action::Accept, &blind).unwrap(),
            "\"action\":\"accept\" is not offered; offered: pack, see, bet 1..2"
        );
    }

    #[test]
    fn a_swap_of_a_card_not_held_names_the_cards() {
        let cards = ["5s", "Kd", "9h"].map(|c| c.parse().unwrap());
        let legal = [LegalAction::Swap { cards, cost: 0 }, LegalAction::Keep];
        let card = "As".parse().unwrap();
        assert_eq!(
            refusal(&Action::Swap { card }, &legal).unwrap(),
            "\"card\":\"As\" is not one of your cards; swap one of 5s Kd 9h"
        );
        assert_eq!(legal_set(&legal), "swap one of 5s Kd 9h (costs 0), keep");
    }

    #[test]
    fn actions_are_written_as_on_the_wire() {
        assert_eq!(
            action_fields(&Action::Bet { amount: 3 }),
            "\"action\":\"bet\",\"amount\":3"
        );
        assert_eq!(action_fields(&Action::Pack), "\"action\":\"pack\"");
    }
}
