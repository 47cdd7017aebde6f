//! The JSON Schemas of the protocol (`protocol/schema/*.json`) checked three ways:
//!
//! - they are valid draft 2020-12 schemas that compile, and keep the forward-compatibility
//!   promise (no object closes itself to unknown fields);
//! - the committed transcripts of real matches (`tests/data/*.txt`, recorded with the arena,
//!   see `tests/data/README.md`) validate line by line, cover every message type, event kind,
//!   request kind and action, and agree with how the Rust types read the same lines;
//! - values built from the Rust types (every variant of every enum on the wire, and every event
//!   and request of hands played by the rules engine) validate, and the schemas' enumerations
//!   are exactly the Rust enums' names, so that the two cannot drift apart silently.
//!
//! Nothing here needs a built arena: the transcripts are data.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use jsonschema::Validator;
use protocol::{
    Answer, ArenaMessage, BotHello, FaultKind, FaultNotice, Hello, MatchEnd, Request, Settings,
    Variant,
};
use rules::Hand;
use serde_json::{Value, json};

mod common;
use common::*;

// ----- loading ---------------------------------------------------------------------------------

const ARENA_TO_BOT: &str = "arena-to-bot.schema.json";
const BOT_TO_ARENA: &str = "bot-to-arena.schema.json";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema_json(name: &str) -> Value {
    let path = manifest_dir().join("schema").join(name);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn validator(name: &str) -> Validator {
    jsonschema::draft202012::new(&schema_json(name))
        .unwrap_or_else(|e| panic!("{name} does not compile: {e}"))
}

fn arena_schema() -> Validator {
    validator(ARENA_TO_BOT)
}

fn bot_schema() -> Validator {
    validator(BOT_TO_ARENA)
}

/// Every error of `value` against `schema`, one per line (empty if valid).
fn errors(schema: &Validator, value: &Value) -> String {
    schema
        .iter_errors(value)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn assert_valid(schema: &Validator, value: &Value, what: &str) {
    let errors = errors(schema, value);
    assert!(
        errors.is_empty(),
        "{what} fails the schema:\n{value}\n{errors}"
    );
}

/// Who wrote a transcript line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    /// `>> `: the arena wrote it to the bot.
    ToBot,
    /// `<< `: the bot wrote it to the arena.
    FromBot,
}

struct Line {
    dir: Dir,
    /// `file:line`, for messages.
    place: String,
    text: String,
    /// The parsed JSON, if the line is JSON.
    json: Option<Value>,
}

struct Transcript {
    /// The recording it belongs to: the file name up to the first dot (`classic`, ...).
    recording: String,
    lines: Vec<Line>,
}

fn data_dir() -> PathBuf {
    manifest_dir().join("tests").join("data")
}

fn transcripts() -> Vec<Transcript> {
    let mut paths: Vec<PathBuf> = fs::read_dir(data_dir())
        .expect("tests/data exists")
        .map(|entry| entry.expect("readable directory").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no transcripts in tests/data");
    paths
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = fs::read_to_string(path).unwrap();
            let lines = text
                .lines()
                .enumerate()
                .map(|(i, raw)| {
                    let place = format!("{name}:{}", i + 1);
                    let (dir, text) = if let Some(rest) = raw.strip_prefix(">> ") {
                        (Dir::ToBot, rest)
                    } else if let Some(rest) = raw.strip_prefix("<< ") {
                        (Dir::FromBot, rest)
                    } else {
                        panic!("{place}: neither `>> ` nor `<< `: {raw}");
                    };
                    Line {
                        dir,
                        place,
                        text: text.to_string(),
                        json: serde_json::from_str(text).ok(),
                    }
                })
                .collect();
            Transcript {
                recording: name.split('.').next().unwrap().to_string(),
                lines,
            }
        })
        .collect()
}

fn str_field<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field).and_then(Value::as_str)
}

/// The strings of an `enum` somewhere in a schema (`pointer` is a JSON pointer).
fn schema_enum(schema: &Value, pointer: &str) -> BTreeSet<String> {
    schema
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no enum at {pointer}"))
        .iter()
        .map(|v| v.as_str().expect("string enum").to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ----- (a) the schemas themselves ---------------------------------------------------------------

#[test]
fn schemas_are_valid_draft_2020_12_schemas_and_compile() {
    for name in [ARENA_TO_BOT, BOT_TO_ARENA] {
        let schema = schema_json(name);
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name} must declare draft 2020-12"
        );
        if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{name} is not a valid draft 2020-12 schema: {e}");
        }
        validator(name);
        for key in ["title", "description"] {
            assert!(schema[key].is_string(), "{name} has no {key}");
        }
    }
}

/// Walks every object of a schema document, with its JSON pointer.
fn walk<'a>(value: &'a Value, pointer: String, visit: &mut dyn FnMut(&str, &'a Value)) {
    match value {
        Value::Object(map) => {
            visit(&pointer, value);
            for (key, child) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                walk(child, format!("{pointer}/{key}"), visit);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, format!("{pointer}/{i}"), visit);
            }
        }
        _ => {}
    }
}

