//! What goes into an upload: the language (from the main file), the main file (given, or
//! the name the server looks for), what it uses (each language's module follows imports,
//! includes, class names or `mod`s), under the names the server expects.

use std::path::{Path, PathBuf};

use super::{c, java, javascript, python, refuse, rust};

/// The server's languages, as its contest files name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Python,
    JavaScript,
    C,
    Java,
    Rust,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::C => "c",
            Language::Java => "java",
            Language::Rust => "rust",
        }
    }

    /// The server's build command, as its README shows it.
    pub fn build(self) -> &'static str {
        match self {
            Language::Python => "python3 -m py_compile *.py",
            Language::JavaScript => "node --check *.js",
            Language::C => "gcc -O2 -I . -o bot *.c -lm",
            Language::Java => "javac -proc:none -encoding UTF-8 -d . *.java",
            Language::Rust => "rustc -O --edition 2021 -o bot main.rs",
        }
    }

    fn of_file(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "py" => Some(Language::Python),
            "js" | "mjs" | "cjs" => Some(Language::JavaScript),
            "c" => Some(Language::C),
            "java" => Some(Language::Java),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }
}

/// One file of the upload: its name in the zip, and where it is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub from: PathBuf,
}

/// What `arena pack` will write.
#[derive(Debug)]
pub struct Plan {
    pub language: Language,
    /// The main file's folder: every member is under it.
    pub root: PathBuf,
    /// Sorted by name.
    pub members: Vec<Member>,
    /// The files of `root` not packed (for the user to see what was left out).
    pub left_out: Vec<String>,
    /// The command the server will run, as it shows it.
    pub run: String,
}

/// The plan for the bot in `dir`: its main file `main` (relative to `dir`; default: found),
/// and the `add`ed files (relative to `dir`).
pub fn plan(dir: &Path, main: Option<&Path>, add: &[PathBuf]) -> anyhow::Result<Plan> {
    if !dir.is_dir() {
        return Err(refuse(format!("{}: no such folder", dir.display())));
    }
    let main = match main {
        Some(m) => {
            let path = dir.join(m);
            if !path.is_file() {
                return Err(refuse(format!(
                    "--main {}: no such file in {}",
                    m.display(),
                    dir.display()
                )));
            }
            path
        }
        None => default_main(dir)?,
    };
    let main = tidy(&main);
    let language = Language::of_file(&main).ok_or_else(|| {
        refuse(format!(
            "{}: not a source file of a language the server builds (.py, .js, .c, .java, .rs)",
            main.display()
        ))
    })?;
    let root = main
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let (mut members, run) = match language {
        Language::Python => python::members(&root, &main)?,
        Language::JavaScript => javascript::members(&root, &main)?,
        Language::C => c::members(&root, &main)?,
        Language::Java => java::members(&root, &main)?,
        Language::Rust => rust::members(dir, &root, &main)?,
    };
    for extra in add {
        let from = dir.join(extra);
        if !from.is_file() {
            return Err(refuse(format!(
                "--add {}: no such file in {}",
                extra.display(),
                dir.display()
            )));
        }
        let name = name_in(&root, &from)?;
        if !members.iter().any(|m| m.name == name) {
            members.push(Member { name, from });
        }
    }
    members.sort_by(|a, b| a.name.cmp(&b.name));
    // The server refuses names that differ only in case (and Linux would keep both).
    for pair in members.windows(2) {
        if pair[0].name.to_lowercase() == pair[1].name.to_lowercase() {
            return Err(refuse(format!(
                "{} and {} would be packed as {} and {}, names that differ only in case: the \
                 server refuses such an upload; rename one",
                pair[0].from.display(),
                pair[1].from.display(),
                pair[0].name,
                pair[1].name
            )));
        }
    }
    let left_out = left_out(&root, &members);
    Ok(Plan {
        language,
        root,
        members,
        left_out,
        run,
    })
}

