//! The real arena against misbehaving bots (`arena/tests/zoo/`): every match finishes, the
//! fault is counted under the right kind, and no process of the bot is left afterwards.

use crate::common;

use common::{marker, processes_with, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

/// Plays `zoo_bot` (seat 0) against the Rust random bot (seat 1) and returns the JSON summary
/// of seat 0. `extra` are more arena options.
/// `zoo_bot` may carry the bot's own arguments after its file name (`"numbers.py whole"`).
fn play(test: &str, zoo_bot: &str, game: &str, hands: &str, extra: &[&str]) -> Value {
    let mark = marker(test);
    let (file, args) = zoo_bot.split_once(' ').unwrap_or((zoo_bot, ""));
    let zoo = common::root().join("arena/tests/zoo").join(file);
    let bot = format!("python3 {} {args} {mark}", zoo.display());
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
fn a_second_copy_of_an_answer_is_a_wrong_id() {
    let (seat, faults_of) = play_recorded("unsolicited", "unsolicited.py", "classic", "3", &[]);
    assert!(faults(&seat, "wrong_id") >= 1, "{seat}");
    assert_eq!(faults(&seat, "timeout"), 0, "{seat}");
    assert!(
        faults_of("wrong_id").iter().all(|f| f["detail"]
            .as_str()
            .unwrap()
            .contains("was already answered")),
        "{:?}",
        faults_of("wrong_id")
    );
}

/// As [`play`], with a replay: also returns the replay's fault records of seat 0 of a kind.
fn play_recorded(
    test: &str,
    zoo_bot: &str,
    game: &str,
    hands: &str,
    extra: &[&str],
) -> (Value, impl Fn(&str) -> Vec<Value> + use<>) {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let mut args = vec!["--replay", replay.to_str().unwrap()];
    args.extend_from_slice(extra);
    let seat = play(test, zoo_bot, game, hands, &args);
    let text = std::fs::read_to_string(&replay).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let faults_of = move |kind: &str| {
        records
            .iter()
            .filter(|r| r["type"] == "fault" && r["seat"] == 0 && r["fault"] == kind)
            .cloned()
            .collect::<Vec<_>>()
    };
    (seat, faults_of)
}

#[test]
fn an_answer_with_the_previous_request_id_is_a_wrong_id_at_once() {
    let (seat, faults_of) = play_recorded("reused-id", "reused_id.py", "classic", "6", &[]);
    assert!(faults(&seat, "wrong_id") >= 1, "{seat}");
    // Not a silent wait that burns the bank.
    assert_eq!(faults(&seat, "timeout"), 0, "{seat}");
    for fault in faults_of("wrong_id") {
        let detail = fault["detail"].as_str().unwrap();
        assert!(detail.contains("was already answered"), "{detail}");
        assert!(detail.contains("answer request "), "{detail}");
        assert!(
            fault["line"].as_str().unwrap().starts_with("{\"id\":"),
            "{fault}"
        );
    }
}

#[test]
fn an_answer_with_another_seats_request_id_is_a_wrong_id_at_once() {
    let (seat, faults_of) = play_recorded("other-seat-id", "other_seat_id.py", "classic", "6", &[]);
    assert!(faults(&seat, "wrong_id") >= 1, "{seat}");
    assert_eq!(faults(&seat, "timeout"), 0, "{seat}");
    for fault in faults_of("wrong_id") {
        let detail = fault["detail"].as_str().unwrap();
        assert!(
            detail.contains("was never sent to this bot (ids are shared by all seats"),
            "{detail}"
        );
    }
}

#[test]
fn late_answers_after_a_timeout_are_dropped_without_a_fault() {
    // slow.py answers after 3 s: with 300 ms and no bank, every request times out and every
    // answer comes late, while the next request is pending.
    let (seat, faults_of) = play_recorded("slow-late", "slow.py", "closest-555", "2", &[]);
    assert!(faults(&seat, "timeout") >= 1, "{seat}");
    assert_eq!(faults(&seat, "wrong_id"), 0, "{seat}");
    assert_eq!(faults(&seat, "malformed"), 0, "{seat}");
    let detail = faults_of("timeout")[0]["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("a late answer with \"id\":"), "{detail}");
}

#[test]
fn whole_numbers_written_as_floats_are_read_as_integers() {
    let seat = play("numbers-whole", "numbers.py whole", "classic", "4", &[]);
    assert_eq!(seat["faults"], serde_json::json!({}), "{seat}");
}

#[test]
fn a_fractional_amount_is_malformed_and_named() {
    let (seat, faults_of) = play_recorded(
        "numbers-fraction",
        "numbers.py fraction",
        "classic",
        "3",
        &[],
    );
    assert!(faults(&seat, "malformed") >= 1, "{seat}");
    let fault = &faults_of("malformed")[0];
    let detail = fault["detail"].as_str().unwrap();
    assert!(detail.contains(".5 is not a whole number"), "{detail}");
    assert!(fault["line"].as_str().unwrap().contains(".5}"), "{fault}");
}

#[test]
fn a_huge_amount_is_echoed_exactly() {
    let (seat, faults_of) = play_recorded("numbers-huge", "numbers.py huge", "classic", "3", &[]);
    assert!(faults(&seat, "malformed") >= 1, "{seat}");
    let detail = faults_of("malformed")[0]["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        detail.contains("\"amount\":18446744073709551616 is above the largest allowed"),
        "{detail}"
    );
    assert!(
        !detail.contains("e+19") && !detail.contains("floating"),
        "{detail}"
    );
}

