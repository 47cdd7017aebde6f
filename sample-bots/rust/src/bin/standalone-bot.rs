//! The Rust starter bot for the contest server: one file, Rust's standard library only. The
//! server builds a Rust upload with `rustc -O main.rs` (no cargo, no crates), so the kit's
//! other bots, which use the `sample_bots` and `protocol` crates, cannot be uploaded; this
//! one can. It plays like starter-bot and minimal_bot.py: sees at once (classic), bets the
//! minimum, keeps its cards (closest-555), refuses sideshows. Your strategy goes in `decide`.
//!
//! Build: `cargo build --release -p sample-bots --bin standalone-bot` (or `rustc -O
//! standalone-bot.rs`). Upload: `arena pack sample-bots/rust --main
//! src/bin/standalone-bot.rs -o bot.zip` packs it as the `main.rs` the server builds.
//!
//! Below `decide`, a small JSON reader (the protocol's messages are JSON lines) and the loop
//! that answers hello, reads every line and writes each answer with its request's id.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

/// One answer; the loop adds the request's id.
enum Answer {
    /// `see`, `keep`, `refuse`, `pack`, `show`, `sideshow`, `accept`.
    Action(&'static str),
    /// A bet of this many chips, between the legal entry's `min` and `max`.
    Bet(i64),
    /// Swap this card (closest-555), one of the legal entry's `cards` (the starter never
    /// swaps: allowed unused until your strategy does).
    #[allow(dead_code)]
    Swap(String),
}

/// The answer to one request. What you can read (PROTOCOL.md, "Requests"):
/// - `request["kind"]`: `"bet"`, `"swap"` or `"sideshow_reply"`;
/// - `legal(request, "bet")`: the legal entry of that action, with `min`, `max`,
///   `multiple_of` for a bet, `cards` and `cost` for a swap;
/// - `request["cards"]`: your three cards (absent while blind in the classic game),
///   `request["pot"]`, `request["stake"]`, `request["players"]`, `request["known"]`.
fn decide(request: &Json) -> Answer {
    if legal(request, "see").is_some() {
        return Answer::Action("see"); // classic: look at the cards first
    }
    if let Some(bet) = legal(request, "bet") {
        return Answer::Bet(bet["min"].as_i64().unwrap_or(0)); // bet the minimum: chaal
    }
    if legal(request, "keep").is_some() {
        return Answer::Action("keep"); // closest-555: keep the three cards
    }
    if legal(request, "refuse").is_some() {
        return Answer::Action("refuse"); // someone asked us for a sideshow
    }
    Answer::Action("pack")
}

/// The entry of `request["legal"]` for `action`, if that action is legal.
fn legal<'a>(request: &'a Json, action: &str) -> Option<&'a Json> {
    request["legal"]
        .as_array()
        .iter()
        .find(|entry| entry["action"].as_str() == Some(action))
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let message = match Json::parse(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("standalone-bot: cannot read {line:?}: {e}"); // stderr is the log
                continue;
            }
        };
        let reply = match message["type"].as_str() {
            Some("hello") => {
                r#"{"type":"hello","name":"standalone-bot","version":"1.0","protocol":1}"#.into()
            }
            Some("request") => answer_line(&message, decide(&message)),
            Some("fault") => {
                eprintln!("standalone-bot: FAULT {line}");
                continue;
            }
            Some("match_end") => break,
            _ => continue, // events, and messages this bot does not know
        };
        // The flush matters: without it the arena never gets the line.
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}

