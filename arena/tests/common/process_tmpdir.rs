//! A `TMPDIR` for a process a test may SIGKILL (which leaves it no chance to remove its bots'
//! and checks' scratch directories). Shared by the arena's and the server's tests (the server's
//! include this file by path: the two crates have no test-support crate in common).
#![allow(dead_code)] // each including test uses a different part

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A directory under the target directory, removed with the value. Mode 0755 like `/tmp`
/// (without its sticky bit), so that a bot started under its own uid reaches its directory in
/// it; in the system's temporary directory instead when the target directory is out of that
/// uid's reach (a checkout in a private folder, such as `/root` or a `mktemp -d`).
pub fn process_tmpdir() -> tempfile::TempDir {
    let dir = scratch_in_reach("process-tmp-", &std::env::temp_dir());
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A directory named `prefix...` under the target directory, or in `elsewhere` when the
/// target directory is out of reach of other users (see [`process_tmpdir`]).
pub fn scratch_in_reach(prefix: &str, elsewhere: &Path) -> tempfile::TempDir {
    let target_tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let parent = if others_can_reach(target_tmp) {
        target_tmp
    } else {
        elsewhere
    };
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(parent)
        .unwrap()
}

/// A scratch directory outside `/tmp` (which bwrap empties, so only a directory elsewhere
/// shows that the arena hides what it must) that a bot's own uid can reach: under the target
/// directory, or in `/var/tmp` when the checkout is in a private folder.
pub fn scratch_outside_tmp(prefix: &str) -> tempfile::TempDir {
    scratch_in_reach(prefix, Path::new("/var/tmp"))
}

/// Whether a user other than the owner can reach `path`: every directory above it lets others
/// through (the execute bit for others).
pub fn others_can_reach(path: &Path) -> bool {
    let Ok(real) = path.canonicalize() else {
        return false;
    };
    real.ancestors()
        .skip(1)
        .all(|dir| std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o001 != 0))
}
