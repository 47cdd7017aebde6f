//! Every JSON example of PROTOCOL.md, checked against the JSON Schemas and the Rust types, so
//! that the document cannot drift from the code:
//!
//! - ```` ```json ```` blocks (one value, possibly over several lines, or several values);
//! - the transcript lines (`>> ` and `<< `) of ```` ```text ```` blocks;
//! - inline code spans that start with `{` (the answer and legal-entry tables).
//!
//! Each value is classified by its shape (an arena message, the bot's hello, an answer, a legal
//! entry or applied action, a hand value); a value of no known shape fails the test, so that a
//! new kind of example is checked too. Arena messages must validate against
//! `arena-to-bot.schema.json` and read back into the Rust types, which must write them again
//! the same (events have no reader: the schema, and the hand values they carry, are checked);
//! bot lines must validate against `bot-to-arena.schema.json` and parse as the arena parses
//! them, except a transcript line the arena answered with a `malformed` fault, which must fail
//! both. Hand values must be what `rules::describe` says of their cards.

use std::fs;
use std::path::Path;

use jsonschema::Validator;
use protocol::{
    Action, ArenaMessage, BotHello, Card, FaultNotice, Hello, LegalAction, MatchEnd, Request,
    SequenceOrder, Variant, describe,
};
use serde_json::{Value, json};

fn schema_json(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schema")
        .join(name);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A validator for one part of a schema document (`pointer`, e.g. `/$defs/action`).
fn part_validator(schema: &Value, pointer: &str) -> Validator {
    assert!(
        schema.pointer(pointer).is_some(),
        "no {pointer} in the schema"
    );
    let root = json!({
        "$schema": schema["$schema"],
        "$defs": schema["$defs"],
        "$ref": format!("#{pointer}"),
    });
    jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("{pointer}: {e}"))
}

struct Schemas {
    arena: Validator,
    bot: Validator,
    legal_action: Validator,
    action: Validator,
    hand_value: Validator,
    revealed_hand: Validator,
}

impl Schemas {
    fn load() -> Schemas {
        let arena = schema_json("arena-to-bot.schema.json");
        let bot = schema_json("bot-to-arena.schema.json");
        let compile = |schema: &Value| jsonschema::draft202012::new(schema).expect("compiles");
        Schemas {
            arena: compile(&arena),
            bot: compile(&bot),
            legal_action: part_validator(&arena, "/$defs/legal_action"),
            action: part_validator(&arena, "/$defs/action"),
            hand_value: part_validator(&arena, "/$defs/hand_value"),
            revealed_hand: part_validator(&arena, "/$defs/event_revealed/properties/hands/items"),
        }
    }
}

fn errors(schema: &Validator, value: &Value) -> Option<String> {
    let errors: Vec<String> = schema
        .iter_errors(value)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect();
    (!errors.is_empty()).then(|| errors.join("; "))
}

// ----- extraction -------------------------------------------------------------------------------

/// Where an example comes from, which decides what it must be.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    /// A ```json block or an inline span: judged by its shape alone.
    Plain,
    /// A `>> ` transcript line: the arena wrote it.
    ToBot,
    /// A `<< ` transcript line the arena accepted.
    FromBot,
    /// A `<< ` transcript line the arena answered with a `malformed` fault.
    FromBotMalformed,
}

struct Example {
    /// 1-based line in the document.
    line: usize,
    source: Source,
    value: Value,
}

