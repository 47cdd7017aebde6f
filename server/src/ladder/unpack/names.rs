//! Which names an archive may not hold together: the same path twice, paths that differ only
//! in letter case or in Unicode normal form (NFC `é` against NFD `e` + accent), and a path
//! that is both a file and a folder. On Linux these unpack to different files (or fail half
//! way), but the owner's macOS or Windows checkout, a case-insensitive build, or the owner
//! reading the source page cannot tell them apart: which copy is built is then a guess.
//! Refused, naming both entries, so the owner knows what to rename.

use std::collections::HashMap;
use std::path::Path;

use unicode_normalization::UnicodeNormalization;

use super::UnpackError;

/// The archive's paths so far, by their comparison key.
#[derive(Debug, Default)]
pub struct Names {
    seen: HashMap<String, Seen>,
}

#[derive(Debug)]
struct Seen {
    /// The entry as the archive names it (for the message).
    entry: String,
    /// The path as unpacked, `/`-separated (two folders spelled alike are one folder).
    path: String,
    folder: bool,
}

impl Names {
    /// Records the entry `entry`, unpacking to `rel`, a folder or a file; its parent folders
    /// are recorded too. The first clash with an earlier entry is the error.
    pub fn add(&mut self, entry: &str, rel: &Path, folder: bool) -> Result<(), UnpackError> {
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for end in 1..=parts.len() {
            let is_folder = folder || end < parts.len();
            self.one(entry, &parts[..end].join("/"), is_folder)?;
        }
        Ok(())
    }

    fn one(&mut self, entry: &str, path: &str, folder: bool) -> Result<(), UnpackError> {
        let key = key(path);
        match self.seen.get(&key) {
            None => {
                self.seen.insert(
                    key,
                    Seen {
                        entry: entry.to_string(),
                        path: path.to_string(),
                        folder,
                    },
                );
                Ok(())
            }
            // One folder named again (`src/`, then `src/main.rs`): fine.
            Some(seen) if seen.folder && folder && seen.path == path => Ok(()),
            Some(seen) => Err(clash(seen, entry, path, folder)),
        }
    }
}

/// What two names are compared by: canonical decomposition, lower case, then composed
/// again (lower-casing a composed letter may leave it decomposed, `İ` becomes `i` + dot).
fn key(path: &str) -> String {
    path.nfd()
        .collect::<String>()
        .to_lowercase()
        .nfc()
        .collect()
}

fn clash(seen: &Seen, entry: &str, path: &str, folder: bool) -> UnpackError {
    if seen.entry == entry {
        return UnpackError::Duplicate(entry.to_string());
    }
    let why = if seen.folder != folder {
        "make one path both a file and a folder"
    } else if seen.path == path {
        "unpack to the same file"
    } else if seen.path.nfc().eq(path.nfc()) {
        "differ only in Unicode normal form (NFC and NFD spellings of the same letters)"
    } else {
        "differ only in letter case"
    };
    UnpackError::Clash {
        first: seen.entry.clone(),
        second: entry.to_string(),
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn added(entries: &[(&str, bool)]) -> Result<(), UnpackError> {
        let mut names = Names::default();
        for (name, folder) in entries {
            names.add(name, Path::new(name.trim_start_matches("./")), *folder)?;
        }
        Ok(())
    }

    fn why(r: Result<(), UnpackError>) -> String {
        match r {
            Err(UnpackError::Clash { first, second, why }) => format!("{first}|{second}|{why}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn distinct_names_and_repeated_folders_pass() {
        added(&[
            ("src", true),
            ("src/main.rs", false),
            ("src/util.rs", false),
            ("src", true),
            ("Cargo.toml", false),
        ])
        .unwrap();
    }

    #[test]
    fn each_kind_of_clash_names_both_entries() {
        assert!(matches!(
            added(&[("bot.py", false), ("bot.py", false)]),
            Err(UnpackError::Duplicate(name)) if name == "bot.py"
        ));
        assert_eq!(
            why(added(&[("bot.py", false), ("./bot.py", false)])),
            "bot.py|./bot.py|unpack to the same file"
        );
        assert_eq!(
            why(added(&[("Bot.py", false), ("bot.PY", false)])),
            "Bot.py|bot.PY|differ only in letter case"
        );
        // A folder's case counts too: `Lib/a.py` and `lib/b.py` would be two folders.
        assert_eq!(
            why(added(&[("Lib/a.py", false), ("lib/b.py", false)])),
            "Lib/a.py|lib/b.py|differ only in letter case"
        );
        assert_eq!(
            why(added(&[("caf\u{e9}.py", false), ("cafe\u{301}.py", false)])),
            "caf\u{e9}.py|cafe\u{301}.py|differ only in Unicode normal form (NFC and NFD spellings of the same letters)"
        );
        // Case and normal form together (É in NFD against é in NFC).
        assert!(why(added(&[("E\u{301}.c", false), ("\u{e9}.c", false)])).contains("letter case"));
        assert_eq!(
            why(added(&[("a", false), ("a/b.py", false)])),
            "a|a/b.py|make one path both a file and a folder"
        );
        assert_eq!(
            why(added(&[("a/b.py", false), ("a", false)])),
            "a/b.py|a|make one path both a file and a folder"
        );
    }
}
