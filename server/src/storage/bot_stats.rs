//! A bot's public record for its page: its versions (with their ratings) and its results
//! per opponent, both from rated duplicate pairs only.
//!
//! A pair counts once it is rated (`match_pairs.rated_at`), i.e. both its matches are stored;
//! it is won, drawn or lost by the sign of the bot's chips over both matches, exactly as
//! `rate_pair_if_complete` scores it for the rating.

use std::collections::HashMap;

use sqlx::Row;

use super::{Db, Result};

/// One version of a bot, as its public history lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct VersionRecord {
    pub id: i64,
    pub number: i64,
    pub uploaded_at: i64,
    /// `uploaded`, `building`, `ready`, `failed` or `retired`.
    pub state: String,
    /// Rating, deviation and rated pairs; `None` before its first rated pair.
    pub rating: Option<(f64, f64, i64)>,
    pub results: PairResults,
}

/// Rated duplicate pairs, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairResults {
    pub pairs: i64,
    pub won: i64,
    pub drawn: i64,
    pub lost: i64,
    /// The bot's net chips over the pairs' matches (its margin: the two seats' chips sum to
    /// zero in a heads-up match).
    pub chips: i64,
    /// Hands played in those matches.
    pub hands: i64,
}

impl PairResults {
    fn add(&mut self, other: &PairResults) {
        self.pairs += other.pairs;
        self.won += other.won;
        self.drawn += other.drawn;
        self.lost += other.lost;
        self.chips = self.chips.saturating_add(other.chips);
        self.hands += other.hands;
    }

    /// Chips per hand; `None` before any hand.
    pub fn per_hand(&self) -> Option<f64> {
        (self.hands > 0).then(|| self.chips as f64 / self.hands as f64)
    }
}

/// The bot against one opponent bot, every version of each pooled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossRecord {
    pub opponent: String,
    pub results: PairResults,
}

/// A bot's public record.
#[derive(Clone, Debug, PartialEq)]
pub struct BotRecord {
    /// Newest version first.
    pub versions: Vec<VersionRecord>,
    /// Most pairs first, then by name.
    pub crosstable: Vec<CrossRecord>,
}

impl Db {
    /// The record of bot `bot_id`: two queries whatever its number of opponents (indexed
    /// joins: `bot_versions (bot_id, number)`, `match_seats_by_version`, primary keys).
    pub async fn bot_record(&self, bot_id: i64) -> Result<BotRecord> {
        let rows = sqlx::query(
            "SELECT v.id AS id, v.number AS number, v.created_at AS created_at, \
             v.state AS state, r.rating AS rating, r.deviation AS deviation, \
             COALESCE(r.games, 0) AS games \
             FROM bot_versions v LEFT JOIN ratings r ON r.version_id = v.id \
             WHERE v.bot_id = $1 ORDER BY v.number DESC",
        )
        .bind(bot_id)
        .fetch_all(&self.pool)
        .await?;
        let mut versions = Vec::with_capacity(rows.len());
        for row in &rows {
            let games: i64 = row.try_get("games")?;
            let rating: Option<f64> = row.try_get("rating")?;
            let deviation: Option<f64> = row.try_get("deviation")?;
            // A version gets its ratings row (1500 ± 350, no games) when its first pair is
            // scheduled: until a pair of it is rated, it is "not rated yet".
            let rating = match (rating, deviation) {
                (Some(r), Some(d)) if games > 0 => Some((r, d, games)),
                _ => None,
            };
            versions.push(VersionRecord {
                id: row.try_get("id")?,
                number: row.try_get("number")?,
                uploaded_at: row.try_get("created_at")?,
                state: row.try_get("state")?,
                rating,
                results: PairResults::default(),
            });
        }

        // Inner: one row per rated pair and version of this bot (its chips and hands over the
        // pair's two matches); outer: summed per version and opponent bot. CROSS JOIN keeps
        // SQLite's join order as written, from this bot's versions outwards: left to choose,
        // it started from every done match through the `matches (state, ...)` index, 183 ms
        // a page at 1,000 bots (BENCHMARKS.md section 10); PostgreSQL plans it the same
        // either way. PostgreSQL's SUM
        // of BIGINT is NUMERIC, which the Any driver cannot read: cast back.
        let rows = sqlx::query(
            "SELECT x.version_id AS version_id, ob.name AS opponent, COUNT(*) AS pairs, \
             CAST(SUM(CASE WHEN x.chips > 0 THEN 1 ELSE 0 END) AS BIGINT) AS won, \
             CAST(SUM(CASE WHEN x.chips = 0 THEN 1 ELSE 0 END) AS BIGINT) AS drawn, \
             CAST(SUM(CASE WHEN x.chips < 0 THEN 1 ELSE 0 END) AS BIGINT) AS lost, \
             CAST(SUM(x.chips) AS BIGINT) AS chips, CAST(SUM(x.hands) AS BIGINT) AS hands \
             FROM (SELECT s.version_id AS version_id, os.version_id AS opponent_version, \
               CAST(SUM(rs.chips) AS BIGINT) AS chips, CAST(SUM(m.hands) AS BIGINT) AS hands \
               FROM bot_versions v CROSS JOIN match_seats s CROSS JOIN matches m \
               CROSS JOIN match_pairs p CROSS JOIN match_result_seats rs \
               CROSS JOIN match_seats os \
               WHERE v.bot_id = $1 AND s.version_id = v.id \
               AND m.id = s.match_id AND m.state = 'done' \
               AND p.id = m.pair_id AND p.rated_at IS NOT NULL \
               AND rs.match_id = m.id AND rs.seat = s.seat \
               AND os.match_id = m.id AND os.seat <> s.seat \
               GROUP BY p.id, s.version_id, os.version_id) x \
             JOIN bot_versions ov ON ov.id = x.opponent_version \
             JOIN bots ob ON ob.id = ov.bot_id \
             WHERE ob.id <> $1 \
             GROUP BY x.version_id, ob.name",
        )
        .bind(bot_id)
        .fetch_all(&self.pool)
        .await?;
        let index: HashMap<i64, usize> = versions
            .iter()
            .enumerate()
            .map(|(i, v)| (v.id, i))
            .collect();
        let mut by_opponent: HashMap<String, PairResults> = HashMap::new();
        for row in &rows {
            let version_id: i64 = row.try_get("version_id")?;
            let results = PairResults {
                pairs: row.try_get("pairs")?,
                won: row.try_get("won")?,
                drawn: row.try_get("drawn")?,
                lost: row.try_get("lost")?,
                chips: row.try_get("chips")?,
                hands: row.try_get("hands")?,
            };
            if let Some(&i) = index.get(&version_id) {
                versions[i].results.add(&results);
            }
            by_opponent
                .entry(row.try_get("opponent")?)
                .or_default()
                .add(&results);
        }
        let mut crosstable: Vec<CrossRecord> = by_opponent
            .into_iter()
            .map(|(opponent, results)| CrossRecord { opponent, results })
            .collect();
        crosstable.sort_by(|a, b| {
            b.results
                .pairs
                .cmp(&a.results.pairs)
                .then_with(|| a.opponent.cmp(&b.opponent))
        });
        Ok(BotRecord {
            versions,
            crosstable,
        })
    }
}
