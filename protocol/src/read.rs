//! Reading what a bot writes: its hello and its answers, field by field, so that a refused line
//! is explained in the protocol's own words (`"amount":2.5 is not a whole number`), never in
//! the words of a Rust parser.
//!
//! One rule for numbers, the same as JSON Schema's `integer`: a number is read as the whole
//! number it equals. `7`, `7.0` and `7e0` are all 7; `7.5` is refused. A number written with a
//! fraction or an exponent is read as a double-precision float first (as JSON Schema
//! validators read it), so write plain integers to be exact. Numbers are echoed in errors
//! exactly as the bot wrote them (`18446744073709551616`, not `1.8446744073709552e19`).

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::message::{Answer, BotHello};
use crate::mix::{MAX_MIX_ENTRIES, MixAnswer, MixEntry, Reply, SUM_TOLERANCE};
use rules::{Action, Card};

/// The byte order mark some Windows tools put at the start of a UTF-8 stream.
const BOM: char = '\u{FEFF}';

/// Longest piece of a value echoed in an explanation (bytes).
const ECHO_BYTES: usize = 60;

/// Why a bot's line was refused, in the protocol's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// What is wrong: every problem found, separated by `; `.
    pub message: String,
    /// The line's `id`, when it had a readable one (a late answer of the wrong shape is still
    /// recognised by its id).
    pub id: Option<u64>,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LineError {}

fn error(message: impl Into<String>) -> LineError {
    LineError {
        message: message.into(),
        id: None,
    }
}

/// The members of one JSON object, in the order written, each value as its exact text.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Fields<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Fields<'de>, M::Error> {
                let mut fields = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value: &'de RawValue = map.next_value()?;
                    fields.push((key, value));
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(Members)
    }
}

impl<'a> Fields<'a> {
    /// Reads `line` as one JSON object: not JSON, not an object or a byte order mark is an
    /// error.
    fn read(line: &'a str) -> Result<Fields<'a>, LineError> {
        if line.starts_with(BOM) {
            return Err(error(
                "the line starts with a UTF-8 byte order mark (EF BB BF); write plain UTF-8",
            ));
        }
        let start = line.trim_start_matches([' ', '\t', '\r', '\n']);
        if start.is_empty() {
            return Err(error("an empty line; expected one JSON object"));
        }
        if !start.starts_with('{') {
            // Valid JSON of another kind (an array, a number, a string) or not JSON at all.
            return Err(match serde_json::from_str::<serde::de::IgnoredAny>(line) {
                Ok(_) => error(format!(
                    "{} is not a JSON object; expected one object {{...}} per line",
                    kind_of(start)
                )),
                Err(e) => error(format!("not JSON ({e}); expected one JSON object")),
            });
        }
        serde_json::from_str(line)
            .map_err(|e| error(format!("not JSON ({e}); expected one JSON object")))
    }

    /// Refuses a line that gives one of `keys` twice (a JSON value would silently keep the
    /// last; other fields are ignored anyway, twice or not).
    fn once(&self, keys: &[&str]) -> Result<(), LineError> {
        for key in keys {
            if self.0.iter().filter(|(k, _)| k == key).count() > 1 {
                return Err(error(format!(
                    "{} is given twice; give each field once",
                    quote(key)
                )));
            }
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.get())
    }
}

/// A JSON value's kind and, for scalars, its text: `the string "7"`, `the number 2.5`, `null`.
fn describe(raw: &str) -> String {
    match raw.as_bytes().first() {
        Some(b'"') => format!("the string {}", echo(raw)),
        Some(b'-' | b'0'..=b'9') => format!("the number {}", echo(raw)),
        Some(b't' | b'f') => format!("the boolean {raw}"),
        Some(b'n') => "null".into(),
        Some(b'[') => "an array".into(),
        Some(b'{') => "an object".into(),
        _ => echo(raw),
    }
}

/// The kind of a JSON text, for a line that is JSON but not an object.
fn kind_of(text: &str) -> String {
    let kind = describe(text.trim_end());
    let mut chars = kind.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => kind,
    }
}

