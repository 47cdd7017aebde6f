//! `arena play`: a person at the terminal against bots.
//!
//! The person sits in one seat; the bots are ordinary bot processes spoken to through the
//! protocol. The person sees exactly what a bot in that seat would: their own cards, public
//! actions, and cards revealed to them. Bad input is asked again, with the rule that refused
//! it; end of input packs and ends. Hands and seats are counted from 1, as people count them.

mod refused;

use std::io::{BufRead, Write};
use std::time::Duration;

use protocol::{
    Action, ArenaMessage, DecisionKind, Hello, LegalAction, MatchEnd, PROTOCOL_VERSION, Request,
    Settings, TimeLimits,
};
use rules::{Card, Event, Hand};

use crate::bot::BotSpec;
use crate::referee::mix_draw::MixDraws;
use crate::referee::{Connection, fallback};
use crate::replay::{DisplayFacts, Names, describe_event, describe_value};

/// The person's side of the table: where input comes from and output goes.
pub struct Console<R, W> {
    pub input: R,
    pub output: W,
}

/// One game at the terminal.
pub struct PlayConfig {
    pub settings: Settings,
    pub hands: u64,
    pub seed: u64,
    /// The person's seat (from 0, as the engine counts).
    pub seat: usize,
    /// Bots in seat order, skipping the person's seat.
    pub bots: Vec<BotSpec>,
    pub time: TimeLimits,
}

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
                crate::quote::quoted(other)
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
                Some(n) => n
                    .parse::<u64>()
                    .map_err(|_| format!("{} is not a number of chips", crate::quote::quoted(n)))?,
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

