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
    /// [`ReadError::LineTooLong`]: crate::ReadError::LineTooLong
    pub max_line_bytes: usize,
    /// Bytes of stderr kept at the head and at the tail of the log (so at most twice this).
    pub stderr_keep_bytes: usize,
    /// Paths the bot must not see, enforced at [`SandboxLevel::Bwrap`] only: inside the
    /// sandbox each directory is an empty read-only tmpfs and each file cannot be opened
    /// (`/dev/null` bound over it, on a `nodev` mount). They are mounted *before* the bot's
    /// own `workdir` is bound, so a workdir inside a hidden directory (a seat's directory
    /// under the match's directory) stays visible and writable, and its siblings do not.
    /// Typical entries: the directory holding every seat's workdir, the logs, transcripts
    /// and replay of the match.
    ///
    /// A path that does not exist when the bot starts is not hidden (there is nothing to
    /// mount over): create it first. The command line is the operator's, so naming a file
    /// there gives it to the bot: the program and every absolute path to a file in `argv`
    /// stay readable even inside a hidden directory (bound again, read-only, file by file),
    /// but the files next to them do not, so keep bots outside hidden directories. At
    /// [`SandboxLevel::None`] and [`SandboxLevel::Limits`] this list does nothing: the bot
    /// can read everything the arena's user can.
    pub hidden: Vec<PathBuf>,
    /// The arena made `workdir` for this bot alone (a seat's scratch directory). At
    /// [`SandboxLevel::Bwrap`] it is then a private tmpfs of at most
    /// [`Limits::disk_bytes`]; an operator's directory (`false`) is bound read-only instead
    /// (the bot writes in `/tmp`). At [`SandboxLevel::Limits`] under root, a private workdir
    /// is given to the bot's own uid.
    pub private_workdir: bool,
    /// An operator's workdir (`private_workdir == false`) the process may write in: bound
    /// read-write at [`SandboxLevel::Bwrap`] instead of read-only, and, where the process
    /// runs as a uid of its own (the arena is root), its tree is given to that uid first.
    /// For a build, whose products must outlive it. Ignored for a private workdir.
    pub writable_workdir: bool,
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
            hidden: Vec::new(),
            private_workdir: true,
            writable_workdir: false,
        }
    }
}

/// Resource limits (setrlimit, inherited by everything the bot starts, and the bot's cgroup
/// where cgroups are usable). `None` leaves the arena's own limit in place. Core dumps are
/// always disabled when limits apply.
///
/// Wall-clock deadlines remain the main defence: `cpu_seconds` stops busy loops only, never a
/// bot blocked in `sleep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// CPU time of the bot and everything it starts, together: with a cgroup that counts it,
    /// the whole bot is killed once it has used more (then `cgroup_usage.cpu_limit_hit`).
    /// Also each process's `RLIMIT_CPU` soft limit (SIGXCPU), with the hard limit one second
    /// later (SIGKILL): the only bound without cgroups.
    pub cpu_seconds: Option<u64>,
    /// CPU bandwidth of the bot and everything it starts, together, in thousandths of a CPU
    /// (1000: at most one CPU's worth of time, however many processes run): a cgroup CFS
    /// quota, with the same weight for every bot, so that a bot's spinning children cannot
    /// take the cores its opponent is thinking on. Needs cgroups with a `cpu` controller.
    ///
    /// Serialized only when it is not the front ends' [`DEFAULT_MILLICPUS`], and read as
    /// that when absent: a tournament planned before this limit existed keeps its
    /// fingerprint, and gets the default on resume.
    #[serde(
        default = "default_millicpus",
        skip_serializing_if = "is_default_millicpus"
    )]
    pub millicpus: Option<u64>,
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
    /// Processes and threads of the bot and everything it starts, together (cgroup
    /// `pids.max`; no per-bot bound without cgroups).
    pub processes: Option<u64>,
    /// Bytes the bot may write in its private `/tmp` and, separately, in a private workdir
    /// (tmpfs sizes at [`SandboxLevel::Bwrap`]; their pages also count as the bot's memory
    /// in its cgroup). At [`SandboxLevel::Limits`] only `file_size_bytes` bounds writing.
    pub disk_bytes: Option<u64>,
}

/// The CPU bandwidth every front end gives a bot unless told otherwise: one CPU, so that on a
/// machine of two a bot, whatever it spawns, leaves the other to its opponent.
pub const DEFAULT_MILLICPUS: u64 = 1000;

fn default_millicpus() -> Option<u64> {
    Some(DEFAULT_MILLICPUS)
}

fn is_default_millicpus(millicpus: &Option<u64>) -> bool {
    *millicpus == default_millicpus()
}