/// `text` cut to `ECHO_BYTES` (on a character boundary), with `...` when cut.
fn echo(text: &str) -> String {
    if text.len() <= ECHO_BYTES {
        return text.to_string();
    }
    let mut end = ECHO_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// A string as JSON writes it (the wire's own spelling), cut if long.
fn quote(text: &str) -> String {
    echo(&serde_json::to_string(text).unwrap_or_default())
}

/// Why a number is not a whole number in range.
enum NumberError {
    NotANumber,
    Fraction,
    Negative,
    TooLarge,
}

/// The whole number a JSON number's text stands for (see the module's rule), up to `max`.
fn whole_number(raw: &str, max: u64) -> Result<u64, NumberError> {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(NumberError::NotANumber);
    }
    let value = if digits.bytes().all(|b| b.is_ascii_digit()) {
        if raw.starts_with('-') {
            // -0 is 0; any other negative integer is refused.
            return if digits.bytes().all(|b| b == b'0') {
                Ok(0)
            } else {
                Err(NumberError::Negative)
            };
        }
        digits.parse::<u64>().map_err(|_| NumberError::TooLarge)?
    } else {
        let float: f64 = raw.parse().map_err(|_| NumberError::NotANumber)?;
        if float.is_infinite() {
            // 1e400: beyond any float, so beyond any chip count.
            return Err(if float < 0.0 {
                NumberError::Negative
            } else {
                NumberError::TooLarge
            });
        }
        if float.fract() != 0.0 {
            return Err(NumberError::Fraction);
        }
        if float < 0.0 {
            return Err(NumberError::Negative);
        }
        // 2^64 is the first float above u64::MAX.
        if float >= 18_446_744_073_709_551_616.0 {
            return Err(NumberError::TooLarge);
        }
        float as u64
    };
    if value > max {
        return Err(NumberError::TooLarge);
    }
    Ok(value)
}

/// Reads field `key`'s value as a whole number up to `max`, explaining a refusal.
fn number_field(key: &str, raw: &str, max: u64, example: &str) -> Result<u64, String> {
    let at = format!("\"{key}\":{}", echo(raw));
    whole_number(raw, max).map_err(|e| match e {
        NumberError::NotANumber => format!(
            "\"{key}\" is {}; write a number: \"{key}\":{example}",
            describe(raw)
        ),
        NumberError::Fraction => format!("{at} is not a whole number"),
        NumberError::Negative => format!("{at} is negative"),
        NumberError::TooLarge => format!("{at} is above the largest allowed, {max}"),
    })
}

/// The names of every action, as `read_answer` knows them.
pub const ACTION_NAMES: [&str; 9] = [
    "pack", "see", "bet", "show", "sideshow", "swap", "keep", "accept", "refuse",
];

/// Reads a bot's answer to a request. Unknown fields, and parameters the action does not take,
/// are ignored, as the protocol says.
pub fn read_answer(line: &str) -> Result<Answer, LineError> {
    answer_of(&Fields::read(line)?)
}

/// Reads a bot's answer of either form: one action (as [`read_answer`]) or a mix
/// (`{"id":7,"mix":[{"action":"pack","p":0.5},...]}`, see [`crate::mix`]).
pub fn read_reply(line: &str) -> Result<Reply, LineError> {
    let fields = Fields::read(line)?;
    if fields.get("mix").is_some() {
        mix_answer_of(&fields).map(Reply::Mix)
    } else {
        answer_of(&fields).map(Reply::Action)
    }
}

/// The `id` of an answer, or the problem with it.
fn id_of(fields: &Fields<'_>, problems: &mut Vec<String>) -> Option<u64> {
    match fields.get("id") {
        None => {
            problems.push("no \"id\": echo the id of the request you answer".to_string());
            None
        }
        Some(raw) => number_field("id", raw, u64::MAX, "7")
            .map_err(|p| problems.push(p))
            .ok(),
    }
}

fn answer_of(fields: &Fields<'_>) -> Result<Answer, LineError> {
    fields.once(&["id", "action", "amount", "card"])?;
    let mut problems = Vec::new();
    let id = id_of(fields, &mut problems);
    let action = match fields.get("action") {
        None => {
            problems.push(format!("no \"action\": one of {}", ACTION_NAMES.join(", ")));
            None
        }
        Some(raw) => match serde_json::from_str::<String>(raw) {
            Err(_) => {
                problems.push(format!(
                    "\"action\" is {}; write the action's name as a string, e.g. \"action\":\"pack\"",
                    describe(raw)
                ));
                None
            }
            Ok(name) => action(&name, fields).map_err(|p| problems.push(p)).ok(),
        },
    };
    match (id, action) {
        (Some(id), Some(action)) if problems.is_empty() => Ok(Answer { id, action }),
        _ => Err(LineError {
            message: problems.join("; "),
            id,
        }),
    }
}