/// Plays the game. Returns the person's net chips.
pub async fn play<R: BufRead, W: Write>(
    config: &PlayConfig,
    console: &mut Console<R, W>,
) -> anyhow::Result<i64> {
    let n = config.bots.len() + 1;
    config.settings.validate(n)?;
    let me = config.seat;
    let bot_seats: Vec<usize> = (0..n).filter(|&s| s != me).collect();
    let mut names: Vec<String> = vec![String::new(); n];
    names[me] = "you".into();
    for (spec, &seat) in config.bots.iter().zip(&bot_seats) {
        names[seat] = spec.name.clone();
    }
    let mut connections: Vec<Option<Connection>> = (0..n).map(|_| None).collect();
    let mut not_started = 0;
    for (spec, &seat) in config.bots.iter().zip(&bot_seats) {
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            game: config.settings.variant,
            settings: config.settings,
            seat,
            seats: n,
            hands: config.hands,
            first_hand: 0,
            seed: crate::referee::hello_seed(config.seed, seat),
            players: names.clone(),
            time: config.time,
        };
        match Connection::start(spec, &hello, None, None).await {
            Ok(c) => connections[seat] = Some(c),
            Err(Ok(spawn)) => return Err(spawn.into()),
            Err(Err(fault)) => {
                // A game against a bot that cannot play teaches nothing: say why, and stop.
                not_started += 1;
                writeln!(
                    console.output,
                    "{} did not start: {} fault: {}",
                    spec.name, fault.kind, fault.detail
                )?;
                write!(
                    console.output,
                    "{}",
                    crate::bot::stderr_block(fault.stderr.as_deref(), "  ")
                )?;
                let cwd = std::env::current_dir().unwrap_or_default();
                let paths_from = crate::bot_command::PathBase::current_dir(&cwd);
                if let Some(note) = crate::bot_command::missing_file_note(&spec.argv, &paths_from) {
                    writeln!(console.output, "  note: {note}")?;
                }
            }
        }
    }
    if not_started > 0 {
        for c in connections.into_iter().flatten() {
            c.close(Duration::ZERO).await;
        }
        return Err(crate::exit::Exit::new(
            crate::exit::ExitKind::BotDisabled,
            format!(
                "{not_started} bot(s) did not start (see above); `arena check-bot -- CMD` \
                 checks a bot on its own"
            ),
        )
        .into());
    }
    writeln!(
        console.output,
        "{} with {} {}. You are seat {}. Type `help` at any prompt, `quit` to leave.",
        config.settings.variant,
        n - 1,
        if n - 1 == 1 { "bot" } else { "bots" },
        me + 1
    )?;
    let mut total = 0i64;
    let mut next_id = 1;
    let mut quit = false;
    // The draws of the bots' mixed answers, one stream per seat, as in a match.
    // The seats already told that their stdout carries only protocol lines.
    let mut hinted = vec![false; n];
    let mut draws: Vec<MixDraws> = (0..n)
        .map(|seat| MixDraws::new(config.seed, seat, None))
        .collect();
    for h in 0..config.hands {
        if quit {
            break;
        }
        let dealer = (h as usize) % n;
        let (mut hand, events) = Hand::seeded(config.settings, n, dealer, config.seed, h)?;
        let mut forced = vec![false; n];
        show_events(
            &mut console.output,
            h,
            &events,
            &Viewer {
                me,
                settings: &config.settings,
                names: &names,
            },
            &mut connections,
        )?;
        while let Some(decision) = hand.to_act() {
            let seat = decision.seat;
            let action = if seat == me {
                if quit {
                    fallback(decision.kind)
                } else {
                    let names = Names {
                        names: &names,
                        you: Some(me),
                    };
                    match ask_person(console, &hand, decision.kind, &names)? {
                        Some(action) => action,
                        None => {
                            quit = true;
                            fallback(decision.kind)
                        }
                    }
                }
            } else {
                let request = Request::from_hand(
                    &hand,
                    h,
                    decision.kind,
                    seat,
                    next_id,
                    config.time.decision_ms,
                    0,
                );
                next_id += 1;
                // As in a match: after a fault the arena plays the bot's seat for the rest of
                // the hand, and a bot that stopped working is not asked again.
                let answer = match connections[seat].as_mut() {
                    Some(c) if !forced[seat] => match c.ask(&request).await {
                        Ok(asked) => match asked.resolve(&request.legal, &mut draws[seat]) {
                            Ok((action, _)) => {
                                // Said here; the hand below plays the fallback for it.
                                if let Some(why) =
                                    protocol::explain::refusal(&action, &request.legal)
                                {
                                    writeln!(
                                        console.output,
                                        "  ! {} fault (illegal): {why}",
                                        names[seat]
                                    )?;
                                }
                                Some(action)
                            }
                            Err(fault) => {
                                // The arena plays the fallback for it, as for an illegal
                                // action.
                                writeln!(
                                    console.output,
                                    "  ! {} fault (illegal): {}",
                                    names[seat], fault.detail
                                )?;
                                None
                            }
                        },
                        Err(fault) => {
                            writeln!(
                                console.output,
                                "  ! {} fault ({}): {}",
                                names[seat], fault.kind, fault.detail
                            )?;
                            // Said once a bot: the person may be the bot's author, and the
                            // same print would fault every hand.
                            if crate::check_bot::stdout_text::is_text_on_stdout(&fault)
                                && !hinted[seat]
                            {
                                hinted[seat] = true;
                                writeln!(
                                    console.output,
                                    "    note: {}",
                                    crate::check_bot::stdout_text::HINT
                                )?;
                            }
                            if fault.broken
                                && let Some(c) = connections[seat].take()
                            {
                                let exit = c.close(Duration::ZERO).await;
                                writeln!(
                                    console.output,
                                    "  ! {} stopped working; the arena plays its seat from now on",
                                    names[seat]
                                )?;
                                write!(
                                    console.output,
                                    "{}",
                                    crate::bot::stderr_block(
                                        exit.stderr.excerpt().as_deref(),
                                        "    "
                                    )
                                )?;
                            }
                            None
                        }
                    },
                    _ => None,
                };
                if answer.is_none() {
                    forced[seat] = true;
                }
                answer.unwrap_or(fallback(decision.kind))
            };
            // A bot's illegal answer changes nothing; the arena plays the fallback instead.
            let events = hand.apply(seat, action).unwrap_or_else(|_| {
                forced[seat] = true;
                hand.apply(seat, fallback(decision.kind))
                    .expect("pack, keep and refuse are always legal for their decision")
            });
            show_events(
                &mut console.output,
                h,
                &events,
                &Viewer {
                    me,
                    settings: &config.settings,
                    names: &names,
                },
                &mut connections,
            )?;
        }
        let net = hand.payoffs().expect("over")[me];
        total += net;
        writeln!(
            console.output,
            "You {} {} {} this hand; {total:+} in all.\n",
            if net >= 0 { "win" } else { "lose" },
            net.abs(),
            if net.abs() == 1 { "chip" } else { "chips" }
        )?;
    }
    for mut c in connections.into_iter().flatten() {
        c.queue(&ArenaMessage::MatchEnd(MatchEnd {
            hands: config.hands,
            totals: vec![0; n],
        }));
        c.close(Duration::from_millis(500)).await;
    }
    // The seed only now: knowing it during the game would show the bots' cards.
    writeln!(
        console.output,
        "Game over: {total:+} chips. Seed {} (--seed deals these hands again).",
        config.seed
    )?;
    Ok(total)
}

/// Who reads the events at the terminal: the person's seat, the game and the seats' names.
struct Viewer<'a> {
    me: usize,
    settings: &'a Settings,
    names: &'a [String],
}

fn show_events<W: Write>(
    out: &mut W,
    hand: u64,
    events: &[Event],
    viewer: &Viewer,
    connections: &mut [Option<Connection>],
) -> std::io::Result<()> {
    let blind_start = viewer.settings.variant.has_blind_play();
    for event in events {
        for (seat, c) in connections.iter_mut().enumerate() {
            if let Some(c) = c {
                c.queue(&ArenaMessage::Event {
                    hand,
                    event: event.for_seat(seat, blind_start),
                });
            }
        }
        let mine = event.for_seat(viewer.me, blind_start);
        // The wild card from the deal on, and both values at a sideshow the person was in.
        let facts = DisplayFacts::of(viewer.settings, &mine);
        let names = Names {
            names: viewer.names,
            you: Some(viewer.me),
        };
        let line = describe_event(hand, &mine, &facts, &names);
        if !line.is_empty() {
            writeln!(out, "{}", line.trim_start_matches('\n'))?;
        }
    }
    Ok(())
}

/// Asks until the person types a legal action. `None` at end of input.
fn ask_person<R: BufRead, W: Write>(
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
