//! The contest server under load (issue 15, item 8):
//! `cargo bench -p teenpatti-server --bench ladder_load [-- PART...]`, PART one of
//!
//! - `leaderboard`: p50/p90/p99/max latency of the leaderboard pages with 1 and with
//!   `LOAD_READERS` (200) concurrent readers on a seeded ladder of `LOAD_BOTS` (1,000) bots;
//! - `ladder`: the scheduler's pick, finishing and rating a pair, and rendering the pages,
//!   at a tenth of `LOAD_BOTS` and at `LOAD_BOTS` bots;
//! - `uploads`: uploads accepted per minute (HTTP alone) and versions ready per minute (the
//!   build-and-check pipeline with 1 and 2 builders);
//! - `matches`: matches per minute of one worker against `arena tournament --jobs 1` on the
//!   same bots;
//!
//! all of them by default. SQLite always; PostgreSQL too when `ARENA_TEST_POSTGRES_URL` is
//! set (parts `leaderboard`, `ladder`, `uploads`). Knobs: see each part and BENCHMARKS.md.

mod common;
mod http;
mod matches;
mod readers;
mod scale;
mod seed;
mod site;
mod uploads;

const PARTS: [&str; 4] = ["leaderboard", "ladder", "uploads", "matches"];

fn main() {
    // `cargo bench` passes `--bench`; anything else that is not a part is refused.
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for part in &asked {
        if !PARTS.contains(&part.as_str()) {
            eprintln!(
                "unknown part {part:?}: expected one of {}",
                PARTS.join(", ")
            );
            std::process::exit(2);
        }
    }
    let parts: Vec<&str> = if asked.is_empty() {
        PARTS.to_vec()
    } else {
        PARTS
            .iter()
            .copied()
            .filter(|p| asked.iter().any(|a| a == p))
            .collect()
    };
    // Multi-threaded, as `arena-server` runs (one worker thread per CPU).
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let started = std::time::Instant::now();
    println!(
        "ladder load ({} CPUs, load {})",
        common::cpus(),
        common::load_average()
    );
    for part in parts {
        runtime.block_on(async {
            match part {
                "leaderboard" => readers::run().await,
                "ladder" => scale::run().await,
                "uploads" => uploads::run().await,
                _ => matches::run().await,
            }
        });
    }
    println!();
    println!("total {:.0} s", started.elapsed().as_secs_f64());
}
