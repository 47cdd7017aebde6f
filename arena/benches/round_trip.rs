//! One bot decision through the arena against a raw pipe round trip, measured in the same run:
//! `cargo bench -p arena --bench round_trip` (about a minute; builds the sample bots if needed).
//!
//! - raw: this bench's own process (as a child of itself) writes a ~100-byte line to
//!   `echo-bot` and reads it back, `RAW_TRIPS` times, timing each trip: with blocking
//!   `std::process` pipes, with tokio on a current-thread runtime, with tokio on a
//!   multi-thread runtime driving the loop from `block_on`, and from a spawned task (as the
//!   tournament runner does). `arena match` uses a current-thread runtime.
//! - raw, same shape: the same blocking echo with 2, 3 or 6 children served in turn, as a
//!   match of that many seats sends each decision to the next bot. Serving several processes
//!   in turn costs more than one (caches and TLB shared by more address spaces), so these are
//!   the like-for-like floors for the arena rows (`x same shape`).
//! - arena: `arena match --sandbox none` between `chaal-bot`s (2, 3 and 6 seats, classic,
//!   pot limit 64 so hands are ~30 decisions long). Time per decision = (wall time of a
//!   `MATCH_HANDS`-hand match - wall time of a 1-hand match) / (decisions of the first -
//!   decisions of the second): process startup and shutdown cancel out.
//!
//! Each configuration runs `ROUNDS` times, interleaved, and the ratios are taken within a round
//! (the machine is shared: neighbours come and go between rounds), then their median is shown.
//! Everything runs twice: unpinned, then every process under `taskset -c 0` (one CPU for the
//! arena, its threads and the bots).
//!
//! Environment: `ROUND_TRIP_ROUNDS` (default 5), `ROUND_TRIP_TRIPS` (default 20000),
//! `ROUND_TRIP_HANDS` (default 300).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use common::{bot, can_pin, command, median, quantile, timed};

/// A request-sized line (~100 bytes, as a short request is).
const LINE: &str = concat!(
    r#"{"type":"request","id":123456,"hand":7,"kind":"bet","legal":[{"action":"pack"},"#,
    r#"{"action":"bet","min":2}]}"#,
    "\n"
);

const RAW_MODES: [(&str, &str); 8] = [
    ("std", "raw: std blocking pipes"),
    ("std-2", "raw: std, 2 echo children in turn"),
    ("std-3", "raw: std, 3 echo children in turn"),
    ("std-6", "raw: std, 6 echo children in turn"),
    ("tokio-ct", "raw: tokio current_thread"),
    ("tokio-ct-2", "raw: tokio current_thread, 2 children"),
    ("tokio-mt", "raw: tokio multi_thread, block_on"),
    ("tokio-mt-task", "raw: tokio multi_thread, spawned task"),
];

/// The raw mode with as many echo children as the arena row has bots (a match of N seats
/// sends each decision to the next of N processes, which costs more than one child: the
/// CPU's caches and TLB are shared by more address spaces).
fn same_shape_mode(seats: usize) -> usize {
    let mode = format!("std-{seats}");
    RAW_MODES
        .iter()
        .position(|(m, _)| *m == mode)
        .expect("a raw mode for every seat count")
}