/// Every example of `doc`, or the problems met while extracting (JSON that does not parse).
fn extract(doc: &str) -> (Vec<Example>, Vec<String>) {
    let mut examples = Vec::new();
    let mut problems = Vec::new();
    let mut transcript: Vec<(usize, &str, &str)> = Vec::new();
    let lines: Vec<&str> = doc.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if let Some(info) = fence.strip_prefix("```") {
            let start = i + 1;
            let end = (start..lines.len())
                .find(|&j| lines[j].trim_start().starts_with("```"))
                .unwrap_or(lines.len());
            let body = &lines[start..end];
            match info.trim() {
                "json" => {
                    let text = body.join("\n");
                    for value in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
                        match value {
                            Ok(value) => examples.push(Example {
                                line: start + 1,
                                source: Source::Plain,
                                value,
                            }),
                            Err(e) => {
                                problems.push(format!("line {}: a json block: {e}", start + 1));
                                break;
                            }
                        }
                    }
                }
                "text" => {
                    for (k, line) in body.iter().enumerate() {
                        for prefix in [">> ", "<< "] {
                            if let Some(rest) = line.strip_prefix(prefix) {
                                transcript.push((start + k + 1, prefix, rest));
                            }
                        }
                    }
                }
                _ => {}
            }
            i = end + 1;
            continue;
        }
        // Inline code spans: `{...}`.
        for (k, span) in lines[i].split('`').enumerate() {
            if k % 2 == 1 && span.starts_with('{') {
                match serde_json::from_str::<Value>(span) {
                    Ok(value) => examples.push(Example {
                        line: i + 1,
                        source: Source::Plain,
                        value,
                    }),
                    Err(e) => problems.push(format!("line {}: `{span}`: {e}", i + 1)),
                }
            }
        }
        i += 1;
    }
    for (k, &(line, prefix, text)) in transcript.iter().enumerate() {
        let value = match serde_json::from_str::<Value>(text) {
            Ok(value) => value,
            // A bot line that is not JSON at all still counts, as a string the schema refuses.
            Err(_) if prefix == "<< " => Value::String(text.to_string()),
            Err(e) => {
                problems.push(format!("line {line}: {e}: {text}"));
                continue;
            }
        };
        let source = if prefix == ">> " {
            Source::ToBot
        } else if arena_called_it_malformed(&transcript[k + 1..]) {
            Source::FromBotMalformed
        } else {
            Source::FromBot
        };
        examples.push(Example {
            line,
            source,
            value,
        });
    }
    (examples, problems)
}

/// Whether the arena's next line is a `malformed` fault (the doc quotes the fault that follows
/// a deliberately bad line).
fn arena_called_it_malformed(after: &[(usize, &str, &str)]) -> bool {
    after
        .iter()
        .find(|(_, prefix, _)| *prefix == ">> ")
        .and_then(|(_, _, text)| serde_json::from_str::<Value>(text).ok())
        .is_some_and(|next| next["type"] == "fault" && next["fault"] == "malformed")
}

// ----- checking ---------------------------------------------------------------------------------

/// The kinds of example, for the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Shape {
    ArenaMessage,
    BotHello,
    Answer,
    LegalOrApplied,
    HandValue,
    /// An entry of a `revealed` event's `hands`: seat, cards and value.
    RevealedHand,
}

fn shape(value: &Value) -> Option<Shape> {
    let has = |field: &str| value.get(field).is_some();
    match value.get("type").and_then(Value::as_str) {
        Some("hello") if has("name") && !has("game") => Some(Shape::BotHello),
        Some(_) => Some(Shape::ArenaMessage),
        None if has("id") && (has("action") || has("mix")) => Some(Shape::Answer),
        None if has("action") => Some(Shape::LegalOrApplied),
        None if has("kind") => Some(Shape::HandValue),
        None if has("seat") && has("cards") && has("value") => Some(Shape::RevealedHand),
        None => None,
    }
}

/// Reads an arena message into its Rust type and writes it again with the wire writer; `None`
/// for events, which Rust only writes.
fn round_trip(value: &Value) -> Option<Result<Value, String>> {
    fn read<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, String> {
        serde_json::from_value(value.clone()).map_err(|e| format!("the Rust types refuse it: {e}"))
    }
    let message = match value["type"].as_str()? {
        "hello" => read::<Hello>(value).map(ArenaMessage::Hello),
        "request" => read::<Request>(value).map(ArenaMessage::Request),
        "fault" => read::<FaultNotice>(value).map(ArenaMessage::Fault),
        "match_end" => read::<MatchEnd>(value).map(ArenaMessage::MatchEnd),
        _ => return None,
    };
    Some(message.map(|m| serde_json::from_str(&m.to_line()).expect("the writer writes JSON")))
}

fn cards(value: &Value) -> Option<Vec<Card>> {
    value
        .as_array()?
        .iter()
        .map(|c| c.as_str()?.parse().ok())
        .collect()
}

fn hand3(cards: &[Card]) -> Option<[Card; 3]> {
    cards.try_into().ok()
}

