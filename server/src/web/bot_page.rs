//! A bot's public page, `/leaderboard/BOT`, and the same record as JSON,
//! `/api/leaderboard/BOT`: its versions (state, rating, results), its results against each
//! opponent (rated duplicate pairs, every version of both bots pooled), and its recent
//! matches with links to their replays. No login needed, and nothing private: no build
//! logs, no sources, no unplayed match.
//!
//! Both are made from five queries, at most once per [`MAX_AGE`] per bot for all its readers
//! ([`super::cached_map`]): under 200 readers the uncached page was the site's slowest, its
//! queries waiting for pool connections behind everyone else's. While the database is away a
//! page made before is served with its age, as the leaderboard is.

use std::time::Duration;

use askama::Template;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::cached::{self, Snapshot};
use super::cached_map::CachedMap;
use super::html::{self, Fragment, Layout, Person};
use super::{Shared, WebError, auth};
use crate::ladder::provisional::ProvisionalRule;
use crate::ladder::submissions::valid_bot_name;
use crate::storage::{BotRecord, Db, PairResults, PlayedMatch, StorageError};

/// How many matches a bot's page lists.
const RECENT: i64 = 50;

/// How old a bot's page may be when served: a few seconds cost nobody anything (its matches
/// take longer than that to play), and make every reader of a popular bot share one.
pub const MAX_AGE: Duration = Duration::from_secs(2);

/// Bots whose pages are kept: a contest's every bot, a few kilobytes each.
pub const CAPACITY: usize = 1024;

/// A bot's page and JSON as made from the database: `None` for a name no bot has.
pub type Pages = CachedMap<Option<BotView>>;

/// The cache of bots' pages of a server.
pub fn pages() -> Pages {
    CachedMap::new(MAX_AGE, cached::WAIT, CAPACITY)
}

/// One bot's page and JSON, made once per refresh.
#[derive(Debug)]
pub struct BotView {
    name: String,
    /// The JSON object of `/api/leaderboard/BOT` (its age is added per request).
    json: Bytes,
    /// The page's panel after its heading (the stale note goes between).
    body: Fragment,
}

/// What the page says the crosstable pools, in one sentence (also in the JSON).
const CROSSTABLE_SCOPE: &str = "Every version of this bot against every version of each \
     opponent, pooled: a bot's record survives its new uploads (the versions table splits it \
     by version).";

#[derive(Serialize)]
struct VersionJson {
    version: i64,
    uploaded_at_ms: i64,
    state: String,
    /// `None` until the version's first rated pair.
    rating: Option<f64>,
    deviation: Option<f64>,
    low: Option<f64>,
    high: Option<f64>,
    games: i64,
    /// Too few games or too wide an interval to rank (the contest's rule); true until the
    /// first rated pair.
    provisional: bool,
    pairs_won: i64,
    pairs_drawn: i64,
    pairs_lost: i64,
    chips: i64,
    hands: i64,
    chips_per_hand: Option<f64>,
}

#[derive(Serialize)]
struct CrossJson {
    opponent: String,
    pairs: i64,
    won: i64,
    drawn: i64,
    lost: i64,
    margin: i64,
    hands: i64,
    margin_per_hand: Option<f64>,
}

