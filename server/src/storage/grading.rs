//! The assignment's queries: the reference account and its bots, the uploads to grade, the
//! grading blocks and their results, grades, the copy check's moves.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Result, User, now_ms, random_hex};

/// An upload made before the assignment closed, as grading sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    pub version_id: i64,
    pub bot: String,
    pub number: i64,
    pub owner_id: i64,
    pub owner: String,
    pub owner_display: String,
    /// `uploaded`, `building`, `ready`, `failed` or `retired`.
    pub state: String,
    pub language: String,
    pub created_at: i64,
    pub build_log: String,
    pub check_log: String,
}

/// A version of a reference bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceVersion {
    pub name: String,
    pub version_id: i64,
    pub number: i64,
    pub state: String,
    pub source_sha256: String,
}

/// One match of a grading block, from the upload's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMatch {
    pub pair_id: i64,
    pub reference_version_id: i64,
    pub block: i64,
    pub match_id: i64,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    pub error: Option<String>,
    /// The upload's seat in this match.
    pub seat: i64,
    /// The upload's chips, once played.
    pub chips: Option<i64>,
    pub hands: i64,
    /// The deal seed (the u64's bits).
    pub seed: i64,
    /// The summary's faults (JSON), once played.
    pub faults: Option<String>,
}

/// A grade: an upload against one reference bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    pub version_id: i64,
    pub reference: String,
    /// `grading`, `pass`, `fail`, `not settled`, `paused` or `replaced`.
    pub state: String,
    pub blocks: i64,
    pub edge: Option<f64>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub mark: f64,
    pub why: String,
    /// The match a fault happened in.
    pub match_id: Option<i64>,
    pub updated_at: i64,
}

/// A played grading match's moves, for the copy check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradedMoves {
    pub version_id: i64,
    pub reference_version_id: i64,
    /// The block's number, or the probe's.
    pub block: i64,
    /// A copy probe's match (deals every upload meets), not a graded block's.
    pub probe: bool,
    /// The upload's seat.
    pub seat: i64,
    pub moves: String,
}

/// The login name of the account that owns the reference bots. Not a name anyone can sign
/// up with or log in as: the account has no password and no setup token.
pub const REFERENCE_ACCOUNT: &str = "references";

