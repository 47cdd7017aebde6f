//! Who a bot runs as. When the arena runs as root (as in most containers and CI), every bot
//! at the `limits` and `bwrap` levels gets a uid (and gid) of its own from a reserved range,
//! as isolate gives each box its own uid: a bot then holds no privilege, owns no file of the
//! operator, and cannot signal, ptrace or read the memory of the arena or of another bot.
//!
//! A uid is reserved by an exclusive lock on a file named after it (in a root-only
//! directory), held as long as the bot lives, so concurrent arenas on one machine never hand
//! out the same uid. The lock dies with the process that holds it, even on SIGKILL.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// First uid of the reserved range: far above the uids of real accounts and of the usual
/// subordinate-id ranges of rootless containers (`/etc/subuid` starts at 100000 and grows by
/// 65536 per user).
pub const BOT_UID_BASE: u32 = 1_800_000_000;
/// Number of uids in the range: at most this many bots run at once on one machine.
pub const BOT_UID_COUNT: u32 = 4096;

/// Is the arena running as root? Then bots must not.
pub fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A uid (used as gid too) reserved for one bot for as long as this value lives.
#[derive(Debug)]
pub struct BotUid {
    uid: u32,
    /// The lock that reserves `uid`; released when dropped.
    _lock: File,
}

impl BotUid {
    /// Reserves a free uid of the range. Candidates start at a point that depends on the
    /// arena's pid and a counter, so concurrent arenas rarely try the same ones.
    pub fn allocate() -> io::Result<BotUid> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = lock_dir();
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        let start = std::process::id()
            .wrapping_mul(2_654_435_761)
            .wrapping_add(NEXT.fetch_add(1, Ordering::Relaxed));
        for i in 0..BOT_UID_COUNT {
            let uid = BOT_UID_BASE + start.wrapping_add(i) % BOT_UID_COUNT;
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .mode(0o600)
                .open(dir.join(uid.to_string()))?;
            match file.try_lock() {
                Ok(()) => return Ok(BotUid { uid, _lock: file }),
                Err(std::fs::TryLockError::WouldBlock) => continue,
                Err(std::fs::TryLockError::Error(e)) => return Err(e),
            }
        }
        Err(io::Error::other(format!(
            "all {BOT_UID_COUNT} bot uids from {BOT_UID_BASE} are in use"
        )))
    }

    pub fn uid(&self) -> u32 {
        self.uid
    }
}

/// Where the uid locks live: a root-only directory under `/run` when it exists (cleared at
/// boot), else under the temporary directory.
fn lock_dir() -> PathBuf {
    let run = PathBuf::from("/run");
    if run.is_dir() {
        run.join("teenpatti-arena/uids")
    } else {
        std::env::temp_dir().join("teenpatti-arena-uids")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_held_at_once_are_distinct_and_in_range() {
        if !running_as_root() {
            eprintln!("skipped: uid reservation is only used as root");
            return;
        }
        let held: Vec<BotUid> = (0..50).map(|_| BotUid::allocate().unwrap()).collect();
        let mut uids: Vec<u32> = held.iter().map(BotUid::uid).collect();
        uids.sort_unstable();
        uids.dedup();
        assert_eq!(uids.len(), 50);
        assert!(
            uids.iter()
                .all(|u| (BOT_UID_BASE..BOT_UID_BASE + BOT_UID_COUNT).contains(u))
        );
    }
}
