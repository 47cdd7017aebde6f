//! The ladder: three owners' bots built through the pipeline, duplicate pairs scheduled and
//! played by a worker, ratings on the leaderboard; a lease lost mid-match and a match
//! finished twice each leave exactly one result.

use crate::common;

use std::collections::BTreeMap;

use common::ladder::ladder;
use server::ladder::worker::Played;
use server::storage::{Finish, SeatOutcome};

on_both!(
    a_worker_plays_duplicate_pairs_and_the_leaderboard_rates_them,
    |t| {
        let l = ladder(t, 60).await;
        let worker = l.worker("w1");
        // Queue target: 2 matches per worker, i.e. one pair.
        assert_eq!(worker.schedule().await.unwrap(), 1);
        assert_eq!(worker.schedule().await.unwrap(), 0, "the queue is full");
        let mut rated_pairs = 0;
        let mut played = 0;
        while played < 6 {
            worker.schedule().await.unwrap();
            match worker.play_next().await.unwrap() {
                Played::Match(_, Finish::Recorded { pair_rated }) => {
                    played += 1;
                    rated_pairs += usize::from(pair_rated);
                }
                other => panic!("{other:?}"),
            }
        }
        // Claimed in order: the pair's two matches one after the other.
        assert_eq!(rated_pairs, 3);
        let board = l.db.leaderboard().await.unwrap();
        assert_eq!(board.len(), 3, "{board:?}");
        let total_games: i64 = board.iter().map(|s| s.games).sum();
        assert_eq!(total_games, 6, "three pairs, two bots each: {board:?}");
        // Least played first: after three pairs every bot has played two.
        assert!(board.iter().all(|s| s.games == 2), "{board:?}");
        assert!(board.iter().all(|s| s.deviation < 350.0), "{board:?}");
        assert!(board.iter().any(|s| s.rating != 1500.0), "{board:?}");
        let mut owners: Vec<_> = board.iter().map(|s| s.owner.as_str()).collect();
        owners.sort();
        assert_eq!(owners, ["alice", "bob", "carol"]);
        // Replays are stored with the results, and the scratch directories removed.
        let stored: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM match_results WHERE replay_gz IS NOT NULL")
                .fetch_one(l.db.pool())
                .await
                .unwrap();
        assert_eq!(stored, 6);
        // Each bot's build was fetched once into the worker's cache.
        let cached = std::fs::read_dir(l.contest.data_dir.join("cache"))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_type().unwrap().is_dir())
            .count();
        assert_eq!(cached, 3);
        let scratch = std::fs::read_dir(l.contest.data_dir.join("matches"))
            .unwrap()
            .count();
        assert_eq!(scratch, 0);

        // The public leaderboard, as JSON and as a page, without logging in.
        let (status, json) = l.get("/api/leaderboard").await;
        assert_eq!(status, 200, "{json}");
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let rows = json["leaderboard"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "{json}");
        // Two rated pairs each: every rating is provisional under the default rule, so no
        // bot is ranked (the first one is not "#1" after two games).
        assert!(
            rows.iter()
                .all(|r| r["rank"].is_null() && r["provisional"] == true),
            "{json}"
        );
        assert_eq!(json["provisional_rule"]["min_games"], 10, "{json}");
        assert_eq!(rows[0]["bot"], board[0].bot.as_str());
        assert!(rows[0]["rating"].as_f64().unwrap() >= rows[2]["rating"].as_f64().unwrap());
        assert!(
            rows.iter()
                .all(|r| r["games"] == 2 && r["last_played_at_ms"].is_i64()),
            "{json}"
        );
        let (status, page) = l.get("/leaderboard").await;
        assert_eq!(status, 200);
        for name in [
            "caller",
            "strong",
            "random",
            "alice",
            "bob",
            "carol",
            "Rating ± 2σ",
            "Provisional: fewer than 10 rated games or an interval wider than ± 300.",
        ] {
            assert!(page.contains(name), "{name}: {page}");
        }
        assert_eq!(page.matches(">provisional</span>").count(), 3, "{page}");
        assert_eq!(
            page.matches("<tr class=\"provisional\"><td>–</td>").count(),
            3
        );
        // A bot's page: its matches (two pairs: four), each with its replay.
        let (status, bot_page) = l.get("/leaderboard/caller").await;
        assert_eq!(status, 200, "{bot_page}");
        assert_eq!(bot_page.matches("/replay\"").count(), 4, "{bot_page}");
        let id = bot_page
            .split("/matches/")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap();
        let (status, replay) = l.get(&format!("/matches/{id}/replay")).await;
        assert_eq!(status, 200);
        assert!(
            replay.contains("<script") && replay.contains("caller"),
            "{replay}"
        );
        assert_eq!(l.get("/matches/1/replay").await.0, 404);
        assert_eq!(l.get("/leaderboard/nobody").await.0, 404);
        let (_, home) = l.get("/").await;
        assert!(home.contains("href=\"/leaderboard\""), "{home}");
    }
);

