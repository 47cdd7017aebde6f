//! The leaderboard as every reader sees it, made at most once per [`MAX_AGE`]: the table of
//! the page and the JSON of `/api/leaderboard`, shared by every request meanwhile. With 1,000
//! bots the query and the rendering cost ~8 ms, so 200 readers each running them made the
//! page wait over a second at the 99th percentile (BENCHMARKS.md, section 10). A reader
//! sees ratings at most about a second old while the database answers; one refresh at a time
//! and no lock across its query ([`super::cached`]). While the database is away the last
//! board is served with its age.

use std::time::Duration;

use askama::Template;
use axum::body::Bytes;
use serde::Serialize;

use super::cached::{self, Cached, RefreshError, Snapshot};
use super::html::{self, Fragment, Person};
use crate::ladder::provisional::ProvisionalRule;
use crate::storage::{Db, Standing};

/// How old a board may be when served.
pub const MAX_AGE: Duration = Duration::from_secs(1);

#[derive(Serialize)]
struct Row {
    /// From 1, settled ratings only; `None` for a provisional one (listed after them).
    rank: Option<usize>,
    bot: String,
    /// The owner's login name.
    owner: String,
    /// The name the owner chose to be shown by.
    owner_display_name: String,
    version: i64,
    rating: f64,
    deviation: f64,
    /// The interval shown on the page: rating ± 2 deviations.
    low: f64,
    high: f64,
    /// Rated duplicate pairs.
    games: i64,
    /// Too few games or too wide an interval to rank (the contest's rule).
    provisional: bool,
    last_played_at_ms: Option<i64>,
}

/// The rows in the board's order: settled ratings ranked first, best first (as stored),
/// then the provisional ones, unranked, in the same order among themselves.
fn rows(standings: &[Standing], rule: ProvisionalRule) -> Vec<Row> {
    let (settled, provisional): (Vec<&Standing>, Vec<&Standing>) = standings
        .iter()
        .partition(|s| !rule.is_provisional(s.games, s.deviation));
    let row = |s: &Standing, rank: Option<usize>| Row {
        rank,
        bot: s.bot.clone(),
        owner: s.owner.clone(),
        owner_display_name: s.owner_display.clone(),
        version: s.version,
        rating: round1(s.rating),
        deviation: round1(s.deviation),
        low: round1(s.rating - 2.0 * s.deviation),
        high: round1(s.rating + 2.0 * s.deviation),
        games: s.games,
        provisional: rank.is_none(),
        last_played_at_ms: s.last_played_at,
    };
    let ranked = settled
        .into_iter()
        .enumerate()
        .map(|(i, s)| row(s, Some(i + 1)));
    ranked
        .chain(provisional.into_iter().map(|s| row(s, None)))
        .collect()
}

impl Row {
    fn person(&self) -> Person<'_> {
        html::person(&self.owner, &self.owner_display_name)
    }

    /// "1880 ± 581": the rating and 2 deviations, whole.
    fn interval(&self) -> String {
        format!("{:.0} ± {:.0}", self.rating, 2.0 * self.deviation)
    }

    fn last_played(&self) -> String {
        self.last_played_at_ms
            .map(html::time)
            .unwrap_or_else(|| "never".to_string())
    }
}

/// The page's table (or its "no bot yet" line).
#[derive(Template)]
#[template(path = "partials/board_table.html")]
struct BoardTable<'a> {
    rows: &'a [Row],
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One rendering of the standings.
#[derive(Debug)]
pub struct Board {
    /// The page's table (or its "no bot yet" line), rendered once for every reader.
    pub table: Fragment,
    /// The body of `/api/leaderboard`.
    pub json: Bytes,
}

impl Board {
    pub fn new(standings: &[Standing], rule: ProvisionalRule) -> Board {
        let rows = rows(standings, rule);
        let json = serde_json::to_vec(&serde_json::json!({
            "leaderboard": rows,
            "provisional_rule": {
                "min_games": rule.min_games,
                "max_interval": rule.max_interval,
            },
        }))
        .unwrap_or_else(|_| b"{\"leaderboard\":[]}".to_vec());
        let table = Fragment::render(&BoardTable { rows: &rows }).unwrap_or_else(|e| {
            tracing::error!("internal error: the leaderboard's table: {e}");
            Fragment::default()
        });
        Board {
            table,
            json: Bytes::from(json),
        }
    }
}

/// The board last made, for every reader.
#[derive(Debug)]
pub struct BoardCache {
    rule: ProvisionalRule,
    cached: Cached<Board>,
}

impl BoardCache {
    /// Boards of the contest's `rule` for provisional ratings, each kept for `max_age`.
    pub fn new(max_age: Duration, rule: ProvisionalRule) -> BoardCache {
        BoardCache {
            rule,
            cached: Cached::new(max_age, cached::WAIT),
        }
    }