#[derive(Serialize)]
struct MatchJson {
    /// A string: match ids are 63-bit, beyond what a JavaScript number holds exactly.
    match_id: String,
    finished_at_ms: i64,
    version: i64,
    /// From 0, as in the replay's JSON and the protocol (the page shows it from 1).
    seat: i64,
    opponent: String,
    chips: i64,
    opponent_chips: i64,
    replay: Option<String>,
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn versions_json(record: &BotRecord, rule: ProvisionalRule) -> Vec<VersionJson> {
    record
        .versions
        .iter()
        .map(|v| {
            let r = v.rating;
            VersionJson {
                version: v.number,
                uploaded_at_ms: v.uploaded_at,
                state: v.state.clone(),
                rating: r.map(|(r, _, _)| round1(r)),
                deviation: r.map(|(_, d, _)| round1(d)),
                low: r.map(|(r, d, _)| round1(r - 2.0 * d)),
                high: r.map(|(r, d, _)| round1(r + 2.0 * d)),
                games: r.map_or(0, |(_, _, g)| g),
                provisional: r.is_none_or(|(_, d, g)| rule.is_provisional(g, d)),
                pairs_won: v.results.won,
                pairs_drawn: v.results.drawn,
                pairs_lost: v.results.lost,
                chips: v.results.chips,
                hands: v.results.hands,
                chips_per_hand: v.results.per_hand().map(round2),
            }
        })
        .collect()
}

fn crosstable_json(record: &BotRecord) -> Vec<CrossJson> {
    record
        .crosstable
        .iter()
        .map(|c| CrossJson {
            opponent: c.opponent.clone(),
            pairs: c.results.pairs,
            won: c.results.won,
            drawn: c.results.drawn,
            lost: c.results.lost,
            margin: c.results.chips,
            hands: c.results.hands,
            margin_per_hand: c.results.per_hand().map(round2),
        })
        .collect()
}

fn replay_url(m: &PlayedMatch) -> Option<String> {
    m.has_replay
        .then(|| format!("/matches/{}/replay", m.match_id))
}

/// Makes the bot's page and JSON from the database (five queries).
async fn make(
    db: Db,
    name: String,
    rule: ProvisionalRule,
) -> Result<Option<BotView>, StorageError> {
    let Some(bot) = db.bot_by_name(&name).await? else {
        return Ok(None);
    };
    let (owner, owner_display_name) = db
        .user_by_id(bot.owner_id)
        .await?
        .map(|u| (u.name, u.display_name))
        .unwrap_or_default();
    let record = db.bot_record(bot.id).await?;
    let played = db.recent_matches(bot.id, RECENT).await?;
    let recent: Vec<MatchJson> = played
        .iter()
        .map(|m| MatchJson {
            match_id: m.match_id.to_string(),
            finished_at_ms: m.finished_at,
            version: m.version,
            seat: m.seat,
            opponent: m.opponent.clone(),
            chips: m.chips,
            opponent_chips: m.opponent_chips,
            replay: replay_url(m),
        })
        .collect();
    let json = serde_json::to_vec(&serde_json::json!({
        "bot": bot.name,
        "owner": owner,
        "owner_display_name": owner_display_name,
        "versions": versions_json(&record, rule),
        "crosstable_scope": CROSSTABLE_SCOPE,
        "crosstable": crosstable_json(&record),
        "recent_matches": recent,
    }))
    .map_err(|e| StorageError::Corrupt(format!("a bot's record as JSON: {e}")))?;
    let panel = Panel {
        name: &bot.name,
        owner: html::person(&owner, &owner_display_name),
        rule: rule.describe(),
        scope: CROSSTABLE_SCOPE,
        versions: version_rows(&record, rule),
        crosstable: cross_rows(&record),
        recent: recent_rows(&played),
        recent_max: RECENT,
    };
    let body = Fragment::render(&panel)
        .map_err(|e| StorageError::Corrupt(format!("a bot's page: {e}")))?;
    Ok(Some(BotView {
        name: bot.name,
        json: Bytes::from(json),
        body,
    }))
}

/// The bot named in the path as its readers share it; 404 for a name no bot can have (not
/// looked up, not cached) or that no bot has.
async fn view(state: &Shared, name: &str) -> Result<Snapshot<Option<BotView>>, WebError> {
    if !valid_bot_name(name) {
        return Err(WebError::not_found());
    }
    let (db, owned, rule) = (
        state.db.clone(),
        name.to_string(),
        state.contest.ladder.provisional,
    );
    Ok(state
        .bot_pages
        .slot(name)
        .get(move || make(db, owned, rule))
        .await?)
}

pub async fn api(
    State(state): State<Shared>,
    Path(name): Path<String>,
) -> Result<Response, WebError> {
    let view = view(&state, &name).await.map_err(WebError::api)?;
    let Some(bot) = view.value.as_ref() else {
        return Err(WebError::not_found().api());
    };
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        view.json_with_age(&bot.json),
    )
        .into_response())
}

/// Won, drawn and lost as `W–D–L`.
fn wdl(r: &PairResults) -> String {
    format!("{}–{}–{}", r.won, r.drawn, r.lost)
}

fn per_hand(r: &PairResults) -> String {
    r.per_hand()
        .map(|x| format!("{x:+.2}"))
        .unwrap_or_else(|| "—".to_string())
}

/// The page's panel after its heading, with its three tables (`partials/bot_*.html`).
#[derive(Template)]
#[template(path = "partials/bot_panel.html")]
struct Panel<'a> {
    name: &'a str,
    owner: Person<'a>,
    /// The contest's rule for provisional ratings, in words.
    rule: String,
    scope: &'a str,
    versions: Vec<VersionRow>,
    crosstable: Vec<CrossRow>,
    recent: Vec<RecentRow>,
    recent_max: i64,
}

/// A row of the versions table.
struct VersionRow {
    number: i64,
    uploaded: String,
    state: String,
    /// "1880 ± 581", or "not rated yet".
    rating: String,
    provisional: bool,
    games: i64,
    wdl: String,
    per_hand: String,
}

fn version_rows(record: &BotRecord, rule: ProvisionalRule) -> Vec<VersionRow> {
    record
        .versions
        .iter()
        .map(|v| {
            let (rating, games, provisional) = match v.rating {
                Some((r, d, g)) => (
                    format!("{r:.0} ± {:.0}", 2.0 * d),
                    g,
                    rule.is_provisional(g, d),
                ),
                None => ("not rated yet".to_string(), 0, false),
            };
            VersionRow {
                number: v.number,
                uploaded: html::time(v.uploaded_at),
                state: v.state.clone(),
                rating,
                provisional,
                games,
                wdl: wdl(&v.results),
                per_hand: per_hand(&v.results),
            }
        })
        .collect()
}

/// A row of the crosstable.
struct CrossRow {
    opponent: String,
    pairs: i64,
    wdl: String,
    /// Signed: "+30".
    margin: String,
    per_hand: String,
}

