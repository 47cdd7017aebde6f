//! Each bot decision's stderr lines in the replay: kept with `--logs` only, attached to the
//! decision during which the bot wrote them, and bounded.

use crate::common;

use common::{GENEROUS_TIME, bots_toml, python_bot, run_arena};
use serde_json::Value;

/// Plays 3 seats of `arena/tests/bots/thinking.py ARG` and returns the replay's records.
fn play(arg: &str, logs: bool) -> Vec<Value> {
    play_with(arg, logs, &[])
}

/// [`play`] with more options for the arena.
fn play_with(arg: &str, logs: bool, extra: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let logs_dir = dir.path().join("logs");
    let bot = format!("{} {arg}", python_bot("arena/tests/bots/thinking.py"));
    let mut args = vec!["match", "--game", "classic", "--hands", "4", "--seed", "7"];
    for _ in 0..3 {
        args.extend(["--bot", &bot]);
    }
    args.extend(["--sandbox", "none", "--replay", replay.to_str().unwrap()]);
    if logs {
        args.extend(["--logs", logs_dir.to_str().unwrap()]);
    }
    args.extend(extra);
    let out = run_arena(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let verify = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", common::stderr(&verify));
    std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn bot_actions(records: &[Value]) -> Vec<&Value> {
    let actions: Vec<&Value> = records
        .iter()
        .filter(|r| r["type"] == "action" && r["source"] == "bot")
        .collect();
    assert!(actions.len() >= 4, "a decision per hand at least");
    actions
}

fn lines(action: &Value) -> Vec<&str> {
    action["stderr_lines"]
        .as_array()
        .map(|a| a.iter().map(|l| l.as_str().unwrap()).collect())
        .unwrap_or_default()
}

#[test]
fn each_decision_gets_the_lines_written_for_it() {
    let records = play("", true);
    let bank = records[0]["time"]["bank_ms"].as_u64().unwrap();
    let mut seen_seat = [false; 3];
    // Well-behaved bots: the k-th decision of the match was request k.
    for (k, action) in bot_actions(&records).into_iter().enumerate() {
        let seat = action["seat"].as_u64().unwrap() as usize;
        let mut expected = Vec::new();
        if !std::mem::replace(&mut seen_seat[seat], true) {
            // Written at the hello: it goes with the seat's first decision.
            expected.push("hello from thinking".to_string());
        }
        expected.push(format!("thinking about request {}", k + 1));
        assert_eq!(lines(action), expected, "{action}");
        assert!(action.get("stderr_dropped").is_none(), "{action}");
        // Decisions far within `decision_ms`: the bank is untouched.
        assert_eq!(action["bank_ms"].as_u64(), Some(bank), "{action}");
        assert!(action["elapsed_ms"].is_u64());
    }
    // The arena's own actions (none here) would carry neither.
    assert!(
        records
            .iter()
            .filter(|r| r["type"] == "action" && r["source"] == "arena")
            .all(|r| r.get("bank_ms").is_none())
    );
}

#[test]
fn a_flood_is_cut_to_the_bounds_and_counted() {
    let records = play("50", true);
    // Each decision writes 51 lines (+ the hello line before the first). A line read after
    // its decision's answer goes with the seat's next decision (two pipes, two readers: see
    // `sandbox::decision_stderr`); a loaded CI machine did that once. So each decision
    // is checked against the bounds, and each seat's lines are counted over the match:
    // every line is kept or counted once, except what the last decision wrote after its
    // answer was taken.
    /// One seat's stderr lines over the match.
    #[derive(Default)]
    struct SeatLines {
        decisions: usize,
        /// Kept or counted as dropped.
        written: usize,
        dropped: usize,
        /// Kept lines that are a decision's first ("thinking about request ...").
        announced: usize,
    }
    let mut per_seat: std::collections::BTreeMap<u64, SeatLines> = Default::default();
    for action in bot_actions(&records) {
        let kept = lines(action);
        let dropped = action["stderr_dropped"].as_u64().unwrap_or(0) as usize;
        assert!(kept.len() <= 20, "{action}");
        assert!(
            kept.iter().map(|l| l.len()).sum::<usize>() <= 2048,
            "{action}"
        );
        let seat = per_seat
            .entry(action["seat"].as_u64().unwrap())
            .or_default();
        seat.decisions += 1;
        seat.written += kept.len() + dropped;
        seat.dropped += dropped;
        seat.announced += kept
            .iter()
            .filter(|l| l.starts_with("thinking about request"))
            .count();
    }
    assert_eq!(per_seat.len(), 3);
    for (seat, s) in per_seat {
        let SeatLines {
            decisions,
            written,
            dropped,
            announced,
        } = s;
        let all = 51 * decisions + 1;
        assert!(
            written <= all && written >= all - 51,
            "seat {seat}: {written} lines for {decisions} decisions"
        );
        assert!(dropped > 0, "seat {seat}");
        // Normally every decision keeps its first line; at least one does even on a bad day.
        assert!(announced > 0, "seat {seat}");
    }
}

#[test]
fn without_logs_no_stderr_is_recorded() {
    let records = play("", false);
    for action in bot_actions(&records) {
        assert!(action.get("stderr_lines").is_none(), "{action}");
        assert!(action.get("stderr_dropped").is_none(), "{action}");
        assert!(action["bank_ms"].is_u64(), "{action}");
    }
}

#[test]
fn replay_show_prints_the_lines_under_their_action() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let records = play("", true);
    let text: Vec<String> = records.iter().map(|r| r.to_string()).collect();
    std::fs::write(&replay, text.join("\n") + "\n").unwrap();
    let out = run_arena(&["replay", "show", replay.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let shown = common::stdout(&out);
    assert!(
        shown.contains("    | thinking about request 1\n"),
        "{shown}"
    );
    assert!(shown.contains("    stderr of thinking [1] ("), "{shown}");
}

/// A two-seat tournament of thinking bots; `extra` goes at the top of its file. Returns every
/// bot action of its replays.
fn tournament_actions(extra: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let bot = python_bot("arena/tests/bots/thinking.py");
    let file = dir.path().join("t.toml");
    let text = format!(
        "name = \"t\"\ngame = \"classic\"\nseats = 2\nhands = 2\nseed = 3\nrounds = 1\n\
         sandbox = \"none\"\n{extra}\n{GENEROUS_TIME}{}",
        bots_toml(&[("a", bot.clone()), ("b", bot)])
    );
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("out");
    let run = run_arena(&[
        "tournament",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(run.status.success(), "{}", common::stderr(&run));
    let mut actions = Vec::new();
    for entry in std::fs::read_dir(out.join("replays")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            let record: Value = serde_json::from_str(line).unwrap();
            if record["type"] == "action" && record["source"] == "bot" {
                actions.push(record);
            }
        }
    }
    assert!(!actions.is_empty());
    actions
}

#[test]
fn the_seat_budget_is_configurable() {
    // 50 lines of ~30 bytes a decision: a 1 KiB budget per seat is spent in the first ones.
    let records = play_with("50", true, &["--max-replay-stderr-kb", "1"]);
    for seat in 0..3 {
        let kept: usize = bot_actions(&records)
            .iter()
            .filter(|a| a["seat"] == seat)
            .flat_map(|a| lines(a))
            .map(|l| l.len())
            .sum();
        assert!(kept <= 1024, "seat {seat} kept {kept} bytes");
        assert!(kept > 0, "seat {seat} kept nothing");
    }
    let zero = run_arena(&[
        "match",
        "--game",
        "classic",
        "--max-replay-stderr-kb",
        "0",
        "--bot",
        "x",
    ]);
    assert_eq!(zero.status.code(), Some(2));
}

#[test]
fn a_tournament_records_the_lines_only_when_its_file_asks() {
    let kept = tournament_actions("replay_stderr = true");
    assert!(
        kept.iter().all(|a| lines(a)
            .last()
            .is_some_and(|l| l.starts_with("thinking about request"))),
        "{kept:?}"
    );
    let default = tournament_actions("");
    assert!(
        default.iter().all(|a| a.get("stderr_lines").is_none()),
        "{default:?}"
    );
    // `replay_stderr_kb` bounds them per bot and match (1 KiB: a few decisions' lines).
    let capped = tournament_actions("replay_stderr = true\nreplay_stderr_kb = 1");
    let kept: usize = capped.iter().flat_map(|a| lines(a)).map(|l| l.len()).sum();
    assert!(kept <= 2 * 1024, "two bots, 1 KiB each: {kept}");
}
