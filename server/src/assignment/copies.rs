//! Finding copies: two uploads whose sources are the same once normalised, and two bots
//! that play the same on the same deals.
//!
//! **Sources**: comments and whitespace are dropped, every string literal reads the same, and
//! every name is replaced by the order of its first appearance in its file (`a = b + a` and
//! `x = y + x` both read `v0 = v1 + v0`), so reformatting, re-commenting, rewording messages
//! and docstrings, and renaming variables all leave the same token stream. Two
//! uploads are flagged when those streams are equal. What MOSS and JPlag do for partial
//! copies (fingerprints of token runs) is left out: the behaviour check below catches an
//! edited copy that still plays the same.
//!
//! **Behaviour**: copy probe `k` against reference `r` deals the same cards to every upload
//! (graded blocks deal each upload its own: see `grader::block_seed`), and the reference bots
//! are deterministic given their seed (which comes from the deal and seat), so two students
//! who decide alike meet the same situations. Walking two
//! such matches hand by hand in step, every decision of the student's seat taken while both
//! hands are still identical is compared; the first difference ends the comparison of that
//! hand (the situations differ from there on). The share of identical decisions is near 1
//! for a copy and well below for bots written apart. A student against a reference compares
//! the two seat orders of one block or probe: the student in seat 0 of one and the reference in seat
//! 0 of the other see the same cards and the same history.

use std::collections::HashMap;

use super::summary::Move;

/// Decisions compared and how many were the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    pub compared: u64,
    pub identical: u64,
}

impl Agreement {
    pub fn add(&mut self, other: Agreement) {
        self.compared += other.compared;
        self.identical += other.identical;
    }

    /// The share of identical decisions (0 when none was compared).
    pub fn share(&self) -> f64 {
        if self.compared == 0 {
            0.0
        } else {
            self.identical as f64 / self.compared as f64
        }
    }
}

/// The decisions of seat `focus` in `a` compared with those of the same seat in `b`, the
/// hands played in step (see the module's comment).
pub fn agreement(a: &[Vec<Move>], b: &[Vec<Move>], focus: usize) -> Agreement {
    let mut out = Agreement::default();
    for (hand_a, hand_b) in a.iter().zip(b) {
        for (x, y) in hand_a.iter().zip(hand_b) {
            if x.0 != y.0 {
                break;
            }
            if x.0 == focus {
                out.compared += 1;
                if x.1 == y.1 {
                    out.identical += 1;
                } else {
                    break;
                }
            } else if x.1 != y.1 {
                break;
            }
        }
    }
    out
}

/// An upload's source reduced to what a copy keeps: tokens without comments or whitespace,
/// names numbered by first appearance. `files` are (path, text) of its source files.
pub fn normalised_source(files: &[(String, String)]) -> String {
    // Each file on its own (names numbered within it), then sorted: a renamed file, or files
    // in another order, read the same.
    let mut normalised: Vec<String> = files
        .iter()
        .map(|(_, text)| normalised_file(text))
        .collect();
    normalised.sort();
    normalised.join("\n")
}

fn normalised_file(text: &str) -> String {
    let mut out = String::new();
    let mut names: HashMap<&str, usize> = HashMap::new();
    for token in tokens(text) {
        match token {
            Token::Word(w) => {
                let next = names.len();
                let n = *names.entry(w).or_insert(next);
                out.push_str(&format!("v{n} "));
            }
            Token::Other(t) => {
                out.push_str(t);
                out.push(' ');
            }
        }
    }
    out
}

enum Token<'a> {
    Word(&'a str),
    Other(&'a str),
}

/// The tokens of a source in any of the kits' languages: words (names and keywords alike),
/// string literals (as one placeholder), numbers, and single punctuation characters. Comments (`#`, `//` and
/// `/* */`) and whitespace are skipped. Python's `#` and C's `#include` both read as comments:
/// an include line is not what makes two bots alike.
fn tokens(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' || (c == b'/' && bytes.get(i + 1) == Some(&b'/')) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(bytes.len());
        } else if c == b'"' || c == b'\'' || c == b'`' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            // A string's text (a docstring, a log message) is the easiest thing to edit in a
            // copy and says little about the program: every string reads the same.
            out.push(Token::Other("\"S\""));
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
            {
                i += 1;
            }
            out.push(Token::Word(&text[start..i]));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            out.push(Token::Other(&text[start..i]));
        } else {
            // One character (the text is UTF-8: step over a whole character).
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push(Token::Other(&text[i..i + len]));
            i += len;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> String {
        normalised_source(&[("bot.py".into(), text.into())])
    }

    #[test]
    fn renaming_reformatting_and_comments_leave_the_same_source() {
        let original = "import json, sys\n# a bot\ndef act(state):\n    best = state['min']\n    return {'action': 'bet', 'amount': best}\n";
        let copy = "import json,sys\ndef   decide(s):  # mine!\n\n    m = s['min']\n    return {'action':'bet','amount':m}\n";
        assert_eq!(one(original), one(copy));
        let other = "import json, sys\ndef act(state):\n    return {'action': 'pack'}\n";
        assert_ne!(one(original), one(other));
        // A renamed file is the same file.
        assert_eq!(
            normalised_source(&[("a.py".into(), original.into())]),
            normalised_source(&[("b.py".into(), copy.into())])
        );
    }

    #[test]
    fn c_comments_and_strings() {
        let a = "/* bot */ int main() { puts(\"hi // not a comment\"); return 0; }";
        let b = "int main(){puts(\"hi // not a comment\");\n// done\nreturn 0;}";
        assert_eq!(one(a), one(b));
        // Strings are placeholders: rewording a message changes nothing; the code does.
        assert_eq!(one(a), one(&b.replace("hi", "ho")));
        assert_ne!(one(a), one(&b.replace("return 0", "return 1")));
    }

    fn hand(moves: &[(usize, &str)]) -> Vec<Move> {
        moves.iter().map(|(s, a)| (*s, a.to_string())).collect()
    }

    #[test]
    fn decisions_are_compared_until_the_hands_part() {
        let a = vec![
            hand(&[(0, "see"), (1, "bet 2"), (0, "bet 2"), (1, "show")]),
            hand(&[(1, "see"), (0, "pack")]),
        ];
        // Same first decision, then seat 0 bets where `a` packed... in hand 1 only.
        let b = vec![
            hand(&[(0, "see"), (1, "bet 2"), (0, "bet 2"), (1, "show")]),
            hand(&[(1, "see"), (0, "bet 2"), (1, "pack")]),
        ];
        let seat0 = agreement(&a, &b, 0);
        assert_eq!(
            seat0,
            Agreement {
                compared: 3,
                identical: 2
            }
        );
        // Seat 1 decided alike while the hands were the same.
        assert_eq!(
            agreement(&a, &b, 1),
            Agreement {
                compared: 3,
                identical: 3
            }
        );
        // The other seat deciding differently ends the comparison of the hand.
        let c = vec![hand(&[(0, "see"), (1, "pack"), (0, "bet 2")])];
        assert_eq!(
            agreement(&a[..1], &c, 0),
            Agreement {
                compared: 1,
                identical: 1
            }
        );
        assert!((seat0.share() - 2.0 / 3.0).abs() < 1e-12);
    }
}
