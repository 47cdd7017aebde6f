//! `arena replay show`: a readable hand history.

use std::fmt::Write;

use rules::{Card, Event, HandDescription, PackReason};
use serde::Serialize;

use super::annotate::DisplayFacts;
use super::record::{BotStatus, Record};

/// Renders the whole replay as text. Hands and seats are numbered from 1, as everywhere a
/// person reads them (the records count from 0).
pub fn show(records: &[Record]) -> String {
    let mut out = String::new();
    let mut names: Vec<String> = Vec::new();
    let mut settings = None;
    // A decision's stderr lines, printed under the event that says what its action did
    // (the action's record comes just before its events).
    let mut under_action: Option<String> = None;
    for record in records {
        match record {
            Record::Header(h) => {
                names = h.bots.iter().map(|b| b.name.clone()).collect();
                settings = Some(h.settings);
                let _ = writeln!(
                    out,
                    "{} match: {} seats, {} hands, seed {} (replay v{}, deal {})",
                    h.settings.variant,
                    h.bots.len(),
                    h.hands,
                    h.seed,
                    h.version,
                    h.deal
                );
                for b in &h.bots {
                    let _ = writeln!(
                        out,
                        "  seat {}: {} ({})",
                        b.seat + 1,
                        b.name,
                        b.command.join(" ")
                    );
                }
            }
            Record::Event { hand, event } => {
                let facts = settings
                    .as_ref()
                    .map(|settings| DisplayFacts::of(settings, event))
                    .unwrap_or_default();
                let line = describe_event(*hand, event, &facts, &Names::replay(&names));
                if !line.is_empty() {
                    let _ = writeln!(out, "{line}");
                }
                if let Some(lines) = under_action.take() {
                    out.push_str(&lines);
                }
            }
            // Events say what each action did; only the bot's stderr is added under them.
            Record::Action {
                seat,
                elapsed_ms,
                bank_ms,
                stderr_lines,
                stderr_dropped,
                ..
            } => {
                under_action = decision_stderr(
                    &name(&names, *seat),
                    *elapsed_ms,
                    *bank_ms,
                    stderr_lines,
                    *stderr_dropped,
                );
            }
            Record::Fault {
                hand,
                seat,
                fault,
                detail,
                line,
                stderr,
            } => {
                let _ = writeln!(
                    out,
                    "  ! hand {}: {} fault {fault}: {detail}{}",
                    hand.saturating_add(1),
                    name(&names, *seat),
                    line.as_ref()
                        .map(|l| format!(" (sent: {l})"))
                        .unwrap_or_default()
                );
                if let Some(stderr) = stderr {
                    let _ = writeln!(out, "    its last stderr lines:");
                    out.push_str(&sandbox::indented(stderr, "    | "));
                }
            }
            Record::Bot {
                seat,
                status,
                hand,
                name: said,
                version,
                protocol,
                ..
            } => {
                // What the bot claimed in its hello, in its own fields.
                let hello = said
                    .as_ref()
                    .map(|said| hello_fields(said, version.as_deref(), *protocol));
                let who = name(&names, *seat);
                // Hands are numbered from 1 where people read them.
                let hand = hand.unwrap_or_default().saturating_add(1);
                let line = match (status, hello) {
                    (BotStatus::Started, Some(hello)) => format!("  {who} said hello: {hello}"),
                    (BotStatus::Restarted, Some(hello)) => {
                        format!("  ! {who} restarted before hand {hand}; it said hello: {hello}")
                    }
                    (BotStatus::Disabled, _) => format!(
                        "  ! {who} disabled before hand {hand}: out of restarts, it packs every remaining hand"
                    ),
                    (BotStatus::Exited, _) => continue,
                    (status, None) => format!("  ! {who} {} before hand {hand}", status.name()),
                };
                let _ = writeln!(out, "{line}");
            }
            Record::Result(result) => {
                let _ = writeln!(out, "\nResult after {} hands:", result.hands);
                for s in &result.seats {
                    let _ = writeln!(
                        out,
                        "  {:<20} {:>+8} chips ({:+.3}/hand), {} hands won, {} faults",
                        s.name,
                        s.net,
                        result.chips_per_hand(s.seat),
                        s.hands_won,
                        s.fault_total()
                    );
                }
            }
        }
    }
    out
}

