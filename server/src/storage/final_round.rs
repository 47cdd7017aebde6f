//! The organizer's freeze and final round robin, on the contest row (migration 0003):
//! `frozen_at` (uploads refused while set) and the final's state machine
//! `none|failed -> running -> done|failed`. Every move is one `UPDATE ... WHERE` on the
//! expected state, so two admins clicking at once start one final.

use sqlx::Row;

use super::{Db, Result};

/// A bot of the final: its owner's current ready version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub bot: String,
    pub owner: String,
    pub version_id: i64,
    pub version: i64,
}

/// Where the final stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalState {
    None,
    Running,
    Done,
    Failed,
}

impl FinalState {
    pub fn as_str(self) -> &'static str {
        match self {
            FinalState::None => "none",
            FinalState::Running => "running",
            FinalState::Done => "done",
            FinalState::Failed => "failed",
        }
    }

    pub fn parse(text: &str) -> Option<FinalState> {
        [
            FinalState::None,
            FinalState::Running,
            FinalState::Done,
            FinalState::Failed,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}

impl Db {
    /// Freezes uploads (from `now` on); `false` if they were frozen already (the first
    /// freeze's time stays).
    pub async fn freeze_uploads(&self, now: i64) -> Result<bool> {
        let done =
            sqlx::query("UPDATE contest SET frozen_at = $1 WHERE id = 1 AND frozen_at IS NULL")
                .bind(now)
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Opens uploads again; `false` if they were open, or while the final runs (its bots are
    /// fixed when it starts, but a contest reopened mid-final would say two things at once).
    pub async fn unfreeze_uploads(&self) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE contest SET frozen_at = NULL WHERE id = 1 AND frozen_at IS NOT NULL \
             AND final_state <> 'running'",
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// When uploads were frozen; `None` while they are open (or before a server recorded the
    /// contest).
    pub async fn frozen_at(&self) -> Result<Option<i64>> {
        let row = sqlx::query("SELECT frozen_at FROM contest WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("frozen_at")?,
            None => None,
        })
    }

    /// Claims the final: `none` or `failed` -> `running`, only while uploads are frozen.
    /// `true` for the one caller that moved it.
    pub async fn claim_final(&self, now: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE contest SET final_state = 'running', final_started_at = $1, \
             final_finished_at = NULL, final_error = NULL \
             WHERE id = 1 AND final_state IN ('none', 'failed') AND frozen_at IS NOT NULL",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends a running final: `done` (`error` = `None`) or `failed` with the reason. `false`
    /// if it was not running.
    pub async fn finish_final(&self, now: i64, error: Option<&str>) -> Result<bool> {
        let state = if error.is_some() { "failed" } else { "done" };
        let done = sqlx::query(
            "UPDATE contest SET final_state = $1, final_finished_at = $2, final_error = $3 \
             WHERE id = 1 AND final_state = 'running'",
        )
        .bind(state)
        .bind(now)
        .bind(error)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The final's state (`None` before a server recorded the contest).
    pub async fn final_state(&self) -> Result<FinalState> {
        let row = sqlx::query("SELECT final_state FROM contest WHERE id = 1")
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(FinalState::None);
        };
        let text: String = row.try_get("final_state")?;
        FinalState::parse(&text)
            .ok_or_else(|| super::StorageError::Corrupt(format!("final state {text:?}")))
    }

    /// Every bot's ready version (one per bot: a newer ready version retires the older), by
    /// bot name.
    pub async fn final_entrants(&self) -> Result<Vec<Entrant>> {
        let rows = sqlx::query(
            "SELECT b.name AS bot, u.name AS owner, v.id AS version_id, v.number AS number \
             FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN users u ON u.id = b.owner_id \
             WHERE v.state = 'ready' AND u.is_reference = 0 ORDER BY b.name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Entrant {
                    bot: r.try_get("bot")?,
                    owner: r.try_get("owner")?,
                    version_id: r.try_get("version_id")?,
                    version: r.try_get("number")?,
                })
            })
            .collect()
    }

    /// Versions still waiting for or in a build: uploaded before the freeze, they may yet
    /// become some bot's ready version.
    pub async fn pending_builds(&self) -> Result<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM bot_versions WHERE state IN ('uploaded', 'building')",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }
}
