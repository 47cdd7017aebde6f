//! The leaderboard as every reader sees it, made at most once per [`MAX_AGE`]: the table of
//! the page and the JSON of `/api/leaderboard`, shared by every request meanwhile. With 1,000
//! bots the query and the rendering cost ~8 ms, so 200 readers each running them made the
//! page wait over a second at the 99th percentile (BENCHMARKS.md, section 10). A reader
//! sees ratings at most a second old. One request refreshes the board while the others wait
//! for that one.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use serde::Serialize;
use tokio::sync::Mutex;

use super::html::{self, esc};
use crate::storage::{Db, Standing, StorageError};

/// How old a board may be when served.
pub const MAX_AGE: Duration = Duration::from_secs(1);

#[derive(Serialize)]
struct Row {
    rank: usize,
    bot: String,
    owner: String,
    version: i64,
    rating: f64,
    deviation: f64,
    /// The interval shown on the page: rating ± 2 deviations.
    low: f64,
    high: f64,
    /// Rated duplicate pairs.
    games: i64,
    last_played_at_ms: Option<i64>,
}

fn rows(standings: &[Standing]) -> Vec<Row> {
    standings
        .iter()
        .enumerate()
        .map(|(i, s)| Row {
            rank: i + 1,
            bot: s.bot.clone(),
            owner: s.owner.clone(),
            version: s.version,
            rating: round1(s.rating),
            deviation: round1(s.deviation),
            low: round1(s.rating - 2.0 * s.deviation),
            high: round1(s.rating + 2.0 * s.deviation),
            games: s.games,
            last_played_at_ms: s.last_played_at,
        })
        .collect()
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One rendering of the standings.
#[derive(Debug)]
pub struct Board {
    /// The page's table (or its "no bot yet" line).
    pub table: String,
    /// The body of `/api/leaderboard`.
    pub json: Bytes,
}

impl Board {
    pub fn new(standings: &[Standing]) -> Board {
        let rows = rows(standings);
        let json = serde_json::to_vec(&serde_json::json!({ "leaderboard": rows }))
            .unwrap_or_else(|_| b"{\"leaderboard\":[]}".to_vec());
        Board {
            table: table(&rows),
            json: Bytes::from(json),
        }
    }
}

fn table(rows: &[Row]) -> String {
    if rows.is_empty() {
        return "<p>No bot is ready yet: the ladder starts once two participants have one.</p>"
            .to_string();
    }
    let mut t = String::from(
        "<table class=\"list\"><tr><th>#</th><th>Bot</th><th>Owner</th>\
         <th>Rating ± 2σ</th><th>Games</th><th>Last played</th></tr>",
    );
    for r in rows {
        t.push_str(&format!(
            "<tr><td>{}</td><td><a href=\"/leaderboard/{}\">{}</a> \
             <span class=\"muted\">v{}</span></td><td>{}</td>\
             <td>{:.0} ± {:.0}</td><td>{}</td><td>{}</td></tr>",
            r.rank,
            esc(&r.bot),
            esc(&r.bot),
            r.version,
            esc(&r.owner),
            r.rating,
            2.0 * r.deviation,
            r.games,
            r.last_played_at_ms
                .map(html::time)
                .unwrap_or_else(|| "never".to_string()),
        ));
    }
    t.push_str("</table>");
    t
}

/// The board last made and when.
#[derive(Debug)]
pub struct BoardCache {
    max_age: Duration,
    slot: Mutex<Option<(Instant, Arc<Board>)>>,
}

impl BoardCache {
    pub fn new(max_age: Duration) -> BoardCache {
        BoardCache {
            max_age,
            slot: Mutex::new(None),
        }
    }

    /// The board, made afresh from `db` if the last one is older than the maximum age.
    pub async fn get(&self, db: &Db) -> Result<Arc<Board>, StorageError> {
        // Held while refreshing: the readers who arrive meanwhile get the new board rather
        // than each running the query.
        let mut slot = self.slot.lock().await;
        if let Some((made, board)) = slot.as_ref()
            && made.elapsed() < self.max_age
        {
            return Ok(board.clone());
        }
        let board = Arc::new(Board::new(&db.leaderboard().await?));
        *slot = Some((Instant::now(), board.clone()));
        Ok(board)
    }
}
