//! The ladder's queries: scheduling duplicate pairs, workers' leased claims on matches,
//! results written once, ratings applied once per pair, and the leaderboard.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Backend, Db, Result, new_id, now_ms, random_hex};
use crate::ladder::rating::{Rating, rate_pair};
use crate::ladder::schedule::Candidate;

/// A worker's hold on a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchClaim {
    pub id: i64,
    pub pair_id: Option<i64>,
    /// The deal seed (stored as the bits of a u64).
    pub seed: u64,
    pub hands: u64,
    pub attempt: i64,
    /// Bot version ids by seat.
    pub seats: Vec<i64>,
    pub lease_token: String,
    /// A grading block's match (`crate::assignment`): its summary is stored with its result,
    /// and it is never rated.
    pub grading: bool,
}

/// One seat's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatOutcome {
    pub chips: i64,
    pub faults: i64,
}

/// What became of a finished match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Stored (and the pair rated if this was its second match).
    Recorded { pair_rated: bool },
    /// The lease was no longer this worker's (it expired; someone else plays the match, or
    /// has already recorded it): nothing was written.
    LeaseLost,
    /// A bot version of the match retired meanwhile: the match is cancelled, unrated.
    Cancelled,
}

/// A row of the leaderboard: a bot's ready version.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub bot: String,
    /// The owner's login name.
    pub owner: String,
    /// The name the owner chose to be shown by (their login name unless they gave one).
    pub owner_display: String,
    pub version: i64,
    pub rating: f64,
    pub deviation: f64,
    /// Rated pairs.
    pub games: i64,
    pub last_played_at: Option<i64>,
}

/// A played match as a bot's page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMatch {
    pub match_id: i64,
    pub finished_at: i64,
    pub version: i64,
    pub seat: i64,
    pub opponent: String,
    pub chips: i64,
    pub opponent_chips: i64,
    /// Whether its replay was stored (`Db::replay_gz`).
    pub has_replay: bool,
}

/// A pair to schedule.
#[derive(Clone, Copy, Debug)]
pub struct NewPair {
    pub version_a: i64,
    pub version_b: i64,
    /// One seed per match (the same twice for a duplicate pair).
    pub seeds: [u64; 2],
    pub hands: u64,
    pub max_attempts: i64,
}

fn rating_of(row: &AnyRow) -> Result<Rating> {
    Ok(Rating {
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
    })
}

