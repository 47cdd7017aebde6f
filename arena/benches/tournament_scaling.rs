//! A whole tournament of light bots at `--jobs 1` and `--jobs 2`:
//! `cargo bench -p arena --bench tournament_scaling` (about a minute).
//!
//! Four bots (two `chaal-bot`s, two `random-bot`s), a two-seat round-robin with duplicate
//! deals: 12 matches per round, `TOURNAMENT_ROUNDS` rounds (default 8, so 96 matches) of
//! `TOURNAMENT_HANDS` hands (default 20, pot limit 64: short hands). Every match starts two bot
//! processes and writes a replay, as tournaments do. Run with the `none` and the default
//! `limits` sandbox.
//!
//! Each configuration runs `SCALING_REPEATS` times (default 3): `--jobs 1`, `--jobs 1` with
//! every process on one CPU (`taskset -c 0`: the one-CPU throughput), `--jobs 2`, and
//! `--jobs 1` and `--jobs 2` with `--affinity` (each job slot and its bots pinned to a CPU),
//! back to back; speedups are taken within each repeat and the median shown. CPU is the user + system
//! time of the arena and everything it waited for (bots included), from `/proc/self/stat`;
//! CPU / wall is how many CPUs the tournament kept busy.

mod common;

use std::path::Path;
use std::time::Instant;

use common::{bot, can_pin, command, median, temp_dir, timed};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// User + system CPU seconds of this process's waited-for children (`cutime` + `cstime`).
fn children_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the whole line, 14 and 15 after the name.
    let ticks: f64 = fields.get(13)?.parse::<f64>().ok()? + fields.get(14)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

fn write_tournament(dir: &Path, sandbox: &str, rounds: u64, hands: u64) -> std::path::PathBuf {
    let chaal = bot("chaal-bot");
    let random = bot("random-bot");
    let file = dir.join(format!("scaling-{sandbox}.toml"));
    let text = format!(
        r#"name = "scaling"
game = "classic"
format = "round-robin"
seats = 2
hands = {hands}
seed = 7
rounds = {rounds}
duplicate = true
sandbox = "{sandbox}"

[table]
pot_limit = 64

[[bot]]
name = "chaal-a"
command = "{chaal}"

[[bot]]
name = "chaal-b"
command = "{chaal}"

[[bot]]
name = "random-a"
command = "{random}"

[[bot]]
name = "random-b"
command = "{random} --seed 99"
"#,
        chaal = chaal.display(),
        random = random.display(),
    );
    std::fs::write(&file, text).expect("the tournament file");
    file
}

struct Run {
    wall: f64,
    cpu: f64,
}

fn run(file: &Path, dir: &Path, jobs: usize, pinned: bool, affinity: bool, n: usize) -> Run {
    let out = dir.join(format!("out-{jobs}-{pinned}-{affinity}-{n}"));
    let mut args = vec![
        "tournament".to_string(),
        file.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--jobs".into(),
        jobs.to_string(),
        "-q".into(),
    ];
    if affinity {
        args.push("--affinity".into());
    }
    let cmd = command(pinned, &common::arena(), &args);
    let cpu_before = children_cpu();
    let (_, wall) = timed(cmd);
    let cpu = match (cpu_before, children_cpu()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    let _ = std::fs::remove_dir_all(&out);
    Run {
        wall: wall.as_secs_f64(),
        cpu,
    }
}

fn main() {
    let rounds = env_or("TOURNAMENT_ROUNDS", 8);
    let hands = env_or("TOURNAMENT_HANDS", 20);
    let repeats = env_or("SCALING_REPEATS", 3) as usize;
    let matches = 12 * rounds;
    let dir = temp_dir("arena-bench-scaling-");
    let total = Instant::now();
    println!(
        "tournament scaling: {matches} two-seat matches of {hands} hands, 4 light bots \
         ({}, {} CPUs, load {}, {repeats} repeats)",
        common::today(),
        common::cpus(),
        common::load_average(),
    );
    println!();
    let pin = can_pin();
    println!(
        "{:<8} {:<16} {:>8} {:>10} {:>7} {:>9} {:>10} {:>12}",
        "sandbox", "jobs", "wall s", "matches/s", "CPU s", "CPU/wall", "x jobs 1", "x 1 pinned"
    );
    for sandbox in ["none", "limits"] {
        let file = write_tournament(dir.path(), sandbox, rounds, hands);
        // (label, jobs, pinned, --affinity)
        let mut configs = vec![("1", 1, false, false)];
        if pin {
            configs.push(("1, taskset -c 0", 1, true, false));
        }
        configs.push(("2", 2, false, false));
        configs.push(("1, --affinity", 1, false, true));
        configs.push(("2, --affinity", 2, false, true));
        let mut runs: Vec<Vec<Run>> = configs.iter().map(|_| Vec::new()).collect();
        for n in 0..repeats {
            for (c, &(_, jobs, pinned, affinity)) in configs.iter().enumerate() {
                runs[c].push(run(&file, dir.path(), jobs, pinned, affinity, n));
            }
        }
        for (c, &(label, ..)) in configs.iter().enumerate() {
            let speedup_over = |base: usize| {
                let mut ratios: Vec<f64> = runs[base]
                    .iter()
                    .zip(&runs[c])
                    .map(|(b, r)| b.wall / r.wall)
                    .collect();
                format!("{:.2}x", median(&mut ratios))
            };
            let mut walls: Vec<f64> = runs[c].iter().map(|r| r.wall).collect();
            let mut cpus: Vec<f64> = runs[c].iter().map(|r| r.cpu).collect();
            let mut busy: Vec<f64> = runs[c].iter().map(|r| r.cpu / r.wall).collect();
            let wall = median(&mut walls);
            println!(
                "{:<8} {:<16} {:>8.2} {:>10.1} {:>7.2} {:>9.2} {:>10} {:>12}",
                sandbox,
                label,
                wall,
                matches as f64 / wall,
                median(&mut cpus),
                median(&mut busy),
                speedup_over(0),
                if pin { speedup_over(1) } else { "-".into() }
            );
        }
    }
    println!();
    println!(
        "medians over repeats; x jobs 1 / x 1 pinned: that row's speed over --jobs 1 \
         (unpinned / on one CPU) in the same repeat."
    );
    println!("total {:.0} s", total.elapsed().as_secs_f64());
}
