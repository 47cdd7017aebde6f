//! The arena's own memory with many bots alive: `cargo bench -p arena --bench memory`
//! (about 30 s).
//!
//! A tournament of two-seat matches between slow bots (`chaal-bot --think-ms 20`: each
//! decision sleeps 20 ms, so matches stay alive without using the CPU), played with
//! `--jobs 1` (2 bots alive) and `--jobs 50` (100 bots alive). While it runs, this bench polls
//! `/proc/<arena>/status` every 10 ms for the arena's resident set (`VmRSS`, and the kernel's
//! own peak `VmHWM`) and counts the bots alive (the arena's child processes). Only the arena
//! process is measured, not the bots.
//!
//! Environment: `MEMORY_JOBS` (default 50), `MEMORY_HANDS` (default 4), `MEMORY_THINK_MS`
//! (default 20).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{bot, temp_dir};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A `/proc/<pid>/status` field in kB.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The live child processes of `pid` (over all its threads).
fn children(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .map(|list| list.split_whitespace().count())
        .sum()
}

fn write_tournament(dir: &Path, rounds: u64, hands: u64, think_ms: u64) -> std::path::PathBuf {
    let chaal = bot("chaal-bot");
    let file = dir.join("memory.toml");
    let mut text = format!(
        r#"name = "memory"
game = "classic"
format = "round-robin"
seats = 2
hands = {hands}
seed = 3
rounds = {rounds}
duplicate = true
sandbox = "none"

[table]
pot_limit = 64

[time]
startup_ms = 30000
decision_ms = 5000
bank_ms = 10000
"#
    );
    for name in ["a", "b", "c", "d", "e"] {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"slow-{name}\"\ncommand = \"{} --think-ms {think_ms}\"\n",
            chaal.display()
        ));
    }
    std::fs::write(&file, text).expect("the tournament file");
    file
}

struct Peak {
    rss_kb: u64,
    hwm_kb: u64,
    bots: usize,
    wall: f64,
    matches: u64,
}

fn run(file: &Path, out: &Path, jobs: u64) -> Peak {
    let start = Instant::now();
    let mut child = std::process::Command::new(common::arena())
        .arg("tournament")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(["--jobs", &jobs.to_string(), "-q"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the arena starts");
    let pid = child.id();
    let mut peak = Peak {
        rss_kb: 0,
        hwm_kb: 0,
        bots: 0,
        wall: 0.0,
        matches: 0,
    };
    loop {
        // Read before checking for exit: /proc/<pid> lasts until the arena is reaped.
        if let Some(rss) = status_kb(pid, "VmRSS:") {
            peak.rss_kb = peak.rss_kb.max(rss);
        }
        if let Some(hwm) = status_kb(pid, "VmHWM:") {
            peak.hwm_kb = peak.hwm_kb.max(hwm);
        }
        peak.bots = peak.bots.max(children(pid));
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "the tournament failed: {status}");
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    peak.wall = start.elapsed().as_secs_f64();
    peak.matches = std::fs::read_to_string(out.join("results.jsonl"))
        .map(|s| s.lines().count() as u64)
        .unwrap_or(0);
    peak
}

fn main() {
    let jobs = env_or("MEMORY_JOBS", 50);
    let hands = env_or("MEMORY_HANDS", 4);
    let think = env_or("MEMORY_THINK_MS", 20);
    // Five bots: 10 pairs, 20 matches per round with duplicate deals.
    let rounds = jobs.div_ceil(20);
    let dir = temp_dir("arena-bench-memory-");
    let file = write_tournament(dir.path(), rounds, hands, think);
    let total = Instant::now();
    println!(
        "arena memory with many bots alive: {} two-seat matches of {hands} hands, bots think \
         {think} ms per decision ({}, {} CPUs, load {})",
        rounds * 20,
        common::today(),
        common::cpus(),
        common::load_average()
    );
    println!();
    println!(
        "{:>6} {:>12} {:>14} {:>14} {:>8} {:>8}",
        "jobs", "bots alive", "peak RSS MB", "VmHWM MB", "wall s", "matches"
    );
    let mut peaks = Vec::new();
    for j in [1, jobs] {
        let out = dir.path().join(format!("out-{j}"));
        // With one job, a few matches are enough to see the floor.
        let peak = if j == 1 {
            let small = write_tournament(dir.path(), 1, 1, think);
            let p = run(&small, &out, 1);
            // Restore the main file for the next run.
            write_tournament(dir.path(), rounds, hands, think);
            p
        } else {
            run(&file, &out, j)
        };
        println!(
            "{:>6} {:>12} {:>14.1} {:>14.1} {:>8.1} {:>8}",
            j,
            peak.bots,
            peak.rss_kb as f64 / 1024.0,
            peak.hwm_kb as f64 / 1024.0,
            peak.wall,
            peak.matches
        );
        peaks.push(peak);
    }
    let (one, many) = (&peaks[0], &peaks[1]);
    if many.bots > one.bots {
        println!();
        println!(
            "per extra live match: {:.0} kB of arena memory ({} bots at most, target: arena \
             under 50 MB with 100 bots)",
            (many.hwm_kb as f64 - one.hwm_kb as f64) / ((many.bots - one.bots) as f64 / 2.0),
            many.bots
        );
    }
    println!("total {:.0} s", total.elapsed().as_secs_f64());
}
