//! A bot that cannot start, crashes or is disabled tells its owner why: the last lines of its
//! stderr appear in `arena match`'s summary and `--json`, `arena play`, `arena check-bot` and
//! the replay; a disabled seat makes `arena match` exit 5. And whatever a bot writes, what
//! the arena keeps of it on disk is bounded: transcripts are capped, every process of a
//! restarted seat keeps its own stderr log.

use crate::common;

use std::process::{Command, Stdio};

use common::{marker, processes_with, root, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

/// Python's own words for a script that is not there.
const NO_SUCH_FILE: &str = "can't open file";

fn zoo(name: &str) -> String {
    root()
        .join("arena/tests/zoo")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `arena match` of `bot` (seat 1 as people count, 0 in the JSON) against the Rust random
/// bot, with `extra` options.
fn match_against_random(bot: &str, hands: &str, extra: &[&str]) -> std::process::Output {
    let random = sample_bot("random-bot");
    let mut args = vec![
        "match", "--game", "classic", "--hands", hands, "--seed", "5", "--bot", bot, "--bot",
        &random,
    ];
    args.extend_from_slice(extra);
    run_arena(&args)
}

#[test]
fn a_missing_script_shows_pythons_message_in_the_summary_and_exits_5() {
    let out = match_against_random("python3 no_such_bot.py", "4", &["--max-restarts", "1"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(5), "{text}\n{}", stderr(&out));
    assert!(
        text.contains(
            "seat 1 (no_such_bot) NEVER STARTED: disabled before hand 2 after 2 attempts"
        ),
        "{text}"
    );
    assert!(text.contains("last: hand 1: startup fault"), "{text}");
    let stderr_line = text
        .lines()
        .find(|l| l.contains(NO_SUCH_FILE))
        .unwrap_or_else(|| panic!("Python's message is in the summary: {text}"));
    assert!(stderr_line.starts_with("  | "), "{text}");
    assert!(stderr_line.contains("no_such_bot.py"), "{text}");
    // And what the arena makes of it: the script is not where the arena was run.
    assert!(
        text.contains("  note: `no_such_bot.py` is not a file in "),
        "{text}"
    );
    // The table still comes first, and the sandbox line last.
    assert!(text.starts_with("classic match, 4 hands, seed 5"), "{text}");
    // Its seats are counted from 1, as in the lines under it.
    let rows: Vec<&str> = text.lines().skip(2).take(2).collect();
    assert!(rows[0].starts_with("1    no_such_bot "), "{text}");
    assert!(rows[1].starts_with("2    random-bot "), "{text}");
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("sandbox "),
        "{text}"
    );
    let message = stderr(&out);
    assert!(
        message.contains("seat 1 (no_such_bot) never started and was disabled before hand 2"),
        "{message}"
    );
}

#[test]
fn a_missing_script_shows_pythons_message_in_the_json_summary() {
    let out = match_against_random(
        "python3 no_such_bot.py",
        "3",
        &["--max-restarts", "0", "--json"],
    );
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let seat = &summary["bots"][0];
    assert_eq!(seat["never_started"], true, "{seat}");
    // No restart: its seat is disabled before the first hand is dealt.
    assert_eq!(seat["disabled_before_hand"], 0, "{seat}");
    let failure = &seat["last_failure"];
    assert_eq!(failure["hand"], 0, "{seat}");
    assert_eq!(failure["fault"], "startup", "{seat}");
    assert!(
        failure["detail"]
            .as_str()
            .unwrap()
            .contains("no hello answer"),
        "{seat}"
    );
    assert!(
        failure["stderr"].as_str().unwrap().contains(NO_SUCH_FILE),
        "{seat}"
    );
    assert!(
        failure["note"]
            .as_str()
            .unwrap()
            .starts_with("`no_such_bot.py` is not a file in "),
        "{seat}"
    );
    // Without --logs the log is gone with the match: no path to a file that is not there.
    assert!(failure["log"].is_null(), "{seat}");
    let other = &summary["bots"][1];
    assert!(other["last_failure"].is_null(), "{other}");
    assert!(other["disabled_before_hand"].is_null(), "{other}");
    assert_eq!(other["never_started"], false, "{other}");
}

#[test]
fn a_bot_that_plays_the_whole_match_exits_0_with_no_failure_block() {
    let random = sample_bot("random-bot");
    let out = match_against_random(&random, "3", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("stderr"), "{text}");
    assert!(
        !text.contains("DISABLED") && !text.contains("NEVER"),
        "{text}"
    );
}

#[test]
fn play_stops_when_a_bot_does_not_start_and_shows_why() {
    let out = Command::new(common::arena())
        .args([
            "play",
            "--game",
            "classic",
            "--hands",
            "2",
            "--bot",
            "python3 no_such_bot.py",
        ])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the arena runs");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(5), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("no_such_bot did not start: startup fault"),
        "{text}"
    );
    assert!(text.contains(NO_SUCH_FILE), "{text}");
    assert!(
        text.contains("  note: `no_such_bot.py` is not a file in "),
        "{text}"
    );
    assert!(!text.contains("Your cards"), "no hand is dealt: {text}");
    assert!(stderr(&out).contains("check-bot"), "{}", stderr(&out));
}

#[test]
fn play_tells_its_bots_the_hands_played_and_each_seats_net_chips() {
    // PROTOCOL.md's `match_end`: the hands played and net chips per seat, as a match sends.
    let dir = tempfile::tempdir().unwrap();
    let end = dir.path().join("end.json");
    let bot = format!("python3 {} {}", zoo("record_match_end.py"), end.display());
    // The person packs at every prompt.
    let out = common::run_arena_with_input(
        &root(),
        &[
            "play",
            "--game",
            "classic",
            "--hands",
            "3",
            "--seed",
            "11",
            "--sandbox",
            "none",
            "--bot",
            &bot,
        ],
        "pack\n".repeat(20).as_bytes(),
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    let total: i64 = text
        .split("Game over: ")
        .nth(1)
        .and_then(|t| t.split(" chips").next())
        .and_then(|t| t.trim_start_matches('+').parse().ok())
        .unwrap_or_else(|| panic!("no total in {text}"));
    let me: usize = text
        .split("You are seat ")
        .nth(1)
        .and_then(|t| t.split('.').next())
        .and_then(|t| t.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no seat in {text}"))
        - 1;
    let message: Value =
        serde_json::from_str(&std::fs::read_to_string(&end).expect("match_end received")).unwrap();
    assert_eq!(message["hands"], 3, "{message}");
    let totals: Vec<i64> = message["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_i64().unwrap())
        .collect();
    assert_eq!(totals.len(), 2);
    assert_eq!(totals[me], total, "{message} / {text}");
    assert_eq!(totals.iter().sum::<i64>(), 0, "zero-sum: {message}");
    // Both sides pack at their first decision (the bot's safe answer is pack too), so who
    // wins each boot depends on who acts first; with this seed the hands do not net to zero,
    // so the totals cannot be zeros by chance.
    assert_ne!(total, 0, "{text}");
}

#[test]
fn check_bot_shows_pythons_message_and_keeps_the_log_with_logs() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let out = run_arena(&[
        "check-bot",
        "--game",
        "classic",
        "--logs",
        logs.to_str().unwrap(),
        "--",
        "python3",
        "no_such_bot.py",
    ]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{report}");
    assert!(report.contains("FAIL  handshake"), "{report}");
    assert!(report.contains("its last stderr lines:"), "{report}");
    assert!(report.contains(NO_SUCH_FILE), "{report}");
    assert!(
        report.contains("        note:     `no_such_bot.py` is not a file in "),
        "{report}"
    );
    let log =
        std::fs::read_to_string(logs.join("01-classic-blind-and-seen-bets-see-show.stderr.log"))
            .expect("the scenario's log is kept");
    assert!(log.contains(NO_SUCH_FILE), "{log}");
    // And as JSON.
    let out = run_arena(&[
        "check-bot",
        "--game",
        "classic",
        "--json",
        "--",
        "python3",
        "no_such_bot.py",
    ]);
    let checks: Value = serde_json::from_str(&stdout(&out)).expect("JSON checks");
    assert!(
        checks[0]["stderr"].as_str().unwrap().contains(NO_SUCH_FILE),
        "{checks}"
    );
}

#[test]
fn check_bot_shows_the_end_of_a_crashing_bots_traceback() {
    let bot = zoo("traceback_crash.py");
    let out = run_arena(&["check-bot", "--game", "classic", "--", "python3", &bot]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{report}");
    let at = report
        .find("crashed fault: the bot exited")
        .unwrap_or_else(|| panic!("a crash is reported: {report}"));
    let after = &report[at..];
    assert!(
        after.contains("        | Traceback (most recent call last):"),
        "{report}"
    );
    assert!(
        after.contains("        | KeyError: 'opponent_cards'"),
        "{report}"
    );
}

#[test]
fn a_crashing_bots_traceback_is_in_the_replay_and_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let mark = marker("traceback");
    let bot = format!("python3 {} {mark}", zoo("traceback_crash.py"));
    let out = match_against_random(
        &bot,
        "8",
        &["--max-restarts", "1", "--replay", replay.to_str().unwrap()],
    );
    let text = stdout(&out);
    assert!(processes_with(&mark).is_empty());
    assert_eq!(out.status.code(), Some(5), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("seat 1 (traceback_crash) WAS DISABLED before hand"),
        "{text}"
    );
    assert!(text.contains("  | KeyError: 'opponent_cards'"), "{text}");

    let records: Vec<Value> = std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let crashes: Vec<&Value> = records
        .iter()
        .filter(|r| r["type"] == "fault" && r["fault"] == "crashed")
        .collect();
    assert_eq!(crashes.len(), 2, "the first process and its restart");
    for crash in &crashes {
        let tail = crash["stderr"]
            .as_str()
            .expect("the fault record has the stderr");
        assert!(tail.ends_with("KeyError: 'opponent_cards'"), "{tail}");
        assert!(tail.len() <= 4096 && tail.lines().count() <= 20, "{tail}");
    }
    let shown = run_arena(&["replay", "show", replay.to_str().unwrap()]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let history = stdout(&shown);
    assert!(history.contains("    its last stderr lines:"), "{history}");
    assert!(
        history.contains("    | KeyError: 'opponent_cards'"),
        "{history}"
    );
    let verify = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}

#[test]
fn a_restarted_seat_keeps_the_log_of_every_process() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let mark = marker("restart-logs");
    let bot = format!("python3 {} {mark}", zoo("crash_mid_hand.py"));
    let out = match_against_random(
        &bot,
        "30",
        &[
            "--max-restarts",
            "2",
            "--logs",
            logs.to_str().unwrap(),
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let names = [
        "seat0-crash_mid_hand.stderr.log",
        "seat0-crash_mid_hand.restart1.stderr.log",
        "seat0-crash_mid_hand.restart2.stderr.log",
    ];
    for name in names {
        let log =
            std::fs::read_to_string(logs.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            log.matches("crash_mid_hand: exiting with status 3").count(),
            1,
            "{name}: {log}"
        );
    }
    let summary: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let failure = &summary["bots"][0]["last_failure"];
    assert_eq!(
        failure["log"].as_str().unwrap(),
        logs.join(names[2]).to_str().unwrap(),
        "{failure}"
    );
}

#[test]
fn a_flood_of_big_answers_keeps_the_transcript_under_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = dir.path().join("transcripts");
    let mark = marker("big-answers");
    // Every answer padded to 60 KB (an unknown field, ignored): 200 hands write some 12 MB.
    let bot = format!("python3 {} {mark} --big", zoo("unsolicited.py"));
    let out = match_against_random(
        &bot,
        "200",
        &[
            "--transcripts",
            transcripts.to_str().unwrap(),
            "--max-transcript-mb",
            "1",
            "--decision-ms",
            "5000",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    // The copies repeat an id already answered: `wrong_id` (PROTOCOL.md), nothing else.
    let faults = summary["bots"][0]["faults"].as_object().unwrap();
    assert!(faults.keys().all(|kind| kind == "wrong_id"), "{summary}");
    let path = transcripts.join("seat0.txt");
    let size = std::fs::metadata(&path).unwrap().len();
    // The cap, and one line saying what was dropped.
    assert!(size <= (1 << 20) + 64, "{size} bytes");
    let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
    assert!(
        text.starts_with(">> {\"type\":\"hello\""),
        "the head is kept"
    );
    let dropped: u64 = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("[... ")?
                .strip_suffix(" bytes dropped ...]")?
                .parse()
                .ok()
        })
        .expect("a line says how much was dropped");
    assert!(dropped > 4 << 20, "{dropped} bytes dropped");
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with(">> {\"type\":\"match_end\""),
        "the tail is kept to the last line"
    );
}

#[test]
fn max_log_kb_caps_a_bots_stderr_log() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let random = sample_bot("random-bot");
    // 300 000 bytes of stderr before it plays well.
    let bot = format!("sh -c 'head -c 300000 /dev/zero | tr \"\\0\" x >&2; exec {random}'");
    let out = match_against_random(
        &bot,
        "2",
        &[
            "--name",
            "flood",
            "--sandbox",
            "none",
            "--max-log-kb",
            "8",
            "--logs",
            logs.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let log = std::fs::read_to_string(logs.join("seat0-flood.stderr.log")).unwrap();
    let dropped = 300_000 - 8192;
    assert_eq!(
        log,
        format!(
            "{}\n[... {dropped} bytes dropped ...]\n{}",
            "x".repeat(4096),
            "x".repeat(4096)
        )
    );
}
