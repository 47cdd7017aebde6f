//! Part `ladder`: what the ladder's own steps cost at 100 and at `LOAD_BOTS` bots (seeded as
//! in part `leaderboard`, ~`LOAD_PAIRS_PER_BOT` rated pairs each): the scheduler's pick
//! (`ladder_candidates` + `pick_pair`), scheduling the pair, claiming a match, finishing a
//! pair's two matches (the second rates the pair), and the leaderboard, JSON and a bot's page
//! as one client sees them (the query, the HTML, HTTP). Medians of `LOAD_REPS` runs each.

use std::time::Instant;

use server::ladder::schedule::pick_pair;
use server::storage::{Db, Finish, MatchClaim, NewPair, SeatOutcome};

use super::common::{env_or, header, median, ms};
use super::http::Client;
use super::seed::{Database, backends, bot_name, seed};
use super::site;

/// Stores a played match's result, as a worker does (the one place this bench calls
/// `finish_match`, whose arguments are changing).
async fn finish(db: &Db, claim: &MatchClaim, chips: i64) -> Finish {
    let seats = [
        SeatOutcome { chips, faults: 0 },
        SeatOutcome {
            chips: -chips,
            faults: 0,
        },
    ];
    // As large as a 100-hand replay compressed (8.6 KB, ARCHITECTURE.md).
    let replay = vec![0x5a_u8; 8_600];
    db.finish_match(claim, "bench", Some(&replay), &seats)
        .await
        .expect("finish_match")
}

const STEPS: [&str; 8] = [
    "pick: ladder_candidates + pick_pair",
    "schedule_pair",
    "claim_match",
    "finish a pair (2 finish_match, rated)",
    "leaderboard() query",
    "GET /leaderboard",
    "GET /api/leaderboard",
    "GET /leaderboard/BOT",
];

/// Median milliseconds of each step at `bots` bots.
async fn measure(backend: &'static str, bots: usize, pairs: usize, reps: usize) -> Vec<f64> {
    let database = Database::open(backend).await;
    let db = &database.db;
    seed(db, bots, pairs).await;
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); STEPS.len()];
    for rep in 0..reps {
        let t = Instant::now();
        let candidates = db.ladder_candidates().await.expect("candidates");
        let (a, b) = pick_pair(&candidates).expect("a pair");
        times[0].push(ms(t.elapsed()));
        let t = Instant::now();
        db.schedule_pair(&NewPair {
            version_a: a,
            version_b: b,
            seeds: [rep as u64 + 1; 2],
            hands: 100,
            max_attempts: 3,
        })
        .await
        .expect("schedule_pair");
        times[1].push(ms(t.elapsed()));
        let t = Instant::now();
        let first = db.claim_match("bench", 900_000).await.expect("claim");
        times[2].push(ms(t.elapsed()));
        let first = first.expect("a queued match");
        // The pair's second match may be claimed one millisecond after the first.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        let second = db
            .claim_match("bench", 900_000)
            .await
            .expect("claim")
            .expect("the pair's second match");
        let t = Instant::now();
        let one = finish(db, &first, 10).await;
        let two = finish(db, &second, -30).await;
        times[3].push(ms(t.elapsed()));
        assert_eq!(one, Finish::Recorded { pair_rated: false });
        assert_eq!(two, Finish::Recorded { pair_rated: true });
        let t = Instant::now();
        let board = db.leaderboard().await.expect("leaderboard");
        times[4].push(ms(t.elapsed()));
        assert_eq!(board.len(), bots);
    }
    let dir = super::common::temp_dir("ladder-load-scale-");
    let contest = super::common::contest(dir.path(), "[ladder]\nworkers = 0\n");
    let (address, server) = site::serve(site::state(contest, db.clone(), false)).await;
    let mut client = Client::connect(address).await.expect("connect");
    for rep in 0..reps {
        for (step, path) in [
            (5, "/leaderboard".to_string()),
            (6, "/api/leaderboard".to_string()),
            (7, format!("/leaderboard/{}", bot_name(rep * 37 % bots))),
        ] {
            let t = Instant::now();
            let answer = client.get(&path).await.expect("GET");
            times[step].push(ms(t.elapsed()));
            assert_eq!(answer.status, 200, "{path}");
        }
    }
    server.abort();
    database.close().await;
    times.iter_mut().map(|t| median(t)).collect()
}

pub async fn run() {
    let big = env_or("LOAD_BOTS", 1000) as usize;
    let small = (big / 10).max(10);
    let pairs = env_or("LOAD_PAIRS_PER_BOT", 40) as usize;
    let reps = env_or("LOAD_REPS", 20) as usize;
    for backend in backends() {
        header(&format!(
            "the ladder's steps at {small} and {big} bots, ~{pairs} rated pairs each, {backend}, medians of {reps}"
        ));
        let at_small = measure(backend, small, pairs, reps).await;
        let at_big = measure(backend, big, pairs, reps).await;
        println!(
            "{:<40} {:>10} {:>10} {:>7}",
            "step",
            format!("{small} ms"),
            format!("{big} ms"),
            "ratio"
        );
        for (i, step) in STEPS.iter().enumerate() {
            println!(
                "{step:<40} {:>10.2} {:>10.2} {:>6.1}x",
                at_small[i],
                at_big[i],
                at_big[i] / at_small[i]
            );
        }
    }
}
