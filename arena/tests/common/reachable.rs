//! The tests' bot files where a bot's own uid can read them, wherever the checkout is.
//!
//! At the `limits` level under root every bot runs as a uid of its own, without a mount
//! namespace to hand it its files, so the arena refuses a program or script that other users
//! cannot reach (and says which folder stops them). A checkout in a private folder (`/root`, a
//! `mktemp -d`) is such a place. Then, and only then, the tests run their bots from a copy any
//! user can read: one per test process, made on first use in the system's temporary directory
//! and removed when the process exits. Elsewhere (and for a non-root run, where bots run as
//! the tester) the checkout's own files are used.

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::process_tmpdir::others_can_reach;

/// `path` itself when a bot's own uid reaches it, else its copy (with the other files of its
/// folder, which a script imports; a program in the target directory is copied alone).
pub fn reachable(path: &Path) -> PathBuf {
    let root = super::root();
    let Ok(relative) = path.strip_prefix(&root) else {
        return path.to_path_buf();
    };
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 || others_can_reach(path) {
        return path.to_path_buf();
    }
    let copy = stage().join(relative);
    static COPIED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let mut copied = COPIED.lock().unwrap_or_else(|e| e.into_inner());
    let copied = copied.get_or_insert_with(HashSet::new);
    let folder = path.parent().expect("a file in the checkout");
    let in_target = folder == super::arena().parent().expect("the target directory");
    let sources: Vec<PathBuf> = if in_target {
        vec![path.to_path_buf()]
    } else {
        std::fs::read_dir(folder)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect()
    };
    for source in sources {
        if copied.insert(source.clone()) {
            let target = stage().join(source.strip_prefix(&root).unwrap());
            let parent = target.parent().unwrap();
            std::fs::create_dir_all(parent).unwrap();
            open_folders(stage(), parent);
            std::fs::copy(&source, &target).unwrap();
        }
    }
    copy
}

/// This process's copy of the checkout's bot files, mode 0755, removed at exit.
fn stage() -> &'static Path {
    static STAGE: OnceLock<PathBuf> = OnceLock::new();
    extern "C" fn remove_stage() {
        if let Some(dir) = STAGE.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    STAGE.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("arena-test-bots-")
            .tempdir()
            .unwrap()
            .keep();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        // SAFETY: registers a plain function; it runs once, when the process exits.
        unsafe { libc::atexit(remove_stage) };
        dir
    })
}

/// Every folder from `stage` down to `folder` readable and traversable by any user.
fn open_folders(stage: &Path, folder: &Path) {
    for dir in folder.ancestors().take_while(|d| d.starts_with(stage)) {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
