//! What a build runs per language, and how the built bot is then started: the one place
//! that knows the toolchains. Pure: it looks at the files of an upload and says which
//! commands to run, with paths relative to the build directory (the commands run there).
//!
//! | language   | build (in the sandbox)                          | run                  |
//! |------------|-------------------------------------------------|----------------------|
//! | python     | `python3 -m py_compile` every `.py` file        | `python3 ENTRY.py`   |
//! | javascript | `node --check` each `.js`/`.mjs`/`.cjs` file     | `node ENTRY.js`      |
//! | c          | `gcc -O2 -o bot` every `.c` file `-lm`          | `./bot`              |
//! | java       | `javac -proc:none -encoding UTF-8 -d .` every `.java` file | `java -cp . CLASS` |
//! | rust       | `rustc -O --edition 2021 -o bot main.rs`        | `./bot`              |
//!
//! The entry: `bot.py` (`bot.js`), else `main.py` (`main.js`), else the upload's only file of
//! that language. The Java class: `Main`, else `Bot`, else the only class declaring
//! `static void main` (top-level files, default package). Rust: `main.rs`, else the only
//! `.rs` file (other modules through `mod`; no cargo, no crates, no network).

use std::path::{Path, PathBuf};

use crate::config::Language;

/// A build: commands run one after another (each must exit 0), then how to start the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Programs and arguments; a relative path is relative to the build directory.
    pub steps: Vec<Vec<String>>,
    /// The bot's command line; `{dir}` stands for the build directory (absolute).
    pub run: Vec<String>,
}

/// The placeholder for the build directory in [`Recipe::run`].
pub const DIR: &str = "{dir}";

/// The directory holding the sources: the upload's directory, or the single directory it
/// holds (an archive of `mybot/...`).
pub fn source_root(dir: &Path) -> std::io::Result<PathBuf> {
    let entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    match entries.as_slice() {
        [only] if only.file_type()?.is_dir() => Ok(only.path()),
        _ => Ok(dir.to_path_buf()),
    }
}