    /// The board, made afresh from `db` if the last one is older than the maximum age (by
    /// one reader, outside any lock; the others get the last one meanwhile).
    pub async fn get(&self, db: &Db) -> Result<Snapshot<Board>, RefreshError> {
        let (db, rule) = (db.clone(), self.rule);
        self.cached
            .get(move || async move { Ok(Board::new(&db.leaderboard().await?, rule)) })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(bot: &str, rating: f64, deviation: f64, games: i64) -> Standing {
        Standing {
            bot: bot.into(),
            owner: format!("{bot}-owner"),
            owner_display: format!("{bot}'s <owner>"),
            version: 1,
            rating,
            deviation,
            games,
            last_played_at: Some(0),
        }
    }

    #[test]
    fn provisional_ratings_are_listed_after_the_ranked_ones_without_a_rank() {
        // As the database orders them: best rating first.
        let standings = [
            standing("lucky", 1880.0, 290.5, 1),
            standing("steady", 1700.0, 120.0, 30),
            standing("fresh", 1500.0, 350.0, 0),
            standing("solid", 1450.0, 100.0, 40),
        ];
        let board = Board::new(&standings, ProvisionalRule::DEFAULT);
        let json: serde_json::Value = serde_json::from_slice(&board.json).unwrap();
        let rows = json["leaderboard"].as_array().unwrap();
        let summary: Vec<(String, serde_json::Value, bool)> = rows
            .iter()
            .map(|r| {
                (
                    r["bot"].as_str().unwrap().to_string(),
                    r["rank"].clone(),
                    r["provisional"].as_bool().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("steady".to_string(), serde_json::json!(1), false),
                ("solid".to_string(), serde_json::json!(2), false),
                ("lucky".to_string(), serde_json::Value::Null, true),
                ("fresh".to_string(), serde_json::Value::Null, true),
            ]
        );
        assert_eq!(
            json["provisional_rule"],
            serde_json::json!({"min_games": 10, "max_interval": 300})
        );
        // The page: ranks for the settled, a dash and a tag for the provisional, same order.
        let t = &board.table;
        let order: Vec<usize> = ["steady", "solid", "lucky", "fresh"]
            .iter()
            .map(|b| t.find(&format!(">{b}</a>")).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{t}");
        assert!(
            t.contains("<tr><td>1</td><td><a href=\"/leaderboard/steady\">"),
            "{t}"
        );
        assert!(
            t.contains("<tr class=\"provisional\"><td>–</td><td><a href=\"/leaderboard/lucky\">"),
            "{t}"
        );
        assert!(
            t.contains("1880 ± 581 <span class=\"tag-provisional\">provisional</span>"),
            "{t}"
        );
        assert_eq!(t.matches(">provisional</span>").count(), 2, "{t}");
        // Owners by their display names, escaped, their login names beside them.
        assert!(
            t.contains(
                "<td>steady&#39;s &lt;owner&gt; <span class=\"muted login\">(steady-owner)</span></td>"
            ),
            "{t}"
        );
        assert_eq!(rows[0]["owner_display_name"], "steady's <owner>");
    }

    #[test]
    fn the_json_says_how_old_the_board_is() {
        let board = Board::new(
            &[standing("solid", 1450.0, 100.0, 40)],
            ProvisionalRule::DEFAULT,
        );
        let fresh = Snapshot {
            value: std::sync::Arc::new(board),
            age: Duration::from_millis(340),
            stale: None,
        };
        let json: serde_json::Value =
            serde_json::from_slice(&fresh.json_with_age(&fresh.value.json)).unwrap();
        assert_eq!(json["age_seconds"], 0.3);
        assert_eq!(json["stale"], false);
        assert_eq!(json["stale_reason"], serde_json::Value::Null);
        assert_eq!(json["leaderboard"][0]["bot"], "solid");
        let old = Snapshot {
            value: fresh.value.clone(),
            age: Duration::from_secs(40),
            stale: Some("the database is unreachable"),
        };
        let json: serde_json::Value =
            serde_json::from_slice(&old.json_with_age(&old.value.json)).unwrap();
        assert_eq!(json["age_seconds"], 40.0);
        assert_eq!(json["stale"], true);
        assert_eq!(json["stale_reason"], "the database is unreachable");
        assert_eq!(json["leaderboard"][0]["bot"], "solid");
    }

    #[test]
    fn a_looser_rule_ranks_more() {
        let standings = [standing("lucky", 1880.0, 290.5, 1)];
        let rule = ProvisionalRule {
            min_games: 1,
            max_interval: 700,
        };
        let json: serde_json::Value =
            serde_json::from_slice(&Board::new(&standings, rule).json).unwrap();
        assert_eq!(json["leaderboard"][0]["rank"], 1);
        assert_eq!(json["leaderboard"][0]["provisional"], false);
    }
}
