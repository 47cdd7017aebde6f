//! The two writes of the process layer that the arena's other code shares: a private file
//! (a bot's stderr log) and a line on stderr that cannot fail (the warning of
//! [`default_level`](crate::default_level)). The arena's `console::output` re-exports them,
//! so that every write of its own goes through the same two functions.

use std::io::{self, Write};
use std::path::Path;

/// Writes `line` and a newline to stderr; any failure (a closed pipe, a full disk) is
/// ignored, so a message can never take the program (or a signal handler) down.
pub fn eprint_line(line: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(line.as_bytes());
    let _ = err.write_all(b"\n");
    let _ = err.flush();
}

/// Creates (or truncates) `path` readable and writable by the arena's user only (0600 when
/// created): replays, transcripts and stderr logs hold cards, and a bot running as a user of
/// its own (the `limits` level under root) must not follow its match from them.
pub fn create_private(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}
