//! `arena pack DIR [--main FILE] -o bot.zip`: an upload for the contest server made from a
//! bot's folder (a starter kit, or a participant's copy of one). The server builds every
//! source file of an upload and runs the one with the usual name (see the server's
//! `ladder/toolchains.rs`), so zipping a whole kit fails: the C kit's two `main`s, Python's
//! `strength_bot.py` that is not `bot.py`. This packs the main file and only what it uses,
//! named as the server expects, refuses what the server could not build, and says what it
//! packed and what the server will run.

mod c;
mod error;
mod java;
mod javascript;
mod plan;
mod python;
mod rust;
mod source;
mod zip;

use std::path::{Path, PathBuf};

pub use error::PackError;
pub use plan::{Language, Member, Plan, plan};

/// Packs the bot in `dir` (its main file `main`, else the usual name, and the files `add`
/// besides what the main file uses) into the zip `out`; returns what the user reads: the
/// files, where each came from, what was left out, what to do next.
pub fn pack(
    dir: &Path,
    main: Option<&Path>,
    add: &[PathBuf],
    out: &Path,
) -> Result<String, PackError> {
    if !out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
    {
        return Err(PackError::OutNotZip {
            out: out.to_path_buf(),
        });
    }
    let plan = plan(dir, main, add)?;
    let out_real = std::fs::canonicalize(out).ok();
    if let Some(m) = plan
        .members
        .iter()
        .find(|m| out_real.is_some() && std::fs::canonicalize(&m.from).ok() == out_real)
    {
        return Err(PackError::OutIsPacked {
            out: out.to_path_buf(),
            member: m.from.clone(),
        });
    }
    let mut files = Vec::new();
    for m in &plan.members {
        let bytes = std::fs::read(&m.from).map_err(|source| PackError::Read {
            path: m.from.clone(),
            source,
        })?;
        files.push((m.name.clone(), bytes));
    }
    let bytes = zip::zip(&files).map_err(PackError::Zip)?;
    write_new(out, &bytes)?;
    Ok(report(&plan, out, bytes.len()))
}

/// Written beside `out`, then renamed over it: never a half-written zip.
fn write_new(out: &Path, bytes: &[u8]) -> Result<(), PackError> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let written = tempfile::NamedTempFile::new_in(parent).and_then(|mut tmp| {
        std::io::Write::write_all(&mut tmp, bytes)?;
        tmp.persist(out).map_err(|e| e.error)
    });
    match written {
        Ok(_) => Ok(()),
        Err(source) => Err(PackError::Write {
            out: out.to_path_buf(),
            source,
        }),
    }
}

/// What the user reads: the files, where each came from, what was left out, what to do next.
fn report(plan: &Plan, out: &Path, size: usize) -> String {
    let mut text = format!(
        "packed {} ({} file{}, {size} bytes) for language {}:\n",
        out.display(),
        plan.members.len(),
        if plan.members.len() == 1 { "" } else { "s" },
        plan.language.name()
    );
    let width = plan.members.iter().map(|m| m.name.len()).max().unwrap_or(0);
    for m in &plan.members {
        let from = m.from.strip_prefix(&plan.root).unwrap_or(&m.from);
        if from == Path::new(&m.name) {
            text.push_str(&format!("  {}\n", m.name));
        } else {
            text.push_str(&format!("  {:width$}  from {}\n", m.name, from.display()));
        }
    }
    if !plan.left_out.is_empty() {
        text.push_str(&format!(
            "left out (the bot does not use them): {}\n",
            plan.left_out.join(", ")
        ));
    }
    text.push_str(&format!(
        "the server builds it with `{}` and runs `{}`; upload it as language {}\n",
        plan.language.build(),
        plan.run,
        plan.language.name()
    ));
    text
}
