//! Who may see what in a stored replay: the owners of its seats.

use sqlx::Row;

use super::{Db, Result};

impl Db {
    /// The owner (user id) of each seat's bot in a match, by seat.
    pub async fn match_seat_owners(&self, match_id: i64) -> Result<Vec<(usize, i64)>> {
        let rows = sqlx::query(
            "SELECT s.seat AS seat, b.owner_id AS owner FROM match_seats s \
             JOIN bot_versions v ON v.id = s.version_id JOIN bots b ON b.id = v.bot_id \
             WHERE s.match_id = $1 ORDER BY s.seat",
        )
        .bind(match_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>("seat")? as usize, r.try_get("owner")?)))
            .collect()
    }
}
