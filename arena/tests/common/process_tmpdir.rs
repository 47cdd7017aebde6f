//! A `TMPDIR` for a process a test may SIGKILL (which leaves it no chance to remove its bots'
//! and checks' scratch directories). Shared by the arena's and the server's tests (the server's
//! include this file by path: the two crates have no test-support crate in common).

/// A directory under the target directory, removed with the value. Mode 0755 like `/tmp`
/// (without its sticky bit), so that a bot started under its own uid reaches its directory in
/// it.
pub fn process_tmpdir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("process-tmp-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}
