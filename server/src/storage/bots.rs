//! Bots, their versions, and the build queue: builders claim uploaded versions with a lease,
//! the way ladder workers will claim matches.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Backend, Db, Result, StorageError, new_id, now_ms, random_hex};
use crate::ladder::versions::{BuildOutcome, VersionState};

/// A participant's bot: a name on the ladder, with versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bot {
    pub id: i64,
    pub owner_id: i64,
    pub name: String,
    pub created_at: i64,
}

/// What was uploaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    File,
    Zip,
    TarGz,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::File => "file",
            SourceKind::Zip => "zip",
            SourceKind::TarGz => "tar.gz",
        }
    }

    pub fn parse(text: &str) -> Option<SourceKind> {
        [SourceKind::File, SourceKind::Zip, SourceKind::TarGz]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// A version as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub id: i64,
    pub bot_id: i64,
    pub number: i64,
    pub language: String,
    pub state: VersionState,
    pub source_kind: SourceKind,
    pub source_name: String,
    pub source_bytes: i64,
    pub unpacked_bytes: i64,
    pub file_count: i64,
    pub source_sha256: String,
    pub build_log: String,
    pub check_log: String,
    pub build_attempt: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A version about to be recorded: its files are already on disk under its id.
#[derive(Clone, Debug)]
pub struct NewVersion {
    pub id: i64,
    pub bot_id: i64,
    pub language: String,
    pub source_kind: SourceKind,
    pub source_name: String,
    pub source_bytes: i64,
    pub unpacked_bytes: i64,
    pub file_count: i64,
    pub source_sha256: String,
}

/// A builder's hold on a version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildClaim {
    pub version: Version,
    pub lease_token: String,
}

const VERSION_COLUMNS: &str = "id, bot_id, number, language, state, source_kind, source_name, \
     source_bytes, unpacked_bytes, file_count, source_sha256, build_log, check_log, \
     build_attempt, created_at, updated_at";

fn version(row: &AnyRow) -> Result<Version> {
    let state: String = row.try_get("state")?;
    let kind: String = row.try_get("source_kind")?;
    Ok(Version {
        id: row.try_get("id")?,
        bot_id: row.try_get("bot_id")?,
        number: row.try_get("number")?,
        language: row.try_get("language")?,
        state: VersionState::parse(&state)
            .ok_or_else(|| StorageError::Corrupt(format!("version state {state:?}")))?,
        source_kind: SourceKind::parse(&kind)
            .ok_or_else(|| StorageError::Corrupt(format!("source kind {kind:?}")))?,
        source_name: row.try_get("source_name")?,
        source_bytes: row.try_get("source_bytes")?,
        unpacked_bytes: row.try_get("unpacked_bytes")?,
        file_count: row.try_get("file_count")?,
        source_sha256: row.try_get("source_sha256")?,
        build_log: row.try_get("build_log")?,
        check_log: row.try_get("check_log")?,
        build_attempt: row.try_get("build_attempt")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
    })
}

fn bot(row: &AnyRow) -> Result<Bot> {
    Ok(Bot {
        id: row.try_get("id")?,
        owner_id: row.try_get("owner_id")?,
        name: row.try_get("name")?,
        created_at: row.try_get("created_at")?,
    })
}

impl Db {
    /// Creates a bot. [`StorageError::Conflict`] if the name is taken (by anyone).
    pub async fn create_bot(&self, owner_id: i64, name: &str) -> Result<Bot> {
        let bot = Bot {
            id: new_id()?,
            owner_id,
            name: name.to_string(),
            created_at: now_ms(),
        };
        sqlx::query("INSERT INTO bots (id, owner_id, name, created_at) VALUES ($1, $2, $3, $4)")
            .bind(bot.id)
            .bind(owner_id)
            .bind(name)
            .bind(bot.created_at)
            .execute(&self.pool)
            .await?;
        Ok(bot)
    }

