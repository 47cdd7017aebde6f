//! What to run: [`BotSpec`], its resource [`Limits`] and its [`SandboxLevel`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Default cap on one stdout line, in bytes (newline excluded).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024;

/// Default number of stderr bytes kept at the head, and again at the tail, of a bot's log.
pub const DEFAULT_STDERR_KEEP_BYTES: usize = 64 * 1024;

/// `PATH` given to a bot whose [`BotSpec::env`] doesn't set one.
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How to start one bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotSpec {
    /// Display name, used in errors and logs.
    pub name: String,
    /// Program and arguments, already split. A program containing `/` but not starting with
    /// one is relative to `workdir`; a bare name is looked up in the bot's `PATH`.
    pub argv: Vec<String>,
    /// Working directory; created if missing. Also `HOME` unless `env` sets it.
    pub workdir: PathBuf,
    /// The bot's whole environment, on top of a cleared one. `PATH` defaults to
    /// [`DEFAULT_PATH`] and `HOME` to `workdir`.
    pub env: BTreeMap<String, String>,
    /// Where the capped stderr capture goes; created (truncated) at spawn.
    pub stderr_log: PathBuf,
    /// rlimits, applied at [`SandboxLevel::Limits`] and [`SandboxLevel::Bwrap`].
    pub limits: Limits,
    pub sandbox: SandboxLevel,
    /// Longest accepted stdout line; a longer one is [`ReadError::LineTooLong`].
    ///
    /// [`ReadError::LineTooLong`]: crate::bot::ReadError::LineTooLong
    pub max_line_bytes: usize,
    /// Bytes of stderr kept at the head and at the tail of the log (so at most twice this).
    pub stderr_keep_bytes: usize,
}

impl BotSpec {
    /// A spec with an empty extra environment, no limits beyond no core dumps
    /// ([`SandboxLevel::Limits`] with [`Limits::default`]) and the default size caps.
    pub fn new(
        name: impl Into<String>,
        argv: Vec<String>,
        workdir: impl Into<PathBuf>,
        stderr_log: impl Into<PathBuf>,
    ) -> BotSpec {
        BotSpec {
            name: name.into(),
            argv,
            workdir: workdir.into(),
            env: BTreeMap::new(),
            stderr_log: stderr_log.into(),
            limits: Limits::default(),
            sandbox: SandboxLevel::default(),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            stderr_keep_bytes: DEFAULT_STDERR_KEEP_BYTES,
        }
    }
}

/// Resource limits (setrlimit, inherited by everything the bot starts). `None` leaves the
/// arena's own limit in place. Core dumps are always disabled when limits apply.
///
/// Wall-clock deadlines remain the main defence: `cpu_seconds` stops busy loops only, never a
/// bot blocked in `sleep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// `RLIMIT_CPU` soft limit (the bot gets SIGXCPU); the hard limit one second later
    /// (SIGKILL).
    pub cpu_seconds: Option<u64>,
    /// `RLIMIT_DATA`: heap, brk and, on Linux >= 4.7, private writable mappings. We don't use
    /// `RLIMIT_AS`: runtimes that reserve large address ranges up front (the JVM, Node/V8, Go,
    /// some allocators) fail at startup under it even though they would use little memory.
    /// `RLIMIT_DATA` still trips them sometimes (the JVM heap reservation counts), so make it
    /// generous for such bots. A cgroup v2 `memory.max` would be the precise tool.
    pub memory_bytes: Option<u64>,
    /// `RLIMIT_FSIZE`: largest file the bot may write (SIGXFSZ, or EFBIG where ignored).
    pub file_size_bytes: Option<u64>,
    /// `RLIMIT_NOFILE`: highest file descriptor number + 1.
    pub open_files: Option<u64>,
}

/// How much isolation a bot gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxLevel {
    /// Own process group (in the arena's session), cleared environment, nothing else. Keeps
    /// the `posix_spawn` path.
    None,
    /// Own session (hence own process group, and no controlling terminal), the rlimits in
    /// [`Limits`] and no core dumps.
    #[default]
    Limits,
    /// As `Limits`, inside bubblewrap: no network, read-only `/`, private `/tmp`, private
    /// `/proc` and `/dev`, only the workdir writable. Needs `bwrap` on the bot's or the
    /// arena's `PATH`.
    Bwrap,
}
