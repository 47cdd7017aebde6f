//! The person's prompt in `arena play`: what they hold and may do, read until they type a
//! legal action, with the rule that refused anything else.

use std::io::{BufRead, Write};

use protocol::{Action, DecisionKind, LegalAction};
use rules::{Card, Hand};

use super::Console;
use super::refused;
use crate::replay::{Names, describe_value};

/// Why a line typed at the prompt was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum InputError {
    /// An action of the game that is not offered now (the hand says why: [`Hand::why_not`]).
    NotOffered(&'static str),
    /// Anything else, in words.
    Problem(String),
}

impl From<String> for InputError {
    fn from(problem: String) -> InputError {
        InputError::Problem(problem)
    }
}

/// Parses what the person typed into an action from the legal set, or says what is wrong.
pub fn parse_input(text: &str, legal: &[LegalAction]) -> Result<Action, InputError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err(InputError::Problem(
            "type an action (see the list above)".into(),
        ));
    };
    let word = first.to_ascii_lowercase();
    let offered = |name: &str| legal.iter().find(|l| l.name() == name);
    let name = match word.as_str() {
        "p" | "pack" | "fold" => "pack",
        "b" | "bet" | "c" | "chaal" | "call" => "bet",
        "see" | "look" => "see",
        "show" => "show",
        "ss" | "sideshow" => "sideshow",
        "swap" | "x" => "swap",
        "k" | "keep" => "keep",
        "y" | "yes" | "accept" => "accept",
        "n" | "no" | "refuse" => "refuse",
        other => {
            return Err(InputError::Problem(format!(
                "unknown action {}",
                crate::console::quote::quoted(other)
            )));
        }
    };
    let Some(entry) = offered(name) else {
        return Err(InputError::NotOffered(name));
    };
    match entry {
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => {
            let amount = match words.get(1) {
                None => *min,
                Some(n) => n.parse::<u64>().map_err(|_| {
                    format!(
                        "{} is not a number of chips",
                        crate::console::quote::quoted(n)
                    )
                })?,
            };
            let action = Action::Bet { amount };
            if entry.allows(&action) {
                Ok(action)
            } else if *multiple_of > 1 {
                Err(format!("bet from {min} to {max}, a multiple of {multiple_of}").into())
            } else {
                Err(format!("bet from {min} to {max}").into())
            }
        }
        LegalAction::Swap { cards, .. } => {
            let Some(text) = words.get(1) else {
                return Err(InputError::Problem(format!(
                    "say which card: swap {}",
                    cards
                        .iter()
                        .map(|c| c.to_string())
                        .collect::<Vec<_>>()
                        .join(" | swap ")
                )));
            };
            let card: Card = text.parse().map_err(|e| format!("{e}"))?;
            if cards.contains(&card) {
                Ok(Action::Swap { card })
            } else {
                Err(format!("you do not hold {card}").into())
            }
        }
        LegalAction::Pack => Ok(Action::Pack),
        LegalAction::See => Ok(Action::See),
        LegalAction::Show { .. } => Ok(Action::Show),
        LegalAction::Sideshow { .. } => Ok(Action::Sideshow),
        LegalAction::Keep => Ok(Action::Keep),
        LegalAction::Accept => Ok(Action::Accept),
        LegalAction::Refuse => Ok(Action::Refuse),
    }
}

