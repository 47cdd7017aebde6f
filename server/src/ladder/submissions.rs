//! Submissions: a participant's upload becomes a stored bot version, waiting for a builder.
//!
//! The upload is unpacked into `uploads/<version id>.partial`, renamed to
//! `uploads/<version id>` once whole, and only then recorded in the database, so a version
//! row always has its files. A crash in between leaves a `.partial` directory (swept at
//! start) or an unreferenced directory (harmless), never a row without files.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tokio::sync::Notify;

use super::unpack::{self, UnpackError, UnpackLimits, Unpacked, kind_of};
use crate::config::{Language, UploadPolicy};
use crate::storage::{self, Bot, Db, NewVersion, StorageError, User, Version, now_ms};

/// A bot's name: 1 to 32 of `A-Z a-z 0-9 _ . -`, starting with a letter or digit (safe in
/// URLs and pages, and on the leaderboard).
pub fn valid_bot_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 32
        && bytes[0].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b))
}

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("a bot name is 1 to 32 of A-Z, a-z, 0-9, _ . -, starting with a letter or digit")]
    BadBotName,
    #[error("this contest does not offer the language {0:?}; it offers {1}")]
    Language(String, String),
    #[error("the upload is larger than {0} bytes")]
    TooLarge(u64),
    #[error("the bot name {0:?} belongs to another participant")]
    NameTaken(String),
    #[error("an account owns at most {0} bots")]
    TooManyBots(u64),
    #[error("at most {0} uploads per hour; try again later")]
    TooOften(u32),
    #[error("uploads are frozen: the organizer has closed submissions for the final round robin")]
    Frozen,
    #[error("the assignment closed at {0}: uploads are no longer graded")]
    Closed(String),
    #[error(transparent)]
    Unpack(#[from] UnpackError),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("the upload could not be stored: {0}")]
    Io(#[from] std::io::Error),
}

/// The submission service the web layer calls.
#[derive(Clone, Debug)]
pub struct Submissions {
    db: Db,
    uploads: PathBuf,
    policy: UploadPolicy,
    languages: Vec<Language>,
    /// An assignment's end (deadline plus late window, ms): uploads after it are refused.
    closes_at: Option<i64>,
    /// Poked after each upload, so that a builder in this process (a later session's) starts
    /// at once instead of at its next poll of the database; builders elsewhere poll.
    pub build_wakeup: Arc<Notify>,
}

impl Submissions {
    /// `uploads` is the directory of the versions' files (created if missing; leftovers of an
    /// interrupted upload are removed).
    pub fn new(
        db: Db,
        uploads: PathBuf,
        policy: UploadPolicy,
        languages: Vec<Language>,
    ) -> std::io::Result<Submissions> {
        std::fs::create_dir_all(&uploads)?;
        for entry in std::fs::read_dir(&uploads)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "partial") {
                std::fs::remove_dir_all(&path)?;
            }
        }
        Ok(Submissions {
            db,
            uploads,
            policy,
            languages,
            closes_at: None,
            build_wakeup: Arc::new(Notify::new()),
        })
    }

    /// The contest's submissions: its versions' files in `DATA_DIR/uploads`, its upload
    /// policy and languages.
    pub fn of_contest(db: Db, contest: &crate::config::Contest) -> std::io::Result<Submissions> {
        let mut submissions = Submissions::new(
            db,
            contest.data_dir.join("uploads"),
            contest.uploads.clone(),
            contest.languages.clone(),
        )?;
        submissions.closes_at = contest.assignment.as_ref().map(|a| a.closes_at_ms());
        Ok(submissions)
    }

    /// The directory of every version's files.
    pub fn uploads_dir(&self) -> &Path {
        &self.uploads
    }

    pub fn policy(&self) -> &UploadPolicy {
        &self.policy
    }

    pub fn languages(&self) -> &[Language] {
        &self.languages
    }

    /// Stores an upload as the next version of `owner`'s bot `bot_name` (created on its first
    /// upload).
    pub async fn submit(
        &self,
        owner: &User,
        bot_name: &str,
        language: &str,
        file_name: &str,
        bytes: Vec<u8>,
    ) -> Result<(Bot, Version), SubmitError> {
        if self.db.frozen_at().await?.is_some() {
            return Err(SubmitError::Frozen);
        }
        if let Some(closes_at) = self.closes_at
            && now_ms() > closes_at
        {
            return Err(SubmitError::Closed(crate::clock::utc_text(closes_at)));
        }
        if !valid_bot_name(bot_name) {
            return Err(SubmitError::BadBotName);
        }
        let lang = Language::parse(language)
            .filter(|l| self.languages.contains(l))
            .ok_or_else(|| {
                let offered: Vec<&str> = self.languages.iter().map(|l| l.as_str()).collect();
                SubmitError::Language(language.to_string(), offered.join(", "))
            })?;
        if bytes.len() as u64 > self.policy.max_bytes {
            return Err(SubmitError::TooLarge(self.policy.max_bytes));
        }
        let hour_ago = now_ms() - 3_600_000;
        if self.db.uploads_since(owner.id, hour_ago).await?
            >= i64::from(self.policy.uploads_per_hour)
        {
            return Err(SubmitError::TooOften(self.policy.uploads_per_hour));
        }
        // Checked before unpacking, created after: a refused upload reserves no name.
        let existing = self.existing_bot(owner, bot_name).await?;

        let id = storage::new_id()?;
        let partial = self.uploads.join(format!("{id}.partial"));
        let done = self.uploads.join(id.to_string());
        let kind = kind_of(file_name);
        let limits = UnpackLimits {
            max_files: self.policy.max_files,
            max_bytes: self.policy.max_unpacked_bytes,
        };
        let name = file_name.to_string();
        let upload_len = bytes.len() as i64;
        let unpacked: Result<(Unpacked, String), SubmitError> = tokio::task::spawn_blocking({
            let (partial, done) = (partial.clone(), done.clone());
            move || {
                let unpacked = unpack::unpack(kind, &name, &bytes, &partial, limits)?;
                std::fs::rename(&partial, &done)?;
                Ok((unpacked, storage::hex(&Sha256::digest(&bytes))))
            }
        })
        .await
        .map_err(|e| SubmitError::Io(std::io::Error::other(e)))?;
        let (unpacked, sha) = match unpacked {
            Ok(ok) => ok,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&partial);
                return Err(e);
            }
        };
        // Again, after unpacking (seconds for a big archive): an upload still unpacking when
        // the organizer froze is refused rather than slipped in behind the freeze.
        match self.db.frozen_at().await {
            Ok(None) => {}
            Ok(Some(_)) => {
                let _ = std::fs::remove_dir_all(&done);
                return Err(SubmitError::Frozen);
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&done);
                return Err(e.into());
            }
        }
        let bot = match existing {
            Some(bot) => bot,
            None => match self.create_bot(owner, bot_name).await {
                Ok(bot) => bot,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&done);
                    return Err(e);
                }
            },
        };
        let new = NewVersion {
            id,
            bot_id: bot.id,
            language: lang.as_str().to_string(),
            source_kind: kind,
            source_name: file_name.to_string(),
            source_bytes: upload_len,
            unpacked_bytes: unpacked.bytes as i64,
            file_count: unpacked.files as i64,
            source_sha256: sha,
        };
        match self.db.add_version(&new).await {
            Ok(version) => {
                self.build_wakeup.notify_one();
                Ok((bot, version))
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&done);
                Err(e.into())
            }
        }
    }

    /// The owner's bot of that name if it exists; `None` if no one has it and the owner may
    /// create one more.
    async fn existing_bot(&self, owner: &User, name: &str) -> Result<Option<Bot>, SubmitError> {
        if let Some(bot) = self.db.bot_by_name(name).await? {
            return if bot.owner_id == owner.id {
                Ok(Some(bot))
            } else {
                Err(SubmitError::NameTaken(name.to_string()))
            };
        }
        if self.db.bots_of(owner.id).await?.len() as u64 >= self.policy.bots_per_user {
            return Err(SubmitError::TooManyBots(self.policy.bots_per_user));
        }
        Ok(None)
    }

    async fn create_bot(&self, owner: &User, name: &str) -> Result<Bot, SubmitError> {
        match self.db.create_bot(owner.id, name).await {
            Ok(bot) => Ok(bot),
            // Someone took the name since the check.
            Err(StorageError::Conflict) => Err(SubmitError::NameTaken(name.to_string())),
            Err(e) => Err(e.into()),
        }
    }

    /// The directory of a version's files.
    pub fn version_dir(&self, version: &Version) -> PathBuf {
        self.uploads.join(version.id.to_string())
    }

    /// A version's files, relative paths with sizes, sorted.
    pub fn files(&self, version: &Version) -> std::io::Result<Vec<(String, u64)>> {
        let root = self.version_dir(version);
        let mut out = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let entry = entry?;
                let kind = entry.file_type()?;
                if kind.is_dir() {
                    stack.push(entry.path());
                } else if kind.is_file() {
                    let rel = entry
                        .path()
                        .strip_prefix(&root)
                        .unwrap_or(&entry.path())
                        .to_path_buf();
                    out.push((rel.to_string_lossy().into_owned(), entry.metadata()?.len()));
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// One file of a version, by its relative path; `None` if there is no such file (or the
    /// path tries to leave the version's directory).
    pub fn read_file(&self, version: &Version, rel: &str) -> std::io::Result<Option<Vec<u8>>> {
        let rel_path = Path::new(rel);
        if rel.is_empty()
            || !rel_path
                .components()
                .all(|c| matches!(c, Component::Normal(_)))
        {
            return Ok(None);
        }
        let path = self.version_dir(version).join(rel_path);
        // Unpacking never makes links, but check: only a regular file is served.
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => Ok(Some(std::fs::read(&path)?)),
            Ok(_) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}
