//! A transcript of everything said with one bot: `>> ` before each line the arena wrote, `<< `
//! before each line the bot wrote. For bot authors debugging their bot, and for checking
//! recorded exchanges against the protocol's JSON Schemas.
//!
//! Bounded like a stderr log: the first `keep` bytes are written as they come, the last `keep`
//! bytes are held in memory and written when the transcript ends (closed or dropped), after a
//! `[... N bytes dropped ...]` line. A bot that floods the arena with lines (stale answers
//! after every request) costs at most `2 * keep` bytes of disk.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Default `--max-transcript-mb`: the first and last 8 MiB of a transcript; a 100-hand
/// two-seat match writes about 100 KB per seat.
pub const DEFAULT_MAX_TRANSCRIPT_MB: u64 = 16;

#[derive(Debug)]
pub struct Transcript {
    out: BufWriter<File>,
    /// Bytes still to write at the head.
    head_left: usize,
    /// The last bytes past the head, at most `keep`.
    tail: VecDeque<u8>,
    keep: usize,
    dropped: u64,
    /// The head ends mid-line (a line longer than the head's room).
    head_mid_line: bool,
    /// A reused buffer for one line.
    line: Vec<u8>,
    finished: bool,
}

impl Transcript {
    /// A transcript at `path` of at most `max_bytes` (plus the line saying what was dropped).
    pub fn create(path: &Path, max_bytes: u64) -> io::Result<Transcript> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let keep = usize::try_from(max_bytes / 2).unwrap_or(usize::MAX);
        Ok(Transcript {
            // A seat's cards: the arena's user's only.
            out: BufWriter::new(crate::console::output::create_private(path)?),
            head_left: keep,
            tail: VecDeque::new(),
            keep,
            dropped: 0,
            head_mid_line: false,
            line: Vec::new(),
            finished: false,
        })
    }

    /// Lines the arena wrote (`block` holds whole lines, each ending in a newline).
    pub fn sent(&mut self, block: &str) {
        for line in block.lines() {
            self.write_line(b">> ", line);
        }
    }

    /// A line the bot wrote.
    pub fn received(&mut self, line: &str) {
        self.write_line(b"<< ", line);
    }

    fn write_line(&mut self, prefix: &[u8], text: &str) {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        line.extend_from_slice(prefix);
        line.extend_from_slice(text.as_bytes());
        line.push(b'\n');
        self.push(&line);
        self.line = line;
    }

    fn push(&mut self, bytes: &[u8]) {
        let to_head = self.head_left.min(bytes.len());
        if to_head > 0 {
            let _ = self.out.write_all(&bytes[..to_head]);
            self.head_left -= to_head;
            self.head_mid_line = bytes[to_head - 1] != b'\n';
        }
        let rest = &bytes[to_head..];
        if rest.is_empty() {
            return;
        }
        let rest = if rest.len() > self.keep {
            self.dropped += (rest.len() - self.keep) as u64;
            &rest[rest.len() - self.keep..]
        } else {
            rest
        };
        let excess = (self.tail.len() + rest.len()).saturating_sub(self.keep);
        self.dropped += excess as u64;
        self.tail.drain(..excess);
        self.tail.extend(rest);
    }

    /// Writes what is buffered of the head (the tail waits for the end).
    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }

    /// Writes the tail and flushes; later lines are ignored. Also done on drop.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        if self.dropped > 0 {
            let newline = if self.head_mid_line { "\n" } else { "" };
            let _ = writeln!(
                self.out,
                "{newline}[... {} bytes dropped ...]",
                self.dropped
            );
        }
        let (a, b) = self.tail.as_slices();
        let _ = self.out.write_all(a);
        let _ = self.out.write_all(b);
        self.tail = VecDeque::new();
        self.head_left = 0;
        self.keep = 0;
        let _ = self.out.flush();
    }
}

impl Drop for Transcript {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(max_bytes: u64, lines: &[&str]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.txt");
        let mut t = Transcript::create(&path, max_bytes).unwrap();
        for line in lines {
            t.received(line);
        }
        drop(t);
        std::fs::read_to_string(&path).unwrap()
    }

    #[test]
    fn a_short_transcript_is_whole() {
        assert_eq!(written(100, &["a", "b"]), "<< a\n<< b\n");
    }

    #[test]
    fn a_long_transcript_keeps_its_head_and_tail_and_counts_the_rest() {
        let lines: Vec<String> = (0..1000).map(|i| format!("{i:04}")).collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        // 8 bytes a line, 8000 in all: 40 kept at each end.
        let text = written(80, &refs);
        assert_eq!(
            text,
            "<< 0000\n<< 0001\n<< 0002\n<< 0003\n<< 0004\n\
             [... 7920 bytes dropped ...]\n\
             << 0995\n<< 0996\n<< 0997\n<< 0998\n<< 0999\n"
        );
        // One line longer than everything kept.
        let long = "x".repeat(1000);
        let text = written(20, &["ab", &long]);
        assert_eq!(
            text,
            format!(
                "<< ab\n<< x\n[... 990 bytes dropped ...]\n{}\n",
                "x".repeat(9)
            )
        );
    }
}
