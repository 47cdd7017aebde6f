//! The reference bots, made into bots of the hidden reference account at start: each
//! `[[assignment.reference]]` source (a file or a folder on the server) is copied into the
//! uploads like a participant's upload and built by the same builders, so the workers fetch
//! and run it as any other bot. A source that changed since the last start becomes a new
//! version (grading then plays the uploads against it anew); an unchanged one is left alone.
//! No page lists these bots, and their files are served to no one (their owner cannot log
//! in).

use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::config::{AssignmentPolicy, Language, Reference};
use crate::storage::{self, Db, NewVersion, REFERENCE_ACCOUNT, SourceKind, StorageError};

/// Makes sure every reference bot's newest version holds its current source; returns the
/// names of those given a new version. `uploads` is the submissions' directory.
pub async fn provision(
    db: &Db,
    policy: &AssignmentPolicy,
    uploads: &Path,
) -> anyhow::Result<Vec<String>> {
    let account = match db.reference_account().await {
        Ok(user) => user,
        Err(StorageError::Conflict) => anyhow::bail!(
            "a participant's account is named {REFERENCE_ACCOUNT:?}, the name the assignment's reference bots are kept under: rename that account"
        ),
        Err(e) => return Err(e.into()),
    };
    let existing = db.reference_versions().await?;
    let mut added = Vec::new();
    for reference in &policy.references {
        let files = read_reference(reference).with_context(|| {
            format!(
                "cannot read the reference bot {:?}'s source {}",
                reference.name,
                reference.source.display()
            )
        })?;
        let sha = digest(&files);
        let newest = existing.iter().find(|v| v.name == reference.name);
        if newest.is_some_and(|v| v.source_sha256 == sha) {
            continue;
        }
        let bot = match db.bot_by_name(&reference.name).await? {
            Some(bot) if bot.owner_id == account.id => bot,
            Some(_) => anyhow::bail!(
                "a participant's bot is named {:?}, like a reference bot of the assignment: rename the reference",
                reference.name
            ),
            None => db.create_bot(account.id, &reference.name).await?,
        };
        let id = storage::new_id()?;
        let dir = uploads.join(id.to_string());
        let mut bytes = 0u64;
        for (rel, content) in &files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, content)
                .with_context(|| format!("cannot write {}", path.display()))?;
            bytes += content.len() as u64;
        }
        let source_name = match reference.source.file_name() {
            Some(n) if reference.source.is_dir() => format!("{}/", n.to_string_lossy()),
            Some(n) => n.to_string_lossy().into_owned(),
            None => reference.name.clone(),
        };
        db.add_version(&NewVersion {
            id,
            bot_id: bot.id,
            language: reference.language.as_str().to_string(),
            source_kind: SourceKind::File,
            source_name,
            source_bytes: bytes as i64,
            unpacked_bytes: bytes as i64,
            file_count: files.len() as i64,
            source_sha256: sha,
        })
        .await?;
        added.push(reference.name.clone());
    }
    Ok(added)
}

/// A reference's files as the build will see them: its source (a single Python or
/// JavaScript file is named `bot.py` or `bot.js`, the name the build runs, so that the helper
/// files beside it leave no doubt which file is the bot) and its extra files, sorted.
fn read_reference(reference: &Reference) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut files = read_source(&reference.source)?;
    if files.len() == 1 && reference.source.is_file() {
        let entry = match reference.language {
            Language::Python => Some("bot.py"),
            Language::JavaScript => Some("bot.js"),
            _ => None,
        };
        if let Some(name) = entry {
            files[0].0 = PathBuf::from(name);
        }
    }
    for extra in &reference.files {
        let name = extra
            .file_name()
            .map(PathBuf::from)
            .ok_or_else(|| std::io::Error::other(format!("{} names no file", extra.display())))?;
        let content = std::fs::read(extra)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", extra.display())))?;
        files.push((name, content));
    }
    files.sort();
    Ok(files)
}

/// A source's files as (relative path, content), sorted: one file, or a folder's files.
pub fn read_source(source: &Path) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
    let meta = std::fs::metadata(source)?;
    if meta.is_file() {
        let name = source
            .file_name()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("bot"));
        return Ok(vec![(name, std::fs::read(source)?)]);
    }
    let mut out = Vec::new();
    let mut stack = vec![source.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() {
                let rel = path.strip_prefix(source).unwrap_or(&path).to_path_buf();
                out.push((rel, std::fs::read(&path)?));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// One digest over the files' names and contents.
fn digest(files: &[(PathBuf, Vec<u8>)]) -> String {
    let mut h = Sha256::new();
    for (path, content) in files {
        let name = path.to_string_lossy();
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((content.len() as u64).to_le_bytes());
        h.update(content);
    }
    storage::hex(&h.finalize())
}
