//! JavaScript: the main file becomes `bot.js` (the server runs `bot.js`, else `main.js`, else
//! an upload's only script) and goes with the files it loads by a relative path
//! (`require('./teenpatti')`, `import ... from './x.js'`), and they load, as Node resolves
//! them. The kit's `example_bot.js` and other bots are left out.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::plan::{Member, renamed_main, tidy};
use super::{PackError, source};

pub fn members(root: &Path, main: &Path) -> Result<(Vec<Member>, String), PackError> {
    let mut used = BTreeSet::new();
    let mut queue = vec![main.to_path_buf()];
    while let Some(file) = queue.pop() {
        let folder = file.parent().unwrap_or(root);
        for spec in loads(&source::read(&file)?) {
            let Some(found) = resolve(folder, &spec) else {
                return Err(PackError::MissingScript { file, spec });
            };
            if found != main && used.insert(found.clone()) {
                queue.push(found);
            }
        }
    }
    if main.extension().is_some_and(|e| e != "js") && !used.is_empty() {
        // Renamed bot.js, an ES module (.mjs) would be read as CommonJS.
        return Err(PackError::ModuleMain {
            main: main.to_path_buf(),
        });
    }
    let wanted = if used.is_empty() {
        // A single file is run whatever its name.
        main.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    } else {
        "bot.js".into()
    };
    let members = renamed_main(root, main, used.into_iter().collect(), &wanted)?;
    let run = format!("node {wanted}");
    Ok((members, run))
}

/// The bots among a folder's scripts: `bot.js` or `main.js` if there, else every file no
/// other loads.
pub fn mains(files: &[PathBuf]) -> Result<Vec<PathBuf>, PackError> {
    for usual in ["bot.js", "main.js"] {
        if let Some(f) = files
            .iter()
            .find(|f| f.file_name().is_some_and(|n| n == usual))
        {
            return Ok(vec![f.clone()]);
        }
    }
    let mut loaded = BTreeSet::new();
    for f in files {
        let folder = f.parent().unwrap_or(Path::new("."));
        for spec in loads(&source::read(f)?) {
            loaded.extend(resolve(folder, &spec));
        }
    }
    Ok(files
        .iter()
        .filter(|f| !loaded.contains(*f))
        .cloned()
        .collect())
}

/// The relative specifiers of `require(...)`, `import(...)`, `import ... from` and
/// `import '...'` in `text` (comments ignored); packages (`readline`) are Node's own.
fn loads(text: &str) -> Vec<String> {
    let code = source::code(text, &['"', '\'', '`'], false);
    let mut out = Vec::new();
    for keyword in ["require(", "import(", "from ", "import "] {
        let mut rest = code.as_str();
        while let Some(at) = rest.find(keyword) {
            rest = &rest[at + keyword.len()..];
            let after = rest.trim_start();
            let Some(quote) = after
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\'' | '`'))
            else {
                continue;
            };
            let inner = &after[1..];
            if let Some(end) = inner.find(quote) {
                let spec = &inner[..end];
                if spec.starts_with("./") || spec.starts_with("../") {
                    out.push(spec.to_string());
                }
            }
        }
    }
    out
}

/// A relative specifier as Node resolves it: the file, with an extension, or a folder's
/// `index.js`.
fn resolve(folder: &Path, spec: &str) -> Option<PathBuf> {
    let base = folder.join(spec);
    let mut tries = vec![base.clone()];
    for ext in ["js", "mjs", "cjs", "json"] {
        tries.push(PathBuf::from(format!("{}.{ext}", base.display())));
    }
    tries.push(base.join("index.js"));
    tries.into_iter().find(|p| p.is_file()).map(|p| tidy(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_loads_only() {
        let text = "const tp = require('./teenpatti');\nconst rl = require('readline');\n\
                    // require('./commented')\nimport x from \"../lib/x.js\";\nimport './side.mjs';";
        assert_eq!(loads(text), ["./teenpatti", "../lib/x.js", "./side.mjs"]);
    }
}