on_both!(a_lapsed_lease_leaves_exactly_one_result, |t| {
    let l = ladder(t, 60).await;
    let (w1, w2) = (l.worker("w1"), l.worker("w2"));
    w1.schedule().await.unwrap();
    let first = l.db.claim_match("w1", 60_000).await.unwrap().unwrap();
    // The lease lapses (w1 stalled): the match is queued again and w2 claims it.
    assert_eq!(
        l.db.expire_matches(server::storage::now_ms() + 61_000)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        l.db.match_state(first.id).await.unwrap(),
        Some(("queued".to_string(), 1))
    );
    let second = l.db.claim_match("w2", 60_000).await.unwrap().unwrap();
    assert_eq!(second.id, first.id);
    assert_eq!(second.attempt, 2);
    // w1 cannot renew, and its late result is dropped.
    assert!(
        !l.db
            .renew_match(first.id, &first.lease_token, 60_000)
            .await
            .unwrap()
    );
    assert_eq!(
        w1.play_claimed(&first).await.unwrap(),
        Played::Match(first.id, Finish::LeaseLost)
    );
    assert_eq!(l.db.results_count(first.id).await.unwrap(), 0);
    assert!(matches!(
        w2.play_claimed(&second).await.unwrap(),
        Played::Match(_, Finish::Recorded { pair_rated: false })
    ));
    assert_eq!(l.db.results_count(first.id).await.unwrap(), 1);
    assert_eq!(
        l.db.match_state(first.id).await.unwrap(),
        Some(("done".to_string(), 2))
    );
    // Out of attempts: a match is given up rather than replayed forever.
    let other = l.db.claim_match("w1", 1).await.unwrap().unwrap();
    for _ in 0..2 {
        l.db.expire_matches(server::storage::now_ms() + 10)
            .await
            .unwrap();
        if let Some(c) = l.db.claim_match("w1", 1).await.unwrap() {
            assert_eq!(c.id, other.id);
        }
    }
    l.db.expire_matches(server::storage::now_ms() + 10)
        .await
        .unwrap();
    assert_eq!(
        l.db.match_state(other.id).await.unwrap(),
        Some(("failed".to_string(), 3))
    );
});

on_both!(
    a_result_is_written_once_and_retired_bots_are_not_rated,
    |t| {
        let l = ladder(t, 60).await;
        l.worker("w1").schedule().await.unwrap();
        let claim = l.db.claim_match("w1", 60_000).await.unwrap().unwrap();
        let seats = [
            SeatOutcome {
                chips: 5,
                faults: 0,
            },
            SeatOutcome {
                chips: -5,
                faults: 0,
            },
        ];
        assert_eq!(
            l.db.finish_match(&claim, "w1", None, &seats).await.unwrap(),
            Finish::Recorded { pair_rated: false }
        );
        // The same worker finishing it again (a retry after a lost answer): refused.
        assert_eq!(
            l.db.finish_match(&claim, "w1", None, &seats).await.unwrap(),
            Finish::LeaseLost
        );
        assert_eq!(l.db.results_count(claim.id).await.unwrap(), 1);
        // The pair's second match, after one of its bots retired: cancelled, nothing rated.
        let second = l.db.claim_match("w1", 60_000).await.unwrap().unwrap();
        assert_eq!(second.pair_id, claim.pair_id);
        assert_eq!(second.seed, claim.seed, "duplicate: the same deals");
        assert_eq!(
            second.seats,
            vec![claim.seats[1], claim.seats[0]],
            "seats swapped"
        );
        sqlx::query("UPDATE bot_versions SET state = 'retired' WHERE id = $1")
            .bind(claim.seats[0])
            .execute(l.db.pool())
            .await
            .unwrap();
        assert_eq!(
            l.db.finish_match(&second, "w1", None, &seats)
                .await
                .unwrap(),
            Finish::Cancelled
        );
        assert_eq!(l.db.results_count(second.id).await.unwrap(), 0);
        // Queued matches of the retired version are cancelled when the queue is next topped up,
        // and the new pairs leave it out.
        l.db.schedule_pair(&server::storage::NewPair {
            version_a: claim.seats[0],
            version_b: claim.seats[1],
            seeds: [7, 7],
            hands: 1,
            max_attempts: 3,
        })
        .await
        .unwrap();
        let worker = l.worker("w1");
        worker.schedule().await.unwrap();
        assert_eq!(l.db.queued_matches().await.unwrap(), 2, "a fresh pair only");
        for c in l.db.ladder_candidates().await.unwrap() {
            assert_ne!(c.version_id, claim.seats[0]);
        }
        while let Some(next) = l.db.claim_match("w1", 60_000).await.unwrap() {
            assert!(!next.seats.contains(&claim.seats[0]), "{next:?}");
            l.db.fail_match(next.id, &next.lease_token, "test")
                .await
                .unwrap();
        }
        assert!(
            l.db.leaderboard()
                .await
                .unwrap()
                .iter()
                .all(|s| s.games == 0)
        );
    }
);

