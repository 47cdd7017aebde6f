//! Storage on SQLite (always) and PostgreSQL (when ARENA_TEST_POSTGRES_URL is set): the same
//! queries and migrations on both.

use crate::common;

use server::ladder::versions::{BuildOutcome, VersionState};
use server::storage::{Db, NewVersion, SourceKind, StorageError, new_id, now_ms, secret_digest};

async fn user(db: &Db, name: &str) -> server::storage::User {
    db.create_user(name, name, Some("$argon2id$fake"), None, false)
        .await
        .unwrap()
}

async fn version(db: &Db, bot_id: i64) -> server::storage::Version {
    db.add_version(&NewVersion {
        id: new_id().unwrap(),
        bot_id,
        language: "python".into(),
        source_kind: SourceKind::File,
        source_name: "bot.py".into(),
        source_bytes: 10,
        unpacked_bytes: 10,
        file_count: 1,
        source_sha256: "ab".repeat(32),
    })
    .await
    .unwrap()
}

fn passed(yes: bool) -> BuildOutcome {
    BuildOutcome {
        passed: yes,
        build_log: format!("built {yes}"),
        check_log: "<checks & such>".into(),
        artifact: None,
    }
}

on_both!(migrations_apply_once_and_reopen, |t| {
    // A second open of the same database applies nothing and finds the data.
    user(&t.db, "alice").await;
    if let Some(dir) = t.dir() {
        let again = Db::open(&server::storage::sqlite_url(&dir.join("sub/contest.db")))
            .await
            .unwrap();
        assert!(again.user_by_name("alice").await.unwrap().is_some());
        again.close().await;
        // WAL mode is on (kept in the file).
        let row: (String,) = sqlx::query_as("PRAGMA journal_mode")
            .fetch_one(t.db.pool())
            .await
            .unwrap();
        assert_eq!(row.0, "wal");
    }
});

on_both!(users_and_names, |t| {
    let db = &t.db;
    let a = db
        .create_user("alice", "Alice <A>", Some("$argon2id$x"), None, true)
        .await
        .unwrap();
    assert!(a.is_admin && a.has_password && a.id > 0);
    let err = db.create_user("alice", "again", None, None, false).await;
    assert!(matches!(err, Err(StorageError::Conflict)), "{err:?}");
    let found = db.user_by_name("alice").await.unwrap().unwrap();
    assert_eq!(found, a);
    assert_eq!(db.user_by_id(a.id).await.unwrap().unwrap(), a);
    let (u, hash) = db.login_record("alice").await.unwrap().unwrap();
    assert_eq!((u.id, hash.as_deref()), (a.id, Some("$argon2id$x")));
    assert!(db.login_record("nobody").await.unwrap().is_none());
});

on_both!(setup_tokens_work_once, |t| {
    let db = &t.db;
    let digest = secret_digest("token-1");
    let u = db
        .create_user("bob", "Bob", None, Some(&digest), false)
        .await
        .unwrap();
    assert!(!u.has_password);
    assert_eq!(db.login_record("bob").await.unwrap().unwrap().1, None);
    assert_eq!(
        db.user_by_setup_token(&digest).await.unwrap().unwrap().id,
        u.id
    );
    let used = db
        .use_setup_token(&digest, "$argon2id$new")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(used.id, u.id);
    assert!(used.has_password);
    assert!(
        db.use_setup_token(&digest, "$argon2id$other")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        db.login_record("bob").await.unwrap().unwrap().1.as_deref(),
        Some("$argon2id$new")
    );
});

on_both!(sessions_expire_and_end, |t| {
    let db = &t.db;
    let u = user(db, "carol").await;
    let now = now_ms();
    db.create_session("h1", u.id, "csrf1", now + 60_000)
        .await
        .unwrap();
    db.create_session("h2", u.id, "csrf2", now - 1)
        .await
        .unwrap();
    let s = db.session("h1", now).await.unwrap().unwrap();
    assert_eq!((s.user.id, s.csrf_token.as_str()), (u.id, "csrf1"));
    assert!(db.session("h2", now).await.unwrap().is_none(), "expired");
    assert!(db.session("nope", now).await.unwrap().is_none());
    assert_eq!(db.delete_expired_sessions(now).await.unwrap(), 1);
    db.delete_session("h1").await.unwrap();
    assert!(db.session("h1", now).await.unwrap().is_none());
    db.create_session("h3", u.id, "c", now + 60_000)
        .await
        .unwrap();
    db.delete_sessions_of(u.id).await.unwrap();
    assert!(db.session("h3", now).await.unwrap().is_none());
});

