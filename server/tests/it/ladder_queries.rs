//! The scheduler's view of the ladder (`ladder_candidates`) and a bot's recent matches
//! (`recent_matches`), on hand-made pairs: what each must return, now that both avoid reading
//! the ladder's whole history; and the leaderboard shared by readers for a second
//! (BENCHMARKS.md, section 10).

use crate::common;

use server::storage::{Db, Finish, NewPair, NewVersion, SeatOutcome, SourceKind, new_id};

/// An account with one bot and a ready version; the version's id.
async fn ready_bot(db: &Db, name: &str) -> (i64, i64) {
    let user = db
        .create_user(
            &format!("{name}-owner"),
            name,
            Some("$argon2id$x"),
            None,
            false,
        )
        .await
        .unwrap();
    let bot = db.create_bot(user.id, name).await.unwrap();
    let version = db
        .add_version(&NewVersion {
            id: new_id().unwrap(),
            bot_id: bot.id,
            language: "python".into(),
            source_kind: SourceKind::File,
            source_name: "bot.py".into(),
            source_bytes: 1,
            unpacked_bytes: 1,
            file_count: 1,
            source_sha256: "x".into(),
        })
        .await
        .unwrap();
    sqlx::query("UPDATE bot_versions SET state = 'ready' WHERE id = $1")
        .bind(version.id)
        .execute(db.pool())
        .await
        .unwrap();
    (bot.id, version.id)
}

async fn pair(db: &Db, a: i64, b: i64) -> i64 {
    let id = db
        .schedule_pair(&NewPair {
            version_a: a,
            version_b: b,
            seeds: [5, 5],
            hands: 1,
            max_attempts: 3,
        })
        .await
        .unwrap();
    // The next pair is created strictly later.
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    id
}

/// (games, last_scheduled) of a version as the scheduler sees it.
async fn seen(db: &Db, version: i64) -> (i64, Option<i64>) {
    let c = db.ladder_candidates().await.unwrap();
    let c = c.iter().find(|c| c.version_id == version).unwrap();
    (c.games, c.last_scheduled)
}

async fn pair_created(db: &Db, pair: i64) -> i64 {
    use sqlx::Row;
    sqlx::query("SELECT created_at FROM match_pairs WHERE id = $1")
        .bind(pair)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get("created_at")
}

on_both!(
    candidates_count_pending_pairs_and_the_last_one_on_either_side,
    |t| {
        let db = &t.db;
        let (_, a) = ready_bot(db, "alpha").await;
        let (_, b) = ready_bot(db, "beta").await;
        let (_, c) = ready_bot(db, "gamma").await;
        assert_eq!(seen(db, a).await, (0, None));
        let first = pair(db, a, b).await;
        let at_first = pair_created(db, first).await;
        // Scheduled, not played: counted as a game already (the queue spreads over everyone).
        assert_eq!(seen(db, a).await, (1, Some(at_first)));
        assert_eq!(seen(db, b).await, (1, Some(at_first)));
        assert_eq!(seen(db, c).await, (0, None));
        // Played and rated: still one game, now a rated one. The pair's second match is
        // claimed only once the first is over (the halves never run at once).
        let one = db.claim_match("w", 60_000).await.unwrap().unwrap();
        assert_eq!(one.pair_id, Some(first));
        assert!(
            db.claim_match("w", 60_000).await.unwrap().is_none(),
            "the other half waits while this one runs"
        );
        let seats = |chips| {
            [
                SeatOutcome { chips, faults: 0 },
                SeatOutcome {
                    chips: -chips,
                    faults: 0,
                },
            ]
        };
        assert_eq!(
            db.finish_match(&one, "w", Some(b"replay 1".as_slice()), &seats(30))
                .await
                .unwrap(),
            Finish::Recorded { pair_rated: false }
        );
        // Half played: the pair is still pending.
        assert_eq!(seen(db, a).await.0, 1);
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        let two = db.claim_match("w", 60_000).await.unwrap().unwrap();
        assert_eq!(two.pair_id, Some(first));
        assert_eq!(
            db.finish_match(&two, "w", Some(b"replay 2".as_slice()), &seats(-10))
                .await
                .unwrap(),
            Finish::Recorded { pair_rated: true }
        );
        assert_eq!(seen(db, a).await, (1, Some(at_first)));
        // A later pair with the first bot on the other side: its newest pair counts.
        let second = pair(db, c, a).await;
        let at_second = pair_created(db, second).await;
        assert!(at_second > at_first);
        assert_eq!(seen(db, a).await, (2, Some(at_second)));
        assert_eq!(seen(db, b).await, (1, Some(at_first)));
        assert_eq!(seen(db, c).await, (1, Some(at_second)));
        // A cancelled match's pair is no longer pending.
        sqlx::query("UPDATE matches SET state = 'cancelled' WHERE pair_id = $1")
            .bind(second)
            .execute(db.pool())
            .await
            .unwrap();
        assert_eq!(seen(db, c).await, (0, Some(at_second)));
    }
);