/// Rated-pair results as the test computes them from the stored seats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    pairs: i64,
    won: i64,
    drawn: i64,
    lost: i64,
    chips: i64,
    hands: i64,
}

impl Tally {
    fn add(&mut self, chips: i64, hands: i64) {
        self.pairs += 1;
        match chips.signum() {
            1 => self.won += 1,
            0 => self.drawn += 1,
            _ => self.lost += 1,
        }
        self.chips += chips;
        self.hands += hands;
    }

    fn per_hand(&self) -> String {
        format!("{:+.2}", self.chips as f64 / self.hands as f64)
    }
}

type ByVersion = BTreeMap<(String, i64), Tally>;
type ByOpponent = BTreeMap<(String, String), Tally>;
/// A stored seat of a match: bot, version number, chips, the match's hands.
type StoredSeat = (String, i64, i64, i64);

/// Every pair whose two matches both have stored results, from `match_result_seats` (not
/// from `rated_at` or the ratings), tallied per bot version and per bot and opponent bot.
async fn tallies(db: &server::storage::Db) -> (ByVersion, ByOpponent, usize) {
    use sqlx::Row;
    let rows = sqlx::query(
        "SELECT m.id AS match_id, m.pair_id AS pair_id, m.hands AS hands, b.name AS bot, \
         v.number AS number, rs.chips AS chips FROM matches m \
         JOIN match_seats s ON s.match_id = m.id \
         JOIN bot_versions v ON v.id = s.version_id JOIN bots b ON b.id = v.bot_id \
         JOIN match_result_seats rs ON rs.match_id = m.id AND rs.seat = s.seat",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let mut pairs: BTreeMap<i64, BTreeMap<i64, Vec<StoredSeat>>> = BTreeMap::new();
    for r in &rows {
        let pair: i64 = r.get("pair_id");
        pairs
            .entry(pair)
            .or_default()
            .entry(r.get("match_id"))
            .or_default()
            .push((
                r.get("bot"),
                r.get("number"),
                r.get("chips"),
                r.get("hands"),
            ));
    }
    let (mut by_version, mut by_opponent) = (ByVersion::new(), ByOpponent::new());
    let mut incomplete = 0;
    for matches in pairs.values() {
        if matches.len() != 2 {
            incomplete += 1;
            continue;
        }
        // bot -> (version, chips over both matches, hands)
        let mut sums: BTreeMap<String, (i64, i64, i64)> = Default::default();
        for seats in matches.values() {
            assert_eq!(seats.len(), 2);
            for (bot, number, chips, hands) in seats {
                let e = sums.entry(bot.clone()).or_insert((*number, 0, 0));
                e.1 += chips;
                e.2 += hands;
            }
        }
        let bots: Vec<_> = sums.keys().cloned().collect();
        assert_eq!(bots.len(), 2);
        for (i, bot) in bots.iter().enumerate() {
            let (number, chips, hands) = sums[bot];
            by_version
                .entry((bot.clone(), number))
                .or_default()
                .add(chips, hands);
            by_opponent
                .entry((bot.clone(), bots[1 - i].clone()))
                .or_default()
                .add(chips, hands);
        }
    }
    (by_version, by_opponent, incomplete)
}

/// Plays until `n` more matches are recorded, topping the queue up as it goes.
async fn play(worker: &server::ladder::worker::Worker, n: usize) -> bool {
    let mut last_rated = false;
    for _ in 0..n {
        worker.schedule().await.unwrap();
        match worker.play_next().await.unwrap() {
            Played::Match(_, Finish::Recorded { pair_rated }) => last_rated = pair_rated,
            other => panic!("{other:?}"),
        }
    }
    last_rated
}

on_both!(bot_pages_show_history_and_crosstable_of_stored_pairs, |t| {
    let l = ladder(t, 60).await;
    let worker = l.worker("w1");
    assert!(play(&worker, 6).await, "three whole pairs");
    // caller's second version: v1 retires, its matches still count in its history.
    l.upload_ready(&common::ladder::Entry::single(
        "alice",
        "caller",
        common::ladder::kit("python/minimal_bot.py"),
    ))
    .await;
    assert!(play(&worker, 6).await, "three more whole pairs");
    // And half a pair: stored, but not rated, so counted nowhere.
    assert!(!play(&worker, 1).await);
    let (by_version, by_opponent, incomplete) = tallies(&l.db).await;
    assert_eq!(incomplete, 1);
    assert_eq!(by_version.values().map(|t| t.pairs).sum::<i64>(), 12);

    for bot in ["caller", "strong", "random"] {
        let (status, json) = l.get(&format!("/api/leaderboard/{bot}")).await;
        assert_eq!(status, 200, "{json}");
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let (_, page) = l.get(&format!("/leaderboard/{bot}")).await;
        assert_eq!(json["bot"], bot);

        // History: every version, newest first, with its own pairs.
        let versions = json["versions"].as_array().unwrap();
        let numbers: Vec<i64> = versions
            .iter()
            .map(|v| v["version"].as_i64().unwrap())
            .collect();
        let want: Vec<i64> = if bot == "caller" { vec![2, 1] } else { vec![1] };
        assert_eq!(numbers, want, "{json}");
        for v in versions {
            let number = v["version"].as_i64().unwrap();
            let want = by_version
                .get(&(bot.to_string(), number))
                .copied()
                .unwrap_or_default();
            let state = if bot == "caller" && number == 1 {
                "retired"
            } else {
                "ready"
            };
            assert_eq!(v["state"], state, "{v}");
            // The rating's games are the rated pairs counted here.
            assert_eq!(v["games"], want.pairs, "{v}");
            assert_eq!(v["rating"].is_null(), want.pairs == 0, "{v}");
            let got = Tally {
                pairs: want.pairs,
                won: v["pairs_won"].as_i64().unwrap(),
                drawn: v["pairs_drawn"].as_i64().unwrap(),
                lost: v["pairs_lost"].as_i64().unwrap(),
                chips: v["chips"].as_i64().unwrap(),
                hands: v["hands"].as_i64().unwrap(),
            };
            assert_eq!(got, want, "{bot} v{number}: {v}");
            assert!(want.pairs > 0, "every version played: {v}");
            let per_hand = want.chips as f64 / want.hands as f64;
            assert!(
                (v["chips_per_hand"].as_f64().unwrap() - per_hand).abs() < 0.006,
                "{v}"
            );
            // The page's row.
            let row = page
                .split(&format!("<tr><td>v{number}</td>"))
                .nth(1)
                .and_then(|rest| rest.split("</tr>").next())
                .unwrap_or_else(|| panic!("v{number}: {page}"));
            assert!(row.contains(&format!(">{state}</td>")), "{row}");
            assert!(
                row.ends_with(&format!(
                    "<td>{}</td><td>{}–{}–{}</td><td>{}</td>",
                    want.pairs,
                    want.won,
                    want.drawn,
                    want.lost,
                    want.per_hand()
                )),
                "{bot} v{number}: {row}"
            );
            assert!(row.contains(" ± "), "{row}");
        }

        // Crosstable: each opponent, most pairs first, then by name.
        let mut want: Vec<(String, Tally)> = by_opponent
            .iter()
            .filter(|((b, _), _)| b == bot)
            .map(|((_, o), t)| (o.clone(), *t))
            .collect();
        want.sort_by(|a, b| b.1.pairs.cmp(&a.1.pairs).then(a.0.cmp(&b.0)));
        assert_eq!(want.len(), 2, "{want:?}");
        let got: Vec<(String, Tally)> = json["crosstable"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["opponent"].as_str().unwrap().to_string(),
                    Tally {
                        pairs: c["pairs"].as_i64().unwrap(),
                        won: c["won"].as_i64().unwrap(),
                        drawn: c["drawn"].as_i64().unwrap(),
                        lost: c["lost"].as_i64().unwrap(),
                        chips: c["margin"].as_i64().unwrap(),
                        hands: c["hands"].as_i64().unwrap(),
                    },
                )
            })
            .collect();
        assert_eq!(got, want, "{bot}: {json}");
        let table = page
            .split("<table class=\"list\" id=\"crosstable\">")
            .nth(1)
            .and_then(|rest| rest.split("</table>").next())
            .unwrap_or_else(|| panic!("{page}"));
        let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
        assert_eq!(rows.len(), want.len(), "{table}");
        for (row, (opponent, t)) in rows.iter().zip(&want) {
            assert_eq!(
                *row,
                format!(
                    "<td><a href=\"/leaderboard/{opponent}\">{opponent}</a></td><td>{}</td>\
                     <td>{}–{}–{}</td><td>{:+}</td><td>{}</td></tr>",
                    t.pairs,
                    t.won,
                    t.drawn,
                    t.lost,
                    t.chips,
                    t.per_hand()
                ),
                "{bot}"
            );
        }
        // Every column explained, and the recent matches still there with their replays.
        for words in [
            "Every version of this bot against every version of each opponent, pooled",
            "<li>Margin / hand:",
            "<li>Pairs W–D–L:",
            "<li>Chips / hand:",
            "Recent matches",
        ] {
            assert!(page.contains(words), "{words}: {page}");
        }
        let recent = json["recent_matches"].as_array().unwrap();
        let played: i64 = by_version
            .iter()
            .filter(|((b, _), _)| b == bot)
            .map(|(_, t)| 2 * t.pairs)
            .sum();
        assert!(recent.len() as i64 >= played, "{json}");
        assert_eq!(page.matches("/replay\"").count(), recent.len(), "{page}");
        for m in recent {
            let id = m["match_id"].as_str().unwrap();
            let url = format!("/matches/{id}/replay");
            assert_eq!(m["replay"], url.as_str(), "{m}");
            // The seat: from 0 in the JSON, as stored (and as the replay's JSON has it);
            // from 1 on the page, as people count.
            let stored: i64 = sqlx::query_scalar(
                "SELECT s.seat FROM match_seats s JOIN bot_versions v ON v.id = s.version_id \
                 JOIN bots b ON b.id = v.bot_id WHERE s.match_id = $1 AND b.name = $2",
            )
            .bind(id.parse::<i64>().unwrap())
            .bind(bot)
            .fetch_one(l.db.pool())
            .await
            .unwrap();
            assert_eq!(m["seat"], stored, "{m}");
            let row = page
                .split(&format!("<a href=\"{url}\">"))
                .next()
                .and_then(|before| before.rsplit("<tr>").next())
                .unwrap();
            assert!(
                row.contains(&format!(
                    "<td>v{}</td><td>{}</td>",
                    m["version"],
                    stored + 1
                )),
                "{bot}: {row}"
            );
        }
    }
    assert_eq!(l.get("/api/leaderboard/nobody").await.0, 404);
});

