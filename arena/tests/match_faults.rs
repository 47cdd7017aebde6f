//! The real arena against misbehaving bots (`arena/tests/zoo/`): every match finishes, the
//! fault is counted under the right kind, and no process of the bot is left afterwards.

mod common;

use common::{marker, processes_with, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

/// Plays `zoo_bot` (seat 0) against the Rust random bot (seat 1) and returns the JSON summary
/// of seat 0. `extra` are more arena options.
fn play(test: &str, zoo_bot: &str, game: &str, hands: &str, extra: &[&str]) -> Value {
    let mark = marker(test);
    let zoo = common::root().join("arena/tests/zoo").join(zoo_bot);
    let bot = format!("python3 {} {mark}", zoo.display());
    let random = sample_bot("random-bot");
    let mut args = vec![
        "match",
        "--game",
        game,
        "--hands",
        hands,
        "--seed",
        "5",
        "--bot",
        &bot,
        "--bot",
        &random,
        "--json",
        "--decision-ms",
        "300",
        "--bank-ms",
        "0",
    ];
    args.extend_from_slice(extra);
    let started = std::time::Instant::now();
    let out = run_arena(&args);
    assert!(
        common::match_played(&out),
        "the match must be played whatever the bot does ({}): {}",
        out.status,
        stderr(&out)
    );
    // Bounded time: generous for a loaded machine, far below "hung".
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
    let leftovers = processes_with(&mark);
    assert!(leftovers.is_empty(), "processes left behind: {leftovers:?}");
    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let seat = summary["bots"][0].clone();
    assert_eq!(seat["seat"], 0);
    // The other seat is never blamed.
    assert_eq!(
        summary["bots"][1]["faults"],
        serde_json::json!({}),
        "{summary}"
    );
    // Zero-sum over the match.
    let total = seat["net"].as_i64().unwrap() + summary["bots"][1]["net"].as_i64().unwrap();
    assert_eq!(total, 0);
    seat
}

fn faults(seat: &Value, kind: &str) -> u64 {
    seat["faults"][kind].as_u64().unwrap_or(0)
}

#[test]
fn a_bot_that_never_answers_times_out_and_packs() {
    let seat = play("hang", "hang.py", "closest-555", "3", &[]);
    assert!(faults(&seat, "timeout") >= 1, "{seat}");
    assert!(
        seat["net"].as_i64().unwrap() < 0,
        "it packed every hand: {seat}"
    );
}

#[test]
fn a_bot_that_answers_too_late_times_out_and_its_late_answers_are_dropped() {
    let seat = play("slow", "slow.py", "classic", "6", &[]);
    assert!(faults(&seat, "timeout") >= 1, "{seat}");
    assert_eq!(
        faults(&seat, "wrong_id"),
        0,
        "late answers are not wrong ids: {seat}"
    );
    assert_eq!(faults(&seat, "malformed"), 0, "{seat}");
}

#[test]
fn a_bot_that_crashes_mid_hand_is_restarted_then_disabled() {
    let seat = play(
        "crash",
        "crash_mid_hand.py",
        "classic",
        "30",
        &["--max-restarts", "2"],
    );
    assert!(faults(&seat, "crashed") >= 1, "{seat}");
    assert_eq!(seat["restarts"], 2, "{seat}");
    assert!(seat["disabled_before_hand"].is_u64(), "{seat}");
    assert_eq!(seat["never_started"], false, "{seat}");
    let failure = &seat["last_failure"];
    assert_eq!(failure["fault"], "crashed", "{seat}");
    assert!(
        failure["stderr"]
            .as_str()
            .is_some_and(|s| s.contains("crash_mid_hand: exiting with status 3")),
        "{seat}"
    );
}

#[test]
fn a_bot_that_exits_at_start_is_a_startup_fault() {
    let seat = play(
        "exit-start",
        "exit_at_start.py",
        "classic",
        "3",
        &["--max-restarts", "1"],
    );
    assert_eq!(
        faults(&seat, "startup"),
        2,
        "first start and one restart: {seat}"
    );
    assert_eq!(seat["never_started"], true, "{seat}");
    assert_eq!(seat["disabled_before_hand"], 1, "{seat}");
    assert_eq!(
        seat["last_failure"]["stderr"], "exit_at_start: leaving before hello",
        "{seat}"
    );
}

#[test]
fn a_bot_that_never_says_hello_is_a_startup_fault() {
    let seat = play(
        "no-hello",
        "no_hello.py",
        "classic",
        "2",
        &["--max-restarts", "0", "--startup-ms", "500"],
    );
    assert_eq!(faults(&seat, "startup"), 1, "{seat}");
}

#[test]
fn garbage_answers_are_malformed() {
    let seat = play("garbage", "garbage.py", "closest-555", "3", &[]);
    assert!(faults(&seat, "malformed") >= 1, "{seat}");
}

#[test]
fn illegal_answers_are_recorded_and_the_bot_packs() {
    let seat = play("illegal", "illegal.py", "classic", "4", &[]);
    assert!(faults(&seat, "illegal") >= 1, "{seat}");
}

#[test]
fn answers_with_the_wrong_id_are_faults() {
    let seat = play("wrong-id", "wrong_id.py", "classic", "6", &[]);
    assert!(faults(&seat, "wrong_id") >= 1, "{seat}");
}

#[test]
fn invalid_utf8_is_its_own_fault() {
    let seat = play("utf8", "invalid_utf8.py", "classic", "2", &[]);
    assert!(faults(&seat, "invalid_utf8") >= 1, "{seat}");
}

#[test]
fn a_line_of_100_mb_is_cut_at_the_limit() {
    let seat = play("long-line", "long_line.py", "classic", "2", &[]);
    assert!(faults(&seat, "line_too_long") >= 1, "{seat}");
}

#[test]
fn unsolicited_lines_without_an_id_are_malformed_and_late_copies_are_dropped() {
    let seat = play("unsolicited", "unsolicited.py", "classic", "3", &[]);
    assert_eq!(
        faults(&seat, "wrong_id"),
        0,
        "copies of old answers are dropped: {seat}"
    );
}

#[test]
fn a_bot_whose_forked_child_keeps_stdout_open_is_seen_as_crashed() {
    let seat = play("fork", "fork_child.py", "classic", "3", &[]);
    assert!(faults(&seat, "crashed") >= 1, "{seat}");
    assert_eq!(faults(&seat, "timeout"), 0, "{seat}");
}

#[test]
fn a_bot_that_ignores_sigterm_and_never_exits_is_killed_at_the_end() {
    let seat = play("sigterm", "ignore_sigterm.py", "closest-555", "2", &[]);
    assert_eq!(seat["faults"], serde_json::json!({}), "{seat}");
}

#[test]
fn a_bot_that_stops_reading_stdin_is_faulted() {
    let seat = play("stop-reading", "stop_reading.py", "classic", "3", &[]);
    let blocked = faults(&seat, "stdin_blocked") + faults(&seat, "timeout");
    assert!(blocked >= 1, "{seat}");
}

#[test]
fn a_bot_that_closes_stdout_but_keeps_running_is_crashed_and_killed() {
    let seat = play(
        "close-stdout",
        "close_stdout.py",
        "classic",
        "6",
        &["--max-restarts", "1"],
    );
    assert!(faults(&seat, "crashed") >= 1, "{seat}");
    assert_eq!(faults(&seat, "timeout"), 0, "{seat}");
}