const MIX_EXAMPLE: &str =
    r#""mix":[{"action":"pack","p":0.25},{"action":"bet","amount":4,"p":0.75}]"#;

/// A mixed answer: `id` and `mix`, every entry an action with its probability `p`, the
/// probabilities adding up to 1 (within [`SUM_TOLERANCE`]), no action twice.
fn mix_answer_of(fields: &Fields<'_>) -> Result<MixAnswer, LineError> {
    fields.once(&["id", "mix"])?;
    let mut problems = Vec::new();
    let id = id_of(fields, &mut problems);
    if fields.get("action").is_some() {
        problems.push("give either \"action\" or \"mix\", not both".into());
    }
    let raw = fields.get("mix").expect("called when there is a mix");
    let mix = match serde_json::from_str::<Vec<&RawValue>>(raw) {
        Err(_) => {
            problems.push(format!(
                "\"mix\" is {}; write an array of actions with probabilities, e.g. {MIX_EXAMPLE}",
                describe(raw)
            ));
            None
        }
        Ok(entries) if entries.is_empty() => {
            problems.push(format!(
                "\"mix\" is empty; give at least one action, e.g. {MIX_EXAMPLE}"
            ));
            None
        }
        Ok(entries) if entries.len() > MAX_MIX_ENTRIES => {
            problems.push(format!(
                "\"mix\" has {} entries; at most {MAX_MIX_ENTRIES}",
                entries.len()
            ));
            None
        }
        Ok(entries) => {
            let before = problems.len();
            let mut mix: Vec<MixEntry> = Vec::with_capacity(entries.len());
            // Where each action was first given (a set, not a scan: up to 1024 entries).
            let mut first_at: std::collections::HashMap<Action, usize> = Default::default();
            for (i, raw) in entries.iter().enumerate() {
                match mix_entry(raw.get()) {
                    Ok(entry) => {
                        if let Some(j) = first_at.insert(entry.action, i) {
                            first_at.insert(entry.action, j);
                            problems.push(format!(
                                "mix[{i}] gives the action of mix[{j}] again; give each action once"
                            ));
                        }
                        mix.push(entry);
                    }
                    Err(p) => problems.push(format!("mix[{i}]: {p}")),
                }
            }
            if problems.len() == before {
                let sum: f64 = mix.iter().map(|e| e.p).sum();
                if (sum - 1.0).abs() > SUM_TOLERANCE {
                    problems.push(format!(
                        "the probabilities of \"mix\" add up to {sum}, not 1"
                    ));
                }
            }
            Some(mix)
        }
    };
    match (id, mix) {
        (Some(id), Some(mix)) if problems.is_empty() => Ok(MixAnswer { id, mix }),
        _ => Err(LineError {
            message: problems.join("; "),
            id,
        }),
    }
}

/// One entry of a mix: an action with its parameters, and `p`.
fn mix_entry(raw: &str) -> Result<MixEntry, String> {
    let fields: Fields<'_> = serde_json::from_str(raw).map_err(|_| {
        format!(
            "{} is not an object; each entry is an action with its probability, e.g. \
             {{\"action\":\"pack\",\"p\":0.25}}",
            describe(raw)
        )
    })?;
    fields
        .once(&["action", "amount", "card", "p"])
        .map_err(|e| e.message)?;
    let name = match fields.get("action") {
        None => return Err(format!("no \"action\": one of {}", ACTION_NAMES.join(", "))),
        Some(raw) => serde_json::from_str::<String>(raw).map_err(|_| {
            format!(
                "\"action\" is {}; write the action's name as a string, e.g. \"action\":\"pack\"",
                describe(raw)
            )
        })?,
    };
    let action = action(&name, &fields)?;
    let p = match fields.get("p") {
        None => return Err("no \"p\": give the action's probability, e.g. \"p\":0.25".into()),
        Some(raw) => match serde_json::from_str::<f64>(raw) {
            Err(_) if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) => {
                return Err(format!("\"p\":{} is not between 0 and 1", echo(raw)));
            }
            Err(_) => {
                return Err(format!(
                    "\"p\" is {}; write a probability as a number, e.g. \"p\":0.25",
                    describe(raw)
                ));
            }
            Ok(p) if !(0.0..=1.0).contains(&p) => {
                return Err(format!("\"p\":{} is not between 0 and 1", echo(raw)));
            }
            Ok(p) => p,
        },
    };
    Ok(MixEntry { action, p })
}