const SEATS: [usize; 3] = [2, 3, 6];

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.first().map(String::as_str) == Some("child-raw") {
        child_raw(
            &args[1],
            args[2].parse().expect("trips"),
            Path::new(&args[3]),
        );
        return;
    }
    let rounds = env_or("ROUND_TRIP_ROUNDS", 5) as usize;
    let trips = env_or("ROUND_TRIP_TRIPS", 20_000);
    let hands = env_or("ROUND_TRIP_HANDS", 300);
    let echo = bot("echo-bot");
    let chaal = bot("chaal-bot");
    let total = Instant::now();
    println!(
        "round trip: raw pipe echo vs an arena decision ({}, {} CPUs, load {}, {} rounds)",
        common::today(),
        common::cpus(),
        common::load_average(),
        rounds
    );
    let pin_modes: &[bool] = if can_pin() {
        &[false, true]
    } else {
        println!("(taskset is missing: unpinned only)");
        &[false]
    };
    for &pinned in pin_modes {
        let mut raw: Vec<Vec<Trips>> = vec![Vec::new(); RAW_MODES.len()];
        let mut arena: Vec<Vec<f64>> = vec![Vec::new(); SEATS.len()];
        let mut decisions_per_hand = vec![0.0; SEATS.len()];
        for _ in 0..rounds {
            for (m, (mode, _)) in RAW_MODES.iter().enumerate() {
                raw[m].push(run_raw(pinned, mode, trips, &echo));
            }
            for (s, &seats) in SEATS.iter().enumerate() {
                let (per_decision, per_hand) = run_arena(pinned, seats, hands, &chaal);
                arena[s].push(per_decision);
                decisions_per_hand[s] = per_hand;
            }
        }
        println!();
        println!(
            "{} ({} trips per raw run, {} hands per match)",
            if pinned {
                "pinned: taskset -c 0 for every process"
            } else {
                "unpinned"
            },
            trips,
            hands
        );
        println!(
            "{:<40} {:>9} {:>9} {:>9} {:>10} {:>11} {:>12}",
            "", "median us", "p99 us", "mean us", "x raw std", "x raw task", "x same shape"
        );
        // The floor for a tokio referee: a spawned task on the multi-thread runtime.
        let task = RAW_MODES.len() - 1;
        for (m, (_, label)) in RAW_MODES.iter().enumerate() {
            let ratio = ratio_in_rounds(&raw[m], |r| r.mean, &raw[0]);
            let over_task = ratio_in_rounds(&raw[m], |r| r.mean, &raw[task]);
            let mut medians: Vec<f64> = raw[m].iter().map(|t| t.median).collect();
            let mut p99s: Vec<f64> = raw[m].iter().map(|t| t.p99).collect();
            let mut means: Vec<f64> = raw[m].iter().map(|t| t.mean).collect();
            println!(
                "{:<40} {:>9.1} {:>9.1} {:>9.1} {:>9.2}x {:>10.2}x",
                label,
                median(&mut medians) / 1e3,
                median(&mut p99s) / 1e3,
                median(&mut means) / 1e3,
                ratio,
                over_task
            );
        }
        for (s, &seats) in SEATS.iter().enumerate() {
            let ratio = ratio_in_rounds_f(&arena[s], &raw[0]);
            let over_task = ratio_in_rounds_f(&arena[s], &raw[task]);
            let same_shape = ratio_in_rounds_f(&arena[s], &raw[same_shape_mode(seats)]);
            let mut per = arena[s].clone();
            println!(
                "{:<40} {:>9} {:>9} {:>9.1} {:>9.2}x {:>10.2}x {:>11.2}x",
                format!(
                    "arena: {seats} seats ({:.0} decisions/hand)",
                    decisions_per_hand[s]
                ),
                "-",
                "-",
                median(&mut per) / 1e3,
                ratio,
                over_task,
                same_shape
            );
        }
    }
    println!();
    println!(
        "x raw std / x raw task: mean time per trip (raw) or per decision (arena) over the mean \
         trip of raw std / of the tokio spawned task in the same round; x same shape: over raw \
         std with as many echo children as the match has bots; medians over rounds."
    );
    println!("total {:.0} s", total.elapsed().as_secs_f64());
}

/// Per-trip statistics of one raw run, in nanoseconds.
#[derive(Clone, Copy, Debug)]
struct Trips {
    median: f64,
    p99: f64,
    mean: f64,
}

fn ratio_in_rounds(values: &[Trips], pick: impl Fn(&Trips) -> f64, base: &[Trips]) -> f64 {
    let mut ratios: Vec<f64> = values
        .iter()
        .zip(base)
        .map(|(v, b)| pick(v) / b.mean)
        .collect();
    median(&mut ratios)
}

fn ratio_in_rounds_f(values: &[f64], base: &[Trips]) -> f64 {
    // Arena figures are in nanoseconds per decision, like the trips.
    let mut ratios: Vec<f64> = values.iter().zip(base).map(|(v, b)| v / b.mean).collect();
    median(&mut ratios)
}

/// Runs this bench again as `child-raw MODE TRIPS ECHO` (pinned or not) and reads its line.
fn run_raw(pinned: bool, mode: &str, trips: u64, echo: &Path) -> Trips {
    let me = std::env::current_exe().expect("the bench's own path");
    let args = vec![
        "child-raw".to_string(),
        mode.to_string(),
        trips.to_string(),
        echo.display().to_string(),
    ];
    let (output, _) = timed(command(pinned, &me, &args));
    let text = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<f64> = text
        .split_whitespace()
        .map(|f| f.parse().expect("a number"))
        .collect();
    Trips {
        median: fields[0],
        p99: fields[1],
        mean: fields[2],
    }
}

