//! Errors of the process layer. Read and write errors are closed, cheap-to-match enums: the
//! referee turns them into bot faults.

use std::io;
use std::path::PathBuf;

/// The bot could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("bot `{name}`: empty command line")]
    EmptyArgv { name: String },
    #[error("bot `{name}`: program `{program}` not found{detail}")]
    ProgramNotFound {
        name: String,
        program: String,
        /// Where we looked, or a hint, already formatted (may be empty).
        detail: String,
    },
    /// The usual mistake with scripts: `--bot bots/x.py` without `chmod +x`.
    #[error(
        "bot `{name}`: {} exists but is not executable; chmod +x it or run it through its \
         interpreter{}",
        path.display(),
        interpreter_hint(path)
    )]
    NotExecutable { name: String, path: PathBuf },
    #[error("bot `{name}`: sandbox unavailable: {reason}")]
    SandboxUnavailable { name: String, reason: String },
    #[error("bot `{name}`: cannot prepare working directory {}: {source}", path.display())]
    Workdir {
        name: String,
        path: PathBuf,
        source: io::Error,
    },
    #[error("bot `{name}`: cannot create stderr log {}: {source}", path.display())]
    StderrLog {
        name: String,
        path: PathBuf,
        source: io::Error,
    },
    #[error("bot `{name}`: cannot start `{program}`: {source}")]
    Spawn {
        name: String,
        program: String,
        source: io::Error,
    },
}

/// ` (e.g. `python3 x.py`)` for a script whose interpreter its extension tells, else nothing.
fn interpreter_hint(path: &std::path::Path) -> String {
    let interpreter = match path.extension().and_then(|e| e.to_str()) {
        Some("py") => "python3",
        Some("js" | "mjs") => "node",
        Some("sh") => "sh",
        Some("rb") => "ruby",
        Some("pl") => "perl",
        Some("jar") => "java -jar",
        _ => return String::new(),
    };
    format!(" (e.g. `{interpreter} {}`)", path.display())
}

/// Why [`BotProcess::recv_line`](crate::BotProcess::recv_line) returned no line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The deadline passed first. Nothing is lost: a later call sees the line.
    #[error("no line before the deadline")]
    Timeout,
    /// End of stdout: the bot exited or closed it. Also every call after an error below.
    #[error("stdout closed")]
    Closed,
    /// A line longer than the configured maximum. The stream is unusable afterwards.
    #[error("line longer than the maximum")]
    LineTooLong,
    /// A line that isn't UTF-8. The stream is unusable afterwards.
    #[error("line is not valid UTF-8")]
    InvalidUtf8,
    /// Any other read error, formatted. The stream is unusable afterwards.
    #[error("read error: {0}")]
    Io(String),
}

/// Why [`BotProcess::send_line`](crate::BotProcess::send_line) failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The bot didn't take the line before the deadline (it stopped reading and the pipe is
    /// full). Part of the line may have been written: treat the bot as faulted.
    #[error("bot did not read its input before the deadline")]
    Timeout,
    /// Broken pipe (the bot exited or closed stdin), or stdin was already closed by us.
    #[error("stdin closed")]
    Closed,
    /// Any other write error, formatted.
    #[error("write error: {0}")]
    Io(String),
}
