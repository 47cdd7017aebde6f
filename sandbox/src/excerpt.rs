//! What of a bot's stderr its owner is shown when the bot fails to start, crashes or is
//! disabled: the last lines, bounded, safe to print on a terminal.
//!
//! The drain keeps the last [`SUMMARY_TAIL_BYTES`](super::SUMMARY_TAIL_BYTES) of every bot's
//! stderr in memory whether or not its log is kept (`--logs`), so the owner sees why the bot
//! died (Python's "can't open file", a traceback) without rerunning anything.

use super::stderr::{SUMMARY_TAIL_BYTES, StderrSummary};

/// Lines of stderr shown at most.
pub const EXCERPT_LINES: usize = 20;

impl StderrSummary {
    /// The last lines of the bot's stderr (at most [`EXCERPT_LINES`] lines and
    /// [`SUMMARY_TAIL_BYTES`] bytes), or `None` if it wrote nothing but blanks.
    pub fn excerpt(&self) -> Option<String> {
        excerpt(&self.tail, self.total_bytes > SUMMARY_TAIL_BYTES as u64)
    }
}

/// The last lines of `tail`, the end of a longer text when `cut`. Control characters (a
/// bot's terminal escapes) are written out as `\u{1b}`, so printing an excerpt never drives
/// the operator's terminal.
pub fn excerpt(tail: &str, cut: bool) -> Option<String> {
    let mut text = tail;
    // A tail cut by bytes starts mid-line: drop that fragment when whole lines follow it.
    if cut
        && let Some(newline) = text.find('\n')
        && !text[newline + 1..].trim().is_empty()
    {
        text = &text[newline + 1..];
    }
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let first = lines.len().saturating_sub(EXCERPT_LINES);
    let lines = &lines[first..];
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    let mut out = String::new();
    for (i, line) in lines[start..].iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for c in line.trim_end().chars() {
            if c.is_control() && c != '\t' {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
    }
    Some(out)
}

/// `excerpt` with `prefix` before every line, each line ending in a newline: for the
/// readable summaries.
pub fn indented(excerpt: &str, prefix: &str) -> String {
    excerpt
        .lines()
        .map(|line| format!("{prefix}{line}\n"))
        .collect()
}

/// The excerpt under a heading, every line after `indent` (each ending in a newline), or a
/// line saying the bot wrote nothing: what the readable reports show of a failed bot.
pub fn stderr_block(excerpt: Option<&str>, indent: &str) -> String {
    match excerpt {
        Some(text) => format!(
            "{indent}its last stderr lines:\n{}",
            indented(text, &format!("{indent}| "))
        ),
        None => format!("{indent}(nothing on its stderr)\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_lines_are_kept_and_blanks_dropped() {
        assert_eq!(excerpt("", false), None);
        assert_eq!(excerpt("\n  \n", false), None);
        assert_eq!(excerpt("\nboom\r\n\n", false).as_deref(), Some("boom"));
        let many: String = (0..30).map(|i| format!("line {i}\n")).collect();
        let shown = excerpt(&many, false).unwrap();
        assert_eq!(shown.lines().count(), EXCERPT_LINES);
        assert!(
            shown.starts_with("line 10\n") && shown.ends_with("line 29"),
            "{shown}"
        );
    }

    #[test]
    fn a_cut_tail_loses_its_partial_first_line_unless_it_is_all_there_is() {
        assert_eq!(excerpt("ial line\nwhole\n", true).as_deref(), Some("whole"));
        assert_eq!(excerpt("xxxxxxxx\n", true).as_deref(), Some("xxxxxxxx"));
        assert_eq!(
            excerpt("ial line\nwhole\n", false).as_deref(),
            Some("ial line\nwhole")
        );
    }

    #[test]
    fn control_characters_are_written_out() {
        assert_eq!(
            excerpt("\u{1b}[2Jgone\tx\u{7}\n", false).as_deref(),
            Some("\\u{1b}[2Jgone\tx\\u{7}")
        );
        assert_eq!(indented("a\nb", "  | "), "  | a\n  | b\n");
        assert_eq!(
            stderr_block(Some("boom"), "  "),
            "  its last stderr lines:\n  | boom\n"
        );
        assert_eq!(stderr_block(None, ""), "(nothing on its stderr)\n");
    }
}
