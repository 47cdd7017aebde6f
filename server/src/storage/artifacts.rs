//! Build artifacts: what a worker fetches to run a ready version (`ladder::artifact`).

use sqlx::Row;

use super::{Db, Result, StorageError};

/// An artifact without its archive: enough to tell whether a worker's cached copy is current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactInfo {
    pub run_command: Vec<String>,
    pub sha256: String,
}

impl Db {
    /// The run command and digest of a version's build; `None` if it has none (it never
    /// passed, or was built before artifacts were stored).
    pub async fn artifact_info(&self, version_id: i64) -> Result<Option<ArtifactInfo>> {
        let row =
            sqlx::query("SELECT run_command, sha256 FROM build_artifacts WHERE version_id = $1")
                .bind(version_id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else { return Ok(None) };
        let text: String = row.try_get("run_command")?;
        let run_command = serde_json::from_str(&text).map_err(|e| {
            StorageError::Corrupt(format!("run command of version {version_id}: {e}"))
        })?;
        Ok(Some(ArtifactInfo {
            run_command,
            sha256: row.try_get("sha256")?,
        }))
    }

    /// The packed build of a version (tar.gz).
    pub async fn artifact_archive(&self, version_id: i64) -> Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT archive FROM build_artifacts WHERE version_id = $1")
            .bind(version_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("archive").map_err(Into::into))
            .transpose()
    }

    /// The versions that may still be played (ready), for a worker's cache to keep.
    pub async fn ready_version_ids(&self) -> Result<Vec<i64>> {
        let rows = sqlx::query("SELECT id FROM bot_versions WHERE state = 'ready'")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get("id").map_err(Into::into))
            .collect()
    }
}
