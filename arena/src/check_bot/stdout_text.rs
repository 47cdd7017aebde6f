//! A bot that prints its debug output on stdout: the most common first mistake. The line is
//! refused as `malformed`, and the bot's real answer that follows it would be read as the
//! answer to the next request (a `wrong_id`), and so on: one cause, a cascade of failures.
//! The checker recognises such a line, says once where logs belong, and stops there.

use protocol::FaultKind;

use crate::referee::SeatFault;

/// What to do instead, in the words of each starter kit's language.
pub const HINT: &str = "stdout carries the protocol: every line a bot writes there must be one \
JSON object. Write logs and debug output to stderr instead (Python: print(..., file=sys.stderr); \
JavaScript: console.error; C: fprintf(stderr, ...); Java: System.err.println; Rust: eprintln!); \
`--logs DIR` keeps them";

/// Whether `fault` is a line of text on the bot's stdout rather than an attempt at an answer:
/// a malformed line that does not even start as a JSON object (a debug `print`, a number, an
/// empty line). A line starting with `{` is an answer gone wrong, which no other line follows.
pub fn is_text_on_stdout(fault: &SeatFault) -> bool {
    fault.kind == FaultKind::Malformed
        && fault
            .line
            .as_deref()
            .is_some_and(|line| !line.trim_start().starts_with('{'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn malformed(line: &str) -> SeatFault {
        SeatFault {
            kind: FaultKind::Malformed,
            detail: "not an answer".into(),
            line: Some(line.into()),
            broken: false,
            stderr: None,
        }
    }

    #[test]
    fn text_is_told_apart_from_a_broken_answer() {
        for text in ["thinking about request 1", "3", "", "  [1, 2]", "pack"] {
            assert!(is_text_on_stdout(&malformed(text)), "{text:?}");
        }
        for answer in ["{\"id\":1}", " {'id': 1, 'action': 'pack'}", "{\"id\":1,"] {
            assert!(!is_text_on_stdout(&malformed(answer)), "{answer:?}");
        }
        let mut wrong_id = malformed("thinking");
        wrong_id.kind = FaultKind::WrongId;
        assert!(!is_text_on_stdout(&wrong_id));
        let mut no_line = malformed("");
        no_line.line = None;
        assert!(!is_text_on_stdout(&no_line));
    }
}
