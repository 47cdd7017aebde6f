//! What each sandbox level costs, measured in one run: `cargo bench -p arena --bench
//! sandbox_cost` (about two minutes; builds the sample bots if needed).
//!
//! - decision: the time of one decision of a 2-seat `chaal-bot` match (as in `round_trip`:
//!   the wall time of a `SANDBOX_HANDS`-hand match minus that of a 1-hand match, over the
//!   difference in decisions, so process startup cancels out), at `none`, `limits` and
//!   `bwrap`, and its ratio to `none` within the round;
//! - start: the wall time of a 1-hand match (two bots spawned, their hellos, one hand, both
//!   stopped): the bots' start and stop cost, and its difference to `none`;
//! - demo: the README's demo tournament (`tournaments/demo.toml`, 120 matches of Python and
//!   Rust bots) at the default level and at `none`, `--jobs` = the number of CPUs. Skipped
//!   when `SANDBOX_DEMO=0`.
//!
//! The levels run interleaved, `SANDBOX_ROUNDS` times (default 5; the demo
//! `SANDBOX_DEMO_ROUNDS`, default 2), and the medians of the per-round ratios are shown: the
//! machine is shared, neighbours come and go between rounds.

mod common;

use std::path::Path;

use common::{bot, command, median, temp_dir, timed};

const LEVELS: [&str; 3] = ["none", "limits", "bwrap"];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// (wall seconds, decisions) of one 2-seat chaal-bot match at `level`, every process on
/// CPU 0 when `pinned`.
fn play(pinned: bool, level: &str, hands: u64, chaal: &Path) -> (f64, u64) {
    let mut args: Vec<String> = [
        "match",
        "--game",
        "classic",
        "--seed",
        "1",
        "--pot-limit",
        "64",
        "--json",
        "--sandbox",
        level,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["--hands".into(), hands.to_string()]);
    for _ in 0..2 {
        args.extend(["--bot".into(), chaal.display().to_string()]);
    }
    let (output, elapsed) = timed(command(pinned, &common::arena(), &args));
    let summary: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the --json summary");
    let decisions = summary["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .map(|b| b["decisions"].as_u64().expect("decisions"))
        .sum();
    (elapsed.as_secs_f64(), decisions)
}

/// Wall seconds of the demo tournament with its `sandbox` line replaced by `sandbox`
/// (`None`: the line removed, i.e. the default level).
fn demo(sandbox: Option<&str>) -> f64 {
    let root = common::root();
    let text = std::fs::read_to_string(root.join("tournaments/demo.toml")).expect("demo.toml");
    let dir = temp_dir("sandbox-cost-");
    let mut file: String = text
        .lines()
        .filter(|l| !l.starts_with("sandbox") && !l.starts_with("output"))
        .map(|l| l.replace("../", &format!("{}/", root.display())))
        .collect::<Vec<_>>()
        .join("\n");
    if let Some(level) = sandbox {
        file = file.replacen("[time]", &format!("sandbox = \"{level}\"\n\n[time]"), 1);
    }
    let path = dir.path().join("demo.toml");
    std::fs::write(&path, file).expect("write the demo copy");
    let args = vec![
        "tournament".to_string(),
        path.display().to_string(),
        "-q".into(),
        "--out".into(),
        dir.path().join("out").display().to_string(),
    ];
    let (_, elapsed) = timed(command(false, &common::arena(), &args));
    elapsed.as_secs_f64()
}

/// The decision and start rows of every level, `rounds` interleaved rounds.
fn decision_table(pinned: bool, rounds: u64, hands: u64, chaal: &Path) {
    let mut decision: Vec<Vec<f64>> = vec![Vec::new(); LEVELS.len()];
    let mut decision_ratio: Vec<Vec<f64>> = vec![Vec::new(); LEVELS.len()];
    let mut start: Vec<Vec<f64>> = vec![Vec::new(); LEVELS.len()];
    let mut start_extra: Vec<Vec<f64>> = vec![Vec::new(); LEVELS.len()];
    for _ in 0..rounds {
        let mut per_decision = Vec::new();
        let mut short_wall = Vec::new();
        for level in LEVELS {
            let (short, short_decisions) = play(pinned, level, 1, chaal);
            let (long, long_decisions) = play(pinned, level, hands, chaal);
            per_decision.push((long - short).max(0.0) / (long_decisions - short_decisions) as f64);
            short_wall.push(short);
        }
        for i in 0..LEVELS.len() {
            decision[i].push(per_decision[i] * 1e6);
            decision_ratio[i].push(per_decision[i] / per_decision[0]);
            start[i].push(short_wall[i] * 1e3);
            start_extra[i].push((short_wall[i] - short_wall[0]) * 1e3);
        }
    }
    println!(
        "{}\n{:<8} {:>12} {:>10} {:>16} {:>16}",
        if pinned {
            "pinned (taskset -c 0)"
        } else {
            "unpinned"
        },
        "level",
        "decision us",
        "x none",
        "1-hand match ms",
        "+ms vs none"
    );
    for (i, level) in LEVELS.iter().enumerate() {
        println!(
            "{:<8} {:>12.2} {:>10.3} {:>16.1} {:>16.1}",
            level,
            median(&mut decision[i]),
            median(&mut decision_ratio[i]),
            median(&mut start[i]),
            median(&mut start_extra[i]),
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // `cargo bench -- --list` probes every bench target
    }
    let rounds = env_or("SANDBOX_ROUNDS", 5);
    let hands = env_or("SANDBOX_HANDS", 300);
    let chaal = bot("chaal-bot");
    bot("montecarlo-bot");
    println!(
        "sandbox cost, {} CPUs, {}; {rounds} rounds, {hands} hands",
        common::cpus(),
        common::today()
    );
    let pins: &[bool] = if common::can_pin() {
        &[false, true]
    } else {
        &[false]
    };
    for &pinned in pins {
        decision_table(pinned, rounds, hands, &chaal);
    }
    if env_or("SANDBOX_DEMO", 1) == 0 {
        return;
    }
    let demo_rounds = env_or("SANDBOX_DEMO_ROUNDS", 2);
    let mut ratios = Vec::new();
    let mut walls = (Vec::new(), Vec::new());
    for _ in 0..demo_rounds {
        let none = demo(Some("none"));
        let default = demo(None);
        walls.0.push(none);
        walls.1.push(default);
        ratios.push(default / none);
    }
    println!(
        "demo tournament: none {:.1} s, default level {:.1} s, default / none {:.3}",
        median(&mut walls.0),
        median(&mut walls.1),
        median(&mut ratios)
    );
}