/// Whether a hand value is what the rules make of some hand: `cards` for a revealed hand, or
/// for a value alone the hand it describes (its cards; with a wild, its cards with the wild in
/// place of the card the wild became).
fn check_hand_value(value: &Value, dealt: Option<&[Card]>) -> Result<(), String> {
    let wild: Option<Card> = value.get("wild").and_then(|w| w.as_str()?.parse().ok());
    let (variant, candidates): (Variant, Vec<[Card; 3]>) = match value["kind"].as_str() {
        Some("dead") => return Ok(()),
        Some("closest555") => {
            let number = value["number"].as_u64().unwrap_or(u64::MAX);
            let distance = value["distance"].as_u64().unwrap_or(u64::MAX);
            if number > 999 || number.abs_diff(555) != distance {
                return Err(format!("{number} is not {distance} away from 555"));
            }
            match dealt {
                Some(hand) => (Variant::Closest555, hand3(hand).into_iter().collect()),
                None => return Ok(()),
            }
        }
        Some("ranked") => {
            let shown = cards(&value["cards"]).ok_or("`cards` are not three cards")?;
            let shown = hand3(&shown).ok_or("`cards` are not three cards")?;
            match (dealt, wild) {
                (Some(hand), _) => (
                    if wild.is_some() {
                        Variant::LallanKallan
                    } else {
                        Variant::Classic
                    },
                    hand3(hand).into_iter().collect(),
                ),
                (None, None) => (Variant::Classic, vec![shown]),
                (None, Some(wild)) => (
                    Variant::LallanKallan,
                    (0..3)
                        .map(|i| {
                            let mut hand = shown;
                            hand[i] = wild;
                            hand
                        })
                        .collect(),
                ),
            }
        }
        other => return Err(format!("unknown kind {other:?}")),
    };
    let described: Vec<Value> = candidates
        .iter()
        .map(|hand| serde_json::to_value(describe(variant, SequenceOrder::A23High, hand)).unwrap())
        .collect();
    if described.iter().any(|d| d == value) {
        Ok(())
    } else {
        Err(format!(
            "the rules ({variant:?}) describe it as {}",
            described
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(" or ")
        ))
    }
}

/// What is wrong with one example, if anything, and its shape.
fn check(schemas: &Schemas, example: &Example) -> (Option<Shape>, Vec<String>) {
    let value = &example.value;
    let mut problems = Vec::new();
    let Some(shape) = shape(value) else {
        return (None, vec!["an example of no known shape".into()]);
    };
    let wrong_side = matches!(
        (example.source, shape),
        (Source::ToBot, Shape::BotHello | Shape::Answer)
            | (
                Source::FromBot | Source::FromBotMalformed,
                Shape::ArenaMessage
                    | Shape::LegalOrApplied
                    | Shape::HandValue
                    | Shape::RevealedHand
            )
    );
    if wrong_side {
        problems.push(format!("a {shape:?} on the wrong side of a transcript"));
    }
    match shape {
        Shape::ArenaMessage => {
            problems.extend(errors(&schemas.arena, value));
            match round_trip(value) {
                Some(Ok(again)) if &again == value => {}
                Some(Ok(again)) => problems.push(format!("the Rust types write it as {again}")),
                Some(Err(e)) => problems.push(e),
                None => {}
            }
            if value["type"] == "hello" {
                let seed = value["seed"].as_u64();
                if seed.is_none_or(|s| s >= 1 << 53) {
                    problems.push(format!(
                        "the hello seed {} is not below 2^53, as the arena sends it",
                        value["seed"]
                    ));
                }
            }
            for hand in value["hands"].as_array().into_iter().flatten() {
                let dealt = cards(&hand["cards"]);
                if let Err(e) = check_hand_value(&hand["value"], dealt.as_deref()) {
                    problems.push(format!("seat {}'s value: {e}", hand["seat"]));
                }
            }
        }
        Shape::BotHello | Shape::Answer => {
            let schema_ok = schemas.bot.is_valid(value);
            let text = value.to_string();
            let rust_ok = if shape == Shape::BotHello {
                BotHello::read(&text).is_ok()
            } else {
                protocol::Reply::read(&text).is_ok()
            };
            let want = example.source != Source::FromBotMalformed;
            if schema_ok != want {
                problems.push(match errors(&schemas.bot, value) {
                    Some(e) => format!("fails the bot-to-arena schema: {e}"),
                    None => "passes the schema, though the arena called it malformed".into(),
                });
            }
            if rust_ok != want {
                problems.push(format!(
                    "the arena's parser {} it",
                    if rust_ok { "accepts" } else { "refuses" }
                ));
            }
        }
        Shape::LegalOrApplied => {
            let legal = schemas.legal_action.is_valid(value)
                && serde_json::from_value::<LegalAction>(value.clone()).is_ok();
            let applied = schemas.action.is_valid(value)
                && serde_json::from_value::<Action>(value.clone()).is_ok();
            if !legal && !applied {
                problems.push(format!(
                    "neither a legal entry nor an action: {}",
                    errors(&schemas.legal_action, value).unwrap_or_default()
                ));
            }
        }
        Shape::HandValue => {
            problems.extend(errors(&schemas.hand_value, value));
            if let Err(e) = check_hand_value(value, None) {
                problems.push(e);
            }
        }
        Shape::RevealedHand => {
            problems.extend(errors(&schemas.revealed_hand, value));
            let dealt = cards(&value["cards"]);
            if let Err(e) = check_hand_value(&value["value"], dealt.as_deref()) {
                problems.push(e);
            }
        }
    }
    (Some(shape), problems)
}

