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

use std::io::{self, Read, Write};
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
    let mut lines = LineBuffer::default();
    let mut answer = Vec::with_capacity(64);
    while let Some(line) = lines.next_line(&mut input) {
        match message_type(line) {
            Some(b"request") => {
                if let Some(think) = think {
                    std::thread::sleep(think);
                }
                answer.clear();
                if let Some(id) = number_after(line, b"\"id\":") {
                    write_answer(&mut answer, id, decide(line));
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

/// Lines read in big chunks and split with `memchr` (std's `read_until` scans byte-wise
/// words and copies every line out of its buffer: most of this bot's time).
struct LineBuffer {
    /// Always full length; bytes `start..end` are read but not yet handed out.
    data: Vec<u8>,
    start: usize,
    end: usize,
    /// End of the line handed out last (and its newline); consumed at the next call.
    consumed: usize,
}

impl Default for LineBuffer {
    fn default() -> LineBuffer {
        LineBuffer {
            data: vec![0; 64 * 1024],
            start: 0,
            end: 0,
            consumed: 0,
        }
    }
}

impl LineBuffer {
    /// The next line without its newline; `None` at end of input or on a read error.
    fn next_line(&mut self, input: &mut impl Read) -> Option<&[u8]> {
        self.start = self.consumed;
        loop {
            if let Some(at) = memchr::memchr(b'\n', &self.data[self.start..self.end]) {
                let line_end = self.start + at;
                self.consumed = line_end + 1;
                return Some(&self.data[self.start..line_end]);
            }
            // No whole line left: move the partial one to the front (growing the buffer if it
            // is full), then read more after it.
            self.data.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            self.consumed = 0;
            if self.end == self.data.len() {
                self.data.resize(self.data.len() * 2, 0);
            }
            match input.read(&mut self.data[self.end..]) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.end += n,
            }
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
    // The arena writes `kind` and then `legal` right after the id: search on from the kind.
    const KIND: &[u8] = b"\"kind\":\"";
    let line = find(line, KIND).map_or(line, |at| &line[at + KIND.len()..]);
    let kind = memchr::memchr(b'"', line).map(|end| &line[..end]);
    match kind {
        Some(b"swap") => Choice::Keep,
        Some(b"sideshow_reply") => Choice::Refuse,
        _ => {
            // Search only the legal entries, `"legal":[{...},...]`: a bet decision's entries
            // hold no arrays, so they end at the first `]`. (The whole request is several
            // times longer, and this bot's cost must stay small next to the arena's.)
            let legal = find(line, b"\"legal\":[")
                .map(|at| &line[at..])
                .map(|rest| match memchr::memchr(b']', rest) {
                    Some(end) => &rest[..end],
                    None => rest,
                })
                .unwrap_or(line);
            // Each entry starts with `{"action":"NAME"`; a bet entry goes on `,"min":N`.
            let (mut see, mut bet) = (false, None);
            let mut rest = legal;
            while let Some(at) = memchr::memchr(b'{', rest) {
                rest = &rest[at + 1..];
                match rest.strip_prefix(b"\"action\":\"") {
                    Some(name) if name.starts_with(b"see\"") => see = true,
                    Some(name) if name.starts_with(b"bet\"") => {
                        bet = number_after(name, b"\"min\":");
                    }
                    _ => {}
                }
            }
            match (see, bet) {
                (true, _) => Choice::See,
                (false, Some(min)) => Choice::Bet(min),
                (false, None) => Choice::Pack,
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

/// The first `needle` in `haystack`: every key searched starts with a quote, so candidates
/// are the quotes, which `memchr` finds fast.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    memchr::memchr_iter(first, haystack).find(|&at| haystack[at..].starts_with(needle))
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
