//! A worker's copies of the builds it runs, fetched from the database (`build_artifacts`) on
//! first use and kept while their versions are ready: `CACHE/ID/` holds the unpacked build,
//! `CACHE/ID.sha256` the digest of the archive it came from. A copy is made in a scratch
//! directory and renamed into place, so a worker killed half-way leaves no half copy that a
//! later run would trust.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::artifact::digest;
use super::toolchains::DIR;
use super::unpack::{UnpackLimits, unpack};
use crate::storage::{Db, SourceKind, random_hex};

/// Bounds on what a stored archive may unpack to (the archive comes from this contest's own
/// builders; the bounds only stop a damaged row from filling the disk).
const LIMITS: UnpackLimits = UnpackLimits {
    max_files: 100_000,
    max_bytes: 4 << 30,
};

/// Where a worker keeps builds.
#[derive(Debug)]
pub struct BuildCache {
    dir: PathBuf,
    /// One fetch at a time: a second task wanting the same version then finds it current
    /// instead of replacing the directory a bot of the first may already run from.
    fetching: tokio::sync::Mutex<()>,
}

impl BuildCache {
    /// Opens (creating) the cache directory; scratch left by a killed worker is removed.
    pub fn new(dir: PathBuf) -> std::io::Result<BuildCache> {
        std::fs::create_dir_all(&dir)?;
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().contains(".tmp-") {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        Ok(BuildCache {
            dir,
            fetching: tokio::sync::Mutex::new(()),
        })
    }

    /// Where `version_id`'s build is unpacked (what its bot runs from).
    pub fn dir_of(&self, version_id: i64) -> PathBuf {
        self.dir.join(version_id.to_string())
    }

    /// The command that starts `version_id` from this cache, fetching its build first if
    /// the cache has no current copy.
    pub async fn command(&self, db: &Db, version_id: i64) -> anyhow::Result<Vec<String>> {
        let info = db.artifact_info(version_id).await?.ok_or_else(|| {
            anyhow::anyhow!("version {version_id} has no stored build (it never passed its checks)")
        })?;
        let dir = self.dir_of(version_id);
        let marker = self.dir.join(format!("{version_id}.sha256"));
        let _one_at_a_time = self.fetching.lock().await;
        let current = std::fs::read_to_string(&marker).is_ok_and(|d| d == info.sha256);
        if !current || !dir.is_dir() {
            let archive = db
                .artifact_archive(version_id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("the build of version {version_id} vanished"))?;
            if digest(&archive) != info.sha256 {
                anyhow::bail!("the stored build of version {version_id} does not match its digest");
            }
            let (dir2, marker2, sha) = (dir.clone(), marker.clone(), info.sha256.clone());
            let scratch = self
                .dir
                .join(format!("{version_id}.tmp-{}", random_hex(8)?));
            tokio::task::spawn_blocking(move || install(&archive, &scratch, &dir2, &marker2, &sha))
                .await?
                .with_context(|| format!("cannot unpack the build of version {version_id}"))?;
        }
        let path = dir.to_string_lossy();
        Ok(info
            .run_command
            .iter()
            .map(|a| a.replace(DIR, &path))
            .collect())
    }

    /// Removes the copies of versions that are no longer in `keep` (retired, failed).
    pub fn sweep(&self, keep: &[i64]) -> std::io::Result<usize> {
        let mut removed = 0;
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let id = name.strip_suffix(".sha256").unwrap_or(&name);
            let Ok(id) = id.parse::<i64>() else { continue };
            if !keep.contains(&id) {
                if entry.file_type()?.is_dir() {
                    std::fs::remove_dir_all(entry.path())?;
                    removed += 1;
                } else {
                    std::fs::remove_file(entry.path())?;
                }
            }
        }
        Ok(removed)
    }
}

/// Unpacks into `scratch`, then puts it in place of `dir` (another task of this worker may
/// have done so meanwhile: the same digest, so either copy serves) and writes the marker.
fn install(
    archive: &[u8],
    scratch: &Path,
    dir: &Path,
    marker: &Path,
    sha256: &str,
) -> anyhow::Result<()> {
    let result = (|| -> anyhow::Result<()> {
        unpack(SourceKind::TarGz, "build.tar.gz", archive, scratch, LIMITS)?;
        // The marker goes first: a stale marker with a fresh directory is fetched again.
        let _ = std::fs::remove_file(marker);
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::rename(scratch, dir)?;
        std::fs::write(marker, sha256)?;
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(scratch);
    result
}
