//! Mixed answers (PROTOCOL.md, "Mixed answers") end to end: the Python random bot (and the
//! Rust Monte-Carlo bot, at its close calls) answers with mixes, the arena draws, the replay
//! records each mix beside the action drawn and re-simulates; the draws are reproducible and
//! follow the probabilities; a wrong mix is a fault of the right kind.

use crate::common;

use common::{python_bot, run_arena, seat_faults, stderr, stdout, zoo_bot};
use serde_json::Value;

fn play(bot: &str, other: &str, seed: &str, replay: &std::path::Path) -> Value {
    let out = run_arena(&[
        "match",
        "--game",
        "closest-555",
        "--hands",
        "60",
        "--seed",
        seed,
        "--bot",
        bot,
        "--bot",
        other,
        "--replay",
        replay.to_str().unwrap(),
        "--json",
    ]);
    assert!(common::match_played(&out), "{}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).expect("one JSON object")
}

/// The action records of a replay, without their timings (which differ run to run).
fn actions(replay: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(replay)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["type"] == "action")
        .map(|mut r| {
            let o = r.as_object_mut().unwrap();
            o.remove("elapsed_ms");
            o.remove("bank_ms");
            r
        })
        .collect()
}

/// The action of a record or of a mix entry, without its probability.
fn action_of(v: &Value) -> Value {
    let mut v = v.as_object().unwrap().clone();
    v.retain(|k, _| matches!(k.as_str(), "action" | "amount" | "card"));
    Value::Object(v)
}

#[test]
fn the_random_bot_mixes_and_the_arena_draws_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let random = python_bot("sample-bots/python/random_bot.py");
    let strength = python_bot("sample-bots/python/strength_bot.py");
    let first = dir.path().join("first.jsonl");
    let summary = play(&random, &strength, "11", &first);
    common::assert_no_faults(&summary, 0, "the random bot's mixes");
    let records = actions(&first);
    let mixed: Vec<&Value> = records.iter().filter(|r| r.get("mix").is_some()).collect();
    assert!(mixed.len() > 60, "{} mixed decisions", mixed.len());
    assert!(
        mixed.iter().all(|r| r["seat"] == 0),
        "only the random bot mixes"
    );
    // Each drawn action is one of its mix's; count how often "pack" was drawn against how
    // often the mixes said it would be.
    let (mut packs, mut expected, mut variance) = (0.0, 0.0, 0.0);
    for r in &mixed {
        let drawn = action_of(r);
        let entries = r["mix"].as_array().unwrap();
        assert!(entries.iter().any(|e| action_of(e) == drawn), "{r}");
        let total: f64 = entries.iter().map(|e| e["p"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9, "{r}");
        let p_pack: f64 = entries
            .iter()
            .filter(|e| e["action"] == "pack")
            .map(|e| e["p"].as_f64().unwrap())
            .sum();
        packs += (r["action"] == "pack") as u8 as f64;
        expected += p_pack;
        variance += p_pack * (1.0 - p_pack);
    }
    assert!(
        (packs - expected).abs() < 5.0 * variance.sqrt(),
        "{packs} packs drawn, {expected:.1} expected"
    );
    // The replay re-simulates.
    let out = run_arena(&["replay", "verify", first.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The same match again draws the same actions; another seed draws others.
    let again = dir.path().join("again.jsonl");
    play(&random, &strength, "11", &again);
    assert!(actions(&again) == records, "the same match drew otherwise");
    let other = dir.path().join("other.jsonl");
    play(&random, &strength, "12", &other);
    assert!(actions(&other) != records, "another seed drew the same");
}

#[test]
fn the_montecarlo_bot_declares_its_close_calls_as_mixes() {
    let dir = tempfile::tempdir().unwrap();
    let montecarlo = common::sample_bot("montecarlo-bot");
    let passive = python_bot("sample-bots/python/minimal_bot.py");
    let replay = dir.path().join("mc.jsonl");
    let summary = play(&montecarlo, &passive, "5", &replay);
    common::assert_no_faults(&summary, 0, "the montecarlo bot's mixes");
    let records = actions(&replay);
    let mine = records.iter().filter(|r| r["seat"] == 0).count();
    let mixed: Vec<&Value> = records.iter().filter(|r| r.get("mix").is_some()).collect();
    // Close calls only: some of its betting decisions, never a swap (those it computes
    // exactly), never the passive bot's.
    assert!(
        !mixed.is_empty() && mixed.len() < mine / 2,
        "{} of {mine} decisions mixed",
        mixed.len()
    );
    for r in &mixed {
        assert_eq!(r["seat"], 0, "{r}");
        assert_ne!(r["kind"], "swap", "{r}");
        let entries = r["mix"].as_array().unwrap();
        assert!(entries.len() >= 2, "a one-action mix is sent plain: {r}");
        let total: f64 = entries.iter().map(|e| e["p"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9, "{r}");
        assert!(entries.iter().any(|e| action_of(e) == action_of(r)), "{r}");
    }
    let out = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_mix_with_an_illegal_action_or_a_bad_sum_is_a_fault() {
    let dir = tempfile::tempdir().unwrap();
    let mark = common::marker("mixed_answers_fault");
    let random = common::sample_bot("random-bot");
    let replay = dir.path().join("r.jsonl");
    for (how, kind, says) in [
        ("illegal", "illegal", "mix[1]: "),
        ("sum", "malformed", "add up to 0.9"),
    ] {
        let bot = zoo_bot(&mark, "bad_mix.py", &[how]);
        let summary = play(&bot, &random, "3", &replay);
        assert!(seat_faults(&summary, 0, kind) >= 10, "{how}: {summary}");
        let text = std::fs::read_to_string(&replay).unwrap();
        assert!(text.contains(says), "{how}: no fault detail with {says:?}");
        // Nothing was drawn from a refused mix: the replay holds no mix at all.
        assert!(actions(&replay).iter().all(|r| r.get("mix").is_none()));
        let out = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert!(common::processes_with(&mark).is_empty());
}