#[test]
fn schemas_stay_open_to_unknown_fields_and_use_every_definition() {
    for name in [ARENA_TO_BOT, BOT_TO_ARENA] {
        let schema = schema_json(name);
        let mut refs = BTreeSet::new();
        walk(&schema, String::new(), &mut |pointer, node| {
            // Unknown fields are ignored in both directions (PROTOCOL.md, Versioning): no object
            // may be closed. (`known` maps seats to hands: its additionalProperties is a schema.)
            for key in ["additionalProperties", "unevaluatedProperties"] {
                assert_ne!(
                    node.get(key),
                    Some(&Value::Bool(false)),
                    "{name}{pointer}: {key}: false breaks forward compatibility"
                );
            }
            if let Some(target) = str_field(node, "$ref") {
                refs.insert(target.to_string());
            }
        });
        for def in schema["$defs"].as_object().expect("$defs").keys() {
            assert!(
                refs.contains(&format!("#/$defs/{def}")),
                "{name}: $defs/{def} is never used"
            );
        }
        for target in &refs {
            assert!(
                target.starts_with("#/") && schema.pointer(&target[1..]).is_some(),
                "{name}: $ref {target} points nowhere"
            );
        }
    }
}

// ----- (b) transcripts validate line by line ----------------------------------------------------

/// A bot line is deliberately bad when the arena's next line says it was malformed (the lines
/// of `faulty_bot.py`). Those, and only those, must fail the bot-to-arena schema.
fn arena_called_it_malformed(lines: &[Line], index: usize) -> bool {
    lines[index + 1..]
        .iter()
        .find(|line| line.dir == Dir::ToBot)
        .and_then(|line| line.json.as_ref())
        .is_some_and(|next| {
            str_field(next, "type") == Some("fault")
                && matches!(str_field(next, "fault"), Some("malformed" | "startup"))
        })
}

/// Whether the arena's own types accept a bot line (the first line of a process is its hello).
fn rust_accepts_bot_line(text: &str, is_hello: bool) -> bool {
    if is_hello {
        BotHello::read(text).is_ok()
    } else {
        // Either form of answer: one action or a mix.
        protocol::Reply::read(text).is_ok()
    }
}

/// Reads an arena line back into its Rust type, where the type can be read, and writes it again:
/// the result must be the same JSON (so the recorded lines are what the current types write).
fn rust_round_trip(value: &Value) -> Option<Value> {
    let message = match str_field(value, "type")? {
        "hello" => ArenaMessage::Hello(serde_json::from_value::<Hello>(value.clone()).ok()?),
        "request" => ArenaMessage::Request(serde_json::from_value::<Request>(value.clone()).ok()?),
        "fault" => ArenaMessage::Fault(serde_json::from_value::<FaultNotice>(value.clone()).ok()?),
        "match_end" => {
            ArenaMessage::MatchEnd(serde_json::from_value::<MatchEnd>(value.clone()).ok()?)
        }
        // Events are write-only in Rust (rules::Event has no Deserialize); the round-trip test
        // below builds every kind instead.
        _ => return Some(value.clone()),
    };
    Some(serde_json::to_value(&message).expect("serializes"))
}

