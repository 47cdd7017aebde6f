//! Full replays of fixed-seed matches between deterministic sample bots, one per variant, as
//! reviewed snapshots: any change of rules, deal or protocol shows up as a diff here.
//!
//! Wall-clock values (timings, exit details) and machine paths are replaced after their shape
//! is checked, so the snapshots are the same on every machine.

use crate::common;

use common::{run_arena, sample_bot};
use serde_json::Value;

fn redact(record: &mut Value) {
    let obj = record.as_object_mut().expect("records are objects");
    match obj.get("type").and_then(Value::as_str) {
        Some("header") => {
            obj["arena_version"] = "[version]".into();
            for bot in obj["bots"].as_array_mut().unwrap() {
                let command = bot["command"].as_array_mut().unwrap();
                let program = command[0]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string();
                command[0] = format!("[bin]/{program}").into();
            }
        }
        Some("action") => {
            for key in ["elapsed_ms", "bank_ms"] {
                if let Some(ms) = obj.get_mut(key) {
                    assert!(ms.is_u64(), "{key} is a whole number of ms");
                    *ms = "[ms]".into();
                }
            }
            // Without --logs, as here, no bot's stderr is recorded.
            assert!(obj.get("stderr_lines").is_none() && obj.get("stderr_dropped").is_none());
        }
        Some("bot") => {
            for key in ["elapsed_ms", "stderr_bytes", "exit", "version"] {
                if let Some(v) = obj.get_mut(key) {
                    *v = format!("[{key}]").into();
                }
            }
        }
        Some("result") => {
            for seat in obj["seats"].as_array_mut().unwrap() {
                assert!(seat["decision_ms"].is_u64());
                seat["decision_ms"] = "[ms]".into();
            }
        }
        _ => {}
    }
}

fn snapshot_match(game: &str, seats: usize, hands: &str, seed: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let mc = sample_bot("montecarlo-bot");
    let random = sample_bot("random-bot");
    let mut args = vec!["match", "--game", game, "--hands", hands, "--seed", seed];
    for seat in 0..seats {
        args.push("--bot");
        args.push(if seat % 2 == 0 { &mc } else { &random });
    }
    args.extend([
        "--replay",
        replay.to_str().unwrap(),
        "--decision-ms",
        "5000",
    ]);
    let out = run_arena(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let verify = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", common::stderr(&verify));
    let text = std::fs::read_to_string(&replay).unwrap();
    text.lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).unwrap();
            redact(&mut record);
            serde_json::to_string(&record).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn classic_replay_of_a_fixed_seed_match() {
    insta::assert_snapshot!(snapshot_match("classic", 2, "4", "11"));
}

#[test]
fn closest_555_replay_of_a_fixed_seed_match() {
    insta::assert_snapshot!(snapshot_match("closest-555", 3, "4", "12"));
}

#[test]
fn lallan_kallan_replay_of_a_fixed_seed_match() {
    insta::assert_snapshot!(snapshot_match("lallan-kallan", 4, "5", "13"));
}
