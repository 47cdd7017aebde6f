//! The database goes away and comes back while the site is read and the ladder plays: a
//! real PostgreSQL server (the test's own: see `common/private_postgres.rs`) is stopped as a
//! crash would stop it, kept down for a few seconds, and started again.
//!
//! Meanwhile every page answers within a second: the leaderboard and the bots' pages read
//! before the outage with their last figures and their age ("the database is unreachable";
//! `stale` in the JSON), the home page as always, a bot's page never read with a 503 and
//! `Retry-After` (JSON under `/api/`). Nothing is a 500. Afterwards the pages are fresh
//! again, the workers play on by themselves, and every match is recorded exactly once with
//! consistent results and ratings, those stored before the outage unchanged.

use crate::common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use sqlx::Row;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use common::private_postgres::PrivatePostgres;

/// Pages read all along; `nobody` is a bot name no bot has (404 when the database answers).
/// `?as=alice` is read with alice's session cookie (the query changes nothing else).
const READ: [&str; 7] = [
    "/",
    "/leaderboard",
    "/api/leaderboard",
    "/leaderboard/caller",
    "/api/leaderboard/strong",
    "/api/leaderboard/nobody",
    LOGGED_IN,
];
const LOGGED_IN: &str = "/leaderboard?as=alice";
/// Read only during the outage: nothing cached for them (one bot's page and its JSON).
const NEVER_READ: &str = "/leaderboard/random";
const NEVER_READ_API: &str = "/api/leaderboard/random";
/// How long the database stays down.
const OUTAGE: Duration = Duration::from_secs(7);
/// Every answer within this while the database is away.
const PROMPT: Duration = Duration::from_secs(1);

#[derive(Debug)]
struct Sample {
    at: Instant,
    path: &'static str,
    status: u16,
    took: Duration,
    retry_after: bool,
    json: bool,
    /// The page's stale note, or the JSON's `stale`.
    stale: bool,
    body: String,
}

async fn read(site: &axum::Router, path: &'static str, cookie: &str) -> Sample {
    let at = Instant::now();
    let mut request = Request::get(path);
    if path == LOGGED_IN {
        request = request.header("cookie", cookie);
    }
    let response = site
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    let retry_after = response.headers().contains_key("retry-after");
    let json = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let took = at.elapsed();
    let body = String::from_utf8_lossy(&body).into_owned();
    let stale = if json {
        serde_json::from_str::<serde_json::Value>(&body)
            .map(|v| v["stale"] == true)
            .unwrap_or(false)
    } else {
        body.contains("id=\"stale\"")
    };
    Sample {
        at,
        path,
        status,
        took,
        retry_after,
        json,
        stale,
        body,
    }
}

/// Match id to its seats' chips, for every stored result.
async fn results(db: &server::storage::Db) -> BTreeMap<i64, Vec<i64>> {
    let rows =
        sqlx::query("SELECT match_id, seat, chips FROM match_result_seats ORDER BY match_id, seat")
            .fetch_all(db.pool())
            .await
            .unwrap();
    let mut out: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for r in rows {
        let id: i64 = r.get("match_id");
        out.entry(id).or_default().push(r.get("chips"));
    }
    out
}

async fn count(db: &server::storage::Db, sql: &str) -> i64 {
    sqlx::query(sql)
        .fetch_one(db.pool())
        .await
        .unwrap()
        .get::<i64, _>(0)
}

