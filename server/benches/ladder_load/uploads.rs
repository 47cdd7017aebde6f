//! Part `uploads`: Python starter kits (`bot.py` + `teenpatti.py`, zipped) uploaded through
//! the JSON API (`POST /api/bots/NAME/versions` with a bearer token), each by its own
//! account.
//!
//! - HTTP alone: `LOAD_HTTP_UPLOADS` uploads from 4 clients at once, no builder running:
//!   what the server accepts (unpacking, hashing, storing) per minute.
//! - The pipeline, with the contest's `[build] builders` = 1 and then 2 (the server's own
//!   builder tasks, `serve::start_builders`): `LOAD_UPLOADS` uploads sent at once, timed from
//!   the first request to the last version `ready` (each built in the sandbox, then
//!   check-bot'ed: the contest's game, time limits and sandbox).
//!
//! The per-address upload limit is lifted for the bench (see [`super::site::state`]).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use server::storage::{Db, random_hex, secret_digest};
use sqlx::Row;

use super::common::{env_or, header, median, ms, python_kit, quantile};
use super::http::Client;
use super::seed::Database;
use super::site;

/// `n` accounts with an API token each.
async fn accounts(db: &Db, n: usize) -> Vec<String> {
    let mut tokens = Vec::new();
    for i in 0..n {
        let user = db
            .create_user(
                &format!("up{i:04}"),
                "Uploader",
                Some("$argon2id$x"),
                None,
                false,
            )
            .await
            .expect("an account");
        let token = random_hex(32).expect("random");
        db.create_api_token(user.id, &secret_digest(&token), "bench")
            .await
            .expect("a token");
        tokens.push(token);
    }
    tokens
}

/// Uploads one kit per token from `clients` connections; each upload's latency (ms).
async fn upload_all(address: SocketAddr, tokens: &[String], clients: usize) -> Vec<f64> {
    let kit = python_kit();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let mine: Vec<(usize, String)> = tokens
                .iter()
                .enumerate()
                .filter(|(i, _)| i % clients == c)
                .map(|(i, t)| (i, t.clone()))
                .collect();
            let kit = kit.clone();
            tokio::spawn(async move {
                let mut client = Client::connect(address).await.expect("connect");
                let mut latencies = Vec::new();
                for (i, token) in mine {
                    let t = Instant::now();
                    let answer = client
                        .post_multipart(
                            &format!("/api/bots/kit{i:04}/versions"),
                            &token,
                            &[("language", "python")],
                            ("bot.zip", &kit),
                        )
                        .await
                        .expect("an upload");
                    assert_eq!(
                        answer.status,
                        201,
                        "{}",
                        String::from_utf8_lossy(&answer.body)
                    );
                    latencies.push(ms(t.elapsed()));
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a client"));
    }
    all
}

/// Versions by state.
async fn states(db: &Db) -> (i64, i64, i64) {
    let rows = sqlx::query("SELECT state, COUNT(*) AS n FROM bot_versions GROUP BY state")
        .fetch_all(db.pool())
        .await
        .expect("states");
    let (mut ready, mut failed, mut other) = (0, 0, 0);
    for row in rows {
        let state: String = row.get("state");
        let n: i64 = row.get("n");
        match state.as_str() {
            "ready" => ready += n,
            "failed" => failed += n,
            _ => other += n,
        }
    }
    (ready, failed, other)
}

async fn http_alone(backend: &'static str, n: usize) {
    let database = Database::open(backend).await;
    let dir = super::common::temp_dir("ladder-load-up-");
    let contest = super::common::contest(
        dir.path(),
        // No builder is started: the uploads wait, as they would behind busy builders.
        "[ladder]\nworkers = 0\n",
    );
    let tokens = accounts(&database.db, n).await;
    let (address, server) = site::serve(site::state(contest, database.db.clone(), true)).await;
    let started = Instant::now();
    let mut latencies = upload_all(address, &tokens, 4).await;
    let wall = started.elapsed().as_secs_f64();
    println!(
        "{backend:<8} {:<22} {n:>7} {:>9.1} {:>12.0} {:>9.1} {:>9.1}",
        "HTTP alone, 4 clients",
        wall,
        n as f64 * 60.0 / wall,
        median(&mut latencies),
        quantile(&mut latencies, 0.99),
    );
    server.abort();
    database.close().await;
}

async fn pipeline(backend: &'static str, builders: u64, n: usize) {
    let database = Database::open(backend).await;
    let dir = super::common::temp_dir("ladder-load-up-");
    let contest = super::common::contest(
        dir.path(),
        &format!("[ladder]\nworkers = 0\n[build]\nbuilders = {builders}\n"),
    );
    let tokens = accounts(&database.db, n).await;
    let state = site::state(contest, database.db.clone(), true);
    let building = server::serve::start_builders(&state).expect("the builders");
    let (address, server) = site::serve(state).await;
    let started = Instant::now();
    let mut latencies = upload_all(address, &tokens, 4).await;
    let accepted = started.elapsed().as_secs_f64();
    let (ready, failed) = loop {
        let (ready, failed, other) = states(&database.db).await;
        if other == 0 {
            break (ready, failed);
        }
        if started.elapsed() > Duration::from_secs(600) {
            panic!("builds still waiting after 10 minutes: {ready} ready, {failed} failed");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let wall = started.elapsed().as_secs_f64();
    println!(
        "{backend:<8} {:<22} {n:>7} {:>9.1} {:>12.0} {:>9.1} {:>9.1} {:>9.1} {:>12.1}",
        format!("pipeline, builders={builders}"),
        accepted,
        n as f64 * 60.0 / accepted,
        median(&mut latencies),
        quantile(&mut latencies, 0.99),
        wall,
        ready as f64 * 60.0 / wall,
    );
    assert_eq!(failed, 0, "a starter kit failed its build or check");
    for task in building {
        task.abort();
    }
    server.abort();
    database.close().await;
}

pub async fn run() {
    let http_n = env_or("LOAD_HTTP_UPLOADS", 300) as usize;
    let n = env_or("LOAD_UPLOADS", 30) as usize;
    for backend in super::seed::backends() {
        header(&format!(
            "uploads of the Python starter kit through the API, {backend}, sandbox {}",
            super::common::sandbox_name()
        ));
        println!(
            "{:<8} {:<22} {:>7} {:>9} {:>12} {:>9} {:>9} {:>9} {:>12}",
            "db",
            "run",
            "uploads",
            "sent s",
            "accepted/min",
            "p50 ms",
            "p99 ms",
            "ready s",
            "ready/min"
        );
        http_alone(backend, http_n).await;
        for builders in [1, 2] {
            pipeline(backend, builders, n).await;
        }
    }
}