/// Every file under `root`, as paths relative to it, sorted (builds are reproducible).
pub fn files(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(root.join(rel))? {
            let entry = entry?;
            let path = rel.join(entry.file_name());
            let kind = entry.file_type()?;
            if kind.is_dir() {
                walk(root, &path, out)?;
            } else if kind.is_file() {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(root, Path::new(""), &mut out)?;
    out.sort();
    Ok(out)
}

/// The commands for `language` over `files` (relative to the build directory; `read` gives
/// a file's text, for the Java main class). `rustc` is the compiler's path (rustup installs
/// it outside the system's directories, so the server finds the real one). An upload
/// without what the language needs is an error, in words for its owner.
pub fn recipe(
    language: Language,
    files: &[PathBuf],
    read: &dyn Fn(&Path) -> String,
    rustc: &str,
) -> Result<Recipe, String> {
    let with_ext = |exts: &[&str]| -> Vec<&PathBuf> {
        files
            .iter()
            .filter(|f| {
                f.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| exts.contains(&e))
            })
            .collect()
    };
    // `./name`: a file called `-o.c` stays a file name, never an option.
    let arg = |f: &Path| format!("./{}", f.display());
    let in_dir = |f: &Path| format!("{DIR}/{}", f.display());
    let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    match language {
        Language::Python => {
            let sources = with_ext(&["py"]);
            let entry = entry(&sources, &["bot.py", "main.py"], "a Python bot", "bot.py")?;
            let mut step = strings(&["python3", "-m", "py_compile"]);
            step.extend(sources.iter().map(|f| arg(f)));
            Ok(Recipe {
                steps: vec![step],
                run: vec!["python3".into(), in_dir(&entry)],
            })
        }
        Language::JavaScript => {
            let sources = with_ext(&["js", "mjs", "cjs"]);
            let entry = entry(
                &sources,
                &["bot.js", "main.js"],
                "a JavaScript bot",
                "bot.js",
            )?;
            let steps = sources
                .iter()
                .map(|f| vec!["node".into(), "--check".into(), arg(f)])
                .collect();
            Ok(Recipe {
                steps,
                run: vec!["node".into(), in_dir(&entry)],
            })
        }
        Language::C => {
            let sources = with_ext(&["c"]);
            if sources.is_empty() {
                return Err("a C bot needs at least one .c file".into());
            }
            let mut step = strings(&["gcc", "-O2", "-I", ".", "-o", "bot"]);
            step.extend(sources.iter().map(|f| arg(f)));
            step.push("-lm".into());
            Ok(Recipe {
                steps: vec![step],
                run: vec![format!("{DIR}/bot")],
            })
        }
        Language::Java => {
            let sources = with_ext(&["java"]);
            if sources.is_empty() {
                return Err("a Java bot needs at least one .java file".into());
            }
            let class = java_main(&sources, read)?;
            // `-proc:none`: an upload may carry an annotation processor (class files and a
            // META-INF/services entry), which javac would otherwise run while compiling.
            let mut step = strings(&["javac", "-proc:none", "-encoding", "UTF-8", "-d", "."]);
            step.extend(sources.iter().map(|f| arg(f)));
            Ok(Recipe {
                steps: vec![step],
                run: vec!["java".into(), "-cp".into(), DIR.into(), class],
            })
        }
        Language::Rust => {
            let sources = with_ext(&["rs"]);
            let entry = entry(&sources, &["main.rs"], "a Rust bot", "main.rs")?;
            Ok(Recipe {
                steps: vec![vec![
                    rustc.to_string(),
                    "-O".into(),
                    "--edition".into(),
                    "2021".into(),
                    "-o".into(),
                    "bot".into(),
                    arg(&entry),
                ]],
                run: vec![format!("{DIR}/bot")],
            })
        }
    }
}

/// The first of `names` at the top, else the only source file.
fn entry(sources: &[&PathBuf], names: &[&str], what: &str, usual: &str) -> Result<PathBuf, String> {
    if let Some(found) = names
        .iter()
        .find_map(|n| sources.iter().find(|f| f.as_os_str() == *n))
    {
        return Ok((*found).clone());
    }
    match sources {
        [only] => Ok((*only).clone()),
        [] => Err(format!("{what} needs a source file ({usual})")),
        _ => Err(format!(
            "{what} of several files needs one called {usual} (the one that is run)"
        )),
    }
}

/// `Main`, else `Bot`, else the only top-level class with a `main` method.
fn java_main(sources: &[&PathBuf], read: &dyn Fn(&Path) -> String) -> Result<String, String> {
    let top: Vec<&PathBuf> = sources
        .iter()
        .copied()
        .filter(|f| f.components().count() == 1)
        .collect();
    for class in ["Main", "Bot"] {
        if top
            .iter()
            .any(|f| f.file_stem().is_some_and(|s| s == class))
        {
            return Ok(class.to_string());
        }
    }
    let with_main: Vec<String> = top
        .iter()
        .filter(|f| read(f).contains("static void main"))
        .filter_map(|f| f.file_stem().and_then(|s| s.to_str()).map(String::from))
        .collect();
    match with_main.as_slice() {
        [only] => Ok(only.clone()),
        [] => Err("a Java bot needs a class Main (Main.java) with a main method".into()),
        _ => Err(format!(
            "several classes have a main method ({}): name the bot's class Main",
            with_main.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    fn no_read(_: &Path) -> String {
        String::new()
    }

    #[test]
    fn python_compiles_every_file_and_runs_bot_py() {
        let r = recipe(
            Language::Python,
            &paths(&["bot.py", "lib/teenpatti.py", "README.md"]),
            &no_read,
            "rustc",
        )
        .unwrap();
        assert_eq!(
            r.steps,
            [[
                "python3",
                "-m",
                "py_compile",
                "./bot.py",
                "./lib/teenpatti.py"
            ]]
        );
        assert_eq!(r.run, ["python3", "{dir}/bot.py"]);
        // One file: whatever its name.
        let r = recipe(Language::Python, &paths(&["x.py"]), &no_read, "rustc").unwrap();
        assert_eq!(r.run, ["python3", "{dir}/x.py"]);
        let e = recipe(
            Language::Python,
            &paths(&["a.py", "b.py"]),
            &no_read,
            "rustc",
        );
        assert!(e.unwrap_err().contains("bot.py"));
        assert!(recipe(Language::Python, &paths(&["a.c"]), &no_read, "rustc").is_err());
    }

    #[test]
    fn c_and_rust_make_a_bot_binary() {
        let r = recipe(Language::C, &paths(&["-o.c", "bot.c"]), &no_read, "rustc").unwrap();
        assert_eq!(
            r.steps,
            [[
                "gcc", "-O2", "-I", ".", "-o", "bot", "./-o.c", "./bot.c", "-lm"
            ]]
        );
        assert_eq!(r.run, ["{dir}/bot"]);
        let r = recipe(
            Language::Rust,
            &paths(&["main.rs", "util.rs"]),
            &no_read,
            "/x/rustc",
        )
        .unwrap();
        assert_eq!(r.steps[0][0], "/x/rustc");
        assert_eq!(r.steps[0].last().unwrap(), "./main.rs");
    }

    #[test]
    fn javascript_checks_each_file() {
        let r = recipe(
            Language::JavaScript,
            &paths(&["bot.js", "teenpatti.js"]),
            &no_read,
            "rustc",
        )
        .unwrap();
        assert_eq!(r.steps.len(), 2);
        assert_eq!(r.run, ["node", "{dir}/bot.js"]);
    }

    #[test]
    fn the_java_class_is_main_bot_or_the_only_one_with_main() {
        let read = |f: &Path| {
            if f == Path::new("Player.java") {
                "class Player { public static void main(String[] a) {} }".to_string()
            } else {
                String::new()
            }
        };
        let run = |names: &[&str]| {
            recipe(Language::Java, &paths(names), &read, "rustc").map(|r| r.run[3].clone())
        };
        assert_eq!(run(&["Bot.java", "Main.java"]).unwrap(), "Main");
        assert_eq!(run(&["Bot.java", "Json.java"]).unwrap(), "Bot");
        assert_eq!(run(&["Player.java", "Json.java"]).unwrap(), "Player");
        assert!(run(&["Json.java"]).unwrap_err().contains("Main"));
    }
}