/// Fewest and most CPUs [`Limits::millicpus`] may name: the kernel's smallest quota is 1 %
/// of a CPU (1 ms per 100 ms period); more than 1024 CPUs is a typo, not a machine.
pub const CPUS_RANGE: (f64, f64) = (0.01, 1024.0);

/// A number of CPUs outside [`CPUS_RANGE`] (or not a number).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error(
    "{0} is not a number of CPUs from {min} to {max} (1 is one CPU's worth of time for the bot \
     and all it starts, 0.5 half of one)",
    min = CPUS_RANGE.0,
    max = CPUS_RANGE.1
)]
pub struct CpusError(pub f64);

/// A number of CPUs as the operator writes it (`1`, `0.5`, `2.25`) in thousandths of a CPU,
/// for [`Limits::millicpus`]; an error that says what is accepted otherwise.
pub fn millicpus(cpus: f64) -> Result<u64, CpusError> {
    let (min, max) = CPUS_RANGE;
    if !cpus.is_finite() || !(min..=max).contains(&cpus) {
        return Err(CpusError(cpus));
    }
    Ok((cpus * 1000.0).round() as u64)
}

/// How much isolation a bot gets. What each level does *not* contain matters as much as
/// what it does; ARCHITECTURE.md ("Sandbox levels", "Threat model") has the same lists.
/// Front ends use [`default_level`](crate::default_level): `Bwrap` where it works.
///
/// Every level: its own process group, a cleared environment (`PATH`, `HOME` and the spec's
/// `env` only), a private working directory as its current directory and `HOME`, piped
/// stdin/stdout/stderr (lines capped, stderr log capped) and wall-clock deadlines on every
/// read and write; everything it started is killed and reaped at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxLevel {
    /// Own process group (in the arena's session) and a cleared environment; the bot runs as
    /// the arena's user, root included. Only a cgroup without limits, where cgroups are
    /// usable, so that nothing it starts outlives it or the arena. For your own bots only.
    None,
    /// Resource control without isolation: own session (no controlling terminal), the
    /// rlimits of [`Limits`], no core dumps, a death signal when the arena dies; under root a
    /// uid of its own, an empty bounding set, no_new_privs and the seccomp filter; its own
    /// cgroup where cgroups are usable (processes, memory, every descendant killed, also by
    /// the guard process if the arena is killed).
    ///
    /// **Not isolation**: the bot reads whatever any user can (the arena's command line in
    /// `/proc`, world-readable logs, transcripts, replays, other projects), writes
    /// world-writable directories and has the network; [`BotSpec::hidden`] is ignored; disk
    /// is bounded per file only. The fallback where bubblewrap cannot run.
    #[default]
    Limits,
    /// As `Limits`, inside bubblewrap (`bwrap` on the bot's or the arena's `PATH`): own mount,
    /// PID, network (a down `lo`), IPC and UTS namespaces; a file system of only the system's
    /// runtime directories, the bot's own program and command-line files, its workdir (a
    /// private tmpfs of at most [`Limits::disk_bytes`]) and a private `/tmp` of the same
    /// size; no capability; the seccomp filter; [`BotSpec::hidden`] masked. The default
    /// wherever it works.
    Bwrap,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cpu_bandwidth_is_left_out_of_the_serialized_limits() {
        let limits = Limits {
            cpu_seconds: Some(600),
            millicpus: Some(DEFAULT_MILLICPUS),
            ..Limits::default()
        };
        let json = serde_json::to_string(&limits).unwrap();
        assert!(!json.contains("millicpus"), "{json}");
        assert_eq!(serde_json::from_str::<Limits>(&json).unwrap(), limits);
        for other in [None, Some(500)] {
            let limits = Limits {
                millicpus: other,
                ..limits
            };
            let json = serde_json::to_string(&limits).unwrap();
            assert_eq!(serde_json::from_str::<Limits>(&json).unwrap(), limits);
        }
    }

    #[test]
    fn cpus_become_millicpus_within_the_range() {
        assert_eq!(millicpus(1.0), Ok(1000));
        assert_eq!(millicpus(0.5), Ok(500));
        assert_eq!(millicpus(0.01), Ok(10));
        assert_eq!(millicpus(2.2505), Ok(2251));
        assert_eq!(millicpus(1024.0), Ok(1_024_000));
        for bad in [0.0, 0.009, -1.0, 1024.5, f64::NAN, f64::INFINITY] {
            let error = millicpus(bad).unwrap_err().to_string();
            assert!(
                error.contains("not a number of CPUs from 0.01 to 1024"),
                "{error}"
            );
        }
    }
}