fn menu(legal: &[LegalAction], names: &Names) -> String {
    legal
        .iter()
        .map(|l| match l {
            LegalAction::Pack => "pack".to_string(),
            LegalAction::See => "see (look at your cards)".to_string(),
            LegalAction::Bet {
                min,
                max,
                multiple_of,
            } => {
                let step = if *multiple_of > 1 { ", even" } else { "" };
                format!("bet N ({min}-{max}{step}; plain `bet` = {min})")
            }
            LegalAction::Show { cost } => format!("show (costs {cost})"),
            LegalAction::Sideshow { cost, target } => {
                format!("sideshow (costs {cost}, asks {})", names.who(*target))
            }
            LegalAction::Swap { .. } => "swap CARD".to_string(),
            LegalAction::Keep => "keep".to_string(),
            LegalAction::Accept => "accept".to_string(),
            LegalAction::Refuse => "refuse".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Asks until the person types a legal action. `None` at end of input.
pub(super) fn ask_person<R: BufRead, W: Write>(
    console: &mut Console<R, W>,
    hand: &Hand,
    kind: DecisionKind,
    names: &Names,
) -> std::io::Result<Option<Action>> {
    let view = hand.view(hand.to_act().expect("someone decides").seat);
    let out = &mut console.output;
    match view.cards {
        Some(cards) => {
            let s = hand.settings();
            let value = rules::describe(s.variant, s.sequence_order, &cards);
            writeln!(
                out,
                "Your cards: {}  ({})",
                cards
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                describe_value(&value)
            )?;
        }
        None => writeln!(out, "Your cards: face down (you are blind)")?,
    }
    for (seat, cards) in &view.known {
        writeln!(
            out,
            "You know {}'s cards: {}",
            names.who(*seat),
            cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )?;
    }
    let prompt = match kind {
        DecisionKind::Swap => "Swap a card?",
        DecisionKind::Bet => "Your turn.",
        DecisionKind::SideshowReply => "A sideshow is asked of you.",
    };
    loop {
        writeln!(
            out,
            "Pot {}, stake {}. {prompt} {}",
            view.pot,
            view.stake,
            menu(&view.legal, names)
        )?;
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if console.input.read_line(&mut line)? == 0 {
            writeln!(out, "\n(end of input: you pack and the game ends)")?;
            return Ok(None);
        }
        let word = line.trim().to_ascii_lowercase();
        if matches!(word.as_str(), "quit" | "q" | "exit") {
            writeln!(out, "(you leave: you pack and the game ends)")?;
            return Ok(None);
        }
        if word == "help" {
            writeln!(
                out,
                "Actions: pack | bet N (b N, plain `bet` is the minimum) | see | show | sideshow | swap CARD (e.g. swap Kd) | keep | accept | refuse | quit (q) leaves the game"
            )?;
            continue;
        }
        match parse_input(&line, &view.legal) {
            Ok(action) => return Ok(Some(action)),
            Err(InputError::Problem(problem)) => writeln!(out, "Sorry: {problem}. Try again.")?,
            // The rule that keeps it out, from the engine: "seat 2 is blind", not only "no".
            Err(InputError::NotOffered(name)) => match hand.why_not(name) {
                Some(why) => writeln!(
                    out,
                    "Sorry: {name} is not allowed now: {}. Try again.",
                    refused::reason(why, names)
                )?,
                None => writeln!(out, "Sorry: {name} is not allowed now. Try again.")?,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Settings;

    /// The words of a refusal that is not about an action left out of the legal set.
    fn problem(result: Result<Action, InputError>) -> String {
        match result {
            Err(InputError::Problem(problem)) => problem,
            other => panic!("not a problem in words: {other:?}"),
        }
    }

    #[test]
    fn input_is_parsed_against_the_legal_set() {
        let legal = vec![
            LegalAction::Pack,
            LegalAction::Bet {
                min: 2,
                max: 4,
                multiple_of: 2,
            },
            LegalAction::Show { cost: 2 },
        ];
        assert_eq!(parse_input("bet 4", &legal), Ok(Action::Bet { amount: 4 }));
        assert_eq!(parse_input("b", &legal), Ok(Action::Bet { amount: 2 }));
        assert_eq!(parse_input("  PACK ", &legal), Ok(Action::Pack));
        assert!(problem(parse_input("bet 3", &legal)).contains("multiple of 2"));
        assert!(problem(parse_input("bet lots", &legal)).contains("not a number"));
        // Not offered: the hand says why (see `a_refused_action_says_the_rule`).
        assert_eq!(
            parse_input("sideshow", &legal),
            Err(InputError::NotOffered("sideshow"))
        );
        assert!(problem(parse_input("dance", &legal)).contains("unknown"));
        assert!(parse_input("", &legal).is_err());
        let swap = vec![
            LegalAction::Swap {
                cards: rules::card::parse_hand(&["As", "Kd", "3h"]).unwrap(),
                cost: 0,
            },
            LegalAction::Keep,
        ];
        assert_eq!(
            parse_input("swap kd", &swap),
            Ok(Action::Swap {
                card: "Kd".parse().unwrap()
            })
        );
        assert!(problem(parse_input("swap 2c", &swap)).contains("do not hold"));
        assert!(problem(parse_input("swap", &swap)).contains("which card"));
    }

    /// A seen player may not ask a blind one for a show: the person is told so, with the
    /// blind seat counted from 1, and asked again.
    #[test]
    fn a_refused_action_says_the_rule() {
        let settings = Settings::new(protocol::Variant::Classic);
        // Dealer 0: seat 1 (the person) acts first, sees, and would ask blind seat 0.
        let (mut hand, _) = Hand::seeded(settings, 2, 0, 3, 0).unwrap();
        hand.apply(1, Action::See).unwrap();
        let mut console = Console {
            input: std::io::Cursor::new("show\nsideshow\nkeep\npack\n"),
            output: Vec::new(),
        };
        let names = ["random-bot".to_string(), "you".to_string()];
        let names = Names {
            names: &names,
            you: Some(1),
        };
        let action = ask_person(&mut console, &hand, DecisionKind::Bet, &names).unwrap();
        assert_eq!(action, Some(Action::Pack));
        let screen = String::from_utf8(console.output).unwrap();
        for said in [
            "Sorry: show is not allowed now: random-bot [1] is blind, and a seen player may not \
             ask a blind one for a show. Try again.",
            "Sorry: sideshow is not allowed now: with two players left there is no sideshow: ask \
             for a show instead. Try again.",
            "Sorry: keep is not allowed now: only Closest to 555 has swaps. Try again.",
        ] {
            assert!(screen.contains(said), "{said:?} not in:\n{screen}");
        }
    }
}
