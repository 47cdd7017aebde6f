//! Storage: every query the server makes, over one pool that is SQLite (a file, the default)
//! or PostgreSQL (a `postgres://` URL), with the same migrations for both.
//!
//! The queries are plain `sqlx::query` strings with `$1`-style parameters, which both SQLite
//! and PostgreSQL read, so nothing needs a database at build time. Where the two must differ
//! (a claim's row locks), the query is chosen by [`Backend`] inside this module and nowhere
//! else.

mod accounts;
mod artifacts;
mod bot_stats;
mod bots;
mod contest;
mod final_round;
mod grading;
mod matches;
mod migrations;
mod replays;

use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand_core::{OsRng, TryRngCore};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

pub use accounts::{ApiTokenInfo, SessionRecord, User};
pub use artifacts::ArtifactInfo;
pub use bot_stats::{BotRecord, CrossRecord, PairResults, VersionRecord};
pub use bots::{Bot, BuildClaim, NewVersion, SourceKind, Version};
pub use contest::ContestRecord;
pub use final_round::{Entrant, FinalState};
pub use grading::{
    BlockMatch, Grade, GradedMoves, Participant, REFERENCE_ACCOUNT, ReferenceVersion, Submission,
};
pub use matches::{Finish, MatchClaim, NewPair, PlayedMatch, SeatOutcome, Standing};

/// What went wrong in storage.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("{0}")]
    BadUrl(String),
    /// A unique key refused the row (a taken name, a second result for a match).
    #[error("already exists")]
    Conflict,
    #[error("database: {0}")]
    Sql(#[source] sqlx::Error),
    #[error("migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the database holds a value this server does not know: {0}")]
    Corrupt(String),
    #[error("cannot draw random bytes from the operating system: {0}")]
    Random(String),
    #[error("cannot create the database's directory {0}: {1}")]
    Dir(String, #[source] std::io::Error),
}

impl StorageError {
    /// The database could not be reached or is going away (refused connections, no pooled
    /// connection within the wait, a server shutting down or starting up, a connection cut
    /// mid-query): the same request may well succeed in a few seconds. The site answers these
    /// with 503 and `Retry-After` rather than 500, and workers retry what they were storing.
    pub fn is_unavailable(&self) -> bool {
        let StorageError::Sql(e) = self else {
            return false;
        };
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => true,
            // SQLSTATE class 08 is "connection exception"; 57P01-57P03 are an administrator's
            // or a crash's shutdown and "cannot connect now" (starting up); 53300 is "too many
            // connections". None of them is about the query.
            sqlx::Error::Database(db) => db.code().is_some_and(|code| {
                code.starts_with("08") || code.starts_with("57P0") || code == "53300"
            }),
            _ => false,
        }
    }
}

impl From<sqlx::Error> for StorageError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(db) if db.is_unique_violation() => StorageError::Conflict,
            _ => StorageError::Sql(e),
        }
    }
}

pub type Result<T, E = StorageError> = std::result::Result<T, E>;

/// How long a query waits for a connection of the pool by default (`[storage]
/// connection_wait_seconds`). sqlx's own default is 30 s, during which a page hangs while the
/// database is away; past this wait the query fails as unavailable and the site says so.
pub const DEFAULT_CONNECTION_WAIT: Duration = Duration::from_secs(2);

/// Which database is behind the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The contest's database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// What it was opened with: [`Db::reconnect`] opens another pool to it.
    url: std::sync::Arc<str>,
    /// How long a query waits for a connection (kept for [`Db::reconnect`]).
    wait: Duration,
}

/// The URL of a SQLite file, created if missing.
pub fn sqlite_url(path: &Path) -> String {
    format!("sqlite://{}?mode=rwc", path.display())
}

impl Db {
    /// Connects (creating a SQLite file and its directory if missing) and applies the
    /// migrations not yet applied.
    pub async fn open(url: &str) -> Result<Db> {
        Db::open_waiting(url, DEFAULT_CONNECTION_WAIT).await
    }