on_both!(api_tokens, |t| {
    let db = &t.db;
    let u = user(db, "dave").await;
    let other = user(db, "eve").await;
    let id = db
        .create_api_token(u.id, &secret_digest("tok"), "laptop")
        .await
        .unwrap();
    assert_eq!(
        db.api_token_user(&secret_digest("tok"))
            .await
            .unwrap()
            .unwrap()
            .id,
        u.id
    );
    assert!(
        db.api_token_user(&secret_digest("tok2"))
            .await
            .unwrap()
            .is_none()
    );
    let list = db.api_tokens_of(u.id).await.unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].label, "laptop");
    assert!(list[0].last_used_at.is_some());
    assert!(
        !db.delete_api_token(other.id, id).await.unwrap(),
        "not eve's token"
    );
    assert!(db.delete_api_token(u.id, id).await.unwrap());
    assert!(
        db.api_token_user(&secret_digest("tok"))
            .await
            .unwrap()
            .is_none()
    );
});

on_both!(bots_and_version_numbers, |t| {
    let db = &t.db;
    let u = user(db, "frank").await;
    let bot = db.create_bot(u.id, "Shark-1").await.unwrap();
    assert!(matches!(
        db.create_bot(u.id, "Shark-1").await,
        Err(StorageError::Conflict)
    ));
    assert_eq!(db.bot_by_name("Shark-1").await.unwrap().unwrap(), bot);
    assert_eq!(db.bots_of(u.id).await.unwrap(), vec![bot.clone()]);
    let v1 = version(db, bot.id).await;
    let v2 = version(db, bot.id).await;
    assert_eq!((v1.number, v2.number), (1, 2));
    assert_eq!(v1.state, VersionState::Uploaded);
    let listed: Vec<i64> = db
        .versions_of(bot.id)
        .await
        .unwrap()
        .iter()
        .map(|v| v.number)
        .collect();
    assert_eq!(listed, vec![2, 1]);
    assert_eq!(db.version(bot.id, 1).await.unwrap().unwrap(), v1);
    assert!(db.version(bot.id, 3).await.unwrap().is_none());
    assert_eq!(db.uploads_since(u.id, now_ms() - 60_000).await.unwrap(), 2);
    assert_eq!(db.uploads_since(u.id, now_ms() + 60_000).await.unwrap(), 0);
    // Concurrent uploads of one bot get distinct numbers.
    let uploads = (0..6).map(|_| version(db, bot.id));
    let mut numbers: Vec<i64> = futures::future::join_all(uploads)
        .await
        .iter()
        .map(|v| v.number)
        .collect();
    numbers.sort();
    assert_eq!(numbers, vec![3, 4, 5, 6, 7, 8]);
});

on_both!(builds_are_claimed_once_and_finish_with_the_lease, |t| {
    let db = &t.db;
    let u = user(db, "gina").await;
    let bot = db.create_bot(u.id, "g").await.unwrap();
    let v1 = version(db, bot.id).await;
    let v2 = version(db, bot.id).await;
    let c1 = db.claim_build(60_000).await.unwrap().unwrap();
    assert_eq!(c1.version.id, v1.id, "oldest first");
    assert_eq!(c1.version.state, VersionState::Building);
    assert_eq!(c1.version.build_attempt, 1);
    let c2 = db.claim_build(60_000).await.unwrap().unwrap();
    assert_eq!(c2.version.id, v2.id);
    assert!(
        db.claim_build(60_000).await.unwrap().is_none(),
        "nothing left"
    );

    assert!(
        db.renew_build(v1.id, &c1.lease_token, 60_000)
            .await
            .unwrap()
    );
    assert!(
        !db.renew_build(v1.id, &c2.lease_token, 60_000)
            .await
            .unwrap()
    );
    // Not the holder: refused, nothing changes.
    assert!(
        !db.finish_build(v1.id, "not-mine", &passed(true))
            .await
            .unwrap()
    );
    assert_eq!(
        db.version_by_id(v1.id).await.unwrap().unwrap().state,
        VersionState::Building
    );

    // v2 (newer) passes first, then v1 passes: v1 must not displace v2.
    assert!(
        db.finish_build(v2.id, &c2.lease_token, &passed(true))
            .await
            .unwrap()
    );
    assert!(
        db.finish_build(v1.id, &c1.lease_token, &passed(true))
            .await
            .unwrap()
    );
    assert!(
        !db.finish_build(v1.id, &c1.lease_token, &passed(false))
            .await
            .unwrap(),
        "once"
    );
    let v1 = db.version_by_id(v1.id).await.unwrap().unwrap();
    let v2 = db.version_by_id(v2.id).await.unwrap().unwrap();
    assert_eq!(
        (v1.state, v2.state),
        (VersionState::Retired, VersionState::Ready)
    );
    assert_eq!(v2.build_log, "built true");
    assert_eq!(v2.check_log, "<checks & such>");

    // v3 passes: v2 retires. v4 fails: v3 stays ready.
    let v3 = version(db, bot.id).await;
    let c3 = db.claim_build(60_000).await.unwrap().unwrap();
    assert!(
        db.finish_build(v3.id, &c3.lease_token, &passed(true))
            .await
            .unwrap()
    );
    let v4 = version(db, bot.id).await;
    let c4 = db.claim_build(60_000).await.unwrap().unwrap();
    assert!(
        db.finish_build(v4.id, &c4.lease_token, &passed(false))
            .await
            .unwrap()
    );
    let states: Vec<(i64, VersionState)> = db
        .versions_of(bot.id)
        .await
        .unwrap()
        .iter()
        .map(|v| (v.number, v.state))
        .collect();
    assert_eq!(
        states,
        vec![
            (4, VersionState::Failed),
            (3, VersionState::Ready),
            (2, VersionState::Retired),
            (1, VersionState::Retired)
        ]
    );
});

