//! Java: the main class's file and the files of the classes it names, and they name, from
//! its folder (the server compiles the top-level files of the default package: a kit's
//! `src/` is packed flat). The server runs `Main`, else `Bot`, else the only class with a
//! `main` method: a pack where that is not the chosen class is refused rather than built to
//! run something else.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::plan::{Member, name_in};
use super::{PackError, source};

pub fn members(root: &Path, main: &Path) -> Result<(Vec<Member>, String), PackError> {
    let classes: BTreeMap<String, PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "java"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    let class_of = |p: &Path| {
        p.file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    };
    let main_class = class_of(main);
    let mut used = BTreeMap::from([(main_class.clone(), main.to_path_buf())]);
    let mut with_main = BTreeSet::new();
    let mut queue = vec![main.to_path_buf()];
    while let Some(file) = queue.pop() {
        let code = source::code(&source::read(&file)?, &['"', '\''], true);
        if code
            .lines()
            .any(|l| source::identifiers(l).next() == Some("package"))
        {
            return Err(PackError::JavaPackage { file });
        }
        if code.contains("static void main") {
            with_main.insert(class_of(&file));
        }
        for word in source::identifiers(&code) {
            if let Some(path) = classes.get(word)
                && !used.contains_key(word)
            {
                used.insert(word.to_string(), path.clone());
                queue.push(path.clone());
            }
        }
    }
    // What the server will run, given these files (its `java_main`).
    let runs = if used.contains_key("Main") {
        Some("Main".to_string())
    } else if used.contains_key("Bot") {
        Some("Bot".to_string())
    } else if with_main.len() == 1 {
        with_main.first().cloned()
    } else {
        None
    };
    if runs.as_deref() != Some(main_class.as_str()) {
        return Err(PackError::OtherJavaClassRuns {
            classes: used.into_keys().collect(),
            runs,
            main_class,
        });
    }
    let mut members = Vec::new();
    for from in used.into_values() {
        members.push(Member {
            name: name_in(root, &from)?,
            from,
        });
    }
    Ok((members, format!("java -cp . {main_class}")))
}

/// The bots among the `.java` files: `Main.java` or `Bot.java` if there, else every class
/// with a `main` method.
pub fn mains(files: &[PathBuf]) -> Result<Vec<PathBuf>, PackError> {
    for usual in ["Main.java", "Bot.java"] {
        if let Some(f) = files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| n == usual))
        {
            return Ok(vec![f.clone()]);
        }
    }
    let mut out = Vec::new();
    for f in files {
        if source::code(&source::read(f)?, &['"', '\''], true).contains("static void main") {
            out.push(f.clone());
        }
    }
    Ok(out)
}