    pub async fn bot_by_name(&self, name: &str) -> Result<Option<Bot>> {
        let row = sqlx::query("SELECT id, owner_id, name, created_at FROM bots WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(bot).transpose()
    }

    pub async fn bot_by_id(&self, id: i64) -> Result<Option<Bot>> {
        let row = sqlx::query("SELECT id, owner_id, name, created_at FROM bots WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(bot).transpose()
    }

    /// An account's bots, by name.
    pub async fn bots_of(&self, owner_id: i64) -> Result<Vec<Bot>> {
        let rows = sqlx::query(
            "SELECT id, owner_id, name, created_at FROM bots WHERE owner_id = $1 ORDER BY name",
        )
        .bind(owner_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(bot).collect()
    }

    /// How many versions an account uploaded since `since` (ms): the upload rate limit,
    /// kept in the database so that a restart does not reset it.
    pub async fn uploads_since(&self, owner_id: i64, since: i64) -> Result<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM bot_versions v JOIN bots b ON b.id = v.bot_id \
             WHERE b.owner_id = $1 AND v.created_at >= $2",
        )
        .bind(owner_id)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Records an uploaded version as the bot's next number, in state `uploaded`.
    pub async fn add_version(&self, new: &NewVersion) -> Result<Version> {
        // Two uploads of one bot at once may pick the same number; the unique key refuses
        // the second, which then takes the next one.
        for _ in 0..5 {
            let now = now_ms();
            let inserted = sqlx::query(&format!(
                "INSERT INTO bot_versions (id, bot_id, number, language, state, source_kind, \
                 source_name, source_bytes, unpacked_bytes, file_count, source_sha256, \
                 created_at, updated_at) \
                 SELECT $1, $2, COALESCE(MAX(number), 0) + 1, $3, 'uploaded', $4, $5, $6, $7, \
                 $8, $9, $10, $10 FROM bot_versions WHERE bot_id = $2 \
                 RETURNING {VERSION_COLUMNS}"
            ))
            .bind(new.id)
            .bind(new.bot_id)
            .bind(&new.language)
            .bind(new.source_kind.as_str())
            .bind(&new.source_name)
            .bind(new.source_bytes)
            .bind(new.unpacked_bytes)
            .bind(new.file_count)
            .bind(&new.source_sha256)
            .bind(now)
            .fetch_one(&self.pool)
            .await;
            match inserted.map_err(StorageError::from) {
                Ok(row) => return version(&row),
                Err(StorageError::Conflict) => continue,
                Err(e) => return Err(e),
            }
        }
        Err(StorageError::Conflict)
    }

    /// A bot's versions, newest first.
    pub async fn versions_of(&self, bot_id: i64) -> Result<Vec<Version>> {
        let rows = sqlx::query(&format!(
            "SELECT {VERSION_COLUMNS} FROM bot_versions WHERE bot_id = $1 ORDER BY number DESC"
        ))
        .bind(bot_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(version).collect()
    }

    pub async fn version(&self, bot_id: i64, number: i64) -> Result<Option<Version>> {
        let row = sqlx::query(&format!(
            "SELECT {VERSION_COLUMNS} FROM bot_versions WHERE bot_id = $1 AND number = $2"
        ))
        .bind(bot_id)
        .bind(number)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(version).transpose()
    }

    pub async fn version_by_id(&self, id: i64) -> Result<Option<Version>> {
        let row = sqlx::query(&format!(
            "SELECT {VERSION_COLUMNS} FROM bot_versions WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(version).transpose()
    }

    /// Claims the oldest uploaded version for a build, with a lease of `lease_ms`; `None` if
    /// nothing waits. The claim commits at once: no row lock is held during the build.
    pub async fn claim_build(&self, lease_ms: i64) -> Result<Option<BuildClaim>> {
        let token = random_hex(16)?;
        let now = now_ms();
        // Oldest first; uploads in the same millisecond by bot and version number (ids are
        // random, so they cannot break the tie).
        // PostgreSQL: concurrent builders skip each other's locked row instead of queueing
        // behind it. SQLite has one writer at a time, so the plain subquery is already
        // exclusive. Both re-check the state in the outer WHERE.
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "UPDATE bot_versions SET state = 'building', build_lease_token = $1, \
             build_lease_expires_at = $2, build_attempt = build_attempt + 1, updated_at = $3 \
             WHERE state = 'uploaded' AND id = (SELECT id FROM bot_versions \
             WHERE state = 'uploaded' ORDER BY created_at, bot_id, number LIMIT 1{lock}) \
             RETURNING {VERSION_COLUMNS}"
        ))
        .bind(&token)
        .bind(now + lease_ms)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some(BuildClaim {
                version: version(&row)?,
                lease_token: token,
            })),
        }
    }

    /// Extends a build lease; false if the lease is no longer this builder's.
    pub async fn renew_build(
        &self,
        version_id: i64,
        lease_token: &str,
        lease_ms: i64,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE bot_versions SET build_lease_expires_at = $1 \
             WHERE id = $2 AND state = 'building' AND build_lease_token = $3",
        )
        .bind(now_ms() + lease_ms)
        .bind(version_id)
        .bind(lease_token)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a build's outcome if the lease is still this builder's (false otherwise: the
    /// lease expired and the version went back to the queue, so this late result is
    /// dropped). A passing version becomes ready and the bot's older ready version retires,
    /// in one transaction: a bot never has two ready versions.
    pub async fn finish_build(
        &self,
        version_id: i64,
        lease_token: &str,
        outcome: &BuildOutcome,
    ) -> Result<bool> {
        let next = if outcome.passed {
            VersionState::Ready
        } else {
            VersionState::Failed
        };
        debug_assert!(VersionState::Building.can_become(next));
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(
            "UPDATE bot_versions SET state = $1, build_log = $2, check_log = $3, \
             build_lease_token = NULL, build_lease_expires_at = NULL, updated_at = $4 \
             WHERE id = $5 AND state = 'building' AND build_lease_token = $6 RETURNING bot_id",
        )
        .bind(next.as_str())
        .bind(&outcome.build_log)
        .bind(&outcome.check_log)
        .bind(now_ms())
        .bind(version_id)
        .bind(lease_token)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            tx.rollback().await?;
            return Ok(false);
        };
        if let Some(artifact) = outcome.artifact.as_ref().filter(|_| outcome.passed) {
            let run_command = serde_json::to_string(&artifact.run_command)
                .map_err(|e| StorageError::Corrupt(e.to_string()))?;
            sqlx::query(
                "INSERT INTO build_artifacts (version_id, run_command, sha256, archive, \
                 created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(version_id)
            .bind(run_command)
            .bind(&artifact.sha256)
            .bind(&artifact.archive)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        if outcome.passed {
            let bot_id: i64 = row.try_get("bot_id")?;
            // Builds may finish out of order: only the newest ready version stays ready.
            sqlx::query(
                "UPDATE bot_versions SET state = 'retired', updated_at = $1 \
                 WHERE bot_id = $2 AND state = 'ready' AND number < \
                 (SELECT MAX(number) FROM bot_versions WHERE bot_id = $2 AND state = 'ready')",
            )
            .bind(now_ms())
            .bind(bot_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Puts builds whose lease expired (their builder died) back in the queue, or fails them
    /// after `max_attempts` claims. Returns how many were touched.
    pub async fn expire_builds(&self, now: i64, max_attempts: i64) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE bot_versions SET \
             state = CASE WHEN build_attempt >= $1 THEN 'failed' ELSE 'uploaded' END, \
             build_log = CASE WHEN build_attempt >= $1 \
               THEN 'the build was abandoned: its builder stopped answering on every attempt' \
               ELSE build_log END, \
             build_lease_token = NULL, build_lease_expires_at = NULL, updated_at = $2 \
             WHERE state = 'building' AND build_lease_expires_at <= $2",
        )
        .bind(max_attempts)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }
}
