//! `arena replay show`: a readable hand history.

use std::fmt::Write;

use serde_json::Value;

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
                let mut event = event.clone();
                if let Some(settings) = &settings {
                    super::annotate(settings, &mut event);
                }
                let line = describe_event(*hand, &event, &Names::replay(&names));
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
                    out.push_str(&crate::bot::indented(stderr, "    | "));
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

fn cards(value: &Value) -> String {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// A hand description (`rules::HandDescription` as JSON) in words. A Closest to 555 number is
/// written with three digits, as RULES.md reads it (10-J-Q reads 000, 2-J-Q 200, J-Q-5 005).
pub fn describe_value(value: &Value) -> String {
    match value["kind"].as_str() {
        Some("ranked") => {
            let mut text = format!(
                "{} {}",
                value["category"].as_str().unwrap_or("?").replace('_', " "),
                cards(&value["cards"])
            );
            if let Some(wild) = value["wild"].as_str() {
                let _ = write!(text, " (wild {wild})");
            }
            text
        }
        Some("closest555") => match value["number"].as_u64() {
            Some(number) => format!("{number:03} (distance {})", value["distance"]),
            None => value.to_string(),
        },
        Some("dead") => "dead".into(),
        _ => value.to_string(),
    }
}

/// One event as a line of text (empty for events not worth a line). `hand` is the record's
/// hand index (from 0); the text numbers hands and seats from 1. Facts added by
/// [`annotate`](super::annotate) (a wild card, sideshow values) are shown when present.
pub fn describe_event(hand: u64, e: &Value, names: &Names) -> String {
    let index = |key: &str| e[key].as_u64().unwrap_or(0) as usize;
    let seat = |key: &str| names.who(index(key));
    // The seat under `key` doing something: `random-bot [2] bets` / `you bet`.
    let does = |key: &str, third: &str, second: &str| names.does(index(key), third, second);
    let valued = |cards_key: &str, value_key: &str| {
        let mut text = cards(&e[cards_key]);
        if !e[value_key].is_null() {
            let _ = write!(text, " ({})", describe_value(&e[value_key]));
        }
        text
    };
    match e["event"].as_str().unwrap_or("") {
        "hand_started" => format!(
            "\nHand {}: {}, boot {}, pot {}",
            hand.saturating_add(1),
            does("dealer", "deals", "deal"),
            e["boot"],
            e["pot"]
        ),
        "dealt" if e["cards"].is_null() => {
            format!("  {} dealt three cards", does("seat", "is", "are"))
        }
        "dealt" => format!(
            "  {} dealt {}{}",
            does("seat", "is", "are"),
            cards(&e["cards"]),
            e["wild"]
                .as_str()
                .map(|wild| format!(" (wild {wild})"))
                .unwrap_or_default()
        ),
        "dead" => format!(
            "  dead hands: {}",
            e["seats"]
                .as_array()
                .map(|a| a
                    .iter()
                    .map(|s| names.who(s.as_u64().unwrap_or(0) as usize))
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        ),
        "redeal" => format!(
            "  every hand dead: redeal {} (pot {})",
            e["redeal"], e["pot"]
        ),
        "saw" if e["cards"].is_null() => format!("  {}", does("seat", "sees", "see")),
        "saw" => format!("  {} {}", does("seat", "sees", "see"), cards(&e["cards"])),
        "swapped" if e["discarded"].is_null() => {
            format!("  {} a card", does("seat", "swaps", "swap"))
        }
        "swapped" => format!(
            "  {} {} for {}",
            does("seat", "swaps", "swap"),
            e["discarded"].as_str().unwrap_or("?"),
            e["drawn"].as_str().unwrap_or("?")
        ),
        "kept" => format!("  {} cards", does("seat", "keeps its", "keep your")),
        "bet" => format!(
            "  {} {}{} (stake {}, pot {})",
            does("seat", "bets", "bet"),
            e["amount"],
            if e["blind"].as_bool() == Some(true) {
                " blind"
            } else {
                ""
            },
            e["stake"],
            e["pot"]
        ),
        "packed" => format!(
            "  {}{}",
            does("seat", "packs", "pack"),
            match e["reason"].as_str() {
                Some("lost_sideshow") => " (lost the sideshow)",
                Some("dead") => " (dead hand)",
                _ => "",
            }
        ),
        "show_asked" => format!(
            "  {} {} for a show against {}",
            does("seat", "pays", "pay"),
            e["cost"],
            seat("against")
        ),
        "sideshow_asked" => format!(
            "  {} {} and {} {} for a sideshow",
            does("seat", "pays", "pay"),
            e["cost"],
            if names.you == Some(index("seat")) {
                "ask"
            } else {
                "asks"
            },
            seat("target")
        ),
        "sideshow_refused" => format!("  {} the sideshow", does("target", "refuses", "refuse")),
        "sideshow_compared" => format!(
            "  sideshow accepted: {} {} vs {} {}; {}",
            seat("seat"),
            valued("seat_cards", "seat_value"),
            seat("target"),
            valued("target_cards", "target_value"),
            does("loser", "loses", "lose")
        ),
        "revealed" => {
            let mut line = format!("  revealed ({}):", e["reason"].as_str().unwrap_or("?"));
            for h in e["hands"].as_array().into_iter().flatten() {
                let _ = write!(
                    line,
                    "\n    {}: {} = {}",
                    names.who(h["seat"].as_u64().unwrap_or(0) as usize),
                    cards(&h["cards"]),
                    describe_value(&h["value"])
                );
            }
            line
        }
        "hand_ended" => {
            let winner_seats: Vec<usize> = e["winners"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|w| w.as_u64().unwrap_or(0) as usize)
                .collect();
            let winners: Vec<String> = winner_seats.iter().map(|&w| names.who(w)).collect();
            // "you take", "a [1] takes", "a [1] and b [2] take"
            let takes = match winner_seats[..] {
                [one] if names.you != Some(one) => "takes",
                _ => "take",
            };
            // Each seat's net, labelled with its bot's name (the seat numbers are in the
            // winners' part), so that a line reads on its own.
            let payoffs: Vec<String> = e["payoffs"]
                .as_array()
                .into_iter()
                .flatten()
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
                    format!("{who} {:+}", p.as_i64().unwrap_or(0))
                })
                .collect();
            format!(
                "  {} {takes} the pot of {} ({}); net: {}",
                winners.join(" and "),
                e["pot"],
                e["reason"].as_str().unwrap_or("?").replace('_', " "),
                payoffs.join(", ")
            )
        }
        other => format!("  {other}: {e}"),
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
            r#"{"type":"event","hand":0,"event":"packed","seat":1,"reason":"packed"}"#,
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"pack","source":"bot","elapsed_ms":1,"bank_ms":1}"#,
            r#"{"type":"event","hand":0,"event":"packed","seat":0,"reason":"packed"}"#,
        ];
        let records: Vec<Record> = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect(l))
            .collect();
        let text = show(&records);
        let packed = describe_event(
            0,
            &serde_json::from_str(lines[2]).unwrap(),
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
            describe_event(2, &serde_json::from_str(event).unwrap(), names)
        };
        let cases = [
            (
                r#"{"event":"hand_started","dealer":0,"boot":1,"pot":3}"#,
                "\nHand 3: you [1] deals, boot 1, pot 3",
                "\nHand 3: you deal, boot 1, pot 3",
            ),
            (
                r#"{"event":"kept","seat":0}"#,
                "  you [1] keeps its cards",
                "  you keep your cards",
            ),
            (
                r#"{"event":"dealt","seat":0,"cards":["As","Kd","2c"]}"#,
                "  you [1] is dealt As Kd 2c",
                "  you are dealt As Kd 2c",
            ),
            (
                r#"{"event":"bet","seat":0,"amount":2,"blind":true,"stake":2,"pot":5}"#,
                "  you [1] bets 2 blind (stake 2, pot 5)",
                "  you bet 2 blind (stake 2, pot 5)",
            ),
            (
                r#"{"event":"sideshow_asked","seat":0,"target":2,"cost":4}"#,
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
