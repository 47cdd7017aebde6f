//! The contest row: the contest file the server runs (what workers on other machines play
//! by) and the organizer's freeze and final round robin.

use sqlx::Row;

use super::{Db, Result, now_ms};

/// The contest as recorded by the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContestRecord {
    /// The contest file's text.
    pub toml: String,
    /// Its path on the server, for messages.
    pub file: String,
    pub updated_at: i64,
    /// When uploads were frozen; `None` while they are open.
    pub frozen_at: Option<i64>,
    /// `none`, `running`, `done` or `failed`.
    pub final_state: String,
    pub final_started_at: Option<i64>,
    pub final_finished_at: Option<i64>,
    pub final_error: Option<String>,
}

impl Db {
    /// Records the contest file the server started with (replacing the previous one: a
    /// restarted server may have a changed file; workers pick it up before their next match).
    pub async fn record_contest(&self, toml: &str, file: &str) -> Result<()> {
        sqlx::query(
            "INSERT INTO contest (id, contest_toml, contest_file, updated_at) \
             VALUES (1, $1, $2, $3) ON CONFLICT (id) DO UPDATE SET contest_toml = $1, \
             contest_file = $2, updated_at = $3",
        )
        .bind(toml)
        .bind(file)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The recorded contest; `None` before a server has started on this database.
    pub async fn contest_record(&self) -> Result<Option<ContestRecord>> {
        let row = sqlx::query(
            "SELECT contest_toml, contest_file, updated_at, frozen_at, final_state, \
             final_started_at, final_finished_at, final_error FROM contest WHERE id = 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(ContestRecord {
                toml: r.try_get("contest_toml")?,
                file: r.try_get("contest_file")?,
                updated_at: r.try_get("updated_at")?,
                frozen_at: r.try_get("frozen_at")?,
                final_state: r.try_get("final_state")?,
                final_started_at: r.try_get("final_started_at")?,
                final_finished_at: r.try_get("final_finished_at")?,
                final_error: r.try_get("final_error")?,
            })
        })
        .transpose()
    }

    /// When the recorded contest last changed (cheap: workers ask before every match).
    pub async fn contest_updated_at(&self) -> Result<Option<i64>> {
        let row = sqlx::query("SELECT updated_at FROM contest WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| r.try_get("updated_at").map_err(Into::into))
            .transpose()
    }
}
