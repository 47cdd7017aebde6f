//! Facts that readers of an event want and that follow from the rules, shown beside the event
//! (never written to replay files, never sent to bots):
//!
//! - `seat_value` and `target_value` on a `sideshow_compared` whose cards are there: what each
//!   hand is worth, as a show's `revealed` event already says;
//! - `wild` on a Lallan Kallan `dealt` whose cards are there: the card of the odd colour.

use protocol::{Settings, Variant};
use rules::{Card, Event, HandDescription};
use serde::Serialize;

use super::Record;

/// The display facts of one event; all absent for most events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DisplayFacts {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_value: Option<HandDescription>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_value: Option<HandDescription>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wild: Option<Card>,
}

impl DisplayFacts {
    /// The facts above for `event` under `settings`: none for other events, and none for an
    /// event whose cards the reader may not see.
    pub fn of(settings: &Settings, event: &Event) -> DisplayFacts {
        let describe =
            |cards: &[Card; 3]| rules::describe(settings.variant, settings.sequence_order, cards);
        match event {
            Event::SideshowCompared {
                seat_cards,
                target_cards,
                ..
            } => DisplayFacts {
                seat_value: seat_cards.as_ref().map(describe),
                target_value: target_cards.as_ref().map(describe),
                wild: None,
            },
            Event::Dealt {
                cards: Some(cards), ..
            } if settings.variant == Variant::LallanKallan => DisplayFacts {
                wild: wild_card(settings, cards),
                ..DisplayFacts::default()
            },
            _ => DisplayFacts::default(),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == DisplayFacts::default()
    }
}

/// A record's JSON line with its event's display facts as extra fields at the end, for pages
/// that show them; `None` when the record is not an event or its event has none (the record's
/// own line is then what they show).
pub fn annotated_line(settings: &Settings, record: &Record) -> Option<String> {
    let Record::Event { event, .. } = record else {
        return None;
    };
    let facts = DisplayFacts::of(settings, event);
    if facts.is_empty() {
        return None;
    }
    let line = serde_json::to_string(record).ok()?;
    let extra = serde_json::to_string(&facts).ok()?;
    // `{...record...}` + `{...facts...}` -> `{...record...,...facts...}`; neither is empty.
    Some(format!(
        "{},{}",
        line.strip_suffix('}')?,
        extra.strip_prefix('{')?
    ))
}

/// A replay line (a record's JSON) with its event's display facts, as [`annotated_line`];
/// `Ok(None)` when it gets none. Only the lines of events that can have facts are parsed (a
/// report's replay pages and the live view pass every line here, and most are bets); a bad
/// one of those is an error.
pub fn annotate_line(settings: &Settings, line: &str) -> serde_json::Result<Option<String>> {
    if !(line.contains(r#""event":"dealt""#) || line.contains(r#""event":"sideshow_compared""#)) {
        return Ok(None);
    }
    let record: Record = serde_json::from_str(line)?;
    Ok(annotated_line(settings, &record))
}

/// Lallan Kallan: the wild card of a live hand (none in a dead hand).
pub fn wild_card(settings: &Settings, cards: &[Card; 3]) -> Option<Card> {
    match rules::describe(settings.variant, settings.sequence_order, cards) {
        rules::HandDescription::Ranked { wild, .. } => wild,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cards(text: [&str; 3]) -> [Card; 3] {
        text.map(|c| c.parse().unwrap())
    }

    fn dealt(cards: Option<[Card; 3]>) -> Event {
        Event::Dealt {
            seat: 0,
            redeal: 0,
            cards,
        }
    }

    #[test]
    fn a_lallan_kallan_deal_names_its_wild_card() {
        let settings = Settings::new(Variant::LallanKallan);
        let live = DisplayFacts::of(&settings, &dealt(Some(cards(["Kh", "Kd", "5s"]))));
        assert_eq!(live.wild, Some("5s".parse().unwrap()));
        // A dead hand (one colour) has no wild card; a hidden deal is left alone.
        let dead = DisplayFacts::of(&settings, &dealt(Some(cards(["Kh", "Kd", "5h"]))));
        assert!(dead.is_empty());
        assert!(DisplayFacts::of(&settings, &dealt(None)).is_empty());
        // Other games have no wild card.
        let classic = Settings::new(Variant::Classic);
        assert!(DisplayFacts::of(&classic, &dealt(Some(cards(["Kh", "Kd", "5s"])))).is_empty());
    }

    #[test]
    fn a_sideshow_gets_both_hand_values() {
        let settings = Settings::new(Variant::Closest555);
        let compared = |seat_cards, target_cards| Event::SideshowCompared {
            seat: 0,
            target: 1,
            loser: 1,
            seat_cards,
            target_cards,
        };
        let event = compared(
            Some(cards(["5s", "5h", "4d"])),
            Some(cards(["Th", "Jd", "Qc"])),
        );
        let record = Record::Event { hand: 2, event };
        let line = annotated_line(&settings, &record).expect("facts");
        let json: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(
            json["seat_value"],
            json!({"kind": "closest555", "number": 554, "distance": 1})
        );
        assert_eq!(
            json["target_value"],
            json!({"kind": "closest555", "number": 0, "distance": 555})
        );
        // The record's own fields come first, as written, then the facts.
        assert!(
            line.starts_with(r#"{"type":"event","hand":2,"event":"sideshow_compared","seat":0,"#),
            "{line}"
        );
        // Cards a viewer may not see are absent: no values either, and no line of its own.
        let hidden = Record::Event {
            hand: 2,
            event: compared(None, None),
        };
        assert_eq!(annotated_line(&settings, &hidden), None);
        // From the line as written: the same, and other lines are left alone.
        let written = serde_json::to_string(&record).unwrap();
        assert_eq!(annotate_line(&settings, &written).unwrap(), Some(line));
        let bet = r#"{"type":"event","hand":2,"event":"bet","seat":0,"amount":2,"blind":false,"stake":2,"pot":4}"#;
        assert_eq!(annotate_line(&settings, bet).unwrap(), None);
        assert!(annotate_line(&settings, r#"{"type":"event","event":"dealt"}"#).is_err());
    }
}