/// The answer as a protocol line, with the request's id.
fn answer_line(request: &Json, answer: Answer) -> String {
    let id = request["id"].as_i64().unwrap_or(0);
    match answer {
        Answer::Action(action) => format!(r#"{{"id":{id},"action":"{action}"}}"#),
        Answer::Bet(amount) => format!(r#"{{"id":{id},"action":"bet","amount":{amount}}}"#),
        Answer::Swap(card) => format!(r#"{{"id":{id},"action":"swap","card":"{card}"}}"#),
    }
}

/// A JSON value. Numbers keep their text: seeds are 64-bit and would not fit an f64.
#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    Array(Vec<Json>),
    Object(BTreeMap<String, Json>),
}

static NULL: Json = Json::Null;

impl std::ops::Index<&str> for Json {
    type Output = Json;
    /// A field, or null when missing (or not an object): lookups chain safely.
    fn index(&self, key: &str) -> &Json {
        match self {
            Json::Object(map) => map.get(key).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
}

impl Json {
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// The items of an array (none for anything else).
    fn as_array(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }

    fn parse(text: &str) -> Result<Json, String> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            at: 0,
        };
        let value = reader.value(0)?;
        reader.space();
        if reader.at != reader.bytes.len() {
            return Err(format!("unexpected text at byte {}", reader.at));
        }
        Ok(value)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        let found = self.bytes.get(self.at) == Some(&byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 64 {
            return Err("nested too deep".into());
        }
        self.space();
        let rest = &self.bytes[self.at..];
        for (word, value) in [
            ("null", Json::Null),
            ("true", Json::Bool(true)),
            ("false", Json::Bool(false)),
        ] {
            if rest.starts_with(word.as_bytes()) {
                self.at += word.len();
                return Ok(value);
            }
        }
        match rest.first() {
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    if !self.eat(b',') {
                        return Err(format!("expected , or ] at byte {}", self.at));
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut map = BTreeMap::new();
                if self.eat(b'}') {
                    return Ok(Json::Object(map));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(format!("expected : at byte {}", self.at));
                    }
                    map.insert(key, self.value(depth + 1)?);
                    if self.eat(b'}') {
                        return Ok(Json::Object(map));
                    }
                    if !self.eat(b',') {
                        return Err(format!("expected , or }} at byte {}", self.at));
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|b| b"+-.eE0123456789".contains(b))
                {
                    self.at += 1;
                }
                Ok(Json::Number(
                    String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned(),
                ))
            }
            _ => Err(format!("unexpected byte {}", self.at)),
        }
    }

    /// A string, at its opening quote; escapes decoded (`\uXXXX` pairs included).
    fn string(&mut self) -> Result<String, String> {
        if self.bytes.get(self.at) != Some(&b'"') {
            return Err(format!("expected a string at byte {}", self.at));
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&byte) = self.bytes.get(self.at) else {
                return Err("unterminated string".into());
            };
            self.at += 1;
            match byte {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let Some(&escape) = self.bytes.get(self.at) else {
                        return Err("unterminated string".into());
                    };
                    self.at += 1;
                    let c = match escape {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => self.unicode()?,
                        other => char::from(other), // \" \\ \/
                    };
                    out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                _ => out.push(byte),
            }
        }
    }

    /// The character of a `\u` escape (after the `u`), joining a surrogate pair.
    fn unicode(&mut self) -> Result<char, String> {
        let high = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&high) && self.bytes[self.at..].starts_with(b"\\u")
        {
            self.at += 2;
            let low = self.hex4()?;
            0x10000 + ((high - 0xd800) << 10) + (low.wrapping_sub(0xdc00) & 0x3ff)
        } else {
            high
        };
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| format!("bad \\u escape at byte {}", self.at))?;
        self.at += 4;
        Ok(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_request_and_answers_it() {
        let line = r#"{"type":"request","id":17,"hand":0,"kind":"bet","legal":[{"action":"pack"},{"action":"bet","min":2,"max":8,"multiple_of":1}],"pot":3,"stake":1,"cards":["As","Kd","9h"],"seed":18446744073709551615,"note":"caf\u00e9 \ud83c\udca1 \"q\""}"#;
        let request = Json::parse(line).unwrap();
        assert_eq!(request["seed"], Json::Number("18446744073709551615".into()));
        assert_eq!(request["note"].as_str(), Some("café 🂡 \"q\""));
        assert_eq!(request["missing"]["deeper"], Json::Null);
        assert_eq!(
            answer_line(&request, decide(&request)),
            r#"{"id":17,"action":"bet","amount":2}"#
        );
    }

    #[test]
    fn bad_lines_are_errors_not_panics() {
        for bad in [
            "",
            "{",
            "[1,",
            "\"\\u12",
            "{\"a\" 1}",
            "nul",
            "[1] x",
            &"[".repeat(100),
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?}");
        }
    }
}