/// The action named `name`, with its parameter read from `fields`.
fn action(name: &str, fields: &Fields<'_>) -> Result<Action, String> {
    Ok(match name {
        "pack" => Action::Pack,
        "see" => Action::See,
        "show" => Action::Show,
        "sideshow" => Action::Sideshow,
        "keep" => Action::Keep,
        "accept" => Action::Accept,
        "refuse" => Action::Refuse,
        "bet" => {
            let raw = fields
                .get("amount")
                .ok_or("\"action\":\"bet\" needs an \"amount\", e.g. \"amount\":4")?;
            Action::Bet {
                amount: number_field("amount", raw, u64::MAX, "4")?,
            }
        }
        "swap" => {
            let raw = fields
                .get("card")
                .ok_or("\"action\":\"swap\" needs a \"card\" to discard, e.g. \"card\":\"Kd\"")?;
            let text = serde_json::from_str::<String>(raw).map_err(|_| {
                format!(
                    "\"card\" is {}; write the card as a string, e.g. \"card\":\"Kd\"",
                    describe(raw)
                )
            })?;
            let card = text
                .parse::<Card>()
                .map_err(|e| format!("\"card\":{} is not a card: {}", quote(&text), e.reason))?;
            Action::Swap { card }
        }
        other => {
            return Err(format!(
                "\"action\":{} is not an action; the actions are {}",
                quote(other),
                ACTION_NAMES.join(", ")
            ));
        }
    })
}

/// Reads a bot's hello: `{"type":"hello","name":"...","version":"...","protocol":1}`, with
/// `version` and `protocol` optional (`protocol` may also be null). Every problem is named.
pub fn read_hello(line: &str) -> Result<BotHello, LineError> {
    let fields = Fields::read(line)?;
    fields.once(&["type", "name", "version", "protocol"])?;
    let mut problems = Vec::new();
    let string = |key: &str, raw: &str, problems: &mut Vec<String>| -> Option<String> {
        match serde_json::from_str::<String>(raw) {
            Ok(text) => Some(text),
            Err(_) => {
                problems.push(format!(
                    "\"{key}\" is {}; write a string, e.g. \"{key}\":{}",
                    describe(raw),
                    if key == "name" {
                        "\"my-bot\""
                    } else {
                        "\"1.0\""
                    }
                ));
                None
            }
        }
    };
    let kind = match fields.get("type") {
        None => {
            if fields.get("id").is_some() || fields.get("action").is_some() {
                problems.push(
                    "this looks like an answer to a request; the first line must be the hello answer {\"type\":\"hello\",\"name\":...}"
                        .into(),
                );
            } else {
                problems.push("no \"type\": the hello answer has \"type\":\"hello\"".into());
            }
            None
        }
        Some(raw) => match string("type", raw, &mut Vec::new()) {
            Some(kind) if kind == "hello" => Some(kind),
            Some(kind) => {
                problems.push(format!(
                    "\"type\":{} is not the hello answer; expected \"type\":\"hello\"",
                    quote(&kind)
                ));
                None
            }
            None => {
                problems.push(format!(
                    "\"type\" is {}; expected \"type\":\"hello\"",
                    describe(raw)
                ));
                None
            }
        },
    };
    let name = match fields.get("name") {
        None => {
            problems.push("no \"name\": give your bot a name, e.g. \"name\":\"my-bot\"".into());
            None
        }
        Some(raw) => match string("name", raw, &mut problems) {
            Some(name) if name.is_empty() => {
                problems.push("\"name\" is empty; give your bot a name".into());
                None
            }
            Some(name) if name.trim().is_empty() => {
                problems.push(format!(
                    "\"name\":{} is only white space; give your bot a name",
                    quote(&name)
                ));
                None
            }
            other => other,
        },
    };
    let version = match fields.get("version") {
        None => Some(String::new()),
        Some(raw) => string("version", raw, &mut problems),
    };
    let protocol = match fields.get("protocol") {
        None | Some("null") => Some(None),
        Some(raw) => number_field("protocol", raw, u64::from(u32::MAX), "1")
            .map(|n| Some(n as u32))
            .map_err(|p| problems.push(p))
            .ok(),
    };
    match (kind, name, version, protocol) {
        (Some(kind), Some(name), Some(version), Some(protocol)) if problems.is_empty() => {
            Ok(BotHello {
                kind,
                name,
                version,
                protocol,
            })
        }
        _ => Err(error(problems.join("; "))),
    }
}

#[cfg(test)]
mod tests;