impl Db {
    /// The assignment's secret (made on first use): block seeds are drawn from it.
    pub async fn assignment_secret(&self) -> Result<String> {
        let secret = random_hex(32)?;
        sqlx::query(
            "INSERT INTO assignment (id, secret, created_at) VALUES (1, $1, $2) \
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(&secret)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT secret FROM assignment WHERE id = 1")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("secret")?)
    }

    /// The reference account, created if missing. `Err(Conflict)` if a participant already
    /// has its name.
    pub async fn reference_account(&self) -> Result<User> {
        if let Some(user) = self.user_by_name(REFERENCE_ACCOUNT).await? {
            let row = sqlx::query("SELECT is_reference FROM users WHERE id = $1")
                .bind(user.id)
                .fetch_one(&self.pool)
                .await?;
            let flagged: i64 = row.try_get("is_reference")?;
            return if flagged == 1 {
                Ok(user)
            } else {
                Err(super::StorageError::Conflict)
            };
        }
        let user = self
            .create_user(REFERENCE_ACCOUNT, "Reference bots", None, None, false)
            .await?;
        sqlx::query("UPDATE users SET is_reference = 1 WHERE id = $1")
            .bind(user.id)
            .execute(&self.pool)
            .await?;
        Ok(user)
    }

    /// Whether `user_id` is the reference account.
    pub async fn is_reference_account(&self, user_id: i64) -> Result<bool> {
        let row = sqlx::query("SELECT is_reference FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>("is_reference")? == 1,
            None => false,
        })
    }

    /// Every version of the reference bots, newest first per bot.
    pub async fn reference_versions(&self) -> Result<Vec<ReferenceVersion>> {
        let rows = sqlx::query(
            "SELECT b.name AS name, v.id AS id, v.number AS number, v.state AS state, \
             v.source_sha256 AS sha FROM bot_versions v JOIN bots b ON b.id = v.bot_id \
             JOIN users u ON u.id = b.owner_id WHERE u.is_reference = 1 \
             ORDER BY b.name, v.number DESC",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReferenceVersion {
                    name: r.try_get("name")?,
                    version_id: r.try_get("id")?,
                    number: r.try_get("number")?,
                    state: r.try_get("state")?,
                    source_sha256: r.try_get("sha")?,
                })
            })
            .collect()
    }

    /// The participants' uploads made up to `closes_at` (ms), oldest first.
    pub async fn submissions(&self, closes_at: i64) -> Result<Vec<Submission>> {
        let rows = sqlx::query(
            "SELECT v.id AS id, b.name AS bot, v.number AS number, b.owner_id AS owner_id, \
             u.name AS owner, u.display_name AS owner_display, v.state AS state, \
             v.language AS language, v.created_at AS created_at, v.build_log AS build_log, \
             v.check_log AS check_log \
             FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN users u ON u.id = b.owner_id \
             WHERE u.is_reference = 0 AND v.created_at <= $1 ORDER BY v.created_at, v.id",
        )
        .bind(closes_at)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(submission).collect()
    }

    /// The matches of an upload's grading blocks, by block, each block's two matches in the
    /// order they were scheduled.
    pub async fn block_matches(&self, version_id: i64) -> Result<Vec<BlockMatch>> {
        self.assignment_matches(version_id, "grading_blocks", "block")
            .await
    }

    /// The matches of an upload's copy probes (`block` holds the probe's number), as
    /// [`Db::block_matches`].
    pub async fn probe_matches(&self, version_id: i64) -> Result<Vec<BlockMatch>> {
        self.assignment_matches(version_id, "copy_probes", "probe")
            .await
    }

    async fn assignment_matches(
        &self,
        version_id: i64,
        table: &str,
        number: &str,
    ) -> Result<Vec<BlockMatch>> {
        let rows = sqlx::query(&format!(
            "SELECT g.pair_id AS pair_id, g.reference_version_id AS ref_id, g.{number} AS block, \
             m.id AS match_id, m.state AS state, m.error AS error, m.hands AS hands, \
             m.seed AS seed, s.seat AS seat, rs.chips AS chips, gs.faults AS faults \
             FROM {table} g JOIN matches m ON m.pair_id = g.pair_id \
             JOIN match_seats s ON s.match_id = m.id AND s.version_id = g.version_id \
             LEFT JOIN match_result_seats rs ON rs.match_id = m.id AND rs.seat = s.seat \
             LEFT JOIN grading_summaries gs ON gs.match_id = m.id \
             WHERE g.version_id = $1 ORDER BY g.reference_version_id, g.{number}, m.created_at, m.id"
        ))
        .bind(version_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(BlockMatch {
                    pair_id: r.try_get("pair_id")?,
                    reference_version_id: r.try_get("ref_id")?,
                    block: r.try_get("block")?,
                    match_id: r.try_get("match_id")?,
                    state: r.try_get("state")?,
                    error: r.try_get("error")?,
                    seat: r.try_get("seat")?,
                    chips: r.try_get("chips")?,
                    hands: r.try_get("hands")?,
                    seed: r.try_get("seed")?,
                    faults: r.try_get("faults")?,
                })
            })
            .collect()
    }

    /// Every copy probe scheduled: (upload, reference version, probe number).
    pub async fn copy_probes(&self) -> Result<Vec<(i64, i64, i64)>> {
        let rows = sqlx::query("SELECT version_id, reference_version_id, probe FROM copy_probes")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("version_id")?,
                    r.try_get("reference_version_id")?,
                    r.try_get("probe")?,
                ))
            })
            .collect()
    }

    /// Whether a match belongs to a copy probe (its deals are kept from the students).
    pub async fn is_copy_probe(&self, match_id: i64) -> Result<bool> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM copy_probes c JOIN matches m ON m.pair_id = c.pair_id \
             WHERE m.id = $1",
        )
        .bind(match_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// Every grade, or an upload's.
    pub async fn grades(&self, version_id: Option<i64>) -> Result<Vec<Grade>> {
        const COLUMNS: &str = "SELECT version_id, reference, state, blocks, edge, lower_bound, \
             upper_bound, mark, why, match_id, updated_at FROM grades";
        let rows = match version_id {
            Some(id) => {
                sqlx::query(&format!(
                    "{COLUMNS} WHERE version_id = $1 ORDER BY reference"
                ))
                .bind(id)
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(&format!("{COLUMNS} ORDER BY version_id, reference"))
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        rows.iter()
            .map(|r| {
                Ok(Grade {
                    version_id: r.try_get("version_id")?,
                    reference: r.try_get("reference")?,
                    state: r.try_get("state")?,
                    blocks: r.try_get("blocks")?,
                    edge: estimate(r, "edge")?,
                    lower: estimate(r, "lower_bound")?,
                    upper: estimate(r, "upper_bound")?,
                    mark: r.try_get("mark")?,
                    why: r.try_get("why")?,
                    match_id: r.try_get("match_id")?,
                    updated_at: r.try_get("updated_at")?,
                })
            })
            .collect()
    }

    /// Writes a grade (replacing the upload's grade against that reference).
    pub async fn put_grade(&self, g: &Grade) -> Result<()> {
        sqlx::query(
            "INSERT INTO grades (version_id, reference, state, blocks, edge, lower_bound, \
             upper_bound, mark, why, match_id, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (version_id, reference) DO UPDATE SET state = $3, blocks = $4, \
             edge = $5, lower_bound = $6, upper_bound = $7, mark = $8, why = $9, \
             match_id = $10, updated_at = $11",
        )
        .bind(g.version_id)
        .bind(&g.reference)
        .bind(&g.state)
        .bind(g.blocks)
        // NaN for "none": sqlx's Any driver sends a NULL float to PostgreSQL in a format it
        // refuses; SQLite stores a NaN as NULL, PostgreSQL keeps it, and both read back as
        // none (`estimate`).
        .bind(g.edge.unwrap_or(f64::NAN))
        .bind(g.lower.unwrap_or(f64::NAN))
        .bind(g.upper.unwrap_or(f64::NAN))
        .bind(g.mark)
        .bind(&g.why)
        .bind(g.match_id)
        .bind(g.updated_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every grade goes back to `grading`: the grader judges them again from their blocks
    /// (with the marks it has now), plays more where a verdict needs it, and resumes paused
    /// ones. Returns how many.
    pub async fn regrade_all(&self) -> Result<u64> {
        let done = sqlx::query("UPDATE grades SET state = 'grading', updated_at = $1")
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Drops a block from its grade (its matches stay, unreferenced): the block is played
    /// again.
    pub async fn discard_grading_block(&self, pair_id: i64) -> Result<()> {
        sqlx::query("DELETE FROM grading_blocks WHERE pair_id = $1")
            .bind(pair_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Cancels an upload's grading matches still waiting (a later upload replaced it and only
    /// the latest counts). Returns how many.
    pub async fn cancel_grading_of(&self, version_id: i64) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE matches SET state = 'cancelled', \
             error = 'a later upload replaced this one' WHERE state = 'queued' \
             AND (pair_id IN (SELECT pair_id FROM grading_blocks WHERE version_id = $1) \
             OR pair_id IN (SELECT pair_id FROM copy_probes WHERE version_id = $1))",
        )
        .bind(version_id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Cancels the copy-probe matches still waiting of these uploads (later uploads replaced
    /// them: only the counted upload is compared). Returns how many. One query, however many.
    pub async fn cancel_probes_of(&self, version_ids: &[i64]) -> Result<u64> {
        if version_ids.is_empty() {
            return Ok(0);
        }
        let list: Vec<String> = (1..=version_ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "UPDATE matches SET state = 'cancelled', \
             error = 'a later upload replaced this one' WHERE state = 'queued' \
             AND pair_id IN (SELECT pair_id FROM copy_probes WHERE version_id IN ({}))",
            list.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in version_ids {
            query = query.bind(*id);
        }
        Ok(query.execute(&self.pool).await?.rows_affected())
    }

    /// How many grading matches were played (the copy check's answer changes with it).
    pub async fn graded_matches(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM grading_summaries")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Grading matches waiting and being played.
    pub async fn grading_queue(&self) -> Result<(i64, i64)> {
        let row = sqlx::query(
            "SELECT \
             COALESCE(SUM(CASE WHEN m.state = 'queued' THEN 1 ELSE 0 END), 0) AS queued, \
             COALESCE(SUM(CASE WHEN m.state = 'running' THEN 1 ELSE 0 END), 0) AS running \
             FROM matches m JOIN match_pairs p ON p.id = m.pair_id WHERE p.grading = 1",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("queued")?, row.try_get("running")?))
    }

    /// The moves of every played grading match and copy probe of these uploads.
    pub async fn graded_moves(&self, version_ids: &[i64]) -> Result<Vec<GradedMoves>> {
        let mut out = Vec::new();
        for &id in version_ids {
            for (table, number, probe) in [
                ("grading_blocks", "block", false),
                ("copy_probes", "probe", true),
            ] {
                let rows = sqlx::query(&format!(
                    "SELECT g.reference_version_id AS ref_id, g.{number} AS block, \
                     s.seat AS seat, gs.moves AS moves FROM {table} g \
                     JOIN matches m ON m.pair_id = g.pair_id \
                     JOIN match_seats s ON s.match_id = m.id AND s.version_id = g.version_id \
                     JOIN grading_summaries gs ON gs.match_id = m.id \
                     WHERE g.version_id = $1 AND m.state = 'done'"
                ))
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
                for r in &rows {
                    out.push(GradedMoves {
                        version_id: id,
                        reference_version_id: r.try_get("ref_id")?,
                        block: r.try_get("block")?,
                        probe,
                        seat: r.try_get("seat")?,
                        moves: r.try_get("moves")?,
                    });
                }
            }
        }
        Ok(out)
    }
}

/// A float column that may hold none (NULL or NaN, see [`Db::put_grade`]).
fn estimate(r: &AnyRow, column: &str) -> Result<Option<f64>> {
    let value: Option<f64> = r.try_get(column)?;
    Ok(value.filter(|x| x.is_finite()))
}

fn submission(r: &AnyRow) -> Result<Submission> {
    Ok(Submission {
        version_id: r.try_get("id")?,
        bot: r.try_get("bot")?,
        number: r.try_get("number")?,
        owner_id: r.try_get("owner_id")?,
        owner: r.try_get("owner")?,
        owner_display: r.try_get("owner_display")?,
        state: r.try_get("state")?,
        language: r.try_get("language")?,
        created_at: r.try_get("created_at")?,
        build_log: r.try_get("build_log")?,
        check_log: r.try_get("check_log")?,
    })
}

/// A participant as the gradebook lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Participant {
    pub id: i64,
    pub name: String,
    pub display_name: String,
}

impl Db {
    /// Every account but the organizers and the reference account, by name: the class.
    pub async fn participants(&self) -> Result<Vec<Participant>> {
        let rows = sqlx::query(
            "SELECT id, name, display_name FROM users WHERE is_admin = 0 AND is_reference = 0 \
             ORDER BY name",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Participant {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    display_name: r.try_get("display_name")?,
                })
            })
            .collect()
    }
}