/// `path` without `.` and with `a/..` removed, as written otherwise (messages show paths as
/// the user gave them; equal files get equal paths).
pub(super) fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `path`'s name in the upload: relative to `root`, `/`-separated; an error outside it.
pub(super) fn name_in(root: &Path, path: &Path) -> anyhow::Result<String> {
    let canonical = |p: &Path| {
        std::fs::canonicalize(p)
            .map_err(|e| refuse(format!("{}: {}", p.display(), crate::output::io_reason(&e))))
    };
    let (root_real, real) = (canonical(root)?, canonical(path)?);
    let rel = real.strip_prefix(&root_real).map_err(|_| {
        refuse(format!(
            "{} is outside {}, the main file's folder: the upload holds that folder's files only",
            path.display(),
            root.display()
        ))
    })?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

/// The main file when none is given: the name the server looks for, else the folder's only
/// candidate; refused with the candidates otherwise.
fn default_main(dir: &Path) -> anyhow::Result<PathBuf> {
    let found: Vec<(Language, Vec<PathBuf>)> = [
        Language::Python,
        Language::JavaScript,
        Language::C,
        Language::Java,
        Language::Rust,
    ]
    .into_iter()
    .map(|l| (l, sources(dir, l)))
    .filter(|(_, files)| !files.is_empty())
    .collect();
    let (language, files) = match found.as_slice() {
        [] => {
            return Err(refuse(format!(
                "{} holds no source file of a language the server builds (.py, .js, .c, \
                 .java, .rs)",
                dir.display()
            )));
        }
        [one] => one,
        several => {
            let names: Vec<&str> = several.iter().map(|(l, _)| l.name()).collect();
            return Err(refuse(format!(
                "{} holds {} sources: say which file is the bot with --main FILE",
                dir.display(),
                names.join(" and ")
            )));
        }
    };
    let candidates = match language {
        Language::Python => python::mains(files)?,
        Language::JavaScript => javascript::mains(files)?,
        Language::C => c::mains(files)?,
        Language::Java => java::mains(files)?,
        Language::Rust => rust::mains(dir, files),
    };
    match candidates.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(refuse(format!(
            "{} holds {} files but none is plainly the bot: choose it with --main FILE",
            dir.display(),
            language.name()
        ))),
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
                .collect();
            Err(refuse(format!(
                "{} holds several {} bots ({}): choose one with --main, e.g. `arena pack {} \
                 --main {} -o bot.zip`",
                dir.display(),
                language.name(),
                names.join(", "),
                dir.display(),
                names[names.len() - 1]
            )))
        }
    }
}

/// The source files of `language` where a kit of it keeps them: the folder itself, and
/// `src/` for Java, `src/` and `src/bin/` for Rust (Cargo's layout). Sorted.
fn sources(dir: &Path, language: Language) -> Vec<PathBuf> {
    let folders: Vec<PathBuf> = match language {
        Language::Java => vec![dir.to_path_buf(), dir.join("src")],
        Language::Rust => vec![dir.to_path_buf(), dir.join("src"), dir.join("src/bin")],
        _ => vec![dir.to_path_buf()],
    };
    let mut files: Vec<PathBuf> = folders
        .iter()
        .filter_map(|f| std::fs::read_dir(f).ok())
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && Language::of_file(p) == Some(language))
        .collect();
    files.sort();
    files
}

/// The files directly in `root` that are not packed, hidden ones aside.
fn left_out(root: &Path, members: &[Member]) -> Vec<String> {
    let packed: Vec<PathBuf> = members
        .iter()
        .filter_map(|m| std::fs::canonicalize(&m.from).ok())
        .collect();
    let mut out: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| std::fs::canonicalize(e.path()).is_ok_and(|p| !packed.contains(&p)))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The main file packed as `wanted` (`bot.py`, `bot.js`, `main.rs`), the other members under
/// their own names; refused when another member already has that name.
pub(super) fn renamed_main(
    root: &Path,
    main: &Path,
    others: Vec<PathBuf>,
    wanted: &str,
) -> anyhow::Result<Vec<Member>> {
    let mut members = vec![Member {
        name: wanted.to_string(),
        from: main.to_path_buf(),
    }];
    for from in others {
        let name = name_in(root, &from)?;
        if name == wanted {
            return Err(refuse(format!(
                "{} uses {}, but the server runs the file called {wanted}: rename {} (and \
                 what imports it) to pack {} as the bot",
                main.display(),
                from.display(),
                from.display(),
                main.display()
            )));
        }
        members.push(Member { name, from });
    }
    Ok(members)
}