/// The lines printed under an action whose bot wrote to stderr during the decision, or
/// `None` if it wrote nothing (or the replay kept no logs).
fn decision_stderr(
    who: &str,
    elapsed_ms: Option<u64>,
    bank_ms: Option<u64>,
    lines: &[String],
    dropped: u64,
) -> Option<String> {
    if lines.is_empty() && dropped == 0 {
        return None;
    }
    let timing = match (elapsed_ms, bank_ms) {
        (Some(ms), Some(bank)) => format!(" ({ms} ms, bank {bank} ms)"),
        (Some(ms), None) => format!(" ({ms} ms)"),
        _ => String::new(),
    };
    let mut text = format!("    stderr of {who}{timing}:\n");
    for line in lines {
        let _ = writeln!(text, "    | {line}");
    }
    if dropped > 0 {
        let _ = writeln!(text, "    | [{dropped} more lines not kept]");
    }
    Some(text)
}

/// `"name":"my-bot", "version":"1.0", "protocol":1`: a hello's fields as the bot sent them
/// (a field it left out is left out here too).
fn hello_fields(name: &str, version: Option<&str>, protocol: Option<u32>) -> String {
    let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut out = format!("\"name\":{}", quote(name));
    if let Some(version) = version.filter(|v| !v.is_empty()) {
        let _ = write!(out, ", \"version\":{}", quote(version));
    }
    match protocol {
        Some(protocol) => {
            let _ = write!(out, ", \"protocol\":{protocol}");
        }
        None => out.push_str(" (no \"protocol\")"),
    }
    out
}

fn name(names: &[String], seat: usize) -> String {
    Names::replay(names).who(seat)
}

/// How the seats are called in the text: by name with their seat counted from 1
/// (`random-bot [2]`), and the person at the terminal of `arena play` as "you", with the verbs
/// that go with it ("you keep your cards").
pub struct Names<'a> {
    pub names: &'a [String],
    /// The person's seat, in `arena play`.
    pub you: Option<usize>,
}

impl<'a> Names<'a> {
    /// The seats of a replay: every one by name.
    pub fn replay(names: &'a [String]) -> Names<'a> {
        Names { names, you: None }
    }

    /// `you`, `random-bot [2]`, or `seat 2` for a seat without a name.
    pub fn who(&self, seat: usize) -> String {
        if self.you == Some(seat) {
            return "you".into();
        }
        match self.names.get(seat) {
            Some(n) => format!("{n} [{}]", seat + 1),
            None => format!("seat {}", seat + 1),
        }
    }

    /// `who` and the verb that agrees with it: `random-bot [2] keeps its` / `you keep your`
    /// from `verb(seat, "keeps its", "keep your")`.
    fn does(&self, seat: usize, third_person: &str, second_person: &str) -> String {
        let verb = if self.you == Some(seat) {
            second_person
        } else {
            third_person
        };
        format!("{} {verb}", self.who(seat))
    }
}

fn cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A value's name as the replay writes it (`pot_limit`, `lost_sideshow`): one word for people,
/// the same word as in the file.
fn written<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "?".into(),
    }
}

/// A hand description in words. A Closest to 555 number is written with three digits, as
/// RULES.md reads it (10-J-Q reads 000, 2-J-Q 200, J-Q-5 005).
pub fn describe_value(value: &HandDescription) -> String {
    match value {
        HandDescription::Ranked {
            category,
            cards: deciding,
            wild,
        } => {
            let mut text = format!(
                "{} {}",
                written(category).replace('_', " "),
                cards(deciding)
            );
            if let Some(wild) = wild {
                let _ = write!(text, " (wild {wild})");
            }
            text
        }
        HandDescription::Closest555 { number, distance } => {
            format!("{number:03} (distance {distance})")
        }
        HandDescription::Dead => "dead".into(),
    }
}