#[test]
fn recorded_transcripts_validate_line_by_line() {
    let arena = arena_schema();
    let bot = bot_schema();
    let mut failures = Vec::new();
    let mut deliberately_bad = 0;
    let mut checked = (0, 0);
    for transcript in transcripts() {
        let lines = &transcript.lines;
        assert!(
            lines.first().is_some_and(|l| l.dir == Dir::ToBot),
            "{}: a transcript starts with the arena's hello",
            transcript.recording
        );
        let mut seen_bot_line = false;
        for (i, line) in lines.iter().enumerate() {
            match line.dir {
                Dir::ToBot => {
                    checked.0 += 1;
                    let Some(value) = &line.json else {
                        failures.push(format!("{}: the arena wrote a non-JSON line", line.place));
                        continue;
                    };
                    let e = errors(&arena, value);
                    if !e.is_empty() {
                        failures.push(format!("{}: {}\n{e}", line.place, line.text));
                    }
                    match rust_round_trip(value) {
                        Some(again) if &again == value => {}
                        Some(again) => failures.push(format!(
                            "{}: the Rust types write this line differently now:\n  recorded {value}\n  now      {again}",
                            line.place
                        )),
                        None => failures.push(format!(
                            "{}: the Rust types cannot read this line: {}",
                            line.place, line.text
                        )),
                    }
                }
                Dir::FromBot => {
                    checked.1 += 1;
                    let is_hello = !seen_bot_line;
                    seen_bot_line = true;
                    let schema_ok = line.json.as_ref().is_some_and(|v| bot.is_valid(v));
                    let bad = arena_called_it_malformed(lines, i);
                    deliberately_bad += usize::from(bad);
                    if schema_ok == bad {
                        let why = line
                            .json
                            .as_ref()
                            .map(|v| errors(&bot, v))
                            .unwrap_or_else(|| "  not JSON".into());
                        failures.push(format!(
                            "{}: schema says {}, the arena said {}: {}\n{why}",
                            line.place,
                            if schema_ok { "valid" } else { "invalid" },
                            if bad { "malformed" } else { "fine" },
                            line.text
                        ));
                    }
                    if rust_accepts_bot_line(&line.text, is_hello) != schema_ok {
                        failures.push(format!(
                            "{}: the schema and the Rust types disagree on {}",
                            line.place, line.text
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}\n(If the protocol changed on purpose, update the schemas and record \
         the transcripts again: sh protocol/tests/data/record.sh)",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked.0 > 1000 && checked.1 > 100,
        "too few lines: {checked:?}"
    );
    // faulty_bot.py's {"action":"fly"} and {"action":"bet"} without an amount.
    assert!(
        deliberately_bad >= 2,
        "the transcripts should hold the faulty bot's malformed answers"
    );
}

// ----- (c) the transcripts exercise every part of the schemas -----------------------------------

#[derive(Default)]
struct Coverage {
    message_types: BTreeSet<String>,
    event_kinds: BTreeSet<String>,
    request_kinds: BTreeSet<String>,
    legal_actions: BTreeSet<String>,
    answer_actions: BTreeSet<String>,
    bot_hellos: usize,
    fault_kinds: BTreeSet<String>,
    hand_values: BTreeSet<String>,
    /// `event.field` and `request.field` for optional fields seen present and absent.
    present: BTreeSet<String>,
    absent: BTreeSet<String>,
    /// `event.reason` values, and `bet.blind=true|false`.
    reasons: BTreeSet<String>,
    recordings: BTreeMap<String, BTreeSet<String>>,
}

fn coverage() -> Coverage {
    let mut c = Coverage::default();
    let optional: &[(&str, &[&str])] = &[
        ("dealt", &["cards"]),
        ("saw", &["cards"]),
        ("swapped", &["discarded", "drawn"]),
        ("sideshow_compared", &["seat_cards", "target_cards"]),
        ("request", &["cards", "known", "sideshow_from"]),
        ("fault", &["id", "applied"]),
    ];
    for transcript in transcripts() {
        let games = c
            .recordings
            .entry(transcript.recording.clone())
            .or_default();
        for line in &transcript.lines {
            let Some(value) = &line.json else { continue };
            match line.dir {
                Dir::FromBot => {
                    if let Some(action) = str_field(value, "action") {
                        c.answer_actions.insert(action.to_string());
                    } else if let Some(mix) = value.get("mix").and_then(Value::as_array) {
                        // A mixed answer (recorded from `random_bot.py` since it answers
                        // with mixes) offers each of its actions.
                        for entry in mix {
                            if let Some(action) = str_field(entry, "action") {
                                c.answer_actions.insert(action.to_string());
                            }
                        }
                    } else if str_field(value, "type") == Some("hello") {
                        c.bot_hellos += 1;
                    }
                }
                Dir::ToBot => {
                    let ty = str_field(value, "type").unwrap_or_default().to_string();
                    c.message_types.insert(ty.clone());
                    let mut kind = ty.clone();
                    match ty.as_str() {
                        "hello" => {
                            games.insert(str_field(value, "game").unwrap().to_string());
                        }
                        "event" => {
                            kind = str_field(value, "event").unwrap().to_string();
                            c.event_kinds.insert(kind.clone());
                            if let Some(reason) = str_field(value, "reason") {
                                c.reasons.insert(format!("{kind}.{reason}"));
                            }
                            if let Some(blind) = value.get("blind") {
                                c.reasons.insert(format!("{kind}.blind={blind}"));
                            }
                            for hand in value["hands"].as_array().into_iter().flatten() {
                                let value_kind = str_field(&hand["value"], "kind").unwrap();
                                c.hand_values.insert(value_kind.to_string());
                            }
                        }
                        "request" => {
                            c.request_kinds
                                .insert(str_field(value, "kind").unwrap().to_string());
                            for legal in value["legal"].as_array().unwrap() {
                                c.legal_actions
                                    .insert(str_field(legal, "action").unwrap().to_string());
                            }
                        }
                        "fault" => {
                            c.fault_kinds
                                .insert(str_field(value, "fault").unwrap().to_string());
                        }
                        _ => {}
                    }
                    for (owner, fields) in optional {
                        if *owner == kind {
                            for field in *fields {
                                let key = format!("{kind}.{field}");
                                if value.get(*field).is_some() {
                                    c.present.insert(key);
                                } else {
                                    c.absent.insert(key);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    c
}

#[test]
fn transcripts_cover_every_message_type_event_kind_and_action() {
    let arena = schema_json(ARENA_TO_BOT);
    let bot = schema_json(BOT_TO_ARENA);
    let c = coverage();

    // The lists come from the schemas: a kind added to a schema needs a transcript showing it.
    assert_eq!(
        c.message_types,
        schema_enum(&arena, "/properties/type/enum")
    );
    assert_eq!(
        c.event_kinds,
        schema_enum(&arena, "/$defs/event/properties/event/enum")
    );
    assert_eq!(
        c.request_kinds,
        schema_enum(&arena, "/$defs/request/properties/kind/enum")
    );
    assert_eq!(
        c.legal_actions,
        schema_enum(&arena, "/$defs/legal_action/properties/action/enum")
    );
    let answer_actions = schema_enum(&bot, "/$defs/answer/properties/action/enum");
    let never_answered: Vec<&String> = answer_actions.difference(&c.answer_actions).collect();
    assert!(
        never_answered.is_empty(),
        "never answered: {never_answered:?}"
    );
    assert!(
        c.answer_actions.contains("fly"),
        "the deliberately bad action"
    );
    assert!(c.bot_hellos >= 10);

    // Every optional field seen both ways: the arena hides cards from the seats that may not
    // know them, and shows them to the seat that may.
    let optional = [
        "dealt.cards",
        "saw.cards",
        "swapped.discarded",
        "swapped.drawn",
        "sideshow_compared.seat_cards",
        "sideshow_compared.target_cards",
        "request.cards",
        "request.known",
        "request.sideshow_from",
    ];
    for field in optional {
        assert!(c.present.contains(field), "{field} never present");
        assert!(c.absent.contains(field), "{field} never absent");
    }
    assert!(c.present.contains("fault.id") && c.present.contains("fault.applied"));

    // One recording per variant, at tables of several seats.
    let games: BTreeSet<String> = c.recordings.values().flatten().cloned().collect();
    assert_eq!(games, set(&["classic", "closest-555", "lallan-kallan"]));
    assert!(
        c.fault_kinds
            .is_superset(&set(&["illegal", "malformed", "wrong_id", "timeout"])),
        "{:?}",
        c.fault_kinds
    );
    assert_eq!(c.hand_values, set(&["closest555", "ranked"]));
    for reason in [
        "packed.chose",
        "packed.lost_sideshow",
        "revealed.show",
        "revealed.pot_limit",
        "revealed.turn_cap",
        "hand_ended.last_standing",
        "hand_ended.show",
        "hand_ended.pot_limit",
        "hand_ended.turn_cap",
        "bet.blind=true",
        "bet.blind=false",
    ] {
        assert!(c.reasons.contains(reason), "no {reason} in the transcripts");
    }
}

// ----- (d) negative cases, and agreement with the Rust types on hand-written lines --------------

#[test]
fn arena_schema_rejects_what_the_arena_never_writes() {
    let arena = arena_schema();
    let request = json!({"type":"request","id":3,"hand":0,"kind":"bet",
        "legal":[{"action":"pack"},{"action":"bet","min":2,"max":4,"multiple_of":2}],
        "pot":3,"stake":1,"dealer":0,"cards":["As","Kd","3h"],
        "players":[{"in_hand":true,"seen":true,"dead":false,"put_in":1,"turns":0,"swaps":0},
                   {"in_hand":true,"seen":true,"dead":false,"put_in":1,"turns":0,"swaps":0}],
        "time_ms":1000,"bank_ms":10000});
    assert_valid(&arena, &request, "the base request");
    let with = |pointer: &str, new: Value| {
        let mut value = request.clone();
        match pointer.rfind('/') {
            // A top-level field: set it, present or not.
            Some(0) => value[&pointer[1..]] = new,
            _ => *value.pointer_mut(pointer).expect("an existing field") = new,
        }
        value
    };
    let without = |field: &str| {
        let mut value = request.clone();
        value.as_object_mut().unwrap().remove(field);
        value
    };
    let mut unknown_field = request.clone();
    unknown_field["future_field"] = json!({"anything": [1, 2]});
    assert_valid(&arena, &unknown_field, "a request with an unknown field");

    let bad: Vec<(&str, Value)> = vec![
        ("a request without id", without("id")),
        ("a request without dealer", without("dealer")),
        ("a request without legal", without("legal")),
        ("a negative pot", with("/pot", json!(-1))),
        ("a fractional stake", with("/stake", json!(1.5))),
        ("an unknown request kind", with("/kind", json!("dance"))),
        (
            "an unknown legal action",
            with("/legal/0", json!({"action":"fly"})),
        ),
        (
            "a bet entry without bounds",
            with("/legal/1", json!({"action":"bet"})),
        ),
        ("a card \"1s\"", with("/cards/0", json!("1s"))),
        (
            "a card \"10d\" (the arena writes \"Td\")",
            with("/cards/0", json!("10d")),
        ),
        ("a lower-case card", with("/cards/0", json!("as"))),
        ("two cards", with("/cards", json!(["As", "Kd"]))),
        ("a repeated card", with("/cards", json!(["As", "As", "Kd"]))),
        (
            "a known key that is no seat",
            with("/known", json!({"x":["2c","3c","4c"]})),
        ),
        (
            "sideshow_from on a bet request",
            with("/sideshow_from", json!(1)),
        ),
        (
            "a sideshow_reply without sideshow_from",
            with("/kind", json!("sideshow_reply")),
        ),
        (
            "a player without put_in",
            with("/players/0", json!({"in_hand":true})),
        ),
        (
            "an event with an unknown kind",
            json!({"type":"event","hand":0,"event":"teleported","seat":1}),
        ),
        (
            "an event without hand",
            json!({"type":"event","event":"kept","seat":1}),
        ),
        (
            "a dealt event without redeal",
            json!({"type":"event","hand":0,"event":"dealt","seat":0}),
        ),
        (
            "a dealt event with a card \"1s\"",
            json!({"type":"event","hand":0,"event":"dealt","seat":0,"redeal":0,"cards":["1s","2s","3s"]}),
        ),
        (
            "a bet event without blind",
            json!({"type":"event","hand":0,"event":"bet","seat":0,"amount":2,"stake":1,"pot":5}),
        ),
        (
            "a packed event with an unknown reason",
            json!({"type":"event","hand":0,"event":"packed","seat":0,"reason":"dead"}),
        ),
        (
            "a swap drawn without the discarded card",
            json!({"type":"event","hand":0,"event":"swapped","seat":0,"cost":0,"drawn":"5s"}),
        ),
        (
            "a revealed hand with an unknown value kind",
            json!({"type":"event","hand":0,"event":"revealed","reason":"show",
                   "hands":[{"seat":0,"cards":["2c","3c","4c"],"value":{"kind":"magic"}}]}),
        ),
        (
            "a hello without seed",
            json!({"type":"hello","protocol":1,"game":"classic","settings":Settings::default(),
                   "seat":0,"seats":2,"hands":1,"first_hand":0,"players":["a","b"],
                   "time":{"startup_ms":1,"decision_ms":1,"bank_ms":1}}),
        ),
        (
            "a fault of an unknown kind",
            json!({"type":"fault","fault":"cheating","detail":"no"}),
        ),
        (
            "a fault whose applied action is not an action",
            json!({"type":"fault","fault":"timeout","detail":"late","applied":{"action":"fly"}}),
        ),
        (
            "a match_end without totals",
            json!({"type":"match_end","hands":3}),
        ),
        ("an unknown message type", json!({"type":"goodbye"})),
        (
            "a message without type",
            json!({"hand":0,"event":"kept","seat":1}),
        ),
        ("not an object", json!(["type", "hello"])),
    ];
    for (what, value) in bad {
        assert!(!arena.is_valid(&value), "{what} passes the schema: {value}");
    }
}

/// Bot lines, and whether the arena accepts them (the schema must say the same).
const BOT_LINES: &[(&str, bool, &str)] = &[
    // The hello.
    (
        r#"{"type":"hello","name":"my-bot","version":"1.0","protocol":1}"#,
        true,
        "full hello",
    ),
    (r#"{"type":"hello","name":"my-bot"}"#, true, "minimal hello"),
    (
        r#"{"name":"b","type":"hello","protocol":null,"extra":[1]}"#,
        true,
        "null protocol, extra",
    ),
    (r#"{"type":"hello"}"#, false, "hello without name"),
    (r#"{"type":"hello","name":"  "}"#, false, "blank name"),
    (r#"{"type":"helo","name":"b"}"#, false, "wrong type"),
    (
        r#"{"type":"hello","name":"b","version":2}"#,
        false,
        "version not a string",
    ),
    (
        r#"{"type":"hello","name":"b","protocol":-1}"#,
        false,
        "negative protocol",
    ),
    (
        r#"{"type":"hello","name":"b","protocol":4294967296}"#,
        false,
        "protocol above u32",
    ),
    // Answers.
    (r#"{"id":7,"action":"bet","amount":4}"#, false, "bet"),
    (r#"{"action":"pack","id":9}"#, false, "fields in any order"),
    (r#"{"id":1,"action":"see"}"#, false, "see"),
    (r#"{"id":1,"action":"show"}"#, false, "show"),
    (r#"{"id":1,"action":"sideshow"}"#, false, "sideshow"),
    (r#"{"id":1,"action":"keep"}"#, false, "keep"),
    (r#"{"id":1,"action":"accept"}"#, false, "accept"),
    (r#"{"id":1,"action":"refuse"}"#, false, "refuse"),
    (r#"{"id":8,"action":"swap","card":"Kd"}"#, false, "swap"),
    (
        r#"{"id":8,"action":"swap","card":"10d","note":"hi"}"#,
        false,
        "10 for the ten",
    ),
    (
        r#"{"id":8,"action":"swap","card":"td"}"#,
        false,
        "lower-case rank",
    ),
    (
        r#"{"id":8,"action":"swap","card":"KD"}"#,
        false,
        "upper-case suit",
    ),
    (
        r#"{"id":1,"action":"pack","amount":3}"#,
        false,
        "a parameter pack ignores",
    ),
    (
        r#"{"id":1,"action":"bet","amount":4,"card":"As"}"#,
        false,
        "an ignored card",
    ),
    (r#"{"id":7,"action":"fly"}"#, false, "unknown action"),
    (r#"{"action":"pack"}"#, false, "no id"),
    (r#"{"id":7}"#, false, "no action"),
    (r#"{"id":"7","action":"pack"}"#, false, "id as a string"),
    (r#"{"id":-7,"action":"pack"}"#, false, "negative id"),
    (r#"{"id":7,"action":"bet"}"#, false, "bet without amount"),
    (
        r#"{"id":7,"action":"bet","amount":-2}"#,
        false,
        "negative amount",
    ),
    (
        r#"{"id":7,"action":"bet","amount":2.5}"#,
        false,
        "fractional amount",
    ),
    (
        r#"{"id":7,"action":"bet","amount":"4"}"#,
        false,
        "amount as a string",
    ),
    (r#"{"id":8,"action":"swap"}"#, false, "swap without card"),
    (r#"{"id":8,"action":"swap","card":"1s"}"#, false, "card 1s"),
    (
        r#"{"id":8,"action":"swap","card":"Kx"}"#,
        false,
        "unknown suit",
    ),
    (r#"{"id":8,"action":"swap","card":"11d"}"#, false, "rank 11"),
    (
        r#"{"id":8,"action":"swap","card":["Kd"]}"#,
        false,
        "card in an array",
    ),
    (r#"["id",8]"#, false, "not an object"),
    // Numbers: the whole number they equal, however written (JSON Schema's rule).
    (r#"{"id":7.0,"action":"pack"}"#, false, "an id written 7.0"),
    (
        r#"{"id":7,"action":"bet","amount":4.0}"#,
        false,
        "an amount written 4.0",
    ),
    (
        r#"{"id":7e0,"action":"bet","amount":0.4e1}"#,
        false,
        "numbers with exponents",
    ),
    (r#"{"id":7.5,"action":"pack"}"#, false, "a fractional id"),
    (
        r#"{"id":18446744073709551615,"action":"pack"}"#,
        false,
        "the largest id",
    ),
    (
        r#"{"id":18446744073709551616,"action":"pack"}"#,
        false,
        "an id of 2^64",
    ),
    (
        r#"{"id":7,"action":"bet","amount":1e30}"#,
        false,
        "an amount of 1e30",
    ),
    (
        r#"{"type":"hello","name":"b","protocol":1.0}"#,
        true,
        "protocol written 1.0",
    ),
    (
        r#"{"type":"hello","name":"b","protocol":"1"}"#,
        true,
        "protocol as a string",
    ),
    (r#"{"type":"hello","name":""}"#, true, "empty name"),
    (
        r#"{"id":7,"action":"bet","amount":4,"card":"Zz"}"#,
        false,
        "a bad card on a bet, ignored",
    ),
];

/// Bot lines on which the schema and the arena knowingly differ (the schema's description says
/// so): `(line, schema verdict, arena verdict, why)`. Listed so that a change on either side
/// shows up here.
const KNOWN_DIFFERENCES: &[(&str, bool, bool, &str)] = &[
    (
        r#"{"id":7,"action":"pack","id":8}"#,
        true,
        false,
        "a duplicate field: the JSON value keeps the last one, serde refuses it",
    ),
    (
        r#"{"id":7,"action":"swap","card":" As "}"#,
        false,
        true,
        "the arena trims a card; the schema asks for the plain form",
    ),
];

#[test]
fn bot_schema_accepts_and_rejects_what_the_arena_does() {
    let bot = bot_schema();
    let mut disagreements = Vec::new();
    for (line, is_hello, what) in BOT_LINES {
        let value: Value = serde_json::from_str(line).unwrap();
        let schema_ok = bot.is_valid(&value);
        let rust_ok = rust_accepts_bot_line(line, *is_hello);
        if schema_ok != rust_ok {
            disagreements.push(format!(
                "{what}: schema {schema_ok}, arena {rust_ok}: {line}"
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    for (line, schema_says, arena_says, why) in KNOWN_DIFFERENCES {
        let schema_ok = serde_json::from_str::<Value>(line).is_ok_and(|v| bot.is_valid(&v));
        assert_eq!(schema_ok, *schema_says, "schema on {line} ({why})");
        assert_eq!(
            rust_accepts_bot_line(line, false),
            *arena_says,
            "arena on {line} ({why})"
        );
    }

    // The brief's four classic mistakes, spelled out.
    for line in [
        r#"{"action":"pack"}"#,
        r#"{"id":7,"action":"fly"}"#,
        r#"{"id":8,"action":"swap","card":"1s"}"#,
        r#"{"id":7,"action":"bet"}"#,
    ] {
        assert!(
            !bot.is_valid(&serde_json::from_str(line).unwrap()),
            "{line}"
        );
    }
}

/// One rule for numbers on both sides (PROTOCOL.md, Transport): a number is the whole number it
/// equals, however written; anything else is refused by the schema and, with the value named,
/// by the arena.
#[test]
fn numbers_follow_one_rule_in_the_schema_and_the_arena() {
    let bot = bot_schema();
    let accepted = ["2", "2.0", "2e0", "0.2e1", "20e-1", "-0", "-0.0"];
    for amount in accepted {
        let line = format!(r#"{{"id":7,"action":"bet","amount":{amount}}}"#);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert!(bot.is_valid(&value), "schema refuses {line}");
        let answer = Answer::read(&line).unwrap_or_else(|e| panic!("arena refuses {line}: {e}"));
        let expected = if amount.starts_with('-') { 0 } else { 2 };
        assert_eq!(
            answer.action,
            rules::Action::Bet { amount: expected },
            "{line}"
        );
    }
    let refused = [
        ("2.5", "\"amount\":2.5 is not a whole number"),
        ("-2", "\"amount\":-2 is negative"),
        ("\"2\"", "\"amount\" is the string \"2\"; write a number"),
        (
            "18446744073709551616",
            "\"amount\":18446744073709551616 is above the largest allowed, 18446744073709551615",
        ),
        ("1e20", "\"amount\":1e20 is above the largest allowed"),
    ];
    for (amount, says) in refused {
        let line = format!(r#"{{"id":7,"action":"bet","amount":{amount}}}"#);
        let value: Value = serde_json::from_str(&line).unwrap();
        assert!(!bot.is_valid(&value), "schema accepts {line}");
        let message = Answer::read(&line).unwrap_err().message;
        assert!(message.starts_with(says), "{line}: {message}");
    }
    // The same for an id and for the hello's protocol.
    for (line, ok) in [
        (r#"{"id":7.0,"action":"pack"}"#, true),
        (r#"{"id":7.5,"action":"pack"}"#, false),
        (r#"{"type":"hello","name":"b","protocol":1.0}"#, true),
        (r#"{"type":"hello","name":"b","protocol":1.5}"#, false),
    ] {
        let value: Value = serde_json::from_str(line).unwrap();
        assert_eq!(bot.is_valid(&value), ok, "schema on {line}");
        assert_eq!(
            rust_accepts_bot_line(line, line.contains("hello")),
            ok,
            "arena on {line}"
        );
    }
}

// ----- (e) values built from the Rust types ----------------------------------------------------

#[test]
fn every_rust_message_validates() {
    let arena = arena_schema();
    for message in every_arena_message() {
        let value = serde_json::to_value(&message).unwrap();
        assert_valid(&arena, &value, "an ArenaMessage");
        // What goes on the wire is that same JSON, on one line.
        let line = message.to_line();
        assert!(!line.contains('\n'));
        assert_eq!(serde_json::from_str::<Value>(&line).unwrap(), value);
    }

    let bot = bot_schema();
    for action in every_action() {
        let answer = Answer { id: 7, action };
        let value = serde_json::to_value(&answer).unwrap();
        assert_valid(&bot, &value, "an Answer");
        let back = Answer::read(&value.to_string()).unwrap();
        assert_eq!(back, answer);
    }
    // A mix of every action (each once), with probabilities that add up to 1.
    let mut actions: Vec<rules::Action> = Vec::new();
    for action in every_action() {
        if !actions.contains(&action) {
            actions.push(action);
        }
    }
    let n = actions.len() as f64;
    let mix = protocol::MixAnswer {
        id: 8,
        mix: actions
            .into_iter()
            .map(|action| protocol::MixEntry { action, p: 1.0 / n })
            .collect(),
    };
    let value = serde_json::to_value(&mix).unwrap();
    assert_valid(&bot, &value, "a MixAnswer");
    let back = protocol::Reply::read(&value.to_string()).unwrap();
    assert_eq!(back, protocol::Reply::Mix(mix));
    // Both fields at once: the schema refuses it, as the arena does.
    let mut both = value.clone();
    both["action"] = "pack".into();
    assert!(!bot.is_valid(&both), "{both}");
    assert!(protocol::Reply::read(&both.to_string()).is_err());
    for hello in [
        BotHello {
            kind: "hello".into(),
            name: "my-bot".into(),
            version: "1.0".into(),
            protocol: Some(1),
        },
        BotHello {
            kind: "hello".into(),
            name: "my-bot".into(),
            version: String::new(),
            protocol: None,
        },
    ] {
        let value = serde_json::to_value(&hello).unwrap();
        assert_valid(&bot, &value, "a BotHello");
        assert_eq!(BotHello::read(&value.to_string()).unwrap(), hello);
    }
}

/// The names each Rust enum writes, as a set.
fn names<T: serde::Serialize>(
    items: impl IntoIterator<Item = T>,
    field: Option<&str>,
) -> BTreeSet<String> {
    items
        .into_iter()
        .map(|item| {
            let value = serde_json::to_value(item).unwrap();
            let name = match field {
                Some(field) => value[field].clone(),
                None => value,
            };
            name.as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn schema_enumerations_are_exactly_the_rust_enums() {
    let arena = schema_json(ARENA_TO_BOT);
    let bot = schema_json(BOT_TO_ARENA);
    let messages: Vec<Value> = every_arena_message()
        .iter()
        .map(|m| serde_json::to_value(m).unwrap())
        .collect();
    let of_type =
        |ty: &str| -> Vec<&Value> { messages.iter().filter(|m| m["type"] == ty).collect() };
    let events = of_type("event");
    let event_field = |kind: &str, field: &str| -> BTreeSet<String> {
        events
            .iter()
            .filter(|e| e["event"] == kind)
            .map(|e| e[field].as_str().unwrap().to_string())
            .collect()
    };

    let cases: Vec<(&str, BTreeSet<String>, BTreeSet<String>)> = vec![
        (
            "message types",
            schema_enum(&arena, "/properties/type/enum"),
            messages
                .iter()
                .map(|m| m["type"].as_str().unwrap().to_string())
                .collect(),
        ),
        (
            "event kinds",
            schema_enum(&arena, "/$defs/event/properties/event/enum"),
            events
                .iter()
                .map(|e| e["event"].as_str().unwrap().to_string())
                .collect(),
        ),
        (
            "variants",
            schema_enum(&arena, "/$defs/variant/enum"),
            names(Variant::ALL, None),
        ),
        (
            "sequence orders",
            schema_enum(&arena, "/$defs/settings/properties/sequence_order/enum"),
            names(every_sequence_order(), None),
        ),
        (
            "pack reasons",
            schema_enum(&arena, "/$defs/event_packed/properties/reason/enum"),
            event_field("packed", "reason"),
        ),
        (
            "reveal reasons",
            schema_enum(&arena, "/$defs/event_revealed/properties/reason/enum"),
            event_field("revealed", "reason"),
        ),
        (
            "end reasons",
            schema_enum(&arena, "/$defs/event_hand_ended/properties/reason/enum"),
            event_field("hand_ended", "reason"),
        ),
        (
            "hand value kinds",
            schema_enum(&arena, "/$defs/hand_value/properties/kind/enum"),
            names(every_hand_description(), Some("kind")),
        ),
        (
            "categories",
            schema_enum(&arena, "/$defs/hand_value/oneOf/0/properties/category/enum"),
            names(every_category(), None),
        ),
        (
            "decision kinds",
            schema_enum(&arena, "/$defs/request/properties/kind/enum"),
            names(every_decision_kind(), None),
        ),
        (
            "legal actions",
            schema_enum(&arena, "/$defs/legal_action/properties/action/enum"),
            names(every_legal_action(), Some("action")),
        ),
        (
            "actions (fault.applied)",
            schema_enum(&arena, "/$defs/action/properties/action/enum"),
            names(every_action(), Some("action")),
        ),
        (
            "fault kinds",
            schema_enum(&arena, "/$defs/fault/properties/fault/enum"),
            names(FaultKind::ALL, None),
        ),
        (
            "answer actions",
            schema_enum(&bot, "/$defs/answer/properties/action/enum"),
            names(every_action(), Some("action")),
        ),
    ];
    for (what, in_schema, in_rust) in cases {
        assert_eq!(in_schema, in_rust, "{what}: schema vs Rust");
    }
    // The categories Rust writes are those the evaluator produces.
    let described: BTreeSet<String> = every_hand_description()
        .iter()
        .filter_map(|d| {
            serde_json::to_value(d).unwrap()["category"]
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert_eq!(described, names(every_category(), None));
}

/// A small deterministic generator for the engine test.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Hands played by the rules engine, with random legal actions: every event as each seat sees
/// it, every request as the arena builds it, and every answer validate.
#[test]
fn engine_hands_validate_as_every_seat_sees_them() {
    let arena = arena_schema();
    let bot = bot_schema();
    let mut rng = Lcg(1);
    let mut id = 0;
    let mut kinds = BTreeSet::new();
    for variant in Variant::ALL {
        for hand_index in 0..150u64 {
            let seats = 2 + (hand_index as usize % 4);
            let settings = Settings {
                pot_limit: [40, 1024][hand_index as usize % 2],
                max_turns: [8, 500][hand_index as usize / 2 % 2],
                ..Settings::new(variant)
            };
            let dealer = hand_index as usize % seats;
            let (mut hand, mut events) =
                Hand::seeded(settings, seats, dealer, 42, hand_index).unwrap();
            loop {
                for event in &events {
                    for viewer in 0..seats {
                        let message = ArenaMessage::Event {
                            hand: hand_index,
                            event: event.for_seat(viewer, variant.has_blind_play()),
                        };
                        let value = serde_json::to_value(&message).unwrap();
                        kinds.insert(value["event"].as_str().unwrap().to_string());
                        assert_valid(&arena, &value, "an engine event");
                    }
                }
                let Some(decision) = hand.to_act() else { break };
                id += 1;
                let request = Request::from_hand(
                    &hand,
                    hand_index,
                    decision.kind,
                    decision.seat,
                    id,
                    1000,
                    10000,
                );
                let legal = request.legal.clone();
                let value = serde_json::to_value(ArenaMessage::Request(request)).unwrap();
                assert_valid(&arena, &value, "an engine request");
                let entry = &legal[rng.below(legal.len() as u64) as usize];
                let action = entry.instance(|n| rng.below(n));
                let answer = serde_json::to_value(Answer { id, action }).unwrap();
                assert_valid(&bot, &answer, "an answer");
                events = hand
                    .apply(decision.seat, action)
                    .expect("legal by construction");
            }
        }
    }
    for kind in [
        "dead",
        "redeal",
        "swapped",
        "saw",
        "sideshow_compared",
        "revealed",
    ] {
        assert!(
            kinds.contains(kind),
            "the engine hands never produced {kind}"
        );
    }
}

// ----- PROTOCOL.md agrees with the schemas and the transcripts ----------------------------------

fn protocol_md() -> String {
    fs::read_to_string(manifest_dir().join("PROTOCOL.md")).expect("PROTOCOL.md")
}

/// The text from `heading` (a whole heading line) to the next heading of any level.
fn doc_section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("PROTOCOL.md has no heading {heading:?}"))
        + heading.len()
        + 2;
    let rest = &doc[start..];
    let end = rest.find("\n#").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

fn schema_properties(schema: &Value, pointer: &str) -> Vec<String> {
    schema
        .pointer(pointer)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("no properties at {pointer}"))
        .keys()
        .cloned()
        .collect()
}

#[test]
fn protocol_md_documents_every_field_of_the_schema() {
    let doc = protocol_md();
    let arena = schema_json(ARENA_TO_BOT);
    let bot = schema_json(BOT_TO_ARENA);
    let tables: &[(&str, &Value, &[&str])] = &[
        (
            "### `hello` (arena to bot)",
            &arena,
            &[
                "/$defs/hello/properties",
                "/$defs/settings/properties",
                "/$defs/hello/properties/time/properties",
            ],
        ),
        (
            "### `hello` (bot to arena)",
            &bot,
            &["/$defs/hello/properties"],
        ),
        (
            "### `request` (arena to bot)",
            &arena,
            &["/$defs/request/properties", "/$defs/player/properties"],
        ),
        (
            "### Answer (bot to arena)",
            &bot,
            &[
                "/$defs/action_fields/oneOf/0/properties",
                "/$defs/action_fields/oneOf/1/properties",
                "/$defs/mix_answer/properties",
                "/$defs/mix_entry/properties",
                "/$defs/answer/properties",
            ],
        ),
        (
            "### `fault` (arena to bot)",
            &arena,
            &["/$defs/fault/properties"],
        ),
        (
            "### `match_end` (arena to bot)",
            &arena,
            &["/$defs/match_end/properties"],
        ),
    ];
    let mut missing = Vec::new();
    for (heading, schema, pointers) in tables {
        let section = doc_section(&doc, heading);
        for pointer in *pointers {
            for field in schema_properties(schema, pointer) {
                // `time` is documented in one row with its three fields.
                let row = format!("| `{field}` |");
                let inline = format!("`{field}`");
                let documented = section.contains(&row)
                    || (pointer.ends_with("/time/properties") && section.contains(&inline));
                if !documented {
                    missing.push(format!("{heading}: no row for `{field}`"));
                }
            }
        }
    }
    // The events table: one row per kind, naming each of the event's fields.
    let events = doc_section(&doc, "## Events");
    for kind in schema_enum(&arena, "/$defs/event/properties/event/enum") {
        let row_start = format!("| `{kind}` |");
        let Some(row) = events.lines().find(|line| line.starts_with(&row_start)) else {
            missing.push(format!("## Events: no row for `{kind}`"));
            continue;
        };
        let fields_cell = row.split('|').nth(2).unwrap_or_default();
        for field in schema_properties(&arena, &format!("/$defs/event_{kind}/properties")) {
            if field != "event" && !fields_cell.contains(&format!("`{field}`")) {
                missing.push(format!("## Events: `{kind}` does not list `{field}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "PROTOCOL.md lags behind the schemas:\n{}",
        missing.join("\n")
    );
}

/// Every transcript line quoted in PROTOCOL.md's annotated transcripts is a real recorded line.
#[test]
fn protocol_md_quotes_real_transcript_lines() {
    let doc = protocol_md();
    let start = doc
        .find("\n## Annotated transcripts\n")
        .expect("the section exists");
    let section = &doc[start..];
    let recorded: BTreeSet<String> = fs::read_dir(data_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .flat_map(|path| {
            fs::read_to_string(path)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let quoted: Vec<&str> = section
        .lines()
        .filter(|line| line.starts_with(">> ") || line.starts_with("<< "))
        .collect();
    assert!(quoted.len() > 50, "only {} quoted lines", quoted.len());
    for line in &quoted {
        assert!(
            recorded.contains(*line),
            "PROTOCOL.md quotes a line that no transcript holds:\n{line}"
        );
    }
    // The three games are each shown.
    for game in ["### Classic", "### Closest to 555", "### Lallan Kallan"] {
        assert!(section.contains(game), "no {game} transcript");
    }
}