    /// As [`Db::open`], with queries waiting at most `wait` for a connection (and a
    /// connection attempt taking at most that long): past it they fail as unavailable.
    pub async fn open_waiting(url: &str, wait: Duration) -> Result<Db> {
        let db = Db::connect(url, None, wait).await?;
        if db.backend == Backend::Sqlite {
            // Kept in the file: readers do not block the writer, and a commit survives the
            // process being killed (WAL with synchronous = NORMAL loses at most the last
            // commits on a power cut, never the file's consistency).
            db.pool.execute("PRAGMA journal_mode = WAL").await?;
        }
        migrations::run(&db.pool).await?;
        Ok(db)
    }

    /// Another pool to the same database (already migrated), of at most `max_connections`,
    /// for a worker thread: connections belong to the runtime that opens them, so a thread
    /// with a runtime of its own opens its own rather than borrowing the server's.
    pub async fn reconnect(&self, max_connections: u32) -> Result<Db> {
        Db::connect(&self.url, Some(max_connections), self.wait).await
    }

    async fn connect(url: &str, max_connections: Option<u32>, wait: Duration) -> Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else if let Some(rest) = url.strip_prefix("sqlite:") {
            let path = rest.trim_start_matches("//");
            let path = path.split('?').next().unwrap_or("");
            if let Some(dir) = Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
            {
                std::fs::create_dir_all(dir)
                    .map_err(|e| StorageError::Dir(dir.display().to_string(), e))?;
            }
            Backend::Sqlite
        } else {
            return Err(StorageError::BadUrl(format!(
                "unknown database URL {url:?}: expected sqlite://FILE or postgres://..."
            )));
        };
        let original: std::sync::Arc<str> = url.into();
        let url = if backend == Backend::Sqlite && !url.contains("mode=") {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}mode=rwc")
        } else {
            url.to_string()
        };
        let options =
            AnyConnectOptions::from_str(&url).map_err(|e| StorageError::BadUrl(e.to_string()))?;
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time anyway; a few readers suffice.
            .max_connections(max_connections.unwrap_or(if backend == Backend::Sqlite {
                4
            } else {
                10
            }))
            // A pool reconnects by itself once the database is back (a dead connection fails
            // its test on the way out of the pool and a new one is opened); meanwhile every
            // query gives up after `wait` instead of queueing for sqlx's 30 s.
            .acquire_timeout(wait)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // Per connection: foreign keys are off by default in SQLite, and a
                        // writer waits for another instead of failing at once.
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        Ok(Db {
            pool,
            backend,
            url: original,
            wait,
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes the pool (tests; the server just exits).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Now, in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A fresh row id: a random positive 63-bit integer. Random rather than sequential so that
/// both databases take the same DDL (no AUTOINCREMENT/SERIAL), rows can be made on any
/// machine, and ids leak no counts; a collision (p ~ n²/2⁶⁴) fails the insert, it does not
/// overwrite.
pub fn new_id() -> Result<i64> {
    let n = OsRng
        .try_next_u64()
        .map_err(|e| StorageError::Random(e.to_string()))?;
    Ok(((n >> 1) as i64).max(1))
}

/// `n` random bytes as lowercase hex: tokens, session ids, leases.
pub fn random_hex(bytes: usize) -> Result<String> {
    let mut buf = vec![0u8; bytes];
    OsRng
        .try_fill_bytes(&mut buf)
        .map_err(|e| StorageError::Random(e.to_string()))?;
    Ok(hex(&buf))
}

pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The SHA-256 of a secret as hex: what the database keeps of tokens and session ids. A plain
/// hash suffices (no salt, no slow function) because these secrets are 256 random bits, not
/// passwords: a leaked table gives nothing to guess.
pub fn secret_digest(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    hex(&Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_away_is_told_from_a_failed_query() {
        let away = [
            sqlx::Error::PoolTimedOut,
            sqlx::Error::PoolClosed,
            sqlx::Error::Io(std::io::ErrorKind::ConnectionRefused.into()),
            sqlx::Error::Io(std::io::ErrorKind::UnexpectedEof.into()),
        ];
        for e in away {
            let s = StorageError::from(e);
            assert!(s.is_unavailable(), "{s}");
        }
        let not = [
            StorageError::from(sqlx::Error::RowNotFound),
            StorageError::from(sqlx::Error::Protocol("bad message".into())),
            StorageError::Corrupt("x".into()),
            StorageError::Conflict,
        ];
        for s in not {
            assert!(!s.is_unavailable(), "{s}");
        }
    }
}