/// Waits until `done` holds, at most `limit`.
async fn until<F: AsyncFnMut() -> bool>(what: &str, limit: Duration, mut done: F) {
    let start = Instant::now();
    while !done().await {
        assert!(start.elapsed() < limit, "not within {limit:?}: {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_answer_and_nothing_is_lost_while_postgres_restarts() {
    let Some(pg) =
        PrivatePostgres::start("pages_answer_and_nothing_is_lost_while_postgres_restarts")
    else {
        return;
    };
    let started = Instant::now();
    let t = common::TestDb::at(&pg.url(), "private postgres").await;
    // Leases far longer than the outage: a match under way when the database goes keeps its
    // lease and stores its result once the database is back.
    let l = common::ladder::ladder(&t, 60).await;
    eprintln!("ladder built in {:.1} s", started.elapsed().as_secs_f64());
    let site = l.router();
    // A participant's session, for the page read logged in.
    let token = server::storage::random_hex(32).unwrap();
    let alice = t.db.user_by_name("alice").await.unwrap().unwrap();
    t.db.create_session(
        &server::storage::secret_digest(&token),
        alice.id,
        "csrf",
        server::storage::now_ms() + 3_600_000,
    )
    .await
    .unwrap();
    let cookie = format!("arena_session={token}");
    let stop = CancellationToken::new();
    let workers = server::ladder::pool::start(&t.db, l.contest.clone(), 2, "outage", &stop)
        .await
        .unwrap();

    // Readers, all along.
    let samples: Arc<Mutex<Vec<Sample>>> = Arc::default();
    let reading = CancellationToken::new();
    let outage = Arc::new(Mutex::new(None::<Instant>));
    let mut readers = Vec::new();
    for id in 0..4 {
        let (site, samples, reading, outage, cookie) = (
            site.clone(),
            samples.clone(),
            reading.clone(),
            outage.clone(),
            cookie.clone(),
        );
        readers.push(tokio::spawn(async move {
            let mut turn = id;
            while !reading.is_cancelled() {
                let down = outage.lock().unwrap().is_some();
                let path = if down && turn % 8 == 7 {
                    [NEVER_READ, NEVER_READ_API][turn / 8 % 2]
                } else {
                    READ[turn % READ.len()]
                };
                turn += 1;
                let sample = read(&site, path, &cookie).await;
                samples.lock().unwrap().push(sample);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }

    // Some matches stored before the outage.
    until("four matches stored", Duration::from_secs(40), async || {
        count(&t.db, "SELECT COUNT(*) FROM match_results").await >= 4
    })
    .await;
    let before = results(&t.db).await;
    eprintln!(
        "{} matches stored at {:.1} s; stopping PostgreSQL",
        before.len(),
        started.elapsed().as_secs_f64()
    );

    // Down, as a crash takes it down.
    let down_at = Instant::now();
    pg.stop();
    *outage.lock().unwrap() = Some(down_at);
    tokio::time::sleep(OUTAGE).await;
    let up_at = Instant::now();
    pg.start_again();
    *outage.lock().unwrap() = None;
    eprintln!(
        "PostgreSQL back after {:.1} s",
        up_at.duration_since(down_at).as_secs_f64()
    );

    // Back: fresh pages, and the workers play on by themselves.
    until("a fresh leaderboard", Duration::from_secs(15), async || {
        let s = read(&site, "/api/leaderboard", "").await;
        s.status == 200 && !s.stale
    })
    .await;
    let back = Instant::now();
    let stored_before_restart = count(&t.db, "SELECT COUNT(*) FROM match_results").await as usize;
    until(
        "a match stored after the restart",
        Duration::from_secs(40),
        async || {
            count(&t.db, "SELECT COUNT(*) FROM match_results").await as usize
                > stored_before_restart
        },
    )
    .await;
    eprintln!(
        "first match stored {:.1} s after the restart",
        back.elapsed().as_secs_f64() + back.duration_since(up_at).as_secs_f64()
    );
    let target = before.len() + 4;
    until(
        "four more matches stored",
        Duration::from_secs(40),
        async || count(&t.db, "SELECT COUNT(*) FROM match_results").await as usize >= target,
    )
    .await;
    reading.cancel();
    for r in readers {
        r.await.unwrap();
    }
    // Workers stop between matches: whatever they had under way is stored first.
    stop.cancel();
    for w in workers {
        w.join();
    }
    eprintln!("done at {:.1} s", started.elapsed().as_secs_f64());

    let samples = std::mem::take(&mut *samples.lock().unwrap());
    // Asked while the database was away, and answered before it was back.
    let during: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.at >= down_at && s.at + s.took < up_at)
        .collect();
    // Every answer to a request made while it was away came within a second, including those
    // that the database's return answered.
    for s in samples.iter().filter(|s| s.at >= down_at && s.at < up_at) {
        assert!(
            s.took < PROMPT,
            "{} took {:?} while the database was away",
            s.path,
            s.took
        );
    }
    assert!(
        during.len() > 50,
        "{} readings during the outage",
        during.len()
    );
    // What the outage looked like, for the log.
    let mut summary: BTreeMap<(&str, u16, bool), (usize, Duration)> = BTreeMap::new();
    for s in &during {
        let e = summary.entry((s.path, s.status, s.stale)).or_default();
        e.0 += 1;
        e.1 = e.1.max(s.took);
    }
    for ((path, status, stale), (n, slowest)) in &summary {
        eprintln!(
            "during the outage: {path} {status} stale={stale}: {n} answers, slowest {slowest:?}"
        );
    }
    for s in &samples {
        assert_ne!(s.status, 500, "{} answered 500: {}", s.path, s.body);
    }
    for s in &during {
        match s.status {
            200 => {}
            404 => assert!(
                s.path.ends_with("/nobody"),
                "{} answered 404 while the database was away: {}",
                s.path,
                s.body
            ),
            503 => {
                assert!(s.retry_after, "{}: a 503 without Retry-After", s.path);
                assert_eq!(
                    s.json,
                    s.path.starts_with("/api/"),
                    "{}: {}",
                    s.path,
                    s.body
                );
                assert!(s.body.contains("unreachable"), "{}: {}", s.path, s.body);
            }
            other => panic!("{} answered {other}: {}", s.path, s.body),
        }
    }
    let of = |path: &'static str| during.iter().filter(move |s| s.path == path);
    // Logged in before the outage (the header's logout button), and answered during it, as
    // to anyone if the session cannot be read.
    assert!(
        samples.iter().any(|s| s.path == LOGGED_IN
            && s.at < down_at
            && s.body.contains("action=\"/logout\"")),
        "the session was never seen"
    );
    assert!(of(LOGGED_IN).count() > 0 && of(LOGGED_IN).all(|s| s.status == 200));
    // The home page has nothing of the database's to lose.
    assert!(of("/").all(|s| s.status == 200));
    // The pages read before it: served, and once their last figures are past their age, with
    // the note (the refresh fails after the connection wait, 2 s).
    for path in [
        "/leaderboard",
        LOGGED_IN,
        "/api/leaderboard",
        "/leaderboard/caller",
        "/api/leaderboard/strong",
    ] {
        let late: Vec<_> = of(path)
            .filter(|s| s.at.duration_since(down_at) > Duration::from_secs(5))
            .collect();
        assert!(!late.is_empty(), "{path} read late in the outage");
        for s in late {
            assert_eq!(s.status, 200, "{path}: {}", s.body);
            assert!(s.stale, "{path} not marked stale: {}", s.body);
            assert!(
                s.body.contains("the database is unreachable"),
                "{path}: {}",
                s.body
            );
        }
    }
    let stale_board = of("/leaderboard").rfind(|s| s.stale).unwrap();
    assert!(
        stale_board.body.contains("As of ")
            && stale_board
                .body
                .contains(" s ago; the database is unreachable."),
        "{}",
        stale_board.body
    );
    // Nothing cached: 503, HTML and JSON alike.
    assert!(
        of(NEVER_READ).count() > 0,
        "{NEVER_READ} read during the outage"
    );
    assert!(of(NEVER_READ).all(|s| s.status == 503 && !s.json));
    assert!(of(NEVER_READ_API).count() > 0);
    assert!(of(NEVER_READ_API).all(|s| s.status == 503 && s.json));
    assert!(
        of("/api/leaderboard/nobody")
            .filter(|s| s.at.duration_since(down_at) > Duration::from_secs(5))
            .all(|s| s.status == 503 || s.status == 404)
    );
    // And the bot's page fresh once it is back.
    assert_eq!(read(&site, NEVER_READ, "").await.status, 200);
    assert_eq!(read(&site, "/api/leaderboard/nobody", "").await.status, 404);

    // Nothing lost, nothing twice.
    let after = results(&t.db).await;
    for (id, chips) in &before {
        assert_eq!(after.get(id), Some(chips), "match {id} changed or vanished");
    }
    for (id, chips) in &after {
        assert_eq!(chips.len(), 2, "match {id}: {chips:?}");
        assert_eq!(
            chips.iter().sum::<i64>(),
            0,
            "match {id} is not zero-sum: {chips:?}"
        );
    }
    let done = count(&t.db, "SELECT COUNT(*) FROM matches WHERE state = 'done'").await;
    assert_eq!(
        done as usize,
        after.len(),
        "a done match without a result, or the reverse"
    );
    let results_rows = count(&t.db, "SELECT COUNT(*) FROM match_results").await;
    assert_eq!(results_rows as usize, after.len());
    // Every pair with both results rated, once; each rated pair counted in both versions'
    // games.
    let complete = count(
        &t.db,
        "SELECT COUNT(*) FROM match_pairs p WHERE \
         (SELECT COUNT(*) FROM matches m WHERE m.pair_id = p.id AND m.state = 'done') = 2",
    )
    .await;
    let rated = count(
        &t.db,
        "SELECT COUNT(*) FROM match_pairs WHERE rated_at IS NOT NULL",
    )
    .await;
    assert_eq!(rated, complete);
    assert!(rated >= 2, "{rated} pairs rated");
    let games = count(
        &t.db,
        "SELECT CAST(COALESCE(SUM(games), 0) AS BIGINT) FROM ratings",
    )
    .await;
    assert_eq!(games, 2 * rated);
    // For the log: how many matches were played again (a lease left to run out).
    let again = count(&t.db, "SELECT COUNT(*) FROM matches WHERE attempt > 1").await;
    eprintln!(
        "{} matches stored, {again} claimed more than once",
        after.len()
    );
    let failed = count(&t.db, "SELECT COUNT(*) FROM matches WHERE state = 'failed'").await;
    assert_eq!(failed, 0, "no match failed over the outage");

    drop(site);
    t.cleanup().await;
    drop(pg);
    eprintln!("total {:.1} s", started.elapsed().as_secs_f64());
}
