//! Rust: the server builds `rustc -O --edition 2021 -o bot main.rs`: no cargo, so no crates,
//! only the standard library. The main file becomes `main.rs` and goes with the module files
//! its `mod x;` lines name (`x.rs` or `x/mod.rs`, and theirs). A file that uses a crate (the
//! kit's bots on `sample_bots` and `protocol`) is refused, naming the crate: the kit's
//! `standalone-bot.rs` is the std-only starter, and the default when it is the folder's only
//! bot that can be built so.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::plan::{Member, renamed_main, tidy};
use super::{PackError, source};

/// Paths every Rust file may start with.
const BUILT_IN: [&str; 6] = ["std", "core", "alloc", "crate", "self", "super"];

pub fn members(dir: &Path, root: &Path, main: &Path) -> Result<(Vec<Member>, String), PackError> {
    let crates = cargo_crates(dir);
    let mut used: Vec<PathBuf> = Vec::new();
    let mut mods = BTreeSet::new();
    let mut uses: Vec<(PathBuf, String)> = Vec::new();
    let mut queue = vec![(main.to_path_buf(), root.to_path_buf())];
    while let Some((file, module_dir)) = queue.pop() {
        let code = source::code(&source::read(&file)?, &['"'], true);
        let words: Vec<&str> = source::identifiers(&code).collect();
        for pair in words.windows(2) {
            if pair == ["extern", "crate"] {
                return Err(uses_crate(&file, None));
            }
        }
        for name in &crates {
            if code_uses_path(&code, name) {
                return Err(uses_crate(&file, Some(name)));
            }
        }
        for first in use_roots(&code) {
            uses.push((file.clone(), first));
        }
        for name in mod_declarations(&code) {
            let (flat, nested) = (
                module_dir.join(format!("{name}.rs")),
                module_dir.join(&name).join("mod.rs"),
            );
            let Some(found) = [flat.clone(), nested.clone()]
                .into_iter()
                .find(|p| p.is_file())
            else {
                return Err(PackError::MissingModule {
                    file,
                    name,
                    flat,
                    nested,
                });
            };
            mods.insert(name.clone());
            let found = tidy(&found);
            if !used.contains(&found) && found != main {
                used.push(found.clone());
                queue.push((found, module_dir.join(&name)));
            }
        }
    }
    if let Some((file, name)) = uses
        .iter()
        .find(|(_, n)| !BUILT_IN.contains(&n.as_str()) && !mods.contains(n))
    {
        return Err(uses_crate(file, Some(name)));
    }
    let members = renamed_main(root, main, used, "main.rs")?;
    Ok((members, "./bot".into()))
}

/// The bots of a folder: `main.rs` or `src/main.rs` if there; else those of `files` (Cargo's
/// `src/bin/` too, not a library) the server can build, or all of them when none can (so the
/// error lists them).
pub fn mains(dir: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    for usual in ["main.rs", "src/main.rs"] {
        if dir.join(usual).is_file() {
            return vec![dir.join(usual)];
        }
    }
    let bins: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "lib.rs"))
        .cloned()
        .collect();
    let buildable: Vec<PathBuf> = bins
        .iter()
        .filter(|f| {
            let root = f.parent().unwrap_or(dir);
            members(dir, root, f).is_ok()
        })
        .cloned()
        .collect();
    if buildable.is_empty() {
        bins
    } else {
        buildable
    }
}

/// `file` uses the crate `krate` (`None`: an `extern crate`).
fn uses_crate(file: &Path, krate: Option<&str>) -> PackError {
    PackError::UsesCrate {
        file: file.to_path_buf(),
        krate: krate.map(str::to_string),
    }
}

/// The crates a Cargo package's code may name: its dependencies and its own library.
fn cargo_crates(dir: &Path) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
        return BTreeSet::new();
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return BTreeSet::new();
    };
    let mut out: BTreeSet<String> = table
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(name) = table
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
    {
        out.insert(name.to_string());
    }
    out.into_iter().map(|n| n.replace('-', "_")).collect()
}

/// Whether `code` names `name::` as a path (not as the end of a longer word).
fn code_uses_path(code: &str, name: &str) -> bool {
    let pattern = format!("{name}::");
    code.match_indices(&pattern).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    })
}

/// The first segment of each `use` path (`use std::io` gives `std`; `use {a, b}` is skipped).
fn use_roots(code: &str) -> Vec<String> {
    let words: Vec<&str> = code.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "use")
        .filter_map(|w| {
            let first = w[1].trim_start_matches("::").split("::").next()?;
            let first = first.trim_end_matches([';', ',']);
            (!first.is_empty() && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                .then(|| first.to_string())
        })
        .collect()
}

/// The names of `mod NAME;` (a module in a file of its own), not `mod NAME { ... }`.
fn mod_declarations(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("mod") {
        let before_ok = !rest[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        rest = &rest[at + 3..];
        if !before_ok || !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let after = rest.trim_start();
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && after[name.len()..].trim_start().starts_with(';') {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_uses_and_crate_paths() {
        let code = "mod util;\npub mod deep ;\nmod inline { }\nmodule x;\nuse std::io;\n\
                    use ::serde::Deserialize;\nuse crate::util::f;\nuse {a, b};\n\
                    let v = sample_bots::run(); let w = not_sample_bots::x; let z = a::sample_bots::y;";
        assert_eq!(mod_declarations(code), ["util", "deep"]);
        assert_eq!(use_roots(code), ["std", "serde", "crate"]);
        assert!(code_uses_path(code, "sample_bots"));
        assert!(!code_uses_path(
            "let w = not_sample_bots::x; a::sample_bots::y",
            "sample_bots"
        ));
    }
}
