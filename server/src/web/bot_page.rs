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

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::cached::{self, Snapshot};
use super::cached_map::CachedMap;
use super::html::{self, esc};
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
    body: String,
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
    let owner = html::person(&owner, &owner_display_name);
    let body = body(&bot.name, &owner, &record, &played, rule);
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

fn versions_table(record: &BotRecord, rule: ProvisionalRule) -> String {
    // Failed versions are listed (as "failed", nothing more): hiding them would leave gaps
    // in the version numbers a visitor cannot explain, and their logs stay on the owner's
    // own pages.
    let mut t = String::from(
        "<table class=\"list\" id=\"versions\"><tr><th>Version</th><th>Uploaded</th>\
         <th>State</th><th>Rating ± 2σ</th><th>Games</th><th>Pairs W–D–L</th>\
         <th>Chips / hand</th></tr>",
    );
    for v in &record.versions {
        let (rating, games) = match v.rating {
            Some((r, d, g)) => {
                let tag = if rule.is_provisional(g, d) {
                    " <span class=\"tag-provisional\">provisional</span>"
                } else {
                    ""
                };
                (format!("{r:.0} ± {:.0}{tag}", 2.0 * d), g.to_string())
            }
            None => ("not rated yet".to_string(), "0".to_string()),
        };
        t.push_str(&format!(
            "<tr><td>v{}</td><td>{}</td><td class=\"state-{}\">{}</td><td>{rating}</td>\
             <td>{games}</td><td>{}</td><td>{}</td></tr>",
            v.number,
            html::time(v.uploaded_at),
            esc(&v.state),
            esc(&v.state),
            wdl(&v.results),
            per_hand(&v.results),
        ));
    }
    t.push_str("</table>");
    t
}

fn crosstable(record: &BotRecord) -> String {
    if record.crosstable.is_empty() {
        return "<p>No rated pair yet.</p>".to_string();
    }
    let mut t = String::from(
        "<table class=\"list\" id=\"crosstable\"><tr><th>Opponent</th><th>Pairs</th>\
         <th>W–D–L</th><th>Margin</th><th>Margin / hand</th></tr>",
    );
    for c in &record.crosstable {
        t.push_str(&format!(
            "<tr><td><a href=\"/leaderboard/{}\">{}</a></td><td>{}</td><td>{}</td>\
             <td>{:+}</td><td>{}</td></tr>",
            esc(&c.opponent),
            esc(&c.opponent),
            c.results.pairs,
            wdl(&c.results),
            c.results.chips,
            per_hand(&c.results),
        ));
    }
    t.push_str("</table>");
    t
}

fn recent_table(played: &[PlayedMatch]) -> String {
    if played.is_empty() {
        return "<p>No match played yet.</p>".to_string();
    }
    let mut t = String::from(
        "<table class=\"list\" id=\"recent\"><tr><th>Finished</th><th>Version</th><th>Seat</th>\
         <th>Opponent</th><th>Chips</th><th></th></tr>",
    );
    for m in played {
        let replay = replay_url(m)
            .map(|url| format!("<a href=\"{url}\">replay</a>"))
            .unwrap_or_default();
        t.push_str(&format!(
            "<tr><td>{}</td><td>v{}</td><td>{}</td><td><a href=\"/leaderboard/{}\">{}</a></td>\
             <td>{:+} / {:+}</td><td>{replay}</td></tr>",
            html::time(m.finished_at),
            m.version,
            m.seat + 1,
            esc(&m.opponent),
            esc(&m.opponent),
            m.chips,
            m.opponent_chips,
        ));
    }
    t.push_str("</table>");
    t
}

/// The page's panel after its heading.
fn body(
    name: &str,
    owner_html: &str,
    record: &BotRecord,
    played: &[PlayedMatch],
    rule: ProvisionalRule,
) -> String {
    let name = esc(name);
    format!(
        "<p id=\"owner\">By {owner} · <a href=\"/leaderboard\">The leaderboard</a> · \
         <a href=\"/api/leaderboard/{name}\">as JSON</a></p>\
         <p class=\"muted\">Only rated duplicate pairs count below: the same deals played \
         twice with the seats swapped, won by the bot with more chips over both matches, \
         as the rating scores them (a pair whose second match is not stored yet waits).</p>\
         <h3>Versions</h3>{versions}\
         <ul class=\"muted\">\
         <li>Version: the upload's number, newest first.</li>\
         <li>Uploaded: when it was uploaded.</li>\
         <li>State: ready plays on the ladder, retired was replaced by a newer ready \
         version, failed did not build or pass the checks, uploaded and building wait for \
         the builder.</li>\
         <li>Rating ± 2σ: the version's Glicko-2 rating and about a 95% interval (each \
         version starts afresh); provisional while it has {rule}, and then not ranked \
         on the leaderboard.</li>\
         <li>Games: the version's rated pairs.</li>\
         <li>Pairs W–D–L: its pairs won, drawn and lost.</li>\
         <li>Chips / hand: its net chips over those pairs' matches divided by their \
         hands.</li></ul>\
         <h3>Against each opponent</h3><p>{scope}</p>{cross}\
         <ul class=\"muted\">\
         <li>Opponent: the other bot, linking to its page.</li>\
         <li>Pairs: rated duplicate pairs played against it.</li>\
         <li>W–D–L: those pairs won, drawn and lost.</li>\
         <li>Margin: this bot's net chips over their matches (what the opponent lost).</li>\
         <li>Margin / hand: that margin divided by the hands played.</li></ul>\
         <h3>Recent matches</h3>{recent}\
         <ul class=\"muted\">\
         <li>Finished: when the match's result was stored; newest first, at most {RECENT}.</li>\
         <li>Version and Seat: this bot's version and seat (from 1).</li>\
         <li>Opponent: the other bot.</li>\
         <li>Chips: this bot's net chips / the opponent's.</li>\
         <li>The last column opens the match in the replay viewer.</li></ul>",
        owner = owner_html,
        rule = esc(&rule.describe()),
        versions = versions_table(record, rule),
        scope = esc(CROSSTABLE_SCOPE),
        cross = crosstable(record),
        recent = recent_table(played),
    )
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
    let body = format!(
        "<section class=\"panel\"><h2>{}</h2>{}{}</section>",
        esc(&bot.name),
        view.note(),
        bot.body
    );
    let viewer = session.as_ref().map(|s| html::Viewer {
        user: s.user(),
        csrf: &s.record.csrf_token,
    });
    Ok(html::page(&state.contest.name, &bot.name, viewer, &body).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{CrossRecord, VersionRecord};

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