on_both!(a_bots_recent_matches_are_its_own_newest_first, |t| {
    let db = &t.db;
    let (alpha, a) = ready_bot(db, "alpha").await;
    let (_, b) = ready_bot(db, "beta").await;
    let (gamma, c) = ready_bot(db, "gamma").await;
    let played = pair(db, a, b).await;
    let mut ids = Vec::new();
    for chips in [7, -3] {
        let claim = db.claim_match("w", 60_000).await.unwrap().unwrap();
        assert_eq!(claim.pair_id, Some(played));
        let seats = [
            SeatOutcome { chips, faults: 0 },
            SeatOutcome {
                chips: -chips,
                faults: 1,
            },
        ];
        db.finish_match(
            &claim,
            "w",
            Some(format!("replay {}", claim.id).as_bytes()),
            &seats,
        )
        .await
        .unwrap();
        ids.push(claim.id);
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    // Queued, not played: never listed.
    pair(db, b, c).await;
    pair(db, a, c).await;
    let mine = db.recent_matches(alpha, 50).await.unwrap();
    assert_eq!(mine.len(), 2, "{mine:?}");
    // Newest first: the pair's second match, where alpha sat second.
    assert_eq!(mine[0].match_id, ids[1]);
    assert_eq!(mine[0].seat, 1);
    assert_eq!((mine[0].chips, mine[0].opponent_chips), (3, -3));
    assert_eq!(mine[1].match_id, ids[0]);
    assert_eq!(mine[1].seat, 0);
    assert_eq!((mine[1].chips, mine[1].opponent_chips), (7, -7));
    assert!(mine.iter().all(|m| m.opponent == "beta" && m.version == 1));
    assert!(mine.iter().all(|m| m.has_replay));
    assert!(mine[0].finished_at >= mine[1].finished_at);
    let newest = db.recent_matches(alpha, 1).await.unwrap();
    assert_eq!(newest.len(), 1);
    assert_eq!(newest[0].match_id, ids[1]);
    assert!(db.recent_matches(gamma, 50).await.unwrap().is_empty());
});

on_both!(
    the_leaderboard_is_made_again_only_once_it_is_older_than_its_age,
    |t| {
        use server::web::board::BoardCache;
        use std::time::Duration;
        let db = &t.db;
        ready_bot(db, "alpha").await;
        // The default rule: bots that have not played are provisional, so unranked.
        let rule = server::ladder::provisional::ProvisionalRule::DEFAULT;
        let kept = BoardCache::new(Duration::from_secs(3600), rule);
        let fresh = BoardCache::new(Duration::ZERO, rule);
        let first = kept.get(db).await.unwrap();
        assert!(first.value.table.contains("alpha"), "{}", first.value.table);
        assert!(first.stale.is_none());
        assert!(fresh.get(db).await.unwrap().value.table.contains("alpha"));
        ready_bot(db, "beta").await;
        // Within its age: the same board, without the new bot.
        let again = kept.get(db).await.unwrap();
        assert!(std::sync::Arc::ptr_eq(&first.value, &again.value));
        assert!(!again.value.table.contains("beta"));
        // Past it: made again (a zero age: every read refreshes, and its reader waits for it).
        let now = fresh.get(db).await.unwrap();
        assert!(now.value.table.contains("beta"), "{}", now.value.table);
        assert!(now.stale.is_none());
        let json: serde_json::Value = serde_json::from_slice(&now.value.json).unwrap();
        assert_eq!(json["leaderboard"].as_array().unwrap().len(), 2, "{json}");
        assert_eq!(json["leaderboard"][0]["rank"], serde_json::Value::Null);
        assert_eq!(json["leaderboard"][0]["provisional"], true);
    }
);
