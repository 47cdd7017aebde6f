//! The lightest legal bot, for benchmarks: it sees at once (classic), then always bets the
//! minimum (chaal), keeps its cards (closest-555) and refuses sideshows; a pack if nothing of
//! that is offered. Its own cost must stay negligible next to the arena's, so it reads the raw
//! request line with a few substring searches instead of parsing JSON: the arena writes
//! compact JSON, and a request's top-level `id` and `kind` and each legal entry's `action`
//! and `min` appear as `"key":value` with no spaces. Events are not parsed at all.
//!
//! `--think-ms N` sleeps N ms before each answer: a slow bot that costs no CPU, to keep many
//! matches alive at once (the arena's memory bench).
//!
//! Build: `cargo build --release -p sample-bots --bin chaal-bot`

use std::io::{self, BufRead, Write};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let think = args
        .iter()
        .position(|a| a == "--think-ms")
        .and_then(|i| args.get(i + 1))
        .and_then(|ms| ms.parse().ok())
        .map(Duration::from_millis);
    let mut input = io::stdin().lock();
    let mut output = io::BufWriter::new(io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    let mut answer = Vec::with_capacity(64);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        match message_type(&line) {
            Some(b"request") => {
                if let Some(think) = think {
                    std::thread::sleep(think);
                }
                answer.clear();
                if let Some(id) = number_after(&line, b"\"id\":") {
                    write_answer(&mut answer, id, decide(&line));
                }
                if output
                    .write_all(&answer)
                    .and_then(|_| output.flush())
                    .is_err()
                {
                    break;
                }
            }
            Some(b"hello") => {
                let hello = concat!(
                    r#"{"type":"hello","name":"chaal-bot","version":""#,
                    env!("CARGO_PKG_VERSION"),
                    r#"","protocol":1}"#,
                    "\n"
                );
                if output
                    .write_all(hello.as_bytes())
                    .and_then(|_| output.flush())
                    .is_err()
                {
                    break;
                }
            }
            Some(b"match_end") => break,
            _ => {}
        }
    }
}

/// What to answer, from the raw request line.
enum Choice {
    See,
    Bet(u64),
    Keep,
    Refuse,
    Pack,
}

fn decide(line: &[u8]) -> Choice {
    match string_after(line, b"\"kind\":\"") {
        Some(b"swap") => Choice::Keep,
        Some(b"sideshow_reply") => Choice::Refuse,
        _ => {
            if find(line, b"\"action\":\"see\"").is_some() {
                return Choice::See;
            }
            // A legal bet is `{"action":"bet","min":N,...}`.
            match find(line, b"\"action\":\"bet\"")
                .and_then(|at| number_after(&line[at..], b"\"min\":"))
            {
                Some(min) => Choice::Bet(min),
                None => Choice::Pack,
            }
        }
    }
}

fn write_answer(out: &mut Vec<u8>, id: u64, choice: Choice) {
    out.extend_from_slice(b"{\"id\":");
    push_number(out, id);
    let action: &[u8] = match choice {
        Choice::See => b",\"action\":\"see\"}\n",
        Choice::Keep => b",\"action\":\"keep\"}\n",
        Choice::Refuse => b",\"action\":\"refuse\"}\n",
        Choice::Pack => b",\"action\":\"pack\"}\n",
        Choice::Bet(amount) => {
            out.extend_from_slice(b",\"action\":\"bet\",\"amount\":");
            push_number(out, amount);
            b"}\n"
        }
    };
    out.extend_from_slice(action);
}

/// The value of the message's `"type"` (the arena writes it first; searched anyway).
fn message_type(line: &[u8]) -> Option<&[u8]> {
    const PREFIX: &[u8] = b"{\"type\":\"";
    if let Some(rest) = line.strip_prefix(PREFIX) {
        return rest.iter().position(|&b| b == b'"').map(|end| &rest[..end]);
    }
    string_after(line, b"\"type\":\"")
}

/// The text up to the next quote after the first `key` (which ends with its opening quote).
fn string_after<'a>(line: &'a [u8], key: &[u8]) -> Option<&'a [u8]> {
    let start = find(line, key)? + key.len();
    let rest = &line[start..];
    let end = rest.iter().position(|&b| b == b'"')?;
    Some(&rest[..end])
}

/// The unsigned integer right after the first `key`.
fn number_after(line: &[u8], key: &[u8]) -> Option<u64> {
    let start = find(line, key)? + key.len();
    let digits = line[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    line[start..start + digits].iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    let mut from = 0;
    while let Some(offset) = haystack[from..].iter().position(|&b| b == first) {
        let at = from + offset;
        if haystack[at..].starts_with(needle) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn push_number(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> String {
        let line = line.as_bytes();
        assert_eq!(message_type(line), Some(&b"request"[..]));
        let mut out = Vec::new();
        write_answer(
            &mut out,
            number_after(line, b"\"id\":").unwrap(),
            decide(line),
        );
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_each_kind_of_request() {
        let blind = r#"{"type":"request","id":7,"hand":0,"kind":"bet","legal":[{"action":"pack"},{"action":"see"},{"action":"bet","min":1,"max":2,"multiple_of":1}],"pot":2}"#;
        assert_eq!(answer(blind), "{\"id\":7,\"action\":\"see\"}\n");
        let seen = r#"{"type":"request","id":12345678901,"hand":3,"kind":"bet","legal":[{"action":"pack"},{"action":"bet","min":16,"max":32,"multiple_of":2},{"action":"show","cost":16}],"pot":2}"#;
        assert_eq!(
            answer(seen),
            "{\"id\":12345678901,\"action\":\"bet\",\"amount\":16}\n"
        );
        let swap = r#"{"type":"request","id":1,"hand":0,"kind":"swap","legal":[{"action":"swap","cards":["As","2d","3c"],"cost":0},{"action":"keep"}]}"#;
        assert_eq!(answer(swap), "{\"id\":1,\"action\":\"keep\"}\n");
        let reply = r#"{"type":"request","id":2,"hand":0,"kind":"sideshow_reply","legal":[{"action":"accept"},{"action":"refuse"}]}"#;
        assert_eq!(answer(reply), "{\"id\":2,\"action\":\"refuse\"}\n");
        let nothing =
            r#"{"type":"request","id":3,"hand":0,"kind":"bet","legal":[{"action":"pack"}]}"#;
        assert_eq!(answer(nothing), "{\"id\":3,\"action\":\"pack\"}\n");
    }

    #[test]
    fn reads_message_types() {
        assert_eq!(
            message_type(br#"{"type":"event","hand":0}"#),
            Some(&b"event"[..])
        );
        assert_eq!(
            message_type(br#"{"hand":0,"type":"match_end"}"#),
            Some(&b"match_end"[..])
        );
        assert_eq!(message_type(b"{}"), None);
    }
}
