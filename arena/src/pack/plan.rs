//! What goes into an upload: the language (from the main file), the main file (given, or
//! the name the server looks for), what it uses (each language's module follows imports,
//! includes, class names or `mod`s), under the names the server expects.

use std::path::{Path, PathBuf};

use super::{PackError, c, java, javascript, python, rust};

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
pub fn plan(dir: &Path, main: Option<&Path>, add: &[PathBuf]) -> Result<Plan, PackError> {
    if !dir.is_dir() {
        return Err(PackError::NoSuchFolder {
            dir: dir.to_path_buf(),
        });
    }
    let main = match main {
        Some(m) => {
            let path = dir.join(m);
            if !path.is_file() {
                return Err(PackError::NoSuchMain {
                    main: m.to_path_buf(),
                    dir: dir.to_path_buf(),
                });
            }
            path
        }
        None => default_main(dir)?,
    };
    let main = tidy(&main);
    let Some(language) = Language::of_file(&main) else {
        return Err(PackError::NotASource { main });
    };
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
            return Err(PackError::NoSuchAddition {
                added: extra.clone(),
                dir: dir.to_path_buf(),
            });
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
            return Err(PackError::CaseClash {
                first: pair[0].clone(),
                second: pair[1].clone(),
            });
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
pub(super) fn name_in(root: &Path, path: &Path) -> Result<String, PackError> {
    let canonical = |p: &Path| {
        std::fs::canonicalize(p).map_err(|reason| PackError::Unresolvable {
            path: p.to_path_buf(),
            reason,
        })
    };
    let (root_real, real) = (canonical(root)?, canonical(path)?);
    let rel = real
        .strip_prefix(&root_real)
        .map_err(|_| PackError::OutsideRoot {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
        })?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

/// The main file when none is given: the name the server looks for, else the folder's only
/// candidate; refused with the candidates otherwise.
fn default_main(dir: &Path) -> Result<PathBuf, PackError> {
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
            return Err(PackError::NoSources {
                dir: dir.to_path_buf(),
            });
        }
        [one] => one,
        several => {
            return Err(PackError::SeveralLanguages {
                dir: dir.to_path_buf(),
                languages: several.iter().map(|(l, _)| *l).collect(),
            });
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
        [] => Err(PackError::NoPlainMain {
            dir: dir.to_path_buf(),
            language: *language,
        }),
        several => Err(PackError::SeveralMains {
            dir: dir.to_path_buf(),
            language: *language,
            candidates: several
                .iter()
                .map(|p| p.strip_prefix(dir).unwrap_or(p).display().to_string())
                .collect(),
        }),
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
) -> Result<Vec<Member>, PackError> {
    let mut members = vec![Member {
        name: wanted.to_string(),
        from: main.to_path_buf(),
    }];
    for from in others {
        let name = name_in(root, &from)?;
        if name == wanted {
            return Err(PackError::MainNameTaken {
                main: main.to_path_buf(),
                other: from,
                wanted: wanted.to_string(),
            });
        }
        members.push(Member { name, from });
    }
    Ok(members)
}