#[test]
fn illegal_answers_name_the_value_and_the_choices_offered() {
    let (_, faults_of) = play_recorded("illegal-words", "illegal.py", "classic", "4", &[]);
    let details: Vec<String> = faults_of("illegal")
        .iter()
        .map(|f| {
            // The line is the one the bot sent, not the arena's rewriting of it.
            let line = f["line"].as_str().unwrap();
            assert!(
                line.starts_with("{\"action\":") && line.contains(",\"id\":"),
                "{line}"
            );
            f["detail"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("bet 999999 is above the maximum ") && d.contains(": amounts ")),
        "{details:?}"
    );
    assert!(
        details
            .iter()
            .any(|d| d.starts_with("\"action\":\"accept\" is not offered; offered: pack, ")),
        "{details:?}"
    );
    for detail in &details {
        assert!(
            !detail.contains('{') && !detail.contains("Bet"),
            "no Rust: {detail}"
        );
    }
}

#[test]
fn each_bad_hello_names_its_field() {
    for (mode, says) in [
        ("empty_name", "\"name\" is empty"),
        (
            "version_number",
            "\"version\" is the number 2; write a string",
        ),
        (
            "protocol_string",
            "\"protocol\" is the string \"1\"; write a number",
        ),
        (
            "bom",
            "the line starts with a UTF-8 byte order mark (EF BB BF); write plain UTF-8",
        ),
        ("no_type", "no \"type\""),
    ] {
        let (seat, faults_of) = play_recorded(
            &format!("hello-{mode}"),
            &format!("bad_hello.py {mode}"),
            "classic",
            "2",
            &["--max-restarts", "0"],
        );
        assert_eq!(faults(&seat, "startup"), 1, "{mode}: {seat}");
        let fault = &faults_of("startup")[0];
        let detail = fault["detail"].as_str().unwrap();
        assert!(detail.starts_with("hello refused: "), "{mode}: {detail}");
        assert!(detail.contains(says), "{mode}: {detail}");
        assert!(
            fault["line"].is_string(),
            "{mode}: the line sent is kept: {fault}"
        );
    }
}

#[test]
fn the_claimed_protocol_version_is_recorded_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let minimal = common::python_bot("sample-bots/python/minimal_bot.py");
    let bad = format!(
        "python3 {} empty_name",
        common::root()
            .join("arena/tests/zoo/bad_hello.py")
            .display()
    );
    let zoo = format!(
        "python3 {}",
        common::root().join("arena/tests/zoo/illegal.py").display()
    );
    let out = run_arena(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "2",
        "--seed",
        "1",
        "--bot",
        &minimal,
        "--bot",
        &zoo,
        "--bot",
        &bad,
        "--max-restarts",
        "0",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    // The seat whose hello was refused is disabled: exit 5, the replay written all the same.
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    let records: Vec<Value> = std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let started: Vec<&Value> = records
        .iter()
        .filter(|r| r["type"] == "bot" && r["status"] == "started")
        .collect();
    assert_eq!(
        started.len(),
        2,
        "the third bot's hello was refused: {started:?}"
    );
    assert_eq!(started[0]["name"], "minimal-bot");
    assert_eq!(started[0]["version"], "1.0");
    assert_eq!(started[0]["protocol"], 1);
    assert_eq!(started[1]["protocol"], 1);
    let shown = run_arena(&["replay", "show", replay.to_str().unwrap()]);
    let text = stdout(&shown);
    assert!(
        text.contains("said hello: \"name\":\"minimal-bot\", \"version\":\"1.0\", \"protocol\":1"),
        "{text}"
    );
    assert!(
        text.contains("fault startup: hello refused: \"name\" is empty"),
        "{text}"
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