on_both!(concurrent_builders_claim_distinct_versions, |t| {
    let db = &t.db;
    let u = user(db, "kim").await;
    let bot = db.create_bot(u.id, "k").await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(version(db, bot.id).await.id);
    }
    // Six builders at once (PostgreSQL: SKIP LOCKED; SQLite: one writer at a time).
    let claims = futures::future::join_all((0..6).map(|_| db.claim_build(60_000))).await;
    let mut claimed: Vec<i64> = claims
        .into_iter()
        .map(|c| c.unwrap().expect("a version for every builder").version.id)
        .collect();
    claimed.sort();
    ids.sort();
    assert_eq!(claimed, ids, "each version claimed exactly once");
    assert!(db.claim_build(60_000).await.unwrap().is_none());
});

on_both!(expired_build_leases_are_requeued_then_failed, |t| {
    let db = &t.db;
    let u = user(db, "hal").await;
    let bot = db.create_bot(u.id, "h").await.unwrap();
    let v = version(db, bot.id).await;
    // A builder claims and dies (lease of 0 ms: expired at once).
    let dead = db.claim_build(0).await.unwrap().unwrap();
    assert_eq!(db.expire_builds(now_ms() + 1, 2).await.unwrap(), 1);
    assert_eq!(
        db.version_by_id(v.id).await.unwrap().unwrap().state,
        VersionState::Uploaded
    );
    // The dead builder's late result is dropped.
    assert!(
        !db.finish_build(v.id, &dead.lease_token, &passed(true))
            .await
            .unwrap()
    );
    let again = db.claim_build(0).await.unwrap().unwrap();
    assert_eq!(again.version.build_attempt, 2);
    assert_eq!(db.expire_builds(now_ms() + 1, 2).await.unwrap(), 1);
    let v = db.version_by_id(v.id).await.unwrap().unwrap();
    assert_eq!(v.state, VersionState::Failed);
    assert!(v.build_log.contains("abandoned"), "{}", v.build_log);
    // A live lease is left alone.
    let w = version(db, bot.id).await;
    db.claim_build(60_000).await.unwrap().unwrap();
    assert_eq!(db.expire_builds(now_ms(), 2).await.unwrap(), 0);
    assert_eq!(
        db.version_by_id(w.id).await.unwrap().unwrap().state,
        VersionState::Building
    );
});