// The two matches of a duplicate pair deal the same cards in swapped seats: a worker never
// claims one while the other is running (on this worker or another), so the copies of a bot
// in them cannot tell each other their cards.
on_both!(the_halves_of_a_pair_never_run_at_once, |t| {
    let l = ladder(t, 60).await;
    l.worker("w1").schedule().await.unwrap();
    let first = l.db.claim_match("w1", 60_000).await.unwrap().unwrap();
    // Another pair in the queue, then another worker claims everything it can meanwhile:
    // never first's sibling, and only one half of the new pair.
    assert_eq!(l.worker("w1").schedule().await.unwrap(), 1);
    let mut held = Vec::new();
    while let Some(claim) = l.db.claim_match("w2", 60_000).await.unwrap() {
        assert_ne!(
            claim.pair_id, first.pair_id,
            "match {} claimed while its pair's match {} runs",
            claim.id, first.id
        );
        assert!(
            held.iter()
                .all(|h: &server::storage::MatchClaim| h.pair_id != claim.pair_id),
            "both halves of a pair running"
        );
        held.push(claim);
    }
    assert_eq!(held.len(), 1, "one half of the other pair was claimable");
    // Once the first half is over, its sibling is claimed next.
    let seats = [
        SeatOutcome {
            chips: 1,
            faults: 0,
        },
        SeatOutcome {
            chips: -1,
            faults: 0,
        },
    ];
    l.db.finish_match(&first, "w1", None, &seats).await.unwrap();
    let sibling = l.db.claim_match("w1", 60_000).await.unwrap().unwrap();
    assert_eq!(sibling.pair_id, first.pair_id);
    assert_eq!(sibling.attempt, 1, "a claim given back costs no attempt");
});
