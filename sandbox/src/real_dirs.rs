//! A path as the bot is given it under bubblewrap, where only some directories exist.
//!
//! The sandbox binds the *real* directories of a bot's files (symbolic links resolved), so a
//! path that reaches a file through a directory that is not bound fails inside although it
//! works outside: `/home/me/other/../mybot/bot.py` needs `/home/me/other`, and
//! `/home/me/link/bot.py` needs the link. The kernel resolves such a path physically (`..`
//! after a symbolic link goes up from its target), so resolving it here first names the same
//! file, by a way that exists in the sandbox too.

use std::path::{Path, PathBuf};

/// The same file or directory named through real directories only: a directory fully
/// resolved, a file as its real directory plus its own name (a symbolic link to a script
/// keeps its name, which the bot may read as its `argv[0]`; a virtualenv's `bin/python3`
/// stays in the virtualenv). `None` when nothing is there.
pub(crate) fn through_real_dirs(path: &Path) -> Option<PathBuf> {
    let meta = std::fs::metadata(path).ok()?;
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !meta.is_dir() => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            Some(parent.canonicalize().ok()?.join(name))
        }
        _ => path.canonicalize().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_dots_and_linked_directories_are_resolved_a_files_own_name_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("mybot")).unwrap();
        std::fs::create_dir_all(root.join("other")).unwrap();
        std::fs::write(root.join("mybot/bot.py"), "").unwrap();
        std::os::unix::fs::symlink("bot.py", root.join("mybot/current.py")).unwrap();
        std::os::unix::fs::symlink(root.join("mybot"), root.join("link")).unwrap();
        let real = |p: &str| through_real_dirs(&root.join(p));
        assert_eq!(
            real("other/../mybot/bot.py"),
            Some(root.join("mybot/bot.py"))
        );
        assert_eq!(real("link/bot.py"), Some(root.join("mybot/bot.py")));
        // `..` after a linked directory goes up from where the link points, as in the kernel.
        assert_eq!(real("link/../other"), Some(root.join("other")));
        assert_eq!(real("other/../link"), Some(root.join("mybot")));
        assert_eq!(real("link/current.py"), Some(root.join("mybot/current.py")));
        assert_eq!(real("other/.."), Some(root.clone()));
        assert_eq!(real("other/../missing.py"), None);
    }
}
