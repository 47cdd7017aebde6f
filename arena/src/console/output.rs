//! Writing to stdout and stderr without panicking on a closed pipe (`arena ... | head`), and
//! the small helpers every command uses for the files it writes.
//!
//! `println!` and `eprintln!` panic when the stream is gone (Rust ignores SIGPIPE, so a write
//! to a pipe without a reader fails with EPIPE). The binary uses these functions instead:
//! stdout failures come back to `main`, which exits quietly (like ripgrep); stderr failures are
//! dropped, as there is nowhere left to report them.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

// The sandbox crate's own (a bot's stderr log, the default level's warning), re-exported: one
// function each for the whole arena.
pub use sandbox::{create_private, eprint_line};

/// Writes `text` to stdout; a broken pipe comes back as an error that `main` exits quietly on.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// An IO error as a short reason for a message that already names the file:
/// `permission denied`, not `Permission denied (os error 13)`.
pub fn io_reason(error: &io::Error) -> String {
    let text = error.to_string();
    let text = match text.find(" (os error ") {
        Some(at) => &text[..at],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_string(),
    }
}

/// The folder a file was to be written in could not be created.
#[derive(Debug, thiserror::Error)]
#[error("cannot create folder {}: {}", dir.display(), io_reason(reason))]
pub struct CreateFolderError {
    pub dir: PathBuf,
    /// Said in the message as a short reason, so not a `source` (it would be said twice).
    pub reason: io::Error,
}

/// Creates the folder that `file` is to be written in, if it is missing: every command that
/// writes a file accepts a path in a folder that does not exist yet.
pub fn create_parent(file: &Path) -> Result<(), CreateFolderError> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            create_dir_all(dir).map_err(|reason| CreateFolderError {
                dir: dir.to_path_buf(),
                reason,
            })
        }
        _ => Ok(()),
    }
}

/// `std::fs::create_dir_all`, with a clear reason when a file stands where the folder should
/// be (std says `File exists`, which reads as if all were well).
pub fn create_dir_all(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        if e.kind() == io::ErrorKind::AlreadyExists {
            io::Error::new(
                e.kind(),
                format!("{} is a file, not a folder", dir.display()),
            )
        } else {
            e
        }
    })
}

/// An error and its causes, `: `-separated (as `main` says them, less its short IO reasons):
/// what tests of the library's errors look for a cause in.
#[cfg(test)]
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_reasons_are_short_and_lower_case() {
        let e = io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(io_reason(&e), "permission denied");
        let e = io::Error::other("Custom words");
        assert_eq!(io_reason(&e), "custom words");
    }
}