on_both!(schema_refuses_what_the_ladder_must_never_store, |t| {
    let db = &t.db;
    let u = user(db, "ivy").await;
    let bot = db.create_bot(u.id, "i").await.unwrap();
    let v = version(db, bot.id).await;
    // An unknown state.
    let bad = sqlx::query("UPDATE bot_versions SET state = 'winning' WHERE id = $1")
        .bind(v.id)
        .execute(db.pool())
        .await;
    assert!(bad.is_err());
    // A version of a bot that does not exist (foreign keys are on in SQLite too).
    let mut orphan = NewVersion {
        id: new_id().unwrap(),
        bot_id: 12345,
        language: "c".into(),
        source_kind: SourceKind::Zip,
        source_name: "x.zip".into(),
        source_bytes: 1,
        unpacked_bytes: 1,
        file_count: 1,
        source_sha256: String::new(),
    };
    assert!(db.add_version(&orphan).await.is_err());
    orphan.bot_id = bot.id;
    db.add_version(&orphan).await.unwrap();
    // A match gets one result only.
    let m = new_id().unwrap();
    sqlx::query(
        "INSERT INTO matches (id, state, seed, hands, duplicate, created_at, not_before, max_attempts) \
         VALUES ($1, 'queued', $2, 100, 1, 0, 0, 3)",
    )
    .bind(m)
    .bind(u64::MAX as i64)
    .execute(db.pool())
    .await
    .unwrap();
    let result = |worker: &'static str| {
        sqlx::query("INSERT INTO match_results (match_id, worker, recorded_at) VALUES ($1, $2, 0)")
            .bind(m)
            .bind(worker)
            .execute(db.pool())
    };
    result("w1").await.unwrap();
    let second = result("w2").await.map_err(StorageError::from);
    assert!(matches!(second, Err(StorageError::Conflict)), "{second:?}");
    // The seed's 64 bits survive the signed column.
    let row: (i64,) = sqlx::query_as("SELECT seed FROM matches WHERE id = $1")
        .bind(m)
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(row.0 as u64, u64::MAX);
});

on_both!(the_contest_file_is_recorded_for_workers, |t| {
    let db = &t.db;
    assert_eq!(db.contest_record().await.unwrap(), None);
    assert_eq!(db.contest_updated_at().await.unwrap(), None);
    db.record_contest("game = \"classic\"\n", "c.toml")
        .await
        .unwrap();
    let first = db.contest_record().await.unwrap().unwrap();
    assert_eq!(first.toml, "game = \"classic\"\n");
    assert_eq!(first.file, "c.toml");
    assert_eq!(first.frozen_at, None);
    assert_eq!(first.final_state, "none");
    // A restarted server with a changed file replaces the row (one row, id 1).
    db.record_contest("game = \"555\"\n", "d.toml")
        .await
        .unwrap();
    let second = db.contest_record().await.unwrap().unwrap();
    assert_eq!(second.toml, "game = \"555\"\n");
    assert_eq!(second.file, "d.toml");
    assert!(second.updated_at >= first.updated_at);
    assert_eq!(
        db.contest_updated_at().await.unwrap(),
        Some(second.updated_at)
    );
});

/// Workers on other machines reach PostgreSQL over the network: `sslmode` and `sslrootcert`
/// in the URL are honoured (rustls). `.ci/run` gives the test cluster a certificate of its
/// own for localhost and 127.0.0.1 and names it in ARENA_TEST_POSTGRES_CA.
#[tokio::test]
async fn postgres_connections_can_require_verified_tls() {
    let Some(t) = common::TestDb::postgres("postgres_connections_can_require_verified_tls").await
    else {
        return;
    };
    let Ok(ca) = std::env::var("ARENA_TEST_POSTGRES_CA") else {
        eprintln!("TLS not checked: set ARENA_TEST_POSTGRES_CA to the cluster's certificate");
        t.cleanup().await;
        return;
    };
    let verified = format!("{}&sslmode=verify-full&sslrootcert={ca}", t.url);
    let db = Db::open(&verified).await.unwrap();
    let ssl: bool = sqlx::query_scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert!(ssl, "the connection is encrypted");
    db.close().await;
    // A certificate that no trusted root signed is refused, not silently accepted.
    let public_roots_only = format!("{}&sslmode=verify-full", t.url);
    assert!(Db::open(&public_roots_only).await.is_err());
    t.cleanup().await;
}

