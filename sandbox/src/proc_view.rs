//! The machine-wide figures of `/proc`, frozen for bots.
//!
//! A bot's `/proc` (bwrap's, of its own PID namespace) still shows the whole machine in a
//! few files: the load and the number of threads (`loadavg`), CPU times, forks and running
//! processes (`stat`), free memory (`meminfo`, `vmstat`), pressure stall figures, open file
//! handles (`sys/fs/file-nr`), AIO contexts (`sys/fs/aio-nr`), held file locks (`locks`),
//! allocated ptys, cgroup counts. Any of them is a channel between two bots that run at
//! once: one spins, allocates or opens, the other reads the figure (the load channel carried
//! 10-25 bit/s). Programs do read these files (CPU counts from `stat` and `cpuinfo`, memory
//! sizes from `meminfo`), so they are not hidden but frozen: each is replaced, in every
//! sandbox, by a copy taken once per arena process, at its first bot. Nothing a bot does
//! changes what another one reads there.
//!
//! Only the `bwrap` level has a `/proc` of its own to mount over; `limits` bots read the real
//! files (ARCHITECTURE.md, "Collusion and covert channels").

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Files and directories of `/proc` that change with what other processes on the machine do
/// and are not per namespace. Directories are frozen file by file. Those missing on this
/// kernel, unreadable to the arena, or readable by their owner only (`pagetypeinfo`,
/// `slabinfo`: a bot, never root, cannot read them, and they are the slow ones to copy) are
/// skipped.
pub const MACHINE_WIDE: [&str; 27] = [
    "/proc/loadavg",
    "/proc/stat",
    "/proc/uptime",
    "/proc/meminfo",
    "/proc/vmstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/pagetypeinfo",
    "/proc/slabinfo",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/locks",
    "/proc/cpuinfo",
    "/proc/swaps",
    "/proc/key-users",
    "/proc/cgroups",
    "/proc/pressure",
    "/proc/sys/fs/aio-nr",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/kernel/random/entropy_avail",
    "/proc/sys/kernel/pty/nr",
    "/proc/sys/fs/quota",
];

/// Files frozen empty rather than copied: `/proc/locks` lists the machine's file locks, and
/// bots can take none (their locks are no-ops, `seccomp/policy.rs`), so an empty list is all a
/// bot could ever have seen of its own; reading it waits for an RCU grace period (~20 ms).
const EMPTIED: [&str; 1] = ["/proc/locks"];

/// One frozen file: where it shows in the sandbox and what it says.
#[derive(Debug)]
struct Frozen {
    path: PathBuf,
    contents: Vec<u8>,
}

/// The copies, taken once per process (at the first call). A copy taken at every bot's
/// start would carry a sample of the machine's state into each restarted bot.
fn frozen() -> &'static [Frozen] {
    static FROZEN: OnceLock<Vec<Frozen>> = OnceLock::new();
    FROZEN.get_or_init(|| {
        let mut out = Vec::new();
        for path in MACHINE_WIDE {
            freeze(Path::new(path), &mut out);
        }
        out
    })
}

fn freeze(path: &Path, out: &mut Vec<Frozen>) {
    match fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let Ok(entries) = fs::read_dir(path) else {
                return;
            };
            let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            files.sort();
            for file in files {
                freeze(&file, out);
            }
        }
        Ok(_) if EMPTIED.iter().any(|e| Path::new(e) == path) => out.push(Frozen {
            path: path.to_path_buf(),
            contents: Vec::new(),
        }),
        Ok(meta) if meta.permissions().mode() & 0o004 != 0 => {
            if let Ok(contents) = fs::read(path) {
                out.push(Frozen {
                    path: path.to_path_buf(),
                    contents,
                });
            }
        }
        _ => {}
    }
}

/// Writes the frozen copies into `dir` (a bot's private directory, removed with it) and
/// returns, for bwrap, each copy and the `/proc` path it is mounted over.
pub(crate) fn write_into(dir: &Path) -> io::Result<Vec<(PathBuf, PathBuf)>> {
    let frozen = frozen();
    if frozen.is_empty() {
        return Ok(Vec::new());
    }
    let root = dir.join("proc");
    fs::create_dir(&root)?;
    let mut mounts = Vec::with_capacity(frozen.len());
    for (n, file) in frozen.iter().enumerate() {
        let copy = root.join(n.to_string());
        fs::write(&copy, &file.contents)?;
        fs::set_permissions(&copy, fs::Permissions::from_mode(0o444))?;
        mounts.push((copy, file.path.clone()));
    }
    Ok(mounts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copies_are_taken_once_and_hold_the_machine_wide_files() {
        let first = frozen();
        assert!(std::ptr::eq(first, frozen()), "taken once");
        let paths: Vec<&Path> = first.iter().map(|f| f.path.as_path()).collect();
        for always in ["/proc/loadavg", "/proc/stat", "/proc/meminfo"] {
            assert!(paths.contains(&Path::new(always)), "{always} in {paths:?}");
        }
        let locks = first.iter().find(|f| f.path == Path::new("/proc/locks"));
        assert!(
            locks.is_some_and(|f| f.contents.is_empty()),
            "emptied, not read"
        );
        // Root's own files are left alone: a bot cannot read them anyway.
        assert!(
            !paths.contains(&Path::new("/proc/pagetypeinfo")),
            "{paths:?}"
        );
        // A directory is frozen file by file.
        if Path::new("/proc/pressure/cpu").exists() {
            assert!(paths.contains(&Path::new("/proc/pressure/cpu")));
        }
        let dir = tempfile::tempdir().unwrap();
        let mounts = write_into(dir.path()).unwrap();
        assert_eq!(mounts.len(), first.len());
        for ((copy, target), file) in mounts.iter().zip(first) {
            assert_eq!(target, &file.path);
            assert_eq!(fs::read(copy).unwrap(), file.contents);
            let mode = fs::metadata(copy).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o444, "{}", copy.display());
        }
    }
}
