//! A fuzzing bot (`arena/tests/zoo/fuzz.py SEED`) against the real arena: each request gets a
//! seeded mix of valid answers, near misses, JSON fragments, random text and bytes, double
//! lines, over-long lines, silence and exits. Whatever the seed, the match finishes, the arena
//! exits 0, the bot's faults are counted (and nobody else's), no process is left, the arena's
//! memory stays small and `arena replay verify` accepts the replay.

use crate::common;

use std::time::{Duration, Instant};

use common::{marker, processes_with, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

const ARENA_RSS_LIMIT_KB: u64 = 100 * 1024;

fn fuzz_match(seed: u64, game: &str) {
    let test = format!("fuzz-{seed}");
    let mark = marker(&test);
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("fuzz.jsonl");
    let fuzz = format!(
        "python3 -X {mark} {} {seed}",
        common::root().join("arena/tests/zoo/fuzz.py").display()
    );
    let random = sample_bot("random-bot");
    let seed_text = seed.to_string();
    let started = Instant::now();
    let out = run_arena(&[
        "match",
        "--game",
        game,
        "--hands",
        "30",
        "--seed",
        &seed_text,
        "--bot",
        &fuzz,
        "--bot",
        &random,
        "--bot",
        &random,
        "--json",
        "--replay",
        replay.to_str().unwrap(),
        // A silent answer costs three seconds; the other bots answer in microseconds, but a
        // loaded 2-core CI machine has stalled one of them past a one-second limit (a
        // sandboxed Rust bot, while the server tests ran beside it). Enough restarts to fuzz
        // all along.
        "--decision-ms",
        "3000",
        "--bank-ms",
        "0",
        "--max-restarts",
        "1000",
    ]);
    let elapsed = started.elapsed();
    assert!(out.status.success(), "{test}: {}", stderr(&out));
    assert!(
        elapsed < Duration::from_secs(180),
        "{test}: took {elapsed:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_with(&mark).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let leftovers = processes_with(&mark);
    assert!(
        leftovers.is_empty(),
        "{test}: processes left: {leftovers:?}"
    );

    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let fuzzed = &summary["bots"][0];
    let faults: u64 = fuzzed["faults"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    let rss = summary["arena_max_rss_kb"].as_u64().unwrap();
    eprintln!(
        "{test} ({game}): {faults} faults {} in {elapsed:.1?}, {} restarts, arena peak RSS {rss} KiB",
        fuzzed["faults"], fuzzed["restarts"]
    );
    assert!(
        faults > 0,
        "{test}: the fuzzer's faults are counted: {summary}"
    );
    for other in 1..3 {
        assert_eq!(
            summary["bots"][other]["faults"],
            serde_json::json!({}),
            "{test}: only the fuzzer is blamed: {summary}"
        );
    }
    assert!(
        rss < ARENA_RSS_LIMIT_KB,
        "{test}: the arena grew to {rss} KiB"
    );

    let verify = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(
        verify.status.success(),
        "{test}: the replay does not verify: {}",
        stderr(&verify)
    );
    // Every fault is in the replay, with its kind.
    let recorded = std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with(r#"{"type":"fault""#))
        .count() as u64;
    assert_eq!(recorded, faults, "{test}: faults in the replay");
}

#[test]
fn fuzzed_answers_in_classic() {
    fuzz_match(1, "classic");
    fuzz_match(4, "classic");
}

#[test]
fn fuzzed_answers_in_closest_555() {
    fuzz_match(2, "closest-555");
    fuzz_match(5, "closest-555");
}

#[test]
fn fuzzed_answers_in_lallan_kallan() {
    fuzz_match(3, "lallan-kallan");
    fuzz_match(6, "lallan-kallan");
}
