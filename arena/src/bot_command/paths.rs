//! Which words of a bot's command are paths, and the folder they are taken from.
//!
//! A bot runs in a private working directory of its own (a tmpfs under bwrap), so a relative
//! path on its command line would name a file there, where there is none. The front ends make
//! such paths absolute first, against the folder the user meant: the current directory for a
//! command line (`arena match`, `check-bot`, `play`), the file's own folder for a tournament
//! file, or the bot's `workdir` there. The same absolute path then works at every sandbox
//! level (under bwrap it is given through real directories, `sandbox/src/real_dirs.rs`).
//!
//! The rule, also in README ("Matches"): a word that does not start with `-` and names an
//! existing file or folder relative to that folder is a path; the program (the first word) is
//! one only when it holds a `/`, and then whether it exists or not (a bare name is looked up on
//! the `PATH`, as a shell would). Every other word reaches the bot as written.

use std::path::Path;

/// The folder a bot command's relative paths are taken from, and how a user knows it.
#[derive(Clone, Copy, Debug)]
pub struct PathBase<'a> {
    pub dir: &'a Path,
    /// Said after the folder in messages: "`x.py` is not a file in DIR, {known_as}".
    pub known_as: &'static str,
}

impl<'a> PathBase<'a> {
    /// A command line's: the current directory.
    pub fn current_dir(dir: &'a Path) -> PathBase<'a> {
        PathBase {
            dir,
            known_as: "where the arena was run",
        }
    }

    /// A tournament file's: the folder the file is in.
    pub fn tournament_file(dir: &'a Path) -> PathBase<'a> {
        PathBase {
            dir,
            known_as: "the tournament file's folder",
        }
    }

    /// A tournament bot's own `workdir`.
    pub fn workdir(dir: &'a Path) -> PathBase<'a> {
        PathBase {
            dir,
            known_as: "the bot's `workdir`",
        }
    }

    /// "DIR, where the arena was run: relative paths ... taken from there (...)".
    fn explained(&self) -> String {
        format!(
            "{}, {}: relative paths in a bot's command are taken from there (the bot itself \
             runs in a private directory)",
            self.dir.display(),
            self.known_as
        )
    }
}

/// The command with its paths made absolute against `base` (see the module's rule).
pub fn absolutize(argv: &[String], base: &Path) -> Vec<String> {
    argv.iter()
        .enumerate()
        .map(|(i, arg)| {
            let path = Path::new(arg);
            let is_path = if i == 0 {
                arg.contains('/')
            } else {
                !arg.starts_with('-') && base.join(path).exists()
            };
            if is_path && path.is_relative() {
                base.join(path).to_string_lossy().into_owned()
            } else {
                arg.clone()
            }
        })
        .collect()
}

/// Programs that run the script named after their options (`python3 -u bot.py`).
pub const INTERPRETERS: [&str; 12] = [
    "python3", "python", "pypy3", "pypy", "node", "deno", "sh", "bash", "dash", "ruby", "perl",
    "php",
];

/// Options after which an interpreter runs no script: code or a module follows.
const NO_SCRIPT: [&str; 8] = ["-c", "-m", "-e", "-E", "--eval", "-p", "--print", "-"];

/// A word that looks like a file name: a `/` in it, or an extension of 1 to 5 letters and
/// digits with a letter (`bot.py`, `Main.class`; not `0.5` or `v1.2.3`'s `3`).
fn looks_like_file(arg: &str) -> bool {
    let path = Path::new(arg);
    let extension = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        (1..=5).contains(&e.len())
            && e.bytes().all(|b| b.is_ascii_alphanumeric())
            && e.bytes().any(|b| b.is_ascii_alphabetic())
    });
    !arg.starts_with('-') && (arg.contains('/') || extension)
}

/// The script of an interpreter's command (`python3 -X dev ../bots/x.py 3` gives
/// `../bots/x.py`): the first word after its options that looks like a file.
fn script(argv: &[String]) -> Option<&str> {
    let program = Path::new(argv.first()?).file_name()?.to_str()?;
    if !INTERPRETERS.contains(&program) {
        return None;
    }
    for arg in &argv[1..] {
        if NO_SCRIPT.contains(&arg.as_str()) {
            return None;
        }
        if looks_like_file(arg) {
            return Some(arg);
        }
    }
    None
}

/// What makes a command impossible to run from `base`, said with the path as written and
/// the folder it was taken from: a relative program path (`../bin/bot`) or an interpreter's
/// relative script (`python3 ../bots/x.py`) that is not a file there. `argv` is the command
/// as written, before [`absolutize`].
pub fn missing_path(argv: &[String], base: &PathBase<'_>) -> Option<String> {
    let program = argv.first()?;
    let program = Some(program.as_str()).filter(|p| p.contains('/'));
    let missing = |word: &&str| Path::new(word).is_relative() && !base.dir.join(word).is_file();
    if let Some(word) = program.filter(missing) {
        return Some(format!(
            "program `{word}` is not a file in {}",
            base.explained()
        ));
    }
    let word = script(argv).filter(missing)?;
    Some(format!("`{word}` is not a file in {}", base.explained()))
}

/// For a bot that did not start: the words of its command that look like files (`my_bot.py`,
/// `bots/x`) but are not there relative to `base`. [`absolutize`] made every one that exists
/// absolute, so these reach the bot as paths into its own private directory, where they are
/// missing too: the usual cause is running the arena from another directory.
pub fn missing_file_note(argv: &[String], base: &PathBase<'_>) -> Option<String> {
    let missing: Vec<String> = argv
        .iter()
        .enumerate()
        // A bare program name is looked up on the PATH, not in the current directory.
        .filter(|(i, arg)| *i > 0 || arg.contains('/'))
        .map(|(_, arg)| arg)
        .filter(|arg| {
            Path::new(arg).is_relative() && looks_like_file(arg) && !base.dir.join(arg).exists()
        })
        .map(|arg| format!("`{arg}`"))
        .collect();
    (!missing.is_empty()).then(|| {
        let (what, is) = match missing.len() {
            1 => (missing[0].clone(), "is not a file"),
            _ => (missing.join(", "), "are not files"),
        };
        format!("{what} {is} in {}", base.explained())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_command::split;

    fn argv(text: &str) -> Vec<String> {
        split(text).unwrap()
    }

    #[test]
    fn existing_words_and_programs_with_a_slash_are_made_absolute() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::create_dir_all(base.join("java")).unwrap();
        std::fs::write(base.join("bot.py"), "").unwrap();
        std::fs::write(base.join("3"), "").unwrap();
        let at = |p: &str| base.join(p).to_str().unwrap().to_string();
        assert_eq!(
            absolutize(&argv("python3 bot.py ../x.py --depth 3 -x"), base),
            [
                "python3",
                &at("bot.py"),
                "../x.py",
                "--depth",
                &at("3"),
                "-x"
            ]
        );
        // A program with a `/` is a path even where it is missing (the bot's own directory
        // has nothing either); a bare one is looked up on the PATH, even when a folder of
        // that name is here.
        assert_eq!(absolutize(&argv("../bin/bot"), base), [at("../bin/bot")]);
        assert_eq!(
            absolutize(&argv("java -cp java Main"), base),
            ["java", "-cp", &at("java"), "Main"]
        );
        assert_eq!(absolutize(&argv("/bin/sh bot.py"), base)[0], "/bin/sh");
    }

    #[test]
    fn a_missing_program_or_script_is_named_as_written_with_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let base = PathBase::tournament_file(dir.path());
        std::fs::write(dir.path().join("bot.py"), "").unwrap();
        let problem = missing_path(&argv("python3 -u ../bots/x.py --seed 3"), &base).unwrap();
        assert_eq!(
            problem,
            format!(
                "`../bots/x.py` is not a file in {}, the tournament file's folder: relative \
                 paths in a bot's command are taken from there (the bot itself runs in a \
                 private directory)",
                dir.path().display()
            )
        );
        let problem = missing_path(&argv("./target/release/bot"), &base).unwrap();
        assert!(
            problem.starts_with("program `./target/release/bot` is not a file in "),
            "{problem}"
        );
        for fine in [
            "python3 bot.py",
            "python3 -W ignore bot.py",
            "sh -c 'echo x.sh; sleep 1'",
            "python3 -m package.module",
            "mc-bot ../missing.txt",
            "java -cp ../classes Main",
            "python3 /abs/missing.py",
        ] {
            assert_eq!(missing_path(&argv(fine), &base), None, "{fine}");
        }
    }

    #[test]
    fn arguments_that_look_like_missing_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let base = PathBase::current_dir(dir.path());
        std::fs::write(dir.path().join("here.py"), "").unwrap();
        let note = missing_file_note(&argv("python3 my_bot.py --seed 3"), &base).unwrap();
        assert_eq!(
            note,
            format!(
                "`my_bot.py` is not a file in {}, where the arena was run: relative paths in a \
                 bot's command are taken from there (the bot itself runs in a private \
                 directory)",
                dir.path().display()
            )
        );
        let note = missing_file_note(&argv("./bot ../bots/x here.py 12.5"), &base).unwrap();
        assert!(
            note.starts_with("`./bot`, `../bots/x` are not files in "),
            "{note}"
        );
        assert_eq!(missing_file_note(&argv("python3 here.py"), &base), None);
        assert_eq!(missing_file_note(&argv("mc-bot --fast"), &base), None);
    }
}