/// Checks every example of `doc`: the problems, and how many examples of each shape (and
/// transcript lines) were checked.
fn check_doc(doc: &str) -> (Vec<String>, std::collections::BTreeMap<String, usize>) {
    let schemas = Schemas::load();
    let (examples, mut problems) = extract(doc);
    let mut counts = std::collections::BTreeMap::new();
    for example in &examples {
        let (shape, found) = check(&schemas, example);
        *counts.entry(format!("{shape:?}")).or_insert(0) += 1;
        if example.source != Source::Plain {
            *counts.entry("transcript lines".to_string()).or_insert(0) += 1;
        }
        for problem in found {
            problems.push(format!(
                "line {}: {problem}: {}",
                example.line, example.value
            ));
        }
    }
    (problems, counts)
}

#[test]
fn protocol_md_examples_validate_and_parse() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("PROTOCOL.md");
    let doc = fs::read_to_string(&path).expect("PROTOCOL.md");
    let (problems, counts) = check_doc(&doc);
    assert!(
        problems.is_empty(),
        "PROTOCOL.md examples that the schemas or the Rust types contradict:\n{}",
        problems.join("\n")
    );
    // Every shape is found: an extractor that finds nothing cannot pass.
    for (shape, at_least) in [
        ("Some(ArenaMessage)", 50),
        ("Some(BotHello)", 2),
        ("Some(Answer)", 15),
        ("Some(LegalOrApplied)", 10),
        ("Some(HandValue)", 1),
        ("Some(RevealedHand)", 3),
        ("transcript lines", 50),
    ] {
        let found = counts.get(shape).copied().unwrap_or(0);
        assert!(
            found >= at_least,
            "only {found} examples of {shape} in PROTOCOL.md (expected at least {at_least}): {counts:?}"
        );
    }
    eprintln!("checked PROTOCOL.md examples: {counts:?}");
}

/// The check itself can fail: each wrong example below is reported on its line.
#[test]
fn wrong_examples_are_caught() {
    let doc = r#"Intro.

```json
{"seat":1,"cards":["Ah","8h","4s"],"value":{"kind":"ranked","category":"colour","cards":["Ah","8h","3h"],"wild":"4s"}}
```

```json
{"kind":"closest555","number":554,"distance":2}
```

| `{"id":1,"action":"fly"}` | `{"action":"bet","min":2}` | `{"id":2,"action":"pack"` |

```text
>> {"type":"match_end","hands":-3,"totals":[1,-1]}
>> {"type":"hello","protocol":1,"game":"classic","settings":{"variant":"classic","boot":1,"max_stake":64,"pot_limit":1024,"sideshow":true,"sequence_order":"a23-high","blind_limit":4,"swap_cost":0,"max_turns":500},"seat":1,"seats":2,"hands":1,"first_hand":0,"seed":9007199254740993,"players":["a","b"],"time":{"startup_ms":1,"decision_ms":1,"bank_ms":1}}
>> {"type":"event","hand":0,"event":"revealed","reason":"show","hands":[{"seat":0,"cards":["4h","4d","Ks"],"value":{"kind":"ranked","category":"pair","cards":["Ks","4h","4d"]}}]}
<< {"id":3,"action":"pack"}
>> {"type":"fault","id":3,"fault":"malformed","detail":"x","applied":{"action":"pack"}}
<< {"id":4,"action":"pack"}
>> {"type":"event","hand":0,"event":"kept","seat":1}
```

```json
{"shape":"unknown"}
```
"#;
    let (problems, _) = check_doc(doc);
    let mut lines: Vec<usize> = problems
        .iter()
        .map(|p| {
            let number = p.strip_prefix("line ").and_then(|p| p.split(':').next());
            number
                .and_then(|n| n.parse().ok())
                .expect("each problem names its line")
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    // 4: the old Lallan Kallan example (the wild 4s makes Ah 8h A-K-8, not A-8-3). 8: 554 is 1 away.
    // 11: `fly`, a bet entry without bounds, an unclosed object. 14: a negative hand count.
    // 15: a hello seed above 2^53. 16: a pair's cards out of order. 17: a good answer that the
    // quoted fault calls malformed. 24: an object of no known shape.
    assert_eq!(lines, [4, 8, 11, 14, 15, 16, 17, 24], "{problems:#?}");
}
