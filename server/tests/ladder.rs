//! The ladder: three owners' bots built through the pipeline, duplicate pairs scheduled and
//! played by a worker, ratings on the leaderboard; a lease lost mid-match and a match
//! finished twice each leave exactly one result.

mod common;

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
        assert_eq!(rows[0]["rank"], 1);
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
        ] {
            assert!(page.contains(name), "{name}: {page}");
        }
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
