//! Facts that readers of an event want and that follow from the rules, added to the event's
//! JSON for display (never written to replay files, never sent to bots):
//!
//! - `seat_value` and `target_value` on a `sideshow_compared` whose cards are there: what each
//!   hand is worth, as a show's `revealed` event already says;
//! - `wild` on a Lallan Kallan `dealt` whose cards are there: the card of the odd colour.

use protocol::{Settings, Variant};
use rules::Card;
use serde_json::Value;

/// Adds the display facts above to `event` (an engine event as JSON); other events are left
/// alone, and so is an event whose cards are missing or unreadable.
pub fn annotate(settings: &Settings, event: &mut Value) {
    match event["event"].as_str() {
        Some("sideshow_compared") => {
            for (cards, value) in [
                ("seat_cards", "seat_value"),
                ("target_cards", "target_value"),
            ] {
                if let Some(cards) = cards_of(&event[cards]) {
                    let description =
                        rules::describe(settings.variant, settings.sequence_order, &cards);
                    if let Ok(json) = serde_json::to_value(description) {
                        event[value] = json;
                    }
                }
            }
        }
        Some("dealt") if settings.variant == Variant::LallanKallan => {
            if let Some(wild) =
                cards_of(&event["cards"]).and_then(|cards| wild_card(settings, &cards))
            {
                event["wild"] = Value::String(wild.to_string());
            }
        }
        _ => {}
    }
}

/// Lallan Kallan: the wild card of a live hand (none in a dead hand).
pub fn wild_card(settings: &Settings, cards: &[Card; 3]) -> Option<Card> {
    match rules::describe(settings.variant, settings.sequence_order, cards) {
        rules::HandDescription::Ranked { wild, .. } => wild,
        _ => None,
    }
}

fn cards_of(value: &Value) -> Option<[Card; 3]> {
    let texts = value.as_array()?;
    let cards: Vec<Card> = texts
        .iter()
        .map(|t| t.as_str()?.parse().ok())
        .collect::<Option<_>>()?;
    cards.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_lallan_kallan_deal_names_its_wild_card() {
        let settings = Settings::new(Variant::LallanKallan);
        let mut live = json!({"event": "dealt", "seat": 0, "cards": ["Kh", "Kd", "5s"]});
        annotate(&settings, &mut live);
        assert_eq!(live["wild"], "5s");
        // A dead hand (one colour) has no wild card; a hidden deal is left alone.
        let mut dead = json!({"event": "dealt", "seat": 0, "cards": ["Kh", "Kd", "5h"]});
        annotate(&settings, &mut dead);
        assert!(dead.get("wild").is_none());
        let mut hidden = json!({"event": "dealt", "seat": 1});
        annotate(&settings, &mut hidden);
        assert!(hidden.get("wild").is_none());
        // Other games have no wild card.
        let mut classic = json!({"event": "dealt", "seat": 0, "cards": ["Kh", "Kd", "5s"]});
        annotate(&Settings::new(Variant::Classic), &mut classic);
        assert!(classic.get("wild").is_none());
    }

    #[test]
    fn a_sideshow_gets_both_hand_values() {
        let settings = Settings::new(Variant::Closest555);
        let mut event = json!({"event": "sideshow_compared", "seat": 0, "target": 1, "loser": 1,
            "seat_cards": ["5s", "5h", "4d"], "target_cards": ["Th", "Jd", "Qc"]});
        annotate(&settings, &mut event);
        assert_eq!(
            event["seat_value"],
            json!({"kind": "closest555", "number": 554, "distance": 1})
        );
        assert_eq!(
            event["target_value"],
            json!({"kind": "closest555", "number": 0, "distance": 555})
        );
        // Cards a viewer may not see are absent: no values either.
        let mut hidden = json!({"event": "sideshow_compared", "seat": 0, "target": 1, "loser": 1});
        annotate(&settings, &mut hidden);
        assert!(hidden.get("seat_value").is_none());
    }
}