/// (seconds per decision, decisions per hand) of chaal-bots at `seats` seats.
fn run_arena(pinned: bool, seats: usize, hands: u64, chaal: &Path) -> (f64, f64) {
    let play = |hands: u64| {
        let mut args: Vec<String> = [
            "match",
            "--game",
            "classic",
            "--seed",
            "1",
            "--pot-limit",
            "64",
            "--sandbox",
            "none",
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(["--hands".into(), hands.to_string()]);
        for _ in 0..seats {
            args.extend(["--bot".into(), chaal.display().to_string()]);
        }
        let (output, elapsed) = timed(command(pinned, &common::arena(), &args));
        let summary: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("the --json summary");
        let decisions: u64 = summary["bots"]
            .as_array()
            .expect("bots")
            .iter()
            .map(|b| b["decisions"].as_u64().expect("decisions"))
            .sum();
        (elapsed.as_secs_f64(), decisions)
    };
    let (short, short_decisions) = play(1);
    let (long, long_decisions) = play(hands);
    let per_decision = (long - short).max(0.0) / (long_decisions - short_decisions) as f64;
    (per_decision * 1e9, long_decisions as f64 / hands as f64)
}

/// The child: `trips` round trips of `LINE` through `echo`; prints median, p99 and mean in ns.
fn child_raw(mode: &str, trips: u64, echo: &Path) {
    let mut times = match mode {
        "std" => raw_std(trips, echo, 1),
        "std-2" => raw_std(trips, echo, 2),
        "std-3" => raw_std(trips, echo, 3),
        "std-6" => raw_std(trips, echo, 6),
        "tokio-ct" | "tokio-ct-2" => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(raw_tokio(
                trips,
                echo.to_path_buf(),
                if mode == "tokio-ct" { 1 } else { 2 },
            )),
        "tokio-mt" => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(raw_tokio(trips, echo.to_path_buf(), 1)),
        "tokio-mt-task" => {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            let echo = echo.to_path_buf();
            runtime
                .block_on(async move { tokio::spawn(raw_tokio(trips, echo, 1)).await })
                .expect("the task")
        }
        other => panic!("unknown mode {other}"),
    };
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let p99 = quantile(&mut times, 0.99);
    let med = median(&mut times);
    println!("{med} {p99} {mean}");
}

/// Warm-up trips, not timed.
const WARM_UP: u64 = 500;

/// Blocking round trips to `children` echo processes in turn (one, or two as the two bots of
/// a two-seat match take turns).
fn raw_std(trips: u64, echo: &Path, children: usize) -> Vec<f64> {
    let mut pipes: Vec<_> = (0..children)
        .map(|_| {
            let mut child = std::process::Command::new(echo)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("echo-bot starts");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = BufReader::new(child.stdout.take().expect("stdout"));
            (child, Some(stdin), stdout)
        })
        .collect();
    let mut line = String::with_capacity(256);
    let mut times = Vec::with_capacity(trips as usize);
    for i in 0..WARM_UP + trips {
        let (_, stdin, stdout) = &mut pipes[i as usize % children];
        let start = Instant::now();
        stdin
            .as_mut()
            .expect("open")
            .write_all(LINE.as_bytes())
            .expect("write");
        line.clear();
        stdout.read_line(&mut line).expect("read");
        let elapsed = start.elapsed();
        assert_eq!(line.len(), LINE.len());
        if i >= WARM_UP {
            times.push(elapsed.as_nanos() as f64);
        }
    }
    for (child, stdin, _) in &mut pipes {
        drop(stdin.take());
        let _ = child.wait();
    }
    times
}

async fn raw_tokio(trips: u64, echo: std::path::PathBuf, children: usize) -> Vec<f64> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut pipes: Vec<_> = (0..children)
        .map(|_| {
            let mut child = tokio::process::Command::new(&echo)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("echo-bot starts");
            let stdin = child.stdin.take().expect("stdin");
            let stdout = tokio::io::BufReader::new(child.stdout.take().expect("stdout"));
            (child, Some(stdin), stdout)
        })
        .collect();
    let mut line = String::with_capacity(256);
    let mut times = Vec::with_capacity(trips as usize);
    for i in 0..WARM_UP + trips {
        let (_, stdin, stdout) = &mut pipes[i as usize % children];
        let start = Instant::now();
        stdin
            .as_mut()
            .expect("open")
            .write_all(LINE.as_bytes())
            .await
            .expect("write");
        line.clear();
        stdout.read_line(&mut line).await.expect("read");
        let elapsed = start.elapsed();
        assert_eq!(line.len(), LINE.len());
        if i >= WARM_UP {
            times.push(elapsed.as_nanos() as f64);
        }
    }
    for (child, stdin, _) in &mut pipes {
        drop(stdin.take());
        let _ = child.wait().await;
    }
    times
}
