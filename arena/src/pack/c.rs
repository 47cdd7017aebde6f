//! C: the main file and what it includes with quotes (`#include "teenpatti.h"`), with the
//! `.c` file of each such header (`teenpatti.c` beside `teenpatti.h`), and what they include.
//! The server compiles every `.c` file of an upload into one program, so a second file with
//! a `main` (the kit's `example_bot.c`) is left out, or refused when something includes it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::plan::{Member, name_in, tidy};
use super::{PackError, source};

pub fn members(root: &Path, main: &Path) -> Result<(Vec<Member>, String), PackError> {
    let mut used = BTreeSet::from([main.to_path_buf()]);
    let mut queue = vec![main.to_path_buf()];
    while let Some(file) = queue.pop() {
        let folder = file.parent().unwrap_or(root);
        for header in includes(&source::read(&file)?) {
            // As gcc looks: beside the including file, then `-I .` (the upload's top).
            let Some(found) = [folder.join(&header), root.join(&header)]
                .into_iter()
                .find(|p| p.is_file())
            else {
                continue; // a system header written with quotes, or one gcc will miss
            };
            let found = tidy(&found);
            let implementation = found.with_extension("c");
            for f in [found, implementation] {
                if f.is_file() && used.insert(f.clone()) {
                    queue.push(f);
                }
            }
        }
    }
    if !defines_main(&source::read(main)?) {
        return Err(PackError::NoMainFunction {
            main: main.to_path_buf(),
        });
    }
    let mut members = Vec::new();
    for from in used {
        if from != main
            && from.extension().is_some_and(|e| e == "c")
            && defines_main(&source::read(&from)?)
        {
            return Err(PackError::TwoMains {
                main: main.to_path_buf(),
                other: from,
            });
        }
        members.push(Member {
            name: name_in(root, &from)?,
            from,
        });
    }
    Ok((members, "./bot".into()))
}

/// The bots among a folder's `.c` files: `bot.c` or `main.c` if there, else every file that
/// defines `main`.
pub fn mains(files: &[PathBuf]) -> Result<Vec<PathBuf>, PackError> {
    for usual in ["bot.c", "main.c"] {
        if let Some(f) = files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| n == usual))
        {
            return Ok(vec![f.clone()]);
        }
    }
    let mut out = Vec::new();
    for f in files {
        if defines_main(&source::read(f)?) {
            out.push(f.clone());
        }
    }
    Ok(out)
}

/// The `#include "..."` names of `text`, comments ignored.
fn includes(text: &str) -> Vec<String> {
    source::code(text, &['"', '\''], false)
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = rest
                .strip_prefix("include")?
                .trim_start()
                .strip_prefix('"')?;
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

/// Whether `text` defines a function `main` (`int main(`, comments and strings aside).
fn defines_main(text: &str) -> bool {
    let code = source::code(text, &['"', '\''], true);
    // `main` right after `int`, then a `(`: a definition or a declaration, which in a bot's
    // own files means the same.
    let mut rest = code.as_str();
    while let Some(at) = rest.find("main") {
        let before = rest[..at].trim_end();
        let after = rest[at + 4..].trim_start();
        let word_ends =
            !rest[at + 4..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if before.ends_with("int") && after.starts_with('(') && word_ends {
            let prior = before[..before.len() - 3].chars().next_back();
            if !prior.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                return true;
            }
        }
        rest = &rest[at + 4..];
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_and_main() {
        let text = "#include <stdio.h>\n#include \"teenpatti.h\"\n// #include \"old.h\"\n\
                    # include \"lib/json.h\"\nstatic int remain(void);\nint main (void) {}\n";
        assert_eq!(includes(text), ["teenpatti.h", "lib/json.h"]);
        assert!(defines_main(text));
        assert!(!defines_main(
            "static int remain(void);\n/* int main(void) */\n"
        ));
        assert!(!defines_main(
            "const char *s = \"int main(\";\nint mainly(void);"
        ));
        assert!(defines_main("int\nmain(int argc, char **argv)"));
    }
}