/// One event as a line of text (empty for events not worth a line). `hand` is the record's
/// hand index (from 0); the text numbers hands and seats from 1. The event's display `facts`
/// (a wild card, sideshow values; [`DisplayFacts`]) are shown when present.
pub fn describe_event(hand: u64, e: &Event, facts: &DisplayFacts, names: &Names) -> String {
    let who = |seat: usize| names.who(seat);
    // The seat doing something: `random-bot [2] bets` / `you bet`.
    let does = |seat: usize, third: &str, second: &str| names.does(seat, third, second);
    let valued = |shown: &Option<[Card; 3]>, value: &Option<HandDescription>| {
        let mut text = shown.as_ref().map(|c| cards(c)).unwrap_or_default();
        if let Some(value) = value {
            let _ = write!(text, " ({})", describe_value(value));
        }
        text
    };
    match e {
        Event::HandStarted {
            dealer, boot, pot, ..
        } => format!(
            "\nHand {}: {}, boot {boot}, pot {pot}",
            hand.saturating_add(1),
            does(*dealer, "deals", "deal"),
        ),
        Event::Dealt {
            seat, cards: None, ..
        } => format!("  {} dealt three cards", does(*seat, "is", "are")),
        Event::Dealt {
            seat,
            cards: Some(dealt),
            ..
        } => format!(
            "  {} dealt {}{}",
            does(*seat, "is", "are"),
            cards(dealt),
            facts
                .wild
                .map(|wild| format!(" (wild {wild})"))
                .unwrap_or_default()
        ),
        Event::Dead { seats } => format!(
            "  dead hands: {}",
            seats.iter().map(|&s| who(s)).collect::<Vec<_>>().join(", ")
        ),
        Event::Redeal { redeal, pot } => {
            format!("  every hand dead: redeal {redeal} (pot {pot})")
        }
        Event::Saw { seat, cards: None } => format!("  {}", does(*seat, "sees", "see")),
        Event::Saw {
            seat,
            cards: Some(seen),
        } => format!("  {} {}", does(*seat, "sees", "see"), cards(seen)),
        Event::Swapped {
            seat,
            discarded: None,
            ..
        } => format!("  {} a card", does(*seat, "swaps", "swap")),
        Event::Swapped {
            seat,
            discarded: Some(discarded),
            drawn,
            ..
        } => format!(
            "  {} {discarded} for {}",
            does(*seat, "swaps", "swap"),
            drawn.map_or_else(|| "?".to_string(), |c| c.to_string())
        ),
        Event::Kept { seat } => format!("  {} cards", does(*seat, "keeps its", "keep your")),
        Event::Bet {
            seat,
            amount,
            blind,
            stake,
            pot,
        } => format!(
            "  {} {amount}{} (stake {stake}, pot {pot})",
            does(*seat, "bets", "bet"),
            if *blind { " blind" } else { "" },
        ),
        Event::Packed { seat, reason } => format!(
            "  {}{}",
            does(*seat, "packs", "pack"),
            match reason {
                PackReason::LostSideshow => " (lost the sideshow)",
                PackReason::Chose => "",
            }
        ),
        Event::ShowAsked {
            seat,
            against,
            cost,
            ..
        } => format!(
            "  {} {cost} for a show against {}",
            does(*seat, "pays", "pay"),
            who(*against)
        ),
        Event::SideshowAsked {
            seat, target, cost, ..
        } => format!(
            "  {} {cost} and {} {} for a sideshow",
            does(*seat, "pays", "pay"),
            if names.you == Some(*seat) {
                "ask"
            } else {
                "asks"
            },
            who(*target)
        ),
        Event::SideshowRefused { target, .. } => {
            format!("  {} the sideshow", does(*target, "refuses", "refuse"))
        }
        Event::SideshowCompared {
            seat,
            target,
            loser,
            seat_cards,
            target_cards,
        } => format!(
            "  sideshow accepted: {} {} vs {} {}; {}",
            who(*seat),
            valued(seat_cards, &facts.seat_value),
            who(*target),
            valued(target_cards, &facts.target_value),
            does(*loser, "loses", "lose")
        ),
        Event::Revealed { reason, hands } => {
            let mut line = format!("  revealed ({}):", written(reason));
            for h in hands {
                let _ = write!(
                    line,
                    "\n    {}: {} = {}",
                    who(h.seat),
                    cards(&h.cards),
                    describe_value(&h.value)
                );
            }
            line
        }
        Event::HandEnded {
            reason,
            winners: winner_seats,
            pot,
            payoffs,
        } => {
            let winners: Vec<String> = winner_seats.iter().map(|&w| who(w)).collect();
            // "you take", "a [1] takes", "a [1] and b [2] take"
            let takes = match winner_seats[..] {
                [one] if names.you != Some(one) => "takes",
                _ => "take",
            };
            // Each seat's net, labelled with its bot's name (the seat numbers are in the
            // winners' part), so that a line reads on its own.
            let payoffs: Vec<String> = payoffs
                .iter()
                .enumerate()
                .map(|(seat, p)| {
                    let who = if names.you == Some(seat) {
                        "you".to_string()
                    } else {
                        names
                            .names
                            .get(seat)
                            .cloned()
                            .unwrap_or_else(|| format!("seat {}", seat + 1))
                    };
                    format!("{who} {p:+}")
                })
                .collect();
            format!(
                "  {} {takes} the pot of {pot} ({}); net: {}",
                winners.join(" and "),
                written(reason).replace('_', " "),
                payoffs.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot(status: BotStatus, name: Option<&str>, protocol: Option<u32>) -> Record {
        Record::Bot {
            seat: 0,
            status,
            hand: Some(3),
            name: name.map(String::from),
            version: name.map(|_| "1.0".to_string()),
            protocol,
            elapsed_ms: Some(12),
            exit: None,
            stderr_bytes: None,
        }
    }

    #[test]
    fn a_decisions_stderr_is_shown_under_its_action() {
        let header = r#"{"type":"header","format":"teenpatti-arena-replay","version":1,"protocol":1,"deal":"d","arena_version":"0","settings":{"variant":"classic","boot":1,"max_stake":64,"pot_limit":1024,"blind_limit":4,"sideshow":true,"swap_cost":0,"sequence_order":"a23-high"},"seed":1,"hands":1,"first_hand":0,"first_dealer":0,"time":{"startup_ms":1,"decision_ms":1,"bank_ms":1},"bots":[{"seat":0,"name":"a","command":["a"]},{"seat":1,"name":"b","command":["b"]}]}"#;
        let lines = [
            header,
            r#"{"type":"action","hand":0,"seat":1,"kind":"bet","action":"pack","source":"bot","elapsed_ms":12,"bank_ms":9988,"stderr_lines":["thinking about request 1"],"stderr_dropped":2}"#,
            r#"{"type":"event","hand":0,"event":"packed","seat":1,"reason":"chose"}"#,
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"pack","source":"bot","elapsed_ms":1,"bank_ms":1}"#,
            r#"{"type":"event","hand":0,"event":"packed","seat":0,"reason":"chose"}"#,
        ];
        let records: Vec<Record> = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect(l))
            .collect();
        let text = show(&records);
        let Record::Event { event, .. } = &records[2] else {
            panic!("an event record");
        };
        let packed = describe_event(
            0,
            event,
            &DisplayFacts::default(),
            &Names::replay(&["a".into(), "b".into()]),
        );
        assert!(
            text.contains(&format!(
                "{packed}\n    stderr of b [2] (12 ms, bank 9988 ms):\n    | thinking about request 1\n    | [2 more lines not kept]\n"
            )),
            "{text}"
        );
        assert_eq!(text.matches("stderr of").count(), 1, "{text}");
    }

    /// Record hand 3 is the fourth hand, seat 0 the first seat: people read hands and seats
    /// numbered from 1.
    #[test]
    fn bot_records_show_the_hello_as_the_bot_sent_it() {
        let text = show(&[
            bot(BotStatus::Started, Some("my-bot"), Some(1)),
            bot(BotStatus::Restarted, Some("my-bot"), None),
            bot(BotStatus::Disabled, None, None),
            bot(BotStatus::Exited, None, None),
        ]);
        assert_eq!(
            text,
            "  seat 1 said hello: \"name\":\"my-bot\", \"version\":\"1.0\", \"protocol\":1\n\
             \x20 ! seat 1 restarted before hand 4; it said hello: \"name\":\"my-bot\", \"version\":\"1.0\" (no \"protocol\")\n\
             \x20 ! seat 1 disabled before hand 4: out of restarts, it packs every remaining hand\n"
        );
    }

    /// Seats are counted from 1; the person of `arena play` is "you", with its verbs.
    #[test]
    fn seats_read_from_1_and_the_person_is_you() {
        let names = [
            "you".to_string(),
            "random-bot".to_string(),
            "mc".to_string(),
        ];
        let table = Names::replay(&names);
        let play = Names {
            names: &names,
            you: Some(0),
        };
        let said = |names: &Names, event: &str| {
            let event: Event = serde_json::from_str(event).expect(event);
            describe_event(2, &event, &DisplayFacts::default(), names)
        };
        let cases = [
            (
                r#"{"event":"hand_started","dealer":0,"seats":3,"boot":1,"pot":3,"stake":1}"#,
                "\nHand 3: you [1] deals, boot 1, pot 3",
                "\nHand 3: you deal, boot 1, pot 3",
            ),
            (
                r#"{"event":"kept","seat":0}"#,
                "  you [1] keeps its cards",
                "  you keep your cards",
            ),
            (
                r#"{"event":"dealt","seat":0,"redeal":0,"cards":["As","Kd","2c"]}"#,
                "  you [1] is dealt As Kd 2c",
                "  you are dealt As Kd 2c",
            ),
            (
                r#"{"event":"bet","seat":0,"amount":2,"blind":true,"stake":2,"pot":5}"#,
                "  you [1] bets 2 blind (stake 2, pot 5)",
                "  you bet 2 blind (stake 2, pot 5)",
            ),
            (
                r#"{"event":"sideshow_asked","seat":0,"target":2,"cost":4,"pot":9}"#,
                "  you [1] pays 4 and asks mc [3] for a sideshow",
                "  you pay 4 and ask mc [3] for a sideshow",
            ),
            (
                r#"{"event":"sideshow_refused","seat":1,"target":0}"#,
                "  you [1] refuses the sideshow",
                "  you refuse the sideshow",
            ),
            (
                r#"{"event":"hand_ended","winners":[0],"pot":6,"reason":"show","payoffs":[3,-3,0]}"#,
                "  you [1] takes the pot of 6 (show); net: you +3, random-bot -3, mc +0",
                "  you take the pot of 6 (show); net: you +3, random-bot -3, mc +0",
            ),
            (
                r#"{"event":"hand_ended","winners":[1,2],"pot":6,"reason":"pot_limit","payoffs":[-2,1,1]}"#,
                "  random-bot [2] and mc [3] take the pot of 6 (pot limit); net: you -2, random-bot +1, mc +1",
                "  random-bot [2] and mc [3] take the pot of 6 (pot limit); net: you -2, random-bot +1, mc +1",
            ),
        ];
        for (event, in_replay, in_play) in cases {
            assert_eq!(said(&table, event), in_replay);
            assert_eq!(said(&play, event), in_play);
        }
    }
}