fn cross_rows(record: &BotRecord) -> Vec<CrossRow> {
    record
        .crosstable
        .iter()
        .map(|c| CrossRow {
            opponent: c.opponent.clone(),
            pairs: c.results.pairs,
            wdl: wdl(&c.results),
            margin: format!("{:+}", c.results.chips),
            per_hand: per_hand(&c.results),
        })
        .collect()
}

/// A row of the recent matches.
struct RecentRow {
    finished: String,
    version: i64,
    /// From 1.
    seat: i64,
    opponent: String,
    /// "+12 / -12": this bot's net chips and the opponent's.
    chips: String,
    replay: Option<String>,
}

fn recent_rows(played: &[PlayedMatch]) -> Vec<RecentRow> {
    played
        .iter()
        .map(|m| RecentRow {
            finished: html::time(m.finished_at),
            version: m.version,
            seat: m.seat + 1,
            opponent: m.opponent.clone(),
            chips: format!("{:+} / {:+}", m.chips, m.opponent_chips),
            replay: replay_url(m),
        })
        .collect()
}

/// A bot's page: its heading, the note of a stale page, the panel shared by every reader.
#[derive(Template)]
#[template(path = "bot.html")]
struct BotPage<'a> {
    layout: Layout<'a>,
    name: &'a str,
    stale: String,
    panel: &'a Fragment,
}

pub async fn page(
    State(state): State<Shared>,
    Path(name): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, WebError> {
    // At once: each waits at most half a second for a database that is away.
    let (session, view) = tokio::join!(auth::visitor(&state, &headers), view(&state, &name));
    let view = view?;
    let Some(bot) = view.value.as_ref() else {
        return Err(WebError::not_found());
    };
    Ok(html::page(&BotPage {
        layout: Layout::new(
            &state.contest.name,
            bot.name.clone(),
            session.as_ref().map(html::Viewer::of),
        ),
        name: &bot.name,
        stale: view.note(),
        panel: &bot.body,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{CrossRecord, VersionRecord};

    #[derive(Template)]
    #[template(path = "partials/bot_versions.html")]
    struct Versions {
        versions: Vec<VersionRow>,
    }

    #[derive(Template)]
    #[template(path = "partials/bot_crosstable.html")]
    struct Crosstable {
        crosstable: Vec<CrossRow>,
    }

    fn versions_table(record: &BotRecord, rule: ProvisionalRule) -> String {
        let versions = version_rows(record, rule);
        Versions { versions }.render().unwrap()
    }

    fn crosstable(record: &BotRecord) -> String {
        let crosstable = cross_rows(record);
        Crosstable { crosstable }.render().unwrap()
    }

    #[test]
    fn young_ratings_are_marked_provisional() {
        let version = |number, rating| VersionRecord {
            id: number,
            number,
            uploaded_at: 0,
            state: "ready".into(),
            rating,
            results: PairResults::default(),
        };
        let record = BotRecord {
            versions: vec![
                version(2, Some((1880.0, 290.5, 1))),
                version(1, Some((1600.0, 100.0, 20))),
            ],
            crosstable: vec![],
        };
        let table = versions_table(&record, ProvisionalRule::DEFAULT);
        let row = |n: i64| {
            table
                .split(&format!("<tr><td>v{n}</td>"))
                .nth(1)
                .and_then(|rest| rest.split("</tr>").next())
                .unwrap()
                .to_string()
        };
        assert!(
            row(2)
                .contains("<td>1880 ± 581 <span class=\"tag-provisional\">provisional</span></td>"),
            "{table}"
        );
        assert!(row(1).contains("<td>1600 ± 200</td>"), "{table}");
        let json = versions_json(&record, ProvisionalRule::DEFAULT);
        assert_eq!(
            json.iter().map(|v| v.provisional).collect::<Vec<_>>(),
            [true, false]
        );
    }

    #[test]
    fn tables_escape_names_and_say_what_is_not_rated() {
        let record = BotRecord {
            versions: vec![VersionRecord {
                id: 1,
                number: 3,
                uploaded_at: 0,
                state: "failed".into(),
                rating: None,
                results: PairResults::default(),
            }],
            crosstable: vec![CrossRecord {
                opponent: "<script>x".into(),
                results: PairResults {
                    pairs: 2,
                    won: 1,
                    drawn: 1,
                    lost: 0,
                    chips: 30,
                    hands: 16,
                },
            }],
        };
        let versions = versions_table(&record, ProvisionalRule::DEFAULT);
        assert!(
            versions.contains("<td>not rated yet</td><td>0</td><td>0–0–0</td><td>—</td>"),
            "{versions}"
        );
        let json = versions_json(&record, ProvisionalRule::DEFAULT);
        assert!(json[0].provisional, "not rated yet: provisional");
        let cross = crosstable(&record);
        assert!(!cross.contains("<script>"), "{cross}");
        assert!(!versions.contains("provisional"), "{versions}");
        assert!(
            cross.contains(
                "<a href=\"/leaderboard/&lt;script&gt;x\">&lt;script&gt;x</a></td><td>2</td>\
                 <td>1–1–0</td><td>+30</td><td>+1.88</td>"
            ),
            "{cross}"
        );
    }
}