/// The next queued match (the second of a pair may wait for its millisecond).
async fn claim(db: &Db) -> server::storage::MatchClaim {
    for _ in 0..100 {
        if let Some(c) = db.claim_match("w", 60_000).await.unwrap() {
            return c;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("nothing to claim");
}

/// Plays a pair by hand: its two matches in order (seats swapped in the second),
/// each with the first seat's chips given (the second seat gets the opposite).
async fn play_pair(db: &Db, a: i64, b: i64, first_seat_chips: &[i64]) {
    use server::storage::{Finish, NewPair, SeatOutcome};
    db.schedule_pair(&NewPair {
        version_a: a,
        version_b: b,
        seeds: [11, 11],
        hands: 4,
        max_attempts: 3,
    })
    .await
    .unwrap();
    for (i, &chips) in first_seat_chips.iter().enumerate() {
        let claim = claim(db).await;
        let seats = [
            SeatOutcome { chips, faults: 0 },
            SeatOutcome {
                chips: -chips,
                faults: 0,
            },
        ];
        assert_eq!(
            db.finish_match(&claim, "w", None, &seats).await.unwrap(),
            Finish::Recorded { pair_rated: i == 1 }
        );
    }
}

on_both!(bot_records_count_rated_pairs_only, |t| {
    use server::storage::PairResults;
    let db = &t.db;
    let mut ids = Vec::new();
    for name in ["ann", "ben", "cat", "dan"] {
        let u = user(db, name).await;
        let bot = db.create_bot(u.id, &format!("{name}-bot")).await.unwrap();
        let v = version(db, bot.id).await;
        sqlx::query("UPDATE bot_versions SET state = 'ready' WHERE id = $1")
            .bind(v.id)
            .execute(db.pool())
            .await
            .unwrap();
        ids.push((bot.id, v.id));
    }
    let [(ann, a), (ben, b), (_, c), (dan, d)] = ids[..] else {
        unreachable!()
    };
    // ann–ben: +5 then (seats swapped, ben first) ben +5: ann's total 0, a draw.
    play_pair(db, a, b, &[5, 5]).await;
    // ann–cat twice: ann +7 then (cat first) cat +3, ann +4, won; cat first: cat +2 then ann
    // -6, ann -8, lost.
    play_pair(db, a, c, &[7, 3]).await;
    play_pair(db, c, a, &[2, -6]).await;
    // ben–dan: only the first match stored, so the pair is not rated and counts nowhere.
    db.schedule_pair(&server::storage::NewPair {
        version_a: b,
        version_b: d,
        seeds: [11, 11],
        hands: 4,
        max_attempts: 3,
    })
    .await
    .unwrap();
    let claim = claim(db).await;
    let outcome = |chips| server::storage::SeatOutcome { chips, faults: 0 };
    db.finish_match(&claim, "w", None, &[outcome(9), outcome(-9)])
        .await
        .unwrap();
    // A second version of ann's bot that failed to build: listed, never rated.
    let failed = version(db, ann).await;
    sqlx::query("UPDATE bot_versions SET state = 'failed' WHERE id = $1")
        .bind(failed.id)
        .execute(db.pool())
        .await
        .unwrap();

    let record = db.bot_record(ann).await.unwrap();
    let numbers: Vec<(i64, &str)> = record
        .versions
        .iter()
        .map(|v| (v.number, v.state.as_str()))
        .collect();
    assert_eq!(numbers, [(2, "failed"), (1, "ready")]);
    assert_eq!(record.versions[0].rating, None);
    assert_eq!(record.versions[0].results, PairResults::default());
    assert_eq!(record.versions[1].rating.map(|r| r.2), Some(3));
    assert_eq!(
        record.versions[1].results,
        PairResults {
            pairs: 3,
            won: 1,
            drawn: 1,
            lost: 1,
            chips: -4,
            hands: 24
        }
    );
    let cross: Vec<(&str, PairResults)> = record
        .crosstable
        .iter()
        .map(|c| (c.opponent.as_str(), c.results))
        .collect();
    assert_eq!(
        cross,
        [
            (
                "cat-bot",
                PairResults {
                    pairs: 2,
                    won: 1,
                    drawn: 0,
                    lost: 1,
                    chips: -4,
                    hands: 16
                }
            ),
            (
                "ben-bot",
                PairResults {
                    pairs: 1,
                    won: 0,
                    drawn: 1,
                    lost: 0,
                    chips: 0,
                    hands: 8
                }
            ),
        ]
    );
    assert_eq!(record.crosstable[0].results.per_hand(), Some(-0.25));
    // ben: the draw only; the unrated half-pair against dan is nowhere.
    let record = db.bot_record(ben).await.unwrap();
    assert_eq!(record.versions[0].results.pairs, 1);
    assert_eq!(record.versions[0].results.drawn, 1);
    assert_eq!(record.versions[0].results.chips, 0);
    assert_eq!(record.crosstable.len(), 1);
    assert_eq!(record.crosstable[0].opponent, "ann-bot");
    // dan: a ratings row since its pair was scheduled, but no rated pair: not rated yet.
    let record = db.bot_record(dan).await.unwrap();
    assert_eq!(record.versions[0].rating, None);
    assert_eq!(record.versions[0].results, PairResults::default());
    assert!(record.crosstable.is_empty());
});
