//! Part `leaderboard`: a seeded ladder of `LOAD_BOTS` bots behind the real router, read by
//! one reader and then by `LOAD_READERS` at once, each on its own keep-alive connection,
//! for `LOAD_SECONDS` seconds. Each reader asks in turn for the leaderboard page three times,
//! the JSON leaderboard once and a random bot's page once. Latency is from writing the
//! request to the last byte of the answer.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use super::common::{env_or, header, ms, quantile};
use super::http::Client;
use super::seed::{Database, backends, bot_name, seed};
use super::site;

const KINDS: [&str; 3] = ["/leaderboard", "/api/leaderboard", "/leaderboard/BOT"];

fn path_of(kind: usize, bot: usize) -> String {
    match kind {
        2 => format!("/leaderboard/{}", bot_name(bot)),
        k => KINDS[k].to_string(),
    }
}

/// One reader's latencies (ms) by kind, and its failures.
async fn reader(
    address: SocketAddr,
    id: usize,
    bots: usize,
    until: Instant,
) -> ([Vec<f64>; 3], usize) {
    let mut latencies: [Vec<f64>; 3] = Default::default();
    let mut failures = 0;
    let mut client = match Client::connect(address).await {
        Ok(c) => c,
        Err(_) => return (latencies, 1),
    };
    // Readers start at different points of the mix, so the kinds interleave.
    let mut turn = id;
    let mut bot = id * 7919;
    while Instant::now() < until {
        let kind = match turn % 5 {
            0..=2 => 0,
            3 => 1,
            _ => 2,
        };
        turn += 1;
        bot = (bot + 7919) % bots;
        let path = path_of(kind, bot);
        let start = Instant::now();
        match client.get(&path).await {
            Ok(answer) if answer.status == 200 && !answer.body.is_empty() => {
                latencies[kind].push(ms(start.elapsed()));
            }
            Ok(_) => failures += 1,
            Err(_) => {
                failures += 1;
                match Client::connect(address).await {
                    Ok(c) => client = c,
                    Err(_) => break,
                }
            }
        }
    }
    (latencies, failures)
}

async fn round(address: SocketAddr, readers: usize, bots: usize, seconds: u64, label: &str) {
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..readers)
        .map(|id| tokio::spawn(reader(address, id, bots, until)))
        .collect();
    let mut all: [Vec<f64>; 3] = Default::default();
    let mut failures = 0;
    for task in tasks {
        let (lat, failed) = task.await.expect("a reader");
        for (k, l) in lat.into_iter().enumerate() {
            all[k].extend(l);
        }
        failures += failed;
    }
    let wall = started.elapsed().as_secs_f64();
    let mut every: Vec<f64> = all.iter().flatten().copied().collect();
    let row = |name: &str, values: &mut Vec<f64>| {
        println!(
            "{label:<8} {readers:>7} {name:<18} {:>9} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>8.1}",
            values.len(),
            values.len() as f64 / wall,
            quantile(values, 0.5),
            quantile(values, 0.9),
            quantile(values, 0.99),
            quantile(values, 1.0),
        );
    };
    for (k, values) in all.iter_mut().enumerate() {
        row(KINDS[k], values);
    }
    row("all", &mut every);
    // A bot's page against the leaderboard page, measured in the same round: the bot pages
    // are cached per bot as the board is, and should stay within 2x of it.
    let (board, bot) = (quantile(&mut all[0], 0.99), quantile(&mut all[2], 0.99));
    if board > 0.0 {
        println!(
            "{label:<8} {readers:>7} bot page p99 / leaderboard p99 = {:.2}",
            bot / board
        );
    }
    if failures > 0 {
        println!("         {failures} failed requests");
    }
}

pub async fn run() {
    let bots = env_or("LOAD_BOTS", 1000) as usize;
    let pairs = env_or("LOAD_PAIRS_PER_BOT", 40) as usize;
    let readers = env_or("LOAD_READERS", 200) as usize;
    let seconds = env_or("LOAD_SECONDS", 10);
    for backend in backends() {
        header(&format!(
            "leaderboard readers: {bots} bots, ~{pairs} rated pairs each, {backend}, {seconds} s a round"
        ));
        let database = Database::open(backend).await;
        let started = Instant::now();
        let seeded = seed(&database.db, bots, pairs).await;
        println!(
            "seeded {} pairs, {} matches in {:.1} s",
            seeded.pairs,
            seeded.matches,
            started.elapsed().as_secs_f64()
        );
        let dir = super::common::temp_dir("ladder-load-site-");
        let contest = super::common::contest(dir.path(), "[ladder]\nworkers = 0\n");
        let state = site::state(contest, database.db.clone(), false);
        let (address, server) = site::serve(state).await;
        // Sizes, for the record.
        let mut client = Client::connect(address).await.expect("connect");
        for (kind, name) in KINDS.iter().enumerate() {
            let answer = client.get(&path_of(kind, 1)).await.expect("a page");
            assert_eq!(answer.status, 200, "{}", path_of(kind, 1));
            println!("{name:<18} {:>8} bytes", answer.body.len());
        }
        drop(client);
        println!(
            "{:<8} {:>7} {:<18} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "db", "readers", "path", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms"
        );
        round(address, 1, bots, seconds.div_ceil(2), backend).await;
        round(address, readers, bots, seconds, backend).await;
        server.abort();
        database.close().await;
    }
}
