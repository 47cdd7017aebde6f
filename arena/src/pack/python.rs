//! Python: the main file becomes `bot.py` (the server runs `bot.py`, else `main.py`, else an
//! upload's only `.py` file) and goes with the modules and packages of its folder that it
//! imports, and they import, found by their `import` and `from` lines. Tests and other bots
//! in the folder are left out (the server would compile them all).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::plan::{Member, renamed_main};
use super::{PackError, source};

pub fn members(root: &Path, main: &Path) -> Result<(Vec<Member>, String), PackError> {
    let mut used = BTreeSet::new();
    let mut queue = vec![main.to_path_buf()];
    while let Some(file) = queue.pop() {
        for module in imports(&source::read(&file)?) {
            for found in local(root, &module) {
                if found != main && used.insert(found.clone()) {
                    queue.push(found);
                }
            }
        }
    }
    let members = renamed_main(root, main, used.into_iter().collect(), "bot.py")?;
    Ok((members, "python3 bot.py".into()))
}

/// The bots among a folder's `.py` files: `bot.py` or `main.py` if there, else every file
/// that is not a test (`test_*.py`) nor imported by another.
pub fn mains(files: &[PathBuf]) -> Result<Vec<PathBuf>, PackError> {
    for usual in ["bot.py", "main.py"] {
        if let Some(f) = files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| n == usual))
        {
            return Ok(vec![f.clone()]);
        }
    }
    let is_test = |f: &PathBuf| {
        f.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("test_"))
    };
    let mut imported = BTreeSet::new();
    for f in files.iter().filter(|f| !is_test(f)) {
        imported.extend(imports(&source::read(f)?));
    }
    Ok(files
        .iter()
        .filter(|f| !is_test(f))
        .filter(|f| {
            !imported.contains(f.file_stem().unwrap_or_default().to_string_lossy().as_ref())
        })
        .cloned()
        .collect())
}

/// The top-level names of the modules `text` imports (`import a.b, c as d`, `from e import
/// f`); relative imports (`from . import x`) are inside a package, packed whole.
fn imports(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let names: Vec<&str> = if let Some(rest) = line.strip_prefix("import ") {
            rest.split(',')
                .map(|part| part.split_whitespace().next().unwrap_or(""))
                .collect()
        } else if let Some(rest) = line.strip_prefix("from ") {
            vec![rest.split_whitespace().next().unwrap_or("")]
        } else {
            continue;
        };
        for name in names {
            let top = name.split('.').next().unwrap_or("");
            if !top.is_empty() && top.chars().all(|c| c.is_alphanumeric() || c == '_') {
                out.insert(top.to_string());
            }
        }
    }
    out
}

/// The files of module `name` in `root`: `name.py`, or every `.py` file of the package
/// `name/` (it has an `__init__.py`); nothing for a module of Python's own.
fn local(root: &Path, name: &str) -> Vec<PathBuf> {
    let file = root.join(format!("{name}.py"));
    if file.is_file() {
        return vec![file];
    }
    let package = root.join(name);
    if !package.join("__init__.py").is_file() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut folders = vec![package];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() && name != "__pycache__" {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "py") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_lines() {
        let text = "import os, teenpatti as tp\nfrom lib.util import x  # why\n\
                    from . import y\n    import inner\nx = 'import no'\n";
        let found: Vec<String> = imports(text).into_iter().collect();
        assert_eq!(found, ["inner", "lib", "os", "teenpatti"]);
    }
}