impl Db {
    /// Matches waiting for a worker.
    pub async fn queued_matches(&self) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM matches WHERE state = 'queued'")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Every ready bot version, as the scheduler sees it.
    ///
    /// Its cost must not grow with the ladder's history (it runs for every pair scheduled):
    /// the last time a version was scheduled is two index lookups (one per side of its
    /// pairs), and pairs still to be played are counted from the few queued and running
    /// matches, not from every pair each version played.
    pub async fn ladder_candidates(&self) -> Result<Vec<Candidate>> {
        let pending: std::collections::HashMap<i64, i64> = sqlx::query(
            "SELECT s.version_id AS version_id, COUNT(DISTINCT m.pair_id) AS pending \
             FROM matches m JOIN match_seats s ON s.match_id = m.id \
             JOIN match_pairs p ON p.id = m.pair_id \
             WHERE m.state IN ('queued', 'running') AND p.rated_at IS NULL \
             GROUP BY s.version_id",
        )
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("version_id")?, row.try_get("pending")?)))
        .collect::<Result<_>>()?;
        let rows = sqlx::query(
            "SELECT v.id AS version_id, b.owner_id AS owner_id, \
             COALESCE(r.rating, $1) AS rating, COALESCE(r.games, 0) AS rated, \
             (SELECT MAX(p.created_at) FROM match_pairs p WHERE p.version_a = v.id) AS last_a, \
             (SELECT MAX(p.created_at) FROM match_pairs p WHERE p.version_b = v.id) AS last_b \
             FROM bot_versions v JOIN bots b ON b.id = v.bot_id \
             LEFT JOIN ratings r ON r.version_id = v.id WHERE v.state = 'ready' \
             AND NOT EXISTS (SELECT 1 FROM users ru WHERE ru.id = b.owner_id AND ru.is_reference = 1) \
             ORDER BY v.id",
        )
        .bind(Rating::NEW.rating)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let version_id: i64 = row.try_get("version_id")?;
                let rated: i64 = row.try_get("rated")?;
                let last_a: Option<i64> = row.try_get("last_a")?;
                let last_b: Option<i64> = row.try_get("last_b")?;
                Ok(Candidate {
                    version_id,
                    owner_id: row.try_get("owner_id")?,
                    rating: row.try_get("rating")?,
                    games: rated + pending.get(&version_id).copied().unwrap_or(0),
                    last_scheduled: last_a.max(last_b),
                })
            })
            .collect()
    }

    /// Records a pair and its two matches (seats swapped in the second), queued. Returns the
    /// pair's id.
    pub async fn schedule_pair(&self, pair: &NewPair) -> Result<i64> {
        self.insert_pair(pair, PairKind::Ladder).await
    }

    /// Records a grading block: a pair of the upload (`version_a`) and a reference bot
    /// (`version_b`), never rated, and its block number. [`super::StorageError::Conflict`] if
    /// another worker scheduled that block first.
    pub async fn schedule_grading_block(&self, pair: &NewPair, block: i64) -> Result<i64> {
        self.insert_pair(pair, PairKind::GradingBlock(block)).await
    }

    /// Records a copy probe: like a grading block, but on deals every upload meets, and
    /// neither graded nor shown to the student (see `assignment::copies`); its matches are
    /// claimed after every grading block's. [`super::StorageError::Conflict`] if another
    /// worker scheduled that probe first.
    pub async fn schedule_copy_probe(&self, pair: &NewPair, probe: i64) -> Result<i64> {
        self.insert_pair(pair, PairKind::CopyProbe(probe)).await
    }

    async fn insert_pair(&self, pair: &NewPair, kind: PairKind) -> Result<i64> {
        let grading = kind.assignment_row();
        let now = now_ms();
        let pair_id = new_id()?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO match_pairs (id, version_a, version_b, created_at, grading) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(pair_id)
        .bind(pair.version_a)
        .bind(pair.version_b)
        .bind(now)
        .bind(i64::from(grading.is_some()))
        .execute(&mut *tx)
        .await?;
        if let Some((table, column, number)) = grading {
            sqlx::query(&format!(
                "INSERT INTO {table} (pair_id, version_id, reference_version_id, {column}, \
                 created_at) VALUES ($1, $2, $3, $4, $5)"
            ))
            .bind(pair_id)
            .bind(pair.version_a)
            .bind(pair.version_b)
            .bind(number)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        // Grading pairs are not rated: no rating rows for them.
        let rated = if grading.is_some() {
            &[][..]
        } else {
            &[pair.version_a, pair.version_b][..]
        };
        for &v in rated {
            sqlx::query(
                "INSERT INTO ratings (version_id, rating, deviation, volatility, games) \
                 VALUES ($1, $2, $3, $4, 0) ON CONFLICT (version_id) DO NOTHING",
            )
            .bind(v)
            .bind(Rating::NEW.rating)
            .bind(Rating::NEW.deviation)
            .bind(Rating::NEW.volatility)
            .execute(&mut *tx)
            .await?;
        }
        let orders = [
            [pair.version_a, pair.version_b],
            [pair.version_b, pair.version_a],
        ];
        for (i, seats) in orders.iter().enumerate() {
            let id = new_id()?;
            sqlx::query(
                "INSERT INTO matches (id, state, seed, hands, duplicate, created_at, not_before, \
                 max_attempts, pair_id, priority) \
                 VALUES ($1, 'queued', $2, $3, $4, $5, $5, $6, $7, $8)",
            )
            .bind(id)
            .bind(pair.seeds[i] as i64)
            .bind(pair.hands as i64)
            .bind(i64::from(pair.seeds[0] == pair.seeds[1]))
            // The second match one millisecond later: claimed in order.
            .bind(now + i as i64)
            .bind(pair.max_attempts)
            .bind(pair_id)
            .bind(kind.priority())
            .execute(&mut *tx)
            .await?;
            for (seat, version) in seats.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO match_seats (match_id, seat, version_id) VALUES ($1, $2, $3)",
                )
                .bind(id)
                .bind(seat as i64)
                .bind(version)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(pair_id)
    }

    /// Claims the oldest queued match with a lease of `lease_ms`, for `worker`; `None` if
    /// nothing waits. Committed at once: no row lock is held while the match plays.
    ///
    /// Never a match whose pair's other match is running: the two halves of a duplicate
    /// pair deal the same cards in swapped seats, so the copies of a bot in them must not
    /// run at once, on one machine or two (ARCHITECTURE.md, "Collusion and covert
    /// channels"). The query skips such matches; two workers that still claim both halves at
    /// the same moment (PostgreSQL lets each skip the other's locked row) see each other once
    /// committed, and the later one (or both) gives its claim back.
    pub async fn claim_match(&self, worker: &str, lease_ms: i64) -> Result<Option<MatchClaim>> {
        let token = random_hex(16)?;
        let now = now_ms();
        // As `claim_build`: PostgreSQL workers skip each other's locked row; SQLite has one
        // writer at a time. Both re-check the state in the outer WHERE.
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "UPDATE matches SET state = 'running', lease_token = $1, lease_owner = $2, \
             lease_expires_at = $3, attempt = attempt + 1, started_at = $4, error = NULL \
             WHERE state = 'queued' AND id = (SELECT q.id FROM matches q \
             WHERE q.state = 'queued' AND q.not_before <= $4 AND NOT EXISTS \
             (SELECT 1 FROM matches s WHERE s.pair_id = q.pair_id AND s.id <> q.id \
             AND s.state = 'running') \
             ORDER BY q.priority DESC, q.created_at, q.id LIMIT 1{lock}) \
             RETURNING id, pair_id, seed, hands, attempt, \
             (SELECT p.grading FROM match_pairs p WHERE p.id = matches.pair_id) AS grading"
        ))
        .bind(&token)
        .bind(worker)
        .bind(now + lease_ms)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let id: i64 = row.try_get("id")?;
        if self.sibling_running(id).await? {
            self.give_back(id, &token).await?;
            return Ok(None);
        }
        let seed: i64 = row.try_get("seed")?;
        let hands: i64 = row.try_get("hands")?;
        let seats =
            sqlx::query("SELECT version_id FROM match_seats WHERE match_id = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| r.try_get("version_id"))
                .collect::<Result<Vec<i64>, _>>()?;
        Ok(Some(MatchClaim {
            id,
            pair_id: row.try_get("pair_id")?,
            seed: seed as u64,
            hands: hands.max(0) as u64,
            attempt: row.try_get("attempt")?,
            seats,
            lease_token: token,
            grading: row.try_get::<Option<i64>, _>("grading")?.unwrap_or(0) != 0,
        }))
    }

    /// Whether another match of `id`'s pair is running (claimed by another worker).
    async fn sibling_running(&self, id: i64) -> Result<bool> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM matches m JOIN matches s \
             ON s.pair_id = m.pair_id AND s.id <> m.id \
             WHERE m.id = $1 AND s.state = 'running'",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        let n: i64 = row.try_get("n")?;
        Ok(n > 0)
    }

    /// Puts a match just claimed back in the queue as if it had not been claimed.
    async fn give_back(&self, id: i64, lease_token: &str) -> Result<()> {
        sqlx::query(
            "UPDATE matches SET state = 'queued', lease_token = NULL, lease_owner = NULL, \
             lease_expires_at = NULL, started_at = NULL, attempt = attempt - 1 \
             WHERE id = $1 AND state = 'running' AND lease_token = $2",
        )
        .bind(id)
        .bind(lease_token)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Extends a match lease; false if it is no longer this worker's.
    pub async fn renew_match(&self, id: i64, lease_token: &str, lease_ms: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE matches SET lease_expires_at = $1 \
             WHERE id = $2 AND state = 'running' AND lease_token = $3",
        )
        .bind(now_ms() + lease_ms)
        .bind(id)
        .bind(lease_token)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Puts running matches whose lease expired at `now` back in the queue, or fails them
    /// once they used their `max_attempts`. Returns how many were touched.
    pub async fn expire_matches(&self, now: i64) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE matches SET \
             state = CASE WHEN attempt >= max_attempts THEN 'failed' ELSE 'queued' END, \
             error = CASE WHEN attempt >= max_attempts \
               THEN 'abandoned: its worker stopped answering on every attempt' ELSE error END, \
             lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL \
             WHERE state = 'running' AND lease_expires_at <= $1",
        )
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Cancels the queued matches of versions that are no longer ready (replaced by a newer
    /// version): nothing would rate them. Returns how many.
    pub async fn cancel_stale_matches(&self) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE matches SET state = 'cancelled', \
             error = 'a bot of the match was replaced by a newer version' \
             WHERE state = 'queued' AND EXISTS (SELECT 1 FROM match_seats s \
             JOIN bot_versions v ON v.id = s.version_id \
             WHERE s.match_id = matches.id AND v.state <> 'ready') \
             AND NOT EXISTS (SELECT 1 FROM match_pairs p \
             WHERE p.id = matches.pair_id AND p.grading = 1)",
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Gives a claimed match up for good (it cannot be played: a bot's files are gone),
    /// if the lease is still this worker's.
    pub async fn fail_match(&self, id: i64, lease_token: &str, error: &str) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE matches SET state = 'failed', error = $1, finished_at = $2, \
             lease_token = NULL, lease_expires_at = NULL \
             WHERE id = $3 AND state = 'running' AND lease_token = $4",
        )
        .bind(error)
        .bind(now_ms())
        .bind(id)
        .bind(lease_token)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores a played match's result if the lease is still this worker's, once (the
    /// result's primary key refuses a second); cancels it instead if one of its versions
    /// retired meanwhile. When this completes a pair, the pair is rated in the same
    /// transaction, exactly once.
    pub async fn finish_match(
        &self,
        claim: &MatchClaim,
        worker: &str,
        replay_gz: Option<&[u8]>,
        seats: &[SeatOutcome],
    ) -> Result<Finish> {
        self.finish_match_with(claim, worker, replay_gz, seats, None)
            .await
    }

    /// As [`Db::finish_match`], with a grading match's summary (its moves and faults, JSON)
    /// stored in the same transaction. A grading match is kept when its upload is replaced
    /// (an earlier upload's grade still counts under `counted = "best"`) and never rated.
    pub async fn finish_match_with(
        &self,
        claim: &MatchClaim,
        worker: &str,
        replay_gz: Option<&[u8]>,
        seats: &[SeatOutcome],
        summary: Option<(&str, &str)>,
    ) -> Result<Finish> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        // A write first: on SQLite the transaction takes the write lock here, on PostgreSQL
        // the match's row lock; both make the lease check and the result one step.
        let owned = sqlx::query(
            "UPDATE matches SET state = 'done', finished_at = $1, lease_token = NULL, \
             lease_expires_at = NULL WHERE id = $2 AND state = 'running' AND lease_token = $3",
        )
        .bind(now)
        .bind(claim.id)
        .bind(&claim.lease_token)
        .execute(&mut *tx)
        .await?;
        if owned.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(Finish::LeaseLost);
        }
        let retired: i64 = if claim.grading {
            0
        } else {
            sqlx::query(
            "SELECT COUNT(*) AS n FROM match_seats s JOIN bot_versions v ON v.id = s.version_id \
             WHERE s.match_id = $1 AND v.state <> 'ready'",
        )
        .bind(claim.id)
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?
        };
        if retired > 0 {
            sqlx::query(
                "UPDATE matches SET state = 'cancelled', \
                 error = 'a bot of the match was replaced by a newer version' WHERE id = $1",
            )
            .bind(claim.id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            return Ok(Finish::Cancelled);
        }
        sqlx::query(
            "INSERT INTO match_results (match_id, worker, replay_gz, recorded_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(claim.id)
        .bind(worker)
        .bind(replay_gz.map(<[u8]>::to_vec))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (seat, outcome) in seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO match_result_seats (match_id, seat, chips, faults) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(claim.id)
            .bind(seat as i64)
            .bind(outcome.chips)
            .bind(outcome.faults)
            .execute(&mut *tx)
            .await?;
        }
        if let Some((moves, faults)) = summary {
            sqlx::query(
                "INSERT INTO grading_summaries (match_id, moves, faults) VALUES ($1, $2, $3)",
            )
            .bind(claim.id)
            .bind(moves)
            .bind(faults)
            .execute(&mut *tx)
            .await?;
        }
        let pair_rated = match claim.pair_id {
            Some(pair) if !claim.grading => self.rate_pair_if_complete(&mut tx, pair, now).await?,
            _ => false,
        };
        tx.commit().await?;
        Ok(Finish::Recorded { pair_rated })
    }

    /// Rates `pair` if both its matches are stored and it is not rated yet.
    async fn rate_pair_if_complete(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        pair: i64,
        now: i64,
    ) -> Result<bool> {
        // PostgreSQL: the pair's row lock orders the two finishers of a pair, so the second
        // sees the first's committed result (SQLite: already serial).
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let row = sqlx::query(&format!(
            "SELECT version_a, version_b, rated_at FROM match_pairs WHERE id = $1{lock}"
        ))
        .bind(pair)
        .fetch_one(&mut **tx)
        .await?;
        let rated_at: Option<i64> = row.try_get("rated_at")?;
        if rated_at.is_some() {
            return Ok(false);
        }
        let (a, b): (i64, i64) = (row.try_get("version_a")?, row.try_get("version_b")?);
        // The first bot's chips in each stored match of the pair.
        let margins = sqlx::query(
            "SELECT rs.chips AS chips FROM matches m \
             JOIN match_seats s ON s.match_id = m.id AND s.version_id = $2 \
             JOIN match_result_seats rs ON rs.match_id = m.id AND rs.seat = s.seat \
             WHERE m.pair_id = $1 AND m.state = 'done'",
        )
        .bind(pair)
        .bind(a)
        .fetch_all(&mut **tx)
        .await?;
        if margins.len() < 2 {
            return Ok(false);
        }
        let mut margin = 0i64;
        for m in &margins {
            margin = margin.saturating_add(m.try_get::<i64, _>("chips")?);
        }
        // Lowest id first: two pairs rated at once on PostgreSQL lock in the same order.
        let (lo, hi) = (a.min(b), a.max(b));
        let rows = sqlx::query(&format!(
            "SELECT version_id, rating, deviation, volatility FROM ratings \
             WHERE version_id IN ($1, $2) ORDER BY version_id{lock}"
        ))
        .bind(lo)
        .bind(hi)
        .fetch_all(&mut **tx)
        .await?;
        let mut ra = Rating::NEW;
        let mut rb = Rating::NEW;
        for r in &rows {
            let id: i64 = r.try_get("version_id")?;
            if id == a {
                ra = rating_of(r)?;
            } else if id == b {
                rb = rating_of(r)?;
            }
        }
        let (na, nb) = rate_pair(ra, rb, margin);
        for (id, r) in [(a, na), (b, nb)] {
            sqlx::query(
                "INSERT INTO ratings (version_id, rating, deviation, volatility, games, \
                 last_played_at) VALUES ($1, $2, $3, $4, 1, $5) \
                 ON CONFLICT (version_id) DO UPDATE SET rating = $2, deviation = $3, \
                 volatility = $4, games = ratings.games + 1, last_played_at = $5",
            )
            .bind(id)
            .bind(r.rating)
            .bind(r.deviation)
            .bind(r.volatility)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        }
        sqlx::query("UPDATE match_pairs SET rated_at = $1 WHERE id = $2")
            .bind(now)
            .bind(pair)
            .execute(&mut **tx)
            .await?;
        Ok(true)
    }

    /// The ready versions by rating (best first), with their owners.
    pub async fn leaderboard(&self) -> Result<Vec<Standing>> {
        let rows = sqlx::query(
            "SELECT b.name AS bot, u.name AS owner, u.display_name AS owner_display, \
             v.number AS number, \
             COALESCE(r.rating, $1) AS rating, COALESCE(r.deviation, $2) AS deviation, \
             COALESCE(r.games, 0) AS games, r.last_played_at AS last_played_at \
             FROM bot_versions v JOIN bots b ON b.id = v.bot_id JOIN users u ON u.id = b.owner_id \
             LEFT JOIN ratings r ON r.version_id = v.id WHERE v.state = 'ready' \
             AND u.is_reference = 0 ORDER BY rating DESC, deviation, b.name",
        )
        .bind(Rating::NEW.rating)
        .bind(Rating::NEW.deviation)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(Standing {
                    bot: row.try_get("bot")?,
                    owner: row.try_get("owner")?,
                    owner_display: row.try_get("owner_display")?,
                    version: row.try_get("number")?,
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    games: row.try_get("games")?,
                    last_played_at: row.try_get("last_played_at")?,
                })
            })
            .collect()
    }

    /// A bot's most recent stored matches (all its versions), newest first. The bot's own
    /// matches are found first, from its versions to their seats (SQLite joins `CROSS JOIN`s
    /// in the order written; it used to walk every done match of the ladder for each page),
    /// then only those are joined to their results and opponents (fewer tables in one join:
    /// PostgreSQL spent ~40 ms planning the nine-table join).
    pub async fn recent_matches(&self, bot_id: i64, limit: i64) -> Result<Vec<PlayedMatch>> {
        let rows = sqlx::query(
            "SELECT mine.match_id AS match_id, mine.finished_at AS finished_at, \
             mine.number AS number, mine.seat AS seat, \
             (SELECT ob.name FROM bot_versions ov JOIN bots ob ON ob.id = ov.bot_id \
               WHERE ov.id = os.version_id) AS opponent, \
             rs.chips AS chips, ors.chips AS opponent_chips, CAST(CASE WHEN r.replay_gz IS NULL THEN 0 ELSE 1 END AS BIGINT) AS has_replay \
             FROM (SELECT m.id AS match_id, m.finished_at AS finished_at, v.number AS number, \
               s.seat AS seat FROM bot_versions v CROSS JOIN match_seats s CROSS JOIN matches m \
               WHERE v.bot_id = $1 AND s.version_id = v.id AND m.id = s.match_id \
               AND m.state = 'done' ORDER BY m.finished_at DESC, m.id LIMIT $2) mine \
             JOIN match_results r ON r.match_id = mine.match_id \
             JOIN match_seats os ON os.match_id = mine.match_id AND os.seat <> mine.seat \
             JOIN match_result_seats rs ON rs.match_id = mine.match_id AND rs.seat = mine.seat \
             JOIN match_result_seats ors ON ors.match_id = mine.match_id AND ors.seat = os.seat \
             ORDER BY mine.finished_at DESC, mine.match_id",
        )
        .bind(bot_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(PlayedMatch {
                    match_id: row.try_get("match_id")?,
                    finished_at: row.try_get("finished_at")?,
                    version: row.try_get("number")?,
                    seat: row.try_get("seat")?,
                    opponent: row.try_get("opponent")?,
                    chips: row.try_get("chips")?,
                    opponent_chips: row.try_get("opponent_chips")?,
                    has_replay: row.try_get::<i64, _>("has_replay")? != 0,
                })
            })
            .collect()
    }

    /// The replay of a stored match, gzip-compressed, if it has one.
    pub async fn replay_gz(&self, match_id: i64) -> Result<Option<Vec<u8>>> {
        let row = sqlx::query("SELECT replay_gz FROM match_results WHERE match_id = $1")
            .bind(match_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("replay_gz")).transpose()?.flatten())
    }

    /// How many results are stored for a match: 0 or 1 (tests).
    pub async fn results_count(&self, match_id: i64) -> Result<i64> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM match_results WHERE match_id = $1")
            .bind(match_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// A match's state (tests, pages).
    pub async fn match_state(&self, match_id: i64) -> Result<Option<(String, i64)>> {
        let row = sqlx::query("SELECT state, attempt FROM matches WHERE id = $1")
            .bind(match_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("state")?, r.try_get("attempt")?)))
            .transpose()
    }
}

/// What a scheduled pair is for.
#[derive(Clone, Copy, Debug)]
enum PairKind {
    /// A rated pair of the ladder.
    Ladder,
    /// Block `n` of an assignment's grading (never rated).
    GradingBlock(i64),
    /// Copy probe `n` of an assignment (never rated, never graded).
    CopyProbe(i64),
}

impl PairKind {
    /// The assignment's table and number column the pair is recorded in, and its number.
    fn assignment_row(self) -> Option<(&'static str, &'static str, i64)> {
        match self {
            PairKind::Ladder => None,
            PairKind::GradingBlock(n) => Some(("grading_blocks", "block", n)),
            PairKind::CopyProbe(n) => Some(("copy_probes", "probe", n)),
        }
    }

    /// The matches' claim priority: a copy probe waits for every grade still being played.
    fn priority(self) -> i64 {
        match self {
            PairKind::CopyProbe(_) => -1,
            _ => 0,
        }
    }
}
