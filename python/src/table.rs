//! A table from Python's words: the game's name and the `[table]` settings of a tournament
//! file, by the same names (`boot`, `max_stake`, ...), checked by the engine's own
//! `Settings::validate`. Every refusal names the setting and what it accepts.

use rules::{SequenceOrder, Settings, Variant};

/// The names a tournament file's `[table]` section takes, in its order.
pub const SETTING_NAMES: [&str; 8] = [
    "boot",
    "max_stake",
    "pot_limit",
    "sideshow",
    "sequence_order",
    "blind_limit",
    "swap_cost",
    "max_turns",
];

/// One setting's value as Python gave it (the binding converts; this module judges).
#[derive(Clone, Debug)]
pub enum Value {
    Int(i128),
    Bool(bool),
    Text(String),
}

impl Value {
    fn describe(&self) -> String {
        match self {
            Value::Int(n) => format!("the number {n}"),
            Value::Bool(b) => format!("the bool {}", if *b { "True" } else { "False" }),
            Value::Text(t) => format!("the string {t:?}"),
        }
    }
}

/// Settings for `game` at `seats` with the given overrides, or a message naming the fault.
pub fn settings(game: &str, seats: usize, table: &[(String, Value)]) -> Result<Settings, String> {
    let variant: Variant = game
        .parse()
        .map_err(|e: rules::UnknownVariant| e.to_string())?;
    let mut settings = Settings::new(variant);
    for (name, value) in table {
        set(&mut settings, name, value)?;
    }
    settings.validate(seats).map_err(|e| e.to_string())?;
    Ok(settings)
}

fn set(settings: &mut Settings, name: &str, value: &Value) -> Result<(), String> {
    let wrong = |expected: &str| {
        format!(
            "setting {name}: expected {expected}, got {}",
            value.describe()
        )
    };
    let chips = |value: &Value| match value {
        Value::Int(n) => u64::try_from(*n).map_err(|_| wrong("a whole number of chips >= 0")),
        _ => Err(wrong("a whole number of chips")),
    };
    let count = |value: &Value| match value {
        Value::Int(n) => {
            u32::try_from(*n).map_err(|_| wrong("a whole number from 0 to 4294967295"))
        }
        _ => Err(wrong("a whole number")),
    };
    match name {
        "boot" => settings.boot = chips(value)?,
        "max_stake" => settings.max_stake = chips(value)?,
        "pot_limit" => settings.pot_limit = chips(value)?,
        "swap_cost" => settings.swap_cost = chips(value)?,
        "blind_limit" => settings.blind_limit = count(value)?,
        "max_turns" => settings.max_turns = count(value)?,
        "sideshow" => match value {
            Value::Bool(b) => settings.sideshow = *b,
            _ => return Err(wrong("True or False")),
        },
        "sequence_order" => match value {
            Value::Text(t) => {
                settings.sequence_order = t.parse::<SequenceOrder>().map_err(|e| e.to_string())?
            }
            _ => return Err(wrong("\"a23-high\" or \"akq-high\"")),
        },
        _ => {
            return Err(format!(
                "unknown table setting {name:?}; the settings are {}",
                SETTING_NAMES.join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_tournament_file_and_faults_name_the_setting() {
        let s = settings(
            "closest-555",
            3,
            &[
                ("boot".into(), Value::Int(2)),
                ("sequence_order".into(), Value::Text("akq-high".into())),
                ("sideshow".into(), Value::Bool(false)),
            ],
        )
        .unwrap();
        assert_eq!(
            (s.boot, s.sequence_order, s.sideshow),
            (2, SequenceOrder::AkqHigh, false)
        );
        let err = settings("classic", 2, &[("bot".into(), Value::Int(1))]).unwrap_err();
        assert!(
            err.contains("unknown table setting \"bot\"") && err.contains("max_stake"),
            "{err}"
        );
        let err = settings("classic", 2, &[("boot".into(), Value::Int(-1))]).unwrap_err();
        assert!(err.starts_with("setting boot:"), "{err}");
        let err = settings("classic", 2, &[("boot".into(), Value::Int(0))]).unwrap_err();
        assert!(err.starts_with("setting boot:"), "{err}");
        let err = settings("closest-555", 11, &[]).unwrap_err();
        assert!(err.contains("2 to 10"), "{err}");
        let err = settings("poker", 2, &[]).unwrap_err();
        assert!(err.contains("closest-555"), "{err}");
    }
}
